/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the graph's drawings (postproc/render/graph/graph-layout.c,
 * graph-svg.c, graph-dot.c): the layout read back from Graphviz, the SVG, and
 * the dot text read back by Graphviz itself (libcgraph's parser, and its own
 * SVG renderer showing the names as given). The graph itself: test-graph.c.
 */
#define _GNU_SOURCE	/* dladdr */
#include <dlfcn.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <gvc.h>

#include "graph-check.h"
#include "render/graph/graph.h"

static void layout_and_svg(void **state)
{
	struct graph g;
	char err[256];
	char *svg;
	const struct graph_node *n0, *n1, *n2;
	const struct graph_edge *e;

	small_graph(&g);
	/* Not laid out: no SVG. */
	assert_null(graph__svg(&g, NULL));
	assert_int_equal(errno, EINVAL);
	assert_int_equal(graph__layout(&g, 2, err, sizeof(err)), -E2BIG);
	assert_string_equal(err, "3 nodes to draw, more than 2");
	assert_false(g.laid_out);
	assert_int_equal(graph__layout(&g, 3, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_true(g.laid_out);
	n0 = &g.nodes[0], n1 = &g.nodes[1], n2 = &g.nodes[2];
	/* Top to bottom in flow order (the back edge does not rank), inside the drawing. */
	assert_true(n0->y < n1->y && n1->y < n2->y);
	for (int i = 0; i < 3; i++) {
		const struct graph_node *n = &g.nodes[i];

		assert_true(n->w > 10 && n->h > 10);
		assert_true(n->x - n->w / 2 >= 0 && n->x + n->w / 2 <= g.width);
		assert_true(n->y - n->h / 2 >= 0 && n->y + n->h / 2 <= g.height);
	}
	/* Two lines are taller than one; the widest label makes the widest box:
	 * 0.6 em per character of the 10-point font, plus the margins. */
	assert_true(n0->h > n1->h);
	assert_true(n1->w >= 0.6 * 10 * strlen(g.nodes[1].lines[0]));
	/* Every drawn edge runs from its tail's box to its head's box. */
	for (size_t i = 0; i < g.edges_nr; i++) {
		const struct graph_node *t, *h;

		e = &g.edges[i];
		t = &g.nodes[e->from];
		h = &g.nodes[e->to];
		assert_true(e->pts_nr >= 4 && (e->pts_nr - 1) % 3 == 0);
		assert_true(fabs(e->pts[0].x - t->x) <= t->w / 2 + 1 &&
			    fabs(e->pts[0].y - t->y) <= t->h / 2 + 1);
		assert_true(fabs(e->tip.x - h->x) <= h->w / 2 + 1 &&
			    fabs(e->tip.y - h->y) <= h->h / 2 + 1);
	}
	svg = svg_of(&g);
	assert_non_null(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"g1\" class=\"cfg\""));
	assert_non_null(strstr(svg, "<g class=\"node\" id=\"g1-b0\"><a href=\"#b0\"><title>entry &lt;block&gt;</title>"));
	/* emphasis: a class and a heavier outline; the graph's label is dot's only */
	assert_non_null(strstr(svg, "<g class=\"node em\" id=\"g1-b1\"><title>tip &amp; \\G &amp;amp;</title>"
				    "<rect x=\""));
	assert_non_null(strstr(svg, "fill=\"#bd0026\" stroke=\"#000000\" stroke-width=\"2\"/>"));
	assert_null(strstr(svg, "&lt;x&gt;"));
	assert_non_null(strstr(svg, "<g class=\"node cold\" id=\"g1-b2\"><a href=\"#b2?x=1&amp;y=2\">"));
	assert_non_null(strstr(svg, ">&lt;b&gt; &amp; &quot;c&quot; &#39;d&#39; \\N &amp;lt;</tspan>"));
	/* Spaces are kept (xml:space), as in the listing. */
	assert_non_null(strstr(svg, "xml:space=\"preserve\""));
	assert_non_null(strstr(svg, ">+0x20  two  spaces</tspan>"));
	assert_non_null(strstr(svg, "fill=\"#bd0026\""));
	assert_non_null(strstr(svg, "<text fill=\"#ffffff\">"));
	assert_non_null(strstr(svg, "<g class=\"edge fallthrough\" data-from=\"g1-b0\" data-to=\"g1-b1\""));
	assert_non_null(strstr(svg, "<g class=\"edge taken\" data-from=\"g1-b0\" data-to=\"g1-b2\""));
	assert_non_null(strstr(svg, "<g class=\"edge case back\" data-from=\"g1-b2\" data-to=\"g1-b0\" "
				    "color=\"#c62828\"><title>2 edges</title>"));
	assert_non_null(strstr(svg, "stroke-dasharray=\"5 3\""));
	/* Nothing unescaped from the names got through. */
	assert_null(strstr(svg, "<b>"));
	assert_null(strstr(svg, "\"c\""));
	assert_non_null(strstr(svg, "</svg>\n"));
	free(svg);
	graph__release(&g);
}

/* The same graph lays out the same, byte for byte (golden files can hold it);
 * an empty graph is an empty drawing. */
static void layout_stable(void **state)
{
	struct graph g;
	char err[64], *a, *b;

	small_graph(&g);
	assert_int_equal(graph__layout(&g, 0, err, sizeof(err)), 0);
	a = svg_of(&g);
	assert_int_equal(graph__layout(&g, 0, err, sizeof(err)), 0);
	b = svg_of(&g);
	assert_string_equal(a, b);
	free(a);
	free(b);
	graph__release(&g);

	assert_int_equal(graph__init(&g, "empty"), 0);
	assert_int_equal(graph__mark_back_edges(&g, 0), 0);
	assert_int_equal(graph__collapse_to_fit(&g, 1), 0);
	assert_int_equal(graph__layout(&g, 10, err, sizeof(err)), 0);
	a = svg_of(&g);
	assert_non_null(strstr(a, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"empty\""));
	assert_null(strstr(a, "<g "));
	free(a);
	graph__release(&g);
}

static void layout_folded(void **state)
{
	struct graph g;
	char id[16], *svg;
	char err[128];

	assert_int_equal(graph__init(&g, "r"), 0);
	for (int i = 0; i < 6; i++) {
		snprintf(id, sizeof(id), "r%d", i);
		assert_int_equal(add(&g, id, id, i != 0 && i != 5), i);
		if (i)
			graph__add_edge(&g, i - 1, i, GRAPH_EDGE_FALLTHROUGH);
	}
	assert_int_equal(graph__collapse_cold_runs(&g, 2), 3);
	/* Three to draw: within a limit of 3. */
	assert_int_equal(graph__layout(&g, 3, err, sizeof(err)), 0);
	svg = svg_of(&g);
	assert_non_null(strstr(svg, "<g class=\"node run\" id=\"r1\" data-members=\"4\">"));
	assert_non_null(strstr(svg, ">... 4 blocks ...</tspan>"));
	assert_null(strstr(svg, "id=\"r2\""));
	assert_null(strstr(svg, "data-to=\"r2\""));
	/* The run's edge out leaves the run's box. */
	assert_non_null(strstr(svg, "data-from=\"r1\" data-to=\"r5\""));
	assert_true(g.nodes[1].y < g.nodes[5].y);
	free(svg);
	graph__release(&g);
}

/* XML text back to the characters: the five named references and numeric ones. */
static char *xml_unescape(const char *s, size_t n)
{
	char *out = malloc(n + 1), *o = out;
	size_t i = 0;

	assert_non_null(out);
	while (i < n) {
		if (s[i] != '&') {
			*o++ = s[i++];
			continue;
		}
		if (!strncmp(s + i, "&lt;", 4))
			*o++ = '<', i += 4;
		else if (!strncmp(s + i, "&gt;", 4))
			*o++ = '>', i += 4;
		else if (!strncmp(s + i, "&amp;", 5))
			*o++ = '&', i += 5;
		else if (!strncmp(s + i, "&quot;", 6))
			*o++ = '"', i += 6;
		else if (!strncmp(s + i, "&apos;", 6))
			*o++ = '\'', i += 6;
		else if (s[i + 1] == '#') {
			char *end;
			long c = strtol(s + i + 2, &end, 10);

			assert_true(*end == ';' && c > 0 && c < 0x80 + 0x80);
			if (c == 160)	/* Graphviz keeps a run of spaces with NBSP */
				c = ' ';
			*o++ = (char)c;
			i = end + 1 - s;
		} else {
			fail_msg("unknown reference at %.10s", s + i);
		}
	}
	*o = '\0';
	return out;
}

/* The text of every <tag ...>TEXT</tag> in svg, unescaped, joined by '|'. */
static char *texts(const char *svg, const char *open, const char *close)
{
	size_t cap = strlen(svg) + 1, len = 0;
	char *out = calloc(1, cap);
	const char *p = svg, *b, *e;

	assert_non_null(out);
	while ((p = strstr(p, open))) {
		b = strchr(p, '>') + 1;
		e = strstr(b, close);
		assert_non_null(e);
		char *t = xml_unescape(b, e - b);

		len += snprintf(out + len, cap - len, "%s%s", len ? "|" : "", t);
		free(t);
		p = e;
	}
	return out;
}

/* A marked node: class "mark" and a dashed outline, in SVG and in dot. */
static void marked_nodes(void **state)
{
	const char *l[] = { "0x4  +1.00%", "NEW only" };
	struct graph_node_spec spec = { "m-b4", l, 2, NULL, NULL, 0xfc9272, 0x000000, false, true,
					true };
	struct graph g;
	char err[256], *svg, *dot = NULL;
	size_t len = 0;
	FILE *f;

	assert_int_equal(graph__init(&g, "m"), 0);
	assert_int_equal(graph__add_node(&g, &spec), 0);
	spec.id = "m-b8";
	spec.marked = spec.emphasis = false;
	assert_int_equal(graph__add_node(&g, &spec), 1);
	assert_true(g.nodes[0].marked);
	assert_false(g.nodes[1].marked);
	assert_int_equal(graph__layout(&g, 0, err, sizeof(err)), 0);
	svg = svg_of(&g);
	assert_non_null(strstr(svg, "<g class=\"node em mark\" id=\"m-b4\">"));
	assert_non_null(strstr(svg, "<g class=\"node\" id=\"m-b8\">"));
	assert_non_null(strstr(svg, "stroke=\"#000000\" stroke-width=\"2\" stroke-dasharray=\"6 3\"/>"));
	/* only the marked one is dashed */
	assert_null(strstr(strstr(svg, "id=\"m-b8\""), "6 3"));
	f = open_memstream(&dot, &len);
	assert_int_equal(graph__write_dot(&g, f), 0);
	fclose(f);
	assert_non_null(strstr(dot, "class=\"em mark\", penwidth=2, style=\"filled,dashed\""));
	/* one dashed node: the other has no class at all */
	assert_null(strstr(strstr(dot, "\"m-b8\" [id"), "class="));
	free(svg);
	free(dot);
	graph__release(&g);
	(void)state;
}

/* libcgraph's parser reads small_graph's dot: names, labels as dot strings,
 * attributes. */
static void check_parsed_dot(Agraph_t *ag)
{
	Agnode_t *n;
	Agedge_t *e;

	assert_string_equal(agnameof(ag), "g1");
	assert_int_equal(agnnodes(ag), 3);
	assert_int_equal(agnedges(ag), 4);	/* 2 -> 0 once, merged */
	n = agnode(ag, "g1-b1", 0);
	assert_non_null(n);
	/* After dot's own unquoting: the escString and entity layers are still to
	 * come, so a backslash is doubled and & is &amp;. */
	assert_string_equal(agget(n, "label"), "<b> &amp; \"c\" 'd' \\\\N &amp;lt;\\l");
	assert_string_equal(agget(n, "fillcolor"), "#bd0026");
	assert_string_equal(agget(n, "fontcolor"), "#ffffff");
	assert_string_equal(agget(agnode(ag, "g1-b2", 0), "class"), "cold");
	assert_string_equal(agget(n, "class"), "em");
	assert_string_equal(agget(n, "penwidth"), "2");
	/* the title: its line feed made a space when set, layered like a node label */
	assert_string_equal(agget(ag, "label"), "f \\\\G &amp; <x> ");
	assert_string_equal(agget(ag, "labelloc"), "t");
	assert_string_equal(agget(agnode(ag, "g1-b2", 0), "href"), "#b2?x=1&y=2");
	e = agedge(ag, agnode(ag, "g1-b2", 0), agnode(ag, "g1-b0", 0), NULL, 0);
	assert_non_null(e);
	assert_string_equal(agget(e, "class"), "case back");
	assert_string_equal(agget(e, "constraint"), "false");
	assert_string_equal(agget(e, "style"), "dashed");
}

extern gvplugin_library_t gvplugin_dot_layout_LTX_library;

/* Graphviz's core plugin (its SVG renderer), found beside the dot layout
 * plugin we link (by the plugin's own data: the library struct itself is
 * copied into the executable). */
static void *core_plugin(void)
{
	Dl_info info;
	char so[4096], *slash;
	void *core;

	assert_true(dladdr(gvplugin_dot_layout_LTX_library.apis, &info) && info.dli_fname);
	snprintf(so, sizeof(so), "%s", info.dli_fname);
	slash = strrchr(so, '/');
	assert_non_null(slash);
	snprintf(slash + 1, sizeof(so) - (slash + 1 - so), "libgvplugin_core.so.6");
	core = dlopen(so, RTLD_NOW);
	if (!core)
		fail_msg("%s", dlerror());
	return core;
}

/* Graphviz's own SVG of ag shows every line and tooltip as given. */
static void check_graphviz_svg(Agraph_t *ag, gvplugin_library_t *core_lib)
{
	lt_symlist_t builtins[] = {
		{ "gvplugin_dot_layout_LTX_library", &gvplugin_dot_layout_LTX_library },
		{ "gvplugin_core_LTX_library", core_lib },
		{ NULL, NULL },
	};
	GVC_t *gvc = gvContextPlugins(builtins, 0);
	unsigned svglen = 0;
	char *svg = NULL, *got;

	assert_int_equal(gvLayout(gvc, ag, "dot"), 0);
	assert_int_equal(gvRenderData(gvc, ag, "svg", &svg, &svglen), 0);
	got = texts(svg, "<text ", "</text>");
	/* the title first, over the drawing */
	assert_string_equal(got, "f \\G & <x> |+0x0 entry|2 insns|<b> & \"c\" 'd' \\N &lt;|+0x20  two  spaces");
	free(got);
	got = texts(svg, "<title>", "</title>");
	assert_non_null(strstr(got, "g1-b0|g1-b1|"));
	free(got);
	/* Tooltips: xlink:title="..." */
	assert_non_null(strstr(svg, "xlink:title=\"entry &lt;block&gt;\""));
	assert_non_null(strstr(svg, "xlink:title=\"tip &amp; \\G &amp;amp;\""));
	gvFreeRenderData(svg);
	gvFreeLayout(gvc, ag);
	gvFreeContext(gvc);
}

static void dot_read_back(void **state)
{
	struct graph g;
	char *dot = NULL;
	size_t len = 0;
	gvplugin_library_t *core_lib;
	Agraph_t *ag;
	void *core;
	FILE *f;

	small_graph(&g);
	f = open_memstream(&dot, &len);
	assert_int_equal(graph__write_dot(&g, f), 0);
	fclose(f);
	ag = agmemread(dot);
	assert_non_null(ag);
	check_parsed_dot(ag);
	core = core_plugin();
	core_lib = dlsym(core, "gvplugin_core_LTX_library");
	assert_non_null(core_lib);
	check_graphviz_svg(ag, core_lib);
	agclose(ag);
	dlclose(core);
	free(dot);
	graph__release(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(layout_and_svg),
		cmocka_unit_test(layout_stable),
		cmocka_unit_test(layout_folded),
		cmocka_unit_test(marked_nodes),
		cmocka_unit_test(dot_read_back),
	};

	return cmocka_run_group_tests_name("graph-draw", tests, NULL, NULL);
}

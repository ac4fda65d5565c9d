/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the graph to draw (postproc/render/graph/graph*.c): merged edges, back
 * edges, folding cold runs, the layout read back from Graphviz, the SVG, and
 * the dot text read back by Graphviz itself (libcgraph's parser, and its own
 * SVG renderer showing the names as given).
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

#include "render/graph/graph.h"

static long add(struct graph *g, const char *id, const char *line, bool cold)
{
	const char *lines[] = { line };
	struct graph_node_spec s = { .id = id, .lines = lines, .lines_nr = 1, .cold = cold };

	return graph__add_node(g, &s);
}

/* The edge from -> to of kind, which must exist. */
static const struct graph_edge *edge(const struct graph *g, uint32_t from, uint32_t to,
				     enum graph_edge_kind kind)
{
	for (size_t i = 0; i < g->edges_nr; i++) {
		if (g->edges[i].from == from && g->edges[i].to == to && g->edges[i].kind == kind)
			return &g->edges[i];
	}
	fail_msg("no edge %u -> %u", from, to);
	return NULL;
}

static void nodes_and_edges(void **state)
{
	struct graph g;
	const char *lines[] = { "bad \xff utf-8", "tab\there\nnewline" };
	struct graph_node_spec s = { .id = "n-0_A", .lines = lines, .lines_nr = 2,
				     .tooltip = "\x01 ctl", .fill = 0xff123456 };

	assert_int_equal(graph__init(&g, "bad id"), -EINVAL);
	graph__release(&g);
	assert_int_equal(graph__init(&g, ""), -EINVAL);
	graph__release(&g);
	assert_int_equal(graph__init(&g, "f0"), 0);
	assert_int_equal(graph__add_node(&g, &s), 0);
	assert_string_equal(g.nodes[0].lines[0], "bad \xef\xbf\xbd utf-8");
	assert_string_equal(g.nodes[0].lines[1], "tab here newline");
	assert_string_equal(g.nodes[0].tooltip, "  ctl");
	assert_null(g.nodes[0].href);
	assert_int_equal(g.nodes[0].fill, 0x123456);
	/* Ids become element ids and dot names: nothing to escape in them. */
	s.id = "a\"b";
	assert_int_equal(graph__add_node(&g, &s), -EINVAL);
	s.id = "x y";
	assert_int_equal(graph__add_node(&g, &s), -EINVAL);
	s.id = NULL;
	assert_int_equal(graph__add_node(&g, &s), -EINVAL);
	assert_int_equal(add(&g, "n1", "one", false), 1);
	assert_int_equal(add(&g, "n1", "again", false), -EEXIST);
	assert_int_equal(add(&g, "n-0_A", "again", false), -EEXIST);
	assert_int_equal(g.nodes_nr, 2);

	/* The same kind between the same nodes merges; another kind does not. */
	assert_int_equal(graph__add_edge(&g, 0, 1, GRAPH_EDGE_CASE), 0);
	assert_int_equal(graph__add_edge(&g, 0, 1, GRAPH_EDGE_CASE), 0);
	assert_int_equal(graph__add_edge(&g, 0, 1, GRAPH_EDGE_CASE), 0);
	assert_int_equal(graph__add_edge(&g, 0, 1, GRAPH_EDGE_TAKEN), 0);
	assert_int_equal(graph__add_edge(&g, 1, 0, GRAPH_EDGE_CASE), 0);
	assert_int_equal(g.edges_nr, 3);
	assert_int_equal(edge(&g, 0, 1, GRAPH_EDGE_CASE)->count, 3);
	assert_int_equal(edge(&g, 0, 1, GRAPH_EDGE_TAKEN)->count, 1);
	assert_int_equal(graph__add_edge(&g, 0, 2, GRAPH_EDGE_TAKEN), -EINVAL);
	assert_int_equal(graph__add_edge(&g, 0, 1, GRAPH_EDGE_KINDS_NR), -EINVAL);
	assert_string_equal(graph_edge_kind__name(GRAPH_EDGE_FALLTHROUGH), "fallthrough");
	assert_string_equal(graph_edge_kind__name(GRAPH_EDGE_TAKEN), "taken");
	assert_string_equal(graph_edge_kind__name(GRAPH_EDGE_CASE), "case");
	graph__release(&g);
}

/*
 *   0 -> 1 -> 2 -> 3 -> 4       1..3 a loop (3 -> 1), 2 -> 2 a self-loop,
 *        ^         |            0 -> 4 a forward jump; 5 <-> 6 not reached
 *        +---------+            from the entry: one of their two edges closes
 *   5 <-> 6                     their cycle.
 */
static void back_edges(void **state)
{
	struct graph g;
	char id[16];

	assert_int_equal(graph__init(&g, "f"), 0);
	for (int i = 0; i < 7; i++) {
		snprintf(id, sizeof(id), "n%d", i);
		assert_int_equal(add(&g, id, id, false), i);
	}
	graph__add_edge(&g, 0, 1, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(&g, 0, 4, GRAPH_EDGE_TAKEN);
	graph__add_edge(&g, 1, 2, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(&g, 2, 2, GRAPH_EDGE_TAKEN);
	graph__add_edge(&g, 2, 3, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(&g, 3, 1, GRAPH_EDGE_TAKEN);
	graph__add_edge(&g, 3, 4, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(&g, 5, 6, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(&g, 6, 5, GRAPH_EDGE_TAKEN);
	assert_int_equal(graph__mark_back_edges(&g, 0), 0);
	assert_true(edge(&g, 3, 1, GRAPH_EDGE_TAKEN)->back);
	assert_true(edge(&g, 2, 2, GRAPH_EDGE_TAKEN)->back);
	assert_false(edge(&g, 0, 1, GRAPH_EDGE_FALLTHROUGH)->back);
	assert_false(edge(&g, 0, 4, GRAPH_EDGE_TAKEN)->back);
	assert_false(edge(&g, 3, 4, GRAPH_EDGE_FALLTHROUGH)->back);
	assert_false(edge(&g, 1, 2, GRAPH_EDGE_FALLTHROUGH)->back);
	/* 5 is searched from first (index order): 6 -> 5 closes the cycle. */
	assert_false(edge(&g, 5, 6, GRAPH_EDGE_FALLTHROUGH)->back);
	assert_true(edge(&g, 6, 5, GRAPH_EDGE_TAKEN)->back);
	/* From another entry the same loop is closed elsewhere. */
	assert_int_equal(graph__mark_back_edges(&g, 3), 0);
	assert_true(edge(&g, 2, 3, GRAPH_EDGE_FALLTHROUGH)->back);
	assert_false(edge(&g, 3, 1, GRAPH_EDGE_TAKEN)->back);
	graph__release(&g);
}

/* A long chain (deep recursion would overflow; the search is iterative). */
static void back_edges_deep(void **state)
{
	struct graph g;
	char id[16];
	const uint32_t n = 200000;

	assert_int_equal(graph__init(&g, "deep"), 0);
	for (uint32_t i = 0; i < n; i++) {
		snprintf(id, sizeof(id), "n%u", i);
		assert_int_equal(add(&g, id, "", false), i);
		if (i)
			assert_int_equal(graph__add_edge(&g, i - 1, i, GRAPH_EDGE_FALLTHROUGH), 0);
	}
	assert_int_equal(graph__add_edge(&g, n - 1, 0, GRAPH_EDGE_TAKEN), 0);
	assert_int_equal(graph__mark_back_edges(&g, 0), 0);
	assert_true(edge(&g, n - 1, 0, GRAPH_EDGE_TAKEN)->back);
	graph__release(&g);
}

/*
 * hot 0 -> 1c -> 2c -> 3c -> 4 hot                a run of 3: folded into 1
 *          4 -> 5c -> 6 hot                       a run of 1: left alone
 *          6 -> 7c -> 8c -> 9c, 10 -> 8c          8 has two edges in: runs 7 (1 long,
 *                                                 left) and 8 -> 9 (folded into 8)
 *          9c -> 11c, 9c -> 12c                   9 has two edges out: the run ends at 9
 *          11c -> 11c                             a self-loop: never in a run
 *          12c -> 13c -> 12c                      a loop of two entered from 9: 12 has
 *                                                 two edges in, so 12 -> 13 is a run (its
 *                                                 box then loops on itself)
 *          14c -> 15c -> 14c                      a cycle nothing enters: each links into
 *                                                 the other, no head: left alone
 */
static void collapse(void **state)
{
	struct graph g;
	char id[16], line[16];
	static const bool cold[] = { 0, 1, 1, 1, 0, 1, 0, 1, 1, 1, 0, 1, 1, 1, 1, 1 };

	assert_int_equal(graph__init(&g, "c"), 0);
	for (int i = 0; i < 16; i++) {
		snprintf(id, sizeof(id), "n%d", i);
		snprintf(line, sizeof(line), "+0x%x", i * 16);
		assert_int_equal(add(&g, id, line, cold[i]), i);
	}
	graph__add_edge(&g, 0, 1, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(&g, 1, 2, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(&g, 2, 3, GRAPH_EDGE_TAKEN);
	graph__add_edge(&g, 3, 4, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(&g, 4, 5, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(&g, 5, 6, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(&g, 6, 7, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(&g, 7, 8, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(&g, 10, 8, GRAPH_EDGE_TAKEN);
	graph__add_edge(&g, 8, 9, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(&g, 9, 11, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(&g, 9, 12, GRAPH_EDGE_TAKEN);
	graph__add_edge(&g, 11, 11, GRAPH_EDGE_TAKEN);
	graph__add_edge(&g, 12, 13, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(&g, 13, 12, GRAPH_EDGE_TAKEN);
	graph__add_edge(&g, 14, 15, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(&g, 15, 14, GRAPH_EDGE_TAKEN);
	assert_int_equal(graph__shown_nodes(&g), 16);

	/* Runs of 4 or more only: none here. */
	assert_int_equal(graph__collapse_cold_runs(&g, 4), 0);
	assert_int_equal(graph__shown_nodes(&g), 16);

	assert_int_equal(graph__collapse_cold_runs(&g, 2), 4);
	assert_int_equal(graph__shown_nodes(&g), 12);
	/* 1..3: one box, "first", "... 3 blocks ...", "last". */
	assert_int_equal(graph__shown(&g, 1), 1);
	assert_int_equal(graph__shown(&g, 2), 1);
	assert_int_equal(graph__shown(&g, 3), 1);
	assert_int_equal(g.nodes[1].members, 3);
	assert_int_equal(g.nodes[1].run_last, 3);
	assert_int_equal(g.nodes[1].lines_nr, 3);
	assert_string_equal(g.nodes[1].lines[0], "+0x10");
	assert_string_equal(g.nodes[1].lines[1], "... 3 blocks ...");
	assert_string_equal(g.nodes[1].lines[2], "+0x30");
	assert_true(edge(&g, 1, 2, GRAPH_EDGE_FALLTHROUGH)->collapsed);
	assert_true(edge(&g, 2, 3, GRAPH_EDGE_TAKEN)->collapsed);
	/* In from 0, out to 4: kept, and drawn from the run's box. */
	assert_false(edge(&g, 0, 1, GRAPH_EDGE_FALLTHROUGH)->collapsed);
	assert_false(edge(&g, 3, 4, GRAPH_EDGE_FALLTHROUGH)->collapsed);
	assert_int_equal(graph__shown(&g, edge(&g, 3, 4, GRAPH_EDGE_FALLTHROUGH)->from), 1);
	/* 5 alone, 7 alone (8 has two edges in). */
	assert_int_equal(graph__shown(&g, 5), 5);
	assert_int_equal(g.nodes[5].members, 1);
	assert_int_equal(graph__shown(&g, 7), 7);
	/* 8 -> 9: folded into 8; 9's two edges out now leave 8. */
	assert_int_equal(graph__shown(&g, 9), 8);
	assert_int_equal(g.nodes[8].members, 2);
	assert_int_equal(graph__shown(&g, edge(&g, 9, 12, GRAPH_EDGE_TAKEN)->from), 8);
	/* The self-loop stays; the loop of two is one box looping on itself. */
	assert_int_equal(graph__shown(&g, 11), 11);
	assert_int_equal(graph__shown(&g, 12), 12);
	assert_int_equal(graph__shown(&g, 13), 12);
	assert_int_equal(g.nodes[12].members, 2);
	assert_true(edge(&g, 12, 13, GRAPH_EDGE_FALLTHROUGH)->collapsed);
	assert_false(edge(&g, 13, 12, GRAPH_EDGE_TAKEN)->collapsed);
	/* The cycle nothing enters is left alone. */
	assert_int_equal(graph__shown(&g, 14), 14);
	assert_int_equal(graph__shown(&g, 15), 15);
	assert_int_equal(graph__shown_edges(&g), g.edges_nr - 4);
	/* Hot nodes never fold. */
	assert_int_equal(graph__shown(&g, 0), 0);
	assert_int_equal(graph__shown(&g, 4), 4);
	assert_int_equal(graph__shown(&g, 6), 6);
	/* Once folded, nothing more to fold; a run is not extended by a second pass. */
	assert_int_equal(graph__collapse_cold_runs(&g, 2), 0);
	graph__release(&g);
}

/* A long cold chain between two hot nodes folds into one box, in linear time. */
static void collapse_long(void **state)
{
	struct graph g;
	char id[16];
	const uint32_t n = 100000;

	assert_int_equal(graph__init(&g, "long"), 0);
	for (uint32_t i = 0; i < n; i++) {
		snprintf(id, sizeof(id), "n%u", i);
		assert_int_equal(add(&g, id, id, i != 0 && i != n - 1), i);
		if (i)
			assert_int_equal(graph__add_edge(&g, i - 1, i, GRAPH_EDGE_FALLTHROUGH), 0);
	}
	assert_int_equal(graph__collapse_cold_runs(&g, 2), n - 3);
	assert_int_equal(graph__shown_nodes(&g), 3);
	assert_int_equal(g.nodes[1].members, n - 2);
	assert_int_equal(graph__shown(&g, n - 2), 1);
	assert_int_equal(graph__shown_edges(&g), 2);
	graph__release(&g);
}

/* 0 -> 1 -> 2 with a back edge 2 -> 0, and 0 -> 2 taken. */
static void small_graph(struct graph *g)
{
	const char *l0[] = { "+0x0 entry", "2 insns" };
	const char *l1[] = { "<b> & \"c\" 'd' \\N &lt;" };
	const char *l2[] = { "+0x20  two  spaces" };
	struct graph_node_spec s[] = {
		{ "g1-b0", l0, 2, "entry <block>", "#b0", 0xffffcc, 0x000000, false, false, false },
		{ "g1-b1", l1, 1, "tip & \\G &amp;", NULL, 0xbd0026, 0xffffff, false, true, false },
		{ "g1-b2", l2, 1, NULL, "#b2?x=1&y=2", 0xf2f2f2, 0x000000, true, false, false },
	};

	assert_int_equal(graph__init(g, "g1"), 0);
	/* a title for dot only, with what its layers would take apart */
	assert_int_equal(graph__set_label(g, "f \\G & <x>\n"), 0);
	for (int i = 0; i < 3; i++)
		assert_int_equal(graph__add_node(g, &s[i]), i);
	graph__add_edge(g, 0, 1, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(g, 1, 2, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(g, 0, 2, GRAPH_EDGE_TAKEN);
	graph__add_edge(g, 2, 0, GRAPH_EDGE_CASE);
	graph__add_edge(g, 2, 0, GRAPH_EDGE_CASE);
	assert_int_equal(graph__mark_back_edges(g, 0), 0);
}

static char *svg_of(const struct graph *g)
{
	size_t len = 0;
	char *s = graph__svg(g, &len);

	assert_non_null(s);
	assert_int_equal(strlen(s), len);
	return s;
}

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

/*
 *   0 hot -> 1 -> 2 -> 3 -> 4 -> 5 hot        0 and 5 are hot; the rest cold
 *            1 -> 6 -> 3, 2 -> 4              (diamonds: no straight runs)
 *   5 -> 7 -> 8 -> 9 -> 10                    8 -> 9, 8 -> 10 both taken;
 *             8 <- 10 (back)                  10 -> 8 closes a loop
 * Hops from the heat: 1, 4, 7: 1; 2, 3, 6, 8: 2; 9, 10: 3.
 */
static void regions_graph(struct graph *g)
{
	char id[16], line[16];

	assert_int_equal(graph__init(g, "r"), 0);
	for (int i = 0; i < 11; i++) {
		snprintf(id, sizeof(id), "n%d", i);
		snprintf(line, sizeof(line), "+0x%x", i * 16);
		assert_int_equal(add(g, id, line, i != 0 && i != 5), i);
	}
	graph__add_edge(g, 0, 1, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(g, 1, 2, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(g, 2, 3, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(g, 3, 4, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(g, 4, 5, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(g, 1, 6, GRAPH_EDGE_TAKEN);
	graph__add_edge(g, 6, 3, GRAPH_EDGE_TAKEN);
	graph__add_edge(g, 2, 4, GRAPH_EDGE_TAKEN);
	graph__add_edge(g, 5, 7, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(g, 7, 8, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(g, 8, 9, GRAPH_EDGE_TAKEN);
	graph__add_edge(g, 8, 10, GRAPH_EDGE_TAKEN);
	graph__add_edge(g, 9, 10, GRAPH_EDGE_FALLTHROUGH);
	graph__add_edge(g, 10, 8, GRAPH_EDGE_TAKEN);
	assert_int_equal(graph__mark_back_edges(g, 0), 0);
	/* No straight run here: every chain has a second edge in or out. */
	assert_int_equal(graph__collapse_cold_runs(g, 2), 0);
}

static void regions(void **state)
{
	struct graph g;
	const struct graph_edge *e89, *e810;

	regions_graph(&g);
	/* More than 2 hops away: 9 and 10, one region drawn as 9. */
	assert_int_equal(graph__collapse_cold_regions(&g, 2), 1);
	assert_int_equal(graph__shown_nodes(&g), 10);
	assert_int_equal(graph__shown(&g, 10), 9);
	assert_true(g.nodes[9].region);
	assert_int_equal(g.nodes[9].members, 2);
	assert_int_equal(g.nodes[9].lines_nr, 2);
	assert_string_equal(g.nodes[9].lines[0], "+0x90");
	assert_string_equal(g.nodes[9].lines[1], "+ 1 cold blocks");
	assert_true(edge(&g, 9, 10, GRAPH_EDGE_FALLTHROUGH)->collapsed);
	/* 8 -> 9 and 8 -> 10, both taken, now join the same two boxes: drawn once. */
	e89 = edge(&g, 8, 9, GRAPH_EDGE_TAKEN);
	e810 = edge(&g, 8, 10, GRAPH_EDGE_TAKEN);
	assert_true(e89->collapsed != e810->collapsed);
	assert_int_equal((e89->collapsed ? e810 : e89)->count, 2);
	/* The loop's back edge now leaves the region for 8. */
	assert_false(edge(&g, 10, 8, GRAPH_EDGE_TAKEN)->collapsed);
	assert_true(edge(&g, 10, 8, GRAPH_EDGE_TAKEN)->back);

	/* Everything cold: two regions between the two hot nodes. */
	assert_int_equal(graph__collapse_cold_regions(&g, 0), 6);
	assert_int_equal(graph__shown_nodes(&g), 4);
	for (int i = 1; i <= 4; i++)
		assert_int_equal(graph__shown(&g, i), 1);
	assert_int_equal(graph__shown(&g, 6), 1);
	for (int i = 7; i <= 10; i++)
		assert_int_equal(graph__shown(&g, i), 7);
	assert_int_equal(g.nodes[1].members, 5);
	assert_int_equal(g.nodes[7].members, 4);	/* 7, 8 and the region of 9 and 10 */
	assert_string_equal(g.nodes[1].lines[1], "+ 4 cold blocks");
	assert_string_equal(g.nodes[7].lines[1], "+ 3 cold blocks");
	assert_false(g.nodes[0].region || g.nodes[5].region);
	/* Drawn: 0 -> region 1, region 1 -> 5, 5 -> region 7; the loop is inside. */
	assert_int_equal(graph__shown_edges(&g), 3);
	assert_false(edge(&g, 0, 1, GRAPH_EDGE_FALLTHROUGH)->collapsed);
	assert_false(edge(&g, 4, 5, GRAPH_EDGE_FALLTHROUGH)->collapsed);
	assert_false(edge(&g, 5, 7, GRAPH_EDGE_FALLTHROUGH)->collapsed);
	assert_true(edge(&g, 10, 8, GRAPH_EDGE_TAKEN)->collapsed);
	{
		char err[64], *svg;

		assert_int_equal(graph__layout(&g, 4, err, sizeof(err)), 0);
		svg = svg_of(&g);
		assert_non_null(strstr(svg, "<g class=\"node region\" id=\"n7\" data-members=\"4\">"));
		assert_non_null(strstr(svg, "data-from=\"n1\" data-to=\"n5\""));
		free(svg);
	}
	graph__release(&g);
}

/* A hot jump table whose cold cases each end on their own (return): every
 * case is its own cold group, all touching only the table's block; they fold
 * into one box. A case also reaching another hot block stays apart. */
static void regions_fan_out(void **state)
{
	struct graph g;
	char id[16];

	assert_int_equal(graph__init(&g, "fan"), 0);
	for (int i = 0; i < 8; i++) {
		snprintf(id, sizeof(id), "n%d", i);
		assert_int_equal(add(&g, id, id, i != 0 && i != 7), i);
	}
	for (int i = 1; i <= 6; i++)
		graph__add_edge(&g, 0, i, GRAPH_EDGE_CASE);
	graph__add_edge(&g, 6, 7, GRAPH_EDGE_FALLTHROUGH);
	assert_int_equal(graph__collapse_cold_regions(&g, 0), 4);
	assert_int_equal(graph__shown_nodes(&g), 4);
	for (int i = 1; i <= 5; i++)
		assert_int_equal(graph__shown(&g, i), 1);
	assert_int_equal(graph__shown(&g, 6), 6);
	assert_true(g.nodes[1].region);
	assert_int_equal(g.nodes[1].members, 5);
	assert_false(g.nodes[6].region);
	/* Five cases into one box: one edge, counting them. */
	assert_int_equal(graph__shown_edges(&g), 3);
	assert_int_equal(edge(&g, 0, 1, GRAPH_EDGE_CASE)->count, 5);
	graph__release(&g);
}

static void fold_to_fit(void **state)
{
	struct graph g;

	regions_graph(&g);
	assert_int_equal(graph__collapse_to_fit(&g, 100), 11);
	assert_int_equal(graph__shown_nodes(&g), 11);
	/* 2 hops: 10 boxes, too many; 1 hop: {2, 3, 6} and {8, 9, 10} fold: 7. */
	assert_int_equal(graph__collapse_to_fit(&g, 8), 7);
	assert_int_equal(graph__shown(&g, 6), 2);
	assert_int_equal(graph__shown(&g, 3), 2);
	assert_int_equal(graph__shown(&g, 10), 8);
	assert_int_equal(g.nodes[8].members, 3);
	assert_int_equal(graph__shown(&g, 4), 4);
	assert_int_equal(graph__shown(&g, 7), 7);
	/* Down to the hot nodes and the cold groups between them, and no further. */
	assert_int_equal(graph__collapse_to_fit(&g, 1), 4);
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

static void dot_read_back(void **state)
{
	struct graph g;
	char *dot = NULL, *svg = NULL, *got;
	size_t len = 0;
	unsigned svglen = 0;
	FILE *f;
	Agraph_t *ag;
	Agnode_t *n;
	GVC_t *gvc;
	void *core;
	gvplugin_library_t *core_lib;

	small_graph(&g);
	f = open_memstream(&dot, &len);
	assert_int_equal(graph__write_dot(&g, f), 0);
	fclose(f);
	/* libcgraph's parser reads it: names, labels as dot strings, attributes. */
	ag = agmemread(dot);
	assert_non_null(ag);
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
	{
		Agedge_t *e = agedge(ag, agnode(ag, "g1-b2", 0), agnode(ag, "g1-b0", 0), NULL, 0);

		assert_non_null(e);
		assert_string_equal(agget(e, "class"), "case back");
		assert_string_equal(agget(e, "constraint"), "false");
		assert_string_equal(agget(e, "style"), "dashed");
	}
	/* Graphviz's own SVG renderer shows every line and tooltip as given:
	 * its core plugin (SVG), found beside the dot layout plugin we link (by
	 * the plugin's own data: the library struct itself is copied into the
	 * executable). */
	{
		extern gvplugin_library_t gvplugin_dot_layout_LTX_library;
		Dl_info info;
		char so[4096], *slash;

		assert_true(dladdr(gvplugin_dot_layout_LTX_library.apis, &info) && info.dli_fname);
		snprintf(so, sizeof(so), "%s", info.dli_fname);
		slash = strrchr(so, '/');
		assert_non_null(slash);
		snprintf(slash + 1, sizeof(so) - (slash + 1 - so), "libgvplugin_core.so.6");
		core = dlopen(so, RTLD_NOW);
		if (!core)
			fail_msg("%s", dlerror());
	}
	core_lib = dlsym(core, "gvplugin_core_LTX_library");
	assert_non_null(core_lib);
	{
		extern gvplugin_library_t gvplugin_dot_layout_LTX_library;
		lt_symlist_t builtins[] = {
			{ "gvplugin_dot_layout_LTX_library", &gvplugin_dot_layout_LTX_library },
			{ "gvplugin_core_LTX_library", core_lib },
			{ NULL, NULL },
		};

		gvc = gvContextPlugins(builtins, 0);
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
	agclose(ag);
	dlclose(core);
	free(dot);
	graph__release(&g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nodes_and_edges),
		cmocka_unit_test(back_edges),
		cmocka_unit_test(back_edges_deep),
		cmocka_unit_test(collapse),
		cmocka_unit_test(collapse_long),
		cmocka_unit_test(layout_and_svg),
		cmocka_unit_test(layout_stable),
		cmocka_unit_test(layout_folded),
		cmocka_unit_test(regions),
		cmocka_unit_test(regions_fan_out),
		cmocka_unit_test(fold_to_fit),
		cmocka_unit_test(marked_nodes),
		cmocka_unit_test(dot_read_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

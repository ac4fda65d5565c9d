/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the graph outputs: a report's function as a graph to draw
 * (report-graph.c), its listing in HTML (html-listing.c) and the dot text
 * (render-dot.c, read back by libcgraph's parser); the page is
 * test-render-page.c's. The code bytes are hand assembled; each listing beside them was
 * checked with objdump -D -b binary -mi386:x86-64 -M intel, and the edges by
 * following the branches by hand. The real recordings' pages are checked in
 * a browser by scripts/tests/html-report.sh.
 */
#define _GNU_SOURCE	/* open_memstream, fmemopen */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <cgraph.h>

#include "render/html/html-listing.h"
#include "report/report-build.h"
#include "render/render.h"
#include "render/graph/report-graph.h"
#include "render-fixture.h"

/* The graph edge from -> to of kind, which must exist. */
static const struct graph_edge *edge(const struct graph *g, uint32_t from, uint32_t to,
				     enum graph_edge_kind kind)
{
	for (size_t i = 0; i < g->edges_nr; i++)
		if (g->edges[i].from == from && g->edges[i].to == to && g->edges[i].kind == kind)
			return &g->edges[i];
	fail_msg("no edge %u -> %u", from, to);
	return NULL;
}

/*
 * A box per block in block order, labelled with its start, share, size and
 * rank; coloured on the report's scale; the shown blocks emphasised, the
 * blocks without samples cold; linked to the listing; the report's edges of
 * the same kinds, and the same ones marked back edges.
 */
static void a_box_per_block_and_the_reports_edges(void **state)
{
	static const enum graph_edge_kind kinds[] = {
		[REPORT_EDGE_FALLTHROUGH] = GRAPH_EDGE_FALLTHROUGH,
		[REPORT_EDGE_TAKEN] = GRAPH_EDGE_TAKEN,
		[REPORT_EDGE_CASE] = GRAPH_EDGE_CASE,
	};
	struct fixture x;
	struct heat_scale heat;
	struct graph g;
	const struct report_func *f;
	struct heat_colour c;

	/* nested@0x4 40 and loop@0x5 32 cross 50%; loop@0x0 10 and nested@0x8 1 are not shown */
	fixture__build(&x, loops, 50.0, false);
	assert_int_equal(x.rep.funcs_nr, 2);
	report_graph__heat(&heat, &x.rep);
	/* the hottest block of the report, 40 of 100, is the hottest colour */
	assert_true(heat.hi == 0.40);

	/* hottest first: the loop, 42 samples, then nested, 41 */
	f = &x.rep.funcs[0];
	assert_int_equal(f->samples, 42);
	assert_int_equal(f->blocks_nr, 3);
	assert_int_equal(report_graph__build(&g, &x.rep, f, "f1", NULL, &heat, 0), 0);
	assert_string_equal(g.id, "f1-cfg");
	assert_null(g.label);
	assert_int_equal(g.nodes_nr, 3);
	assert_string_equal(g.nodes[0].id, "f1-b0");
	assert_string_equal(g.nodes[1].id, "f1-b5");
	assert_string_equal(g.nodes[2].id, "f1-bf");
	assert_string_equal(g.nodes[1].href, "#f1-l5");
	assert_int_equal(g.nodes[1].lines_nr, 2);
	assert_string_equal(g.nodes[0].lines[0], "0x0  10.00%");
	assert_string_equal(g.nodes[0].lines[1], "1 insn  #3");
	assert_string_equal(g.nodes[1].lines[0], "0x5  32.00%");
	assert_string_equal(g.nodes[1].lines[1], "3 insns  #2");
	assert_string_equal(g.nodes[2].lines[0], "0xf");
	assert_string_equal(g.nodes[2].lines[1], "1 insn");
	assert_string_equal(g.nodes[1].tooltip,
			    "block 0x5..0xf: 32 samples (32.00%), 3 instructions, shown");
	assert_false(g.nodes[0].emphasis || g.nodes[0].cold);
	assert_true(g.nodes[1].emphasis);
	assert_true(g.nodes[2].cold);
	c = heat_scale__colour(&heat, 0.32);
	assert_int_equal(g.nodes[1].fill, c.fill);
	assert_int_equal(g.nodes[1].ink, c.ink);
	assert_int_equal(g.nodes[2].fill, HEAT_NONE_FILL);
	assert_int_equal(g.edges_nr, f->edges_nr);
	for (size_t i = 0; i < f->edges_nr; i++) {
		const struct report_edge *re = &f->edges[i];

		assert_int_equal(edge(&g, re->from, re->to, kinds[re->kind])->back, re->back);
	}
	assert_true(edge(&g, 1, 1, GRAPH_EDGE_TAKEN)->back);
	graph__release(&g);

	/* Nested loops: the inner and the outer loop's edges back, as the report has them. */
	f = &x.rep.funcs[1];
	assert_string_equal(f->display_name, "nested");
	assert_int_equal(report_graph__build(&g, &x.rep, f, "f0", "nested", &heat, 0), 0);
	assert_string_equal(g.label, "nested");
	/* 0->1, 1->2, 2->2 back, 2->3, 3->1 back, 3->4 */
	assert_int_equal(g.edges_nr, 6);
	for (size_t i = 0; i < f->edges_nr; i++) {
		const struct report_edge *re = &f->edges[i];

		assert_int_equal(edge(&g, re->from, re->to, kinds[re->kind])->back, re->back);
	}
	assert_true(edge(&g, 2, 2, GRAPH_EDGE_TAKEN)->back);
	assert_true(edge(&g, 3, 1, GRAPH_EDGE_TAKEN)->back);
	assert_false(edge(&g, 1, 2, GRAPH_EDGE_FALLTHROUGH)->back);
	graph__release(&g);

	assert_int_equal(report_graph__build(&g, &x.rep, f, "bad prefix", NULL, &heat, 0), -EINVAL);
	graph__release(&g);
	fixture__release(&x);
}

/* The listing: every row of every block, in tbody elements the script and
 * the numbers check read. */
static void listing_rows_blocks_and_links(void **state)
{
	struct fixture x;
	struct heat_scale heat;
	struct html_listing l;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	fixture__build(&x, loops, 50.0, false);
	report_graph__heat(&heat, &x.rep);
	l = (struct html_listing){ &x.rep, &x.rep.funcs[0], "f1", &heat, 40, NULL, NULL, false, false, NULL };
	f = open_memstream(&buf, &len);
	assert_int_equal(html_listing__write(f, &l), 0);
	fclose(f);
	assert_int_equal(count(buf, "<tbody class=\"blk"), 3);
	/* without a drawing, each block stands for itself */
	assert_non_null(strstr(buf, "<tbody class=\"blk shown\" id=f1-l5 data-box=f1-b5 data-start=5 "
				    "data-end=15 data-samples=32 data-rank=2>\n"));
	assert_non_null(strstr(buf, "<tbody class=\"blk\" id=f1-lf data-box=f1-bf data-start=15 "
				    "data-end=16 data-samples=0>\n"));
	/* a row per instruction; the sampled ones with their count and share */
	assert_int_equal(count(buf, "\n<tr"), 3 + 5);
	assert_non_null(strstr(buf, "<tr data-samples=30><td><i class=bar style=\"width:75%;"));
	assert_non_null(strstr(buf, "<td title=\"30 samples\">30.00%<td>5<td>inc     ecx</tr>\n"));
	/* jl 0x5: its target is a link to its block */
	assert_non_null(strstr(buf, "<td>d<td>jl      <a href=\"#f1-l5\">0x5</a></tr>\n"));
	assert_non_null(strstr(buf, "<tr><td><td><td>f<td>ret</tr>\n"));
	/* no annotation column without an annotator */
	assert_null(strstr(buf, "clif"));
	free(buf);
	fixture__release(&x);
}

/* Another page's paint and listing hooks: what they set is what is drawn
 * and listed, and folding, after the paint, keeps what the paint left warm. */
static void paint(const void *ctx, size_t b, struct graph_node_spec *spec, char *line1,
		  char *line2, char *tooltip)
{
	(void)ctx;
	spec->fill = 0x00441b;
	spec->ink = 0xffffff;
	spec->cold = false;	/* the report's cold 0xf stays warm */
	spec->emphasis = false;
	spec->marked = b == 2;
	snprintf(line1, REPORT_GRAPH_TEXT, "block %zu", b);
	if (b == 2)
		snprintf(line2, REPORT_GRAPH_TEXT, "NEW only");
	snprintf(tooltip, REPORT_GRAPH_TEXT, "painted %zu", b);
}

static void hook_block(const void *ctx, size_t b, uint32_t *rank, bool *shown)
{
	(void)ctx;
	*rank = b == 2 ? 7 : 0;
	*shown = b == 2;
}

static void hook_attrs(FILE *out, const void *ctx, size_t b)
{
	fprintf(out, " data-pair=%s-l%zu", (const char *)ctx, b);
}

static void hook_facts(FILE *out, const void *ctx, size_t b)
{
	(void)ctx;
	fprintf(out, " &middot; fact %zu", b);
}

static void painted_graph_and_hooked_listing(void **state)
{
	struct fixture x;
	struct heat_scale heat;
	struct graph g;
	const struct report_graph_paint p = { paint, NULL };
	const struct html_listing_hooks h = { hook_block, hook_attrs, hook_facts, "o" };
	struct html_listing l;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	fixture__build(&x, loops, 50.0, false);
	report_graph__heat(&heat, &x.rep);
	assert_int_equal(report_graph__build_painted(&g, &x.rep, &x.rep.funcs[0], "f1", NULL, &heat,
						     0, &p), 0);
	assert_int_equal(g.nodes_nr, 3);
	for (size_t i = 0; i < 3; i++) {
		char want[32];

		snprintf(want, sizeof(want), "block %zu", i);
		assert_string_equal(g.nodes[i].lines[0], want);
		assert_int_equal(g.nodes[i].fill, 0x00441b);
		assert_false(g.nodes[i].cold || g.nodes[i].emphasis);
		assert_int_equal(g.nodes[i].marked, i == 2);
	}
	/* the report's second line where the paint left it */
	assert_string_equal(g.nodes[1].lines[1], "3 insns  #2");
	assert_string_equal(g.nodes[2].lines[1], "NEW only");
	assert_string_equal(g.nodes[2].tooltip, "painted 2");
	/* nothing cold: nothing folds */
	assert_int_equal(graph__collapse_to_fit(&g, 1), 3);
	graph__release(&g);

	l = (struct html_listing){ &x.rep, &x.rep.funcs[0], "f1", &heat, 40, NULL, &h, false, false, NULL };
	f = open_memstream(&buf, &len);
	assert_int_equal(html_listing__write(f, &l), 0);
	fclose(f);
	/* the hooks' rank and shown replace the report's (block 0x5 was #2, shown) */
	assert_non_null(strstr(buf, "<tbody class=\"blk\" id=f1-l5 data-box=f1-b5 data-start=5 "
				    "data-end=15 data-samples=32 data-pair=o-l1>\n"));
	assert_non_null(strstr(buf, "<tbody class=\"blk shown\" id=f1-lf data-box=f1-bf data-start=15 "
				    "data-end=16 data-samples=0 data-rank=7 data-pair=o-l2>\n"));
	assert_non_null(strstr(buf, "1 insn &middot; #7 &middot; shown &middot; fact 2</span></tr>\n"));
	assert_non_null(strstr(buf, "3 insns &middot; fact 1</span></tr>\n"));
	free(buf);
	fixture__release(&x);
	(void)state;
}

/*
 * A function bigger than the box budget: its cold blocks are folded, and
 * each block's listing names the box it is drawn in. 120 jumps, each to the
 * next instruction (eb 00), then ret: 121 blocks in a line; one sampled.
 */
static void folded_blocks_name_their_box(void **state)
{
	char text[2048], *p = text, *page;
	struct fixture x;
	struct heat_scale heat;
	struct graph g;
	const struct report_func *f;
	size_t boxes;

	p += sprintf(p, "hotblocks-stream 1\nevent 0 e\ntotal 0 all 5 5\n"
		     "object 0 jit pid=1 e_machine=62 addr=0x1000 size=241 code-index=0 load-time=1 "
		     "dump=d name=chain\ncode 0 0x0 ");
	for (int i = 0; i < 120; i++)
		p += sprintf(p, "eb00");
	sprintf(p, "c3\nsample 0 0 0x64 5 5\nend\n");
	fixture__build(&x, text, 50.0, false);
	f = &x.rep.funcs[0];
	assert_int_equal(f->blocks_nr, 121);
	report_graph__heat(&heat, &x.rep);
	assert_int_equal(report_graph__build(&g, &x.rep, f, "f0", NULL, &heat, REPORT_GRAPH_BOXES), 0);
	boxes = graph__shown_nodes(&g);
	assert_true(boxes <= REPORT_GRAPH_BOXES);
	/* the hot block (0x64, block 50) is a box of its own */
	assert_int_equal(graph__shown(&g, 50), 50);
	graph__release(&g);

	page = render_to_string(render_html, &x.rep);
	/* every block listed, each naming the drawn box of its block */
	assert_int_equal(count(page, "<tbody class=\"blk"), 121);
	assert_int_equal(report_graph__build(&g, &x.rep, f, "f0", NULL, &heat, REPORT_GRAPH_BOXES), 0);
	for (uint32_t b = 0; b < f->blocks_nr; b++) {
		char want[128], id[REPORT_ID_MAX], box[REPORT_ID_MAX];

		snprintf(want, sizeof(want), " id=%s data-box=%s ",
			 report_graph__id(id, "f0", 'l', f->blocks[b].start),
			 report_graph__id(box, "f0", 'b', f->blocks[graph__shown(&g, b)].start));
		if (!strstr(page, want))
			fail_msg("block %u: no '%s'", b, want);
	}
	/* the drawn boxes are the graph's: one <g class="node..."> each */
	assert_int_equal(count(page, "<g class=\"node"), boxes);
	assert_non_null(strstr(page, "121 blocks in "));
	graph__release(&g);
	free(page);
	fixture__release(&x);
}

/*
 * dot folds and declines as the page does (report_graph__fit), and says so
 * in the title (the two tests below). A chain of n + 1 blocks: n jumps to the next instruction (eb 00), then
 * ret; every jump sampled when all, else only the one at 0x64 (the folding
 * case of folded_blocks_name_their_box).
 */
static char *chain(size_t n, bool all)
{
	size_t len = 256 + 4 * n + 32 * n;
	char *text = malloc(len), *p = text;

	assert_non_null(text);
	p += sprintf(p, "hotblocks-stream 1\nevent 0 e\ntotal 0 all %zu %zu\n"
		     "object 0 jit pid=1 e_machine=62 addr=0x1000 size=%zu code-index=0 load-time=1 "
		     "dump=d name=chain\ncode 0 0x0 ", all ? n : 1, all ? n : 1, 2 * n + 1);
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "eb00");
	p += sprintf(p, "c3\n");
	for (size_t i = 0; i < n; i++)
		if (all || 2 * i == 0x64)
			p += sprintf(p, "sample 0 0 0x%zx 1 1\n", 2 * i);
	sprintf(p, "end\n");
	return text;
}

/* A chain's report drawn as dot and as a page, dot's first digraph read back. */
struct drawn {
	struct fixture x;
	char *text, *dot, *page;
	FILE *f;
	Agraph_t *ag;
};

static void draw_chain(struct drawn *d, size_t n, bool all)
{
	d->text = chain(n, all);
	fixture__build(&d->x, d->text, all ? 100.0 : 50.0, false);
	d->dot = render_to_string(render_dot, &d->x.rep);
	d->page = render_to_string(render_html, &d->x.rep);
	d->f = fmemopen(d->dot, strlen(d->dot), "r");
	assert_non_null(d->f);
	d->ag = agread(d->f, NULL);
	assert_non_null(d->ag);
}

static void drawn_release(struct drawn *d)
{
	agclose(d->ag);
	fclose(d->f);
	free(d->dot);
	free(d->page);
	fixture__release(&d->x);
	free(d->text);
}

/* 121 blocks, one sampled: folded to fit, the title says how far, as the page does. */
static void dot_folds_as_the_page_does(void **state)
{
	struct drawn d;
	char want[256];

	draw_chain(&d, 120, false);
	assert_true(agnnodes(d.ag) <= REPORT_GRAPH_BOXES);
	snprintf(want, sizeof(want), "chain: 1 sample (100.00%%); 121 blocks in %d boxes: cold ones folded",
		 agnnodes(d.ag));
	assert_string_equal(agget(d.ag, "label"), want);
	snprintf(want, sizeof(want), "<span>121 blocks in %d boxes: cold ones folded</span>",
		 agnnodes(d.ag));
	assert_non_null(strstr(d.page, want));
	drawn_release(&d);
}

/* 501 blocks, 500 sampled: nothing to fold, more than the page lays out;
 * dot writes the title alone, saying why (it wrote 501 boxes). */
static void dot_declines_as_the_page_does(void **state)
{
	struct drawn d;

	draw_chain(&d, 500, true);
	assert_string_equal(agnameof(d.ag), "f0-cfg");
	assert_int_equal(agnnodes(d.ag), 0);
	assert_string_equal(agget(d.ag, "label"), "chain: 500 samples (100.00%); no graph: 501 boxes "
				"even with the cold blocks folded, too many to lay out");
	assert_null(agread(d.f, NULL));
	assert_non_null(strstr(d.page, "No graph: 501 boxes even with the cold blocks folded, too many "
				       "to lay out; the listing has every block."));
	drawn_release(&d);
}

/* The <title> of the page of a function named name (a stream string). */
static void assert_title(const char *name, const char *want)
{
	char text[1024], *page, *t;
	struct fixture x;

	snprintf(text, sizeof(text), "hotblocks-stream 1\nevent 0 e\ntotal 0 all 5 5\n"
		 "object 0 jit pid=1 e_machine=62 addr=0x1000 size=16 code-index=0 load-time=1 "
		 "dump=d name=%s\ncode 0 0x0 " LOOP_CODE "\nsample 0 0 0x5 5 5\nend\n", name);
	fixture__build(&x, text, 50.0, false);
	page = render_to_string(render_html, &x.rep);
	t = strstr(page, "<title>");
	assert_non_null(t);
	*strchr(t, '\n') = '\0';
	assert_string_equal(t, want);
	free(page);
	fixture__release(&x);
}

/*
 * The page's title names the hottest function, cut to 80 bytes: at a
 * character boundary, with an ellipsis. A name of 79 'a', then U+4E2D (3
 * bytes, the 80th to 82nd), then 'b': the cut leaves the ideograph out
 * whole (a cut inside it left a U+FFFD). An 80-byte name is whole.
 */
static void title_is_cut_at_a_character_boundary(void **state)
{
	char name[128], want[128], a79[80];

	memset(a79, 'a', 79);
	a79[79] = '\0';
	snprintf(name, sizeof(name), "%s%%E4%%B8%%ADb", a79);
	snprintf(want, sizeof(want), "<title>hotblocks: %s\xe2\x80\xa6</title>", a79);
	assert_title(name, want);
	snprintf(name, sizeof(name), "%sb", a79);
	snprintf(want, sizeof(want), "<title>hotblocks: %sb</title>", a79);
	assert_title(name, want);
}

/* dot: a digraph per function, the same boxes and edges, read back by
 * Graphviz's own parser. */
static void dot_reads_back(void **state)
{
	struct fixture x;
	char *dot;
	FILE *f;
	Agraph_t *ag;
	Agnode_t *n;
	size_t graphs = 0;

	fixture__build(&x, loops, 50.0, false);
	dot = render_to_string(render_dot, &x.rep);
	f = fmemopen(dot, strlen(dot), "r");
	assert_non_null(f);
	while ((ag = agread(f, NULL))) {
		const struct report_func *fn = &x.rep.funcs[graphs];
		char name[16];

		snprintf(name, sizeof(name), "f%zu-cfg", graphs);
		assert_string_equal(agnameof(ag), name);
		assert_int_equal(agnnodes(ag), fn->blocks_nr);
		assert_int_equal(agnedges(ag), fn->edges_nr);
		graphs++;
		if (graphs == 1) {
			/* the title: name, samples, share (the name's & and < as dot's
			 * entity layer wants them) */
			assert_string_equal(agget(ag, "label"),
					    "<script>alert(1)</script>&amp;amp;: 42 samples (42.00%)");
			n = agnode(ag, "f0-b5", 0);
			assert_non_null(n);
			assert_string_equal(agget(n, "label"), "0x5  32.00%\\l3 insns  #2\\l");
			assert_string_equal(agget(n, "class"), "em");
			assert_string_equal(agget(n, "href"), "#f0-l5");
		}
		agclose(ag);
	}
	fclose(f);
	assert_int_equal(graphs, 2);
	free(dot);
	fixture__release(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_box_per_block_and_the_reports_edges),
		cmocka_unit_test(listing_rows_blocks_and_links),
		cmocka_unit_test(painted_graph_and_hooked_listing),
		cmocka_unit_test(folded_blocks_name_their_box),
		cmocka_unit_test(dot_reads_back),
		cmocka_unit_test(title_is_cut_at_a_character_boundary),
		cmocka_unit_test(dot_folds_as_the_page_does),
		cmocka_unit_test(dot_declines_as_the_page_does),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

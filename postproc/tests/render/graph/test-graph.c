/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the graph to draw (postproc/render/graph/graph.c,
 * graph-collapse.c): merged edges, back edges, folding cold runs and regions
 * (its drawings: test-graph-draw.c).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "graph-check.h"
#include "render/graph/graph.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nodes_and_edges),
		cmocka_unit_test(back_edges),
		cmocka_unit_test(back_edges_deep),
		cmocka_unit_test(collapse),
		cmocka_unit_test(collapse_long),
		cmocka_unit_test(regions),
		cmocka_unit_test(regions_fan_out),
		cmocka_unit_test(fold_to_fit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

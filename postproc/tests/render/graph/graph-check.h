/* SPDX-License-Identifier: MIT */
/*
 * Test support of the graph's tests (test-graph*.c): nodes added, edges
 * found, a small graph with every kind of text, its SVG.
 */
#ifndef POSTPROC_TESTS_RENDER_GRAPH_GRAPH_CHECK_H
#define POSTPROC_TESTS_RENDER_GRAPH_GRAPH_CHECK_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "render/graph/graph.h"

static inline long add(struct graph *g, const char *id, const char *line, bool cold)
{
	const char *lines[] = { line };
	struct graph_node_spec s = { .id = id, .lines = lines, .lines_nr = 1, .cold = cold };

	return graph__add_node(g, &s);
}

/* The edge from -> to of kind, which must exist. */
static inline const struct graph_edge *edge(const struct graph *g, uint32_t from, uint32_t to,
				     enum graph_edge_kind kind)
{
	for (size_t i = 0; i < g->edges_nr; i++) {
		if (g->edges[i].from == from && g->edges[i].to == to && g->edges[i].kind == kind)
			return &g->edges[i];
	}
	fail_msg("no edge %u -> %u", from, to);
	return NULL;
}

/* 0 -> 1 -> 2 with a back edge 2 -> 0, and 0 -> 2 taken. */
static inline void small_graph(struct graph *g)
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

static inline char *svg_of(const struct graph *g)
{
	size_t len = 0;
	char *s = graph__svg(g, &len);

	assert_non_null(s);
	assert_int_equal(strlen(s), len);
	return s;
}

#endif

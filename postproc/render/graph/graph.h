/* SPDX-License-Identifier: MIT */
/*
 * A control-flow graph to draw: boxes with a few lines of text, a fill colour
 * and a link, joined by typed edges. It knows nothing about samples or code:
 * the report decides what a node says and how hot it looks. Three ways out:
 * graph__layout (graph-layout.c) places it with Graphviz's dot engine,
 * in-process; graph__write_svg (graph-svg.c) draws the placed graph as SVG;
 * graph__write_dot (graph-dot.c) writes Graphviz dot text for people's own
 * tooling, no layout needed.
 *
 * Node indexes are the caller's (the order nodes were added in) and stay valid
 * through everything below: a collapse folds nodes into another one instead of
 * removing them, so a block's node index is also where to look up the node it
 * is drawn in (graph__shown).
 */
#ifndef POSTPROC_GRAPH_H
#define POSTPROC_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "lib/util.h"

/* X(NAME, "class"): the kinds of edges, each drawn its own way; the class is
 * the CSS class of the edge in SVG and its "class" attribute in dot. */
#define GRAPH_EDGE_KINDS(X)                                                  \
	X(FALLTHROUGH, "fallthrough")	/* on to the next block in address order */ \
	X(TAKEN, "taken")		/* a branch or jump taken to its target */     \
	X(CASE, "case")			/* one case (or more) of a jump table */

enum graph_edge_kind {
#define X(name, cls) GRAPH_EDGE_##name,
	GRAPH_EDGE_KINDS(X)
#undef X
	GRAPH_EDGE_KINDS_NR
};

/* The class name of kind ("taken", ...). */
const char *graph_edge_kind__name(enum graph_edge_kind kind);

/* How an edge is drawn, the same in SVG and dot: back edges stand out in red
 * and thicker whatever their kind; jump table cases are dashed. */
struct graph_edge_style {
	uint32_t colour;	/* 0xRRGGBB */
	double width;		/* stroke width in points */
	bool dashed;
};

struct graph_point {
	double x, y;
};

struct graph_node {
	char *id;		/* unique among all graphs of a page: [A-Za-z0-9_-]+; the
				 * SVG element's id (a page's script addresses it) and
				 * the dot node's name */
	char **lines;		/* the label, one line each (no line breaks inside) */
	size_t lines_nr;
	char *tooltip;		/* or NULL */
	char *href;		/* where clicking it goes (e.g. "#b-3-0x1a"), or NULL */
	uint32_t fill;		/* 0xRRGGBB */
	uint32_t ink;		/* text colour, 0xRRGGBB */
	bool cold;		/* may be folded into a neighbour by a collapse */
	bool emphasis;		/* stands out: a heavier outline, class "em" */
	bool marked;		/* set apart: a dashed outline, class "mark" (what it
				 * means is the caller's, e.g. code one side lacks) */
	uint32_t collapsed_into;	/* itself, or the node drawn in its place */
	uint32_t members;	/* nodes it stands for: 1, or how many it was folded from */
	uint32_t run_last;	/* after a collapse: the run's last node (else itself) */
	bool region;		/* stands for a cold region (graph__collapse_cold_regions) */
	/* From graph__layout, in points, y growing downwards: the box's centre
	 * and size. */
	double x, y, w, h;
};

struct graph_edge {
	uint32_t from, to;	/* node indexes as added; graph__shown gives the drawn ones */
	enum graph_edge_kind kind;
	uint32_t count;		/* edges of this kind between the two merged into it
				 * (a jump table sending several cases to one block) */
	bool back;		/* closes a loop: graph__mark_back_edges */
	bool collapsed;		/* inside a collapsed run: not drawn */
	/* From graph__layout: the spline, cubic Bézier segments (1 + 3k points,
	 * from the tail towards the head), then the arrow's tip. */
	struct graph_point *pts;
	size_t pts_nr;
	struct graph_point tip;
};

struct graph {
	char *id;		/* [A-Za-z0-9_-]+: names the SVG element and the digraph */
	char *label;		/* a title for dot's drawing (graph__set_label), or NULL */
	struct graph_node *nodes;
	size_t nodes_nr, nodes_alloc;
	struct graph_edge *edges;
	size_t edges_nr, edges_alloc;
	struct idx_table edge_index; /* (from, to, kind) -> edges[] */
	/* Branch stacks: how often control went along each edge, measured
	 * (graph__measure_edge), and that as a share of the most measured
	 * edge's (graph__weigh_edges): drawn wider. NULL when nothing was
	 * measured (kept apart from edges, so that a graph without measures
	 * allocates what it did before them). */
	uint64_t *edge_measured;
	double *edge_weight;
	struct idx_table id_index; /* node id -> nodes[] */
	bool laid_out;		/* graph__layout succeeded: the coordinates are valid */
	double width, height;	/* from graph__layout: the drawing's size in points */
};

/* The style of an edge of kind, back or not. */
struct graph_edge_style graph_edge__style(enum graph_edge_kind kind, bool back);

/* A node to add: the strings are copied. */
struct graph_node_spec {
	const char *id;
	const char *const *lines;
	size_t lines_nr;
	const char *tooltip;	/* or NULL */
	const char *href;	/* or NULL */
	uint32_t fill, ink;
	bool cold;
	bool emphasis;
	bool marked;
};

/* Start an empty graph called id (copied). Returns 0, -EINVAL for an id that
 * is not [A-Za-z0-9_-]+, or -ENOMEM. */
int graph__init(struct graph *g, const char *id);
void graph__release(struct graph *g);

/*
 * Add a node; returns its index, or -EINVAL (an id that is not
 * [A-Za-z0-9_-]+), -EEXIST (a node of this graph has that id), -ENOMEM. Text is made safe on the way in: bytes that are
 * not valid UTF-8 become U+FFFD, control characters (line breaks included)
 * become spaces, so no writer has to care what a profiled program's names hold.
 */
long graph__add_node(struct graph *g, const struct graph_node_spec *spec);

/*
 * Add an edge from -> to of kind; an edge of the same kind between the same
 * two nodes is merged into it (its count grows). Returns 0, -EINVAL (a node
 * index out of range), -ENOMEM.
 */
int graph__add_edge(struct graph *g, uint32_t from, uint32_t to, enum graph_edge_kind kind);

/* Add n measured runs to the edge (from, to, kind) added before (after the
 * last edge is added); -EINVAL when there is none, -ENOMEM. */
int graph__measure_edge(struct graph *g, uint32_t from, uint32_t to, enum graph_edge_kind kind, uint64_t n);

/* Every edge's weight: its measured count over the most measured edge's.
 * 0 or -ENOMEM. */
int graph__weigh_edges(struct graph *g);

/* How edge e of g is drawn: graph_edge__style, wider by its weight (up to
 * 4 points more, for the most measured edge). */
struct graph_edge_style graph_edge__drawn_style(const struct graph *g, const struct graph_edge *e);

/*
 * Mark the edges that close loops: a depth-first search from entry (then from
 * every node it did not reach, in index order), following edges in the order
 * they were added; an edge to a node on the current path is a back edge. A
 * self-loop is one (analysis/back-edges.h, the report's search too). Returns
 * 0 or -ENOMEM. O(nodes + edges).
 */
int graph__mark_back_edges(struct graph *g, uint32_t entry);

/*
 * Of the drawn edges between the same two boxes (graph__shown) with the same
 * kind, draw one: the first added, its count the sum, a back edge when one of
 * them is; the others are not drawn. Returns 0 or -ENOMEM.
 */
int graph__merge_drawn_edges(struct graph *g);

/* Folding (graph-collapse.c). */

/*
 * Fold runs of cold nodes joined in a straight line into one box each: a run
 * is a chain n1 -> n2 -> ... -> nk (k >= min_run, at least 2) of cold nodes
 * where every link is the only edge out of its tail and the only edge into
 * its head (a merged edge counts once; self-loops never join a run). The first
 * node is drawn for the run: its lines become "<first's first line>",
 * "... N blocks ...", "<last's first line>", its members N and run_last the
 * last; the others are folded into it and the links between them are not
 * drawn. The edges into n1 and out of nk stay. Nodes already folded are left
 * alone. Returns the number of nodes folded away, or -ENOMEM.
 * O(nodes + edges).
 */
long graph__collapse_cold_runs(struct graph *g, uint32_t min_run);

/*
 * Fold what is far from the heat: the cold nodes more than keep_hops edges
 * (either way) from every node that is not cold are grouped by the edges
 * between them; groups that touch only one and the same node that stays are
 * one group (the cold cases of a jump table that each return); each group of
 * 2 or more becomes one box, drawn for its lowest-indexed node: lines
 * "<that node's first line>", "+ N-1 cold blocks", members N, region set. Edges inside a group are not drawn; of the edges
 * left between the same two boxes with the same kind, one is drawn (its count
 * the sum). So a function of thousands of blocks with a hot loop draws as
 * that loop, its neighbours, and a few boxes for the rest. Runs folded before
 * count as one node each. Returns the number of nodes folded away, or
 * -ENOMEM. O((nodes + edges) log) at worst.
 */
long graph__collapse_cold_regions(struct graph *g, uint32_t keep_hops);

/*
 * Fold until at most max_boxes boxes are drawn, keeping as much as fits:
 * cold runs first (graph__collapse_cold_runs, min_run 2), then cold regions
 * further than 2, 1, then 0 hops from the heat (graph__collapse_cold_regions).
 * Returns the boxes drawn then (may still be more than max_boxes: as many
 * boxes as there are hot nodes, and cold groups between them, always stay),
 * or -ENOMEM.
 */
long graph__collapse_to_fit(struct graph *g, size_t max_boxes);

/* The node drawn for node i: i itself, or the one it was folded into. */
static inline uint32_t graph__shown(const struct graph *g, uint32_t i)
{
	return g->nodes[i].collapsed_into;
}

/* How many nodes and edges are drawn (not folded). */
size_t graph__shown_nodes(const struct graph *g);
size_t graph__shown_edges(const struct graph *g);

/* Give the graph a title (copied, made safe as a node's text), written by
 * graph__write_dot as the drawing's label; NULL removes it. The SVG has none:
 * a page titles it in its own markup. Returns 0 or -ENOMEM. */
int graph__set_label(struct graph *g, const char *label);

/* Replace node i's label lines (copied, made safe as in graph__add_node). Returns 0 or -ENOMEM. */
int graph__set_lines(struct graph *g, uint32_t i, const char *const *lines, size_t lines_nr);

/*
 * Place the drawn nodes and route the drawn edges with Graphviz's dot engine,
 * in-process (libgvc, its text widths estimated for a 10-point monospace
 * font, so no font files are read and every machine gets the same drawing).
 * Fills every drawn node's x, y, w, h, every drawn edge's pts and tip, and
 * the graph's width and height. Returns 0, -E2BIG when more than max_nodes
 * nodes would be drawn (0: no limit; dot's time grows faster than linearly,
 * see scripts/bench-graph), -ENOMEM, or -EIO when Graphviz fails (its
 * message in err).
 */
int graph__layout(struct graph *g, size_t max_nodes, char *err, size_t errlen);

/*
 * Write the laid-out graph as one <svg> element (no XML prolog: it goes
 * inside an HTML page, and stands alone as an .svg file too):
 *   <svg id="GRAPH" class="cfg" viewBox=...> with per-graph arrow markers,
 *   <g class="node" id="NODE"> per drawn node (class "node cold" when cold,
 *   "node run" for a collapsed run, "node region" for a cold region;
 *   data-members="N" for both; " em" added for emphasis, " mark" for marked), holding an <a href>
 *   when the node has one, a <title> tooltip, the box and its text lines;
 *   <path class="edge KIND"> per drawn edge ("edge KIND back" for back
 *   edges), data-from / data-to the node ids.
 * Every text is escaped for XML/HTML. Returns 0, -EINVAL when the graph was
 * not laid out, or -EIO on a write error.
 */
int graph__write_svg(const struct graph *g, FILE *out);

/*
 * The laid-out graph as data, for a page's script to draw as
 * graph__write_svg draws it (a page of every function builds each drawing
 * when it is first seen): one JSON object,
 *   {"id", "w", "h", "vw", "vh", "n": [NODE...], "e": [EDGE...]}
 * the svg's id, width and height, and its viewBox's; NODE, a drawn node:
 *   [id, flags, members, x, y, w, h, fill, ink, href|null, tooltip|null,
 *    [x, y, line, ...]]
 * flags 1 cold, 2 emphasis, 4 marked, 8 a run, 16 a region; the box's
 * corner and size, the colours as integers, each text line with where it
 * starts; EDGE, a drawn edge:
 *   [from id, to id, kind, back, count, colour, width, dashed, [x, y, ...],
 *    [the arrowhead's three corners, x, y each] | null]
 * coordinates with one decimal, as the SVG writes them, the texts made safe
 * as the page's JSON has them (JSON_SCRIPT). Written by w as its member
 * key. Returns 0, or -EINVAL (not laid out: nothing written).
 */
struct json_writer;
int graph__write_json(const struct graph *g, struct json_writer *w, const char *key);

/* graph__write_svg into a new string (*len its length); NULL on failure, errno set. */
char *graph__svg(const struct graph *g, size_t *len);

/*
 * Write the drawn graph as Graphviz dot text: one "digraph" named for the
 * graph, the same nodes (label lines left-justified, fill and text colours,
 * tooltip, href, id, class) and edges (class = kind, and "back"; drawn as in
 * the SVG). No layout needed. Returns 0 or -EIO on a write error.
 */
int graph__write_dot(const struct graph *g, FILE *out);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * A listed function of a report as a graph to draw (graph.h): one node per
 * block, in block order (node i is block i, so graph__shown(g, i) is the box
 * block i is drawn in), coloured on the report's one heat scale, with the
 * report's edges, back edges marked, and cold parts folded to fit a budget
 * of boxes. The HTML page and the dot output draw this same graph.
 *
 * Names in a page: a function's pieces are told apart by a prefix the
 * caller chooses ([A-Za-z0-9_-]+, e.g. "f3"): the graph is PREFIX-cfg, the
 * box of the block starting at offset OFF is PREFIX-bOFF and its listing
 * PREFIX-lOFF (OFF in lowercase hex, no 0x). Boxes link to the listing.
 */
#ifndef POSTPROC_REPORT_GRAPH_H
#define POSTPROC_REPORT_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "graph.h"
#include "heat.h"
#include "report/report.h"

/* Boxes a drawing of one function aims at: what a person takes in at once,
 * and what Graphviz lays out in a few milliseconds (scripts/bench-graph). */
#define REPORT_GRAPH_BOXES 80

/* More boxes than this, even folded, are not drawn, by the page or in dot:
 * dot's time grows faster than linearly (scripts/bench-graph; 10,000 boxes
 * take it minutes), and a listing still has every block. */
#define REPORT_GRAPH_MAX_BOXES 400

/* How a function's graph is drawn, decided once (report_graph__fit) for
 * every output that draws it. */
struct report_graph_fit {
	size_t blocks;			/* the function's blocks */
	size_t boxes;			/* the boxes drawn for them, folded */
	bool drawn;			/* boxes <= REPORT_GRAPH_MAX_BOXES: drawn */
};

/* Room for any id below with a prefix of up to 32 bytes. */
#define REPORT_ID_MAX 64

/* The id of the box ('b') or listing ('l') of the block starting at start. */
const char *report_graph__id(char buf[REPORT_ID_MAX], const char *prefix, char what,
			     uint32_t start);

/* The report's heat scale: its hottest listed block's share is the hottest
 * colour, in every function alike. */
void report_graph__heat(struct heat_scale *s, const struct report *rep);

/* The share of all samples n is (0 when the report has none). */
double report_graph__share(const struct report *rep, uint64_t n);

/*
 * Build f's graph into g (initialised here; release it with graph__release
 * also on failure): boxes labelled with the block's start, share and size,
 * filled from heat, the shown blocks emphasised, no-sample blocks cold;
 * edges by kind; back edges marked from the entry; folded with
 * graph__collapse_to_fit(max_boxes) (0: not folded). label, or NULL, titles the
 * drawing in dot. Returns 0, -EINVAL for a bad prefix, or -ENOMEM.
 */
int report_graph__build(struct graph *g, const struct report *rep, const struct report_func *f,
			const char *prefix, const char *label, const struct heat_scale *heat,
			size_t max_boxes);

/*
 * Fold g, the graph of a function of blocks_nr blocks, to fit
 * REPORT_GRAPH_BOXES (graph__collapse_to_fit: cold runs, then cold regions) and
 * decide whether it is drawn, into *fit. Returns 0 or -ENOMEM.
 */
int report_graph__fit(struct graph *g, size_t blocks_nr, struct report_graph_fit *fit);

/*
 * What fit means, in words, into buf; returns buf:
 *   "5 blocks"                                     drawn whole
 *   "121 blocks in 12 boxes: cold ones folded"     drawn folded
 *   "10002 boxes even with the cold blocks folded, too many to lay out"
 */
const char *report_graph__fit_text(char *buf, size_t len, const struct report_graph_fit *fit);

/* The room of each text a paint may rewrite, NUL included. */
#define REPORT_GRAPH_TEXT 256

/*
 * Another way to paint the boxes (a comparison paints by change, not heat):
 * called for each block with the report's spec and text in place, to change
 * any of spec's fill, ink, cold, emphasis and marked, and the two label
 * lines and the tooltip (buffers of REPORT_GRAPH_TEXT). Folding, after it,
 * keeps what it leaves not cold.
 */
struct report_graph_paint {
	void (*block)(const void *ctx, size_t b, struct graph_node_spec *spec, char *line1,
		      char *line2, char *tooltip);
	const void *ctx;
};

/* report_graph__build with each box painted by paint (NULL: by heat alone). */
int report_graph__build_painted(struct graph *g, const struct report *rep,
				const struct report_func *f, const char *prefix, const char *label,
				const struct heat_scale *heat, size_t max_boxes,
				const struct report_graph_paint *paint);

#endif

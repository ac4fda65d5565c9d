/* SPDX-License-Identifier: MIT */
/*
 * One function's listing as an HTML table: the rows of the text table
 * (Samples / Assembly / CLIF / Wasm / Source), grouped by block, each row's
 * share with a bar (heat-coloured, or plain), jump targets linked to their blocks. Its markup is
 * what html-page.h's script works on:
 *
 *   <table class="listing">
 *   <tbody class="blk[ shown]" id=PREFIX-lOFF data-box=BOX data-start data-end
 *          data-samples [data-rank]>  one per listed block, a header row first
 *     <tr [class=data] [data-samples=N]>  one per row, cells without end
 *          tags: the bar, the share (the count in its title), the offset
 *          in hex, the assembly, then td.clif, td.wasm, td.src as the
 *          function has them ("same": as above, "none": no text). Counts
 *          in decimal as JSON has them; no data-samples: none. A source line
 *          (--source-lines) is a <tr class=line> before its first row.
 *   <tbody class="trail">  rows after the code (trailing data), if any
 */
#ifndef POSTPROC_HTML_LISTING_H
#define POSTPROC_HTML_LISTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "render/graph/graph.h"
#include "render/graph/heat.h"
#include "render/graph/report-graph.h"
#include "report/report.h"

/* What a page other than the report says about a block (a comparison: the
 * change of its pair); each may be NULL. */
struct html_listing_hooks {
	/* Block b's rank (0: none) and whether it is shown, in place of the report's. */
	void (*block)(const void *ctx, size_t b, uint32_t *rank, bool *shown);
	/* More attributes of block b's <tbody>, each with its leading space. */
	void (*attrs)(FILE *out, const void *ctx, size_t b);
	/* More facts at the end of block b's header line. */
	void (*facts)(FILE *out, const void *ctx, size_t b);
	const void *ctx;
};

struct html_listing {
	const struct report *rep;
	const struct report_func *f;
	const char *prefix;		/* the function's ids (report-graph.h) */
	const struct heat_scale *heat;	/* the page's colours */
	uint64_t bar_max;		/* samples of a full-width bar: the page's hottest row */
	const struct graph *g;		/* the function's drawn graph (report-graph.h):
					 * the box each block is in; NULL: none drawn */
	const struct html_listing_hooks *hooks;	/* or NULL */
	bool plain_bars;		/* every bar HTML_BAR_PLAIN, its length the only
					 * message (a page whose reds and greens say
					 * change); else coloured by the row's heat */
	/* The listing and graph as data (html_listing__data), which the page's
	 * script builds into this same markup when the function first comes
	 * into view: a page of every function (--all), or one whose functions
	 * would not all fit its budget as markup. */
	bool data;
	/* [f->blocks_nr] or NULL: the blocks written as stubs, their header
	 * alone (html-region.h), with no rows in f->rows. */
	const bool *stubs;
};

/* Rows from which a listing scrolls in a box of its own beside its graph
 * (class "tall" on its panes), opened at its hottest block. */
#define HTML_LISTING_TALL 400

/* The line of facts about f's code (<p class="meta">): kind, pid, address and
 * size, code load, file, symbol, wasm function, what was not placed. */
void html_listing__meta(FILE *out, const struct report_func *f);

/* Write l's listing. Returns 0 or -EIO when out has an error. */
int html_listing__write(FILE *out, const struct html_listing *l);

/*
 * l's listing and its drawn graph (l->g, or none) as data for the page's
 * script (html-page.h: <script type="application/json" class="fdata">),
 * which builds the markup html_listing__write and graph__write_svg write:
 *   {"p": PREFIX, "n": columns, "c": [its column classes], "b": [BLOCK...],
 *    "t": [ROW...] | null, "g": graph__write_json | null}
 * BLOCK: [start, end, samples, share, rank, shown, box, members, [ROW...]]
 * (share "" without samples; rank 0: none; box the start of the block whose
 * box it is drawn in, -1 without a graph; members of that box when it is
 * not its own); ROW: [size, text, what, ...] where the bits of what say
 * which follow, in this order: 1 a data row; 2 the start of the block it
 * goes to; 4 samples, share, bar width and colour; 8 its cells (null
 * absent, 0 as above, else the text); 16 its source line [file, line, text].
 * Returns 0 or -EIO.
 */
int html_listing__data(FILE *out, const struct html_listing *l);

/*
 * A function's part of a page: its facts (html_listing__meta), then, when it
 * was disassembled, its graph (report_graph__build_painted with paint, NULL:
 * by l->heat; folded and drawn as report_graph__fit decides) beside l's
 * listing in <div class="panes">, else why
 * there is no code. l->g is the caller's no more. Returns 0, -ENOMEM, -EIO.
 */
int html_listing__function(FILE *out, struct html_listing *l, const struct report_graph_paint *paint);

#endif

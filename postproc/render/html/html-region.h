/* SPDX-License-Identifier: MIT */
/*
 * A function too big for its page, cut to its hottest region: its hottest
 * blocks (in rank order, as many as the page has room for) with every row,
 * the blocks one CFG step before or after them as stubs (their header and
 * their box, not their rows), and the rest of its sampled blocks as a list
 * (start, samples). The region is a report_func of its own (blocks, rows
 * and edges of the region and its stubs only, re-indexed), so the listing
 * and the graph draw it as they draw any function.
 */
#ifndef POSTPROC_HTML_REGION_H
#define POSTPROC_HTML_REGION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "render/html/html-listing.h"
#include "report/report.h"

struct html_region {
	/* opened whole, its rows by block (report__func_open_blocks) */
	const struct report_func *whole;
	struct report_func f;		/* the region and its stubs */
	size_t *orig;			/* [f.blocks_nr]: the block's index in whole */
	bool *stub;			/* [f.blocks_nr]: a neighbour, its rows left out */
	size_t blocks;			/* the region's blocks (not its stubs) */
	size_t stubs;
	uint64_t samples;		/* the region's blocks' samples */
	size_t rest_rows;		/* at most this many rows in the list of the rest */
	uint64_t data_samples;		/* whole's in the data after its code */
};

/* whole's sampled blocks, hottest first (ties by address): *order, *nr.
 * Returns 0 or -ENOMEM. */
int html_region__order(const struct report_func *whole, uint32_t **order, size_t *nr);

/* The region of the hottest k blocks of order of rep's funcs[fi] (opened
 * by report__func_open_blocks) into r, its rows built for the region's
 * blocks alone, its list of the rest at most rest_rows rows. Returns 0 or
 * -ENOMEM (r released). */
int html_region__build(struct html_region *r, const struct report *rep, size_t fi,
		       const uint32_t *order, size_t k, size_t rest_rows);
void html_region__release(struct html_region *r);

/* r's part of a page in place of the whole listing (html_listing__function
 * with l->f the region): what it shows and why, the graph and listing,
 * then the list of the rest (order: as html_region__order gave it).
 * whole_cmd, or NULL: the command that writes the whole function. */
int html_region__write(FILE *out, struct html_listing *l, const struct html_region *r,
		       const uint32_t *order, size_t order_nr, const char *whole_cmd);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * Building a report (report.h) from a ranking and an annotator: what every
 * output shows, decided once.
 */
#ifndef POSTPROC_REPORT_BUILD_H
#define POSTPROC_REPORT_BUILD_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/rank.h"
#include "annotate/annotate.h"
#include "report.h"

/* Which rows of a function get a [Source] lookup (report_opts.source_rows). */
enum report_source {
	REPORT_SOURCE_DEFAULT,		/* every listed row; with list_selected the sampled ones */
	REPORT_SOURCE_NONE,		/* none: the report does not need them */
	REPORT_SOURCE_ALL,		/* every listed row */
};

/* What the report lists beyond the shown blocks (report__build). */
struct report_opts {
	/* Every function --function selects, not only those with a shown
	 * block (JSON --all: every sampled function). */
	bool list_selected;
	/* Every block and every instruction of a listed function, trailing data
	 * after code_end included, not only its shown blocks (JSON --all; a
	 * drawing of the whole graph). */
	bool whole_functions;
	/* Every sampled offset of each listed function, with its samples and
	 * periods (report_func.points: a profile of addresses, pprof). */
	bool points;
	/* Read the source line of each span of rows (text --source-lines). */
	bool source_lines;
	/* With branch stacks: the cost by block (report_branch_stack.costs,
	 * --by-executions); without them, a note saying they are needed.
	 * (Among the bools: the struct keeps its size, and so the heap its
	 * layout, which Graphviz's routing follows.) */
	bool by_executions;
	/* Which rows of object obj get [Source], when not the default (NULL:
	 * the default for all): a comparison matches the blocks of code that
	 * changed by their source lines, and needs none for code that did not. */
	enum report_source (*source_rows)(void *arg, size_t obj);
	void *source_rows_arg;
	/* Plugin warnings read from the input of this name (the fname given to
	 * stream__read) are left out: the plugin has just printed them on the
	 * same terminal (perf script ... | hotblocks). NULL: none. */
	const char *live_origin;
	/* --tiers-apart: each tier of a V8 wasm function is a function of its
	 * own in report.functions, as it is a code object (report-tiers.h). */
	bool tiers_apart;
	/* The rows report__func_rows builds at a time (0: ROWS_WINDOW, report-rows.c). */
	size_t rows_window;
};

/*
 * Build the report of r (built with ro) for o. annot (may be NULL: no
 * columns, names as the stream has them) makes the cells and display names;
 * the report borrows r, its stream and annot: release it first. Annotation
 * follows the order of the shown blocks, then of the other listed functions,
 * so that the annotator's notes name the code the report shows first.
 * [Source] cells are looked up for every listed row, but with
 * list_selected for the sampled rows only (a lookup per instruction of
 * every function would cost more than the rest of the report); source_rows
 * may decide otherwise per function.
 * Returns 0 or -ENOMEM; rep must be released either way.
 */
int report__build(struct report *rep, const struct rank *r, const struct rank_opts *ro,
		  struct annotator *annot, const struct report_opts *o);
void report__release(struct report *rep);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * A listed function's blocks, rows and edges, built when an output opens it
 * (report__func_open, report-rows.c) from what report__build
 * (report-build.c) kept for it. Internal to the two.
 */
#ifndef POSTPROC_REPORT_ROWS_H
#define POSTPROC_REPORT_ROWS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/rank.h"
#include "annotate/annotate.h"
#include "annotate/targets.h"
#include "report-build.h"

/* What every function's rows are made with: where targets out of a
 * function land, and which listed function each stream object is. */
struct build_env {
	struct targets *targets;	/* NULL: not known */
	uint32_t *obj_func;		/* stream object -> report.funcs, UINT32_MAX: not listed */
};

/* What a function's rows are built from when an output opens it. */
struct report_build {
	const struct rank *r;
	struct annotator *annot;
	struct report_opts o;
	struct build_env env;		/* owned */
	size_t *rank_of;		/* [funcs_nr]: the function's index in rank.funcs */
	uint32_t *kept;			/* functions built and not whole, in build order */
	size_t kept_nr, kept_alloc, kept_rows;
};

/* Where a whole function's rows, built a window at a time
 * (report__func_open_rows), go on from. */
struct rows_cursor {
	size_t insn;			/* the next row's instruction */
	size_t block;			/* the block it is in or after */
	int32_t prev;			/* the block of the row before (-1: none), -2 at the start */
	const char *span_file;		/* the source line span the row before is in */
	unsigned span_line;
	size_t next;			/* the next row's index in the function */
};

/* What a function of the report owns besides its arrays. */
struct report_func_store {
	char *texts;			/* the shown rows' texts (not whole) */
	struct rank_decoded decoded;	/* whole: its disassembly, which its rows'
					 * texts are in */
	char **strs;			/* its rows' target names and the cells made with them */
	size_t strs_nr, strs_alloc;
	bool built;			/* blocks, rows and edges are there */
	bool windowed;			/* whole, its rows a window at a time: cursor */
	bool by_block;			/* whole, its rows a block at a time
					 * (report__func_open_blocks) */
	uint64_t data_samples;		/* by_block: its rows' outside any block */
	struct cfg_text *insn_text;	/* windowed, by_block: its rows' texts, its
					 * disassembly (decoded) having none */
	struct rows_cursor cursor;
	unsigned users;			/* opened and not closed */
};

/* Drop what f's rows were built with: its blocks, rows and edges, their
 * strings and its disassembly (f->store stays, to build them again). */
void report_rows__drop(struct report_func *f);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The comparison of two profiles, block by block: `hotblocks diff BASE NEW`.
 *
 * Each side is a merged stream (one or more runs) ranked and reported as
 * report.h describes, listing whole functions (every block, row and edge).
 * diff__build pairs the functions of the two sides by identity, then the
 * blocks of each pair by the best key both have, and ranks the pairs of
 * blocks by the change in their share of all samples:
 *
 *   BASE stream --rank/report--\
 *                               match --> struct diff --render--> text | JSON
 *   NEW stream  --rank/report--/
 *
 * An output lays out a struct diff and decides nothing (diff_render_ops
 * below). The side reports stay available to it: the HTML page draws each
 * function's graph (report.h's blocks and edges) painted by the deltas of
 * its pairs.
 *
 * Shares are percentages of each side's total samples (T of that side, as
 * in the report). A delta is NEW minus BASE: positive means the code takes
 * a larger share of the run (it got slower relative to the rest).
 */
#ifndef POSTPROC_DIFF_H
#define POSTPROC_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "annotate/annotate.h"
#include "analysis/rank.h"
#include "report/report-build.h"
#include "stream/stream.h"

enum diff_side_id { DIFF_BASE, DIFF_NEW, DIFF__SIDES };

/* One side of the comparison. */
struct diff_side {
	/* Set by the caller before diff__build. */
	const char *label;		/* "BASE" or "NEW" */
	const char *files;		/* its inputs, as the user named them ("a.hbs b.hbs") */
	struct stream stream;		/* read and finished */
	struct annotator *annot;	/* its --cwasm/--clif/--wasm, or NULL */

	/* Built by diff__build. */
	long event;			/* index in stream.events, -1: the stream has none */
	struct rank rank;
	struct rank_opts rank_opts;
	struct report_names names;
	struct report report;		/* every_function + whole_functions */
	/* private */
	uint64_t *obj_samples;		/* [stream.objects_nr]: samples of the event */
	bool *candidate;		/* [stream.objects_nr]: disassembled and matched */
	bool *same_code;		/* [stream.objects_nr]: its pair has the same code bytes */
	uint32_t *func_of;		/* [stream.objects_nr]: index in report.funcs, or UINT32_MAX */
};

/* How two functions were paired. */
enum diff_func_match {
	DIFF_FUNC_NONE,		/* on one side only */
	DIFF_FUNC_IDENTITY,	/* the same identity (diff__identity with the location) */
	DIFF_FUNC_NAME,		/* the same name, but for the directory and line of a JIT
				 * function's script, or the file of a symbol */
};

/* Which key paired two blocks: the first that both blocks have, in this order. */
enum diff_key {
	DIFF_KEY_NONE,		/* on one side only */
	DIFF_KEY_CODE,		/* the two functions have the same code bytes, and the
				 * blocks the same offsets */
	DIFF_KEY_WASM,		/* the wasm offsets of their rows (wasmtime with --cwasm) */
	DIFF_KEY_SOURCE,	/* the source lines of their rows (DWARF, jitdump DEBUG_INFO) */
	DIFF_KEY_ASM,		/* their instruction sequences */
	DIFF_KEY__NR
};

/* A pair of functions, or a function of one side. */
struct diff_func {
	int32_t f[DIFF__SIDES];		/* index in that side's report.funcs; -1: absent,
					 * or not compared (see obj) */
	uint32_t obj[DIFF__SIDES];	/* index in that side's stream.objects; UINT32_MAX: absent */
	const char *name[DIFF__SIDES];	/* display names (NULL: absent) */
	enum diff_func_match match;
	uint64_t samples[DIFF__SIDES];
	double share[DIFF__SIDES];
	double delta;			/* share[NEW] - share[BASE], points */
	int64_t delta_samples;		/* samples[NEW] - samples[BASE] */
	/* Its blocks were matched: it could hold a block pair that passes
	 * --min-delta (or --all). The others are compared by their totals only. */
	bool compared;
	/* Compared, on both sides, with the same code bytes (all known): blocks
	 * of the same offsets are the same code (DIFF_KEY_CODE). */
	bool same_code;
	size_t first_pair, pairs_nr;	/* its pairs: diff.pairs[first_pair ..], by BASE block,
					 * then NEW-only blocks by address */
};

/* A pair of blocks (either may be absent), with samples on at least one side. */
struct diff_pair {
	uint32_t func;			/* index in diff.funcs */
	int32_t b[DIFF__SIDES];		/* index in that side's report_func.blocks; -1: absent */
	enum diff_key key;
	double score;			/* how alike by that key: 0..1 (1 = the same) */
	uint64_t samples[DIFF__SIDES];
	double share[DIFF__SIDES];
	double delta;			/* share[NEW] - share[BASE], points */
	int64_t delta_samples;
	uint32_t rank;			/* 1-based place in diff.ranked */
	bool shown;			/* among diff.ranked[0 .. shown_nr) */
};

struct diff_opts {
	bool counts;			/* rank by the change in samples, not in share */
	/* Shown pairs changed by at least this much: percentage points, or
	 * samples with counts. Negative: the default (0.1 points; with counts,
	 * 0.1% of the larger total, at least 1 sample). */
	double min_delta;
	size_t top;			/* at most this many shown pairs; SIZE_MAX: no limit */
	bool all;			/* every pair of every sampled function; no min_delta/top */
	const char *function;		/* both sides: --function NAME (name-match.h), or NULL */
	const char *event;		/* the event to compare, or NULL: BASE's first */
	bool listing;			/* text: each shown pair's blocks after the tables */
};

struct diff {
	struct diff_side side[DIFF__SIDES];
	struct diff_opts opts;
	const char *event;		/* the event compared (borrowed), or NULL: none */
	double min_delta;		/* the threshold in force, in the ranking's unit */
	uint64_t total[DIFF__SIDES];	/* T of each side */
	uint64_t jit[DIFF__SIDES];	/* W of each side */
	/* Every pair of sampled functions (with --function: selected on a side),
	 * by |delta| (|delta_samples| with counts), descending. */
	struct diff_func *funcs;
	size_t funcs_nr;
	size_t funcs_shown_nr;		/* funcs[0 .. funcs_shown_nr) pass min_delta and top */
	struct diff_pair *pairs;	/* of the compared functions, grouped by function */
	size_t pairs_nr;
	uint32_t *ranked;		/* every pair, by |delta| (or |delta_samples|) */
	size_t shown_nr;		/* ranked[0 .. shown_nr) pass min_delta and top */
	size_t compared_nr;		/* funcs compared block by block */
	size_t keys[DIFF_KEY__NR];	/* pairs of both sides matched by each key */
	/* private */
	size_t funcs_alloc, pairs_alloc;
};

/*
 * Compare d->side[BASE] and d->side[NEW] (their label, files, stream and
 * annot set; everything else zero) under o. Returns 0, -ENOENT when a side
 * has no event of the name asked (or NEW lacks BASE's first), or -ENOMEM.
 * d must be released either way (diff__release does not free the sides'
 * streams and annotators: their owner does).
 */
int diff__build(struct diff *d, const struct diff_opts *o);
void diff__release(struct diff *d);

/* The wire names: "identity", "name", NULL; "code", "wasm", "source", "asm", NULL. */
const char *diff__func_match_name(enum diff_func_match m);
const char *diff__key_name(enum diff_key k);

/*
 * How a change reads, the same in every output: its sign, +1 (NEW takes
 * more: slower), -1 (less: faster) or 0 (none: it rounds to 0.00 points, or
 * with counts is 0 samples); and its size as a share of all samples (0..1;
 * with counts, the samples over the larger side's total).
 */
int diff__sign(const struct diff *d, double delta, int64_t delta_samples);
double diff__change(const struct diff *d, double delta, int64_t delta_samples);

/* The outputs: each lays out a struct diff and decides nothing else. */
struct render_opts;
struct diff_render_ops {
	const char *name;
	/* Write d to out. Returns 0, or -EIO if out has an error. */
	int (*render)(FILE *out, const struct diff *d, const struct render_opts *o);
};

/* What the text output prints, for the other outputs to print alike
 * (render-diff-text.c); each returns buf, or a constant: */
/* a side's cell: its share ("12.34%"), or samples with counts; "-" when absent */
const char *diff__side_text(char *buf, size_t len, const struct diff *d, bool present,
			    double pct, uint64_t n);
/* a delta: signed unless it shows no change (diff__sign): "+1.23%", "0.00%", "-5" */
const char *diff__delta_text(char *buf, size_t len, const struct diff *d, double delta,
			     int64_t delta_samples);
/* how a pair was matched: "wasm 64%", or "BASE only" / "NEW only" */
const char *diff__pair_match_text(char *buf, size_t len, const struct diff_pair *p);
/* how a function was matched: "identity", "name", or "BASE only" / "NEW only" */
const char *diff__func_match_text(const struct diff_func *f);

extern const struct diff_render_ops diff_render_text;	/* render-diff-text.c */
extern const struct diff_render_ops diff_render_json;	/* render-diff-json.c: JSON.md */
extern const struct diff_render_ops diff_render_html;	/* render-diff-html.c */

/* `hotblocks diff [options] BASE NEW` (cli/cmd-diff.c); returns the exit status. */
int diff__main(int argc, char **argv);

/*
 * An object's identity across compilations and runs, into buf (NUL-terminated,
 * cut at len): for native and cwasm objects the file's base name and the
 * symbol; for JIT code the name without what changes between compilations of
 * one function: V8's tag ("JS:", "LazyCompile:", "Function:" of older V8),
 * its tier mark (* ^ ~ +) and the wasm tier suffix ("-liftoff", "-turbofan");
 * the wasm function index ("work-1") and the script location
 * ("/srv/hot.js:5:14") stay; with_location false keeps only the base name of
 * the script ("hot.js"), and for a symbol drops the file. Returns the length.
 */
size_t diff__identity(char *buf, size_t len, enum hb_object_kind kind, const char *name,
		      const char *dso, bool with_location);

#endif

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
 * This header is data: diff__build (diff-build.h) decides everything an
 * output shows (which functions are drawn, the change scale, the bars, how
 * each change reads), and an output lays out a struct diff and nothing else.
 * The side reports are part of it: the HTML page draws each function's graph
 * (report.h's blocks and edges) painted by the changes of its pairs.
 *
 * Shares are percentages of each side's total samples (T of that side, as
 * in the report). A delta is NEW minus BASE: positive means the code takes
 * a larger share of the run (it got slower relative to the rest). With
 * counts, samples per run of each side (the same -F makes them time).
 *
 * Each pair carries the test of its change (diff-significance.h, applied by
 * diff-noise.c): the interval, p- and q-values, and whether it is beyond
 * noise; struct diff_noise says how large the noise is.
 */
#ifndef POSTPROC_DIFF_H
#define POSTPROC_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "diff-significance.h"
#include "report/report.h"

enum diff_side_id { DIFF_BASE, DIFF_NEW, DIFF__SIDES };

/* One side of the comparison. */
struct diff_side {
	const char *label;		/* "BASE" or "NEW" */
	const char *files;		/* its inputs, as the user named them ("a.hbs b.hbs") */
	long event;			/* the compared event's index in its stream, -1: none */
	struct report report;		/* every selected function, whole */
};

struct diff_work;

/* How two functions were paired. */
enum diff_func_match {
	DIFF_FUNC_NONE,		/* on one side only */
	DIFF_FUNC_IDENTITY,	/* the same identity (diff__identity with the location; a
				 * wasmtime function: its .cwasm symbol, however seen) */
	DIFF_FUNC_WASM,		/* the same function of a wasm module, by its index (and
				 * its name where both know one): V8's JS:hash-1-turbofan
				 * and wasmtime's wasm[0]::function[1]::hash */
	DIFF_FUNC_NAME,		/* the same name, but for the directory and line of a JIT
				 * function's script, or the file of a symbol; a wasm
				 * function's name-section name, whichever engine */
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

/*
 * The test of a change (diff-noise.c): NEW - BASE with its 1 - alpha
 * interval, in points (percentage points of share), or with counts in
 * samples per run; its two-sided p-value and Benjamini-Hochberg's q-value
 * over its family (function pairs, block pairs). A pair with fewer samples
 * than diff_noise.min_samples cannot be significant and is not tested
 * (q NAN). significant: q <= fdr.
 */
struct diff_test {
	double lo, hi;
	double p, q;
	bool tested;
	bool significant;
};

/* A tier of a function of one side (diff_func.first_tier): a V8 wasm
 * function's code of one tier (report-tiers.h). */
struct diff_tier {
	uint32_t obj;			/* index in that side's stream.objects */
	const char *tier;		/* "turbofan", "liftoff" */
	const char *name;		/* its code's name, as the stream has it */
	uint64_t samples;
};

/* A pair of functions, or a function of one side. */
struct diff_func {
	int32_t f[DIFF__SIDES];		/* index in that side's report.funcs; -1: absent,
					 * or not compared (see obj) */
	uint32_t obj[DIFF__SIDES];	/* index in that side's stream.objects; UINT32_MAX: absent */
	const char *name[DIFF__SIDES];	/* display names (NULL: absent) */
	const char *raw_name[DIFF__SIDES]; /* as the stream names it (NULL: absent) */
	const char *kind[DIFF__SIDES];	/* the kind's wire name: "jit", "native", "cwasm" */
	enum diff_func_match match;
	int32_t wasm_func;		/* DIFF_FUNC_WASM: the wasm function index, else -1 */
	uint64_t samples[DIFF__SIDES];
	/* A V8 wasm function with its tiers together (unless --tiers-apart):
	 * on each side its tiers, hottest first, whose samples samples[s] sums:
	 * diff.tiers[first_tier[s] .. + tiers_nr[s]]; tiers_nr 0: not one.
	 * obj[s] is then the tier whose blocks are compared: the one both
	 * sides have with the most samples (TurboFan's, mostly), else the
	 * side's hottest; name[s] and raw_name[s] are without the tier. */
	size_t first_tier[DIFF__SIDES], tiers_nr[DIFF__SIDES];
	/* What its blocks are of: obj[s]'s display name, with its tier; name[s]
	 * when not tiered. */
	const char *block_name[DIFF__SIDES];
	const char *block_tier[DIFF__SIDES];	/* obj[s]'s tier, or NULL: not tiered */
	double share[DIFF__SIDES];
	double delta;			/* share[NEW] - share[BASE], points */
	int64_t delta_samples;		/* samples[NEW] - samples[BASE] */
	double delta_per_run;		/* samples per run, NEW - BASE (diff.runs) */
	/* How its change reads, the same in every output: +1 NEW takes more
	 * (slower), -1 less (faster), 0 none (it rounds to 0.00 points, or with
	 * counts is 0 samples); and its size as a share of all samples (0..1;
	 * with counts, the samples per run over the larger side's per run). */
	int sign;
	double change;
	struct diff_test test;
	/* How its change is painted and marked: its sign when it is beyond
	 * noise (test.significant), else 0: neutral. */
	int mark;
	/* Its blocks were matched: it could hold a block pair that passes
	 * --min-delta (or --all). The others are compared by their totals only. */
	bool compared;
	/* Compared, on both sides, with the same code bytes (all known): blocks
	 * of the same offsets are the same code (DIFF_KEY_CODE). */
	bool same_code;
	size_t first_pair, pairs_nr;	/* its pairs: diff.pairs[first_pair ..], by BASE block,
					 * then NEW-only blocks by address */
	bool drawn;			/* it holds a shown pair: a page draws its graphs */
};

/* A pair of blocks (either may be absent), with samples on at least one side. */
struct diff_pair {
	uint32_t func;			/* index in diff.funcs */
	int32_t b[DIFF__SIDES];		/* index in that side's report_func.blocks; -1: absent */
	/* That block (b >= 0): [start, end) and its rows, known with its
	 * function closed (report__func_open). */
	uint32_t start[DIFF__SIDES], end[DIFF__SIDES], insns[DIFF__SIDES];
	enum diff_key key;
	double score;			/* how alike by that key: 0..1 (1 = the same) */
	uint64_t samples[DIFF__SIDES];
	double share[DIFF__SIDES];
	double delta;			/* share[NEW] - share[BASE], points */
	int64_t delta_samples;
	double delta_per_run;
	int sign;			/* how its change reads (as diff_func's) */
	double change;
	struct diff_test test;
	int mark;			/* (as diff_func's) */
	uint32_t rank;			/* 1-based place in diff.ranked */
	bool shown;			/* among diff.ranked[0 .. shown_nr) */
};

/*
 * A group of blocks across the two sides of a compared function: blocks
 * joined, whichever side, when their rows' wasm offsets intersect (a
 * union-find over them), with blocks on both sides and more than one on a
 * side: V8's unrolled loop (two or more blocks) against Cranelift's one loop
 * block; and a block with samples that is unpaired, or paired outside it
 * (else its pairs say it all). It is compared as one entry: each side's
 * samples are its blocks' sum. Its blocks are diff.group_blocks[first_block ..]: BASE's, then NEW's,
 * each side's by address; blocks_nr[s] of side s. Its pairs stay as they are.
 */
struct diff_group {
	uint32_t func;			/* index in diff.funcs */
	size_t first_block, blocks_nr[DIFF__SIDES];
	uint64_t samples[DIFF__SIDES];
	double share[DIFF__SIDES];
	double delta;			/* share[NEW] - share[BASE], points */
	int64_t delta_samples;
	double delta_per_run;
	int sign;			/* how its change reads (as diff_func's) */
};

/* A block of a group. */
struct diff_group_block {
	int32_t b;			/* index in its side's report_func.blocks */
	uint32_t start, end;
	uint64_t samples;
};

/*
 * What branch stacks measured of a pair's blocks (diff.measured, index for
 * index with diff.pairs), when both sides have them. A block's executions
 * are its report_measured.executions; rate is them per 1000 of its side's
 * branch-stack entries (report_branch_stack.entries: the taken branches the
 * samples recorded), so that sides of other lengths, sampling rates or stack
 * depths compare. branch: the block ends in a conditional branch, taken and
 * not_taken times (report_row_branch) on that side.
 */
struct diff_measured {
	uint64_t executions[DIFF__SIDES];
	double rate[DIFF__SIDES];
	double delta;			/* rate[NEW] - rate[BASE] (0 with a side absent's 0) */
	bool branch[DIFF__SIDES];
	uint64_t taken[DIFF__SIDES], not_taken[DIFF__SIDES];
};

struct diff_opts {
	bool counts;			/* rank by the change in samples per run, not in share */
	/* Shown pairs changed by at least this much: percentage points, or
	 * samples per run with counts. Negative: the default, the least change
	 * that can be beyond noise (diff_noise.min_delta); and then only the
	 * functions that changed beyond noise are compared block by block, and
	 * the pairs beyond noise shown (diff.by_noise). */
	double min_delta;
	/* The run-to-run spread to assume where no side's runs measure one
	 * (tau, relative: 0.05). 0: the default (DIFF_NOISE_SPREAD); negative:
	 * none, sampling noise only. */
	double spread;
	size_t top;			/* at most this many shown pairs; SIZE_MAX: no limit */
	bool all;			/* every pair of every sampled function; no min_delta/top */
	const char *function;		/* both sides: --function NAME (name-match.h), or NULL */
	const char *event;		/* the event to compare, or NULL: BASE's first */
	bool listing;			/* text: each shown pair's blocks after the tables */
	/* --tiers-apart: V8 wasm functions paired tier by tier (objects), not
	 * as functions of their tiers together (report-tiers.h) */
	bool tiers_apart;
	/* The output shows the shown pairs alone (not how many functions were
	 * compared, nor every pair): blocks are compared only in the functions
	 * that could hold a shown pair, the most that could first. */
	bool shown_only;
};

/* The noise of the comparison: what a change must exceed (diff-noise.c). */
struct diff_noise {
	struct diff_significance model;	/* the test in force: tau^2 (measured or assumed),
					 * alpha, fdr, the quantile */
	struct diff_significance_spread spread[DIFF__SIDES];	/* each side's runs */
	/* The noise at a share of 1% and 10% (points), or with counts at 100
	 * and 1000 samples a run: half of the interval on a change there. */
	double half_width[2];
	double min_delta;		/* the least change that can be significant (points,
					 * or samples per run; HUGE_VAL: none can) */
	uint64_t min_samples;		/* the least a pair's a + b must be to be tested */
	size_t tests_funcs, tests_blocks;	/* pairs tested */
	/* Block pairs that functions not compared block by block could hold
	 * with min_samples or more (at most): counted in the blocks' family,
	 * so their q-values are never smaller than with every function compared. */
	size_t blocks_unseen;
	size_t significant_funcs, significant_blocks;
};

struct diff {
	struct diff_side side[DIFF__SIDES];
	struct diff_opts opts;
	const char *event;		/* the event compared (borrowed), or NULL: none */
	double min_delta;		/* the threshold in force, in the ranking's unit */
	uint64_t total[DIFF__SIDES];	/* T of each side */
	size_t runs[DIFF__SIDES];	/* each side's runs (sections), at least 1 */
	/* counts over several runs on a side: the counts shown are per run */
	bool per_run;
	/* The default selection (no --min-delta, --all or --function): the
	 * functions compared block by block are those whose change is beyond
	 * noise, and the pairs shown (ranked first) those beyond noise. */
	bool by_noise;
	struct diff_noise noise;
	uint64_t jit[DIFF__SIDES];	/* W of each side */
	/* Every pair of sampled functions (with --function: selected on a side),
	 * by |delta| (|delta_samples| with counts), descending. */
	struct diff_func *funcs;
	size_t funcs_nr;
	size_t funcs_shown_nr;		/* funcs[0 .. funcs_shown_nr) pass min_delta and top */
	struct diff_pair *pairs;	/* of the compared functions, grouped by function */
	size_t pairs_nr;
	uint32_t *ranked;		/* every pair, by |delta| (or |delta_per_run|);
					 * by_noise: those beyond noise first */
	size_t shown_nr;		/* ranked[0 .. shown_nr) pass min_delta and top
					 * (by_noise: and are beyond noise) */
	size_t compared_nr;		/* funcs compared block by block */
	size_t keys[DIFF_KEY__NR];	/* pairs of both sides matched by each key */
	/* --function selects no sampled function of either side. */
	bool function_unmatched;
	/* Both sides have branch stacks: each pair's measured counts
	 * (measured[pairs_nr]) and each side's entries, what rates are of. */
	bool has_measured;
	struct diff_measured *measured;
	uint64_t entries[DIFF__SIDES];
	/* The top of the change scale: the largest change of a drawn function's pair. */
	double change_max;
	/* A full bar of each side: the most samples of a row of a drawn function. */
	uint64_t row_max[DIFF__SIDES];
	struct diff_tier *tiers;	/* the tiers of tiered functions (diff_func.first_tier) */
	size_t tiers_nr;
	/* Groups of blocks by their wasm offsets (diff_group), of the compared
	 * functions, by function; none when no group forms. */
	struct diff_group *groups;
	size_t groups_nr;
	struct diff_group_block *group_blocks;
	size_t group_blocks_nr;
	/* private */
	size_t funcs_alloc, pairs_alloc, tiers_alloc, measured_alloc, groups_alloc, group_blocks_alloc;
	char **names;			/* the names without the tier, owned */
	size_t names_nr, names_alloc;
	struct diff_work *work;		/* what diff__build keeps for the side reports */
};

/* The wire names: "identity", "wasm", "name", NULL; "code", "wasm", "source", "asm", NULL. */
const char *diff__func_match_name(enum diff_func_match m);
const char *diff__key_name(enum diff_key k);

#endif

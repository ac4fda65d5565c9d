/* SPDX-License-Identifier: MIT */
/*
 * The parts of diff__build (diff-build.h): what it keeps of each side, and
 * the pairing: of functions (diff-match.c), of a function's blocks
 * (diff-match-blocks.c).
 */
#ifndef POSTPROC_DIFF_MATCH_H
#define POSTPROC_DIFF_MATCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/rank.h"
#include "annotate/annotate.h"
#include "diff.h"
#include "report/report-build.h"
#include "stream/stream.h"

/* One side as diff__build works on it. */
struct diff_work_side {
	const struct stream *stream;	/* borrowed */
	struct annotator *annot;	/* borrowed, or NULL */
	struct rank rank;		/* the side report's rows live in it */
	struct rank_opts rank_opts;
	uint64_t *obj_samples;		/* [stream.objects_nr]: samples of the event */
	bool *candidate;		/* [stream.objects_nr]: disassembled and matched */
	bool *same_code;		/* [stream.objects_nr]: its pair has the same code bytes */
	uint32_t *func_of;		/* [stream.objects_nr]: index in report.funcs, or UINT32_MAX */
};

struct diff_work {
	struct diff_work_side side[DIFF__SIDES];
};

/*
 * Pair the sampled objects of the two sides (those with obj_samples) into
 * d->funcs: by identity, then as one function of a wasm module (its index,
 * and its name where both know one), then by name without the location,
 * hottest with hottest among equals (the same tier first). Fills obj, name
 * and raw_name (the stream's names), kind, samples, match and wasm_func.
 * Returns 0 or -ENOMEM.
 */
int diff_match__funcs(struct diff *d);

/*
 * Pair the blocks of d->funcs[fi] (compared; its f[] set where the side has
 * it) by the first key both blocks have, and append a pair for every block
 * with samples on either side to d->pairs. It reads only the side reports
 * and d->funcs. Returns 0 or -ENOMEM.
 */
int diff_match__blocks(struct diff *d, size_t fi);

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

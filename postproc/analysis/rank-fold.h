/* SPDX-License-Identifier: MIT */
/*
 * One object's fold, inside the ranking (rank.c): its code disassembled and
 * one event's samples placed in its instructions and blocks, its sampled
 * blocks kept; a batch of objects folded on worker threads.
 */
#ifndef POSTPROC_ANALYSIS_RANK_FOLD_H
#define POSTPROC_ANALYSIS_RANK_FOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfg.h"
#include "rank.h"

/* One object's fold before it joins the ranking: its sampled blocks and their
 * instructions (first_insn and first_target relative to insns and targets). */
struct folded {
	struct rank_sum *sums;
	size_t sums_nr;
	struct rank_insn *insns;
	size_t insns_nr;
	uint64_t *targets;
	size_t targets_nr;
};

void folded_release(struct folded *fo);

/* What the reference calls Wasm samples: JIT code and wasmtime's .cwasm
 * images; code a perf map names is JIT code too. */
bool rank_fold__counts_as_jit(const struct stream_object *obj);

/* The range of obj's samples for event ev (samples are sorted by (ev, off)). */
const struct stream_sample *rank_fold__event_samples(const struct stream_object *obj, long ev, size_t *nr);

/* What obj is disassembled from: its bytes, address and how to read them (no seeds). */
void rank_fold__input(const struct stream_object *obj, struct cfg_input *in);

/* Disassemble obj (with code bytes), seeded with every sampled offset of any
 * event: an executed instruction start. flags are added to its own. */
int rank_fold__disassemble(const struct stream_object *obj, unsigned flags, struct cfg_func *cfg, char *err,
			   size_t errlen);

/* Where each of one event's samples smp[0..nr) of a disassembled object
 * goes: its block (block_samples, may be NULL), its instruction
 * (insn_samples, may be NULL), or in none (*unaligned, *outside); *row_max
 * the most on one instruction. */
void rank_fold__place(const struct cfg_func *cfg, const struct stream_sample *smp, size_t nr,
		      uint64_t *insn_samples, uint64_t *block_samples, uint64_t *block_row_max,
		      uint64_t *unaligned, uint64_t *outside, uint64_t *row_max);

/* Fold funcs[which[k]] of stream s (event ev) into out[k], its result in
 * ret[k], for k in [0, nr), on worker threads and off the calling thread
 * (with no_insns, the sampled blocks without their instructions:
 * rank_opts.whole_only); rank_fold__release frees what the folds kept,
 * off it too. */
void rank_fold__batch(const struct stream *s, long ev, struct rank_func *funcs, const size_t *which, size_t nr,
		      bool no_insns, struct folded *out, int *ret);
void rank_fold__release(struct folded *out, size_t nr);

#endif

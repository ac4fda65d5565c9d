/* SPDX-License-Identifier: MIT */
/* Sum one event's samples into the blocks of each sampled object, rank and select them. */
#ifndef POSTPROC_RANK_H
#define POSTPROC_RANK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfg.h"
#include "name-match.h"
#include "stream/stream.h"

struct rank_opts {
	double percent;		/* the reference's --percent threshold, in [0, 100] */
	bool no_threshold;	/* --all: ignore percent */
	bool disassemble_all;	/* disassemble every sampled object, even those too cold to show */
	size_t top;		/* at most this many blocks; SIZE_MAX = no limit */
	const char *function;	/* only rank objects this name selects (name-match.h); NULL = all */
	/* Per stream object, another name it answers --function to (its display
	 * name), or NULL; NULL: none (annotate.h, annotator__display_names). */
	const char *const *alt_names;
	/* Only the objects this accepts are selected (and --function must select
	 * them too); the others are never disassembled, even with disassemble_all
	 * or no_threshold. NULL: every object. */
	bool (*select)(void *arg, size_t obj);
	void *select_arg;
	/* Every function a report lists is built whole again (rank__decode):
	 * the sampled blocks' instructions are not kept (rank.insns and
	 * rank.targets stay empty, rank__insn is not to be called). */
	bool whole_only;
};

/* Whether an object was disassembled, and if not, why it has no blocks. */
enum rank_status {
	RANK_DISASSEMBLED,	/* cfg is valid */
	RANK_NO_CODE,		/* the stream has no code bytes for it: selected, it is
				 * one entry (RANK_WHOLE) */
	RANK_FAILED,		/* cfg_func__build refused (architecture...): see error */
	RANK_SKIPPED,		/* not disassembled: too cold for any of its blocks to be shown */
};

/*
 * An instruction of a sampled block, kept when its function's disassembly
 * is dropped: a row a report may show. Its offset is where the one before
 * it in its block ends; its target (with INSN_HAS_TARGET) is the block's
 * next in rank.targets; its text, cfg_text__insn's.
 */
struct rank_insn {
	uint16_t size;
	uint16_t flags;			/* INSN_* */
};

/* rank_sum.block of an object without code bytes (RANK_NO_CODE, a perf
 * map's function): the whole function is its one entry, ranked by all its
 * samples as a block is, with no instructions. */
#define RANK_WHOLE UINT32_MAX

/* A sampled block of a disassembled, selected object: what ranking keeps of it. */
struct rank_sum {
	uint32_t block;			/* its index among the object's blocks (cfg.blocks) */
	uint32_t start, end;		/* [start, end) */
	uint32_t rank;			/* 1-based place in rank.blocks */
	uint64_t samples;
	uint64_t row_max;		/* the most samples at one of its instructions */
	size_t first_insn;		/* its instructions: rank.insns[first_insn .. + insns) */
	size_t first_target;		/* their targets: rank.targets[first_target ..] */
	uint32_t insns;			/* how many (kept or not: rank_opts.whole_only) */
};

/*
 * One sampled object. Its disassembly is not kept: what a report needs of
 * it without the code is here (the counts, its sampled blocks and their
 * instructions); rank__decode builds the rest again.
 */
struct rank_func {
	size_t obj;			/* index in stream.objects */
	enum rank_status status;
	char *error;			/* owned: cfg_func__build's message, RANK_FAILED only */
	/* RANK_DISASSEMBLED: what the disassembly held (cfg.h) */
	uint32_t insns_nr, blocks_nr, code_end;
	/* Its sampled blocks (selected objects only), in address order:
	 * rank.sums[first_sum .. first_sum + sums_nr). */
	size_t first_sum, sums_nr;
	uint64_t row_max;		/* the most samples at one instruction start */
	uint64_t samples;		/* every sample of the event in this object */
	uint64_t unaligned;		/* inside [0, code_end) but not at an instruction start */
	uint64_t outside;		/* at or past code_end: trailing data or unknown bytes */
	enum name_match match;		/* how --function matches it */
	bool selected;			/* passes --function */
	bool shown;			/* has a block in rank.blocks[0..shown_nr) */
};

/* One block with samples. */
struct rank_block {
	uint32_t func;			/* index in rank.funcs */
	uint32_t block;			/* index among that function's blocks (cfg.blocks) */
	uint32_t start;			/* that block's start offset */
	uint32_t sum;			/* index in rank.sums */
	uint64_t samples;
};

struct rank {
	const struct stream *stream;	/* borrowed */
	long event;			/* index in stream.events, -1 if the stream has none */
	uint64_t total;			/* T: the event's `total all` */
	uint64_t jit;			/* W: samples in objects of kind jit or cwasm */
	uint64_t attributed;		/* samples in any object */
	struct rank_func *funcs;	/* every object with samples of the event, object order */
	size_t funcs_nr;
	size_t *by_heat;		/* [funcs_nr] indexes of funcs, hottest first (most
					 * samples; ties in object order): the one order of
					 * functions every output uses */
	struct rank_block *blocks;	/* blocks with samples of selected funcs, hottest first */
	size_t blocks_nr;
	struct rank_sum *sums;		/* the same blocks, by function (rank_func.first_sum) */
	size_t sums_nr;
	struct rank_insn *insns;	/* their instructions (rank_sum.first_insn) */
	size_t insns_nr;
	uint64_t *targets;		/* their instructions' targets (rank_sum.first_target) */
	size_t targets_nr;
	size_t shown_nr;		/* blocks[0..shown_nr) pass the threshold and --top */
	uint64_t skipped_objects;	/* RANK_SKIPPED */
	/* What could not go into a block: without code bytes, over every sampled
	 * object (the same whatever is disassembled); the rest over every
	 * disassembled object. */
	uint64_t nocode_objects, nocode_samples;
	uint64_t failed_objects, failed_samples;
	const char *failed_error;	/* first failure's message, borrowed from funcs */
	uint64_t unaligned_samples, outside_samples;
	/*
	 * What --percent counts against: the total, or, when the objects that could
	 * have blocks (selected: with code bytes, or whole) hold less than percent of it,
	 * their samples (percent_capped): otherwise the threshold could never be
	 * reached and every block would be listed.
	 */
	uint64_t percent_of;
	uint64_t blockable;		/* samples of the selected objects: those with code
					 * bytes in blocks, the others whole (RANK_WHOLE) */
	bool percent_capped;
	enum name_match function_match;	/* how --function selected (NONE: nothing) */
};

/*
 * Disassemble the objects of s (finished) with samples of event ev (-1: none),
 * sum their samples into instructions and blocks, rank the blocks and apply
 * the selection in o. Objects are disassembled hottest first, and only until
 * no object left could have a block among those shown (a block never has more
 * samples than its object): the rest are RANK_SKIPPED, unless
 * o->disassemble_all or o->no_threshold. Each disassembly is dropped once
 * its sums are taken (memory follows the sampled blocks, not the code),
 * and objects are disassembled on several threads, the result the same as
 * on one. Returns 0 or -ENOMEM; r must be released either way. r borrows s.
 */
int rank__build(struct rank *r, const struct stream *s, long ev, const struct rank_opts *o);
void rank__release(struct rank *r);

/* A disassembled object built again, with its text, and its samples. */
struct rank_decoded {
	struct cfg_func cfg;
	uint64_t *insn_samples;		/* [cfg.insns_nr]: samples at each instruction start */
	uint64_t *block_samples;	/* [cfg.blocks_nr] */
	uint32_t *block_rank;		/* [cfg.blocks_nr]: 1-based place in rank.blocks, 0 = none */
};

/*
 * Disassemble funcs[fi] (RANK_DISASSEMBLED) again, from exactly what
 * rank__build built it from, with text: the same instructions and blocks
 * (a disassembly is a function of its input). Returns 0, -ENOMEM, or -EIO
 * if it came out otherwise (a bug); d must be released either way.
 */
int rank__decode(const struct rank *r, size_t fi, struct rank_decoded *d);

/* As rank__decode, without the instructions' text (CFG_NO_TEXT: a whole
 * function's text is about as big as its instructions; cfg_text__insn
 * writes the cell of those it shows). */
int rank__decode_no_text(const struct rank *r, size_t fi, struct rank_decoded *d);
void rank_decoded__release(struct rank_decoded *d);

/* What funcs[fi] is disassembled from: its code, address and flags (no
 * seeds), for cfg_text__open (the object's code must outlive it). */
void rank__input(const struct rank *r, size_t fi, struct cfg_input *in);

/* The samples of the event in funcs[fi], by offset (one entry each, in
 * offset order): *nr of them, borrowed from the stream. */
const struct stream_sample *rank__samples(const struct rank *r, size_t fi, size_t *nr);

/* The samples of the event at offset off of funcs[fi]: a row's count. */
uint64_t rank__samples_at(const struct rank *r, size_t fi, uint32_t off);

/* Instruction k of sum's block, as cfg.h has it (no text); *off and *target
 * carry on from instruction k - 1's: start them at sum's start and first
 * target, and ask in order. Not of a ranking built whole_only. */
void rank__insn(const struct rank *r, const struct rank_sum *sum, uint32_t k, uint32_t *off,
		size_t *target, struct cfg_insn *insn);

/*
 * The reference's threshold (`wasmtime hot-blocks --percent`, JSON.md "Ranking
 * and selection"): printed = 0; before each block stop
 * once printed/total*100 >= percent, else take it and add its count. The block
 * that crosses the threshold is therefore taken, and percent 0 takes none.
 * counts are in rank order; at most top are taken. Returns how many are taken.
 */
size_t rank__threshold(const uint64_t *counts, size_t nr, uint64_t total, double percent,
		       size_t top);

/* Sort blocks hottest first; ties by function index, then block start (stable output). */
void rank__sort(struct rank_block *blocks, size_t nr);

#endif

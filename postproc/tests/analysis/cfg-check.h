/* SPDX-License-Identifier: MIT */
/*
 * Test support of the block builder's tests (test-cfg*.c):
 * the ELF machines, a build that must succeed, and the checks every build
 * must pass.
 */
#ifndef POSTPROC_TESTS_ANALYSIS_CFG_CHECK_H
#define POSTPROC_TESTS_ANALYSIS_CFG_CHECK_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/cfg-text.h"
#include "analysis/cfg.h"

/*
 * Each byte array of these tests is the .text of test-data/cfg/<name>.S, assembled with
 * `as --64` (x86-64) or `llvm-mc -triple=aarch64 -filetype=obj` (aarch64;
 * -triple=s390x -mcpu=z15, -triple=riscv64 -mattr=+c likewise) and
 * extracted with `llvm-objcopy -O binary -j .text` (see test-data/cfg/README.md).
 * The offsets in the comments, and every expected offset, size and target, were
 * checked against `objdump -d -M intel` / `llvm-objdump -d` of the same object.
 */

#define EM_X86_64 62
#define EM_AARCH64 183
#define EM_S390 22
#define EM_RISCV 243

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Invariants every successful build must keep, whatever the input. */
static inline void check_shape(const struct cfg_func *f)
{
	uint32_t off = 0;

	for (size_t i = 0; i < f->insns_nr; i++) {
		assert_int_equal(f->insns[i].off, off);
		assert_true(f->insns[i].size > 0);
		assert_non_null(f->insns[i].text);
		assert_int_equal(cfg_func__insn_at(f, off), i);
		off += f->insns[i].size;
	}
	assert_int_equal(off, f->size);
	assert_true(f->code_end <= f->size);

	off = 0;
	for (size_t b = 0; b < f->blocks_nr; b++) {
		const struct cfg_block *blk = &f->blocks[b];
		const struct cfg_insn *last = &f->insns[blk->first + blk->nr - 1];

		assert_int_equal(blk->start, off);
		assert_true(blk->nr > 0);
		assert_int_equal(f->insns[blk->first].off, blk->start);
		assert_int_equal(last->off + last->size, blk->end);
		assert_int_equal(cfg_func__block_at(f, blk->start), b);
		assert_int_equal(cfg_func__block_at(f, blk->end - 1), b);
		off = blk->end;
	}
	assert_int_equal(off, f->code_end);
	for (size_t i = 0; i < f->insns_nr; i++)
		if (f->insns[i].off >= f->code_end)
			assert_int_equal(cfg_func__block_at(f, f->insns[i].off), -1);
}

/*
 * What ranking relies on, for every input of these tests: built again from
 * in without text (CFG_NO_TEXT), the same instructions, blocks and tables,
 * and every instruction's text written alone (cfg_text__insn) is f's.
 */
static inline void check_texts(const struct cfg_func *f, const struct cfg_input *in)
{
	struct cfg_input bare = *in;
	struct cfg_text *t;
	struct cfg_func g;
	char buf[CFG_TEXT_MAX];

	bare.flags |= CFG_NO_TEXT;
	assert_int_equal(cfg_func__build_from(&g, &bare, NULL, 0), 0);
	assert_int_equal(g.insns_nr, f->insns_nr);
	assert_int_equal(g.blocks_nr, f->blocks_nr);
	assert_int_equal(g.tables_nr, f->tables_nr);
	assert_int_equal(g.code_end, f->code_end);
	assert_int_equal(g.bad_targets, f->bad_targets);
	for (size_t i = 0; i < f->insns_nr; i++) {
		assert_int_equal(g.insns[i].off, f->insns[i].off);
		assert_int_equal(g.insns[i].size, f->insns[i].size);
		assert_int_equal(g.insns[i].flags, f->insns[i].flags);
		assert_int_equal(g.insns[i].target, f->insns[i].target);
		assert_null(g.insns[i].text);
	}
	for (size_t b = 0; b < f->blocks_nr; b++) {
		assert_int_equal(g.blocks[b].start, f->blocks[b].start);
		assert_int_equal(g.blocks[b].end, f->blocks[b].end);
		assert_int_equal(g.blocks[b].first, f->blocks[b].first);
		assert_int_equal(g.blocks[b].nr, f->blocks[b].nr);
		assert_int_equal(g.blocks[b].falls_through, f->blocks[b].falls_through);
	}
	for (size_t k = 0; k < f->tables_nr; k++) {
		assert_int_equal(g.tables[k].jump, f->tables[k].jump);
		assert_int_equal(g.tables[k].first, f->tables[k].first);
		assert_int_equal(g.tables[k].nr, f->tables[k].nr);
		assert_int_equal(g.tables[k].entry_size, f->tables[k].entry_size);
	}
	cfg_func__release(&g);

	assert_int_equal(cfg_text__open(&t, in, NULL, 0), 0);
	for (size_t i = 0; i < f->insns_nr; i++)
		assert_string_equal(cfg_text__insn(t, &f->insns[i], buf), f->insns[i].text);
	cfg_text__close(t);
}

static inline void build(struct cfg_func *f, int e_machine, const uint8_t *code, size_t size)
{
	/* JIT code: the cases here test the trailing-data detection too */
	struct cfg_input in = {
		.e_machine = e_machine, .code = code, .size = size, .flags = CFG_TRAILING_DATA,
	};
	char err[128] = "";

	assert_int_equal(cfg_func__build_from(f, &in, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	check_shape(f);
	check_texts(f, &in);
}

static inline void assert_block(const struct cfg_func *f, size_t b, uint32_t start, uint32_t end)
{
	assert_true(b < f->blocks_nr);
	assert_int_equal(f->blocks[b].start, start);
	assert_int_equal(f->blocks[b].end, end);
}

static inline const struct cfg_insn *insn(const struct cfg_func *f, uint32_t off)
{
	long i = cfg_func__insn_at(f, off);

	assert_true(i >= 0);
	return &f->insns[i];
}

#endif

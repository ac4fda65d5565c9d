/* SPDX-License-Identifier: MIT */
/*
 * Test support of the block builder's tests (test-cfg.c, test-cfg-arch.c):
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

static inline void build(struct cfg_func *f, int e_machine, const uint8_t *code, size_t size)
{
	char err[128] = "";

	/* JIT code: the cases here test the trailing-data detection too */
	assert_int_equal(cfg_func__build(f, e_machine, code, size, CFG_TRAILING_DATA, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	check_shape(f);
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

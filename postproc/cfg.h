/* SPDX-License-Identifier: MIT */
/* Disassembly of one code object (capstone) and its control-flow blocks. */
#ifndef POSTPROC_CFG_H
#define POSTPROC_CFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Instruction flags. */
enum {
	INSN_JUMP = 1 << 0,	/* unconditional jump (direct or indirect) */
	INSN_COND = 1 << 1,	/* conditional branch */
	INSN_INDIRECT = 1 << 2,	/* target not known statically (jmp rax, br x0) */
	INSN_RET = 1 << 3,	/* return */
	INSN_TRAP = 1 << 4,	/* ud2, int3, brk, hlt, udf...: execution does not continue */
	INSN_CALL = 1 << 5,	/* call (does not end a block) */
	INSN_DATA = 1 << 6,	/* bytes capstone could not decode (skipdata) */
	INSN_HAS_TARGET = 1 << 7, /* target below is valid (direct branch/call) */
};

struct cfg_insn {
	uint32_t off;		/* offset from the function start */
	uint16_t size;		/* bytes */
	uint16_t flags;		/* INSN_* */
	uint64_t target;	/* direct branch/call target, function-relative (may lie outside) */
	char *text;		/* owned: assembly cell, "{mnemonic:7} {operands}" (or just the
				 * mnemonic), branch targets inside the function printed as
				 * function-relative offsets ("jae     0x2a") */
};

struct cfg_block {
	uint32_t start;		/* offset of the first instruction */
	uint32_t end;		/* offset just past the last instruction */
	size_t first, nr;	/* instructions cfg_func.insns[first .. first+nr) */
};

struct cfg_func {
	struct cfg_insn *insns;	/* in address order, covering [0, code_end) */
	size_t insns_nr;
	struct cfg_block *blocks; /* in address order */
	size_t blocks_nr;
	uint32_t code_end;	/* end of the last reachable instruction; bytes after it
				 * (trailing data, V8 metadata) belong to no block */
	uint32_t size;		/* size of the code given */
};

/*
 * Disassemble code[0..size) as one function for ELF machine e_machine
 * (62 x86-64 in Intel syntax, 183 aarch64) with capstone skipdata on, and build
 * its blocks. Leaders: offset 0, every direct branch target inside the function,
 * the instruction after any jump, conditional branch, indirect jump, return or
 * trap. Calls do not end blocks. Instructions not reachable from offset 0 or from
 * a branch target by fall-through (code after the last jump/ret/trap with no
 * jump into it) are trailing data: they are kept out of blocks and code_end stops
 * before them.
 * Returns 0, -ENOTSUP for another e_machine (message in err names it), or
 * -ENOMEM. On success the caller owns *out and frees it with cfg_func__release.
 */
int cfg_func__build(struct cfg_func *out, int e_machine, const uint8_t *code, size_t size,
		    char *err, size_t errlen);

/* Index of the instruction starting exactly at off, or -1 (not an instruction start). */
long cfg_func__insn_at(const struct cfg_func *f, uint32_t off);

/* Index of the block containing off (start <= off < end), or -1. */
long cfg_func__block_at(const struct cfg_func *f, uint32_t off);

void cfg_func__release(struct cfg_func *f);

#endif

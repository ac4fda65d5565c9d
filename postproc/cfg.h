/* SPDX-License-Identifier: MIT */
/* Disassembly of one code object (capstone) and its control-flow blocks. */
#ifndef POSTPROC_CFG_H
#define POSTPROC_CFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* cfg_func__build flags. */
enum {
	/* Bytes after the last instruction reachable from the entry are trailing
	 * data (V8 appends metadata to its code). Off: the code is exactly the
	 * function (an ELF symbol's size), and code reached only through a jump
	 * table elsewhere (GCC's switch tables in .rodata) is still code. */
	CFG_TRAILING_DATA = 1 << 0,
};

/* Instruction flags. */
enum {
	INSN_JUMP = 1 << 0,	/* unconditional jump (direct or indirect) */
	INSN_COND = 1 << 1,	/* conditional branch */
	INSN_INDIRECT = 1 << 2,	/* target not known statically (jmp rax, br x0, call rax) */
	INSN_RET = 1 << 3,	/* return */
	INSN_TRAP = 1 << 4,	/* ud2, int3, brk, hlt, udf...: execution does not continue */
	INSN_CALL = 1 << 5,	/* call (does not end a block) */
	INSN_DATA = 1 << 6,	/* bytes capstone could not decode (skipdata), or a jump
				 * table entry (with INSN_TABLE) */
	INSN_HAS_TARGET = 1 << 7, /* target below is valid (direct branch/call, table entry) */
	INSN_TABLE = 1 << 8,	/* entry of a jump table recognised right after an indirect
				 * jump (Cranelift br_table): INSN_DATA | INSN_HAS_TARGET,
				 * 4 bytes, target = the case it sends control to */
};

struct cfg_insn {
	uint32_t off;		/* offset from the function start */
	uint16_t size;		/* bytes */
	uint16_t flags;		/* INSN_* */
	uint64_t target;	/* direct branch/call target, function-relative (may lie
				 * outside [0, size); a backward target outside is a wrapped
				 * 64-bit value, 0xfff...) */
	char *text;		/* owned by the cfg_func: assembly cell, "{mnemonic:7}
				 * {operands}" (or just the mnemonic), capstone's Intel/ARM
				 * syntax; direct branch targets printed as function-relative
				 * "0x<hex>" ("jae     0x2a", "b.ne    #0x0" on aarch64);
				 * undecodable bytes as ".byte   0x0f"; table entries as
				 * ".long   <target> - <table start>" */
};

struct cfg_block {
	uint32_t start;		/* offset of the first instruction */
	uint32_t end;		/* offset just past the last instruction */
	size_t first, nr;	/* instructions cfg_func.insns[first .. first+nr) */
};

struct cfg_func {
	struct cfg_insn *insns;	/* in address order, contiguous, covering [0, size) */
	size_t insns_nr;
	struct cfg_block *blocks; /* in address order, contiguous, covering [0, code_end) */
	size_t blocks_nr;
	uint32_t code_end;	/* end of the last reachable instruction; instructions at or
				 * after it (trailing data, V8 metadata) belong to no block */
	uint32_t size;		/* size of the code given */
	size_t bad_targets;	/* direct targets inside [0, code_end) that are not an
				 * instruction start (mis-decoded code or data): ignored */
	char *strtab;		/* private: storage behind every insns[].text */
};

/*
 * Disassemble code[0..size) as one function for ELF machine e_machine
 * (62 x86-64 in Intel syntax, 183 aarch64) with capstone skipdata on, at address 0
 * so that every direct target is function-relative, and build its blocks.
 *
 * Reachability: from offset 0 along fall-through and direct targets (an indirect
 * jump has no known successor, except the cases of a jump table recognised right
 * after it). Undecodable bytes fall through: reached by fall-through they are far
 * more likely an instruction capstone 4 does not know (LSE atomics, pointer auth)
 * than data. code_end is the end of the highest reachable instruction; what follows
 * (V8 metadata, literal pools, padding) is kept in insns[] but in no block.
 *
 * Leaders, among the instructions below code_end: offset 0, every direct branch,
 * call or jump table target inside [0, code_end) that is an instruction start, the
 * instruction after any jump, conditional branch, indirect jump, return or trap,
 * and the instruction after a jump table. Calls do not end blocks. A target that
 * lands inside an instruction is counted in bad_targets and otherwise ignored.
 *
 * Returns 0, -ENOTSUP for another e_machine (message in err names it), -ERANGE if
 * size does not fit 32 bits, or -ENOMEM. err may be NULL. On success the caller
 * owns *out and frees it with cfg_func__release; on failure *out is zeroed (and
 * releasing it is harmless). code may be NULL if size is 0.
 */
int cfg_func__build(struct cfg_func *out, int e_machine, const uint8_t *code, size_t size,
		    unsigned int flags, char *err, size_t errlen);

/* Index of the instruction starting exactly at off, or -1 (not an instruction start). */
long cfg_func__insn_at(const struct cfg_func *f, uint32_t off);

/* Index of the block containing off (start <= off < end), or -1. */
long cfg_func__block_at(const struct cfg_func *f, uint32_t off);

/* The capstone release in use (cs_version()): major, and minor in *minor if not NULL.
 * Before 5 it cannot decode AVX-512 (EVEX) instructions. */
int cfg__capstone_version(int *minor);

/* Free everything *f owns and zero it. */
void cfg_func__release(struct cfg_func *f);

#endif

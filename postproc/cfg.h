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
	 * data (V8 appends metadata to its code, Cranelift a constant pool,
	 * whether in a jit dump or in a .cwasm's symbol). Off: the code is exactly the
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
	INSN_DATA = 1 << 6,	/* bytes capstone could not decode (skipdata), bytes of a
				 * guessed instruction cut short where a sampled or reached
				 * one starts, or a jump table entry (with INSN_TABLE) */
	INSN_HAS_TARGET = 1 << 7, /* target below is valid (direct branch/call, table entry) */
	INSN_TABLE = 1 << 8,	/* entry of a jump table recognised at an indirect jump
				 * (Cranelift br_table, V8 table switch): INSN_DATA |
				 * INSN_HAS_TARGET, 4 or 8 bytes, target = the case it
				 * sends control to (not on riscv64, whose tables are
				 * jumps: see struct cfg_table) */
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
				 * ".long   <target> - <table start>" (relative) or
				 * ".quad   <addr> + <target>" (absolute) */
};

struct cfg_block {
	uint32_t start;		/* offset of the first instruction */
	uint32_t end;		/* offset just past the last instruction */
	size_t first, nr;	/* instructions cfg_func.insns[first .. first+nr) */
	bool falls_through;	/* execution may go on at end: the last instruction is
				 * no jump, return, trap, jump table entry or data cut
				 * short (a conditional branch falls through) */
};

/* A recognised jump table and the indirect jump that reads it. */
struct cfg_table {
	size_t jump;		/* insns[jump]: the indirect jump, below code_end */
	size_t first, nr;	/* insns[first .. first+nr): its rows */
	uint32_t entry_size;	/* 0: the rows are its entries (INSN_TABLE), data whose
				 * targets are the cases. Else (riscv64) the table is code,
				 * a jump of entry_size bytes (auipc + jalr) per entry,
				 * which the indirect jump enters at the entry of the index:
				 * the entries are its cases, each jumping on to its own */
};

struct cfg_func {
	struct cfg_insn *insns;	/* in address order, contiguous, covering [0, size) */
	size_t insns_nr;
	struct cfg_block *blocks; /* in address order, contiguous, covering [0, code_end) */
	size_t blocks_nr;
	uint32_t code_end;	/* end of the code (see cfg_func__build_from); instructions
				 * at or after it (trailing data, V8 metadata) belong to no
				 * block */
	uint32_t size;		/* size of the code given */
	size_t bad_targets;	/* direct targets inside [0, code_end) that are not an
				 * instruction start (mis-decoded code or data): ignored */
	struct cfg_table *tables; /* the jump tables of the jumps below code_end, in the
				 * order of their jumps */
	size_t tables_nr;
	char *strtab;		/* private: storage behind every insns[].text */
};

/* One code object to disassemble. */
struct cfg_input {
	int e_machine;		/* 62 x86-64 (Intel syntax), 183 aarch64; with capstone 5
				 * also 22 s390x, 243 riscv64 (RV64GC) */
	const uint8_t *code;	/* code[0..size); may be NULL if size is 0 */
	size_t size;
	uint64_t addr;		/* run-time address of code[0], or 0 if unknown: jump tables
				 * of absolute addresses (V8 on x64) need it */
	const uint32_t *seeds;	/* offsets known to be executed instruction starts (the
				 * sampled ones), any order, duplicates allowed */
	const uint64_t *seed_weights; /* parallel to seeds (samples), or NULL: all equal */
	size_t seeds_nr;
	unsigned int flags;	/* CFG_* */
};

/*
 * Disassemble in->code as one function at address 0, so that every direct target
 * is function-relative, and build its blocks. A sampled address is executed code
 * and the start of an instruction (perf only records addresses the CPU retired an
 * instruction at), so:
 *
 * Decoding: first one instruction at every seed; then paths from the entry and
 * from every seed, decoded straight on along fall-through, every direct branch
 * target and every case of a recognised jump table; then a linear sweep over the
 * bytes no path decoded. A later decoding never runs across an earlier, surer one
 * (seed > path > sweep): a guessed instruction that would is cut short into data
 * rows, so the sweep re-synchronises at every sampled and reached offset. Seeds
 * are decoded the heaviest first: one inside a heavier one's instruction (the
 * bytes are not those that ran) starts no row; one whose decoding would run into
 * a heavier one's is a data row up to it. Every other seed below size starts a
 * row of insns[].
 *
 * Jump tables: lea/adr/larl of a table, then an indirect jump through it, within a
 * few instructions: 32-bit entries relative to the table (Cranelift x64/aarch64/
 * s390x, the table inline after the jump, big-endian on s390x; V8 aarch64) or 64-bit
 * run-time addresses (V8 x64, jmp [r + index*8], needs in->addr). Entries are data
 * rows (INSN_TABLE). riscv64's tables are code (auipc + jalr per entry, after an
 * auipc-relative jalr): their entries are instructions, each ending in a direct
 * jump, as is any jalr through the register the auipc right before it set.
 *
 * code_end (CFG_TRAILING_DATA): the end of the last instruction a path from the
 * entry or a seed reaches, extended by the direct targets of the code before it;
 * the rest (V8 metadata, literal pools, padding) is in insns[] but in no block.
 * Without the flag every byte is code (an ELF symbol's size is exact).
 *
 * Leaders, among the instructions below code_end: offset 0, every direct branch,
 * call or jump table target inside [0, code_end) that is an instruction start, the
 * instruction after any jump, conditional branch, indirect jump, return, trap or
 * data cut short, and the first row of a jump table and the instruction after it.
 * So a sampled instruction that nothing falls into (an OSR entry after V8's
 * int3, a landing pad, a deoptimisation exit after a jump) starts a block. Calls
 * do not end blocks. Undecodable bytes on a path fall through: they are far more
 * likely an instruction this capstone does not know than data. A target that
 * lands inside an instruction is counted in bad_targets and otherwise ignored.
 *
 * Returns 0, -ENOTSUP for another e_machine (message in err names it), -ERANGE if
 * size does not fit 32 bits, or -ENOMEM. err may be NULL. On success the caller
 * owns *out and frees it with cfg_func__release; on failure *out is zeroed (and
 * releasing it is harmless).
 */
int cfg_func__build_from(struct cfg_func *out, const struct cfg_input *in, char *err,
			 size_t errlen);

/*
 * cfg_func__build_from without seeds, at an unknown run-time address: code[0..size)
 * as code of ELF machine e_machine with the CFG_* flags.
 */
int cfg_func__build(struct cfg_func *out, int e_machine, const uint8_t *code, size_t size,
		    unsigned int flags, char *err, size_t errlen);

/* Index of the instruction starting exactly at off, or -1 (not an instruction start). */
long cfg_func__insn_at(const struct cfg_func *f, uint32_t off);

/* Index of the block containing off (start <= off < end), or -1. */
long cfg_func__block_at(const struct cfg_func *f, uint32_t off);

/* The number of cases of t, and case k's offset: where its jump sends control. */
size_t cfg_table__cases(const struct cfg_func *f, const struct cfg_table *t);
uint64_t cfg_table__case(const struct cfg_func *f, const struct cfg_table *t, size_t k);

/* The capstone release in use (cs_version()): major, and minor in *minor if not NULL.
 * Before 5 it cannot decode AVX-512 (EVEX) instructions. */
int cfg__capstone_version(int *minor);

/* Free everything *f owns and zero it. */
void cfg_func__release(struct cfg_func *f);

#endif

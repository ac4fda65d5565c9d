/* SPDX-License-Identifier: MIT */
/*
 * One code object disassembled (cfg.h builds it): its instructions, blocks
 * and jump tables, and what it is built from. Data only, for cfg.c's parts
 * (cfg-decode.c) too.
 */
#ifndef POSTPROC_ANALYSIS_CFG_DEFS_H
#define POSTPROC_ANALYSIS_CFG_DEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "insn.h"
#include "lib/code-data.h"

/* cfg_func__build flags. */
enum {
	/* Bytes after the last instruction reachable from the entry are trailing
	 * data (V8 appends metadata to its code, Cranelift a constant pool,
	 * whether in a jit dump or in a .cwasm's symbol). Off: the code is exactly the
	 * function (an ELF symbol's size), and code reached only through a jump
	 * table elsewhere (GCC's switch tables in .rodata) is still code. */
	CFG_TRAILING_DATA = 1 << 0,
	/* No assembly cells (every insns[].text NULL): what ranking builds,
	 * which needs the blocks alone; cfg_text__insn writes the cell of any
	 * one instruction later, the same as a decoding with text would. */
	CFG_NO_TEXT = 1 << 1,
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
	const struct code_data *data; /* bytes the runtime put there as data, by offset
				 * (INSN_WORD rows, decoded before anything else), or NULL */
	size_t data_nr;
};

#endif

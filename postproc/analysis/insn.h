/* SPDX-License-Identifier: MIT */
/*
 * What an instruction does to control flow, as a set of flags: what the
 * block builder (cfg.c) learns from each architecture (cfg-arch.c) and what
 * a report's rows carry (report.h). Data only.
 */
#ifndef POSTPROC_ANALYSIS_INSN_H
#define POSTPROC_ANALYSIS_INSN_H

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
	INSN_CUT = 1 << 9,	/* with INSN_DATA: bytes of a guessed instruction cut
				 * short where a surer one starts (not undecodable
				 * bytes, nor a table entry): nothing falls through it */
	INSN_WORD = 1 << 10,	/* with INSN_DATA: a datum the runtime puts among its
				 * code (cfg_input.data: BEAM's func_info words), a
				 * .byte/.short/.long/.quad row of its value: nothing
				 * runs into, through or out of it */
};

#endif

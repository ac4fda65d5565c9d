/* SPDX-License-Identifier: MIT */
/*
 * What the block builder (cfg.c) asks of each architecture: how capstone is
 * opened for it, and what an instruction it decoded does to control flow.
 * Internal to cfg.c and cfg-arch.c.
 */
#ifndef POSTPROC_CFG_ARCH_H
#define POSTPROC_CFG_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <capstone/capstone.h>

/* struct arch flags */
enum {
	/* Jump table entries are big-endian (s390x). */
	ARCH_BIG_ENDIAN = 1 << 0,
	/* A PC-relative address put in a register right before an indirect jump
	 * through it is a direct jump (riscv64's auipc + jalr), and a jump table
	 * is code: one such pair per entry (ARCH_JUMP_ENTRY bytes), which the
	 * table's jump enters at the entry of the index. */
	ARCH_JUMP_PAIRS = 1 << 1,
};

/* Bytes of one entry of a table of jumps (ARCH_JUMP_PAIRS): auipc + jalr. */
#define ARCH_JUMP_ENTRY 8

struct arch {
	int e_machine;
	const char *name;
	cs_arch cs_arch;
	cs_mode cs_mode;
	unsigned skip;			/* bytes capstone skips per undecodable unit, and
					 * the alignment of every instruction */
	const char *target_prefix;	/* how capstone writes an immediate target */
	unsigned flags;			/* ARCH_* */
	/* INSN_* of a decoded (id != 0) instruction, with its direct target */
	uint16_t (*classify)(const cs_insn *in, uint64_t *target);
	/* register written with a PC-relative address (lea r, [rip+d] / adr /
	 * larl / auipc), or 0 */
	unsigned (*addr_of)(const cs_insn *in, uint64_t *addr);
	/* register an indirect jump goes through, or 0 (memory operand); *disp
	 * is what the jump adds to it (riscv64's jalr offset, else 0) */
	unsigned (*jump_reg)(const cs_insn *in, int32_t *disp);
	/* base register of an indirect jump through [base + index*8] (a table of
	 * addresses), or 0; NULL where the architecture has no such jump */
	unsigned (*jump_mem)(const cs_insn *in);
	/* decode what capstone 4 does not know; false leaves it data */
	bool (*raw)(const uint8_t *p, size_t n, uint16_t *flags, char *text, size_t len);
	/* length of the instruction at p that capstone cannot decode, from its
	 * encoding (n bytes are there); NULL: skip bytes */
	size_t (*insn_len)(const uint8_t *p, size_t n);
};

/* The architecture of ELF machine e_machine, or NULL (x86-64, aarch64, s390x,
 * and riscv64 with capstone 5). */
const struct arch *cfg_arch__find(int e_machine);

/* The e_machine numbers cfg_arch__find knows, in a sentence ("x86-64 (62), ..."). */
const char *cfg_arch__supported(void);

#endif

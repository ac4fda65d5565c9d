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

struct arch {
	int e_machine;
	const char *name;
	cs_arch cs_arch;
	cs_mode cs_mode;
	unsigned skip;			/* bytes capstone skips per undecodable unit */
	const char *target_prefix;	/* how capstone writes an immediate target */
	/* INSN_* of a decoded (id != 0) instruction, with its direct target */
	uint16_t (*classify)(const cs_insn *in, uint64_t *target);
	/* register written with a PC-relative address (lea r, [rip+d] / adr), or 0 */
	unsigned (*addr_of)(const cs_insn *in, uint64_t *addr);
	/* register an indirect jump goes through, or 0 (memory operand) */
	unsigned (*jump_reg)(const cs_insn *in);
	/* base register of an indirect jump through [base + index*8] (a table of
	 * addresses), or 0; NULL where the architecture has no such jump */
	unsigned (*jump_mem)(const cs_insn *in);
	/* decode what capstone 4 does not know; false leaves it data */
	bool (*raw)(const uint8_t *p, size_t n, uint16_t *flags, char *text, size_t len);
};

/* The architecture of ELF machine e_machine, or NULL (only x86-64 and aarch64). */
const struct arch *cfg_arch__find(int e_machine);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The first half of cfg_func__build_from (cfg.h): every instruction of the
 * code decoded, from the samples, the paths they and the entry reach and a
 * sweep of the gaps, jump tables recognised. Internal to cfg.c and
 * cfg-decode.c; the second half (code end, blocks) is cfg.c's.
 */
#ifndef POSTPROC_ANALYSIS_CFG_DECODE_H
#define POSTPROC_ANALYSIS_CFG_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfg-arch.h"
#include "cfg-defs.h"

/*
 * How an instruction came to be decoded. Sampled offsets are proof (perf only
 * samples instructions the CPU executed), then what a path from the entry or a
 * sample reaches, then the linear sweep that fills the gaps between them.
 */
enum { BY_SWEEP, BY_PATH, BY_SAMPLE };

/* What the final passes need to know of each instruction, parallel to f->insns. */
struct fin {
	uint8_t by;
	bool cut;
	uint32_t table, table_end;
	uint32_t entry_size;	/* of a table of jumps (ARCH_JUMP_PAIRS), else 0 */
};

/* Whether an instruction of these flags (INSN_*) ends its block. */
static inline bool cfg_insn__ends_block(uint16_t flags)
{
	return flags & (INSN_JUMP | INSN_COND | INSN_RET | INSN_TRAP);
}

/* Whether in's target is where control goes (a branch, call or table entry). */
static inline bool cfg_insn__has_branch_target(const struct cfg_insn *in)
{
	return (in->flags & INSN_HAS_TARGET) &&
	       (in->flags & (INSN_JUMP | INSN_COND | INSN_CALL | INSN_TABLE));
}

/*
 * Decode in's code for arch into out->insns (address order, contiguous,
 * covering [0, size); their texts in out's string table), and into *fin
 * (malloc()ed, [out->insns_nr]) what the second half needs of each. Returns
 * 0, or a negative errno with the message in err (capstone cannot open the
 * architecture; -ENOMEM with none).
 */
int cfg_decode__insns(struct cfg_func *out, const struct cfg_input *in, const struct arch *arch,
		      struct fin **fin, char *err, size_t errlen);

#endif

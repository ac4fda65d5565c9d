/* SPDX-License-Identifier: MIT */
/* Disassembly of one code object (capstone) and its control-flow blocks. */
#ifndef POSTPROC_CFG_H
#define POSTPROC_CFG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfg-defs.h"

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
 * a heavier one's is a data row up to it. A seed off the architecture's
 * instruction alignment (arch.skip: 4 on aarch64, 2 on s390x and riscv64) starts
 * no row: no instruction starts there. Every other seed below size starts a
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

/* Before disassembling on several threads: capstone 4 fills its tables at
 * its first use, which threads must not race to do. */
void cfg__prepare(void);

/* Free everything *f owns and zero it. */
void cfg_func__release(struct cfg_func *f);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The assembly cell of an instruction (cfg_insn.text), written one way for
 * both paths that write it: a whole decoding (cfg-decode.c) and, for a
 * disassembly made without text (CFG_NO_TEXT), one instruction at a time
 * (cfg_text__insn): what ranking drops, a report writes again for the rows
 * it shows, and they cannot differ.
 */
#ifndef POSTPROC_ANALYSIS_CFG_TEXT_H
#define POSTPROC_ANALYSIS_CFG_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfg-arch.h"
#include "cfg-defs.h"

/* The room of one cell, NUL included: capstone's mnemonic[32] + op_str[160]
 * and padding. */
#define CFG_TEXT_MAX 200

/*
 * A capstone handle for arch, opened as every decoding here opens it
 * (details, skipdata with the architecture's lengths). Returns 0, or a
 * negative errno with the message in err.
 */
int cfg_text__capstone(const struct arch *arch, csh *cs, char *err, size_t errlen);

/* "{mnemonic:7} {operands}" as the reference prints it; with INSN_HAS_TARGET
 * in flags the target, "0x<hex>" (arch's prefix first), function-relative
 * when inside the function's size bytes, else the address it goes to (the
 * code's run-time address addr plus the offset). */
void cfg_text__cs(char buf[CFG_TEXT_MAX], const struct arch *arch, const cs_insn *in,
		  uint16_t flags, uint64_t target, uint64_t size, uint64_t addr);

/* n bytes capstone gave up on: the architecture's own decoding of them (not
 * of bytes cut short), which sets *flags, else ".byte   0x.., 0x..". */
void cfg_text__data(char buf[CFG_TEXT_MAX], const struct arch *arch, const uint8_t *p, size_t n,
		    bool cut, uint16_t *flags);

/* A datum the runtime put among its code (INSN_WORD), n bytes: ".quad   0x2f54b". */
void cfg_text__word(char buf[CFG_TEXT_MAX], const struct arch *arch, const uint8_t *p, size_t n);

/* A jump table's entry of width (4 or 8) bytes sending control to target:
 * relative to the table's start, or a run-time address of the code at addr. */
void cfg_text__table(char buf[CFG_TEXT_MAX], unsigned width, uint64_t target, uint32_t start,
		     uint64_t addr);

/* One code object's instructions written one at a time. */
struct cfg_text;

/*
 * For the code of in (borrowed: it must outlive *out), the one a disassembly
 * was built from. Returns 0, -ENOTSUP (another machine), -ENOMEM, with the
 * message in err (may be NULL).
 */
int cfg_text__open(struct cfg_text **out, const struct cfg_input *in, char *err, size_t errlen);

/* The cell of insn, an instruction of that disassembly (with or without
 * text), into buf, exactly as a decoding with text writes it. Returns buf. */
const char *cfg_text__insn(struct cfg_text *t, const struct cfg_insn *insn, char buf[CFG_TEXT_MAX]);

void cfg_text__close(struct cfg_text *t);

#endif

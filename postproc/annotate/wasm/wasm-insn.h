/* SPDX-License-Identifier: MIT */
/* The instruction decoder's opcode table (wasm-insn.c, wasm-opcodes.def), for tests and tools. */
#ifndef POSTPROC_ANNOTATE_WASM_INSN_H
#define POSTPROC_ANNOTATE_WASM_INSN_H

#include <stddef.h>
#include <stdint.h>

/*
 * The opcode table (wasm-opcodes.def), exposed for tests and tools: the number
 * of rows, and row i's fields. Rows are sorted by (prefix, code).
 */
struct wasm_opcode {
	uint16_t prefix;
	uint32_t code;
	const char *name;	/* enum name, e.g. "I32_ADD" */
	const char *text;	/* "i32.add" */
	uint8_t imm;		/* immediate kind, internal (enum wasm_imm, wasm-read.h) */
	uint8_t flags;
};
size_t wasm_opcodes(const struct wasm_opcode **ops);

/* The row for (prefix, code), or NULL. */
const struct wasm_opcode *wasm_opcode__find(uint16_t prefix, uint32_t code);

#endif

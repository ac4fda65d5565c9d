/* SPDX-License-Identifier: MIT */
/* What the Wasm decoder gives of each instruction (wasm.h): data only, for its parts too. */
#ifndef POSTPROC_ANNOTATE_WASM_DEFS_H
#define POSTPROC_ANNOTATE_WASM_DEFS_H

#include <stdint.h>

/*
 * One decoded instruction. off is the absolute file offset of its first byte.
 * func is the function index (imported functions included) inside core module
 * `module` (0 for a plain module; components number their core modules in file
 * order). prefix is 0 or the prefix byte; code the opcode byte or sub-opcode.
 * text is the wasmprinter line, trimmed; NULL for a function's final `end`,
 * which has no line of its own (wasmprinter prints `)` there, and the reference
 * shows `-`). Texts are owned by the module.
 */
struct wasm_insn {
	uint32_t off;
	uint32_t func;
	uint16_t prefix;
	uint32_t code;
	const char *text;
	uint32_t module;
};

#endif

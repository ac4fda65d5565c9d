/* SPDX-License-Identifier: MIT */
/* WebAssembly binary decoder: each instruction's offset and its text as wasmprinter prints it. */
#ifndef POSTPROC_WASM_H
#define POSTPROC_WASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "wasm-defs.h"

/*
 * The "Wasm column" of a report: `wasmtime hot-blocks` shows, for the wasm
 * offset of each machine instruction, the line wasmprinter (wasm-tools, flat
 * mode, default config) prints for the instruction at that offset. This
 * decoder rebuilds that map without Rust:
 *
 *  - offsets are absolute file offsets of an instruction's first byte (the
 *    prefix byte for 0xfb/0xfc/0xfd/0xfe opcodes), as in wasmtime's address map;
 *  - text follows wasmprinter 0.254: names from the `name` section, label
 *    comments (`;; label = @1`, `(;@1;)`), memargs, floats (`0x1.8p+0 (;=1.5;)`).
 *    The limits are listed in test-data/wasm/README.md.
 *
 * Input: a core module, or a component (layer 1) whose core modules (nested
 * components included) are decoded in file order with absolute offsets.
 * Instructions: WebAssembly 2.0, SIMD and relaxed SIMD, bulk memory, reference
 * types, tail calls, exceptions (legacy and try_table), GC, threads, typed
 * function references, multi-memory, memory64, extended const, wide arithmetic,
 * stack switching, custom descriptors, shared-everything threads; one table,
 * wasm-opcodes.def.
 *
 * Not validated: types of operands, index ranges, section order. Malformed
 * structure (truncation, bad LEB128, an unknown opcode, a body that does not end
 * with `end`, a core module section id above 13, a function section and a code
 * section of different lengths) is an error; a malformed `name` section is not
 * (see below), nor is any other custom section (never read).
 */

struct wasm_module;

/*
 * Parse the module (or component) in buf[0..len). buf is borrowed and must stay
 * valid and unchanged until wasm_module__free(); name (copied) prefixes
 * messages. Every instruction of every function body is decoded once here, so
 * malformed code anywhere fails now, at its offset; but only an index of the
 * bodies is kept. A body's instructions and their texts are decoded again,
 * and kept, when one of them is first asked for (wasm_module__insn_text), so
 * memory follows the functions shown, not the module. Lookups may come from
 * several threads (they take a lock).
 *
 * Returns 0 and sets *out, or a negative errno and leaves *out NULL:
 * -EINVAL malformed input, -ENOTSUP unknown opcode or binary version,
 * -ERANGE an integer out of range, -ENOMEM, -E2BIG the texts would exceed
 * 64 MiB + 32 bytes per input byte (only long names used many times do that). On error err (if errlen > 0) holds
 * "NAME+0xOFF: message", OFF being the file offset where decoding failed.
 *
 * A malformed `name` section is not an error: like wasmprinter and wasmtime,
 * the names read before the fault are kept and the rest of that section is
 * ignored; wasm_module__name_errors() counts such sections.
 */
int wasm_module__parse(struct wasm_module **out, const uint8_t *buf, size_t len,
		       const char *name, char *err, size_t errlen);

/* Free everything parse allocated. NULL is fine. */
void wasm_module__free(struct wasm_module *m);

/*
 * The text of the instruction whose first byte is at file offset off, as the
 * reference's Wasm column shows it, or NULL: no instruction starts there, or
 * it is a function's final `end`, or decoding its body ran out of memory
 * (counted: wasm_module__lazy_errors). The string lives as long as m.
 */
const char *wasm_module__insn_text(struct wasm_module *m, uint32_t off);

/*
 * All instructions in file order (offsets strictly increasing), for tests and
 * tools: every body is decoded and kept. *insns is set to an array owned by m;
 * returns the count (0 and *insns NULL when out of memory).
 */
size_t wasm_module__insns(struct wasm_module *m, const struct wasm_insn **insns);

/*
 * How many bodies could not be decoded when first asked for (out of memory:
 * the first pass decoded them all), and the first message ("NAME+0xOFF: ..."),
 * or NULL. Their instructions have no text.
 */
unsigned wasm_module__lazy_errors(const struct wasm_module *m);
const char *wasm_module__lazy_error(const struct wasm_module *m);

/*
 * The function's raw name from the `name` section of core module 0, as wasmtime
 * keeps it: function subsection only, the last entry for an index wins, and
 * only indices below the number of functions (imports included) count. NULL if
 * none. The string (copied when first asked for) lives as long as m.
 */
const char *wasm_module__func_name(struct wasm_module *m, uint32_t func_index);

/* Number of imported functions of core module 0 (0 if there is none). */
uint32_t wasm_module__imported_funcs(const struct wasm_module *m);

/* Number of core modules: 1 for a module, 0 or more for a component. */
uint32_t wasm_module__core_modules(const struct wasm_module *m);

/* Whether the file is a component (layer 1) rather than a core module. */
bool wasm_module__is_component(const struct wasm_module *m);

/* How many of its core modules carry DWARF (a .debug_info custom section). */
uint32_t wasm_module__dwarf_modules(const struct wasm_module *m);

/*
 * Where core module mod lies in the file: its header's offset and its length.
 * Returns 0, or -ENOENT if there is no such module.
 */
int wasm_module__module_range(const struct wasm_module *m, uint32_t mod, uint32_t *off,
			      uint32_t *len);

/* As wasm_module__func_name() and __imported_funcs(), for core module mod. */
const char *wasm_module__module_func_name(struct wasm_module *m, uint32_t mod,
					  uint32_t func_index);
uint32_t wasm_module__module_imported_funcs(const struct wasm_module *m, uint32_t mod);

/*
 * How many `name` sections were malformed (and partly ignored), and the
 * message for the first one ("NAME+0xOFF: ..."), or NULL.
 */
unsigned wasm_module__name_errors(const struct wasm_module *m);
const char *wasm_module__name_error(const struct wasm_module *m);

#endif

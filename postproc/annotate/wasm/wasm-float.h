/* SPDX-License-Identifier: MIT */
/* Float constants as wasmprinter writes them (wasm-float.c). */
#ifndef POSTPROC_ANNOTATE_WASM_FLOAT_H
#define POSTPROC_ANNOTATE_WASM_FLOAT_H

#include <stddef.h>
#include <stdint.h>

/*
 * Format a float constant's bits as wasmprinter does: hex float plus Rust's
 * shortest decimal in a comment, e.g. "0x1.8p+0 (;=1.5;)", "-inf (;=-inf;)",
 * "nan:0x200000 (;=NaN;)". Writes at most len bytes (NUL included) to buf and
 * returns the length the full text needs (like snprintf).
 */
size_t wasm_float__fmt_f32(char *buf, size_t len, uint32_t bits);
size_t wasm_float__fmt_f64(char *buf, size_t len, uint64_t bits);

#endif

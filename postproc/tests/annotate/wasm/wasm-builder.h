/* SPDX-License-Identifier: MIT */
/* Test support: WebAssembly modules built byte by byte, and the decoder's answers on them. */
#ifndef POSTPROC_TESTS_WASM_BUILDER_H
#define POSTPROC_TESTS_WASM_BUILDER_H

#include <stddef.h>
#include <stdint.h>

#include "annotate/wasm/wasm.h"

/* Bytes being built; a failed allocation fails the test. */
struct mb {
	uint8_t *p;
	size_t len, alloc;
};

void mb_bytes(struct mb *b, const void *s, size_t n);
void mb_u8(struct mb *b, uint8_t v);
void mb_uleb(struct mb *b, uint64_t v);
/* A name: its length as a LEB128, then its bytes. */
void mb_str(struct mb *b, const char *s);
/* A section or subsection: id, payload size, payload. */
void mb_section(struct mb *b, uint8_t id, const struct mb *payload);
void mb_free(struct mb *b);

/*
 * A module with types 0 = (func), 1 = (func (param i32 i64) (result i32)),
 * 2 = (func (param i32) (result f32 f64)); nimports imported functions
 * "env"."fN" of type 0; one defined function per body (instruction bytes, the
 * final end added, no locals); then a custom "name" section with the given
 * payload, if any.
 */
struct mb make_module(unsigned nimports, const struct mb *bodies, unsigned nbodies,
		      const struct mb *names);

/* Parse as "t.wasm", expecting success. */
struct wasm_module *parse_ok(const struct mb *m);
/* The texts of all instructions joined by '|', a final end as '-' (malloc()ed). */
char *joined(struct wasm_module *w);
/* One function with the given instruction bytes (and name section payload): its texts. */
void expect_body(const uint8_t *code, size_t n, const struct mb *names, const char *want);
#define EXPECT(want, ...)                                          \
	do {                                                       \
		static const uint8_t code_[] = { __VA_ARGS__ };    \
		expect_body(code_, sizeof(code_), NULL, want);     \
	} while (0)

/* Parse expecting failure with rc; the message must contain want. */
void expect_error(const struct mb *m, int rc, const char *want);

#endif

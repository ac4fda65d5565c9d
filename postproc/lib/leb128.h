/* SPDX-License-Identifier: MIT */
/* LEB128 integers: WebAssembly binaries, wasmtime's address map, tools writing them. */
#ifndef POSTPROC_LEB128_H
#define POSTPROC_LEB128_H

#include <stddef.h>
#include <stdint.h>

/* The most bytes a 64-bit value takes. */
#define LEB128_MAX 10

/*
 * Read one LEB128 from [*p, end) into a value of `bits` bits (32 or 64
 * unsigned; 32, 33 or 64 signed). As the WebAssembly spec allows, a value
 * may be padded (non-minimal) up to ceil(bits/7) bytes; the unused bits of
 * the last byte must be zero (unsigned) or copies of the sign bit (signed).
 * Returns 0 and advances *p, or leaves *p unchanged and returns -EINVAL
 * (end reached inside the number) or -ERANGE (too long or too large).
 */
int leb128_read_u(const uint8_t **p, const uint8_t *end, unsigned bits, uint64_t *v);
int leb128_read_s(const uint8_t **p, const uint8_t *end, unsigned bits, int64_t *v);

/* Write v minimally at p (room for LEB128_MAX bytes); returns the bytes written. */
size_t leb128_write_u(uint8_t *p, uint64_t v);
size_t leb128_write_s(uint8_t *p, int64_t v);

#endif

/* SPDX-License-Identifier: MIT */
/* The shortest decimal of an IEEE binary32/binary64 value, chosen as Rust's float formatting chooses it. */
#ifndef POSTPROC_FLOAT_DECIMAL_H
#define POSTPROC_FLOAT_DECIMAL_H

#include <stdbool.h>
#include <stdint.h>

/* value = 0.DIGITS x 10^exp, DIGITS without leading zero. */
struct float_decimal {
	char digits[24];	/* NUL-terminated; at most 17 digits */
	int exp;
};

/*
 * The digits wasmprinter's comments show (Rust's `{}` of f32 or f64): the
 * fewest digits that read back as the value, the closest such decimal when
 * two of that length qualify, and, when both are exactly as close, the one of
 * larger magnitude (not printf's even digit). mag is the value's bits without
 * the sign bit (binary32 bits in the low 32 when !is64); it must be finite
 * and nonzero. Exact arithmetic: no dependence on libc's strtod or printf.
 */
void float_decimal_shortest(struct float_decimal *d, uint64_t mag, bool is64);

#endif

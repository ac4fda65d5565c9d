/* SPDX-License-Identifier: MIT */
/* UTF-8 as RFC 3629 defines it (what Rust's str::from_utf8 accepts): wasm names, JSON strings. */
#ifndef POSTPROC_UTF8_H
#define POSTPROC_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The length (1 to 4) of the well-formed sequence at s[0..n), or 0: a stray
 * continuation byte, a sequence cut short, an overlong form, a surrogate
 * (U+D800..U+DFFF) or a code point past U+10FFFF.
 */
size_t utf8_seq_len(const uint8_t *s, size_t n);

/* Whether all of s[0..n) is well-formed. */
bool utf8_valid(const uint8_t *s, size_t n);

/* The code point at *p, advancing *p past it; the text must be well-formed. */
uint32_t utf8_next(const uint8_t **p);

#endif

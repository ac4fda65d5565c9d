/* SPDX-License-Identifier: MIT */
/* Small helpers of the post-processor: interned strings, overflow-safe sums,
 * percentages as the reference prints them, hex digits; with the plugin's
 * shared growable arrays, hashing and index table, and readers' errors. */
#ifndef POSTPROC_UTIL_H
#define POSTPROC_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../plugin/lib/errf.h"
#include "../../plugin/lib/hash.h"
#include "../../plugin/lib/vec.h"

#ifndef ARRAY_SIZE	/* libiberty.h has the same one */
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

/* free(*p) and set it to NULL. */
#define FREE_AND_NULL(p) \
	do {             \
		free(p); \
		(p) = NULL; \
	} while (0)

/*
 * Interned strings: each distinct text stored once, alive until
 * strset_release(), so callers can hold and compare the pointers.
 */
struct strset {
	char **v;		/* owned */
	size_t nr, alloc;
	struct idx_table tab;
};

/* The interned copy of str; NULL when out of memory. */
const char *strset_add(struct strset *s, const char *str);
/* The interned copy of str if the set has it, else NULL. */
const char *strset_find(const struct strset *s, const char *str);
/* The same for a malloc()ed str, which the set takes: freed when the text is there already. */
const char *strset_add_owned(struct strset *s, char *str);
void strset_release(struct strset *s);

/* a += b; false if that would overflow (a is then unchanged). */
static inline bool add_u64(uint64_t *a, uint64_t b)
{
	if (*a > UINT64_MAX - b)
		return false;
	*a += b;
	return true;
}

/* a + b, stuck at UINT64_MAX: counts from hostile input must not wrap. */
static inline uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

/*
 * Format v with "%.2f" as Rust's {:.2} does (the reference prints with Rust):
 * NaN as "NaN", infinities as "inf" / "-inf". Returns buf.
 */
const char *fmt_pct(char *buf, size_t len, double v);

/*
 * The share v (a percentage) of n samples, as fmt_pct, but "<0.01" where
 * samples would print as "0.00": a row with samples is never shown as none.
 */
const char *fmt_share(char *buf, size_t len, uint64_t n, double v);

/*
 * The value of hex digit c (a char, signed or not, or an unsigned char
 * value), or -1. A table lookup the compiler inlines: the stream reader
 * decodes every byte of code through it, two digits each.
 */
extern const signed char hex_digit_plus1[256];	/* 0 for a non-digit */

static inline int hexval(int c)
{
	return hex_digit_plus1[(unsigned char)c] - 1;
}

/* "1 sample" / "2 samples": the plural s when n != 1. */
static inline const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

#endif

/* SPDX-License-Identifier: MIT */
/* Small helpers shared by the post-processor: growable arrays, hashing, an index table,
 * interned strings, error messages. */
#ifndef POSTPROC_UTIL_H
#define POSTPROC_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
 * Make room for at least need elements of elsize bytes in *p, which holds
 * *alloc elements now; grows geometrically. Returns 0 or -ENOMEM (also on a
 * size overflow); on failure *p and *alloc are unchanged.
 */
int vec_grow(void **p, size_t *alloc, size_t need, size_t elsize);
#define VEC_GROW(p, need, alloc) vec_grow((void **)&(p), &(alloc), (need), sizeof(*(p)))

/* FNV-1a style mixing, good enough for the tables below; h is the running hash. */
uint64_t hash_bytes(uint64_t h, const void *p, size_t n);
uint64_t hash_u64(uint64_t h, uint64_t v);
#define HASH_SEED 0xcbf29ce484222325ULL

/*
 * An open-addressing table of uint32_t indexes into an array the caller owns,
 * keyed by whatever the caller hashes: the table keeps each entry's hash so it
 * can grow without calling back. Lookups compare candidates with eq(idx, key, ctx).
 */
typedef bool (*idx_eq_fn)(uint32_t idx, const void *key, const void *ctx);

struct idx_slot {
	uint64_t hash;
	uint32_t idx;		/* index + 1; 0 = empty */
};

struct idx_table {
	struct idx_slot *slots;	/* owned; NULL while empty */
	size_t cap;		/* power of two, or 0 */
	size_t nr;
};

/* The index stored for key, or -1. */
long idx_table_find(const struct idx_table *t, uint64_t hash, idx_eq_fn eq, const void *key,
		     const void *ctx);
/* Add idx under hash (the caller checked it is absent). Returns 0 or -ENOMEM. */
int idx_table_add(struct idx_table *t, uint64_t hash, uint32_t idx);
/* Forget every entry, keep the memory. */
void idx_table_clear(struct idx_table *t);
void idx_table_release(struct idx_table *t);

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
 * The value of hex digit c (a char, signed or not, or an unsigned char
 * value), or -1. A table lookup the compiler inlines: the stream reader
 * decodes every byte of code through it, two digits each.
 */
extern const signed char hex_digit_plus1[256];	/* 0 for a non-digit */

static inline int hexval(int c)
{
	return hex_digit_plus1[(unsigned char)c] - 1;
}

/*
 * The readers' error messages, one line each, into err (nothing when err is
 * NULL or errlen is 0); both return rc, so a reader can `return errf(...)`.
 * errf_at() starts the line with "NAME+0xOFF: ", the byte offset in the
 * named file where the bad input is, which is how every reader of a binary
 * file points at a problem.
 */
int errf(char *err, size_t errlen, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
int errf_at(char *err, size_t errlen, int rc, const char *name, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));
void verrf_at(char *err, size_t errlen, const char *name, uint64_t off, const char *fmt,
	      va_list ap) __attribute__((format(printf, 5, 0)));

/* "1 sample" / "2 samples": the plural s when n != 1. */
static inline const char *plural(uint64_t n)
{
	return n == 1 ? "" : "s";
}

#endif

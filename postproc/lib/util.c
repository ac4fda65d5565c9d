/* SPDX-License-Identifier: MIT */
/* Small helpers shared by the post-processor (see util.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

int vec_grow(void **p, size_t *alloc, size_t need, size_t elsize)
{
	size_t n = *alloc;
	void *q;

	if (need <= n)
		return 0;
	n = n < 8 ? 8 : n;
	while (n < need) {
		if (n > SIZE_MAX / 2)
			return -ENOMEM;
		n *= 2;
	}
	if (elsize && n > SIZE_MAX / elsize)
		return -ENOMEM;
	q = realloc(*p, n * elsize);
	if (!q)
		return -ENOMEM;
	*p = q;
	*alloc = n;
	return 0;
}

uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	while (n--) {
		h ^= *c++;
		h *= 0x100000001b3ULL;
	}
	/* Separate consecutive fields: ("ab","c") must not hash like ("a","bc"). */
	h ^= 0xff;
	return h * 0x100000001b3ULL;
}

uint64_t hash_u64(uint64_t h, uint64_t v)
{
	/* splitmix64 finaliser: sample offsets are small and clustered. */
	v += 0x9e3779b97f4a7c15ULL + h;
	v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9ULL;
	v = (v ^ (v >> 27)) * 0x94d049bb133111ebULL;
	return v ^ (v >> 31);
}

long idx_table_find(const struct idx_table *t, uint64_t hash, idx_eq_fn eq, const void *key,
		     const void *ctx)
{
	size_t i;

	if (!t->cap)
		return -1;
	for (i = hash & (t->cap - 1); t->slots[i].idx; i = (i + 1) & (t->cap - 1)) {
		if (t->slots[i].hash == hash && eq(t->slots[i].idx - 1, key, ctx))
			return t->slots[i].idx - 1;
	}
	return -1;
}

static void put(struct idx_slot *slots, size_t cap, uint64_t hash, uint32_t idx1)
{
	size_t i;

	for (i = hash & (cap - 1); slots[i].idx; i = (i + 1) & (cap - 1))
		;
	slots[i].hash = hash;
	slots[i].idx = idx1;
}

int idx_table_add(struct idx_table *t, uint64_t hash, uint32_t idx)
{
	if (idx == UINT32_MAX)
		return -ENOMEM;
	/* Keep the load at most 1/2 so probe runs stay short. */
	if ((t->nr + 1) * 2 > t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64, i;
		struct idx_slot *slots;

		if (cap > SIZE_MAX / sizeof(*slots))
			return -ENOMEM;
		slots = calloc(cap, sizeof(*slots));
		if (!slots)
			return -ENOMEM;
		for (i = 0; i < t->cap; i++)
			if (t->slots[i].idx)
				put(slots, cap, t->slots[i].hash, t->slots[i].idx);
		free(t->slots);
		t->slots = slots;
		t->cap = cap;
	}
	put(t->slots, t->cap, hash, idx + 1);
	t->nr++;
	return 0;
}

void idx_table_clear(struct idx_table *t)
{
	if (t->nr)
		memset(t->slots, 0, t->cap * sizeof(*t->slots));
	t->nr = 0;
}

void idx_table_release(struct idx_table *t)
{
	FREE_AND_NULL(t->slots);
	t->cap = t->nr = 0;
}

static bool strset_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct strset *s = ctx;

	return !strcmp(s->v[idx], key);
}

const char *strset_add_owned(struct strset *s, char *str)
{
	uint64_t h;
	long i;

	if (!str)
		return NULL;
	h = hash_bytes(HASH_SEED, str, strlen(str));
	i = idx_table_find(&s->tab, h, strset_eq, str, s);
	if (i >= 0) {
		free(str);
		return s->v[i];
	}
	if (s->nr >= UINT32_MAX - 1 || VEC_GROW(s->v, s->nr + 1, s->alloc) ||
	    idx_table_add(&s->tab, h, (uint32_t)s->nr)) {
		free(str);
		return NULL;
	}
	s->v[s->nr] = str;
	return s->v[s->nr++];
}

const char *strset_find(const struct strset *s, const char *str)
{
	long i = idx_table_find(&s->tab, hash_bytes(HASH_SEED, str, strlen(str)), strset_eq, str, s);

	return i >= 0 ? s->v[i] : NULL;
}

const char *strset_add(struct strset *s, const char *str)
{
	uint64_t h = hash_bytes(HASH_SEED, str, strlen(str));
	long i = idx_table_find(&s->tab, h, strset_eq, str, s);

	/* Looked up first: most texts are there already, and need no copy. */
	return i >= 0 ? s->v[i] : strset_add_owned(s, strdup(str));
}

void strset_release(struct strset *s)
{
	for (size_t i = 0; i < s->nr; i++)
		free(s->v[i]);
	free(s->v);
	idx_table_release(&s->tab);
	memset(s, 0, sizeof(*s));
}

const char *fmt_pct(char *buf, size_t len, double v)
{
	if (isnan(v))
		snprintf(buf, len, "NaN");
	else if (isinf(v))
		snprintf(buf, len, v < 0 ? "-inf" : "inf");
	else
		snprintf(buf, len, "%.2f", v);
	return buf;
}

/* One more than each digit's value, so that every other entry is the 0 of static storage. */
const signed char hex_digit_plus1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

int errf(char *err, size_t errlen, int rc, const char *fmt, ...)
{
	va_list ap;

	if (!err || !errlen)
		return rc;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return rc;
}

void verrf_at(char *err, size_t errlen, const char *name, uint64_t off, const char *fmt, va_list ap)
{
	int n;

	if (!err || !errlen)
		return;
	n = snprintf(err, errlen, "%s+0x%" PRIx64 ": ", name, off);
	if (n < 0 || (size_t)n >= errlen)
		return;
	vsnprintf(err + n, errlen - n, fmt, ap);
}

int errf_at(char *err, size_t errlen, int rc, const char *name, uint64_t off, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verrf_at(err, errlen, name, off, fmt, ap);
	va_end(ap);
	return rc;
}

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

const char *fmt_share(char *buf, size_t len, uint64_t n, double v)
{
	if (n && v >= 0 && v < 0.005)
		snprintf(buf, len, "<0.01");
	else
		fmt_pct(buf, len, v);
	return buf;
}

/* One more than each digit's value, so that every other entry is the 0 of static storage. */
const signed char hex_digit_plus1[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

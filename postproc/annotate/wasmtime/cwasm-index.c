/* SPDX-License-Identifier: MIT */
/* A .cwasm's functions found by symbol, by code and by place (cwasm.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/lib/bsearch.h"
#include "cwasm-defs.h"

static int cmp_code_key(const void *a, const void *b)
{
	const struct code_key *x = a, *y = b;

	if (x->hash != y->hash)
		return x->hash < y->hash ? -1 : 1;
	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

static uint64_t code_hash(const void *code, size_t size)
{
	return hash_bytes(HASH_SEED, code, size);
}

static bool name_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct cwasm *c = ctx;

	return !strcmp(c->funcs[idx].symbol, key);
}

/* The symbol table's data (*d, of symbols of *entsz bytes), checked. */
int cwasm__index(struct cwasm *c)
{
	size_t i;
	int ret;

	for (i = 0; i < c->nr_funcs; i++) {
		const char *s = c->funcs[i].symbol;
		uint64_t h = hash_bytes(HASH_SEED, s, strlen(s));

		if (idx_table_find(&c->by_name, h, name_eq, s, c) >= 0)
			continue;
		ret = idx_table_add(&c->by_name, h, i);
		if (ret)
			return ret;
	}
	return 0;
}

/* Before the keys of a size are hashed: by size (then index). */
static int cmp_size_key(const void *a, const void *b)
{
	const struct code_key *x = a, *y = b;

	if (x->size != y->size)
		return x->size < y->size ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* c->by_code, made once, by size alone (c under lazy_lock): false when out
 * of memory (then nothing is found by code). */
static bool by_code(struct cwasm *c)
{
	struct code_key *k;

	if (!c->by_code && (k = calloc(c->nr_funcs ? c->nr_funcs : 1, sizeof(*k)))) {
		if (!(c->code_hashed = calloc(c->nr_funcs ? c->nr_funcs : 1, sizeof(*c->code_hashed)))) {
			free(k);
			return false;
		}
		for (size_t i = 0; i < c->nr_funcs; i++) {
			k[i].size = c->funcs[i].size;
			k[i].idx = i;
		}
		if (c->nr_funcs)
			qsort(k, c->nr_funcs, sizeof(*k), cmp_size_key);
		c->by_code = k;
	}
	return c->by_code != NULL;
}

/* The keys of one size, by_code[lo .. hi), hashed and sorted by hash (then
 * index), once: the code of those functions alone is read. */
static void hash_size(struct cwasm *c, size_t lo, size_t hi)
{
	struct code_key *k = c->by_code;

	if (c->code_hashed[lo])
		return;
	for (size_t i = lo; i < hi; i++)
		k[i].hash = code_hash(c->text + c->funcs[k[i].idx].text_off, k[i].size);
	qsort(k + lo, hi - lo, sizeof(*k), cmp_code_key);
	c->code_hashed[lo] = true;
}

const struct cwasm_func *cwasm__find_symbol(const struct cwasm *c, const char *symbol)
{
	uint64_t h = hash_bytes(HASH_SEED, symbol, strlen(symbol));
	long i = idx_table_find(&c->by_name, h, name_eq, symbol, c);

	return i < 0 ? NULL : &c->funcs[i];
}

const struct cwasm_func *cwasm__find_code(const struct cwasm *cc, const void *code, size_t size,
					  const struct cwasm_func *prev)
{
	struct cwasm *c = (struct cwasm *)cc;	/* an index made on demand, not what c says */
	const struct cwasm_func *found = NULL;
	struct code_key key;
	size_t lo, hi, after;

	if (!size || size > UINT32_MAX)
		return NULL;
	key.hash = code_hash(code, size);
	key.size = size;
	key.idx = 0;
	after = prev ? (size_t)(prev - c->funcs) + 1 : 0;
	pthread_mutex_lock(&c->lazy_lock);
	if (!by_code(c))
		goto out;
	/* the keys of this size, hashed now if they are not */
	lo = LOWER_BOUND(c->nr_funcs, i, c->by_code[i].size < size);
	hi = LOWER_BOUND(c->nr_funcs, i, c->by_code[i].size <= size);
	if (lo == hi)
		goto out;
	hash_size(c, lo, hi);
	lo += LOWER_BOUND(hi - lo, i, cmp_code_key(&c->by_code[lo + i], &key) < 0);
	for (; lo < hi; lo++) {
		const struct code_key *k = &c->by_code[lo];
		const struct cwasm_func *f = &c->funcs[k->idx];

		if (k->hash != key.hash)
			break;
		if (k->idx >= after && !memcmp(c->text + f->text_off, code, size)) {
			found = f;
			break;
		}
	}
out:
	pthread_mutex_unlock(&c->lazy_lock);
	return found;
}

const struct cwasm_func *cwasm__match(const struct cwasm *c, const char *name, const uint8_t *code,
				      size_t code_nr, uint64_t size, bool by_code, bool *stale)
{
	const struct cwasm_func *f = cwasm__find_symbol(c, name), *first = NULL;

	*stale = false;
	if (f) {
		size_t n = code_nr < f->size ? code_nr : f->size;

		/* n == 0: an object without code lines has no code pointer either */
		if (size != f->size || (uint64_t)f->text_off + n > c->text_size ||
		    (n && memcmp(code, c->text + f->text_off, n)))
			*stale = code_nr > 0 || size != f->size;
		return f;
	}
	/* Only whole code can be compared. */
	if (!by_code || !code_nr || code_nr != size)
		return NULL;
	for (f = cwasm__find_code(c, code, code_nr, NULL); f; f = cwasm__find_code(c, code, code_nr, f)) {
		if (!first)
			first = f;
		if (f->wasm_name && !strcmp(f->wasm_name, name))
			break;
	}
	/* The code read to find it (the functions of its size, hashed, and
	 * those compared) is read no more: its pages are the file's again
	 * (.text is handed out as it is, never written). */
	map_file__forget_range(&c->file, c->text, c->text_size);
	return f ? f : first;
}

const struct cwasm_func *cwasm__func_at(const struct cwasm *c, uint64_t text_off)
{
	size_t lo = LOWER_BOUND(c->nr_funcs, i, c->funcs[i].text_off <= text_off);
	const struct cwasm_func *f;

	if (!lo)
		return NULL;
	f = &c->funcs[lo - 1];
	return text_off - f->text_off < f->size ? f : NULL;
}

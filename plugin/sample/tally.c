// SPDX-License-Identifier: MIT
/* Sample counts per (object, event, offset) (see tally.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/vec.h"
#include "tally.h"

/* The smallest bound: as many keys as 4096 slots hold at load 1/2. */
#define MIN_SLOTS 4096

void tally__release(struct tally *c)
{
	free(c->entries);
	idx_table_release(&c->index);
	memset(c, 0, sizeof(*c));
}

int tally__init(struct tally *c, size_t max_slots)
{
	memset(c, 0, sizeof(*c));
	c->max_nr = (max_slots < MIN_SLOTS ? MIN_SLOTS : max_slots) / 2;
	return 0;
}

static bool entry_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct tally_entry *e = &((const struct tally *)ctx)->entries[idx], *k = key;

	return e->off == k->off && e->obj == k->obj && e->ev == k->ev;
}

/* A new key's entry: its index, or -ENOSPC. Apart from tally__add, which
 * then needs fewer registers for the samples of keys already counted. */
static long __attribute__((noinline)) add_key(struct tally *c, uint64_t h, const struct tally_entry *key)
{
	/* the bound first: a full table grows nothing */
	if (c->nr >= c->max_nr || VEC_GROW(c->entries, c->nr + 1, c->alloc) < 0 ||
	    idx_table_add(&c->index, h, (uint32_t)c->nr) < 0)
		return -ENOSPC;
	c->entries[c->nr] = *key;
	return (long)c->nr++;
}

int tally__add(struct tally *c, uint32_t obj, uint32_t ev, uint64_t off, uint64_t period)
{
	struct tally_entry key = { .obj = obj, .ev = ev, .off = off };
	/* one round of mixing per sample: the key's 128 bits folded into 64
	 * (obj and ev into the high bits offsets leave clear), the rare keys
	 * that fold alike told apart by entry_eq */
	uint64_t h = hash_u64(HASH_SEED, off ^ (uint64_t)obj << 32 ^ (uint64_t)ev << 56);
	long i = idx_table_find(&c->index, h, entry_eq, &key, c);

	if (i < 0 && (i = add_key(c, h, &key)) < 0)
		return -ENOSPC;
	c->entries[i].samples++;
	c->entries[i].period += period;
	return 0;
}

static int cmp_entry(const void *a, const void *b)
{
	const struct tally_entry *x = a, *y = b;

	if (x->obj != y->obj)
		return x->obj < y->obj ? -1 : 1;
	if (x->ev != y->ev)
		return x->ev < y->ev ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;
}

struct tally_entry *tally__sorted(const struct tally *c, size_t *nr)
{
	struct tally_entry *out = malloc((c->nr ? c->nr : 1) * sizeof(*out));

	*nr = 0;
	if (!out)
		return NULL;
	if (c->nr)
		memcpy(out, c->entries, c->nr * sizeof(*out));
	qsort(out, c->nr, sizeof(*out), cmp_entry);
	*nr = c->nr;
	return out;
}

// SPDX-License-Identifier: MIT
/* Sample counts per (object, event, offset) (see counts.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "tally.h"

#define INITIAL_SLOTS 4096

static size_t hash(uint32_t obj, uint32_t ev, uint64_t off)
{
	/* splitmix64 finaliser: offsets are small and dense, so mix them well. */
	uint64_t x = off ^ ((uint64_t)obj << 32) ^ ((uint64_t)ev << 56);

	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return (size_t)x;
}

int tally__init(struct tally *c, size_t max_slots)
{
	memset(c, 0, sizeof(*c));
	c->slots = calloc(INITIAL_SLOTS, sizeof(*c->slots));
	if (!c->slots)
		return -ENOMEM;
	c->mask = INITIAL_SLOTS - 1;
	c->max_slots = max_slots < INITIAL_SLOTS ? INITIAL_SLOTS : max_slots;
	return 0;
}

void tally__release(struct tally *c)
{
	free(c->slots);
	memset(c, 0, sizeof(*c));
}

static struct tally_entry *probe(struct tally_entry *slots, size_t mask, uint32_t obj,
				 uint32_t ev, uint64_t off)
{
	size_t i = hash(obj, ev, off) & mask;

	for (;;) {
		struct tally_entry *e = &slots[i];

		if (!e->samples || (e->obj == obj && e->ev == ev && e->off == off))
			return e;
		i = (i + 1) & mask;
	}
}

static int grow(struct tally *c)
{
	size_t cap = (c->mask + 1) * 2;
	struct tally_entry *slots = calloc(cap, sizeof(*slots));

	if (!slots)
		return -ENOMEM;
	for (size_t i = 0; i <= c->mask; i++) {
		struct tally_entry *e = &c->slots[i];

		if (e->samples)
			*probe(slots, cap - 1, e->obj, e->ev, e->off) = *e;
	}
	free(c->slots);
	c->slots = slots;
	c->mask = cap - 1;
	return 0;
}

int tally__add(struct tally *c, uint32_t obj, uint32_t ev, uint64_t off, uint64_t period)
{
	struct tally_entry *e = probe(c->slots, c->mask, obj, ev, off);

	if (!e->samples) {
		/* Keep the load factor under 1/2 so probes stay short. */
		if ((c->used + 1) * 2 > c->mask + 1) {
			if (c->mask + 1 >= c->max_slots || grow(c) < 0)
				return -ENOSPC;
			e = probe(c->slots, c->mask, obj, ev, off);
		}
		e->obj = obj;
		e->ev = ev;
		e->off = off;
		c->used++;
	}
	e->samples++;
	e->period += period;
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
	struct tally_entry *out = malloc((c->used ? c->used : 1) * sizeof(*out));
	size_t n = 0;

	*nr = 0;
	if (!out)
		return NULL;
	for (size_t i = 0; i <= c->mask; i++)
		if (c->slots[i].samples)
			out[n++] = c->slots[i];
	qsort(out, n, sizeof(*out), cmp_entry);
	*nr = n;
	return out;
}

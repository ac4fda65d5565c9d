// SPDX-License-Identifier: MIT
/* Hashing and the index table (see hash.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hash.h"

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

int idx_table_set(struct idx_table *t, uint64_t hash, idx_eq_fn eq, const void *key, const void *ctx,
		  uint32_t idx)
{
	struct idx_slot *s = idx_table_slot(t, hash, eq, key, ctx);

	if (!s)
		return idx_table_add(t, hash, idx);
	if (idx == UINT32_MAX)
		return -ENOMEM;
	s->idx = idx + 1;
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
	free(t->slots);
	t->slots = NULL;
	t->cap = t->nr = 0;
}

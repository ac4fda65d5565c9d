// SPDX-License-Identifier: MIT
/* Branch-stack counts (see branches.h). */
#include <stdlib.h>
#include <string.h>

#include "../lib/vec.h"
#include "branches.h"

void branches__init(struct branches *b, struct warnings *warnings)
{
	memset(b, 0, sizeof(*b));
	b->warnings = warnings;
}

void branches__release(struct branches *b)
{
	free(b->v);
	free(b->ends);
	idx_table_release(&b->index);
	memset(b, 0, sizeof(*b));
}

static bool placed(const struct classify_verdict *v)
{
	return v->cls == HB_CLASS_JIT || v->cls == HB_CLASS_NATIVE || v->cls == HB_CLASS_PERFMAP;
}

static bool count_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct branch_count *e = &((const struct branches *)ctx)->v[idx], *k = key;

	return e->from_off == k->from_off && e->to_off == k->to_off && e->from_obj == k->from_obj &&
	       e->to_obj == k->to_obj && e->ev == k->ev && e->kind == k->kind && e->flags == k->flags;
}

static uint64_t count_hash(const struct branch_count *k)
{
	uint64_t h = hash_u64(HASH_SEED, k->from_off ^ (uint64_t)k->from_obj << 32);

	h = hash_u64(h, k->to_off ^ (uint64_t)k->to_obj << 32);
	return hash_u64(h, (uint64_t)k->ev << 16 | (uint64_t)k->kind << 8 | k->flags);
}

/* The count of key's (kind, event, ends, flags), made when new; NULL when the table is full. */
static struct branch_count *count_of(struct branches *b, const struct branch_count *key)
{
	uint64_t h = count_hash(key);
	long i = idx_table_find(&b->index, h, count_eq, key, b);

	if (i >= 0)
		return &b->v[i];
	if (b->nr >= MAX_BRANCH_KEYS || VEC_GROW(b->v, b->nr + 1, b->alloc) < 0 ||
	    idx_table_add(&b->index, h, (uint32_t)b->nr) < 0) {
		if (!b->full_warned)
			warnings__add(b->warnings, "branch table full (%u distinct edges and ranges); further new ones are counted as %s",
				      MAX_BRANCH_KEYS, "unattributed.table-full");
		b->full_warned = true;
		return NULL;
	}
	b->v[b->nr] = *key;
	b->v[b->nr].count = b->v[b->nr].cycles_nr = b->v[b->nr].cycles_sum = 0;
	return &b->v[b->nr++];
}

/* Count one edge or range between ends x and y in the class its ends give it:
 * the first end in no object names it; else x's. */
static struct branch_count *tally(struct branches *b, uint32_t ev, enum branch_kind kind, unsigned flags,
				  const struct classify_verdict *x, const struct classify_verdict *y)
{
	enum hb_sample_class cls = !placed(x) ? x->cls : !placed(y) ? y->cls : x->cls;
	struct branch_count *e = NULL;

	if (placed(x) && placed(y)) {
		struct branch_count key = { .from_obj = x->obj, .to_obj = y->obj, .from_off = x->off,
					    .to_off = y->off, .ev = ev, .kind = (uint8_t)kind,
					    .flags = (uint8_t)flags };

		if ((e = count_of(b, &key)))
			e->count++;
		else
			cls = HB_CLASS_TABLE_FULL;
	}
	b->totals[ev][HB_CLASS_ALL][kind]++;
	b->totals[ev][cls][kind]++;
	return e;
}

static unsigned flags_of(const struct perf_branch_entry *e)
{
	return (e->mispred ? BRANCH_MISPRED : 0) | (e->predicted ? BRANCH_PREDICTED : 0) |
	       (e->in_tx ? BRANCH_IN_TX : 0) | (e->abort ? BRANCH_ABORT : 0);
}

void branches__add(struct branches *b, struct classify *c, uint32_t ev, const struct perf_dlfilter_sample *s,
		   bool time_aware, void *ctx)
{
	size_t nr = s->brstack ? (size_t)s->brstack_nr : 0;

	if (!nr)
		return;
	b->any = true;
	if (VEC_GROW(b->ends, 2 * nr, b->ends_alloc) < 0) {
		/* still counted, as the samples of a full table are */
		for (int kind = BRANCH_TAKEN; kind <= BRANCH_RANGE; kind++) {
			b->totals[ev][HB_CLASS_ALL][kind] += nr - (size_t)kind;
			b->totals[ev][HB_CLASS_TABLE_FULL][kind] += nr - (size_t)kind;
		}
		return;
	}
	for (size_t k = 0; k < nr; k++) {
		const struct perf_branch_entry *e = &s->brstack[k];

		b->ends[2 * k] = classify__address(c, s, e->from, time_aware, ctx);
		b->ends[2 * k + 1] = classify__address(c, s, e->to, time_aware, ctx);
	}
	/* perf gives the newest entry first */
	for (size_t k = 0; k < nr; k++) {
		const struct perf_branch_entry *e = &s->brstack[k];
		struct branch_count *t = tally(b, ev, BRANCH_TAKEN, flags_of(e), &b->ends[2 * k], &b->ends[2 * k + 1]);

		if (t && e->cycles) {
			t->cycles_nr++;
			t->cycles_sum += e->cycles;
		}
		if (k + 1 >= nr)
			continue;
		/* the newer entry's cycles are those since the older one: the range's */
		struct branch_count *r = tally(b, ev, BRANCH_RANGE, 0, &b->ends[2 * (k + 1) + 1], &b->ends[2 * k]);

		if (r && e->cycles) {
			r->cycles_nr++;
			r->cycles_sum += e->cycles;
		}
	}
}

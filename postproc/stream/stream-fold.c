/* SPDX-License-Identifier: MIT */
/* The same code under the same name, over all runs, as one object (stream-fold.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stream-fold.h"

int stream_fold__tally(struct stream_tally **v, size_t *nr, size_t *alloc, uint32_t run,
		       uint32_t ev, uint64_t samples)
{
	struct stream_tally *last = *nr ? &(*v)[*nr - 1] : NULL;

	if (last && last->run == run && last->ev == ev) {
		last->samples = sat_add(last->samples, samples);
		return 0;
	}
	if (vec_grow((void **)v, alloc, *nr + 1, sizeof(**v)))
		return -ENOMEM;
	(*v)[(*nr)++] = (struct stream_tally){ run, ev, samples };
	return 0;
}

/* Only code whose every byte is known can be told the same as another. */
static bool foldable(const struct stream_object *o)
{
	return o->moved_into == UINT32_MAX && o->code_nr && o->code_nr == o->size;
}

static uint64_t code_hash(const struct stream_object *o)
{
	uint64_t h = hash_u64(HASH_SEED, o->kind);

	h = hash_u64(h, o->e_machine);
	h = hash_bytes(h, o->name, strlen(o->name));
	h = hash_u64(h, o->code_nr);
	return hash_bytes(h, o->code, o->code_nr);
}

static bool same_code(uint32_t idx, const void *key, const void *ctx)
{
	const struct stream_object *a = &((const struct stream *)ctx)->objects[idx], *b = key;

	return a->kind == b->kind && a->e_machine == b->e_machine && a->size == b->size &&
	       a->code_nr == b->code_nr && !strcmp(a->name, b->name) &&
	       !memcmp(a->code, b->code, a->code_nr);
}

static int tally_cmp(const void *a, const void *b)
{
	const struct stream_tally *x = a, *y = b;

	if (x->ev != y->ev)
		return x->ev < y->ev ? -1 : 1;
	return x->run < y->run ? -1 : x->run > y->run;
}

/* Sort o's tally by (ev, run) and sum the entries of one pair. */
static void tally_normalize(struct stream_object *o)
{
	size_t n = 0;

	if (o->tally_nr > 1)
		qsort(o->tally, o->tally_nr, sizeof(*o->tally), tally_cmp);
	for (size_t i = 0; i < o->tally_nr; i++) {
		if (n && !tally_cmp(&o->tally[n - 1], &o->tally[i]))
			o->tally[n - 1].samples = sat_add(o->tally[n - 1].samples, o->tally[i].samples);
		else
			o->tally[n++] = o->tally[i];
	}
	o->tally_nr = n;
}

/* Move every tally entry of from to the end of to's. */
static int tally_move(struct stream_object *to, struct stream_object *from)
{
	if (!from->tally_nr)
		return 0;
	if (VEC_GROW(to->tally, to->tally_nr + from->tally_nr, to->tally_alloc))
		return -ENOMEM;
	memcpy(to->tally + to->tally_nr, from->tally, from->tally_nr * sizeof(*from->tally));
	to->tally_nr += from->tally_nr;
	FREE_AND_NULL(from->tally);
	from->tally_nr = from->tally_alloc = 0;
	return 0;
}

int stream_fold__same_code(struct stream *s)
{
	struct idx_table first = { 0 };
	size_t i;

	for (i = 0; i < s->objects_nr; i++)
		s->objects[i].folded_into = UINT32_MAX;
	for (i = 0; i < s->objects_nr; i++) {
		struct stream_object *o = &s->objects[i];
		uint64_t h;
		long f;

		if (!foldable(o))
			continue;
		h = code_hash(o);
		f = idx_table__find(&first, h, same_code, o, s);
		if (f >= 0) {
			o->folded_into = (uint32_t)f;
			s->objects[f].folds++;
		} else if (idx_table__add(&first, h, (uint32_t)i)) {
			idx_table__release(&first);
			return -ENOMEM;
		}
	}
	idx_table__release(&first);

	for (i = 0; i < s->samples_nr; i++) {
		uint32_t into = s->objects[s->samples[i].obj].folded_into;

		if (into != UINT32_MAX)
			s->samples[i].obj = into;
	}
	/* A CODE_MOVE copy's root is never a copy, but may itself be folded. */
	for (i = 0; i < s->objects_nr; i++) {
		struct stream_object *o = &s->objects[i];
		uint32_t owner = o->moved_into != UINT32_MAX ? o->moved_into : (uint32_t)i;

		if (s->objects[owner].folded_into != UINT32_MAX)
			owner = s->objects[owner].folded_into;
		if (owner != i && tally_move(&s->objects[owner], o))
			return -ENOMEM;
	}
	for (i = 0; i < s->objects_nr; i++)
		tally_normalize(&s->objects[i]);
	return 0;
}

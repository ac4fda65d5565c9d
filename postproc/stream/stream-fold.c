/* SPDX-License-Identifier: MIT */
/*
 * Merging that aggregates, once everything is read (stream__finish): a
 * CODE_MOVE copy of code is the object it was moved from, and the same
 * code under the same name, from several runs (sections), is one object.
 *
 * The reader merges objects of one STREAM.md identity; but a JIT's code has
 * another identity in every run (its jitdump, load time and address change),
 * and so has a library at another path. stream__finish folds, over the whole
 * input, every object into the first one of the same family of kinds, name,
 * ELF machine and code bytes (all of them known): its samples are summed into
 * that one, which is ranked and shown alone, and its runs become that one's.
 * Code that differs under one name (another build, a recompilation) stays
 * apart. Family and name are code-name.h's: a wasmtime function seen through
 * its jitdump (jit `interp`) and in its mapped .cwasm (cwasm
 * `wasm[0]::function[1]::interp`) is one code.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "code-name.h"
#include "stream-parse.h"
#include "stream.h"

/* Only code whose every byte is known can be told the same as another. */
static bool foldable(const struct stream_object *o)
{
	return o->moved_into == UINT32_MAX && o->code_nr && o->code_nr == o->size;
}

static uint64_t code_hash(const struct stream_object *o)
{
	const char *name = code_name__canonical(o->kind, o->name);
	uint64_t h = hash_u64(HASH_SEED, (uint64_t)code_name__family(o->kind));

	h = hash_u64(h, o->e_machine);
	h = hash_bytes(h, name, strlen(name));
	h = hash_u64(h, o->code_nr);
	return hash_bytes(h, o->code, o->code_nr);
}

static bool same_code(uint32_t idx, const void *key, const void *ctx)
{
	const struct stream_object *a = &((const struct stream *)ctx)->objects[idx], *b = key;

	return code_name__family(a->kind) == code_name__family(b->kind) &&
	       a->e_machine == b->e_machine && a->size == b->size && a->code_nr == b->code_nr &&
	       !strcmp(code_name__canonical(a->kind, a->name), code_name__canonical(b->kind, b->name)) &&
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

/* Every object into the first of the same family, name, machine and code (stream.h, stream__finish). */
static int same_code_folded(struct stream *s)
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
		f = idx_table_find(&first, h, same_code, o, s);
		if (f >= 0) {
			o->folded_into = (uint32_t)f;
			s->objects[f].folds++;
		} else if (idx_table_add(&first, h, (uint32_t)i)) {
			idx_table_release(&first);
			return -ENOMEM;
		}
	}
	idx_table_release(&first);

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

/* Objects that may be CODE_MOVE copies of each other: same jitdump, code_index, size and bytes. */
static uint64_t code_key_hash(const struct stream_object *o)
{
	uint64_t h = hash_bytes(HASH_SEED, o->path, strlen(o->path));

	h = hash_u64(h, o->code_index);
	h = hash_u64(h, o->size);
	return hash_bytes(h, o->code, o->code_nr);
}

static bool same_moved_code(uint32_t idx, const void *key, const void *ctx)
{
	const struct stream_object *a = &((const struct stream *)ctx)->objects[idx], *b = key;

	return a->code_index == b->code_index && a->size == b->size && a->code_nr == b->code_nr &&
	       !strcmp(a->path, b->path) && !memcmp(a->code, b->code, a->code_nr);
}

/*
 * A JIT's CODE_MOVE makes a second object of the same code (same jitdump and
 * code_index, same bytes, another address): offsets mean the same in both, so
 * their samples are summed into the first, which is shown alone. Objects are
 * grouped by a hash of what must be equal, so this is linear in the objects
 * and their code. Returns 0 or -ENOMEM.
 */
static int fold_moved_code(struct stream *s)
{
	struct idx_table first = { 0 };

	for (size_t i = 0; i < s->objects_nr; i++) {
		struct stream_object *m = &s->objects[i];
		uint64_t h;
		long o;

		m->moved_into = UINT32_MAX;
		if (m->kind != HB_KIND_JIT || !m->code_nr)
			continue;
		h = code_key_hash(m);
		o = idx_table_find(&first, h, same_moved_code, m, s);
		if (o < 0) {
			if (idx_table_add(&first, h, (uint32_t)i)) {
				idx_table_release(&first);
				return -ENOMEM;
			}
		} else if (s->objects[o].addr != m->addr) {
			/* The same address (a reload in place) is another object, as before. */
			m->moved_into = (uint32_t)o;
			s->objects[o].moves++;
		}
	}
	idx_table_release(&first);
	for (size_t i = 0; i < s->samples_nr; i++) {
		uint32_t into = s->objects[s->samples[i].obj].moved_into;

		if (into != UINT32_MAX)
			s->samples[i].obj = into;
	}
	return 0;
}

int stream__finish(struct stream *s)
{
	size_t i, j;

	if (s->finished)
		return 0;
	s->finished = true;
	/* The object table served the merge. */
	idx_table_release(&s->obj_tab);
	/* The code files name first: folding compares code. */
	if (stream_code_files__read(s))
		return -ENOMEM;
	/* One function's loads first: what folds is the function. */
	if (stream_join__functions(s))
		return -ENOMEM;
	/* Sections' equal keys first: their sum must fit, as each section's did. */
	if (stream__merge_samples(s, false))
		return -ERANGE;
	if (fold_moved_code(s) || same_code_folded(s))
		return -ENOMEM;
	/* Folding can make two samples of one (object, event, offset): sum them. */
	stream__merge_samples(s, true);
	if (stream_branches__finish(s))
		return -ENOMEM;
	stream_stacks__finish(s);
	/* Read, the samples stay as they are: no room kept to grow (a big
	 * profile's millions of them). */
	if (s->samples_nr && s->samples_nr < s->samples_alloc) {
		struct stream_sample *v = realloc(s->samples, s->samples_nr * sizeof(*v));

		if (v) {
			s->samples = v;
			s->samples_alloc = s->samples_nr;
		}
	}
	for (i = 0; i < s->samples_nr; i = j) {
		struct stream_object *obj = &s->objects[s->samples[i].obj];

		for (j = i; j < s->samples_nr && s->samples[j].obj == s->samples[i].obj; j++)
			;
		obj->samples = &s->samples[i];
		obj->samples_nr = j - i;
	}
	return 0;
}

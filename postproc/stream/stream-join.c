/* SPDX-License-Identifier: MIT */
/*
 * One function a JIT writes as two loads, made one object once everything is
 * read (stream__finish, before folding): BEAM's `M:F/A-CodeInfoPrologue` and
 * `M:F/A` (annotate/beam/beam.h). The body takes the prologue in front of it:
 * its address, bytes, samples and runs; the prologue's object goes.
 *
 * Only loads of one code generation are joined: the two consecutive loads of
 * one jitdump (code_index N and N + 1), the body loaded no earlier than the
 * prologue, starting exactly where the prologue ends, both with every byte
 * known. A body whose prologue has no object (no sample, no branch in it)
 * stays alone; its first DEBUG_INFO entry still applies from its first byte
 * when the stream's loads show the prologue in front of it.
 *
 * A perf map's two ranges of one function (`+JPperf map`: no code bytes,
 * native objects of source perf-map, names with BEAM's `$`) are joined the
 * same way where the body starts exactly at the prologue's end in the same
 * map of the same process (the plugin writes the other range of a sampled
 * one); a prologue whose body has no object (an older plugin's stream) is
 * named as its body, alone. The prologue's name is kept (joined_name), so
 * that each sample is shown at the name perf gives it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/beam/beam.h"
#include "stream-parse.h"
#include "stream.h"

/* A JIT object as the join looks it up. */
struct key {
	uint32_t pid;
	const char *path;
	uint64_t order;		/* code_index, or addr */
	uint32_t obj;
};

static int cmp_key(const void *a, const void *b)
{
	const struct key *x = a, *y = b;
	int c;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->path && y->path && (c = strcmp(x->path, y->path)))
		return c;
	return x->order < y->order ? -1 : x->order > y->order;
}

static bool whole(const struct stream_object *o)
{
	return o->kind == HB_KIND_JIT && o->code_nr && o->code_nr == o->size;
}

/* Whether b is p's body, written with it (see the top). */
static bool body_of(const struct stream_object *p, size_t body_len, const struct stream_object *b)
{
	return b->kind == HB_KIND_JIT && b->pid == p->pid && b->e_machine == p->e_machine &&
	       !strcmp(b->path, p->path) && b->code_index == p->code_index + 1 &&
	       b->load_time >= p->load_time && b->addr == p->addr + p->size && whole(b) &&
	       strlen(b->name) == body_len && !strncmp(b->name, p->name, body_len);
}

/* b takes p in front of it; p keeps nothing (its tally moved, its code freed). */
static int take_prologue(struct stream_object *b, struct stream_object *p)
{
	struct code_data words[BEAM_PROLOGUE_DATA_MAX];
	size_t nw = beam__prologue_data((int)p->e_machine, p->code, p->code_nr, b->name, words);
	uint8_t *code = malloc(p->code_nr + b->code_nr);
	struct code_data *data = nw ? malloc(nw * sizeof(*data)) : NULL;

	if (!code || (nw && !data) ||
	    (p->tally_nr && VEC_GROW(b->tally, b->tally_nr + p->tally_nr, b->tally_alloc))) {
		free(code);
		free(data);
		return -ENOMEM;
	}
	memcpy(code, p->code, p->code_nr);
	memcpy(code + p->code_nr, b->code, b->code_nr);
	free(b->code);
	b->code = code;
	b->code_nr = b->code_alloc = p->code_nr + b->code_nr;
	b->joined_bytes = p->size;
	b->joined_name = p->name;
	p->name = NULL;
	b->addr = p->addr;
	b->size += p->size;
	b->debug_from_start = true;
	if (nw)
		memcpy(data, words, nw * sizeof(*data));
	b->data = data;
	b->data_nr = nw;
	if (p->tally_nr)
		memcpy(b->tally + b->tally_nr, p->tally, p->tally_nr * sizeof(*p->tally));
	b->tally_nr += p->tally_nr;
	return 0;
}

/* A perf map's range of a BEAM function (a `$` name, no code bytes). */
static bool map_beam(const struct stream_object *o)
{
	return o->kind == HB_KIND_NATIVE && !strcmp(o->source, "perf-map") && !o->code_nr &&
	       !strncmp(o->name, BEAM_MAP_PREFIX, strlen(BEAM_MAP_PREFIX));
}

/* Whether b is p's body in the same perf map: right after it, its name. */
static bool map_body_of(const struct stream_object *p, size_t body_len, const struct stream_object *b)
{
	return map_beam(b) && b->pid == p->pid && b->e_machine == p->e_machine && !strcmp(b->path, p->path) &&
	       b->addr == p->addr + p->size && strlen(b->name) == body_len &&
	       !strncmp(b->name, p->name, body_len);
}

/* b takes the perf map's prologue p in front of it: its address, samples, runs. */
static int take_map_prologue(struct stream_object *b, struct stream_object *p)
{
	if (p->tally_nr && VEC_GROW(b->tally, b->tally_nr + p->tally_nr, b->tally_alloc))
		return -ENOMEM;
	if (p->tally_nr)
		memcpy(b->tally + b->tally_nr, p->tally, p->tally_nr * sizeof(*p->tally));
	b->tally_nr += p->tally_nr;
	b->joined_bytes = p->size;
	b->joined_name = p->name;
	p->name = NULL;
	b->addr = p->addr;
	b->sym_start = p->sym_start;
	b->size += p->size;
	return 0;
}

/* A perf map's prologue with no body beside it: the function, named as its body. */
static int name_lone_map_prologue(struct stream_object *p, size_t body_len)
{
	char *body = strndup(p->name, body_len);

	if (!body)
		return -ENOMEM;
	p->joined_name = p->name;
	p->name = body;
	p->joined_bytes = p->size;
	return 0;
}

static void free_object(struct stream_object *o)
{
	free(o->name);
	free(o->joined_name);
	free(o->path);
	free(o->code);
	for (size_t j = 0; j < o->debug_nr; j++)
		free(o->debug[j].file);
	free(o->debug);
	free(o->tally);
	free(o->data);
}

/* Every object without its joined prologues; samples and branches renumbered
 * (into[old]: a prologue's body) and moved by shift[old] (a body's prologue). */
static int compact(struct stream *s, const uint32_t *into, const bool *gone, const uint64_t *shift)
{
	uint32_t *newidx = malloc(s->objects_nr * sizeof(*newidx));
	size_t n = 0;

	if (!newidx)
		return -ENOMEM;
	for (size_t i = 0; i < s->objects_nr; i++)
		newidx[i] = gone[i] ? UINT32_MAX : (uint32_t)n++;
	for (size_t i = 0; i < s->objects_nr; i++)
		if (gone[i])
			newidx[i] = newidx[into[i]];
	for (size_t i = 0; i < s->samples_nr; i++) {
		struct stream_sample *sm = &s->samples[i];

		sm->off += shift[sm->obj];
		sm->obj = newidx[sm->obj];
	}
	for (size_t i = 0; i < s->branches_nr; i++) {
		struct stream_branch *br = &s->branches[i];

		br->from_off += shift[br->from_obj];
		br->to_off += shift[br->to_obj];
		br->from_obj = newidx[br->from_obj];
		br->to_obj = newidx[br->to_obj];
	}
	free(newidx);
	n = 0;
	for (size_t i = 0; i < s->objects_nr; i++) {
		if (gone[i]) {
			free_object(&s->objects[i]);
			continue;
		}
		if (n != i)
			s->objects[n] = s->objects[i];
		n++;
	}
	s->objects_nr = n;
	return 0;
}

/* Bodies whose prologue load (in s->loads) has no object get the debug rule
 * too. keys: the JIT objects, sorted here by (pid, addr). */
static void mark_lone_bodies(struct stream *s, struct key *keys, size_t nk)
{
	for (size_t k = 0; k < nk; k++) {
		keys[k].path = NULL;
		keys[k].order = s->objects[keys[k].obj].addr;
	}
	qsort(keys, nk, sizeof(*keys), cmp_key);
	for (size_t i = 0; i < s->loads_nr; i++) {
		const struct stream_load *l = &s->loads[i];
		struct key want = { l->pid, NULL, l->addr + l->size, 0 };
		const struct key *at;
		size_t body_len;

		if (!beam__is_prologue(l->name, &body_len))
			continue;
		at = bsearch(&want, keys, nk, sizeof(*keys), cmp_key);
		/* one object per address at most in a run; another run's at another */
		while (at && at > keys && !cmp_key(at - 1, &want))
			at--;
		for (; at && at < keys + nk && !cmp_key(at, &want); at++) {
			struct stream_object *b = &s->objects[at->obj];

			/* (a prologue joined already has its name in its body) */
			if (b->name && b->load_time >= l->load_time && strlen(b->name) == body_len &&
			    !strncmp(b->name, l->name, body_len))
				b->debug_from_start = true;
		}
	}
}

/*
 * The perf maps' BEAM prologues: each joined in front of its body (into,
 * gone, shift as for compact; *joined counted), or, with none, named as it.
 * In a run an address has one object at most, so (pid, path, addr) finds
 * the body.
 */
static int join_map_prologues(struct stream *s, uint32_t *into, bool *gone, uint64_t *shift, size_t *joined)
{
	struct key *keys = malloc(s->objects_nr * sizeof(*keys));
	size_t nk = 0;
	int ret = 0;

	if (!keys)
		return -ENOMEM;
	for (size_t i = 0; i < s->objects_nr; i++)
		if (map_beam(&s->objects[i]))
			keys[nk++] = (struct key){ s->objects[i].pid, s->objects[i].path, s->objects[i].addr,
						   (uint32_t)i };
	qsort(keys, nk, sizeof(*keys), cmp_key);
	for (size_t k = 0; k < nk && !ret; k++) {
		uint32_t pi = keys[k].obj;
		struct stream_object *p = &s->objects[pi];
		struct key want = { p->pid, p->path, p->addr + p->size, 0 };
		const struct key *at;
		size_t body_len;

		if (gone[pi] || !beam__is_prologue(p->name, &body_len))
			continue;
		at = bsearch(&want, keys, nk, sizeof(*keys), cmp_key);
		while (at && at > keys && !cmp_key(at - 1, &want))
			at--;
		for (; at && at < keys + nk && !cmp_key(at, &want); at++)
			if (!gone[at->obj] && map_body_of(p, body_len, &s->objects[at->obj]))
				break;
		if (at && at < keys + nk && !cmp_key(at, &want)) {
			uint32_t bi = at->obj;

			ret = take_map_prologue(&s->objects[bi], p);
			gone[pi] = !ret;
			into[pi] = bi;
			shift[bi] = s->objects[bi].joined_bytes;
			*joined += !ret;
		} else {
			ret = name_lone_map_prologue(p, body_len);
		}
	}
	free(keys);
	return ret;
}

/* Whether any object or load is a prologue: else nothing is allocated (the
 * heap as it was: Graphviz lays parallel edges out by address). */
static bool any_prologue(const struct stream *s)
{
	size_t n;

	for (size_t i = 0; i < s->objects_nr; i++)
		if ((s->objects[i].kind == HB_KIND_JIT || map_beam(&s->objects[i])) &&
		    beam__is_prologue(s->objects[i].name, &n))
			return true;
	for (size_t i = 0; i < s->loads_nr; i++)
		if (beam__is_prologue(s->loads[i].name, &n))
			return true;
	return false;
}

int stream_join__functions(struct stream *s)
{
	struct key *keys = NULL;
	uint32_t *into = NULL;
	uint64_t *shift = NULL;
	bool *gone = NULL;
	size_t nk = 0, joined = 0;
	int ret = -ENOMEM;

	if (!s->objects_nr || !any_prologue(s))
		return 0;
	keys = malloc(s->objects_nr * sizeof(*keys));
	into = malloc(s->objects_nr * sizeof(*into));
	shift = calloc(s->objects_nr, sizeof(*shift));
	gone = calloc(s->objects_nr, sizeof(*gone));
	if (!keys || !into || !shift || !gone)
		goto out;
	for (size_t i = 0; i < s->objects_nr; i++) {
		const struct stream_object *o = &s->objects[i];

		if (o->kind == HB_KIND_JIT && o->path)
			keys[nk++] = (struct key){ o->pid, o->path, o->code_index, (uint32_t)i };
	}
	if (join_map_prologues(s, into, gone, shift, &joined))
		goto out;
	qsort(keys, nk, sizeof(*keys), cmp_key);
	for (size_t k = 0; k + 1 < nk; k++) {
		uint32_t pi = keys[k].obj, bi = keys[k + 1].obj;
		struct stream_object *p = &s->objects[pi], *b = &s->objects[bi];
		size_t body_len;

		if (!whole(p) || !beam__is_prologue(p->name, &body_len) || !body_of(p, body_len, b))
			continue;
		if (take_prologue(b, p))
			goto out;
		gone[pi] = true;
		into[pi] = bi;
		shift[bi] = b->joined_bytes;
		joined++;
	}
	mark_lone_bodies(s, keys, nk);
	ret = joined ? compact(s, into, gone, shift) : 0;
out:
	free(keys);
	free(into);
	free(shift);
	free(gone);
	return ret;
}

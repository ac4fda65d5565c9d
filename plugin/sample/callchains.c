// SPDX-License-Identifier: MIT
/* Callchain stacks (see callchains.h). */
#include <linux/perf_event.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/vec.h"
#include "callchains.h"

void callchains__init(struct callchains *cc, struct warnings *warnings)
{
	memset(cc, 0, sizeof(*cc));
	cc->warnings = warnings;
}

void callchains__release(struct callchains *cc)
{
	free(cc->v);
	free(cc->frames);
	idx_table_release(&cc->index);
	memset(cc, 0, sizeof(*cc));
}

static bool placed(const struct classify_verdict *v)
{
	return v->cls == HB_CLASS_JIT || v->cls == HB_CLASS_NATIVE || v->cls == HB_CLASS_PERFMAP;
}

/* The key looked up: the new stack, at the end of frames (not yet kept). */
struct stack_key {
	uint32_t ev;
	uint32_t nr;
	const struct stack_frame *f;
};

static bool stack_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct callchains *cc = ctx;
	const struct stack_count *e = &cc->v[idx];
	const struct stack_key *k = key;

	if (e->ev != k->ev || e->frames_nr != k->nr)
		return false;
	for (uint32_t i = 0; i < k->nr; i++)
		if (cc->frames[e->first + i].obj != k->f[i].obj || cc->frames[e->first + i].off != k->f[i].off)
			return false;
	return true;
}

static uint64_t stack_hash(const struct stack_key *k)
{
	uint64_t h = hash_u64(HASH_SEED, (uint64_t)k->ev << 32 | k->nr);

	for (uint32_t i = 0; i < k->nr; i++)
		h = hash_u64(hash_u64(h, k->f[i].obj), k->f[i].off);
	return h;
}

/* Append frame v (a class frame for one in no object; a kernel frame after a kernel frame is the same frame). */
static bool push(struct callchains *cc, size_t first, const struct classify_verdict *v, uint64_t off)
{
	struct stack_frame f = placed(v) ? (struct stack_frame){ v->obj, off } :
					   (struct stack_frame){ STACK_FRAME_CLASS, v->cls };
	size_t n = cc->frames_nr - first;

	if (!placed(v) && v->cls == HB_CLASS_KERNEL && n && cc->frames[cc->frames_nr - 1].obj == STACK_FRAME_CLASS &&
	    cc->frames[cc->frames_nr - 1].off == HB_CLASS_KERNEL)
		return true;
	if (n >= MAX_STACK_FRAMES) {
		if (!cc->cut_warned)
			warnings__add(cc->warnings, "a callchain has more than %u frames; its stack keeps the %u nearest the sample",
				      MAX_STACK_FRAMES, MAX_STACK_FRAMES);
		cc->cut_warned = true;
		return false;
	}
	if (VEC_GROW(cc->frames, cc->frames_nr + 1, cc->frames_alloc) < 0)
		return false;
	cc->frames[cc->frames_nr++] = f;
	return true;
}

void callchains__add(struct callchains *cc, struct classify *c, uint32_t ev, const struct perf_dlfilter_sample *s,
		     const struct classify_verdict *leaf, bool time_aware, void *ctx)
{
	size_t nr = s->raw_callchain ? (size_t)s->raw_callchain_nr : 0, first = cc->frames_nr;
	bool have_leaf = false, after_kernel = false, kernel = false, room = true;

	if (!nr)
		return;
	cc->any = true;
	for (size_t i = 0; i < nr && room; i++) {
		uint64_t ip = s->raw_callchain[i];
		struct classify_verdict v;

		if (ip >= PERF_CONTEXT_MAX) {
			/* a context marker: what follows is of that context */
			bool k = ip == PERF_CONTEXT_KERNEL || ip == PERF_CONTEXT_HV || ip == PERF_CONTEXT_GUEST_KERNEL;

			after_kernel = kernel && !k;
			kernel = k;
			continue;
		}
		if (!have_leaf) {
			/* the sample's ip itself: placed as the sample is */
			have_leaf = true;
			v = leaf->hold ? classify__address(c, s, ip, time_aware, ctx) : *leaf;
			room = push(cc, first, &v, v.off);
			continue;
		}
		if (kernel) {
			v = (struct classify_verdict){ .cls = HB_CLASS_KERNEL };
			room = push(cc, first, &v, 0);
			continue;
		}
		if (after_kernel) {
			/* where user code was interrupted: not a return address */
			after_kernel = false;
			v = classify__address(c, s, ip, time_aware, ctx);
			if (v.cls == HB_CLASS_KERNEL)
				v.cls = HB_CLASS_NO_MAP;
			room = push(cc, first, &v, v.off);
			continue;
		}
		/* a return address: the call is the byte before it */
		v = classify__address(c, s, ip - 1, time_aware, ctx);
		/* a user frame in the kernel's half: a frame pointer walk gone astray, as perf's [unknown] */
		if (v.cls == HB_CLASS_KERNEL)
			v.cls = HB_CLASS_NO_MAP;
		room = push(cc, first, &v, v.off + 1);
	}
	struct stack_key key = { .ev = ev, .nr = (uint32_t)(cc->frames_nr - first), .f = cc->frames + first };

	if (!key.nr)
		return;
	uint64_t h = stack_hash(&key);
	long i = idx_table_find(&cc->index, h, stack_eq, &key, cc);

	if (i >= 0) {
		cc->frames_nr = first;	/* kept already */
		cc->v[i].samples++;
		cc->v[i].period += s->period;
		return;
	}
	if (cc->nr >= MAX_STACKS || VEC_GROW(cc->v, cc->nr + 1, cc->alloc) < 0 ||
	    idx_table_add(&cc->index, h, (uint32_t)cc->nr) < 0) {
		if (!cc->full_warned)
			warnings__add(cc->warnings, "stack table full (%u distinct stacks); the samples of further new ones are in no stack",
				      MAX_STACKS);
		cc->full_warned = true;
		cc->frames_nr = first;
		return;
	}
	cc->v[cc->nr++] = (struct stack_count){ .ev = ev, .frames_nr = key.nr, .first = first, .samples = 1,
						.period = s->period };
}

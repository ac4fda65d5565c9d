/* SPDX-License-Identifier: MIT */
/*
 * Branch targets as wasmprinter prints them (its relative_depth()): the
 * target label's name, unless a deeper open label has the same name (the
 * name would resolve to that one); else the depth, with the target's "@N"
 * when it is a block (not the function).
 *
 * Which label name is shadowed must not cost a walk over the inner labels
 * for every branch: deep nesting with many branches would be O(depth x
 * branches). x->shadow mirrors the open labels, with each one's name and,
 * per distinct name, the innermost position holding it. Label indexes are
 * handed out once each per function body in textual order, so the mirror
 * stays right where its entries match x->labels and is brought up to date by
 * popping and pushing only what changed: O(1) amortized per label and per
 * branch.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "wasm-read.h"

static bool shadow_name_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct label_shadow *sh = ctx;
	const struct naming *a = sh->names[idx].n, *b = key;

	return a->len == b->len && !memcmp(a->s, b->s, a->len);
}

/* The entry of name n's text in sh->names (added when new), or NULL. */
static struct label_shadow_name *shadow_name(struct label_shadow *sh, const struct naming *n)
{
	uint64_t h = hash_bytes(HASH_SEED, n->s, n->len);
	long i = idx_table_find(&sh->by_name, h, shadow_name_eq, n, sh);

	if (i >= 0)
		return &sh->names[i];
	if (VEC_GROW(sh->names, sh->nr_names + 1, sh->names_alloc) ||
	    idx_table_add(&sh->by_name, h, (uint32_t)sh->nr_names))
		return NULL;
	sh->names[sh->nr_names] = (struct label_shadow_name){ n, -1 };
	return &sh->names[sh->nr_names++];
}

void wasm_labels__reset(struct modctx *x)
{
	struct label_shadow *sh = &x->shadow;

	sh->nr = sh->nr_names = 0;
	idx_table_clear(&sh->by_name);
	sh->valid = false;
}

void wasm_labels__release(struct modctx *x)
{
	struct label_shadow *sh = &x->shadow;

	free(sh->ids);
	free(sh->name);
	free(sh->prev);
	free(sh->names);
	idx_table_release(&sh->by_name);
	memset(sh, 0, sizeof(*sh));
}

/* Bring the mirror up to x's open labels; false when out of memory (then unusable). */
static bool shadow_sync(struct modctx *x)
{
	struct label_shadow *sh = &x->shadow;
	const struct name_map *m = &x->names[NK_LABEL];
	size_t p;

	/* Reset at every body's start; this guards against anything else. */
	if (!sh->valid || sh->func != x->func || sh->names_v != m->v || sh->names_nr != m->nr) {
		wasm_labels__reset(x);
		sh->valid = true;
		sh->func = x->func;
		sh->names_v = m->v;
		sh->names_nr = m->nr;
	}
	p = sh->nr < x->nr_labels ? sh->nr : x->nr_labels;
	while (p > 0 && sh->ids[p - 1] != x->labels[p - 1])
		p--;
	for (; sh->nr > p; sh->nr--) {
		const struct naming *n = sh->name[sh->nr - 1];
		struct label_shadow_name *e = n ? shadow_name(sh, n) : NULL;

		if (e)
			e->top = sh->prev[sh->nr - 1];
	}
	if (x->nr_labels > sh->alloc) {
		size_t alloc = sh->alloc, a2 = alloc, a3 = alloc;

		if (VEC_GROW(sh->ids, x->nr_labels, alloc) || VEC_GROW(sh->name, x->nr_labels, a2) ||
		    VEC_GROW(sh->prev, x->nr_labels, a3)) {
			sh->valid = false;
			return false;
		}
		sh->alloc = alloc < a2 ? (alloc < a3 ? alloc : a3) : (a2 < a3 ? a2 : a3);
	}
	for (; sh->nr < x->nr_labels; sh->nr++) {
		uint32_t id = x->labels[sh->nr];
		const struct naming *n = name_map__find(m, x->func, id);
		struct label_shadow_name *e = NULL;

		if (n && !(e = shadow_name(sh, n))) {
			sh->valid = false;
			return false;
		}
		sh->ids[sh->nr] = id;
		sh->name[sh->nr] = n;
		sh->prev[sh->nr] = e ? e->top : -1;
		if (e)
			e->top = (long)sh->nr;
	}
	return true;
}

void wasm_labels__put_depth(struct modctx *x, uint32_t d)
{
	struct strbuf *b = &x->out;
	const struct naming *name = NULL;
	uint32_t i;
	bool conflict = false;

	strbuf_addch(b, ' ');
	if (x->depth < 0 || d > (uint32_t)x->depth) {
		strbuf_addu(b, d);
		strbuf_addstr(b, " (; INVALID ;)");
		return;
	}
	i = (uint32_t)x->depth - d;
	if (i >= 1 && i - 1 < x->nr_labels)
		name = name_map__find(&x->names[NK_LABEL], x->func, x->labels[i - 1]);
	const struct label_shadow_name *e =
		name && shadow_sync(x) ? shadow_name(&x->shadow, name) : NULL;

	if (e) {
		/* Shadowed when an inner label (a later position) has the same name. */
		conflict = e->top != (long)(i - 1);
	} else if (name) {
		/* Out of memory for the mirror: the walk gives the same answer. */
		for (size_t j = i; j < x->nr_labels && !conflict; j++) {
			const struct naming *o =
				name_map__find(&x->names[NK_LABEL], x->func, x->labels[j]);

			conflict = o && o->len == name->len && !memcmp(o->s, name->s, o->len);
		}
	}
	if (name && !conflict) {
		wasm_names__put_name(b, name, NK_LABEL);
		return;
	}
	strbuf_addu(b, d);
	if (!conflict && i > 0)
		strbuf_addf(b, " (;@%" PRIu32 ";)", i);
}

int wasm_labels__push(struct modctx *x, const uint8_t *at)
{
	if (VEC_GROW(x->labels, x->nr_labels + 1, x->alloc_labels))
		return wasm_read__fail(x->ps, at, -ENOMEM, "out of memory");
	x->labels[x->nr_labels++] = x->label;
	return 0;
}

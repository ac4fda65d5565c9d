/* SPDX-License-Identifier: MIT */
/*
 * Matching two compilations, their functions: by identity, then as one
 * function of a wasm module, then by name (diff.h); hottest with hottest
 * among equals. Their blocks are diff-match-blocks.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/v8/v8-name.h"
#include "diff-match.h"
#include "lib/strbuf.h"
#include "report/report-tiers.h"
#include "stream/code-name.h"

size_t diff__identity(char *buf, size_t len, enum hb_object_kind kind, const char *name,
		      const char *dso, bool with_location)
{
	const char *base = dso ? strrchr(dso, '/') : NULL;
	size_t out;

	if (!len)
		return 0;
	if (kind == HB_KIND_JIT)
		return v8_name__identity(buf, len, name, with_location);
	/* A symbol of a file: the same library may sit at another path. */
	base = base ? base + 1 : dso ? dso : "";
	if (!with_location)
		base = "";
	out = (size_t)snprintf(buf, len, "%s%s%s", base, *base ? " " : "", name);
	return out < len ? out : len - 1;
}

/* The levels of pairing, in order (diff_func_match). */
enum { LVL_IDENTITY, LVL_WASM, LVL_NAME, LVL__NR };

struct fentry {
	const char *key[LVL__NR];	/* its key at each level, or NULL: none there */
	const char *tier;		/* without the location, with V8's tier marks:
					 * "*work", "work-1-turbofan" */
	/* While the keys are made: where each starts in the keys' arena
	 * (SIZE_MAX: none), made pointers once the arena is complete. */
	size_t key_at[LVL__NR], tier_at;
	const char *raw;		/* the stream's name */
	const char *kind;		/* its wire name */
	int32_t wasm_func;		/* its wasm function index, or -1 */
	uint64_t samples;
	uint32_t obj;
	int side;
	bool paired;
	const char *sort_key;		/* the key of the level being paired */
	/* A tier of a V8 wasm function (report-tiers.h), or NULL; and the
	 * length of its name without it. The function's tiers of one side are
	 * one entry, the hottest: samples their sum, its others in next_tier
	 * (hottest first), each of them folded. */
	const char *wasm_tier;
	size_t base_len;
	uint64_t own_samples;		/* its own, before the fold */
	struct fentry *next_tier;
	bool folded;
};

static int fentry_cmp(const void *a, const void *b)
{
	const struct fentry *x = *(const struct fentry *const *)a;
	const struct fentry *y = *(const struct fentry *const *)b;
	int c = strcmp(x->sort_key, y->sort_key);

	if (c)
		return c;
	if (x->side != y->side)
		return x->side - y->side;
	if ((c = strcmp(x->tier, y->tier)))
		return c;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->obj < y->obj ? -1 : x->obj > y->obj;
}

static int by_heat(const void *a, const void *b)
{
	const struct fentry *x = *(const struct fentry *const *)a;
	const struct fentry *y = *(const struct fentry *const *)b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (x->side != y->side)
		return x->side - y->side;
	return x->obj < y->obj ? -1 : x->obj > y->obj;
}

/* s (malloc()ed) kept as a name of d's own, or NULL when out of memory (s freed). */
static const char *own_name(struct diff *d, char *s)
{
	if (!s || VEC_GROW(d->names, d->names_nr + 1, d->names_alloc)) {
		free(s);
		return NULL;
	}
	return d->names[d->names_nr++] = s;
}

/* The tier of the tiers of e (a folded function's) named tier, or NULL. */
static const struct fentry *tier_of(const struct fentry *e, const char *tier)
{
	for (; e; e = e->next_tier)
		if (!strcmp(e->wasm_tier, tier))
			return e;
	return NULL;
}

/*
 * f's tiers on side s, from e (a folded function's entry): listed in
 * d->tiers, and the function named without the tier.
 */
static int add_tiers(struct diff *d, struct diff_func *f, int s, const struct fentry *e)
{
	char *raw;

	f->first_tier[s] = d->tiers_nr;
	for (const struct fentry *t = e; t; t = t->next_tier) {
		if (VEC_GROW(d->tiers, d->tiers_nr + 1, d->tiers_alloc))
			return -ENOMEM;
		d->tiers[d->tiers_nr++] = (struct diff_tier){ t->obj, t->wasm_tier, t->raw,
							     t->own_samples };
		f->tiers_nr[s]++;
	}
	if (!(raw = malloc(e->base_len + 1)))
		return -ENOMEM;
	memcpy(raw, e->raw, e->base_len);
	raw[e->base_len] = '\0';
	if (!(f->raw_name[s] = f->name[s] = own_name(d, raw)))
		return -ENOMEM;
	return 0;
}

/* The blocks compared of a pair of folded functions: those of the tier
 * both sides have with the most samples, else each side's hottest. */
static void compared_tier(struct diff_func *f, const struct fentry *b, const struct fentry *n)
{
	const struct fentry *best[DIFF__SIDES] = { NULL, NULL };
	uint64_t most = 0;

	for (const struct fentry *t = b; t; t = t->next_tier) {
		const struct fentry *o = tier_of(n, t->wasm_tier);

		if (o && (!best[0] || t->own_samples + o->own_samples > most)) {
			best[0] = t, best[1] = o;
			most = t->own_samples + o->own_samples;
		}
	}
	if (best[0])
		f->obj[DIFF_BASE] = best[0]->obj, f->obj[DIFF_NEW] = best[1]->obj;
}

static int add_func(struct diff *d, const struct fentry *b, const struct fentry *n,
		    enum diff_func_match m)
{
	struct diff_func *f;
	int ret;

	if (VEC_GROW(d->funcs, d->funcs_nr + 1, d->funcs_alloc))
		return -ENOMEM;
	f = &d->funcs[d->funcs_nr++];
	*f = (struct diff_func){ .f = { -1, -1 }, .obj = { UINT32_MAX, UINT32_MAX }, .match = m,
				 .wasm_func = -1 };
	for (int s = 0; s < DIFF__SIDES; s++) {
		const struct fentry *e = s == DIFF_BASE ? b : n;

		if (!e)
			continue;
		f->obj[s] = e->obj;
		f->name[s] = e->raw;
		f->raw_name[s] = e->raw;
		f->kind[s] = e->kind;
		f->samples[s] = e->samples;
		if (e->wasm_tier && (ret = add_tiers(d, f, s, e)))
			return ret;
	}
	if (b && n && b->wasm_tier && n->wasm_tier)
		compared_tier(f, b, n);
	if (m == DIFF_FUNC_WASM)
		f->wasm_func = b->wasm_func;
	return 0;
}

/*
 * Pair the entries of one key: base[0..nb), new[0..nn), each sorted by tier
 * key, then hottest first. The same tier of the function first (TurboFan
 * code with TurboFan code), then whatever is left, hottest with hottest.
 */
static int pair_group(struct diff *d, struct fentry **base, size_t nb,
		      struct fentry **nw, size_t nn, enum diff_func_match m)
{
	size_t i = 0, j = 0, lb = 0, ln = 0;
	int ret;

	while (i < nb && j < nn) {
		int c = strcmp(base[i]->tier, nw[j]->tier);

		if (c < 0) {
			i++;
		} else if (c > 0) {
			j++;
		} else {
			if ((ret = add_func(d, base[i], nw[j], m)))
				return ret;
			base[i++]->paired = nw[j++]->paired = true;
		}
	}
	/* what is left, hottest first, pairwise */
	for (i = 0; i < nb; i++)
		if (!base[i]->paired)
			base[lb++] = base[i];
	for (j = 0; j < nn; j++)
		if (!nw[j]->paired)
			nw[ln++] = nw[j];
	qsort(base, lb, sizeof(*base), by_heat);
	qsort(nw, ln, sizeof(*nw), by_heat);
	for (i = 0; i < lb && i < ln; i++) {
		if ((ret = add_func(d, base[i], nw[i], m)))
			return ret;
		base[i]->paired = nw[i]->paired = true;
	}
	return 0;
}

static int pair_level(struct diff *d, struct fentry **all, size_t nr, int lvl)
{
	static const enum diff_func_match match[LVL__NR] = {
		[LVL_IDENTITY] = DIFF_FUNC_IDENTITY, [LVL_WASM] = DIFF_FUNC_WASM,
		[LVL_NAME] = DIFF_FUNC_NAME,
	};
	struct fentry **v = malloc((nr ? nr : 1) * sizeof(*v));
	size_t n = 0, i, j;
	int ret = 0;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		if (!all[i]->paired && all[i]->key[lvl]) {
			all[i]->sort_key = all[i]->key[lvl];
			v[n++] = all[i];
		}
	qsort(v, n, sizeof(*v), fentry_cmp);
	for (i = 0; i < n && !ret; i = j) {
		size_t k;

		for (j = i + 1; j < n && !strcmp(v[j]->key[lvl], v[i]->key[lvl]); j++)
			;
		for (k = i; k < j && v[k]->side == DIFF_BASE; k++)
			;
		if (k > i && k < j)
			ret = pair_group(d, v + i, k - i, v + k, j - k, match[lvl]);
	}
	free(v);
	return ret;
}

/* What a function of a wasm module is, when its names say: index, module, name. */
struct wasm_id {
	int module, func;		/* -1: not known */
	const char *name;		/* its name-section name, or NULL */
	size_t name_len;
	const char *symbol;		/* wasmtime's symbol wasm[M]::function[F][::NAME], or NULL */
};

/*
 * Which wasm function an object is, from the names it has: a .cwasm's
 * symbol (an object of kind cwasm, or JIT code --cwasm matched to one),
 * wasmtime's name of an unnamed function (wasm[M]::function[F]), or V8's
 * (JS:NAME-F-TIER). False when none says.
 */
static bool wasm_function(const struct diff_work_side *w, uint32_t obj, struct wasm_id *id)
{
	const struct stream_object *o = &w->stream->objects[obj];
	const char *sym = NULL;

	*id = (struct wasm_id){ -1, -1, NULL, 0, NULL };
	if (o->kind == HB_KIND_CWASM) {
		sym = o->name;
	} else if (o->kind == HB_KIND_JIT) {
		/* only wasmtime's artifacts make JIT code a wasm function: no
		 * annotation of every JIT function without them */
		const struct annot_func *af = w->annot && annotator__wasm_inputs(w->annot) ?
					      annotator__func(w->annot, w->stream, obj) : NULL;

		sym = af && af->wasm && af->symbol ? af->symbol : o->name;
	}
	if (sym && code_name__wasm_symbol(sym, &id->module, &id->func, &id->name)) {
		id->name_len = id->name ? strlen(id->name) : 0;
		id->name = id->name_len ? id->name : NULL;
		id->symbol = sym;
		return true;
	}
	if (o->kind == HB_KIND_JIT && v8_name__wasm(o->name, &id->func, &id->name, &id->name_len))
		return true;
	id->module = id->func = -1;
	return false;
}

/* s[0..len) and a NUL at the end of the arena; where it starts. */
static size_t keep_key(struct strbuf *arena, const char *s, size_t len)
{
	size_t at = arena->len;

	strbuf_add(arena, s, len);
	strbuf_addch(arena, '\0');
	return at;
}

/*
 * An object's keys: identity, wasm function and name (diff.h, diff_func_match),
 * and its tier name, into arena: one block, not a string each (four strings
 * for each of the 100k functions of two big profiles, freed before the sides
 * are ranked, left the heap too scattered to give the room back).
 */
static void make_keys(struct fentry *x, const struct diff_work_side *w, uint32_t obj,
		      struct strbuf *arena)
{
	const struct stream_object *o = &w->stream->objects[obj];
	struct wasm_id id;
	char key[1024];
	bool wasm = wasm_function(w, obj, &id);
	char fam = code_name__family(o->kind);

	x->wasm_func = wasm ? id.func : -1;
	/* Identity. The family leads the key: JIT code never pairs with a
	 * symbol. A wasmtime function is its .cwasm symbol, seen in the mapped
	 * file or through the jitdump (one code, code-name.h). */
	if (id.symbol)
		snprintf(key, sizeof(key), "W%s", id.symbol);
	else
		diff__identity(key + 1, sizeof(key) - 1, o->kind, o->name, o->path, true),
			key[0] = fam;
	x->key_at[LVL_IDENTITY] = keep_key(arena, key, strlen(key));
	/* The wasm function: its index, and its name when known (V8 has no
	 * module index: one module's functions) */
	x->key_at[LVL_WASM] = SIZE_MAX;
	if (wasm) {
		snprintf(key, sizeof(key), "%d:%.*s", id.func, (int)id.name_len,
			 id.name ? id.name : "");
		x->key_at[LVL_WASM] = keep_key(arena, key, strlen(key));
	}
	/* The name: a wasm function's name-section name, whichever engine;
	 * else the identity without the location. */
	if (wasm && id.name)
		snprintf(key, sizeof(key), "%c%.*s", fam, (int)id.name_len, id.name);
	else
		diff__identity(key + 1, sizeof(key) - 1, o->kind, o->name, o->path, false),
			key[0] = fam;
	x->key_at[LVL_NAME] = keep_key(arena, key, strlen(key));
	/* the name up to a JIT's location, tier marks kept */
	x->tier_at = keep_key(arena, o->name, o->kind == HB_KIND_JIT ? strcspn(o->name, " ") :
								   strlen(o->name));
}

/* Tiers of one function of one side together: side, identity, then hottest. */
static int tier_cmp(const void *a, const void *b)
{
	const struct fentry *x = *(const struct fentry *const *)a;
	const struct fentry *y = *(const struct fentry *const *)b;
	int c;

	if (x->side != y->side)
		return x->side - y->side;
	if ((c = strcmp(x->key[LVL_IDENTITY], y->key[LVL_IDENTITY])))
		return c;
	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->obj < y->obj ? -1 : x->obj > y->obj;
}

/*
 * A V8 wasm function's tiers of a side made one entry (report-tiers.h): the
 * hottest, with their samples summed, the others folded into it. The
 * identity key has no tier (v8_name__identity).
 */
static int fold_tiers(struct fentry **all, size_t nr)
{
	struct fentry **v = malloc((nr ? nr : 1) * sizeof(*v));
	size_t n = 0, i, j;

	if (!v)
		return -ENOMEM;
	for (i = 0; i < nr; i++)
		if (all[i]->wasm_tier)
			v[n++] = all[i];
	qsort(v, n, sizeof(*v), tier_cmp);
	for (i = 0; i < n; i = j) {
		struct fentry *last = v[i];

		for (j = i + 1; j < n && v[j]->side == v[i]->side &&
				!strcmp(v[j]->key[LVL_IDENTITY], v[i]->key[LVL_IDENTITY]); j++) {
			v[i]->samples = sat_add(v[i]->samples, v[j]->samples);
			v[j]->folded = v[j]->paired = true;
			last = last->next_tier = v[j];
		}
	}
	free(v);
	return 0;
}

int diff_match__funcs(struct diff *d)
{
	struct fentry *e = NULL, **p = NULL;
	struct strbuf arena = { 0 };
	size_t nr = 0, i;
	int ret = -ENOMEM;

	for (int s = 0; s < DIFF__SIDES; s++)
		for (i = 0; i < d->work->side[s].stream->objects_nr; i++)
			nr += d->work->side[s].obj_samples[i] != 0;
	e = malloc((nr ? nr : 1) * sizeof(*e));
	p = malloc((nr ? nr : 1) * sizeof(*p));
	if (!e || !p)
		goto out;
	nr = 0;
	for (int s = 0; s < DIFF__SIDES; s++) {
		const struct diff_work_side *w = &d->work->side[s];
		const struct stream *st = w->stream;

		for (i = 0; i < st->objects_nr; i++) {
			const struct stream_object *o = &st->objects[i];

			if (!w->obj_samples[i])
				continue;
			e[nr] = (struct fentry){ .raw = o->name, .kind = stream__kind_name(o->kind),
						 .samples = w->obj_samples[i], .obj = (uint32_t)i, .side = s,
						 .own_samples = w->obj_samples[i] };
			if (!d->opts.tiers_apart)
				e[nr].wasm_tier = report_tiers__of(o->name, o->kind == HB_KIND_JIT,
								   &e[nr].base_len);
			make_keys(&e[nr++], w, (uint32_t)i, &arena);
		}
	}
	if (arena.oom)
		goto out;
	for (i = 0; i < nr; i++) {
		for (int l = 0; l < LVL__NR; l++)
			e[i].key[l] = e[i].key_at[l] == SIZE_MAX ? NULL : arena.buf + e[i].key_at[l];
		e[i].tier = arena.buf + e[i].tier_at;
		p[i] = &e[i];
	}
	if ((ret = fold_tiers(p, nr)))
		goto out;
	for (int l = 0; l < LVL__NR; l++)
		if ((ret = pair_level(d, p, nr, l)))
			goto out;
	/* the rest: on one side only */
	for (i = 0; i < nr; i++) {
		if (e[i].paired || e[i].folded)
			continue;
		ret = add_func(d, e[i].side == DIFF_BASE ? &e[i] : NULL,
			       e[i].side == DIFF_NEW ? &e[i] : NULL, DIFF_FUNC_NONE);
		if (ret)
			goto out;
	}
	ret = 0;
out:
	strbuf_release(&arena);
	free(e);
	free(p);
	return ret;
}

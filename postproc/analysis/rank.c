/* SPDX-License-Identifier: MIT */
/* Fold one event's samples into the blocks of each sampled object, rank and select them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../plugin/lib/bsearch.h"
#include "rank-fold.h"
#include "rank.h"

size_t rank__threshold(const uint64_t *counts, size_t nr, uint64_t total, double percent,
		       size_t top)
{
	uint64_t printed = 0;
	size_t i;

	for (i = 0; i < nr && i < top; i++) {
		/* Same float expression as hot_blocks.rs: with total 0 it is NaN (never
		 * stops) before the first block and inf after it, as in the reference. */
		if ((double)printed / (double)total * 100.0 >= percent)
			break;
		printed = sat_add(printed, counts[i]);
	}
	return i;
}

/* qsort is not stable: the comparison itself carries every tie-break. */
static int block_cmp(const void *a, const void *b)
{
	const struct rank_block *x = a, *y = b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return 0;
}

void rank__sort(struct rank_block *blocks, size_t nr)
{
	if (nr)
		qsort(blocks, nr, sizeof(*blocks), block_cmp);
}

void rank__input(const struct rank *r, size_t fi, struct cfg_input *in)
{
	rank_fold__input(&r->stream->objects[r->funcs[fi].obj], in);
}

/* The room of rank's growing arrays. */
struct allocs {
	size_t blocks, sums, insns, targets;
};

/* f (funcs[fi]), folded into fo, joins the ranking: its tallies, its sampled
 * blocks. In the order objects are taken, whatever thread folded them. */
static int join(struct rank *r, size_t fi, struct folded *fo, struct allocs *al)
{
	struct rank_func *f = &r->funcs[fi];

	switch (f->status) {
	case RANK_FAILED:
		if (!r->failed_objects)
			r->failed_error = f->error;
		r->failed_objects++;
		r->failed_samples = sat_add(r->failed_samples, f->samples);
		return 0;
	default:
		break;
	}
	r->unaligned_samples = sat_add(r->unaligned_samples, f->unaligned);
	r->outside_samples = sat_add(r->outside_samples, f->outside);
	if (!fo->sums_nr)
		return 0;
	if (r->blocks_nr + fo->sums_nr >= UINT32_MAX ||
	    VEC_GROW(r->blocks, r->blocks_nr + fo->sums_nr, al->blocks) ||
	    VEC_GROW(r->sums, r->sums_nr + fo->sums_nr, al->sums) ||
	    VEC_GROW(r->insns, r->insns_nr + fo->insns_nr, al->insns) ||
	    VEC_GROW(r->targets, r->targets_nr + fo->targets_nr, al->targets))
		return -ENOMEM;
	f->first_sum = r->sums_nr;
	f->sums_nr = fo->sums_nr;
	for (size_t k = 0; k < fo->sums_nr; k++) {
		struct rank_sum *sum = &r->sums[r->sums_nr];

		*sum = fo->sums[k];
		sum->first_insn += r->insns_nr;
		sum->first_target += r->targets_nr;
		r->blocks[r->blocks_nr++] = (struct rank_block){
			.func = (uint32_t)fi, .block = sum->block, .start = sum->start,
			.sum = (uint32_t)r->sums_nr, .samples = sum->samples,
		};
		r->sums_nr++;
	}
	/* (none: the arrays may not exist yet, and memcpy takes no NULL) */
	if (fo->insns_nr)
		memcpy(r->insns + r->insns_nr, fo->insns, fo->insns_nr * sizeof(*fo->insns));
	r->insns_nr += fo->insns_nr;
	if (fo->targets_nr)
		memcpy(r->targets + r->targets_nr, fo->targets, fo->targets_nr * sizeof(*fo->targets));
	r->targets_nr += fo->targets_nr;
	return 0;
}

/*
 * Fold funcs[which[0..nr)] (rank-fold.h), then join them in that order: the
 * ranking is the same however they were folded.
 */
static int fold_batch(struct rank *r, const size_t *which, size_t nr, bool no_insns, struct allocs *al)
{
	struct folded *out = calloc(nr ? nr : 1, sizeof(*out));
	int *ret = calloc(nr ? nr : 1, sizeof(*ret)), err = -ENOMEM;

	if (out && ret) {
		rank_fold__batch(r->stream, r->event, r->funcs, which, nr, no_insns, out, ret);
		err = 0;
		for (size_t k = 0; k < nr && !err; k++)
			err = ret[k] ? ret[k] : join(r, which[k], &out[k], al);
	}
	if (out)
		rank_fold__release(out, nr);
	free(out);
	free(ret);
	return err;
}

/* How many of the ranked r->blocks pass the threshold and --top. */
static size_t shown_count(const struct rank *r, const struct rank_opts *o, uint64_t *scratch)
{
	if (o->no_threshold)
		return o->top < r->blocks_nr ? o->top : r->blocks_nr;
	for (size_t i = 0; i < r->blocks_nr; i++)
		scratch[i] = r->blocks[i].samples;
	return rank__threshold(scratch, r->blocks_nr, r->percent_of, o->percent, o->top);
}

/*
 * Hottest first; ties in object order, as the final ranking breaks them. The
 * one comparison of functions: every output lists them in this order.
 */
static int func_heat_cmp(const void *a, const void *b)
{
	const struct rank_func *x = *(const struct rank_func *const *)a;
	const struct rank_func *y = *(const struct rank_func *const *)b;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->obj < y->obj ? -1 : x->obj > y->obj;
}

/* r->by_heat: sorted through pointers, so the comparison needs no context. */
static int order_by_heat(struct rank *r)
{
	const struct rank_func **p = malloc((r->funcs_nr ? r->funcs_nr : 1) * sizeof(*p));
	size_t i;

	r->by_heat = malloc((r->funcs_nr ? r->funcs_nr : 1) * sizeof(*r->by_heat));
	if (!p || !r->by_heat) {
		free(p);
		return -ENOMEM;
	}
	for (i = 0; i < r->funcs_nr; i++)
		p[i] = &r->funcs[i];
	qsort(p, r->funcs_nr, sizeof(*p), func_heat_cmp);
	for (i = 0; i < r->funcs_nr; i++)
		r->by_heat[i] = (size_t)(p[i] - r->funcs);
	free(p);
	return 0;
}

/*
 * r->funcs: every object with samples of the event, in object order, and how
 * --function matches it (*best: the strongest match of any); r->attributed
 * and r->jit. Returns 0 or -ENOMEM.
 */
static int add_funcs(struct rank *r, const struct rank_opts *o, enum name_match *best)
{
	const struct stream *s = r->stream;
	size_t alloc = 0;

	for (size_t i = 0; i < s->objects_nr; i++) {
		const struct stream_object *obj = &s->objects[i];
		const struct stream_sample *smp;
		struct rank_func *f;
		uint64_t sum = 0;
		size_t nr;

		smp = rank_fold__event_samples(obj, r->event, &nr);
		for (size_t j = 0; j < nr; j++)
			sum = sat_add(sum, smp[j].samples);
		if (!sum)
			continue;
		if (VEC_GROW(r->funcs, r->funcs_nr + 1, alloc))
			return -ENOMEM;
		f = &r->funcs[r->funcs_nr++];
		memset(f, 0, sizeof(*f));
		f->obj = i;
		f->samples = sum;
		f->status = RANK_SKIPPED;
		if (o->function) {
			enum name_match m = name_match(o->function, obj->name);

			if (o->alt_names) {
				enum name_match a = name_match(o->function, o->alt_names[i]);

				if (a > m)
					m = a;
			}
			f->match = m;
			if (m > *best)
				*best = m;
		}
		r->attributed = sat_add(r->attributed, sum);
		if (rank_fold__counts_as_jit(obj))
			r->jit = sat_add(r->jit, sum);
	}
	return 0;
}

/* Which functions are selected, and what the threshold is a percentage of:
 * of the samples the selection can put in blocks, when fewer than it asks. */
static void select_funcs(struct rank *r, const struct rank_opts *o, enum name_match best)
{
	const struct stream *s = r->stream;

	/* --function: the strongest way the name matches anything is used for all. */
	for (size_t i = 0; i < r->funcs_nr; i++)
		r->funcs[i].selected = (!o->function || (best != NAME_MATCH_NONE &&
							 r->funcs[i].match == best)) &&
				       (!o->select || o->select(o->select_arg, r->funcs[i].obj));
	r->function_match = best;
	for (size_t i = 0; i < r->funcs_nr; i++) {
		/* Counted here, not as objects are folded: the same under any -p. */
		if (!s->objects[r->funcs[i].obj].code_nr) {
			r->nocode_objects++;
			r->nocode_samples = sat_add(r->nocode_samples, r->funcs[i].samples);
		}
		if (r->funcs[i].selected)
			r->blockable = sat_add(r->blockable, r->funcs[i].samples);
	}
	if (!o->no_threshold && r->blockable < r->total &&
	    (double)r->blockable < o->percent / 100.0 * (double)r->total) {
		r->percent_of = r->blockable;
		r->percent_capped = true;
	}
}

/*
 * Disassemble the candidates (lazy: the selected functions only, objects
 * --function excludes are never disassembled) in batches of doubling size,
 * hottest first. Lazy, stop once the shown blocks are final: the threshold
 * stopped before the end of the candidates (or none are shown), and the
 * coldest shown block is hotter than the hottest object not yet
 * disassembled, whose blocks cannot outrank it. A tie is not enough: ties go
 * by object order. Returns 0 or a negative errno.
 */
static int fold_candidates(struct rank *r, const struct rank_opts *o, bool lazy)
{
	size_t *order = malloc(r->funcs_nr * sizeof(*order)), order_nr = 0, built = 0, batch = 1;
	struct allocs allocs = { 0 };
	uint64_t *scratch = NULL;
	int ret = -ENOMEM;

	if (!order || order_by_heat(r))
		goto out;
	for (size_t i = 0; i < r->funcs_nr; i++) {
		const struct rank_func *f = &r->funcs[r->by_heat[i]];

		if (lazy ? f->selected : !o->select || o->select(o->select_arg, f->obj))
			order[order_nr++] = r->by_heat[i];
	}
	while (built < order_nr) {
		size_t end = built + batch < order_nr ? built + batch : order_nr;

		ret = fold_batch(r, order + built, end - built, o->whole_only, &allocs);
		if (ret)
			goto out;
		built = end;
		batch *= 2;
		if (!lazy || built == order_nr)
			continue;
		ret = -ENOMEM;
		free(scratch);
		scratch = malloc((r->blocks_nr ? r->blocks_nr : 1) * sizeof(*scratch));
		if (!scratch)
			goto out;
		rank__sort(r->blocks, r->blocks_nr);

		size_t shown = shown_count(r, o, scratch);
		uint64_t next = r->funcs[order[built]].samples;

		if (shown < r->blocks_nr && (shown == 0 || r->blocks[shown - 1].samples > next))
			break;
	}
	ret = 0;
out:
	free(order);
	free(scratch);
	return ret;
}

/* The folded blocks ranked, and which are shown. Returns 0 or -ENOMEM. */
static int rank_blocks(struct rank *r, const struct rank_opts *o)
{
	uint64_t *scratch;

	rank__sort(r->blocks, r->blocks_nr);
	scratch = malloc((r->blocks_nr ? r->blocks_nr : 1) * sizeof(*scratch));
	if (!scratch)
		return -ENOMEM;
	for (size_t i = 0; i < r->blocks_nr; i++)
		r->sums[r->blocks[i].sum].rank = (uint32_t)(i + 1);
	r->shown_nr = shown_count(r, o, scratch);
	/* Say nothing of a cap that shows the same blocks as the reference's rule. */
	if (r->percent_capped && rank__threshold(scratch, r->blocks_nr, r->total, o->percent,
						 o->top) == r->shown_nr)
		r->percent_capped = false;
	for (size_t i = 0; i < r->shown_nr; i++)
		r->funcs[r->blocks[i].func].shown = true;
	free(scratch);
	return 0;
}

int rank__build(struct rank *r, const struct stream *s, long ev, const struct rank_opts *o)
{
	enum name_match best = NAME_MATCH_NONE;
	int ret;

	memset(r, 0, sizeof(*r));
	r->stream = s;
	r->event = ev;
	if (ev < 0)
		return 0;
	r->total = s->events[ev].samples[HB_CLASS_ALL];
	if (add_funcs(r, o, &best))
		return -ENOMEM;
	r->percent_of = r->total;
	if (!r->funcs_nr)
		return 0;
	select_funcs(r, o, best);
	ret = fold_candidates(r, o, !o->disassemble_all && !o->no_threshold);
	if (ret)
		return ret;
	for (size_t i = 0; i < r->funcs_nr; i++)
		r->skipped_objects += r->funcs[i].status == RANK_SKIPPED;
	return rank_blocks(r, o);
}

void rank__release(struct rank *r)
{
	for (size_t i = 0; i < r->funcs_nr; i++)
		free(r->funcs[i].error);
	free(r->funcs);
	free(r->by_heat);
	free(r->blocks);
	free(r->sums);
	free(r->insns);
	free(r->targets);
	memset(r, 0, sizeof(*r));
}

const struct stream_sample *rank__samples(const struct rank *r, size_t fi, size_t *nr)
{
	return rank_fold__event_samples(&r->stream->objects[r->funcs[fi].obj], r->event, nr);
}

uint64_t rank__samples_at(const struct rank *r, size_t fi, uint32_t off)
{
	const struct rank_func *f = &r->funcs[fi];
	const struct stream_sample *smp;
	size_t nr, i;

	/* one sample entry per offset (stream__merge_samples) */
	smp = rank_fold__event_samples(&r->stream->objects[f->obj], r->event, &nr);
	i = LOWER_BOUND(nr, k, smp[k].off < off);
	return i < nr && smp[i].off == off ? smp[i].samples : 0;
}

void rank__insn(const struct rank *r, const struct rank_sum *sum, uint32_t k, uint32_t *off,
		size_t *target, struct cfg_insn *insn)
{
	const struct rank_insn *ri = &r->insns[sum->first_insn + k];

	*insn = (struct cfg_insn){ *off, ri->size, ri->flags, 0, NULL };
	if (ri->flags & INSN_HAS_TARGET)
		insn->target = r->targets[(*target)++];
	*off += ri->size;
}

static int decode(const struct rank *r, size_t fi, unsigned flags, struct rank_decoded *d)
{
	const struct rank_func *f = &r->funcs[fi];
	const struct stream_object *obj = &r->stream->objects[f->obj];
	const struct stream_sample *smp;
	uint64_t unaligned = 0, outside = 0, row_max = 0;
	char err[256];
	size_t nr;
	int ret;

	memset(d, 0, sizeof(*d));
	if (f->status != RANK_DISASSEMBLED)
		return -EINVAL;
	ret = rank_fold__disassemble(obj, flags, &d->cfg, err, sizeof(err));
	if (ret)
		return ret == -ENOMEM ? ret : -EIO;
	if (d->cfg.insns_nr != f->insns_nr || d->cfg.blocks_nr != f->blocks_nr ||
	    d->cfg.code_end != f->code_end)
		return -EIO;
	d->insn_samples = calloc(f->insns_nr ? f->insns_nr : 1, sizeof(*d->insn_samples));
	d->block_samples = calloc(f->blocks_nr ? f->blocks_nr : 1, sizeof(*d->block_samples));
	d->block_rank = calloc(f->blocks_nr ? f->blocks_nr : 1, sizeof(*d->block_rank));
	if (!d->insn_samples || !d->block_samples || !d->block_rank)
		return -ENOMEM;
	smp = rank_fold__event_samples(obj, r->event, &nr);
	rank_fold__place(&d->cfg, smp, nr, d->insn_samples, d->block_samples, NULL, &unaligned, &outside,
		      &row_max);
	for (size_t k = 0; k < f->sums_nr; k++) {
		const struct rank_sum *sum = &r->sums[f->first_sum + k];

		if (sum->block >= f->blocks_nr || d->block_samples[sum->block] != sum->samples)
			return -EIO;
		d->block_rank[sum->block] = sum->rank;
	}
	return 0;
}

int rank__decode(const struct rank *r, size_t fi, struct rank_decoded *d)
{
	return decode(r, fi, 0, d);
}

int rank__decode_no_text(const struct rank *r, size_t fi, struct rank_decoded *d)
{
	return decode(r, fi, CFG_NO_TEXT, d);
}

void rank_decoded__release(struct rank_decoded *d)
{
	cfg_func__release(&d->cfg);
	free(d->insn_samples);
	free(d->block_samples);
	free(d->block_rank);
	memset(d, 0, sizeof(*d));
}

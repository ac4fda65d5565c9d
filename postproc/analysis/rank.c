/* SPDX-License-Identifier: MIT */
/* Fold one event's samples into the blocks of each sampled object, rank and select them. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

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

static bool counts_as_jit(const struct stream_object *obj)
{
	/* What the reference calls Wasm samples: JIT code and wasmtime's .cwasm
	 * images; code a perf map names is JIT code too. */
	return obj->kind == HB_KIND_JIT || obj->kind == HB_KIND_CWASM || !strcmp(obj->source, "perf-map");
}

/* The range of obj's samples for event ev (samples are sorted by (ev, off)). */
static const struct stream_sample *event_samples(const struct stream_object *obj, long ev,
						 size_t *nr)
{
	size_t i = 0, j;

	while (i < obj->samples_nr && obj->samples[i].ev < (uint64_t)ev)
		i++;
	for (j = i; j < obj->samples_nr && obj->samples[j].ev == (uint64_t)ev; j++)
		;
	*nr = j - i;
	/* An object may have no sample lines at all (samples NULL). */
	return i ? obj->samples + i : obj->samples;
}

/* Disassemble f's object and put each sample in its instruction and block. */
static int sum_samples(struct rank *r, struct rank_func *f, const struct stream_sample *smp, size_t nr)
{
	const struct stream_object *obj = &r->stream->objects[f->obj];
	uint32_t *seeds;
	uint64_t *weights;
	size_t i, nseeds = 0;
	char err[256];
	int ret;

	if (!obj->code_nr) {
		f->status = RANK_NO_CODE;
		r->nocode_objects++;
		r->nocode_samples = sat_add(r->nocode_samples, f->samples);
		return 0;
	}
	/* Every sampled offset, of any event, is an executed instruction start. */
	seeds = malloc((obj->samples_nr ? obj->samples_nr : 1) * sizeof(*seeds));
	weights = malloc((obj->samples_nr ? obj->samples_nr : 1) * sizeof(*weights));
	if (!seeds || !weights) {
		free(seeds);
		free(weights);
		return -ENOMEM;
	}
	for (i = 0; i < obj->samples_nr; i++)
		if (obj->samples[i].off < obj->code_nr) {
			seeds[nseeds] = (uint32_t)obj->samples[i].off;
			weights[nseeds++] = obj->samples[i].samples;
		}
	/* Only the bytes the stream has: STREAM.md forbids inventing the rest. */
	struct cfg_input in = {
		.e_machine = (int)obj->e_machine, .code = obj->code, .size = obj->code_nr,
		.addr = obj->addr, .seeds = seeds, .seed_weights = weights, .seeds_nr = nseeds,
		/* JIT code may carry trailing metadata (V8's), and wasmtime's code
		 * its constant pool and padding, in a jit dump's load and in the
		 * .cwasm's symbol alike: the same bytes get the same blocks however
		 * they were seen. A native ELF symbol's size is exact. */
		.flags = counts_as_jit(obj) ? CFG_TRAILING_DATA : 0,
	};
	err[0] = '\0';
	ret = cfg_func__build_from(&f->cfg, &in, err, sizeof(err));
	free(seeds);
	free(weights);
	if (ret == -ENOMEM)
		return ret;
	if (ret) {
		f->status = RANK_FAILED;
		f->error = strdup(err[0] ? err : strerror(-ret));
		if (!f->error)
			return -ENOMEM;
		if (!r->failed_objects)
			r->failed_error = f->error;
		r->failed_objects++;
		r->failed_samples = sat_add(r->failed_samples, f->samples);
		return 0;
	}
	f->status = RANK_DISASSEMBLED;
	f->insn_samples = calloc(f->cfg.insns_nr ? f->cfg.insns_nr : 1, sizeof(uint64_t));
	f->block_samples = calloc(f->cfg.blocks_nr ? f->cfg.blocks_nr : 1, sizeof(uint64_t));
	f->block_rank = calloc(f->cfg.blocks_nr ? f->cfg.blocks_nr : 1, sizeof(uint32_t));
	if (!f->insn_samples || !f->block_samples || !f->block_rank)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		uint64_t off = smp[i].off, n = smp[i].samples;
		long insn, block;

		/* Past the code bytes the stream has: no instruction to put them on. */
		if (off >= f->cfg.size) {
			f->outside = sat_add(f->outside, n);
			continue;
		}
		/* Sampled offsets were decoded first: each starts an instruction, but
		 * for one inside a hotter one's (code bytes unlike those that ran). */
		insn = cfg_func__insn_at(&f->cfg, (uint32_t)off);
		if (insn < 0) {
			f->unaligned = sat_add(f->unaligned, n);
			continue;
		}
		f->insn_samples[insn] = sat_add(f->insn_samples[insn], n);
		block = cfg_func__block_at(&f->cfg, (uint32_t)off);
		if (block < 0)
			f->outside = sat_add(f->outside, n);
		else
			f->block_samples[block] = sat_add(f->block_samples[block], n);
	}
	r->unaligned_samples = sat_add(r->unaligned_samples, f->unaligned);
	r->outside_samples = sat_add(r->outside_samples, f->outside);
	return 0;
}

/* Append the sampled blocks of f (funcs[fi]) to r->blocks. */
static int collect_blocks(struct rank *r, size_t fi, size_t *alloc)
{
	const struct rank_func *f = &r->funcs[fi];

	if (!f->selected || f->status != RANK_DISASSEMBLED)
		return 0;
	for (size_t j = 0; j < f->cfg.blocks_nr; j++) {
		if (!f->block_samples[j])
			continue;
		if (r->blocks_nr >= UINT32_MAX || VEC_GROW(r->blocks, r->blocks_nr + 1, *alloc))
			return -ENOMEM;
		r->blocks[r->blocks_nr++] = (struct rank_block){
			.func = (uint32_t)fi, .block = (uint32_t)j, .start = f->cfg.blocks[j].start,
			.samples = f->block_samples[j],
		};
	}
	return 0;
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

int rank__build(struct rank *r, const struct stream *s, long ev, const struct rank_opts *o)
{
	size_t i, j, alloc = 0, blocks_alloc = 0, *order = NULL, built = 0, batch = 1;
	uint64_t *scratch = NULL;
	bool lazy = !o->disassemble_all && !o->no_threshold;
	enum name_match best = NAME_MATCH_NONE;
	int ret = -ENOMEM;

	memset(r, 0, sizeof(*r));
	r->stream = s;
	r->event = ev;
	if (ev < 0)
		return 0;
	r->total = s->events[ev].samples[HB_CLASS_ALL];

	for (i = 0; i < s->objects_nr; i++) {
		const struct stream_object *obj = &s->objects[i];
		const struct stream_sample *smp;
		struct rank_func *f;
		uint64_t sum = 0;
		size_t nr;

		smp = event_samples(obj, ev, &nr);
		for (j = 0; j < nr; j++)
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
			if (m > best)
				best = m;
		}
		r->attributed = sat_add(r->attributed, sum);
		if (counts_as_jit(obj))
			r->jit = sat_add(r->jit, sum);
	}
	r->percent_of = r->total;
	if (!r->funcs_nr)
		return 0;
	/* --function: the strongest way the name matches anything is used for all. */
	for (i = 0; i < r->funcs_nr; i++)
		r->funcs[i].selected = (!o->function || (best != NAME_MATCH_NONE &&
							 r->funcs[i].match == best)) &&
				       (!o->select || o->select(o->select_arg, r->funcs[i].obj));
	r->function_match = best;
	for (i = 0; i < r->funcs_nr; i++)
		if (r->funcs[i].selected && s->objects[r->funcs[i].obj].code_nr)
			r->blockable = sat_add(r->blockable, r->funcs[i].samples);
	if (!o->no_threshold && r->blockable < r->total &&
	    (double)r->blockable < o->percent / 100.0 * (double)r->total) {
		r->percent_of = r->blockable;
		r->percent_capped = true;
	}

	/* Lazily, objects --function excludes are never disassembled. */
	size_t order_nr = 0;

	order = malloc(r->funcs_nr * sizeof(*order));
	if (!order || order_by_heat(r))
		goto out;
	for (i = 0; i < r->funcs_nr; i++) {
		const struct rank_func *f = &r->funcs[r->by_heat[i]];

		if (lazy ? f->selected : !o->select || o->select(o->select_arg, f->obj))
			order[order_nr++] = r->by_heat[i];
	}

	/*
	 * Disassemble in batches of doubling size, hottest first. Stop once the
	 * shown blocks are final: the threshold stopped before the end of the
	 * candidates (or none are shown), and the coldest shown block is hotter
	 * than the hottest object not yet disassembled, whose blocks cannot
	 * outrank it. A tie is not enough: ties go by object order.
	 */
	while (built < order_nr) {
		size_t end = built + batch < order_nr ? built + batch : order_nr;

		for (; built < end; built++) {
			struct rank_func *f = &r->funcs[order[built]];
			const struct stream_sample *smp;
			size_t nr;

			smp = event_samples(&s->objects[f->obj], ev, &nr);
			ret = sum_samples(r, f, smp, nr);
			if (ret)
				goto out;
			ret = collect_blocks(r, order[built], &blocks_alloc);
			if (ret)
				goto out;
		}
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
	for (i = 0; i < r->funcs_nr; i++)
		r->skipped_objects += r->funcs[i].status == RANK_SKIPPED;

	rank__sort(r->blocks, r->blocks_nr);
	ret = -ENOMEM;
	free(scratch);
	scratch = malloc((r->blocks_nr ? r->blocks_nr : 1) * sizeof(*scratch));
	if (!scratch)
		goto out;
	for (i = 0; i < r->blocks_nr; i++) {
		struct rank_block *b = &r->blocks[i];

		r->funcs[b->func].block_rank[b->block] = (uint32_t)(i + 1);
	}
	r->shown_nr = shown_count(r, o, scratch);
	/* Say nothing of a cap that shows the same blocks as the reference's rule. */
	if (r->percent_capped && rank__threshold(scratch, r->blocks_nr, r->total, o->percent,
						 o->top) == r->shown_nr)
		r->percent_capped = false;
	for (i = 0; i < r->shown_nr; i++)
		r->funcs[r->blocks[i].func].shown = true;
	ret = 0;
out:
	free(order);
	free(scratch);
	return ret;
}

void rank__release(struct rank *r)
{
	size_t i;

	for (i = 0; i < r->funcs_nr; i++) {
		struct rank_func *f = &r->funcs[i];

		free(f->error);
		free(f->insn_samples);
		free(f->block_samples);
		free(f->block_rank);
		if (f->status == RANK_DISASSEMBLED)
			cfg_func__release(&f->cfg);
	}
	free(r->funcs);
	free(r->by_heat);
	free(r->blocks);
	memset(r, 0, sizeof(*r));
}

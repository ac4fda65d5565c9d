/* SPDX-License-Identifier: MIT */
/* Fold one event's samples into the blocks of each sampled object, rank and select them. */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../plugin/lib/bsearch.h"
#include "lib/offthread.h"
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

/* What obj is disassembled from: its bytes, address and how to read them (no seeds). */
static void object_input(const struct stream_object *obj, struct cfg_input *in)
{
	/* Only the bytes the stream has: STREAM.md forbids inventing the rest. */
	*in = (struct cfg_input){
		.e_machine = (int)obj->e_machine, .code = obj->code, .size = obj->code_nr,
		.addr = obj->addr,
		/* JIT code may carry trailing metadata (V8's), and wasmtime's code
		 * its constant pool and padding, in a jit dump's load and in the
		 * .cwasm's symbol alike: the same bytes get the same blocks however
		 * they were seen. A native ELF symbol's size is exact. */
		.flags = counts_as_jit(obj) ? CFG_TRAILING_DATA : 0,
	};
}

void rank__input(const struct rank *r, size_t fi, struct cfg_input *in)
{
	object_input(&r->stream->objects[r->funcs[fi].obj], in);
}

/* Disassemble obj (with code bytes), seeded with every sampled offset of any
 * event: an executed instruction start. flags are added to its own. */
static int disassemble(const struct stream_object *obj, unsigned flags, struct cfg_func *cfg,
		       char *err, size_t errlen)
{
	uint32_t *seeds = malloc((obj->samples_nr ? obj->samples_nr : 1) * sizeof(*seeds));
	uint64_t *weights = malloc((obj->samples_nr ? obj->samples_nr : 1) * sizeof(*weights));
	struct cfg_input in;
	size_t i, nseeds = 0;
	int ret;

	memset(cfg, 0, sizeof(*cfg));
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
	object_input(obj, &in);
	in.seeds = seeds;
	in.seed_weights = weights;
	in.seeds_nr = nseeds;
	in.flags |= flags;
	err[0] = '\0';
	ret = cfg_func__build_from(cfg, &in, err, errlen);
	free(seeds);
	free(weights);
	return ret;
}

/* Where each of one event's samples smp[0..nr) of a disassembled object
 * goes: its block (block_samples, may be NULL), its instruction
 * (insn_samples, may be NULL), or in none (*unaligned, *outside); *row_max
 * the most on one instruction. */
static void place_samples(const struct cfg_func *cfg, const struct stream_sample *smp, size_t nr,
			  uint64_t *insn_samples, uint64_t *block_samples, uint64_t *block_row_max,
			  uint64_t *unaligned, uint64_t *outside, uint64_t *row_max)
{
	for (size_t i = 0; i < nr; i++) {
		uint64_t off = smp[i].off, n = smp[i].samples;
		long insn, block;

		/* Past the code bytes the stream has: no instruction to put them on. */
		if (off >= cfg->size) {
			*outside = sat_add(*outside, n);
			continue;
		}
		/* Sampled offsets were decoded first: each starts an instruction, but
		 * for one inside a hotter one's (code bytes unlike those that ran). */
		insn = cfg_func__insn_at(cfg, (uint32_t)off);
		if (insn < 0) {
			*unaligned = sat_add(*unaligned, n);
			continue;
		}
		/* (offsets are distinct: one sample entry per instruction) */
		if (insn_samples)
			insn_samples[insn] = n;
		if (n > *row_max)
			*row_max = n;
		block = cfg_func__block_at(cfg, (uint32_t)off);
		if (block < 0) {
			*outside = sat_add(*outside, n);
			continue;
		}
		if (block_samples)
			block_samples[block] = sat_add(block_samples[block], n);
		if (block_row_max && n > block_row_max[block])
			block_row_max[block] = n;
	}
}

/* One object's fold before it joins the ranking: its sampled blocks and their
 * instructions (first_insn and first_target relative to insns and targets). */
struct folded {
	struct rank_sum *sums;
	size_t sums_nr;
	struct rank_insn *insns;
	size_t insns_nr;
	uint64_t *targets;
	size_t targets_nr;
};

static void folded_release(struct folded *fo)
{
	free(fo->sums);
	free(fo->insns);
	free(fo->targets);
	memset(fo, 0, sizeof(*fo));
}

/*
 * Disassemble f's object, put each of the event's samples smp[0..nr) in its
 * instruction and block, and keep (of a selected object) its sampled blocks
 * and their instructions in *fo; the disassembly is dropped. Touches f and
 * *fo only: objects are folded on several threads.
 */
static int fold(const struct stream *s, struct rank_func *f, const struct stream_sample *smp,
		size_t nr, struct folded *fo)
{
	const struct stream_object *obj = &s->objects[f->obj];
	struct cfg_func cfg;
	uint64_t *block_samples, *block_row_max;
	size_t k = 0, ni = 0, nt = 0;
	char err[256];
	int ret;

	memset(fo, 0, sizeof(*fo));
	if (!obj->code_nr) {
		f->status = RANK_NO_CODE;
		return 0;
	}
	ret = disassemble(obj, CFG_NO_TEXT, &cfg, err, sizeof(err));
	if (ret == -ENOMEM)
		return ret;
	if (ret) {
		f->status = RANK_FAILED;
		f->error = strdup(err[0] ? err : strerror(-ret));
		return f->error ? 0 : -ENOMEM;
	}
	f->status = RANK_DISASSEMBLED;
	f->insns_nr = (uint32_t)cfg.insns_nr;
	f->blocks_nr = (uint32_t)cfg.blocks_nr;
	f->code_end = cfg.code_end;
	block_samples = calloc(cfg.blocks_nr ? cfg.blocks_nr : 1, sizeof(*block_samples));
	block_row_max = calloc(cfg.blocks_nr ? cfg.blocks_nr : 1, sizeof(*block_row_max));
	if (!block_samples || !block_row_max) {
		ret = -ENOMEM;
		goto out;
	}
	place_samples(&cfg, smp, nr, NULL, block_samples, block_row_max, &f->unaligned, &f->outside,
		      &f->row_max);
	for (size_t b = 0; f->selected && b < cfg.blocks_nr; b++) {
		if (!block_samples[b])
			continue;
		fo->sums_nr++;
		ni += cfg.blocks[b].nr;
		for (size_t i = cfg.blocks[b].first; i < cfg.blocks[b].first + cfg.blocks[b].nr; i++)
			nt += (cfg.insns[i].flags & INSN_HAS_TARGET) != 0;
	}
	ret = -ENOMEM;
	if (fo->sums_nr && (!(fo->sums = malloc(fo->sums_nr * sizeof(*fo->sums))) ||
			    !(fo->insns = malloc(ni * sizeof(*fo->insns))) ||
			    !(fo->targets = malloc((nt ? nt : 1) * sizeof(*fo->targets)))))
		goto out;
	for (size_t b = 0; fo->sums_nr && b < cfg.blocks_nr; b++) {
		const struct cfg_block *blk = &cfg.blocks[b];

		if (!block_samples[b])
			continue;
		fo->sums[k++] = (struct rank_sum){
			.block = (uint32_t)b, .start = blk->start, .end = blk->end,
			.samples = block_samples[b], .row_max = block_row_max[b],
			.first_insn = fo->insns_nr, .first_target = fo->targets_nr,
			.insns = (uint32_t)blk->nr,
		};
		for (size_t i = blk->first; i < blk->first + blk->nr; i++) {
			const struct cfg_insn *in = &cfg.insns[i];

			fo->insns[fo->insns_nr++] = (struct rank_insn){ in->size, in->flags };
			if (in->flags & INSN_HAS_TARGET)
				fo->targets[fo->targets_nr++] = in->target;
		}
	}
	ret = 0;
out:
	if (ret)
		folded_release(fo);
	free(block_samples);
	free(block_row_max);
	cfg_func__release(&cfg);
	return ret;
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
	case RANK_NO_CODE:
		r->nocode_objects++;
		r->nocode_samples = sat_add(r->nocode_samples, f->samples);
		return 0;
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

/* Objects being folded by threads: the next to take, and where each goes. */
struct fold_work {
	const struct stream *stream;
	long event;
	struct rank_func *funcs;
	const size_t *which;		/* indexes in funcs */
	struct folded *out;		/* [nr] */
	int *ret;			/* [nr] */
	size_t nr;
	size_t next;			/* taken atomically */
	unsigned want;			/* threads to fold on */
};

static void *fold_worker(void *arg)
{
	struct fold_work *w = arg;
	size_t k;

	while ((k = __atomic_fetch_add(&w->next, 1, __ATOMIC_RELAXED)) < w->nr) {
		struct rank_func *f = &w->funcs[w->which[k]];
		const struct stream_sample *smp;
		size_t nr;

		smp = event_samples(&w->stream->objects[f->obj], w->event, &nr);
		w->ret[k] = fold(w->stream, f, smp, nr, &w->out[k]);
	}
	return NULL;
}

/* Threads to fold on: one per processor, at most 8 (HOTBLOCKS_THREADS=N
 * sets it). */
static unsigned fold_threads(void)
{
	const char *env = getenv("HOTBLOCKS_THREADS");
	long n = env && *env ? strtol(env, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > 8 ? 8 : (unsigned)n;
}

static void release_folds(void *arg)
{
	struct fold_work *w = arg;

	for (size_t k = 0; k < w->nr; k++)
		folded_release(&w->out[k]);
}

/* Fold on want threads: this one and want - 1 more it starts and joins. */
static void fold_crew(void *arg)
{
	struct fold_work *w = arg;
	pthread_t threads[8];
	unsigned started = 0;

	for (; started + 1 < w->want && started + 1 < w->nr; started++)
		if (pthread_create(&threads[started], NULL, fold_worker, w))
			break;
	fold_worker(w);
	for (unsigned t = 0; t < started; t++)
		pthread_join(threads[t], NULL);
}

/*
 * Fold funcs[which[0..nr)] on worker threads, then join them in that order:
 * the ranking is the same however they were folded.
 *
 * The folding and the freeing of what it allocated run off this thread
 * (lib/offthread.h says why): Graphviz, which lays out the page's graphs
 * later on this thread, routes parallel edges in the order of its objects'
 * addresses, and a heap left by the workers made a graph come out different
 * from run to run and with the number of threads.
 */
static int fold_batch(struct rank *r, const size_t *which, size_t nr, struct allocs *al)
{
	struct fold_work w = { r->stream, r->event, r->funcs, which, NULL, NULL, nr, 0, fold_threads() };
	int ret = -ENOMEM;

	w.out = calloc(nr ? nr : 1, sizeof(*w.out));
	w.ret = calloc(nr ? nr : 1, sizeof(*w.ret));
	if (!w.out || !w.ret)
		goto out;
	/* capstone 4 fills its tables at its first use: once, here */
	cfg__prepare();
	offthread__run(fold_crew, &w);
	ret = 0;
	for (size_t k = 0; k < nr && !ret; k++)
		ret = w.ret[k] ? w.ret[k] : join(r, which[k], &w.out[k], al);
out:
	if (w.out)
		offthread__run(release_folds, &w);
	free(w.out);
	free(w.ret);
	return ret;
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

		smp = event_samples(obj, r->event, &nr);
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
		if (counts_as_jit(obj))
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
	for (size_t i = 0; i < r->funcs_nr; i++)
		if (r->funcs[i].selected && s->objects[r->funcs[i].obj].code_nr)
			r->blockable = sat_add(r->blockable, r->funcs[i].samples);
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

		ret = fold_batch(r, order + built, end - built, &allocs);
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

uint64_t rank__samples_at(const struct rank *r, size_t fi, uint32_t off)
{
	const struct rank_func *f = &r->funcs[fi];
	const struct stream_sample *smp;
	size_t nr, i;

	/* one sample entry per offset (stream__merge_samples) */
	smp = event_samples(&r->stream->objects[f->obj], r->event, &nr);
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

int rank__decode(const struct rank *r, size_t fi, struct rank_decoded *d)
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
	ret = disassemble(obj, 0, &d->cfg, err, sizeof(err));
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
	smp = event_samples(obj, r->event, &nr);
	place_samples(&d->cfg, smp, nr, d->insn_samples, d->block_samples, NULL, &unaligned, &outside,
		      &row_max);
	for (size_t k = 0; k < f->sums_nr; k++) {
		const struct rank_sum *sum = &r->sums[f->first_sum + k];

		if (sum->block >= f->blocks_nr || d->block_samples[sum->block] != sum->samples)
			return -EIO;
		d->block_rank[sum->block] = sum->rank;
	}
	return 0;
}

void rank_decoded__release(struct rank_decoded *d)
{
	cfg_func__release(&d->cfg);
	free(d->insn_samples);
	free(d->block_samples);
	free(d->block_rank);
	memset(d, 0, sizeof(*d));
}

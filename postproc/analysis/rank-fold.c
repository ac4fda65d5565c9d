// SPDX-License-Identifier: MIT
/* One object's fold and a batch of them on worker threads (see rank-fold.h). */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lib/offthread.h"
#include "rank-fold.h"

bool rank_fold__counts_as_jit(const struct stream_object *obj)
{
	/* What the reference calls Wasm samples: JIT code and wasmtime's .cwasm
	 * images; code a perf map names is JIT code too. */
	return stream__object_kind(obj) == STREAM_KIND_JIT;
}

/* The range of obj's samples for event ev (samples are sorted by (ev, off)). */
const struct stream_sample *rank_fold__event_samples(const struct stream_object *obj, long ev,
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
void rank_fold__input(const struct stream_object *obj, struct cfg_input *in)
{
	/* Only the bytes the stream has: STREAM.md forbids inventing the rest. */
	*in = (struct cfg_input){
		.e_machine = (int)obj->e_machine, .code = obj->code, .size = obj->code_nr,
		.addr = obj->addr,
		/* JIT code may carry trailing metadata (V8's), and wasmtime's code
		 * its constant pool and padding, in a jit dump's load and in the
		 * .cwasm's symbol alike: the same bytes get the same blocks however
		 * they were seen. A native ELF symbol's size is exact. */
		.flags = rank_fold__counts_as_jit(obj) ? CFG_TRAILING_DATA : 0,
		/* a runtime's data among its code (BEAM's func_info words, stream-join.c) */
		.data = obj->data, .data_nr = obj->data_nr,
	};
}

/* Disassemble obj (with code bytes), seeded with every sampled offset of any
 * event: an executed instruction start. flags are added to its own. */
int rank_fold__disassemble(const struct stream_object *obj, unsigned flags, struct cfg_func *cfg,
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
	rank_fold__input(obj, &in);
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
void rank_fold__place(const struct cfg_func *cfg, const struct stream_sample *smp, size_t nr,
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

void folded_release(struct folded *fo)
{
	free(fo->sums);
	free(fo->insns);
	free(fo->targets);
	memset(fo, 0, sizeof(*fo));
}

/*
 * An object without code bytes (a perf map's function): no instruction or
 * block can be told, so the whole function is its one entry (RANK_WHOLE),
 * ranked by all its samples like a block, with no instructions.
 */
static int fold_no_code(const struct stream_object *obj, struct rank_func *f,
			const struct stream_sample *smp, size_t nr, struct folded *fo)
{
	f->status = RANK_NO_CODE;
	for (size_t i = 0; i < nr; i++)
		if (smp[i].samples > f->row_max)
			f->row_max = smp[i].samples;
	if (!f->selected)
		return 0;
	if (!(fo->sums = malloc(sizeof(*fo->sums))))
		return -ENOMEM;
	fo->sums_nr = 1;
	fo->sums[0] = (struct rank_sum){
		.block = RANK_WHOLE, .start = 0,
		.end = obj->size < UINT32_MAX ? (uint32_t)obj->size : UINT32_MAX,
		.samples = f->samples, .row_max = f->row_max,
	};
	return 0;
}

/*
 * Disassemble f's object, put each of the event's samples smp[0..nr) in its
 * instruction and block, and keep (of a selected object) its sampled blocks
 * and (unless no_insns) their instructions in *fo; the disassembly is
 * dropped. Touches f and *fo only: objects are folded on several threads.
 */
static int fold(const struct stream *s, struct rank_func *f, const struct stream_sample *smp,
		size_t nr, bool no_insns, struct folded *fo)
{
	const struct stream_object *obj = &s->objects[f->obj];
	struct cfg_func cfg;
	uint64_t *block_samples, *block_row_max;
	size_t k = 0, ni = 0, nt = 0;
	char err[256];
	int ret;

	memset(fo, 0, sizeof(*fo));
	if (!obj->code_nr)
		return fold_no_code(obj, f, smp, nr, fo);
	ret = rank_fold__disassemble(obj, CFG_NO_TEXT, &cfg, err, sizeof(err));
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
	rank_fold__place(&cfg, smp, nr, NULL, block_samples, block_row_max, &f->unaligned, &f->outside,
		      &f->row_max);
	for (size_t b = 0; f->selected && b < cfg.blocks_nr; b++) {
		if (!block_samples[b])
			continue;
		fo->sums_nr++;
		if (no_insns)
			continue;
		ni += cfg.blocks[b].nr;
		for (size_t i = cfg.blocks[b].first; i < cfg.blocks[b].first + cfg.blocks[b].nr; i++)
			nt += (cfg.insns[i].flags & INSN_HAS_TARGET) != 0;
	}
	ret = -ENOMEM;
	if (fo->sums_nr && (!(fo->sums = malloc(fo->sums_nr * sizeof(*fo->sums))) ||
			    (!no_insns && (!(fo->insns = malloc(ni * sizeof(*fo->insns))) ||
					   !(fo->targets = malloc((nt ? nt : 1) * sizeof(*fo->targets)))))))
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
		for (size_t i = blk->first; !no_insns && i < blk->first + blk->nr; i++) {
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

/* Objects being folded by threads: the next to take, and where each goes. */
struct fold_work {
	const struct stream *stream;
	long event;
	struct rank_func *funcs;
	const size_t *which;		/* indexes in funcs */
	struct folded *out;		/* [nr] */
	int *ret;			/* [nr] */
	size_t nr;
	bool no_insns;
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

		smp = rank_fold__event_samples(&w->stream->objects[f->obj], w->event, &nr);
		w->ret[k] = fold(w->stream, f, smp, nr, w->no_insns, &w->out[k]);
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
 * Fold on worker threads, off the calling thread (lib/offthread.h says why):
 * Graphviz, which lays out the page's graphs later on that thread, routes
 * parallel edges in the order of its objects' addresses, and a heap left by
 * the workers made a graph come out different from run to run and with the
 * number of threads.
 */
void rank_fold__batch(const struct stream *s, long ev, struct rank_func *funcs, const size_t *which, size_t nr,
		      bool no_insns, struct folded *out, int *ret)
{
	struct fold_work w = { s, ev, funcs, which, out, ret, nr, no_insns, 0, fold_threads() };

	/* capstone 4 fills its tables at its first use: once, here */
	cfg__prepare();
	offthread__run(fold_crew, &w);
}

void rank_fold__release(struct folded *out, size_t nr)
{
	struct fold_work w = { .out = out, .nr = nr };

	offthread__run(release_folds, &w);
}

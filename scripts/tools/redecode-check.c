/* SPDX-License-Identifier: MIT */
/*
 * redecode-check: what ranking drops, built again, is what it was. For every
 * code object of the streams given (merged, finished, as hotblocks reads
 * them) and every event:
 *  - disassembled with and without text (CFG_NO_TEXT, what ranking builds),
 *    the same instructions (offset, size, flags, target), blocks and tables;
 *  - every instruction's text written alone (cfg_text__insn) is the text of
 *    the disassembly with text;
 *  - ranked (every block, --all), each object disassembled again
 *    (rank__decode) has the blocks, counts and ranks it ranked with, and the
 *    rows ranking kept of its sampled blocks (rank__insn) are its rows.
 *
 *   redecode-check STREAM...
 *
 * Prints one line of counts and exits 0, or the first difference and exits 1.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cfg-text.h"
#include "analysis/rank.h"
#include "stream/stream.h"

static unsigned long objects, insns, rows;

#define FAIL(...) do { fprintf(stderr, "redecode-check: " __VA_ARGS__); fputc('\n', stderr); exit(1); } while (0)

/* An object's disassembly with text (flags) and without, compared. */
static void texts(const struct stream_object *obj)
{
	uint32_t *seeds = malloc((obj->samples_nr + 1) * sizeof(*seeds));
	uint64_t *weights = malloc((obj->samples_nr + 1) * sizeof(*weights));
	struct cfg_input in = {
		.e_machine = (int)obj->e_machine, .code = obj->code, .size = obj->code_nr,
		.addr = obj->addr,
		.flags = obj->kind == HB_KIND_NATIVE ? 0 : CFG_TRAILING_DATA,
	};
	struct cfg_func f, g;
	struct cfg_text *t;
	char buf[CFG_TEXT_MAX], err[256];

	if (!seeds || !weights)
		FAIL("out of memory");
	for (size_t i = 0; i < obj->samples_nr; i++)
		if (obj->samples[i].off < obj->code_nr) {
			seeds[in.seeds_nr] = (uint32_t)obj->samples[i].off;
			weights[in.seeds_nr++] = obj->samples[i].samples;
		}
	in.seeds = seeds;
	in.seed_weights = weights;
	if (cfg_func__build_from(&f, &in, err, sizeof(err))) {
		free(seeds);
		free(weights);
		return;	/* another machine: nothing to compare */
	}
	in.flags |= CFG_NO_TEXT;
	if (cfg_func__build_from(&g, &in, err, sizeof(err)))
		FAIL("%s: without text: %s", obj->name, err);
	in.flags &= ~(unsigned)CFG_NO_TEXT;
	if (g.insns_nr != f.insns_nr || g.blocks_nr != f.blocks_nr || g.tables_nr != f.tables_nr ||
	    g.code_end != f.code_end)
		FAIL("%s: %zu/%zu insns, %zu/%zu blocks without text", obj->name, g.insns_nr, f.insns_nr,
		     g.blocks_nr, f.blocks_nr);
	for (size_t i = 0; i < f.insns_nr; i++) {
		const struct cfg_insn *a = &f.insns[i], *b = &g.insns[i];

		if (a->off != b->off || a->size != b->size || a->flags != b->flags || a->target != b->target)
			FAIL("%s+0x%" PRIx32 ": another instruction without text", obj->name, a->off);
	}
	for (size_t k = 0; k < f.blocks_nr; k++)
		if (f.blocks[k].start != g.blocks[k].start || f.blocks[k].end != g.blocks[k].end ||
		    f.blocks[k].falls_through != g.blocks[k].falls_through)
			FAIL("%s: block %zu differs without text", obj->name, k);
	if (cfg_text__open(&t, &in, err, sizeof(err)))
		FAIL("%s: %s", obj->name, err);
	for (size_t i = 0; i < f.insns_nr; i++)
		if (strcmp(cfg_text__insn(t, &f.insns[i], buf), f.insns[i].text))
			FAIL("%s+0x%" PRIx32 ": '%s' written alone, '%s' in the disassembly", obj->name,
			     f.insns[i].off, buf, f.insns[i].text);
	cfg_text__close(t);
	objects++;
	insns += f.insns_nr;
	cfg_func__release(&f);
	cfg_func__release(&g);
	free(seeds);
	free(weights);
}

/* Every object of event ev ranked, then disassembled again. */
static void ranked(const struct stream *s, long ev)
{
	struct rank_opts o = { .percent = 100.0, .no_threshold = true, .top = SIZE_MAX };
	struct rank r;

	if (rank__build(&r, s, ev, &o))
		FAIL("out of memory");
	for (size_t k = 0; k < r.funcs_nr; k++) {
		const struct rank_func *f = &r.funcs[k];
		const char *name = s->objects[f->obj].name;
		struct rank_decoded d;
		int ret;

		if (f->status != RANK_DISASSEMBLED)
			continue;
		if ((ret = rank__decode(&r, k, &d)))
			FAIL("%s: disassembled again: %s", name, strerror(-ret));
		for (size_t j = 0; j < f->sums_nr; j++) {
			const struct rank_sum *sum = &r.sums[f->first_sum + j];
			const struct cfg_block *blk = &d.cfg.blocks[sum->block];
			uint32_t off = sum->start;
			size_t target = sum->first_target;

			if (blk->start != sum->start || blk->end != sum->end || blk->nr != sum->insns ||
			    d.block_rank[sum->block] != sum->rank)
				FAIL("%s: block 0x%" PRIx32 " differs disassembled again", name, sum->start);
			for (uint32_t n = 0; n < sum->insns; n++) {
				const struct cfg_insn *want = &d.cfg.insns[blk->first + n];
				struct cfg_insn got;

				rank__insn(&r, sum, n, &off, &target, &got);
				if (got.off != want->off || got.size != want->size ||
				    got.flags != want->flags ||
				    /* a target means nothing without INSN_HAS_TARGET */
				    ((got.flags & INSN_HAS_TARGET) && got.target != want->target) ||
				    rank__samples_at(&r, k, got.off) != d.insn_samples[blk->first + n])
					FAIL("%s+0x%" PRIx32 ": the row kept differs: size %u/%u flags 0x%x/0x%x target 0x%" PRIx64 "/0x%" PRIx64 " samples %" PRIu64 "/%" PRIu64, name, want->off, got.size, want->size, got.flags, want->flags, got.target, want->target, rank__samples_at(&r, k, got.off), d.insn_samples[blk->first + n]);
				rows++;
			}
		}
		rank_decoded__release(&d);
	}
	rank__release(&r);
}

int main(int argc, char **argv)
{
	struct stream s;
	char err[1024];

	if (argc < 2) {
		fprintf(stderr, "usage: redecode-check STREAM...\n");
		return 2;
	}
	stream__init(&s);
	for (int i = 1; i < argc; i++) {
		FILE *f = fopen(argv[i], "r");

		if (!f || stream__read(&s, f, argv[i], err, sizeof(err)))
			FAIL("%s: %s", argv[i], f ? err : strerror(errno));
		fclose(f);
	}
	if (stream__finish(&s))
		FAIL("cannot finish the streams");
	for (size_t i = 0; i < s.objects_nr; i++)
		if (s.objects[i].code_nr && s.objects[i].folded_into == UINT32_MAX &&
		    s.objects[i].moved_into == UINT32_MAX)
			texts(&s.objects[i]);
	for (size_t ev = 0; ev < s.events_nr; ev++)
		ranked(&s, (long)ev);
	printf("%lu objects, %lu instructions: the same without text and written alone; "
	       "%lu rows of sampled blocks the same disassembled again\n", objects, insns, rows);
	stream__release(&s);
	return 0;
}

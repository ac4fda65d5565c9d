// SPDX-License-Identifier: MIT
/*
 * Skid (report-cost.h). A sample lands where the CPU was when the counter
 * overflowed, as the interrupt sees it: behind a long-latency instruction
 * (a divide, a square root) that is the instruction after it, which
 * collects the divide's cost while the divide itself shows next to none.
 * Branch stacks count how often each block ran, exactly: its executions
 * times its instructions rank blocks by the work they did, skid-free.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/lib/bsearch.h"
#include "analysis/cfg-text.h"
#include "lib/util.h"
#include "report-branches.h"
#include "report-cost.h"
#include "report-notes.h"

/* The skid notes said one by one; past this many, counted. */
#define SKID_NOTES 5

/* A divide or square root (x86: div, idiv, [v]div*, [v]sqrt*, fdiv*, fidiv*, fsqrt; Arm: sdiv, udiv, fdiv, fsqrt). */
static bool long_latency(const char *text)
{
	static const char *const heads[] = { "div", "sqrt", "idiv", "sdiv", "udiv", "fdiv", "fidiv", "fsqrt" };
	const char *m = text[0] == 'v' ? text + 1 : text;

	for (size_t i = 0; i < ARRAY_SIZE(heads); i++)
		if (!strncmp(m, heads[i], strlen(heads[i])))
			return true;
	return false;
}

/* The mnemonic of an assembly cell, into buf. */
static const char *mnemonic(char *buf, size_t len, const char *text)
{
	size_t n = strcspn(text, " \t");

	snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), text);
	return buf;
}

/* An instruction of a shown block, as the skid test reads it. */
struct skid_insn {
	bool long_latency;
	uint32_t off;
	uint64_t samples;
	char mnemonic[32];
};

/* The note of a, followed in block start by n. */
static int skid_note(struct report *rep, const struct report_func *f, uint32_t start,
		     const struct skid_insn *a, const struct skid_insn *n)
{
	char pa[64], pn[64];

	return report_notes__add(rep, REPORT_NOTE_INPUT,
				 "skid: in %s block 0x%" PRIx32 ", the %s at 0x%" PRIx32 " has %s%% of the samples "
				 "and the %s after it %s%%: a long-latency instruction's cost lands on the next "
				 "one; branch stacks (perf record -b, then --by-executions) count the block's "
				 "executions without skid",
				 f->display_name, start, a->mnemonic, a->off,
				 fmt_share(pa, sizeof(pa), a->samples, (double)a->samples * 100.0 / (double)rep->total),
				 n->mnemonic,
				 fmt_share(pn, sizeof(pn), n->samples, (double)n->samples * 100.0 / (double)rep->total));
}

/*
 * The skid pattern in the shown blocks of rep->funcs[fi] (rank.funcs[rfi]),
 * their instructions as ranking kept them, their texts written again: a
 * divide or square root followed, in its block, by an instruction with at
 * least 8 times its samples (+1) and at least 1% of all samples.
 */
static int skid_func(struct report *rep, const struct rank *r, size_t fi, size_t rfi, size_t *found)
{
	const struct rank_func *rf = &r->funcs[rfi];
	struct cfg_text *texts = NULL;
	struct cfg_input in;
	char buf[CFG_TEXT_MAX];
	int ret;

	rank__input(r, rfi, &in);
	if ((ret = cfg_text__open(&texts, &in, NULL, 0)))
		return ret;
	for (size_t k = 0; !ret && k < rf->sums_nr; k++) {
		const struct rank_sum *sum = &r->sums[rf->first_sum + k];
		struct skid_insn prev = { 0 }, cur;
		uint32_t off = sum->start;
		size_t target = sum->first_target;

		if (!sum->rank || sum->rank > r->shown_nr || sum->block == RANK_WHOLE)
			continue;
		for (uint32_t j = 0; !ret && j < sum->insns; j++, prev = cur) {
			struct cfg_insn insn;

			rank__insn(r, sum, j, &off, &target, &insn);
			cfg_text__insn(texts, &insn, buf);
			cur = (struct skid_insn){ .long_latency = !(insn.flags & INSN_DATA) && long_latency(buf),
						  .off = insn.off, .samples = rank__samples_at(r, rfi, insn.off) };
			mnemonic(cur.mnemonic, sizeof(cur.mnemonic), buf);
			if (j && prev.long_latency && cur.samples >= 8 * (prev.samples + 1) &&
			    (double)cur.samples * 100.0 >= (double)rep->total && ++*found <= SKID_NOTES)
				ret = skid_note(rep, &rep->funcs[fi], sum->start, &prev, &cur);
		}
	}
	cfg_text__close(texts);
	return ret;
}

/*
 * In a report of the shown blocks alone (text, JSON without --all), in the
 * order an output shows them. Not in a whole report (the page, dot, JSON
 * --all): not even an allocation there, which would move its graphs
 * (Graphviz routes parallel edges by address).
 */
static int skid_notes(struct report *rep, const struct rank *r, const size_t *rank_of)
{
	bool *seen;
	size_t found = 0;
	int ret;

	if (!rep->shown_nr || rep->funcs[rep->shown[0].func].whole)
		return 0;
	seen = calloc(rep->funcs_nr + 1, sizeof(*seen));
	ret = seen ? 0 : -ENOMEM;
	for (size_t i = 0; !ret && i < rep->shown_nr; i++) {
		size_t fi = rep->shown[i].func;

		if (seen[fi] || !rep->funcs[fi].disassembled)
			continue;
		seen[fi] = true;
		ret = skid_func(rep, r, fi, rank_of[fi], &found);
	}
	free(seen);
	if (!ret && found > SKID_NOTES)
		ret = report_notes__add(rep, REPORT_NOTE_INPUT, "skid: %zu more places like these in the shown blocks",
					found - SKID_NOTES);
	return ret;
}

/* The first instruction of cfg at or after off. */
static size_t insn_at(const struct cfg_func *cfg, uint64_t off)
{
	return LOWER_BOUND(cfg->insns_nr, k, cfg->insns[k].off < off);
}

/* The cycles of f's possible ranges with a cycle count, shared among the
 * blocks they hold by their instructions in each (d's blocks, into cyc). */
static void range_cycles(const struct report_func_branches *f, const struct rank_decoded *d, double *cyc,
			 bool *any)
{
	const struct cfg_func *cfg = &d->cfg;

	for (size_t i = 0; i < f->ranges_nr; i++) {
		const struct report_range *g = &f->ranges[i];
		size_t a, b;
		double each;

		if (!g->same || g->impossible || g->end < g->start || !g->cycles_nr)
			continue;
		/* possible: both ends are instruction starts */
		a = insn_at(cfg, g->start);
		b = insn_at(cfg, g->end);
		each = (double)g->cycles_sum / (double)g->cycles_nr * (double)g->count / (double)(b - a + 1);
		*any = true;
		for (size_t k = a; k <= b; k++) {
			long blk = cfg_func__block_at(cfg, cfg->insns[k].off);

			if (blk >= 0)
				cyc[blk] += each;
		}
	}
}

/* The costs of the blocks of rep->funcs[fi] that ran, appended to bs->costs. */
static int cost_func(struct report_branch_stack *bs, const struct rank *r, size_t fi, size_t rf, size_t *alloc)
{
	const struct report_func_branches *fb = &bs->funcs[fi];
	struct rank_decoded d;
	uint64_t *off = NULL, *runs = NULL;
	double *cyc = NULL;
	int ret = rank__decode(r, rf, &d);
	size_t nb = d.cfg.blocks_nr;

	if (!ret && (!(off = malloc((nb + 1) * sizeof(*off))) || !(runs = calloc(nb + 1, sizeof(*runs))) ||
		     !(cyc = calloc(nb + 1, sizeof(*cyc)))))
		ret = -ENOMEM;
	for (size_t b = 0; !ret && b < nb; b++)
		off[b] = d.cfg.blocks[b].start;
	if (!ret)
		ret = report_branches__runs(fb, off, nb, runs);
	if (!ret && VEC_GROW(bs->costs, bs->costs_nr + nb, *alloc))
		ret = -ENOMEM;
	if (!ret)
		range_cycles(fb, &d, cyc, &bs->cost_cycles);
	for (size_t b = 0; !ret && b < nb; b++) {
		const struct cfg_block *blk = &d.cfg.blocks[b];
		uint32_t insns = 0;

		for (size_t k = blk->first; k < blk->first + blk->nr; k++)
			insns += !(d.cfg.insns[k].flags & INSN_DATA);
		if (!runs[b] || !insns)
			continue;
		bs->costs[bs->costs_nr++] = (struct report_block_cost){
			.func = (uint32_t)fi, .start = blk->start, .end = blk->end, .insns = insns,
			.executions = runs[b], .cycles = cyc[b], .samples = d.block_samples[b],
		};
	}
	free(off);
	free(runs);
	free(cyc);
	rank_decoded__release(&d);
	return ret;
}

/* The most cost first; ties by function, then address. */
static int cost_cmp(const void *a, const void *b)
{
	const struct report_block_cost *x = a, *y = b;

	if (x->cost != y->cost)
		return x->cost > y->cost ? -1 : 1;
	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

int report_cost__build(struct report *rep, const struct rank *r, const size_t *rank_of, bool by_executions)
{
	struct report_branch_stack *bs = rep->branch_stack;
	size_t alloc = 0;
	int ret = 0;

	if (!bs) {
		ret = skid_notes(rep, r, rank_of);
		if (!ret && by_executions)
			ret = report_notes__add(rep, REPORT_NOTE_INPUT,
						"--by-executions needs branch stacks (perf record -b): the input has "
						"none, blocks are ranked by samples");
		return ret;
	}
	if (!by_executions)
		return 0;
	bs->by_executions = true;
	for (size_t fi = 0; !ret && fi < rep->funcs_nr; fi++)
		if (bs->funcs[fi].ranges_nr && rep->funcs[fi].disassembled)
			ret = cost_func(bs, r, fi, rank_of[fi], &alloc);
	for (size_t i = 0; !ret && i < bs->costs_nr; i++) {
		struct report_block_cost *c = &bs->costs[i];

		c->cost = bs->cost_cycles ? c->cycles : (double)c->executions * (double)c->insns;
		bs->cost_total += c->cost;
	}
	if (!ret && bs->costs_nr > 1)
		qsort(bs->costs, bs->costs_nr, sizeof(*bs->costs), cost_cmp);
	return ret;
}

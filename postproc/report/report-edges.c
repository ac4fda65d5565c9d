/* SPDX-License-Identifier: MIT */
/* The control-flow edges between a function's blocks, and which of them close loops. */
#include <errno.h>
#include <stdlib.h>

#include "analysis/back-edges.h"
#include "lib/util.h"
#include "report-edges.h"

long report__block_at_start(const struct cfg_func *cfg, uint64_t target)
{
	long b;

	if (target >= cfg->code_end)
		return -1;
	b = cfg_func__block_at(cfg, (uint32_t)target);
	return b >= 0 && cfg->blocks[b].start == target ? b : -1;
}

static int add_edge(struct report_func *f, size_t *alloc, size_t from, long to,
		    enum report_edge_kind kind)
{
	if (to < 0)
		return 0;
	if (VEC_GROW(f->edges, f->edges_nr + 1, *alloc))
		return -ENOMEM;
	f->edges[f->edges_nr++] = (struct report_edge){ (uint32_t)from, (uint32_t)to, kind, false };
	return 0;
}

static int edge_cmp(const void *a, const void *b)
{
	const struct report_edge *x = a, *y = b;

	if (x->to != y->to)
		return x->to < y->to ? -1 : 1;
	return (int)x->kind - (int)y->kind;
}

/* Mark the edges that close loops (analysis/back-edges.h): a block's edges
 * are contiguous, in block order (report_edges__build). */
static int mark_back_edges(struct report_func *f)
{
	size_t *off = malloc((f->blocks_nr + 1) * sizeof(*off));
	uint32_t *to = malloc((f->edges_nr ? f->edges_nr : 1) * sizeof(*to));
	bool *back = calloc(f->edges_nr ? f->edges_nr : 1, sizeof(*back));
	int ret = -ENOMEM;

	if (off && to && back) {
		for (size_t b = 0; b < f->blocks_nr; b++)
			off[b] = f->blocks[b].first_edge;
		off[f->blocks_nr] = f->edges_nr;
		for (size_t k = 0; k < f->edges_nr; k++)
			to[k] = f->edges[k].to;
		ret = back_edges__mark(f->blocks_nr, 0, off, to, back);
		for (size_t k = 0; !ret && k < f->edges_nr; k++)
			f->edges[k].back = back[k];
	}
	free(off);
	free(to);
	free(back);
	return ret;
}

int report_edges__build(struct report_func *f, const struct cfg_func *cfg)
{
	size_t alloc = 0, t = 0;

	for (size_t b = 0; b < cfg->blocks_nr; b++) {
		const struct cfg_block *blk = &cfg->blocks[b];
		size_t last = blk->first + blk->nr - 1, first_edge = f->edges_nr;
		const struct cfg_insn *in = &cfg->insns[last];

		/* A call returns: it is no edge. A table entry is data. */
		if ((in->flags & INSN_HAS_TARGET) && (in->flags & (INSN_JUMP | INSN_COND)) &&
		    add_edge(f, &alloc, b, report__block_at_start(cfg, in->target), REPORT_EDGE_TAKEN))
			return -ENOMEM;
		/* Tables are in the order of their jumps, as blocks are. */
		while (t < cfg->tables_nr && cfg->tables[t].jump < last)
			t++;
		for (; t < cfg->tables_nr && cfg->tables[t].jump == last; t++) {
			const struct cfg_table *tab = &cfg->tables[t];

			for (size_t k = 0, n = cfg_table__cases(cfg, tab); k < n; k++) {
				long to = report__block_at_start(cfg, cfg_table__case(cfg, tab, k));

				if (add_edge(f, &alloc, b, to, REPORT_EDGE_CASE))
					return -ENOMEM;
			}
		}
		/* Padding before a jump table does not run into it: entries are data. */
		if (blk->falls_through && b + 1 < cfg->blocks_nr &&
		    !(cfg->insns[cfg->blocks[b + 1].first].flags & INSN_TABLE) &&
		    add_edge(f, &alloc, b, (long)b + 1, REPORT_EDGE_FALLTHROUGH))
			return -ENOMEM;

		/* By target; one edge per target and kind (a table's many entries to
		 * one case). */
		size_t n = f->edges_nr - first_edge, k = 0;

		if (n) {
			struct report_edge *e = f->edges + first_edge;

			/* most blocks have one or two successors: no qsort for those */
			if (n > 8) {
				qsort(e, n, sizeof(*e), edge_cmp);
			} else {
				for (size_t i = 1; i < n; i++)
					for (size_t j = i; j && edge_cmp(&e[j - 1], &e[j]) > 0; j--) {
						struct report_edge tmp = e[j];

						e[j] = e[j - 1];
						e[j - 1] = tmp;
					}
			}
			for (size_t i = 0; i < n; i++)
				if (!k || e[k - 1].to != e[i].to || e[k - 1].kind != e[i].kind)
					e[k++] = e[i];
			f->edges_nr = first_edge + k;
		}
		f->blocks[b].first_edge = first_edge;
		f->blocks[b].edges_nr = k;
	}
	return mark_back_edges(f);
}

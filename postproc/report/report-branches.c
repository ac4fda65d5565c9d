// SPDX-License-Identifier: MIT
/* What branch stacks measured of the listed functions (report-branches.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>

#include "../plugin/lib/bsearch.h"
#include "lib/util.h"
#include "report-branches.h"
#include "report-notes.h"

/* The other end's function, as report_branch and report_range name it. */
static int32_t func_of(const uint32_t *obj_func, uint32_t obj)
{
	return obj_func[obj] == UINT32_MAX ? -1 : (int32_t)obj_func[obj];
}

/* b, one (flags) part of an edge, into the function's edges: the stream
 * sorts one edge's parts together (by ends, then flags). */
static void add_taken(struct report_func_branches *f, const struct stream *s, const uint32_t *obj_func,
		      const struct stream_branch *b)
{
	struct report_branch *e = f->branches_nr ? &f->branches[f->branches_nr - 1] : NULL;
	const char *to_name = s->objects[b->to_obj].name;

	if (!e || e->from != b->from_off || e->to != b->to_off || e->to_name != to_name) {
		e = &f->branches[f->branches_nr++];
		*e = (struct report_branch){ .from = b->from_off, .to = b->to_off, .same = b->to_obj == b->from_obj,
					     .to_name = to_name, .to_func = func_of(obj_func, b->to_obj) };
	}
	e->count = sat_add(e->count, b->count);
	if (b->flags & STREAM_BRANCH_MISPRED)
		e->mispredicted = sat_add(e->mispredicted, b->count);
	if (b->flags & STREAM_BRANCH_PREDICTED)
		e->predicted = sat_add(e->predicted, b->count);
	if (b->flags & STREAM_BRANCH_IN_TX)
		e->in_tx = sat_add(e->in_tx, b->count);
	if (b->flags & STREAM_BRANCH_ABORT)
		e->abort = sat_add(e->abort, b->count);
	e->cycles_nr = sat_add(e->cycles_nr, b->cycles_nr);
	e->cycles_sum = sat_add(e->cycles_sum, b->cycles_sum);
}

/* The first instruction of cfg at or after off. */
static size_t insn_at(const struct cfg_func *cfg, uint64_t off)
{
	return LOWER_BOUND(cfg->insns_nr, k, cfg->insns[k].off < off);
}

/* Which of f's ranges cannot have run straight through its code (rf's, decoded again). */
static int check_ranges(struct report_branch_stack *bs, const struct rank *r, size_t rf,
			struct report_func_branches *f)
{
	struct rank_decoded d;
	int ret = rank__decode(r, rf, &d);

	for (size_t i = 0; !ret && i < f->ranges_nr; i++) {
		struct report_range *g = &f->ranges[i];
		const struct cfg_func *cfg = &d.cfg;
		size_t a = insn_at(cfg, g->start), b = insn_at(cfg, g->end);

		if (!g->same) {
			bs->ranges_crossing = sat_add(bs->ranges_crossing, g->count);
			continue;
		}
		g->impossible = g->end < g->start || a == cfg->insns_nr || b == cfg->insns_nr ||
				cfg->insns[a].off != g->start || cfg->insns[b].off != g->end;
		for (size_t k = a; !g->impossible && k < b; k++)
			g->impossible = cfg->insns[k].flags & (INSN_JUMP | INSN_RET | INSN_TRAP | INSN_DATA);
		if (g->impossible)
			bs->ranges_impossible = sat_add(bs->ranges_impossible, g->count);
	}
	rank_decoded__release(&d);
	return ret;
}

/* The ranked event's counts by class (stream `branch-total`). */
static void totals(struct report_branch_stack *bs, const struct stream *s, long ev)
{
	if (ev < 0 || (size_t)ev >= s->branch_totals_nr)
		return;
	bs->entries = s->branch_totals[ev].entries[HB_CLASS_ALL];
	bs->ranges = s->branch_totals[ev].ranges[HB_CLASS_ALL];
	/* report.classes are the classes after `all`, in wire order */
	for (int c = HB_CLASS_ALL + 1; c < HB_CLASS__NR; c++) {
		bs->classes[c - 1][0] = s->branch_totals[ev].entries[c];
		bs->classes[c - 1][1] = s->branch_totals[ev].ranges[c];
	}
}

/*
 * The objects that the event's branch-stack entries and ranges end in but
 * that have no sample of it (so are not listed): a note counts them and
 * the entries and ranges that start in them.
 */
static int unsampled_ends(struct report *rep, const struct rank *r)
{
	const struct stream *s = r->stream;
	size_t n = s->objects_nr ? s->objects_nr : 1, objs = 0;
	bool *sampled = calloc(n, sizeof(*sampled)), *seen = calloc(n, sizeof(*seen));
	uint64_t entries = 0, ranges = 0;
	int ret = 0;

	if (!sampled || !seen) {
		ret = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < r->funcs_nr; i++)
		sampled[r->funcs[i].obj] = true;
	for (size_t i = 0; i < s->branches_nr; i++) {
		const struct stream_branch *b = &s->branches[i];
		const uint32_t end[2] = { b->from_obj, b->to_obj };

		if ((long)b->ev != r->event)
			continue;
		for (int k = 0; k < 2; k++)
			if (!sampled[end[k]] && !seen[end[k]]) {
				seen[end[k]] = true;
				objs++;
			}
		if (sampled[b->from_obj])
			continue;
		if (b->kind == STREAM_BRANCH_TAKEN)
			entries = sat_add(entries, b->count);
		else
			ranges = sat_add(ranges, b->count);
	}
	if (objs)
		ret = report_notes__add(rep, REPORT_NOTE_INPUT,
					"%zu function%s the branch stacks end in %s no sample of the event, so %s "
					"not listed: %" PRIu64 " taken branches and %" PRIu64 " fall-through ranges "
					"start there", objs, objs == 1 ? "" : "s", objs == 1 ? "has" : "have",
					objs == 1 ? "is" : "are", entries, ranges);
out:
	free(sampled);
	free(seen);
	return ret;
}

int report_branches__build(struct report *rep, const struct rank *r, const uint32_t *obj_func,
			   const size_t *rank_of)
{
	const struct stream *s = r->stream;
	struct report_branch_stack *bs;
	int ret;

	if (!s->has_branches)
		return 0;
	if (!(bs = rep->branch_stack = calloc(1, sizeof(*bs))) ||
	    !(bs->funcs = calloc(rep->funcs_nr + 1, sizeof(*bs->funcs))) ||
	    !(bs->classes = calloc(HB_CLASS__NR, sizeof(*bs->classes))))
		return -ENOMEM;
	totals(bs, s, r->event);
	/* The stream's counts are sorted by (kind, from object, ...): each
	 * function's are one run of each kind. */
	for (size_t i = 0, j; i < s->branches_nr; i = j) {
		const struct stream_branch *b = &s->branches[i];
		uint32_t fi = obj_func[b->from_obj];

		for (j = i; j < s->branches_nr && s->branches[j].kind == b->kind &&
			    s->branches[j].from_obj == b->from_obj; j++)
			;
		if (fi == UINT32_MAX)
			continue;
		struct report_func_branches *f = &bs->funcs[fi];

		if (b->kind == STREAM_BRANCH_TAKEN) {
			if (!(f->branches = calloc(j - i, sizeof(*f->branches))))
				return -ENOMEM;
		} else if (!(f->ranges = calloc(j - i, sizeof(*f->ranges)))) {
			return -ENOMEM;
		}
		for (size_t k = i; k < j; k++) {
			const struct stream_branch *e = &s->branches[k];

			if ((long)e->ev != r->event)
				continue;
			if (e->kind == STREAM_BRANCH_TAKEN) {
				add_taken(f, s, obj_func, e);
				continue;
			}
			f->ranges[f->ranges_nr++] = (struct report_range){
				.start = e->from_off, .end = e->to_off, .same = e->to_obj == e->from_obj,
				.end_name = s->objects[e->to_obj].name, .end_func = func_of(obj_func, e->to_obj),
				.count = e->count, .cycles_nr = e->cycles_nr, .cycles_sum = e->cycles_sum,
			};
		}
	}
	for (size_t fi = 0; fi < rep->funcs_nr; fi++) {
		if (bs->funcs[fi].ranges_nr && rep->funcs[fi].disassembled &&
		    (ret = check_ranges(bs, r, rank_of[fi], &bs->funcs[fi])))
			return ret;
	}
	if ((ret = unsampled_ends(rep, r)))
		return ret;
	if (bs->ranges_impossible || bs->ranges_crossing)
		return report_notes__add(rep, REPORT_NOTE_INPUT,
					 "%" PRIu64 " fall-through ranges of the branch stacks cannot have run straight "
					 "through the code (a jump, return or trap before their end, or an end before "
					 "their start) and %" PRIu64 " end in another function: counted as perf counts "
					 "them, left out of the block executions",
					 bs->ranges_impossible, bs->ranges_crossing);
	return 0;
}

void report_branches__release(struct report *rep)
{
	struct report_branch_stack *bs = rep->branch_stack;

	for (size_t i = 0; bs && i < rep->funcs_nr; i++) {
		report_branches__drop(rep, i);
		free(bs->funcs[i].branches);
		free(bs->funcs[i].ranges);
	}
	if (bs) {
		free(bs->costs);
		free(bs->funcs);
		free(bs->classes);
	}
	free(bs);
	rep->branch_stack = NULL;
}

/* A change of the count of ranges covering an offset, from pos on. */
struct cover_step {
	uint64_t pos;
	uint64_t add, sub;
};

static int cmp_step(const void *a, const void *b)
{
	const struct cover_step *x = a, *y = b;

	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/* Steps of f's same-function ranges: each covers [start, end + inclusive). */
static struct cover_step *cover_steps(const struct report_func_branches *f, bool inclusive, size_t *nr)
{
	struct cover_step *v = malloc((2 * f->ranges_nr + 1) * sizeof(*v));
	size_t n = 0;

	if (!v)
		return NULL;
	for (size_t i = 0; i < f->ranges_nr; i++) {
		const struct report_range *r = &f->ranges[i];

		if (!r->same || r->impossible || r->end < r->start)
			continue;
		v[n++] = (struct cover_step){ r->start, r->count, 0 };
		v[n++] = (struct cover_step){ r->end + inclusive, 0, r->count };
	}
	qsort(v, n, sizeof(*v), cmp_step);
	*nr = n;
	return v;
}

/* The running cover at each of the ascending offsets at(k, arg), k < n, into put. */
static void sweep(const struct cover_step *v, size_t nv, size_t n, uint64_t (*at)(size_t, void *),
		  void (*put)(size_t, uint64_t, void *), void *arg)
{
	uint64_t add = 0, sub = 0;
	size_t j = 0;

	for (size_t k = 0; k < n; k++) {
		uint64_t x = at(k, arg);

		for (; j < nv && v[j].pos <= x; j++) {
			add = sat_add(add, v[j].add);
			sub = sat_add(sub, v[j].sub);
		}
		put(k, add - sub, arg);
	}
}

/* Offsets and their counts, for report_branches__runs. */
struct runs_at {
	const uint64_t *off;
	uint64_t *out;
};

static uint64_t runs_off(size_t k, void *c)
{
	return ((struct runs_at *)c)->off[k];
}

static void runs_put(size_t k, uint64_t n, void *c)
{
	((struct runs_at *)c)->out[k] = n;
}

int report_branches__runs(const struct report_func_branches *f, const uint64_t *off, size_t n, uint64_t *out)
{
	size_t nv;
	struct cover_step *v = cover_steps(f, true, &nv);
	struct runs_at c = { off, out };

	if (!v)
		return -ENOMEM;
	sweep(v, nv, n, runs_off, runs_put, &c);
	free(v);
	return 0;
}

/* A function being measured: its listing and what is measured of it. */
struct measuring {
	const struct report_func *f;
	struct report_measured *m;
};

static uint64_t block_at(size_t k, void *c)
{
	return ((struct measuring *)c)->f->blocks[k].start;
}

static void block_put(size_t k, uint64_t n, void *c)
{
	((struct measuring *)c)->m->executions[k] = n;
}

static uint64_t row_at(size_t k, void *c)
{
	return ((struct measuring *)c)->f->rows[k].off;
}

static void row_put(size_t k, uint64_t n, void *c)
{
	((struct measuring *)c)->m->rows[k].not_taken = n;
}

/* How often control went along f's edge e, measured (report_edge.measured). */
static uint64_t edge_count(const struct report_func *lf, const struct report_func_branches *f,
			   const struct report_edge *e)
{
	const struct report_block *a = &lf->blocks[e->from], *b = &lf->blocks[e->to];
	uint64_t n = 0;

	if (e->kind == REPORT_EDGE_FALLTHROUGH) {
		for (size_t i = 0; i < f->ranges_nr; i++) {
			const struct report_range *r = &f->ranges[i];

			if (r->same && !r->impossible && r->start < b->start && b->start <= r->end &&
			    r->start <= r->end)
				n = sat_add(n, r->count);
		}
		return n;
	}
	for (size_t i = 0; i < f->branches_nr; i++) {
		const struct report_branch *t = &f->branches[i];

		if (t->same && t->from >= a->start && t->from < a->end && t->to == b->start)
			n = sat_add(n, t->count);
	}
	return n;
}

/* The cycles of the possible ranges that begin and end in one block. */
static void block_cycles(const struct report_func *f, const struct report_func_branches *fb,
			 struct report_measured *m)
{
	for (size_t i = 0; i < fb->ranges_nr; i++) {
		const struct report_range *r = &fb->ranges[i];

		if (!r->same || r->impossible || r->end < r->start || !r->cycles_nr)
			continue;
		/* the block holding its start: blocks are in address order */
		size_t b = LOWER_BOUND(f->blocks_nr, k, f->blocks[k].end <= r->start);

		if (b < f->blocks_nr && f->blocks[b].start <= r->start && r->end < f->blocks[b].end) {
			m->cycles[b][0] = sat_add(m->cycles[b][0], r->cycles_nr);
			m->cycles[b][1] = sat_add(m->cycles[b][1], r->cycles_sum);
		}
	}
}

void report_branches__drop(const struct report *rep, size_t fi)
{
	struct report_func_branches *fb = rep->branch_stack ? &rep->branch_stack->funcs[fi] : NULL;

	if (!fb || !fb->measured)
		return;
	free(fb->measured->executions);
	free(fb->measured->cycles);
	free(fb->measured->rows);
	free(fb->measured->edges);
	FREE_AND_NULL(fb->measured);
}

int report_branches__measure(const struct report *rep, size_t fi)
{
	struct report_func_branches *fb = rep->branch_stack ? &rep->branch_stack->funcs[fi] : NULL;
	const struct report_func *f = &rep->funcs[fi];
	struct report_measured *m;
	struct cover_step *v = NULL;
	struct measuring c;
	size_t nv;

	if (!fb)
		return 0;
	m = calloc(1, sizeof(*m));
	if (!(fb->measured = m) || !(m->executions = calloc(f->blocks_nr + 1, sizeof(*m->executions))) ||
	    !(m->cycles = calloc(f->blocks_nr + 1, sizeof(*m->cycles))) ||
	    !(m->rows = calloc(f->rows_nr + 1, sizeof(*m->rows))) ||
	    !(m->edges = calloc(f->edges_nr + 1, sizeof(*m->edges))) || !(v = cover_steps(fb, true, &nv)))
		return -ENOMEM;
	c = (struct measuring){ f, m };
	/* blocks and rows are in address order */
	sweep(v, nv, f->blocks_nr, block_at, block_put, &c);
	free(v);
	if (!(v = cover_steps(fb, false, &nv)))
		return -ENOMEM;
	sweep(v, nv, f->rows_nr, row_at, row_put, &c);
	free(v);
	/* edges are by from offset, as rows */
	for (size_t i = 0, b = 0; i < f->rows_nr; i++) {
		const struct report_row *row = &f->rows[i];
		struct report_row_branch *rb = &m->rows[i];

		for (; b < fb->branches_nr && fb->branches[b].from < row->off; b++)
			;
		for (; b < fb->branches_nr && fb->branches[b].from == row->off; b++)
			rb->taken = sat_add(rb->taken, fb->branches[b].count);
		rb->measured = rb->taken ||
			       (row->flags & (INSN_JUMP | INSN_COND | INSN_INDIRECT | INSN_RET | INSN_CALL));
		if (!rb->measured)
			rb->not_taken = 0;
	}
	for (size_t e = 0; e < f->edges_nr; e++)
		m->edges[e] = edge_count(f, fb, &f->edges[e]);
	block_cycles(f, fb, m);
	return 0;
}

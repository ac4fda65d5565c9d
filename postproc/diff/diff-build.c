/* SPDX-License-Identifier: MIT */
/* The comparison of two profiles (diff-build.h): sides, candidates, pairs, ranking, scales. */
#define _GNU_SOURCE	/* qsort_r */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/name-match.h"
#include "diff-build.h"
#include "diff-match.h"
#include "diff-noise.h"
#include "report/report-tiers.h"

static double share(uint64_t n, uint64_t total)
{
	return total ? (double)n * 100.0 / (double)total : 0.0;
}

/* new - base, stuck at the ends of int64_t. */
static int64_t difference(uint64_t base, uint64_t nw)
{
	if (nw >= base)
		return nw - base > (uint64_t)INT64_MAX ? INT64_MAX : (int64_t)(nw - base);
	return base - nw > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)(base - nw);
}

static double magnitude(const struct diff *d, double delta, double delta_per_run)
{
	return d->opts.counts ? fabs(delta_per_run) : fabs(delta);
}

/* Samples per run of side s. */
static double per_run(const struct diff *d, int s, uint64_t n)
{
	return (double)n / (double)(d->runs[s] ? d->runs[s] : 1);
}

int diff__sign(const struct diff *d, double delta, double delta_per_run)
{
	char num[64];

	/* what prints as 0, 0.0 or 0.00 has no sign */
	if (d->opts.counts)
		return !(fabs(delta_per_run) >= (d->per_run ? 0.05 : 0.5)) ? 0 : delta_per_run > 0 ? 1 : -1;
	if (!strcmp(fmt_pct(num, sizeof(num), fabs(delta)), "0.00"))
		return 0;
	return delta > 0 ? 1 : -1;
}

/*
 * What a function, a block pair and a group each hold of their samples on
 * both sides (samples[]): their shares, and how NEW differs from BASE (the
 * fields of diff.h's diff_func).
 */
static void share_and_change(const struct diff *d, const uint64_t samples[DIFF__SIDES],
			     double share_of[DIFF__SIDES], double *delta, int64_t *delta_samples,
			     double *delta_per_run, int *sign)
{
	for (int s = 0; s < DIFF__SIDES; s++)
		share_of[s] = share(samples[s], d->total[s]);
	*delta = share_of[DIFF_NEW] - share_of[DIFF_BASE];
	*delta_samples = difference(samples[DIFF_BASE], samples[DIFF_NEW]);
	*delta_per_run = per_run(d, DIFF_NEW, samples[DIFF_NEW]) - per_run(d, DIFF_BASE, samples[DIFF_BASE]);
	*sign = diff__sign(d, *delta, *delta_per_run);
}

double diff__change(const struct diff *d, double delta, double delta_per_run)
{
	double t = fmax(per_run(d, DIFF_BASE, d->total[DIFF_BASE]), per_run(d, DIFF_NEW, d->total[DIFF_NEW]));

	if (d->opts.counts)
		return t > 0 ? fabs(delta_per_run) / t : 0;
	return fabs(delta) / 100.0;
}

/* The event of each side: the one asked for, else BASE's first (by name in NEW). */
static int find_events(struct diff *d)
{
	const struct stream *b = d->work->side[DIFF_BASE].stream, *n = d->work->side[DIFF_NEW].stream;
	const char *name = d->opts.event;

	if (!name && b->events_nr)
		name = b->events[0].name;
	if (!name && n->events_nr)
		name = n->events[0].name;
	d->event = name;
	for (int s = 0; s < DIFF__SIDES; s++) {
		const struct stream *st = d->work->side[s].stream;

		d->side[s].event = name ? stream__find_event(st, name) : -1;
		/* A side without the event has no samples of it: only an asked
		 * event, or an event the other side has, must exist. */
		if (name && d->side[s].event < 0 && st->events_nr)
			return -ENOENT;
	}
	return 0;
}

/* Samples of the event per object, and each side's T and W. */
static int count_samples(struct diff *d)
{
	for (int s = 0; s < DIFF__SIDES; s++) {
		struct diff_work_side *side = &d->work->side[s];
		const struct stream *st = side->stream;
		size_t n = st->objects_nr ? st->objects_nr : 1;

		side->obj_samples = calloc(n, sizeof(*side->obj_samples));
		side->candidate = calloc(n, sizeof(*side->candidate));
		side->same_code = calloc(n, sizeof(*side->same_code));
		side->func_of = malloc(n * sizeof(*side->func_of));
		if (!side->obj_samples || !side->candidate || !side->same_code || !side->func_of)
			return -ENOMEM;
		if (d->side[s].event < 0)
			continue;
		d->total[s] = st->events[d->side[s].event].samples[HB_CLASS_ALL];
		for (size_t i = 0; i < st->objects_nr; i++) {
			const struct stream_object *o = &st->objects[i];
			uint64_t sum = 0;

			for (size_t k = 0; k < o->samples_nr; k++)
				if (o->samples[k].ev == (uint64_t)d->side[s].event)
					sum = sat_add(sum, o->samples[k].samples);
			side->obj_samples[i] = sum;
			if (o->kind == HB_KIND_JIT || o->kind == HB_KIND_CWASM)
				d->jit[s] = sat_add(d->jit[s], sum);
		}
	}
	return 0;
}

/* One side's function only, or two with the same code bytes (all known). */
static bool same_code(const struct stream_object *a, const struct stream_object *b)
{
	return a->code_nr && a->code_nr == a->size && b->code_nr == a->code_nr &&
	       b->size == a->size && a->e_machine == b->e_machine &&
	       !memcmp(a->code, b->code, a->code_nr);
}

static const char *display_name(struct diff_work_side *side, uint32_t obj)
{
	return annotator__display(side->annot, side->stream, obj);
}

/*
 * --function on both sides: per side, the strongest way the name matches
 * any sampled object (raw or display name) selects, as for one report.
 * A pair stays when either of its functions is selected.
 */
static int select_functions(struct diff *d)
{
	enum name_match best[DIFF__SIDES] = { NAME_MATCH_NONE, NAME_MATCH_NONE };
	enum name_match *m;
	size_t k = 0;

	if (!d->opts.function)
		return 0;
	m = malloc((d->funcs_nr ? d->funcs_nr : 1) * 2 * sizeof(*m));
	if (!m)
		return -ENOMEM;
	for (size_t i = 0; i < d->funcs_nr; i++)
		for (int s = 0; s < DIFF__SIDES; s++) {
			const struct diff_func *f = &d->funcs[i];
			enum name_match a = NAME_MATCH_NONE, b;

			if (f->obj[s] != UINT32_MAX) {
				a = name_match(d->opts.function, f->name[s]);
				b = name_match(d->opts.function, display_name(&d->work->side[s], f->obj[s]));
				a = b > a ? b : a;
			}
			m[2 * i + s] = a;
			if (a > best[s])
				best[s] = a;
		}
	for (size_t i = 0; i < d->funcs_nr; i++) {
		bool keep = false;

		for (int s = 0; s < DIFF__SIDES; s++)
			keep |= best[s] != NAME_MATCH_NONE && m[2 * i + s] == best[s];
		if (keep)
			d->funcs[k++] = d->funcs[i];
	}
	d->funcs_nr = k;
	free(m);
	return 0;
}

/* Hottest change first; ties by the most samples, then name, then object. */
static int func_cmp(const void *a, const void *b, void *arg)
{
	const struct diff *d = arg;
	const struct diff_func *x = a, *y = b;
	double mx = magnitude(d, x->delta, x->delta_per_run);
	double my = magnitude(d, y->delta, y->delta_per_run);
	uint64_t hx = x->samples[0] > x->samples[1] ? x->samples[0] : x->samples[1];
	uint64_t hy = y->samples[0] > y->samples[1] ? y->samples[0] : y->samples[1];
	int c;

	if (mx != my)
		return mx > my ? -1 : 1;
	if (hx != hy)
		return hx > hy ? -1 : 1;
	for (int s = 0; s < DIFF__SIDES; s++) {
		const char *nx = x->name[s] ? x->name[s] : "", *ny = y->name[s] ? y->name[s] : "";

		if ((c = strcmp(nx, ny)))
			return c;
	}
	for (int s = 0; s < DIFF__SIDES; s++)
		if (x->obj[s] != y->obj[s])
			return x->obj[s] < y->obj[s] ? -1 : 1;
	return 0;
}

/* Pairs by the same order (by default, those beyond noise first), then
 * function, then their place in it. */
static int pair_cmp(const void *a, const void *b, void *arg)
{
	const struct diff *d = arg;
	const struct diff_pair *x = &d->pairs[*(const uint32_t *)a];
	const struct diff_pair *y = &d->pairs[*(const uint32_t *)b];
	double mx = magnitude(d, x->delta, x->delta_per_run);
	double my = magnitude(d, y->delta, y->delta_per_run);
	uint64_t hx = x->samples[0] > x->samples[1] ? x->samples[0] : x->samples[1];
	uint64_t hy = y->samples[0] > y->samples[1] ? y->samples[0] : y->samples[1];

	/* by default the changes beyond noise first: they are what is shown */
	if (d->by_noise && x->test.significant != y->test.significant)
		return x->test.significant ? -1 : 1;
	if (mx != my)
		return mx > my ? -1 : 1;
	if (hx != hy)
		return hx > hy ? -1 : 1;
	if (x->func != y->func)
		return x->func < y->func ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* A pair's executions per 1000 of its side's branch-stack entries, and their change. */
static void measure_pair(const struct diff *d, struct diff_measured *m)
{
	for (int s = 0; s < DIFF__SIDES; s++)
		m->rate[s] = d->entries[s] ? (double)m->executions[s] * 1000.0 / (double)d->entries[s] : 0.0;
	m->delta = m->rate[DIFF_NEW] - m->rate[DIFF_BASE];
}

static bool is_candidate(void *arg, size_t obj)
{
	return ((const struct diff_work_side *)arg)->candidate[obj];
}

/*
 * Source lines pair the blocks of code that changed; code that did not
 * pairs by its offsets, and code of one side pairs with nothing: neither
 * needs a lookup (a DWARF lookup per instruction would cost more than the
 * rest of the comparison).
 */
static enum report_source source_rows(void *arg, size_t obj)
{
	const struct diff_work_side *side = arg;

	return side->same_code[obj] ? REPORT_SOURCE_NONE : REPORT_SOURCE_ALL;
}

static int build_side(struct diff *d, int s)
{
	struct diff_work_side *side = &d->work->side[s];
	struct report_opts repo = { .list_selected = true, .whole_functions = true,
				    .source_rows = source_rows, .source_rows_arg = side,
				    .tiers_apart = d->opts.tiers_apart };
	struct report *rep = &d->side[s].report;

	side->rank_opts = (struct rank_opts){
		.percent = 100.0, .no_threshold = true, .disassemble_all = true, .top = SIZE_MAX,
		.select = is_candidate, .select_arg = side,
		.whole_only = repo.whole_functions,
	};
	if (rank__build(&side->rank, side->stream, d->side[s].event, &side->rank_opts) ||
	    report__build(rep, &side->rank, &side->rank_opts, side->annot, &repo))
		return -ENOMEM;
	for (size_t i = 0; i < side->stream->objects_nr; i++)
		side->func_of[i] = UINT32_MAX;
	for (size_t i = 0; i < rep->funcs_nr; i++)
		side->func_of[rep->funcs[i].obj] = (uint32_t)i;
	return 0;
}

/*
 * What the outputs show of it: a function is drawn when it holds a shown
 * pair; the page's one change scale goes up to the largest change of a
 * drawn function's pair, and each side's bars to its hottest row there.
 */
static void decide_shown(struct diff *d)
{
	for (size_t i = 0; i < d->shown_nr; i++)
		d->funcs[d->pairs[d->ranked[i]].func].drawn = true;
	for (size_t i = 0; i < d->funcs_nr; i++) {
		const struct diff_func *f = &d->funcs[i];

		if (!f->drawn)
			continue;
		for (size_t j = 0; j < f->pairs_nr; j++)
			if (d->pairs[f->first_pair + j].change > d->change_max)
				d->change_max = d->pairs[f->first_pair + j].change;
		for (int s = 0; s < DIFF__SIDES; s++) {
			const struct report_func *rf;

			if (f->f[s] < 0)
				continue;
			rf = &d->side[s].report.funcs[f->f[s]];
			if (rf->row_max > d->row_max[s])
				d->row_max[s] = rf->row_max;
		}
	}
	d->function_unmatched = d->opts.function && !d->funcs_nr;
}

/* The first round of diff__build's for the shown pairs alone. */
#define DIFF_ROUND 64

/* The most a pair of blocks of f can change (magnitude's unit). */
static double bound(const struct diff *d, const struct diff_func *f)
{
	if (d->opts.counts)
		return fmax(per_run(d, 0, f->samples[0]), per_run(d, 1, f->samples[1]));
	return fmax(f->share[0], f->share[1]);
}

/* Functions by bound, the largest first; ties in funcs order. */
static int bound_cmp(const void *a, const void *b, void *arg)
{
	const struct diff *d = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	double bx = bound(d, &d->funcs[x]), by = bound(d, &d->funcs[y]);

	if (bx != by)
		return bx > by ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * Compare the blocks of funcs[which[0..nr)]: the sides ranked and reported
 * over those functions, their blocks paired, the pairs ranked and the shown
 * ones taken.
 */
static int compare_blocks(struct diff *d, const uint32_t *which, size_t nr)
{
	const struct diff_opts *o = &d->opts;
	size_t i;
	int ret;

	for (size_t k = 0; k < nr; k++) {
		struct diff_func *f = &d->funcs[which[k]];
		bool both = f->obj[0] != UINT32_MAX && f->obj[1] != UINT32_MAX;

		f->compared = true;
		for (int s = 0; s < DIFF__SIDES; s++)
			if (f->obj[s] != UINT32_MAX) {
				d->work->side[s].candidate[f->obj[s]] = true;
				d->work->side[s].same_code[f->obj[s]] = f->same_code || !both;
			}
	}
	for (int s = 0; s < DIFF__SIDES; s++) {
		if ((ret = build_side(d, s)))
			return ret;
		if (d->has_measured)
			d->entries[s] = d->side[s].report.branch_stack->entries;
	}
	for (i = 0; i < d->funcs_nr; i++) {
		struct diff_func *f = &d->funcs[i];

		for (int s = 0; s < DIFF__SIDES; s++) {
			uint32_t at = f->obj[s] != UINT32_MAX ? d->work->side[s].func_of[f->obj[s]] : UINT32_MAX;

			f->f[s] = at == UINT32_MAX ? -1 : (int32_t)at;
		}
		f->first_pair = d->pairs_nr;
		if (!f->compared)
			continue;
		d->compared_nr++;
		if ((ret = diff_match__blocks(d, i)))
			return ret;
	}

	for (i = 0; i < d->pairs_nr; i++) {
		struct diff_pair *p = &d->pairs[i];

		share_and_change(d, p->samples, p->share, &p->delta, &p->delta_samples, &p->delta_per_run, &p->sign);
		p->change = diff__change(d, p->delta, p->delta_per_run);
		if (d->has_measured)
			measure_pair(d, &d->measured[i]);
	}
	for (i = 0; i < d->groups_nr; i++) {
		struct diff_group *g = &d->groups[i];

		share_and_change(d, g->samples, g->share, &g->delta, &g->delta_samples, &g->delta_per_run, &g->sign);
	}
	if ((ret = diff_noise__test_pairs(d)))
		return ret;
	d->ranked = malloc((d->pairs_nr ? d->pairs_nr : 1) * sizeof(*d->ranked));
	if (!d->ranked)
		return -ENOMEM;
	for (i = 0; i < d->pairs_nr; i++)
		d->ranked[i] = (uint32_t)i;
	if (d->pairs_nr > 1)
		qsort_r(d->ranked, d->pairs_nr, sizeof(*d->ranked), pair_cmp, d);
	/* Ranked by magnitude (by default, beyond noise first): the pairs that
	 * pass are a prefix. */
	for (i = 0; i < d->pairs_nr; i++) {
		struct diff_pair *p = &d->pairs[d->ranked[i]];

		p->rank = (uint32_t)(i + 1);
		if (d->shown_nr == i && d->shown_nr < o->top &&
		    (o->all || magnitude(d, p->delta, p->delta_per_run) >= d->min_delta) &&
		    (!d->by_noise || p->test.significant)) {
			p->shown = true;
			d->shown_nr++;
		}
	}
	return 0;
}

/* Undo compare_blocks, for a round of more functions. */
static void uncompare(struct diff *d)
{
	for (int s = 0; s < DIFF__SIDES; s++) {
		struct diff_work_side *side = &d->work->side[s];

		report__release(&d->side[s].report);
		rank__release(&side->rank);
		memset(side->candidate, 0, side->stream->objects_nr * sizeof(*side->candidate));
	}
	for (size_t i = 0; i < d->funcs_nr; i++) {
		struct diff_func *f = &d->funcs[i];

		f->compared = false;
		f->first_pair = f->pairs_nr = 0;
		f->f[0] = f->f[1] = -1;
	}
	FREE_AND_NULL(d->ranked);
	d->pairs_nr = d->shown_nr = d->compared_nr = 0;
	d->groups_nr = d->group_blocks_nr = 0;
	memset(d->keys, 0, sizeof(d->keys));
}

/* A function's name with its tiers together: its hottest tier's display
 * name without the tier (report-tiers.h), else its stream name without. */
static const char *tiers_name(struct diff *d, const struct diff_func *f, int s)
{
	const struct diff_tier *t = &d->tiers[f->first_tier[s]];
	char *name = report_tiers__untiered(display_name(&d->work->side[s], t->obj), t->tier);

	if (!name || VEC_GROW(d->names, d->names_nr + 1, d->names_alloc)) {
		free(name);
		return f->raw_name[s];
	}
	return d->names[d->names_nr++] = name;
}

/* Each function's shares, names and change, once they are paired. */
static void measure_funcs(struct diff *d)
{
	for (size_t i = 0; i < d->funcs_nr; i++) {
		struct diff_func *f = &d->funcs[i];

		for (int s = 0; s < DIFF__SIDES; s++) {
			if (f->obj[s] != UINT32_MAX && !f->tiers_nr[s])
				f->name[s] = display_name(&d->work->side[s], f->obj[s]);
			else if (f->tiers_nr[s])
				f->name[s] = tiers_name(d, f, s);
			f->block_name[s] = f->obj[s] == UINT32_MAX ? NULL : !f->tiers_nr[s] ? f->name[s] :
					   display_name(&d->work->side[s], f->obj[s]);
			for (size_t t = 0; t < f->tiers_nr[s]; t++)
				if (d->tiers[f->first_tier[s] + t].obj == f->obj[s])
					f->block_tier[s] = d->tiers[f->first_tier[s] + t].tier;
		}
		share_and_change(d, f->samples, f->share, &f->delta, &f->delta_samples, &f->delta_per_run, &f->sign);
		f->change = diff__change(d, f->delta, f->delta_per_run);
		if (f->obj[0] != UINT32_MAX && f->obj[1] != UINT32_MAX)
			f->same_code = same_code(&d->work->side[0].stream->objects[f->obj[0]],
						 &d->work->side[1].stream->objects[f->obj[1]]);
	}
}

/*
 * Which function pairs are compared block by block. A block never has
 * more samples than its function: a pair whose larger side is below
 * the threshold cannot hold a pair of blocks above it, and is compared
 * by its totals alone. By default (the threshold the least change the
 * test can tell), only those that changed beyond noise: a function
 * taking the same share holds block changes that are noise, or moves
 * within it, which --all or --min-delta shows (JIT code is another code
 * in every run: "its code changed" would take every JIT function).
 * Those that can hold a shown pair, the most that can first.
 */
static int compare_funcs(struct diff *d, const struct diff_opts *o)
{
	uint32_t *eligible;
	size_t eligible_nr = 0, limit;
	int ret;

	if (!(eligible = malloc((d->funcs_nr ? d->funcs_nr : 1) * sizeof(*eligible))))
		return -ENOMEM;
	for (size_t i = 0; i < d->funcs_nr; i++)
		if ((o->all || bound(d, &d->funcs[i]) >= d->min_delta) &&
		    (!d->by_noise || d->funcs[i].test.significant))
			eligible[eligible_nr++] = (uint32_t)i;
	if (eligible_nr > 1)
		qsort_r(eligible, eligible_nr, sizeof(*eligible), bound_cmp, d);
	/*
	 * An output of the shown pairs alone (the text) needs the blocks of a
	 * function only while it could hold one: compare the most that could
	 * first, in rounds of 64, 256, ... functions, until the last shown
	 * pair changed more than the next function could (a pair never changes
	 * more than the larger side of its function). The others show every
	 * pair of every function that can hold a shown one. By default a pair
	 * is shown only beyond noise, a test over the family of every compared
	 * pair: all the functions that can hold one are compared, so that the
	 * test is the same whatever the output.
	 */
	limit = o->shown_only && !o->all && !d->by_noise && o->top != SIZE_MAX ? DIFF_ROUND :
										   eligible_nr;
	for (;;) {
		if (limit > eligible_nr)
			limit = eligible_nr;
		if ((ret = compare_blocks(d, eligible, limit)))
			break;
		if (limit == eligible_nr || (d->shown_nr && d->shown_nr == o->top &&
		    magnitude(d, d->pairs[d->ranked[d->shown_nr - 1]].delta,
			      d->pairs[d->ranked[d->shown_nr - 1]].delta_per_run) >
		    bound(d, &d->funcs[eligible[limit]])))
			break;
		uncompare(d);
		limit *= 4;
	}
	free(eligible);
	return ret;
}

int diff__build(struct diff *d, const struct diff_input in[DIFF__SIDES], const struct diff_opts *o)
{
	int ret;

	memset(d, 0, sizeof(*d));
	d->opts = *o;
	if (!(d->work = calloc(1, sizeof(*d->work))))
		return -ENOMEM;
	for (int s = 0; s < DIFF__SIDES; s++) {
		d->side[s].label = in[s].label;
		d->side[s].files = in[s].files;
		d->work->side[s].stream = in[s].stream;
		d->work->side[s].annot = in[s].annot;
	}
	if ((ret = find_events(d)))
		return ret;
	/* measured edges compare only when both sides measured them */
	d->has_measured = in[DIFF_BASE].stream->has_branches && in[DIFF_NEW].stream->has_branches;
	if ((ret = count_samples(d)) || (ret = diff_match__funcs(d)) || (ret = select_functions(d)))
		return ret;

	if ((ret = diff_noise__model(d)))
		return ret;
	/* no change can be significant (a side without samples): the plain
	 * floor of old, 0.1 points or a sample a run */
	d->min_delta = o->min_delta >= 0 ? o->min_delta : isfinite(d->noise.min_delta) ?
		       d->noise.min_delta : o->counts ? 1.0 : 0.1;
	d->by_noise = o->min_delta < 0 && !o->all && !o->function;

	measure_funcs(d);
	if ((ret = diff_noise__test_funcs(d)))
		return ret;
	if (d->funcs_nr > 1)
		qsort_r(d->funcs, d->funcs_nr, sizeof(*d->funcs), func_cmp, d);
	/* Ranked by magnitude: the functions that pass are a prefix too. */
	while (d->funcs_shown_nr < d->funcs_nr && d->funcs_shown_nr < o->top &&
	       (o->all || magnitude(d, d->funcs[d->funcs_shown_nr].delta,
				    d->funcs[d->funcs_shown_nr].delta_per_run) >= d->min_delta))
		d->funcs_shown_nr++;
	if ((ret = compare_funcs(d, o)))
		return ret;
	for (size_t i = 0; i < d->funcs_nr; i++)
		if (!d->funcs[i].compared)
			d->funcs[i].same_code = false;
	decide_shown(d);
	return 0;
}

void diff__release(struct diff *d)
{
	for (int s = 0; s < DIFF__SIDES; s++) {
		struct diff_work_side *side = d->work ? &d->work->side[s] : NULL;

		report__release(&d->side[s].report);
		if (!side)
			continue;
		rank__release(&side->rank);
		FREE_AND_NULL(side->obj_samples);
		FREE_AND_NULL(side->candidate);
		FREE_AND_NULL(side->same_code);
		FREE_AND_NULL(side->func_of);
	}
	FREE_AND_NULL(d->work);
	FREE_AND_NULL(d->funcs);
	FREE_AND_NULL(d->pairs);
	FREE_AND_NULL(d->measured);
	FREE_AND_NULL(d->ranked);
	FREE_AND_NULL(d->tiers);
	FREE_AND_NULL(d->groups);
	FREE_AND_NULL(d->group_blocks);
	d->groups_nr = d->group_blocks_nr = 0;
	for (size_t i = 0; i < d->names_nr; i++)
		free(d->names[i]);
	FREE_AND_NULL(d->names);
	d->names_nr = d->tiers_nr = 0;
	d->funcs_nr = d->funcs_shown_nr = d->pairs_nr = d->shown_nr = 0;
}

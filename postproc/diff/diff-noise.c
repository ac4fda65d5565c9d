/* SPDX-License-Identifier: MIT */
/* The noise of a comparison and the test of its pairs (diff-noise.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "diff-match.h"
#include "diff-noise.h"

static enum diff_significance_scale scale_of(const struct diff *d)
{
	return d->opts.counts ? DIFF_SIGNIFICANCE_COUNTS : DIFF_SIGNIFICANCE_SHARES;
}

/*
 * One side's runs x categories: a column per object with at least
 * DIFF_SIGNIFICANCE_MIN_EXPECTED samples of the event, one for the objects
 * with fewer (which diff_significance__spread would pool in any run: their
 * expected samples are below that everywhere; gathering them first keeps the
 * table at most samples / 5 columns wide), one for the samples of no
 * object (the run's total less the rest, so each row sums to the run's total).
 */
static int side_spread(struct diff *d, int s, struct diff_significance_spread *out)
{
	const struct diff_work_side *w = &d->work->side[s];
	const struct stream *st = w->stream;
	long ev = d->side[s].event;
	size_t runs = st->runs_nr ? st->runs_nr : 1, cols = 2, c = 0;
	uint64_t *table;
	int ret;

	for (size_t i = 0; i < st->objects_nr; i++)
		cols += w->obj_samples[i] >= DIFF_SIGNIFICANCE_MIN_EXPECTED;
	table = calloc(runs * cols, sizeof(*table));
	if (!table)
		return -ENOMEM;
	for (size_t r = 0; ev >= 0 && r < st->runs_nr; r++)
		for (size_t k = 0; k < st->runs[r].totals_nr; k++)
			if ((long)st->runs[r].totals[k].ev == ev)
				table[r * cols + cols - 1] += st->runs[r].totals[k].samples;
	for (size_t i = 0; ev >= 0 && i < st->objects_nr; i++) {
		const struct stream_object *o = &st->objects[i];
		size_t col;

		if (!w->obj_samples[i])
			continue;
		col = w->obj_samples[i] >= DIFF_SIGNIFICANCE_MIN_EXPECTED ? c++ : cols - 2;
		for (size_t k = 0; k < o->tally_nr; k++) {
			const struct stream_tally *t = &o->tally[k];
			uint64_t *rest = &table[t->run * cols + cols - 1];

			if ((long)t->ev != ev || t->run >= runs)
				continue;
			table[t->run * cols + col] += t->samples;
			/* the run's total holds its objects' samples; a stream
			 * that says otherwise gets no negative rest */
			*rest = *rest > t->samples ? *rest - t->samples : 0;
		}
	}
	ret = diff_significance__spread(scale_of(d), table, runs, cols, out);
	free(table);
	return ret;
}

int diff_noise__model(struct diff *d)
{
	struct diff_noise *n = &d->noise;
	double spread = d->opts.spread > 0 ? d->opts.spread : d->opts.spread < 0 ? 0.0 : DIFF_NOISE_SPREAD;
	double unit = d->opts.counts ? 1.0 : 100.0;
	int ret;

	for (int s = 0; s < DIFF__SIDES; s++) {
		const struct stream *st = d->work->side[s].stream;

		d->runs[s] = st->runs_nr ? st->runs_nr : 1;
		if ((ret = side_spread(d, s, &n->spread[s])))
			return ret;
	}
	d->per_run = d->opts.counts && (d->runs[DIFF_BASE] > 1 || d->runs[DIFF_NEW] > 1);
	diff_significance__init(&n->model, scale_of(d), &n->spread[DIFF_BASE], &n->spread[DIFF_NEW]);
	if (spread > 0)
		diff_significance__assume(&n->model, spread * spread);
	n->min_samples = diff_significance__min_samples(&n->model);
	n->min_delta = diff_significance__min_delta(&n->model) * unit;
	n->half_width[0] = diff_significance__half_width(&n->model, d->opts.counts ? 100.0 : 0.01) * unit;
	n->half_width[1] = diff_significance__half_width(&n->model, d->opts.counts ? 1000.0 : 0.10) * unit;
	return 0;
}

/* One pair's test, before its q-value. */
static void test_one(const struct diff *d, uint64_t a, uint64_t b, struct diff_test *t)
{
	const struct diff_noise *n = &d->noise;
	double unit = d->opts.counts ? 1.0 : 100.0;
	struct diff_significance_test r;

	t->tested = a + b >= a && a + b >= n->min_samples;
	if (t->tested)
		diff_significance__test(&n->model, a, b, &r);
	else
		diff_significance__interval(&n->model, a, b, &r);
	t->lo = r.lo * unit;
	t->hi = r.hi * unit;
	t->p = t->tested ? r.p : NAN;
	t->q = NAN;
	t->significant = false;
}

/*
 * Benjamini-Hochberg over the tested of nr tests (tests[i * stride]), as if
 * unseen more had p = 1: they count in the family, never among the
 * discoveries. Sets q and significant; returns the number tested, or
 * (size_t)-1 out of memory.
 */
static size_t adjust(const struct diff *d, struct diff_test *tests, size_t nr, size_t stride,
		     size_t unseen, size_t *significant)
{
	size_t m = 0, k = 0;
	double *p;

	for (size_t i = 0; i < nr; i++)
		m += ((struct diff_test *)((char *)tests + i * stride))->tested;
	p = calloc(m ? m : 1, sizeof(*p));
	if (!p)
		return (size_t)-1;
	for (size_t i = 0; i < nr; i++) {
		const struct diff_test *t = (struct diff_test *)((char *)tests + i * stride);

		if (t->tested)
			p[k++] = t->p;
	}
	if (diff_significance__adjust_in(p, p, k, k + unseen)) {
		free(p);
		return (size_t)-1;
	}
	k = 0;
	*significant = 0;
	for (size_t i = 0; i < nr; i++) {
		struct diff_test *t = (struct diff_test *)((char *)tests + i * stride);

		if (!t->tested)
			continue;
		t->q = p[k++];
		t->significant = t->q <= d->noise.model.fdr;
		*significant += t->significant;
	}
	free(p);
	return m;
}

int diff_noise__test_funcs(struct diff *d)
{
	struct diff_noise *n = &d->noise;

	for (size_t i = 0; i < d->funcs_nr; i++)
		test_one(d, d->funcs[i].samples[DIFF_BASE], d->funcs[i].samples[DIFF_NEW],
			 &d->funcs[i].test);
	n->tests_funcs = adjust(d, d->funcs_nr ? &d->funcs[0].test : NULL, d->funcs_nr,
				sizeof(*d->funcs), 0, &n->significant_funcs);
	if (n->tests_funcs == (size_t)-1)
		return -ENOMEM;
	for (size_t i = 0; i < d->funcs_nr; i++)
		d->funcs[i].mark = d->funcs[i].test.significant ? d->funcs[i].sign : 0;
	return 0;
}

int diff_noise__test_pairs(struct diff *d)
{
	struct diff_noise *n = &d->noise;

	/* A function's block pairs share its samples: those of a + b >=
	 * min_samples are at most its a + b over min_samples. */
	n->blocks_unseen = 0;
	for (size_t i = 0; i < d->funcs_nr && n->min_samples != UINT64_MAX; i++) {
		const struct diff_func *f = &d->funcs[i];
		uint64_t all = sat_add(f->samples[DIFF_BASE], f->samples[DIFF_NEW]);

		if (!f->compared && n->min_samples)
			n->blocks_unseen += (size_t)(all / n->min_samples);
	}
	for (size_t i = 0; i < d->pairs_nr; i++)
		test_one(d, d->pairs[i].samples[DIFF_BASE], d->pairs[i].samples[DIFF_NEW],
			 &d->pairs[i].test);
	n->tests_blocks = adjust(d, d->pairs_nr ? &d->pairs[0].test : NULL, d->pairs_nr,
				 sizeof(*d->pairs), n->blocks_unseen, &n->significant_blocks);
	if (n->tests_blocks == (size_t)-1)
		return -ENOMEM;
	for (size_t i = 0; i < d->pairs_nr; i++)
		d->pairs[i].mark = d->pairs[i].test.significant ? d->pairs[i].sign : 0;
	return 0;
}

/* SPDX-License-Identifier: MIT */
/* Noise and significance of a comparison (diff-significance.h). */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "diff-significance.h"

/* The distributions: upper tails, to the precision the tests need (1e-12 relative). */

#define TINY 1e-300

static double normal_sf(double x)
{
	return 0.5 * erfc(x / M_SQRT2);
}

/*
 * One step of a continued fraction's evaluation by the modified Lentz
 * method, for the term an / (bn + ...): updates c and d, returns the factor
 * the value is multiplied by (1 when it has converged).
 */
static double lentz_step(double *c, double *d, double an, double bn)
{
	*d = bn + an * *d;
	*c = bn + an / *c;
	*d = 1.0 / (fabs(*d) < TINY ? TINY : *d);
	*c = fabs(*c) < TINY ? TINY : *c;
	return *c * *d;
}

/* The continued fraction of the incomplete beta function. */
static double beta_cf(double a, double b, double x)
{
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), h;

	d = 1.0 / (fabs(d) < TINY ? TINY : d);
	h = d;
	for (int m = 1; m <= 10000; m++) {
		double m2 = 2.0 * m, del;

		h *= lentz_step(&c, &d, m * (b - m) * x / ((a - 1.0 + m2) * (a + m2)), 1.0);
		h *= del = lentz_step(&c, &d, -(a + m) * (a + b + m) * x / ((a + m2) * (a + 1.0 + m2)), 1.0);
		if (fabs(del - 1.0) < 1e-16)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b), with xc = 1 - x given exactly. */
static double ibeta(double a, double b, double x, double xc)
{
	double front;

	if (x <= 0.0)
		return 0.0;
	if (xc <= 0.0)
		return 1.0;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(xc));
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * beta_cf(a, b, x) / a;
	return 1.0 - front * beta_cf(b, a, xc) / b;
}

/* P(T > t) for Student's t with df degrees of freedom, t >= 0. */
static double student_sf(double t, double df)
{
	double t2 = t * t;

	return 0.5 * ibeta(df / 2.0, 0.5, df / (df + t2), t2 / (df + t2));
}

/* The regularized upper incomplete gamma function Q(a, x). */
static double gamma_q(double a, double x)
{
	double front, sum, del, b, c, d, h;

	if (x <= 0.0)
		return 1.0;
	front = exp(-x + a * log(x) - lgamma(a));
	if (x < a + 1.0) {
		/* the series of P(a, x) */
		sum = del = 1.0 / a;
		for (int n = 1; n <= 10000 && fabs(del) > fabs(sum) * 1e-17; n++) {
			del *= x / (a + n);
			sum += del;
		}
		return 1.0 - sum * front;
	}
	/* the continued fraction of Q */
	b = x + 1.0 - a;
	c = 1.0 / TINY;
	d = 1.0 / b;
	h = d;
	for (int i = 1; i <= 10000; i++) {
		b += 2.0;
		h *= del = lentz_step(&c, &d, -i * (i - a), b);
		if (fabs(del - 1.0) < 1e-16)
			break;
	}
	return front * h;
}

static double chi2_sf(double x2, double df)
{
	return gamma_q(df / 2.0, x2 / 2.0);
}

/* The upper tail of the critical value's distribution: normal, or t with s->df. */
static double crit_sf(const struct diff_significance *s, double c)
{
	return s->df > 0 ? student_sf(c, s->df) : normal_sf(c);
}

/* The c >= 0 with crit_sf(c) = tail (decreasing in c: bisection). */
static double crit_quantile(const struct diff_significance *s, double tail)
{
	double lo = 0.0, hi = 1.0;

	if (tail >= 0.5)
		return 0.0;
	while (crit_sf(s, hi) > tail && hi < 1e12)
		hi *= 2.0;
	for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
		double mid = 0.5 * (lo + hi);

		if (crit_sf(s, mid) > tail)
			lo = mid;
		else
			hi = mid;
	}
	return 0.5 * (lo + hi);
}

/* Intervals. */

struct bounds {
	double est, lo, hi;
};

/*
 * One side's estimate and its score interval at critical value c, for x
 * samples (a real number: the noise level asks for shares between counts).
 * Shares: Wilson's interval of x of n, with n / phi samples. Counts: the
 * Poisson score interval of x / phi, scaled back, per run. phi is the
 * side's run-to-run spread at its estimate. Both lower bounds in their
 * rationalized form, exact where the textbook form cancels (x near 0,
 * large c).
 */
static struct bounds side_bounds(const struct diff_significance *s, int side, double x, double c)
{
	double n = s->n[side], c2 = c * c;
	struct bounds r;

	if (!(n > 0.0))
		return (struct bounds){ 0.0, 0.0, s->scale == DIFF_SIGNIFICANCE_SHARES ? 1.0 : HUGE_VAL };
	if (s->scale == DIFF_SIGNIFICANCE_SHARES) {
		double p = x / n, q, ne, root;

		p = p < 0.0 ? 0.0 : p > 1.0 ? 1.0 : p;
		q = 1.0 - p;
		ne = n / (1.0 + s->tau2 * s->run_size[side] * p * q);
		root = c * sqrt(p * q / ne + c2 / (4.0 * ne * ne));
		r.est = p;
		r.lo = p * p / (p + c2 / (2.0 * ne) + root);
		r.hi = 1.0 - q * q / (q + c2 / (2.0 * ne) + root);
	} else {
		double phi = 1.0 + s->tau2 * x / n, xe = x / phi, root = c * sqrt(xe + c2 / 4.0);

		r.est = x / n;
		r.lo = xe + c2 / 2.0 + root > 0.0 ? phi * xe * xe / (xe + c2 / 2.0 + root) / n : 0.0;
		r.hi = phi * (xe + c2 / 2.0 + root) / n;
	}
	return r;
}

/* Newcombe's MOVER interval on NEW - BASE at critical value c. */
static void mover(const struct diff_significance *s, double a, double b, double c, double *lo,
		  double *hi)
{
	struct bounds x = side_bounds(s, 0, a, c), y = side_bounds(s, 1, b, c);
	double d = y.est - x.est;

	*lo = d - hypot(y.est - y.lo, x.hi - x.est);
	*hi = d + hypot(y.hi - y.est, x.est - x.lo);
}

/* Whether the interval at critical value c leaves out 0. */
static bool excludes_zero(const struct diff_significance *s, double a, double b, double c)
{
	double lo, hi;

	mover(s, a, b, c, &lo, &hi);
	return lo > 0.0 || hi < 0.0;
}

void diff_significance__set_alpha(struct diff_significance *s, double alpha)
{
	s->alpha = alpha;
	s->crit = crit_quantile(s, alpha / 2.0);
}

void diff_significance__assume(struct diff_significance *s, double tau2)
{
	if (s->df > 0)
		return;
	s->tau2 = tau2 > 0.0 ? tau2 : 0.0;
	s->assumed = true;
}

void diff_significance__init(struct diff_significance *s, enum diff_significance_scale scale,
			     const struct diff_significance_spread *base,
			     const struct diff_significance_spread *nw)
{
	const struct diff_significance_spread *side[2] = { base, nw };
	double excess = 0.0, weight = 0.0;

	*s = (struct diff_significance){ .scale = scale, .fdr = DIFF_SIGNIFICANCE_FDR, .p = 1.0 };
	for (int i = 0; i < 2; i++) {
		s->n[i] = scale == DIFF_SIGNIFICANCE_SHARES ? side[i]->samples : (double)side[i]->runs;
		s->run_size[i] = side[i]->run_size;
		if (side[i]->df > 0) {
			s->x2 += side[i]->x2;
			s->x2_df += side[i]->df;
			s->df += side[i]->tau2_df;
			excess += side[i]->excess;
			weight += side[i]->weight;
		}
	}
	s->tau2 = weight > 0.0 && excess > 0.0 ? excess / weight : 0.0;
	if (s->x2_df > 0)
		s->p = chi2_sf(s->x2, s->x2_df);
	diff_significance__set_alpha(s, DIFF_SIGNIFICANCE_ALPHA);
}

void diff_significance__interval(const struct diff_significance *s, uint64_t a, uint64_t b,
				 struct diff_significance_test *t)
{
	double x = (double)a, y = (double)b;

	mover(s, x, y, s->crit, &t->lo, &t->hi);
	t->delta = side_bounds(s, 1, y, 0.0).est - side_bounds(s, 0, x, 0.0).est;
	t->p = 1.0;
}

void diff_significance__test(const struct diff_significance *s, uint64_t a, uint64_t b,
			     struct diff_significance_test *t)
{
	double x = (double)a, y = (double)b, lo = 0.0, hi = 1.0;

	diff_significance__interval(s, a, b, t);
	if (t->delta == 0.0 || !(s->n[0] > 0.0) || !(s->n[1] > 0.0))
		return;
	/*
	 * The interval shrinks to delta as c goes to 0 and widens without end
	 * (past 0) as c grows: the c where its near end reaches 0 is the test's
	 * statistic, and p its two-sided tail.
	 */
	while (excludes_zero(s, x, y, hi)) {
		if (hi > 1e6) {
			t->p = 0.0;
			return;
		}
		hi *= 2.0;
	}
	for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
		double mid = 0.5 * (lo + hi);

		if (excludes_zero(s, x, y, mid))
			lo = mid;
		else
			hi = mid;
	}
	t->p = 2.0 * crit_sf(s, 0.5 * (lo + hi));
	if (t->p > 1.0)
		t->p = 1.0;
}

struct ranked_p {
	double p;
	size_t i;
};

static int ranked_cmp(const void *x, const void *y)
{
	const struct ranked_p *a = x, *b = y;

	if (a->p != b->p)
		return a->p < b->p ? -1 : 1;
	return a->i < b->i ? -1 : a->i > b->i;
}

int diff_significance__adjust(const double *p, double *q, size_t n)
{
	return diff_significance__adjust_in(p, q, n, n);
}

int diff_significance__adjust_in(const double *p, double *q, size_t n, size_t family)
{
	struct ranked_p *r;
	double least = 1.0;

	if (!n)
		return 0;
	if (family < n)
		family = n;
	r = malloc(n * sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		r[i] = (struct ranked_p){ p[i], i };
	qsort(r, n, sizeof(*r), ranked_cmp);
	for (size_t k = n; k-- > 0;) {
		double v = r[k].p * (double)family / (double)(k + 1);

		if (v < least)
			least = v;
		q[r[k].i] = least;
	}
	free(r);
	return 0;
}

/*
 * The fewest samples on one side that, with none on the other, make a
 * significant pair (the interval at crit leaves out 0); UINT64_MAX for none.
 * Significance grows with them: doubling, then bisection.
 */
static uint64_t least_alone(const struct diff_significance *s, int side)
{
	uint64_t lo = 0, hi = 1;
	uint64_t cap = s->scale == DIFF_SIGNIFICANCE_SHARES ? (uint64_t)s->n[side] : UINT64_MAX / 2;
	double x[2] = { 0.0, 0.0 };

	if (!(s->n[0] > 0.0) || !(s->n[1] > 0.0) || !cap)
		return UINT64_MAX;
	for (;;) {
		x[side] = (double)hi;
		if (excludes_zero(s, x[0], x[1], s->crit))
			break;
		if (hi >= cap)
			return UINT64_MAX;
		lo = hi;
		hi = hi > cap / 2 ? cap : 2 * hi;
	}
	/* Not LOWER_BOUND (plugin/lib/bsearch.h): its index is a size_t, these
	 * counts may pass 32 bits on a 32-bit host. */
	while (hi - lo > 1) {
		uint64_t mid = lo + (hi - lo) / 2;

		x[side] = (double)mid;
		if (excludes_zero(s, x[0], x[1], s->crit))
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

uint64_t diff_significance__min_samples(const struct diff_significance *s)
{
	uint64_t a = least_alone(s, 0), b = least_alone(s, 1);

	return a < b ? a : b;
}

double diff_significance__min_delta(const struct diff_significance *s)
{
	double best = HUGE_VAL;

	for (int side = 0; side < 2; side++) {
		uint64_t k = least_alone(s, side);

		if (k != UINT64_MAX && (double)k / s->n[side] < best)
			best = (double)k / s->n[side];
	}
	return best;
}

double diff_significance__half_width(const struct diff_significance *s, double level)
{
	double lo, hi;

	mover(s, level * s->n[0], level * s->n[1], s->crit, &lo, &hi);
	return (hi - lo) / 2.0;
}

/* Run-to-run spread. */

/* The table of spread's runs (rows) by categories (columns), and what its
 * test works with. */
struct spread_table {
	bool shares;
	const uint64_t *table;		/* [runs][cols] */
	size_t runs, cols;
	double *row, *col;		/* sums: per run, per category */
	size_t used;			/* runs that count */
	double total, squares, least_row;	/* of the runs that count */
	size_t *map;			/* [cols]: a category's column once pooled */
	size_t *big_col;
	size_t ncols;			/* columns once pooled */
	double *cell;			/* [runs][ncols]: the pooled table */
};

/* The sums of each run and category; which runs count (shares: a run without
 * samples says nothing of its shares), their total and its square. */
static void spread_sums(struct spread_table *t)
{
	for (size_t r = 0; r < t->runs; r++)
		for (size_t c = 0; c < t->cols; c++) {
			t->row[r] += (double)t->table[r * t->cols + c];
			t->col[c] += (double)t->table[r * t->cols + c];
		}
	for (size_t r = 0; r < t->runs; r++)
		if (!t->shares || t->row[r] > 0.0) {
			t->used++;
			t->total += t->row[r];
			t->squares += t->row[r] * t->row[r];
			if (t->row[r] < t->least_row)
				t->least_row = t->row[r];
		}
}

/*
 * The least expected samples of a category over the runs: each big one
 * keeps a column of its own (in order), the small ones share one after
 * them, or join the smallest big one when even together they are small.
 * t->map and t->ncols.
 */
static void spread_pool(struct spread_table *t)
{
	double pooled = 0.0, least_row = t->least_row, total = t->total;
	size_t big = 0, smallest = SIZE_MAX, pool, used = t->used;
	bool shares = t->shares;
	const double *col = t->col;

#define EXPECTED(sum) (shares ? least_row * (sum) / total : (sum) / (double)used)
	for (size_t c = 0; c < t->cols; c++) {
		if (EXPECTED(col[c]) >= DIFF_SIGNIFICANCE_MIN_EXPECTED) {
			if (smallest == SIZE_MAX || col[c] < col[t->big_col[smallest]])
				smallest = big;
			t->big_col[big] = c;
			t->map[c] = big++;
		} else {
			pooled += col[c];
			t->map[c] = SIZE_MAX;
		}
	}
	t->ncols = big;
	if (pooled > 0.0 && (EXPECTED(pooled) >= DIFF_SIGNIFICANCE_MIN_EXPECTED || !big))
		pool = t->ncols++;
	else if (pooled > 0.0)
		pool = smallest;
	else
		pool = SIZE_MAX;	/* the small ones have no samples */
	for (size_t c = 0; c < t->cols; c++)
		if (t->map[c] == SIZE_MAX)
			t->map[c] = pool;
#undef EXPECTED
}

/* The pooled table (t->cell) and its column sums (t->col, again). */
static void spread_fill(struct spread_table *t)
{
	memset(t->col, 0, t->cols * sizeof(*t->col));
	for (size_t r = 0; r < t->runs; r++)
		for (size_t c = 0; c < t->cols; c++)
			if (t->map[c] < t->ncols) {
				t->cell[r * t->ncols + t->map[c]] += (double)t->table[r * t->cols + c];
				t->col[t->map[c]] += (double)t->table[r * t->cols + c];
			}
}

/*
 * Pearson's chi-square of the table, and per category the chi-square of
 * its own share (count) over the runs, whose expectation tau^2 raises:
 * shares, by tau^2 p (1 - p) (total - sum of squares / total);
 * counts, by tau^2 (runs - 1) mean.
 */
static void spread_test(const struct spread_table *t, struct diff_significance_spread *out)
{
	bool shares = t->shares;
	size_t used = t->used, ncols = t->ncols;
	double total = t->total, x2 = 0.0, w, w2 = 0.0;

	for (size_t k = 0; k < ncols; k++) {
		double share = t->col[k] / total, mean = t->col[k] / (double)used, own = 0.0;

		for (size_t r = 0; r < t->runs; r++) {
			double o = t->cell[r * ncols + k], e;

			if (shares && !(t->row[r] > 0.0))
				continue;
			e = shares ? t->row[r] * share : mean;
			if (e > 0.0) {
				x2 += (o - e) * (o - e) / e;
				if (shares && share < 1.0)
					own += (o - e) * (o - e) / (e * (1.0 - share));
				else if (!shares)
					own += (o - e) * (o - e) / e;
			}
		}
		w = shares ? share * (1.0 - share) * (total - t->squares / total) :
			     (double)(used - 1) * mean;
		out->excess += own - (double)(used - 1);
		out->weight += w;
		w2 += w * w;
	}
	/* Most of tau^2's estimate comes from the hottest categories: its
	 * degrees of freedom count them as many as their weights make them. */
	if (w2 > 0.0)
		out->tau2_df = (double)(used - 1) *
			       (out->weight * out->weight / w2 - (shares ? 1.0 : 0.0));
	out->x2 = x2;
	out->df = shares ? (double)(used - 1) * (double)(ncols - 1) : (double)ncols * (double)(used - 1);
	out->p = chi2_sf(x2, out->df);
}

int diff_significance__spread(enum diff_significance_scale scale, const uint64_t *table,
			      size_t runs, size_t cols, struct diff_significance_spread *out)
{
	struct spread_table t = {
		.shares = scale == DIFF_SIGNIFICANCE_SHARES, .table = table, .runs = runs,
		.cols = cols, .least_row = HUGE_VAL,
	};
	int ret = -ENOMEM;

	*out = (struct diff_significance_spread){ .p = 1.0 };
	if (!runs || !cols)
		return 0;
	t.row = calloc(runs, sizeof(*t.row));
	t.col = calloc(cols, sizeof(*t.col));
	t.map = malloc(cols * sizeof(*t.map));
	t.big_col = malloc(cols * sizeof(*t.big_col));
	if (!t.row || !t.col || !t.map || !t.big_col)
		goto out;
	spread_sums(&t);
	out->runs = t.used;
	out->samples = t.total;
	out->run_size = t.total > 0.0 ? t.squares / t.total : 0.0;
	ret = 0;
	if (t.used < 2 || !(t.total > 0.0))
		goto out;
	spread_pool(&t);
	out->cols = t.ncols;
	if (t.ncols < (t.shares ? 2u : 1u))
		goto out;
	ret = -ENOMEM;
	if (!(t.cell = calloc(runs * t.ncols, sizeof(*t.cell))))
		goto out;
	spread_fill(&t);
	spread_test(&t, out);
	ret = 0;
out:
	free(t.row);
	free(t.col);
	free(t.map);
	free(t.big_col);
	free(t.cell);
	return ret;
}

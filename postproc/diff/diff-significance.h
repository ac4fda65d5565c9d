/* SPDX-License-Identifier: MIT */
/*
 * Whether a change between two profiles is beyond noise: the statistics of
 * `hotblocks diff` (what the test is, in words: postproc/DIFF.md, "Noise
 * and significance", and JSON.md).
 *
 * A pair of functions or blocks has a samples of A on the BASE side and b of
 * B on the NEW side (each side one run, or several runs merged). Its change
 * is b/B - a/A (shares), or with counts b/k_B - a/k_A samples per run (k:
 * the side's runs; the same -F on both sides makes it a change of time).
 *
 * Two noises make two profiles of the same program differ:
 *  - sampling: which instruction a timer tick lands on is a draw, so a
 *    share of N samples varies as a binomial proportion (a count as a
 *    Poisson count);
 *  - run to run: runs differ by more than that (another CPU frequency,
 *    cache and code placement, other load), and the more, the hotter the
 *    code: a run moves a share p by about tau p (1 - p), tau a few percent
 *    (a count mu by tau mu). It shows only where a side has several runs:
 *    diff_significance__spread measures it from the runs' table of
 *    functions (Pearson's chi-square of their homogeneity, and tau^2 by
 *    the method of moments), and diff_significance__init pools both
 *    sides' measures (one program on one machine varies alike).
 *
 * A side's share p of N samples in runs of m samples then varies by
 * p (1 - p) / N times phi = 1 + tau^2 m p (1 - p): it counts as N / phi
 * samples (with counts, phi = 1 + tau^2 mu for mu samples per run).
 * The interval on a change is Newcombe's hybrid score interval (MOVER):
 * each side's Wilson score interval (shares; for counts the Poisson score
 * interval) of its N / phi samples, combined into an interval on the
 * difference. Its critical value is the normal quantile, or Student's t with
 * the spread's degrees of freedom when the spread was measured. The p-value
 * is the interval's own: the least alpha at which the 1 - alpha interval
 * excludes 0, so p < alpha exactly when the interval excludes 0. Over the
 * many pairs of a comparison, Benjamini-Hochberg's q-values keep the
 * expected share of false changes among those called significant at most
 * the FDR (and, when nothing changed at all, the chance of calling anything
 * significant).
 *
 * Everything is O(1) per pair but diff_significance__spread (linear in its
 * table) and diff_significance__adjust (n log n).
 */
#ifndef POSTPROC_DIFF_SIGNIFICANCE_H
#define POSTPROC_DIFF_SIGNIFICANCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The defaults: 95% intervals, a false discovery rate of 5%. */
#define DIFF_SIGNIFICANCE_ALPHA 0.05
#define DIFF_SIGNIFICANCE_FDR 0.05
/* Pearson's chi-square asks this many expected samples of each cell (Cochran). */
#define DIFF_SIGNIFICANCE_MIN_EXPECTED 5.0

enum diff_significance_scale {
	DIFF_SIGNIFICANCE_SHARES,	/* b/B - a/A: B, A each side's total samples */
	DIFF_SIGNIFICANCE_COUNTS,	/* b/k_B - a/k_A: k each side's runs */
};

/* One side's runs, and how much they differ (diff_significance__spread). */
struct diff_significance_spread {
	size_t runs;		/* runs with samples (shares), or all runs (counts) */
	size_t cols;		/* categories tested, after pooling the small ones */
	double samples;		/* all of them (shares: of the runs counted) */
	double run_size;	/* shares: a run's samples (sum of squares over sum,
				 * for runs of different sizes) */
	double x2;		/* Pearson's chi-square of the runs' homogeneity */
	double df;		/* its degrees of freedom; 0: not measurable (fewer
				 * than 2 runs, or than 2 categories (shares) or 1
				 * (counts) of enough samples) */
	double p;		/* P(chi-square(df) >= x2): small when the runs differ
				 * beyond sampling noise; 1 when not measurable */
	double excess, weight;	/* tau^2's estimate is excess / weight (moments: the
				 * categories' chi-squares beyond their df, over what
				 * tau^2 = 1 would add to them) */
	double tau2_df;		/* the estimate's degrees of freedom (Satterthwaite:
				 * (runs - 1) times the categories' effective number,
				 * less one with shares, weighted as in weight) */
};

/* The noise model of one comparison (diff_significance__init). */
struct diff_significance {
	enum diff_significance_scale scale;
	double alpha;		/* each pair's interval covers 1 - alpha */
	double fdr;		/* Benjamini-Hochberg's level: significant is q <= fdr */
	double n[2];		/* BASE, NEW: samples (shares), or runs (counts) */
	double run_size[2];	/* shares: a run's samples */
	double tau2;		/* run-to-run variance, relative (>= 0; 0: sampling only) */
	double df;		/* tau2's degrees of freedom; 0: not measured */
	bool assumed;		/* tau2 is diff_significance__assume's, not measured */
	double x2, x2_df;	/* the chi-square of both sides' runs (0: not measured) */
	double p;		/* its p-value: the runs differ beyond sampling when small */
	double crit;		/* 1 - alpha/2 quantile: normal, or Student's t with df */
};

/* One pair's test. */
struct diff_significance_test {
	double delta;		/* NEW - BASE: fractions of 1 (shares), or samples per run */
	double lo, hi;		/* the 1 - alpha interval on delta */
	double p;		/* two-sided p-value: the least alpha whose interval excludes 0 */
};

/*
 * Measure one side's runs: table[r * cols + c] is the samples of run r in
 * category c (the functions of the side; with shares, each row must sum to
 * the run's total, so one column holds what no other does). One run is a
 * table too: it gives samples and run_size, and df 0. Categories whose
 * expected samples fall below DIFF_SIGNIFICANCE_MIN_EXPECTED in some run
 * are pooled into one (that one joined to the smallest other if still too
 * small). Shares: the chi-square of the runs x categories table, (runs - 1)
 * (cols - 1) degrees of freedom; runs without samples are left out.
 * Counts: each category's samples against their mean over the runs
 * (Poisson), cols (runs - 1) degrees of freedom. Returns 0 or -ENOMEM.
 */
int diff_significance__spread(enum diff_significance_scale scale, const uint64_t *table,
			      size_t runs, size_t cols, struct diff_significance_spread *out);

/*
 * Set up the model of a comparison of the sides base and nw (their
 * spreads), alpha and fdr at their defaults: tau2 from the sides whose
 * spread was measured (df > 0), pooled, at least 0; none: sampling noise
 * only, normal quantiles. A side without samples makes every interval the
 * whole range: nothing is significant.
 */
void diff_significance__init(struct diff_significance *s, enum diff_significance_scale scale,
			     const struct diff_significance_spread *base,
			     const struct diff_significance_spread *nw);

/*
 * Where the spread could not be measured (s->df 0: one run a side), take
 * tau2 as the run-to-run variance instead of none, and say so (assumed).
 * Nothing changes where it was measured.
 */
void diff_significance__assume(struct diff_significance *s, double tau2);

/* Set s->alpha, and the critical value of its intervals with it. */
void diff_significance__set_alpha(struct diff_significance *s, double alpha);

/* Test a pair of a samples (BASE) and b samples (NEW). */
void diff_significance__test(const struct diff_significance *s, uint64_t a, uint64_t b,
			     struct diff_significance_test *t);
/* Its delta and interval alone (p left 1): for a pair not tested, in O(1). */
void diff_significance__interval(const struct diff_significance *s, uint64_t a, uint64_t b,
				 struct diff_significance_test *t);

/*
 * Benjamini-Hochberg: q[i] is the least FDR at which p[i] is among the
 * rejected, min over the p-values ranked at or after it of p * n / rank
 * (capped at 1). p and q may be the same array. Returns 0 or -ENOMEM.
 */
int diff_significance__adjust(const double *p, double *q, size_t n);
/*
 * The same for n tests of a family of more (family >= n), the others with
 * p = 1 (not seen): they rank last, so each q is the least over the ranks at
 * or after it of p * family / rank (capped at 1). n log n, whatever family.
 */
int diff_significance__adjust_in(const double *p, double *q, size_t n, size_t family);

/*
 * The least samples a pair (a + b) must have to be significant at all: with
 * fewer, even all of them on one side gives p >= alpha, so no q-value can
 * pass fdr <= alpha. A comparison can leave such pairs out of its tests
 * without favouring any outcome (the sum a + b says nothing of how the
 * samples split). UINT64_MAX: no pair can be significant.
 */
uint64_t diff_significance__min_samples(const struct diff_significance *s);

/*
 * The smallest |delta| any pair can have and be significant (at alpha, so
 * at any fdr <= alpha): hiding smaller changes hides nothing significant.
 * In delta's unit; HUGE_VAL when no pair can be significant.
 */
double diff_significance__min_delta(const struct diff_significance *s);

/*
 * The noise level at a share (fraction of 1; with counts, samples per run):
 * half the width of the interval on the change of a pair that has that
 * share on both sides.
 */
double diff_significance__half_width(const struct diff_significance *s, double level);

#endif

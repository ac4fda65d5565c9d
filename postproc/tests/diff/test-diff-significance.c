/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the noise and significance of a comparison
 * (postproc/diff/diff-significance.c).
 *
 * The reference values were computed once with scipy 1.17.1 and statsmodels
 * 0.15.0 (PyPI) by scripts/tools/diff-significance-ref.py values, which
 * prints the tables below as they are (it says what each library call is);
 * make check needs no Python. The simulations draw with a generator of
 * their own (splitmix64), fixed seeds: their counts are deterministic, and
 * each bound is the rate the test promises plus three standard errors of
 * the simulation.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "diff/diff-significance.h"

/* A pair's reference: a of A (with counts, runs) in runs of run_a samples
 * (shares only), b of B likewise, the spread's tau2 and df; the interval and p. */
struct ref {
	uint64_t a, A;
	double run_a;
	uint64_t b, B;
	double run_b, tau2, df, lo, hi, p;
};
struct spread_ref {
	double x2, df, p, excess, weight, samples, run_size, tau2_df;
};

/* From scripts/tools/diff-significance-ref.py values. */
/* {a, A, run_a, b, B, run_b, tau2, df, lo, hi, p}: each side statsmodels 0.15.0
 * proportion_confint(wilson) of x / phi of n / phi, phi = 1 + tau2 run p (1 - p),
 * combined (MOVER); the p-value by brentq on its alpha (scipy 1.17.1) */
static const struct ref share_refs[] = {
	{ 0, 2000, 2000, 6, 2000, 2000, 0, 0, 0.00048730256028203843, 0.0065299150739353082, 0.027043301111908141 },
	{ 0, 2000, 2000, 5, 2000, 2000, 0, 0, 0.00010734244495894238, 0.0058391533164327564, 0.043604314960408126 },
	{ 3, 1000, 1000, 0, 1200, 1200, 0, 0, -0.0087830140535031763, 0.00075496754870336535, 0.090788870690213533 },
	{ 197, 2196, 2196, 552, 2219, 2219, 0, 0, 0.13740739761922255, 0.18062598562382617, 9.8017889133236383e-44 },
	{ 1457, 1864, 1864, 1383, 1848, 1848, 0, 0, -0.060506184614897027, -0.0059960522033994899, 0.016823053662582004 },
	{ 524, 2219, 2219, 558, 2228, 2228, 0, 0, -0.010918255008557181, 0.039504893201760899, 0.26627684442190103 },
	{ 70, 1000, 1000, 90, 1000, 1000, 0, 0, -0.0038605883599364746, 0.044008680920584284, 0.099861961643199826 },
	{ 120000, 242000, 242000, 121500, 241000, 241000, 0, 0, 0.0054614638993176583, 0.011101567799742853, 8.6339282822209952e-09 },
	{ 1, 10, 10, 9, 10, 10, 0, 0, 0.36986690711003339, 0.9161405732343858, 0.00014946792159706079 },
	{ 2000, 2000, 2000, 1990, 2000, 2000, 0, 0, -0.0091796959499419462, -0.0020197703321586237, 0.0042843738279958205 },
	{ 3789, 5720, 1906.7066433566433, 1273, 1877, 1877, 0.0014, 6, -0.023102012466181418, 0.053434125461275336, 0.35505128834299321 },
	{ 70, 1000, 1000, 90, 1000, 1000, 0.0040000000000000001, 12, -0.010180286220762141, 0.05069145040270813, 0.17297524936768463 },
	{ 0, 5000, 2500, 40, 6000, 3000, 0.01, 2, 0.0016187200834882065, 0.01374818700855855, 0.034810386447784336 },
	{ 300, 6000, 2000, 420, 6000, 2000, 0, 8, 0.010014862369366176, 0.030046125869730135, 0.0017620192082655488 },
};
/* {a, runs_a, -, b, runs_b, -, tau2, df, lo, hi, p}: each side statsmodels
 * confint_poisson(score) of x / phi over its runs, phi = 1 + tau2 x / runs,
 * scaled back, combined (MOVER) */
static const struct ref count_refs[] = {
	{ 3, 1, 0, 10, 1, 0, 0, 0, -0.39952577842543668, 15.639361048980543, 0.061473474085253367 },
	{ 0, 1, 0, 7, 1, 0, 0, 0, 1.7290731665378667, 14.450594979475401, 0.017064737546182512 },
	{ 1500, 3, 0, 1300, 3, 0, 0, 0, -101.29319770796444, -32.10478474124087, 0.0001588378514766615 },
	{ 3759, 3, 0, 3689, 3, 0, 0.00050000000000000001, 4, -125.12976844839864, 78.403669964098654, 0.55867501303052036 },
	{ 12, 2, 0, 3, 1, 0, 0, 0, -7.9055692199104239, 3.3623033420183495, 0.28082791985502914 },
	{ 400, 1, 0, 460, 1, 0, 0, 0, 2.4889198768743697, 117.70007319239285, 0.040901357459253211 },
	{ 400, 1, 0, 460, 1, 0, 0.002, 9, -30.516650982489665, 151.63191000446864, 0.16759354749587163 },
};
/* {df, t quantile 0.975}: scipy.stats.t.isf(0.025, df); df 0: the normal's */
static const double t_refs[][2] = {
	{ 0, 1.9599639845400545 },
	{ 1, 12.706204736174705 },
	{ 2, 4.3026527297494637 },
	{ 4, 2.7764451051977943 },
	{ 6.5, 2.4020020079102782 },
	{ 30, 2.0422724563012382 },
	{ 1000, 1.9623390808264085 },
};
/* {x2, df, p, excess, weight, samples, run_size, tau2_df}: x2, df and p of
 * scipy.stats.chi2_contingency(correction=False); tau2's moments by their
 * formula (diff-significance.h), written again here with numpy */
static const struct spread_ref spread_ref_0 = { 21.596707159960328, 6, 0.0014323732379338044, 20.786328208535053, 2608.6413174839536, 7597, 1899.3669869685402, 3.5481758400303107 };
static const struct spread_ref spread_ref_1 = { 4.9522034349620565, 4, 0.29223697497678736, 1.7888807880833415, 1053.8222222222223, 3000, 1000, 3.2664517009521123 };
/* Poisson dispersion: scipy.stats.chisquare per column, summed; the moments as above */
static const struct spread_ref spread_ref_counts = { 7.9564085379206713, 6, 0.24131436073031653, 1.9564085379206713, 4007.3333333333335, 6011, 2003.7253368823824, 4.1206652231309597 };
/* Benjamini-Hochberg: scipy.stats.false_discovery_control */
static const double bh_p[] = { 0.01, 0.040000000000000001, 0.029999999999999999, 0.5, 0.001, 0.040000000000000001, 0.20000000000000001, 0.0499 };
static const double bh_q[] = { 0.040000000000000001, 0.064000000000000001, 0.064000000000000001, 0.5, 0.0080000000000000002, 0.064000000000000001, 0.22857142857142856, 0.066533333333333333 };
/* {A, B, tau2 * 1e6, least b alone, least a alone}: the interval above at 95%
 * (normal quantile), one run a side, brute force */
static const uint64_t least_refs[][5] = {
	{ 2000, 2000, 0, 5, 5 },
	{ 1864, 1848, 0, 5, 5 },
	{ 500, 20000, 0, 155, 1 },
	{ 6000, 6000, 2000, 5, 5 },
};

/* |x - ref| within rel of ref (or of 1e-300 for 0). */
static void assert_close(double x, double ref, double rel)
{
	double tol = rel * fmax(fabs(ref), 1e-300);

	if (!(fabs(x - ref) <= tol))
		fail_msg("%.17g is not %.17g (within %g)", x, ref, rel);
}

/*
 * A model of sides of n samples (shares; with counts, runs) in runs of
 * run_* samples, whose spread gave tau2 with df degrees of freedom (on
 * BASE's side; df 0: not measured).
 */
static void model(struct diff_significance *s, enum diff_significance_scale scale, double na,
		  double run_a, double nb, double run_b, double tau2, double df)
{
	struct diff_significance_spread a = { .runs = scale == DIFF_SIGNIFICANCE_COUNTS ? (size_t)na : 1,
					      .samples = na, .run_size = run_a, .p = 1,
					      .df = df, .x2 = df, .excess = tau2 * 1000, .weight = 1000,
					      .tau2_df = df };
	struct diff_significance_spread b = { .runs = scale == DIFF_SIGNIFICANCE_COUNTS ? (size_t)nb : 1,
					      .samples = nb, .run_size = run_b, .p = 1 };

	diff_significance__init(s, scale, &a, &b);
}

/* One run a side (or runs without their spread): sampling noise only. */
static void plain(struct diff_significance *s, enum diff_significance_scale scale, double na, double nb)
{
	model(s, scale, na, na, nb, nb, 0, 0);
}

static void check_refs(enum diff_significance_scale scale, const struct ref *refs, size_t nr)
{
	for (size_t i = 0; i < nr; i++) {
		const struct ref *r = &refs[i];
		struct diff_significance s;
		struct diff_significance_test t;

		model(&s, scale, (double)r->A, r->run_a, (double)r->B, r->run_b, r->tau2, r->df);
		assert_close(s.tau2, r->tau2, 1e-12);
		diff_significance__test(&s, r->a, r->b, &t);
		assert_close(t.delta, (double)r->b / (double)r->B - (double)r->a / (double)r->A, 1e-12);
		assert_close(t.lo, r->lo, 1e-9);
		assert_close(t.hi, r->hi, 1e-9);
		assert_close(t.p, r->p, 1e-6);
		/* the p-value is the interval's own */
		assert_true((t.p < s.alpha) == (t.lo > 0 || t.hi < 0));
	}
}

static void share_intervals_and_p_values_are_statsmodels(void **state)
{
	check_refs(DIFF_SIGNIFICANCE_SHARES, share_refs, sizeof(share_refs) / sizeof(*share_refs));
}

static void count_intervals_and_p_values_are_statsmodels(void **state)
{
	check_refs(DIFF_SIGNIFICANCE_COUNTS, count_refs, sizeof(count_refs) / sizeof(*count_refs));
}

static void critical_values_are_student_t_with_phis_degrees_of_freedom(void **state)
{
	for (size_t i = 0; i < sizeof(t_refs) / sizeof(*t_refs); i++) {
		struct diff_significance s;

		model(&s, DIFF_SIGNIFICANCE_SHARES, 1000, 1000, 1000, 1000, 0, t_refs[i][0]);
		assert_close(s.df, t_refs[i][0], 0);
		assert_close(s.crit, t_refs[i][1], 1e-10);
	}
}

static void a_pair_without_change_has_p_1_and_a_stream_against_itself_none_significant(void **state)
{
	struct diff_significance s;
	struct diff_significance_test t;
	const uint64_t counts[] = { 0, 1, 5, 77, 999, 1000 };

	plain(&s, DIFF_SIGNIFICANCE_SHARES, 1000, 1000);
	for (size_t i = 0; i < sizeof(counts) / sizeof(*counts); i++) {
		diff_significance__test(&s, counts[i], counts[i], &t);
		assert_true(t.delta == 0.0);
		assert_true(t.p == 1.0);
		assert_true(t.lo < 0 && t.hi > 0);
	}
	/* A side without samples: nothing to tell. */
	plain(&s, DIFF_SIGNIFICANCE_SHARES, 0, 1000);
	diff_significance__test(&s, 0, 1000, &t);
	assert_true(t.p == 1.0);
	assert_true(diff_significance__min_samples(&s) == UINT64_MAX);
	assert_true(diff_significance__min_delta(&s) == HUGE_VAL);
}

static void check_spread(const struct diff_significance_spread *sp, const struct spread_ref *r)
{
	assert_close(sp->x2, r->x2, 1e-12);
	assert_close(sp->df, r->df, 0);
	assert_close(sp->p, r->p, 1e-9);
	assert_close(sp->excess, r->excess, 1e-9);
	assert_close(sp->weight, r->weight, 1e-12);
	assert_close(sp->samples, r->samples, 0);
	assert_close(sp->run_size, r->run_size, 1e-12);
	assert_close(sp->tau2_df, r->tau2_df, 1e-12);
}

static void spread_is_pearsons_chi_square_of_the_runs(void **state)
{
	/* test-data/diff wasmtime-O2-3 .. -6: hash, mix, the rest of each run's samples. */
	const uint64_t t0[] = { 1291, 567, 1901 - 1291 - 567, 1225, 635, 1919 - 1225 - 635,
				1273, 595, 1900 - 1273 - 595, 1273, 578, 1877 - 1273 - 578 };
	const uint64_t t1[] = { 600, 300, 100, 640, 280, 80, 610, 290, 100 };
	/* test-data/diff v8-base-2 .. -4 with --counts: hash, mix, the rest */
	const uint64_t tc[] = { 1247, 589, 160, 1287, 556, 153, 1225, 641, 153 };
	struct diff_significance_spread sp;

	assert_int_equal(diff_significance__spread(DIFF_SIGNIFICANCE_SHARES, t0, 4, 3, &sp), 0);
	assert_int_equal(sp.runs, 4);
	assert_int_equal(sp.cols, 3);
	check_spread(&sp, &spread_ref_0);
	assert_int_equal(diff_significance__spread(DIFF_SIGNIFICANCE_SHARES, t1, 3, 3, &sp), 0);
	check_spread(&sp, &spread_ref_1);
	assert_int_equal(diff_significance__spread(DIFF_SIGNIFICANCE_COUNTS, tc, 3, 3, &sp), 0);
	assert_int_equal(sp.runs, 3);
	check_spread(&sp, &spread_ref_counts);
}

static void spread_pools_small_categories_and_needs_two_runs(void **state)
{
	/* Columns 2..5 expect fewer than 5 samples a run, and even pooled (10
	 * in all): they join the smallest big column, mix. */
	const uint64_t small[] = { 600, 300, 1, 1, 1, 0, 640, 280, 1, 2, 0, 1, 610, 290, 0, 1, 1, 1 };
	const uint64_t joined[] = { 600, 303, 640, 284, 610, 293 };
	const uint64_t one_run[] = { 600, 300, 100 };
	const uint64_t empty_run[] = { 600, 300, 100, 0, 0, 0 };
	uint64_t many[3 * 22];
	struct diff_significance_spread sp, ref;

	assert_int_equal(diff_significance__spread(DIFF_SIGNIFICANCE_SHARES, small, 3, 6, &sp), 0);
	assert_int_equal(sp.cols, 2);
	assert_int_equal(diff_significance__spread(DIFF_SIGNIFICANCE_SHARES, joined, 3, 2, &ref), 0);
	assert_close(sp.x2, ref.x2, 1e-12);
	assert_close(sp.df, 2, 0);
	/* 20 small columns of 5, 4 and 5 samples: pooled, one column of 100, 80
	 * and 100, big enough to stand alone: the table of spread_ref_1. */
	for (int r = 0; r < 3; r++) {
		many[r * 22] = r == 0 ? 600 : r == 1 ? 640 : 610;
		many[r * 22 + 1] = r == 0 ? 300 : r == 1 ? 280 : 290;
		for (int c = 2; c < 22; c++)
			many[r * 22 + c] = r == 1 ? 4 : 5;
	}
	assert_int_equal(diff_significance__spread(DIFF_SIGNIFICANCE_SHARES, many, 3, 22, &sp), 0);
	assert_int_equal(sp.cols, 3);
	assert_close(sp.x2, spread_ref_1.x2, 1e-12);
	assert_close(sp.df, spread_ref_1.df, 0);
	/* One run, or one run with samples: nothing to measure. */
	assert_int_equal(diff_significance__spread(DIFF_SIGNIFICANCE_SHARES, one_run, 1, 3, &sp), 0);
	assert_true(sp.df == 0 && sp.p == 1.0);
	assert_int_equal(diff_significance__spread(DIFF_SIGNIFICANCE_SHARES, empty_run, 2, 3, &sp), 0);
	assert_int_equal(sp.runs, 1);
	assert_true(sp.df == 0 && sp.p == 1.0);
}

static void benjamini_hochberg_is_scipys(void **state)
{
	double q[sizeof(bh_p) / sizeof(*bh_p)];
	double same[sizeof(bh_p) / sizeof(*bh_p)];

	assert_int_equal(diff_significance__adjust(bh_p, q, sizeof(bh_p) / sizeof(*bh_p)), 0);
	for (size_t i = 0; i < sizeof(bh_p) / sizeof(*bh_p); i++)
		assert_close(q[i], bh_q[i], 1e-12);
	memcpy(same, bh_p, sizeof(same));
	assert_int_equal(diff_significance__adjust(same, same, sizeof(same) / sizeof(*same)), 0);
	assert_memory_equal(same, q, sizeof(q));
	assert_int_equal(diff_significance__adjust(NULL, NULL, 0), 0);
}

/* A family of more tests than seen: as if the others were there with p = 1. */
static void benjamini_hochberg_of_a_larger_family(void **state)
{
	enum { N = sizeof(bh_p) / sizeof(*bh_p), MORE = 7 };
	double all[N + MORE], q_all[N + MORE], q[N];

	memcpy(all, bh_p, sizeof(bh_p));
	for (size_t i = N; i < N + MORE; i++)
		all[i] = 1.0;
	assert_int_equal(diff_significance__adjust(all, q_all, N + MORE), 0);
	assert_int_equal(diff_significance__adjust_in(bh_p, q, N, N + MORE), 0);
	for (size_t i = 0; i < N; i++)
		assert_close(q[i], q_all[i], 1e-15);
	/* a family smaller than the tests is the tests */
	assert_int_equal(diff_significance__adjust_in(bh_p, q, N, 1), 0);
	for (size_t i = 0; i < N; i++)
		assert_close(q[i], bh_q[i], 1e-12);
	(void)state;
}

static void least_detectable_change_is_the_brute_forces(void **state)
{
	for (size_t i = 0; i < sizeof(least_refs) / sizeof(*least_refs); i++) {
		const uint64_t *r = least_refs[i];
		struct diff_significance s;
		double want = fmin((double)r[3] / (double)r[1], (double)r[4] / (double)r[0]);

		/* tau2 as the brute force took it, with the normal quantile */
		plain(&s, DIFF_SIGNIFICANCE_SHARES, (double)r[0], (double)r[1]);
		s.tau2 = (double)r[2] * 1e-6;
		assert_int_equal(diff_significance__min_samples(&s), r[3] < r[4] ? r[3] : r[4]);
		assert_close(diff_significance__min_delta(&s), want, 1e-12);
	}
}

/*
 * No pair below the least detectable change, nor with fewer samples than
 * the least, is significant, and one at it is: every pair (a, b) of up to
 * 80 samples a side, at three sizes.
 */
static void nothing_below_the_least_detectable_change_is_significant(void **state)
{
	const double sizes[][2] = { { 2000, 2000 }, { 700, 5000 }, { 300, 300 } };

	for (size_t k = 0; k < sizeof(sizes) / sizeof(*sizes); k++) {
		struct diff_significance s;
		double least;
		uint64_t fewest;
		bool reached = false;

		plain(&s, DIFF_SIGNIFICANCE_SHARES, sizes[k][0], sizes[k][1]);
		least = diff_significance__min_delta(&s);
		fewest = diff_significance__min_samples(&s);
		for (uint64_t a = 0; a <= 80; a++)
			for (uint64_t b = 0; b <= 80; b++) {
				struct diff_significance_test t;

				diff_significance__test(&s, a, b, &t);
				if (t.p >= s.alpha)
					continue;
				assert_true(fabs(t.delta) >= least * (1 - 1e-12));
				assert_true(a + b >= fewest);
				reached |= fabs(t.delta) <= least * (1 + 1e-12);
			}
		assert_true(reached);
	}
}

/*
 * The noise level: a pair at a share p on both sides of N samples, for
 * large N 1.96 sqrt(2 p (1 - p) phi / N); phi = 1 + tau2 N p (1 - p) for one
 * run a side (tau2 chosen to make it 4: twice the width).
 */
static void noise_level_is_the_half_width_at_a_share(void **state)
{
	struct diff_significance s;
	double w;

	plain(&s, DIFF_SIGNIFICANCE_SHARES, 200000, 200000);
	w = diff_significance__half_width(&s, 0.1);
	assert_close(w, s.crit * sqrt(2 * 0.1 * 0.9 / 200000), 1e-3);
	model(&s, DIFF_SIGNIFICANCE_SHARES, 200000, 200000, 200000, 200000, 3.0 / (200000 * 0.09), 1e6);
	assert_close(diff_significance__half_width(&s, 0.1), 2 * w, 2e-3);
}

/*
 * One run a side: the spread can only be assumed. wasmtime-O2 against
 * wasmtime-O2-2 (test-data/diff, hash 1457 of 1864 and 1383 of 1848
 * samples): told apart by sampling noise alone (statsmodels' p 0.0168
 * above), not with tau 5% (phi = 1 + 0.0025 * 1864 * 0.78 * 0.22 = 1.8).
 * Where the spread was measured, an assumption changes nothing.
 */
static void a_spread_is_assumed_only_where_none_was_measured(void **state)
{
	struct diff_significance s;
	struct diff_significance_test t;

	plain(&s, DIFF_SIGNIFICANCE_SHARES, 1864, 1848);
	diff_significance__test(&s, 1457, 1383, &t);
	assert_close(t.p, share_refs[4].p, 1e-6);
	diff_significance__assume(&s, 0.0025);
	assert_true(s.assumed);
	assert_close(s.tau2, 0.0025, 0);
	diff_significance__test(&s, 1457, 1383, &t);
	assert_true(t.p > 0.05 && t.lo < 0 && t.hi > 0);
	model(&s, DIFF_SIGNIFICANCE_SHARES, 1864, 1864, 1848, 1848, 0.0001, 6);
	diff_significance__assume(&s, 0.0025);
	assert_false(s.assumed);
	assert_close(s.tau2, 0.0001, 1e-12);
}

/* Simulation. */

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static double uniform(uint64_t *x)
{
	return (double)(splitmix(x) >> 11) * 0x1.0p-53;
}

static double gauss(uint64_t *x)
{
	double u = uniform(x), v = uniform(x);

	return sqrt(-2.0 * log(u > 0 ? u : 1e-300)) * cos(2.0 * M_PI * v);
}

#define BLOCKS 8
static const double null_shares[BLOCKS] = { 0.40, 0.25, 0.15, 0.10, 0.05, 0.03, 0.015, 0.005 };

/* Draw n samples over the blocks of shares w (a multinomial), into out. */
static void draw(uint64_t *rng, const double *w, uint64_t n, uint64_t *out)
{
	memset(out, 0, BLOCKS * sizeof(*out));
	for (uint64_t i = 0; i < n; i++) {
		double u = uniform(rng), c = 0;
		int k = 0;

		for (; k < BLOCKS - 1; k++) {
			c += w[k];
			if (u < c)
				break;
		}
		out[k]++;
	}
}

/* Whether Benjamini-Hochberg at s->fdr rejects any of the pairs' tests; how
 * many tests had p < alpha into *raw; whether pair `watch` is rejected. */
static bool any_significant(const struct diff_significance *s, const uint64_t *a, const uint64_t *b,
			    size_t *raw, int watch, bool *watched)
{
	double p[BLOCKS], q[BLOCKS];
	bool any = false;

	for (int k = 0; k < BLOCKS; k++) {
		struct diff_significance_test t;

		diff_significance__test(s, a[k], b[k], &t);
		p[k] = t.p;
		*raw += t.p < s->alpha;
	}
	assert_int_equal(diff_significance__adjust(p, q, BLOCKS), 0);
	for (int k = 0; k < BLOCKS; k++)
		any |= q[k] <= s->fdr;
	if (watched)
		*watched = q[watch] <= s->fdr;
	return any;
}

/*
 * No change, one run a side of 2000 samples: p < 0.05 in at most 5% of the
 * pairs, and anything significant in at most 5% of the comparisons.
 */
static void without_change_one_run_a_side_false_positives_stay_below_5_percent(void **state)
{
	const int sims = 1000;
	uint64_t rng = 25, a[BLOCKS], b[BLOCKS];
	size_t raw = 0, any = 0;
	struct diff_significance s;

	plain(&s, DIFF_SIGNIFICANCE_SHARES, 2000, 2000);
	for (int i = 0; i < sims; i++) {
		draw(&rng, null_shares, 2000, a);
		draw(&rng, null_shares, 2000, b);
		any += any_significant(&s, a, b, &raw, 0, NULL);
	}
	print_message("# no change, 1 run a side: p < 0.05 in %zu of %d pairs, any significant in %zu of %d\n",
		      raw, sims * BLOCKS, any, sims);
	assert_true(raw <= 0.05 * sims * BLOCKS + 3 * sqrt(0.05 * 0.95 * sims * BLOCKS));
	assert_true(any <= 0.05 * sims + 3 * sqrt(0.05 * 0.95 * sims));
}

/*
 * No change, three runs a side whose shares differ beyond sampling (each
 * run's shares jittered by a log-normal factor of sd 0.06 and made to sum
 * to 1 again: a 40% block moves by about 1.5 points where 2000 samples move
 * it by 1.1): with the spread measured, at most 5% of comparisons call
 * anything significant; with sampling noise alone, far more would. The
 * estimate of tau^2 finds the jitter: for a share p it is about
 * 0.06^2 (1 + sum of the other shares^2 / (1 - p)^2) (0.0039 to 0.0045 here).
 */
static void without_change_runs_that_differ_are_not_called_a_change(void **state)
{
	const int sims = 400, runs = 3;
	const uint64_t n = 2000;
	uint64_t rng = 26;
	size_t any = 0, any_sampling = 0, raw = 0;
	double tau2_sum = 0;

	for (int i = 0; i < sims; i++) {
		uint64_t tab[2][3 * BLOCKS], sum[2][BLOCKS] = { { 0 } };
		struct diff_significance_spread sp[2], one[2];
		struct diff_significance s;

		for (int side = 0; side < 2; side++)
			for (int r = 0; r < runs; r++) {
				double w[BLOCKS], tot = 0;

				for (int k = 0; k < BLOCKS; k++)
					tot += w[k] = null_shares[k] * exp(0.06 * gauss(&rng));
				for (int k = 0; k < BLOCKS; k++)
					w[k] /= tot;
				draw(&rng, w, n, &tab[side][r * BLOCKS]);
				for (int k = 0; k < BLOCKS; k++)
					sum[side][k] += tab[side][r * BLOCKS + k];
			}
		for (int side = 0; side < 2; side++) {
			assert_int_equal(diff_significance__spread(DIFF_SIGNIFICANCE_SHARES, tab[side], runs,
								   BLOCKS, &sp[side]), 0);
			/* the same samples as one run each, nothing measured */
			assert_int_equal(diff_significance__spread(DIFF_SIGNIFICANCE_SHARES, sum[side], 1,
								   BLOCKS, &one[side]), 0);
		}
		diff_significance__init(&s, DIFF_SIGNIFICANCE_SHARES, &one[0], &one[1]);
		any_sampling += any_significant(&s, sum[0], sum[1], &raw, 0, NULL);
		diff_significance__init(&s, DIFF_SIGNIFICANCE_SHARES, &sp[0], &sp[1]);
		tau2_sum += s.tau2;
		any += any_significant(&s, sum[0], sum[1], &raw, 0, NULL);
	}
	print_message("# no change, 3 runs a side that differ: mean tau2 %.4f; any significant in %zu of %d "
		      "(sampling noise alone: %zu)\n", tau2_sum / sims, any, sims, any_sampling);
	assert_true(tau2_sum / sims > 0.003 && tau2_sum / sims < 0.006);
	assert_true(any <= 0.05 * sims + 3 * sqrt(0.05 * 0.95 * sims));
	assert_true(any_sampling > 0.3 * sims);
}

/* A real change is found: block 3 from 10% to 14% of 2000 samples a side. */
static void a_change_of_4_points_in_2000_samples_is_found(void **state)
{
	const int sims = 300;
	uint64_t rng = 27, a[BLOCKS], b[BLOCKS];
	double changed[BLOCKS];
	size_t found = 0, raw = 0;
	struct diff_significance s;

	for (int k = 0; k < BLOCKS; k++)
		changed[k] = k == 3 ? 0.14 : null_shares[k] * (1 - 0.14) / (1 - 0.10);
	plain(&s, DIFF_SIGNIFICANCE_SHARES, 2000, 2000);
	for (int i = 0; i < sims; i++) {
		bool hit;

		draw(&rng, null_shares, 2000, a);
		draw(&rng, changed, 2000, b);
		any_significant(&s, a, b, &raw, 3, &hit);
		found += hit;
	}
	print_message("# 10%% -> 14%% in 2000 samples: found in %zu of %d\n", found, sims);
	assert_true(found >= 0.9 * sims);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(share_intervals_and_p_values_are_statsmodels),
		cmocka_unit_test(count_intervals_and_p_values_are_statsmodels),
		cmocka_unit_test(critical_values_are_student_t_with_phis_degrees_of_freedom),
		cmocka_unit_test(a_pair_without_change_has_p_1_and_a_stream_against_itself_none_significant),
		cmocka_unit_test(spread_is_pearsons_chi_square_of_the_runs),
		cmocka_unit_test(spread_pools_small_categories_and_needs_two_runs),
		cmocka_unit_test(benjamini_hochberg_is_scipys),
		cmocka_unit_test(benjamini_hochberg_of_a_larger_family),
		cmocka_unit_test(least_detectable_change_is_the_brute_forces),
		cmocka_unit_test(nothing_below_the_least_detectable_change_is_significant),
		cmocka_unit_test(noise_level_is_the_half_width_at_a_share),
		cmocka_unit_test(a_spread_is_assumed_only_where_none_was_measured),
		cmocka_unit_test(without_change_one_run_a_side_false_positives_stay_below_5_percent),
		cmocka_unit_test(without_change_runs_that_differ_are_not_called_a_change),
		cmocka_unit_test(a_change_of_4_points_in_2000_samples_is_found),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * The noise of a comparison and the test of each of its pairs: the
 * statistics of diff-significance.h applied to a struct diff, as diff__build
 * calls them (postproc/DIFF.md, "Noise and significance"; JSON.md).
 */
#ifndef POSTPROC_DIFF_NOISE_H
#define POSTPROC_DIFF_NOISE_H

#include "diff.h"

/* The run-to-run spread assumed where no side's runs measure one (tau). */
#define DIFF_NOISE_SPREAD 0.05

/*
 * The noise model (d->noise) from each side's runs: a table of runs x
 * functions from the stream's tallies (per object and run, after folding),
 * its spread, pooled over both sides, assumed (d->opts.spread) where no
 * side has two runs; and with it the least detectable change, the least
 * samples a pair needs to be tested, the noise at 1% and 10%, d->runs and
 * d->per_run. d's events, totals and work must be set (diff-build.c).
 * Returns 0 or -ENOMEM.
 */
int diff_noise__model(struct diff *d);

/* Test every pair of functions (d->funcs[].test, .mark): Benjamini-Hochberg
 * over those with min_samples or more. Their sign must be set. Returns 0 or -ENOMEM. */
int diff_noise__test_funcs(struct diff *d);

/*
 * Test every pair of blocks (d->pairs[].test, .mark), Benjamini-Hochberg over
 * those tested and the most that the functions not compared block by block
 * could hold (noise.blocks_unseen). Returns 0 or -ENOMEM.
 */
int diff_noise__test_pairs(struct diff *d);

#endif

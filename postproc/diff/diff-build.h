/* SPDX-License-Identifier: MIT */
/* Building the comparison of two profiles (diff.h) from their streams. */
#ifndef POSTPROC_DIFF_BUILD_H
#define POSTPROC_DIFF_BUILD_H

#include <stdbool.h>
#include <stddef.h>

#include "annotate/annotate.h"
#include "diff.h"
#include "stream/stream.h"

/* What one side is made from. */
struct diff_input {
	const char *label;		/* "BASE" or "NEW" */
	const char *files;		/* its inputs, as the user named them */
	const struct stream *stream;	/* read and finished */
	struct annotator *annot;	/* its --cwasm/--clif/--wasm, or NULL */
};

struct diff_opts;

/*
 * Compare in[BASE] and in[NEW] under o into d (zeroed here). Returns 0,
 * -ENOENT when a side has no event of the name asked (or NEW lacks BASE's
 * first), or -ENOMEM. d borrows the streams and annotators, which must
 * outlive it, and must be released either way.
 */
int diff__build(struct diff *d, const struct diff_input in[DIFF__SIDES], const struct diff_opts *o);
void diff__release(struct diff *d);

/*
 * How a change reads, the same in every output (diff_func.sign, .change):
 * its sign, +1 (NEW takes more: slower), -1 (less: faster) or 0 (none: it
 * rounds to 0.00 points, or with counts to 0 samples per run: 0, or 0.0 when
 * they are per run); and its size as a share of all samples (0..1; with
 * counts, the samples per run over the larger side's per run). delta is in
 * points, delta_per_run in samples per run; d's opts, totals, runs and
 * per_run must be set.
 */
int diff__sign(const struct diff *d, double delta, double delta_per_run);
double diff__change(const struct diff *d, double delta, double delta_per_run);

#endif

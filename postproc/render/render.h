/* SPDX-License-Identifier: MIT */
/*
 * The outputs: each lays out a report (report.h) or a comparison (diff.h)
 * and decides nothing else. A new format is one row of formats.def and one
 * file render-NAME.c.
 */
#ifndef POSTPROC_RENDER_H
#define POSTPROC_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "diff/diff.h"
#include "report/report.h"

struct render_opts {
	bool color;		/* text: ANSI colours on the sample cells */
};

/*
 * The outputs (formats.def lists them): each writes a report, or a
 * comparison, to out and returns 0, -EIO if out has an error, or -ENOMEM.
 */
int render_text(FILE *out, const struct report *rep, const struct render_opts *o);	/* the layout of `wasmtime hot-blocks` */
int render_json(FILE *out, const struct report *rep, const struct render_opts *o);	/* JSON.md */
int render_html(FILE *out, const struct report *rep, const struct render_opts *o);	/* one self-contained page */
int render_dot(FILE *out, const struct report *rep, const struct render_opts *o);	/* Graphviz dot, a digraph per function */
int render_diff_text(FILE *out, const struct diff *d, const struct render_opts *o);	/* perf diff's tables */
int render_diff_json(FILE *out, const struct diff *d, const struct render_opts *o);	/* JSON.md */
int render_diff_html(FILE *out, const struct diff *d, const struct render_opts *o);	/* one self-contained page */

/* What the diff's text output prints, for the other diff outputs to print
 * alike (render-diff-text.c); each returns buf, or a constant: */
/* side s's cell: its share ("12.34%"), or samples with counts (per run, "1241.3",
 * when d->per_run); "-" when absent */
const char *render_diff_text__side(char *buf, size_t len, const struct diff *d, int s,
				   bool present, double pct, uint64_t n);
/* a change: signed unless it shows none (sign 0): "+1.23%", "0.00%", "-5", "+8.7" */
const char *render_diff_text__delta(char *buf, size_t len, const struct diff *d, int sign,
				    double delta, double delta_per_run);
/* the interval of a test: "[+13.74, +18.06]" (points), "[-3.2, +40.1]" (counts) */
const char *render_diff_text__interval(char *buf, size_t len, const struct diff *d,
				       const struct diff_test *t);
/* where the noise comes from: the runs' spread measured or assumed, or sampling alone */
const char *render_diff_text__spread(char *buf, size_t len, const struct diff *d);
/* how a pair was matched: "wasm 64%", or "BASE only" / "NEW only" */
const char *render_diff_text__pair_match(char *buf, size_t len, const struct diff_pair *p);
/* how a function was matched: "identity", "wasm 1", "name", or "BASE only" / "NEW only" */
const char *render_diff_text__func_match(char *buf, size_t len, const struct diff_func *f);

/* One block of rep in the text report's layout (its header, then its rows):
 * for outputs that show blocks of a report themselves (a comparison). */
void render_text__block(FILE *out, const struct report *rep, const struct report_ref *ref,
			bool color);

/* s as a JSON string (JSON.md's escapes; bytes not in valid UTF-8 as U+FFFD),
 * for the other JSON documents. */
void render_json__str(FILE *out, const char *s);

#endif

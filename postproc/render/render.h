/* SPDX-License-Identifier: MIT */
/*
 * The outputs: each lays out a report (report.h) and decides nothing else. A
 * new format is one more render_ops over the same struct report.
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

struct render_ops {
	const char *name;
	/* Write rep to out. Returns 0, -EIO if out has an error, or -ENOMEM. */
	int (*render)(FILE *out, const struct report *rep, const struct render_opts *o);
};

extern const struct render_ops render_text;	/* render-text.c: the layout of `wasmtime hot-blocks` */
extern const struct render_ops render_json;	/* render-json.c: JSON.md */
extern const struct render_ops render_html;	/* render-html.c: one self-contained page */
extern const struct render_ops render_dot;	/* render-dot.c: Graphviz dot, a digraph per function */

/* The outputs of a comparison (diff.h): each lays out a struct diff and
 * decides nothing else. */
struct diff_render_ops {
	const char *name;
	/* Write d to out. Returns 0, or -EIO if out has an error. */
	int (*render)(FILE *out, const struct diff *d, const struct render_opts *o);
};

extern const struct diff_render_ops render_diff_text;	/* render-diff-text.c: perf diff's tables */
extern const struct diff_render_ops render_diff_json;	/* render-diff-json.c: JSON.md */
extern const struct diff_render_ops render_diff_html;	/* render-diff-html.c: one page */

/* What the diff's text output prints, for the other diff outputs to print
 * alike (render-diff-text.c); each returns buf, or a constant: */
/* a side's cell: its share ("12.34%"), or samples with counts; "-" when absent */
const char *render_diff_text__side(char *buf, size_t len, const struct diff *d, bool present,
				   double pct, uint64_t n);
/* a change: signed unless it shows none (sign 0): "+1.23%", "0.00%", "-5" */
const char *render_diff_text__delta(char *buf, size_t len, const struct diff *d, int sign,
				    double delta, int64_t delta_samples);
/* how a pair was matched: "wasm 64%", or "BASE only" / "NEW only" */
const char *render_diff_text__pair_match(char *buf, size_t len, const struct diff_pair *p);
/* how a function was matched: "identity", "name", or "BASE only" / "NEW only" */
const char *render_diff_text__func_match(const struct diff_func *f);

/* One block of rep in the text report's layout (its header, then its rows):
 * for outputs that show blocks of a report themselves (a comparison). */
void render_text__block(FILE *out, const struct report *rep, const struct report_ref *ref,
			bool color);

/* s as a JSON string (JSON.md's escapes; bytes not in valid UTF-8 as U+FFFD),
 * for the other JSON documents. */
void render_json__str(FILE *out, const char *s);

#endif

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
	/* --html: the most bytes a page may take (0: no limit); past it, a
	 * function gets its row in the table with the command that shows it. */
	size_t page_budget;
	/* That command but for --function NAME and the output, shell-quoted:
	 * "hotblocks [--event E] [--cwasm F ...] STREAM..." (NULL: unknown). */
	const char *command;
};

/* --page-budget's default: 8 MiB, what a browser opens in well under a second. */
#define RENDER_PAGE_BUDGET ((size_t)8 << 20)

/*
 * The outputs, one row of formats.def each: render_NAME writes a report,
 * and render_diff_NAME (a row with DIFF) a comparison, to out and returns
 * 0, -EIO if out has an error, or -ENOMEM (-EINVAL: a bug, the JSON writer
 * misused).
 */
#define FORMAT_RENDER_DIFF(NAME) \
	int render_diff_##NAME(FILE *out, const struct diff *d, const struct render_opts *o);
#define FORMAT_RENDER_NO_DIFF(NAME)
#define FORMAT(NAME, OPTION, NEEDS, DIFF, HELP, DIFF_HELP) \
	int render_##NAME(FILE *out, const struct report *rep, const struct render_opts *o); \
	FORMAT_RENDER_##DIFF(NAME)
#include "formats.def"
#undef FORMAT_RENDER_DIFF
#undef FORMAT_RENDER_NO_DIFF

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

/* f's "runs": [{"run", "samples"}...] (JSON.md), for both JSON documents. */
struct json_writer;
void render_json__runs(struct json_writer *w, const struct report_func *f);
/* "kinds": the names of --kind's kinds (STREAM_KIND_*), in JSON. */
void render_json__kinds(struct json_writer *w, unsigned kinds);

#endif

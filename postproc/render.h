/* SPDX-License-Identifier: MIT */
/*
 * The outputs: each lays out a report (report.h) and decides nothing else. A
 * new format is one more render_ops over the same struct report.
 */
#ifndef POSTPROC_RENDER_H
#define POSTPROC_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "report.h"

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

/* One block of rep in the text report's layout (its header, then its rows):
 * for outputs that show blocks of a report themselves (a comparison). */
void render_text__block(FILE *out, const struct report *rep, const struct report_ref *ref,
			bool color);

/* s as a JSON string (JSON.md's escapes; bytes not in valid UTF-8 as U+FFFD),
 * for the other JSON documents. */
void render_json__str(FILE *out, const char *s);

#endif

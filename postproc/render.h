/* SPDX-License-Identifier: MIT */
/* Output formats of a ranked profile: one ops struct, one implementation per format. */
#ifndef POSTPROC_RENDER_H
#define POSTPROC_RENDER_H

#include <stdbool.h>
#include <stdio.h>

#include "annotate.h"
#include "rank.h"
#include "source-text.h"

struct render_opts {
	bool color;		/* text: ANSI colours on the sample cells */
	bool all;		/* json: every sampled function, all blocks and instructions */
	const struct rank_opts *rank;	/* the selection, echoed by json */
	struct annotator *annot;	/* CLIF / Wasm / source columns and display names */
	struct source_text *source_lines; /* text: print source lines above their instructions */
};

struct render_ops {
	const char *name;
	/* Write the report of r to out. Returns 0, or -EIO if out has an error. */
	int (*render)(FILE *out, const struct rank *r, const struct render_opts *o);
};

extern const struct render_ops render_text;	/* render-text.c: the reference's layout */
extern const struct render_ops render_json;	/* render-json.c: JSON.md */

#endif

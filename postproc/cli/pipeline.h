/* SPDX-License-Identifier: MIT */
/*
 * The one way a command goes from input to output:
 *
 *   read the streams --> build its model (a report, a comparison) -->
 *   notes --> open the output --> render --> the annotation notes --> close
 *
 * The commands (cmd-report.c, cmd-diff.c) read and build; the rest is here,
 * the same for both.
 */
#ifndef POSTPROC_CLI_PIPELINE_H
#define POSTPROC_CLI_PIPELINE_H

#include <stdbool.h>
#include <stdio.h>

#include "cli.h"
#include "render/formats.h"
#include "stream/stream.h"

/*
 * Read the streams files[0..n) (none: standard input) into s, merge and
 * finish them, and note the files they were made from as inputs no output
 * may replace. Returns 0, or -1 after an error message.
 */
int pipeline__read(struct stream *s, char *const *files, int n);

/* A built model, written. */
struct pipeline {
	const struct output_format *format;
	const char *output;		/* NULL: standard output */
	enum cli_color color;
	const void *model;
	/* Tell the model's notes: the annotation ones (after the output, they
	 * speak of its columns) or the others (before it). */
	void (*notes)(const void *model, bool annotation);
	/* Write the model in format f to out (0, -EIO, -ENOMEM). */
	int (*render)(FILE *out, const void *model, const struct output_format *f,
		      const struct render_opts *o);
	size_t page_budget;		/* render_opts.page_budget */
	const char *command;		/* render_opts.command */
};

/*
 * The notes, then the output opened (only now: bad input does not clobber
 * an earlier report), written, the annotation notes, and the output
 * committed (output-file.h). Returns the exit status.
 */
int pipeline__write(const struct pipeline *p);

#endif

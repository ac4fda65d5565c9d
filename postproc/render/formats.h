/* SPDX-License-Identifier: MIT */
/* The outputs of hotblocks and hotblocks diff, one registered row each (formats.def). */
#ifndef POSTPROC_RENDER_FORMATS_H
#define POSTPROC_RENDER_FORMATS_H

#include <stddef.h>
#include <stdio.h>

#include "diff/diff.h"
#include "render.h"
#include "report/report.h"

/* What an output needs, and which options apply to it. */
enum format_need {
	FORMAT_COLOR = 1 << 0,		/* --color colours it */
	FORMAT_SOURCE_LINES = 1 << 1,	/* --source-lines: it prints source lines */
	FORMAT_LIST_SELECTED = 1 << 2,	/* --all lists every selected function, not
					 * only those with a shown block */
	FORMAT_WHOLE_WITH_ALL = 1 << 3,	/* --all lists them whole: every block, row
					 * and edge */
	FORMAT_WHOLE = 1 << 4,		/* always whole: it draws their graphs */
	FORMAT_FILE = 1 << 5,		/* --NAME=FILE names the file it goes to */
	FORMAT_EVERY_PAIR = 1 << 6,	/* its comparison tells every pair of every
					 * function that can hold a shown one, and
					 * how many were compared (diff.h, shown_only) */
	FORMAT_EVERY_SAMPLE = 1 << 7,	/* every sample of every selected function,
					 * whatever --percent, --top and --all say,
					 * with its address, period and mapping
					 * (report_opts.points) */
	FORMAT_BINARY = 1 << 8,		/* not text: --NAME FILE must name the file
					 * (FORMAT_FILE's argument is required) */
};

enum format_id {
#define FORMAT(NAME, OPTION, NEEDS, DIFF, HELP, DIFF_HELP) FORMAT_##NAME,
#include "formats.def"
	FORMAT__NR
};

struct output_format {
	const char *name;
	const char *option;		/* without "--"; NULL: the default */
	unsigned needs;			/* enum format_need */
	int (*render)(FILE *out, const struct report *rep, const struct render_opts *o);
	int (*diff_render)(FILE *out, const struct diff *d, const struct render_opts *o);
	const char *help, *diff_help;	/* usage lines, '\n' between them */
};

/* Every output, in formats.def's order; formats[FORMAT_text] is the default. */
extern const struct output_format formats[FORMAT__NR];

#endif

/* SPDX-License-Identifier: MIT */
/* The table of outputs (formats.h), from formats.def. */
#include "formats.h"

#define DIFF_RENDER_DIFF(NAME) render_diff_##NAME
#define DIFF_RENDER_NO_DIFF(NAME) NULL

const struct output_format formats[FORMAT__NR] = {
#define FORMAT(NAME, OPTION, NEEDS, DIFF, HELP, DIFF_HELP) \
	[FORMAT_##NAME] = { #NAME, OPTION, NEEDS, render_##NAME, DIFF_RENDER_##DIFF(NAME), HELP, \
			    DIFF_HELP },
#include "formats.def"
};

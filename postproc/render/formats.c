/* SPDX-License-Identifier: MIT */
/* The table of outputs (formats.h), from formats.def. */
#include "formats.h"

const struct output_format formats[FORMAT__NR] = {
#define FORMAT(NAME, OPTION, NEEDS, RENDER, DIFF_RENDER, HELP, DIFF_HELP) \
	[FORMAT_##NAME] = { #NAME, OPTION, NEEDS, RENDER, DIFF_RENDER, HELP, DIFF_HELP },
#include "formats.def"
};

/* SPDX-License-Identifier: MIT */
/* Mono's row: its perf map; no jitdump (mono.h). */
#include <stddef.h>

#include "mono.h"

const struct jit_runtime jit_mono = {
	.name = "Mono",
	/* its names say nothing of it (a method's, or "(null)"); its executable
	 * or its embedding library does */
	.map_files = (const char *const[]){ "mono-sgen", "libmonosgen-2.0.so", NULL },
	.jitdump = "Mono has no jitdump option known here (--jitmap writes this map only)",
};

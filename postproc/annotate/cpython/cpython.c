/* SPDX-License-Identifier: MIT */
/* CPython's row: its perf map, its jitdump (cpython.h). */
#include <stddef.h>

#include "cpython.h"

const struct jit_runtime jit_cpython = {
	.name = "CPython",
	.map_names = (const char *const[]){ "py::", NULL },
	/* its shared library, or the interpreter built without one */
	.map_files = (const char *const[]){ "libpython3", "python3", NULL },
	.jitdump = "CPython 3.13 and later write a jitdump with -X perf_jit",
};

/* SPDX-License-Identifier: MIT */
/* wasmtime's row: its perf map, its jitdump flag (wasmtime-runtime.h). */
#include <stddef.h>

#include "wasmtime-runtime.h"

const struct jit_runtime jit_wasmtime = {
	.name = "wasmtime",
	.map_files = (const char *const[]){ "wasmtime", NULL },
	.jitdump = "wasmtime run --profile=jitdump writes a jitdump",
};

/* SPDX-License-Identifier: MIT */
/* V8's row: its perf map, its jitdump flag, its names demangled (v8.h). */
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "v8-name.h"
#include "v8.h"

/* libiberty's demangling of the names of a wasm module's name section: as
 * `c++filt` prints them and wasmtime writes them into its jitdump (Rust
 * with its hashes and disambiguators: DMGL_VERBOSE), so that one module
 * reads alike under V8 and wasmtime (annotate/wasmtime/wasmtime.c does the
 * same). */
#define DEMANGLE_WASM (DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO | DMGL_VERBOSE)

/* A wasm function's code as V8 names it ("JS:" NAME "-588-turbofan",
 * v8-name.h) where NAME is mangled (a Rust or C++ module keeps its mangled
 * names in its name section): NAME demangled between V8's prefix and
 * suffix, which say the function index and tier (and, for the wrapper of an
 * imported function, its signature). */
static char *v8_wasm_demangle(const char *name)
{
	const char *func;
	size_t func_len, skip;
	char *inner, *dm, *out;
	int index;

	if (!v8_name__wasm(name, &index, &func, &func_len) || !func)
		return NULL;
	skip = v8_name__wasm_import_name(func, func_len);
	func += skip, func_len -= skip;
	if (!(inner = strndup(func, func_len)))
		return NULL;
	dm = cplus_demangle(inner, DEMANGLE_WASM);
	free(inner);
	if (!dm)
		return NULL;
	out = malloc((size_t)(func - name) + strlen(dm) + strlen(func + func_len) + 1);
	if (out) {
		memcpy(out, name, (size_t)(func - name));
		strcpy(out + (func - name), dm);
		strcat(out, func + func_len);
	}
	free(dm);
	return out;
}

const struct jit_runtime jit_v8 = {
	.name = "node (V8)",
	/* --perf-basic-prof's names; node and its shared library mapped */
	.map_names = (const char *const[]){ "JS:", "Builtin:", NULL },
	.map_files = (const char *const[]){ "node", "libnode.so", NULL },
	.jitdump = "node --perf-prof writes a jitdump",
	.demangle = v8_wasm_demangle,
};

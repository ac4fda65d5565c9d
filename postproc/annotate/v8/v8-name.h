/* SPDX-License-Identifier: MIT */
/*
 * The names V8 gives its code in jitdump loads and perf maps
 * (postproc/FORMATS.md, "V8's code names"), taken apart:
 *
 *   JS:*work /srv/app.js:12:21        V8 11 and later (node 20, 22)
 *   LazyCompile:*work /srv/app.js:12  V8 10 (node 18); baseline code "Function:^work ..."
 *   Script:~ /srv/app.js:1            top-level code; "Eval:" for eval'd code
 *   JS:work-1-turbofan                wasm code (--perf-prof-annotate-wasm)
 *   Builtin:ArrayPrototypePush, Stub:CEntry, BytecodeHandler:Add, RegExp:...
 *
 * tag ":" [tier mark] function [" " where]. Nothing here is V8-only in its
 * effect: a name without a tag simply has none, so every JIT's names go
 * through the same parse.
 */
#ifndef POSTPROC_V8_NAME_H
#define POSTPROC_V8_NAME_H

#include <stdbool.h>
#include <stddef.h>

struct v8_name {
	/* The word before the first colon, when it has no space in it ("JS"), or NULL. */
	const char *tag;
	size_t tag_len;
	/* V8's code-kind mark after the tag (CodeKindToMarker): '*' TurboFan,
	 * '+' Maglev, '^' Sparkplug, '~' interpreted; 0 when there is none. */
	char tier;
	/* After tag and mark, up to the first space: "work". */
	const char *func;
	size_t func_len;
	/* After the last space: "/srv/app.js:12:21", or NULL. */
	const char *where;
	size_t where_len;
	/* The part of where that names the script: without ":line" and ":column". */
	size_t script_len;
};

/* Take name apart; the pointers point into name. */
void v8_name__parse(const char *name, struct v8_name *n);

/*
 * Whether the tag is one V8 gives JavaScript and wasm code (JS, LazyCompile,
 * Function, Script, Eval): code whose DEBUG_INFO V8 writes in its own way.
 */
bool v8_name__is_js(const struct v8_name *n);

/*
 * The identity of JIT code across compilations and runs (hotblocks diff
 * pairs functions by it), into buf (NUL-terminated, cut at len): the name
 * without what changes between compilations of one function: V8's tag
 * ("JS:", "LazyCompile:", "Function:" of older V8), its tier mark (* ^ ~ +)
 * and the wasm tier suffix ("-liftoff", "-turbofan"); the wasm function
 * index ("work-1") and the script location ("/srv/hot.js:5:14") stay;
 * with_location false keeps only the base name of the script ("hot.js").
 * The tag here is letters and one ':' (not "::"), which v8_name__parse does
 * not ask. Returns the length.
 */
size_t v8_name__identity(char *buf, size_t len, const char *name, bool with_location);

/*
 * A wasm function's code as V8 names it, "JS:hash-1-turbofan": the
 * name-section name (or "wasm-function[F]" when the module names none), the
 * function's index F in the module and the tier that compiled it
 * ("-liftoff", "-turbofan"). True with *index set, and *func / *func_len the
 * name (NULL and 0 for an unnamed function: what wasmtime calls
 * wasm[M]::function[F]); false for any other name.
 */
bool v8_name__wasm(const char *name, int *index, const char **func, size_t *func_len);

/*
 * The tier of a wasm function's code as V8 names it ("JS:hash-1-turbofan":
 * "turbofan"; "liftoff"), with *base_len the length of the name without
 * "-TIER" ("JS:hash-1"): one wasm function whatever tier compiled it. NULL
 * for any other name (v8_name__wasm's).
 */
const char *v8_name__wasm_tier(const char *name, size_t *base_len);

/*
 * Where the name-section name starts in the NAME of a wasm name
 * (v8_name__wasm's func, len bytes): past "wasm-to-js:SIGNATURE-" for V8's
 * wrapper of an imported function ("wasm-to-js:iiiiiiii:i-host_format", V8's
 * WasmCode::LogCode: the signature's value types, params ':' results, then
 * the import's name), else 0.
 */
size_t v8_name__wasm_import_name(const char *func, size_t len);

/*
 * The script a load name names ("JS:*work /path/hot.js:5:14" ->
 * "/path/hot.js"), into buf[0..len) NUL-terminated; false when it names
 * none or it does not fit. V8 11 sometimes writes heap garbage for
 * DEBUG_INFO file names (v8-debug.h); the load name is then the better
 * witness of the file.
 */
bool v8_name__script(const char *name, char *buf, size_t len);

#endif

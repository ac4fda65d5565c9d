/* SPDX-License-Identifier: MIT */
/*
 * One code, one name, however it was seen. wasmtime names a wasm function
 * `wasm[M]::function[F]::NAME` as a symbol of its compiled module (an object
 * of kind cwasm: a sample in the mapped .cwasm) and `NAME` alone in its
 * jitdump and perf map (kind jit), with the same code bytes either way
 * (postproc/FORMATS.md, "How wasmtime names code in jitdumps and perf maps").
 * The stream folds such objects into one (stream-fold.c) and hotblocks diff
 * pairs them (diff-match.c) by what is here: the family of kinds that may be
 * one code, and the name both ways share.
 */
#ifndef POSTPROC_STREAM_CODE_NAME_H
#define POSTPROC_STREAM_CODE_NAME_H

#include <stdbool.h>
#include <stddef.h>

#include "../../plugin/lib/stream-format.h"

/* The kinds that may hold one code: JIT code and wasmtime's compiled
 * functions one family ('J'), native symbols another ('N'). */
char code_name__family(enum hb_object_kind kind);

/*
 * A wasmtime function symbol taken apart: `wasm[M]::function[F]` or
 * `wasm[M]::function[F]::NAME`. True with *module, *func and *name (the
 * part after "function[F]::", NULL for an unnamed function) set; false for
 * any other name (trampolines, builtins, a jit name).
 */
bool code_name__wasm_symbol(const char *symbol, int *module, int *func, const char **name);

/*
 * The name of a code object as its family knows it: for a cwasm object
 * named `wasm[M]::function[F]::NAME`, NAME (what wasmtime's jitdump and
 * perf map call the same code); any other name is itself.
 */
const char *code_name__canonical(enum hb_object_kind kind, const char *name);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * wasmtime as its users know it, the index of its conventions
 * (postproc/FORMATS.md; the annotation of its code from its artifacts:
 * wasmtime.h): `wasmtime run --profile=jitdump` writes jit-PID.dump in the
 * working directory; --profile=perfmap writes /tmp/perf-PID.map instead,
 * names only. A precompiled module (.cwasm) is file-backed code, named by
 * the .cwasm's ELF symbols (wasm[M]::function[F]), its address map read by
 * cwasm.h; that symbol and the jitdump's NAME are one code, which the
 * stream folds and the comparison pairs (stream/code-name.h, below this
 * layer). Names in its jitdump and map are written demangled by wasmtime
 * itself (Rust with its hashes), a module's names from its name section are
 * demangled alike (wasmtime.c).
 */
#ifndef POSTPROC_ANNOTATE_WASMTIME_RUNTIME_H
#define POSTPROC_ANNOTATE_WASMTIME_RUNTIME_H

#include "annotate/jit-runtime.h"

extern const struct jit_runtime jit_wasmtime;

#endif

/* SPDX-License-Identifier: MIT */
/*
 * V8 (node, Chromium) as its users know it: the index of its conventions,
 * each in its file of this folder (postproc/FORMATS.md, "V8's code names").
 *
 * Names: "TAG:[MARK]FUNCTION [WHERE]" (JS:*work /srv/app.js:12:21), a wasm
 * function "JS:NAME-INDEX-TIER" (v8-name.h); a wasm NAME that is mangled
 * (Rust, C++ in the module's name section) is shown demangled by libiberty
 * as c++filt prints it, V8's prefix and suffix kept (v8.c). One user-level
 * function is one load; a wasm function's Liftoff and TurboFan code are
 * shown together (report/report-tiers.c). Data in its code: the wasm jump
 * table its calls go through, which it never logs (v8-jump-table.h).
 * DEBUG_INFO: its own way of writing script positions (v8-debug.h).
 * Where: `node --perf-prof` writes jit-PID.dump in the working directory
 * (and isolate-*-PID-v8.log beside it, which a one-shot `perf hotblocks`
 * removes with the dump);
 * `--perf-basic-prof` writes /tmp/perf-PID.map instead, names only.
 */
#ifndef POSTPROC_ANNOTATE_V8_H
#define POSTPROC_ANNOTATE_V8_H

#include "annotate/jit-runtime.h"

extern const struct jit_runtime jit_v8;

#endif

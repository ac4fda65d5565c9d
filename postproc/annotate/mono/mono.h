/* SPDX-License-Identifier: MIT */
/*
 * Mono's JIT as its users know it (test-data/jit-mono: Mono 6.8, Debian's
 * mono-runtime): `mono --jitmap` writes /tmp/perf-PID.map as it compiles,
 * one line per method, `Namespace.Class:Method (argtypes)` ("Hot:Main
 * (string[])"), nothing to demangle; a few small stubs are "(null)". It writes no jitdump (mono/mono's
 * driver has no such option): no code bytes, so no blocks or instructions,
 * and nothing is known of data in its code or of its debug entries.
 */
#ifndef POSTPROC_ANNOTATE_MONO_H
#define POSTPROC_ANNOTATE_MONO_H

#include "annotate/jit-runtime.h"

extern const struct jit_runtime jit_mono;

#endif

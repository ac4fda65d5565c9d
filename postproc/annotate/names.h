/* SPDX-License-Identifier: MIT */
/*
 * Names of sampled code as people read them: demangled for display, and
 * how near a name is to what was asked (--function's suggestions), knowing
 * how JITs write their names.
 */
#ifndef POSTPROC_ANNOTATE_NAMES_H
#define POSTPROC_ANNOTATE_NAMES_H

#include <stddef.h>

/*
 * How far name is from pattern for suggestions: 0 when one contains the other
 * ignoring case, else one more than the edit distance (ignoring case) between
 * their function parts: without a "Tag:" prefix, V8's tier mark and a
 * " location" suffix, so "LazyCompile:*work" is near "JS:*work /app.js:5:14".
 * NAME_FAR when more than a third of the pattern's function part (and more than
 * 2 characters) would have to change. Function parts are looked at up to
 * NAME_DISTANCE_MAX bytes.
 */
#define NAME_DISTANCE_MAX 128
#define NAME_FAR ((size_t)-1)
size_t name_distance(const char *pattern, const char *name);

/*
 * name as its users write it, for display (malloc()ed), or NULL when it is
 * no mangled name (or memory ran out): C++ and Rust symbols of native code
 * through libiberty (name@plt and name@@VERSION with the part before the
 * '@' demangled), else each JIT's way from its own folder (jits.h: a wasm
 * function's mangled name inside V8's "JS:NAME-INDEX-TIER", v8/v8.h; a Java
 * method's JVM signature from perf's JVMTI agent as perf shows it,
 * hotspot/hotspot.h).
 */
char *names__demangle(const char *name);

#endif

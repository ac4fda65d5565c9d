/* SPDX-License-Identifier: MIT */
/*
 * The JIT runtimes the report knows, one row each (jit-runtime.h), each
 * filled by the runtime's own folder, where everything else it knows of that
 * runtime is (postproc/DESIGN.md, "Each JIT's conventions"): which runtime
 * wrote a perf map (/tmp/perf-PID.map: a name per address range, no code
 * bytes) and how it writes a jitdump instead, and whose way of writing names
 * a name is in.
 */
#ifndef POSTPROC_ANNOTATE_JITS_H
#define POSTPROC_ANNOTATE_JITS_H

#include <stddef.h>

#include "jit-runtime.h"
#include "stream/stream.h"

/*
 * The runtime of object obj of s (a perf map's function), from its name's
 * prefix, else from the files mapped into its process (the stream's `map`
 * records); one with name NULL and a general jitdump phrase when neither
 * tells. Never NULL.
 */
const struct jit_runtime *jits__perf_map(const struct stream *s, size_t obj);

/*
 * name as its users write it (malloc()ed), asking each runtime's demangler
 * in the table's order; NULL when none knows it (or memory ran out).
 */
char *jits__demangle(const char *name);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The JITs that write a perf map (/tmp/perf-PID.map: a name per address
 * range, no code bytes) and how each writes a jitdump instead, whose code
 * bytes give blocks and instructions. One row per runtime: how its code is
 * recognised (a name's prefix, a file mapped into its process) and the flag.
 */
#ifndef POSTPROC_PERF_MAP_JITS_H
#define POSTPROC_PERF_MAP_JITS_H

#include <stdint.h>

#include "stream/stream.h"

struct perf_map_jit {
	const char *runtime;	/* "HotSpot", "node (V8)", ...; NULL: not recognised */
	/* What writes a jitdump instead, as one phrase: "node --perf-prof";
	 * for a runtime that has none, says so. */
	const char *jitdump;
};

/*
 * The runtime of object obj of s (a perf map's function), from its name's
 * prefix, else from the files mapped into its process (the stream's `map`
 * records); one with runtime NULL and a general jitdump phrase when neither
 * tells. Never NULL.
 */
const struct perf_map_jit *perf_map_jit__of(const struct stream *s, size_t obj);

#endif

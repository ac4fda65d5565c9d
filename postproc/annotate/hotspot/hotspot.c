/* SPDX-License-Identifier: MIT */
/* HotSpot's row: its perf map, its jitdump, its names (hotspot.h). */
#include <stddef.h>

#include "hotspot.h"
#include "java-name.h"

const struct jit_runtime jit_hotspot = {
	.name = "HotSpot",
	/* its map's names say nothing of it; the JVM's library does */
	.map_files = (const char *const[]){ "libjvm.so", NULL },
	/* perf's agent is built from the kernel's tools/perf/jvmti (Debian:
	 * linux-source), then perf inject --jit */
	.jitdump = "perf's jvmti agent writes a jitdump: java -agentpath:/path/to/libperf-jvmti.so,"
		   " then perf inject --jit",
	.demangle = java_name__demangle,
};

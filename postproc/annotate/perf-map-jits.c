/* SPDX-License-Identifier: MIT */
/* Which JIT wrote a perf map, and how it writes a jitdump instead (perf-map-jits.h). */
#include <string.h>

#include "perf-map-jits.h"

/*
 * Each runtime: the prefix its perf map's names carry (NULL: none of its
 * own), the start of the base name of a file its process maps (the
 * runtime's executable or library), and its jitdump. Checked against the
 * recordings test-data/jit-{hotspot-perfmap,mono,node-perfmap,cpython312}
 * and the runtimes' own documentation.
 */
static const struct row {
	const char *name_prefix;
	const char *file_prefix;
	struct perf_map_jit jit;
} rows[] = {
	/* -XX:+DumpPerfMapAtExit; perf's agent is built from the kernel's
	 * tools/perf/jvmti (Debian: linux-source), then perf inject --jit */
	{ NULL, "libjvm.so",
	  { "HotSpot", "perf's jvmti agent writes a jitdump: java -agentpath:/path/to/libperf-jvmti.so,"
		       " then perf inject --jit" } },
	/* --perf-basic-prof writes the map; --perf-prof the jitdump */
	{ "JS:", "node", { "node (V8)", "node --perf-prof writes a jitdump" } },
	{ "Builtin:", "libnode.so", { "node (V8)", "node --perf-prof writes a jitdump" } },
	/* 3.12's -X perf writes the map of its trampolines; 3.13 added -X perf_jit */
	{ "py::", "libpython3", { "CPython", "CPython 3.13 and later write a jitdump with -X perf_jit" } },
	{ NULL, "python3", { "CPython", "CPython 3.13 and later write a jitdump with -X perf_jit" } },
	/* mono --jitmap; Mono 6.8 (mono/mono's driver) has no jitdump option */
	{ NULL, "mono-sgen", { "Mono", "Mono has no jitdump option known here (--jitmap writes this map only)" } },
	{ NULL, "libmonosgen-2.0.so", { "Mono", "Mono has no jitdump option known here (--jitmap writes this map only)" } },
	/* --profile=perfmap writes the map */
	{ NULL, "wasmtime", { "wasmtime", "wasmtime run --profile=jitdump writes a jitdump" } },
};

static const struct perf_map_jit unknown = {
	NULL, "a JIT that writes perf's jitdump format instead gives them (node --perf-prof,"
	      " wasmtime --profile=jitdump)"
};

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

const struct perf_map_jit *perf_map_jit__of(const struct stream *s, size_t obj)
{
	const struct stream_object *o = &s->objects[obj];

	for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++)
		if (rows[k].name_prefix && starts(o->name, rows[k].name_prefix))
			return &rows[k].jit;
	for (size_t i = 0; i < s->maps_nr; i++) {
		const char *base;

		if (s->maps[i].pid != o->pid)
			continue;
		base = base_name(s->maps[i].path);
		for (size_t k = 0; k < sizeof(rows) / sizeof(rows[0]); k++)
			if (starts(base, rows[k].file_prefix))
				return &rows[k].jit;
	}
	return &unknown;
}

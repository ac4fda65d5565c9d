/* SPDX-License-Identifier: MIT */
/* The JIT runtimes, one row each from its own folder (jits.h). */
#include <stdbool.h>
#include <string.h>

#include "beam/beam.h"
#include "cpython/cpython.h"
#include "hotspot/hotspot.h"
#include "jits.h"
#include "mono/mono.h"
#include "v8/v8.h"
#include "wasmtime/wasmtime-runtime.h"

/*
 * In the order they are asked: a perf map's name prefix first, then the
 * files of its process; a name's demangler. No two runtimes share a prefix.
 */
static const struct jit_runtime *const runtimes[] = {
	&jit_v8, &jit_hotspot, &jit_cpython, &jit_mono, &jit_beam, &jit_wasmtime,
};
#define RUNTIMES_NR (sizeof(runtimes) / sizeof(runtimes[0]))

static const struct jit_runtime unknown = {
	.jitdump = "a JIT that writes perf's jitdump format instead gives them (node --perf-prof,"
		   " wasmtime --profile=jitdump)",
};

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* Whether s starts with one of the NULL-ended prefixes (NULL: none). */
static bool starts_any(const char *s, const char *const *prefixes)
{
	for (; prefixes && *prefixes; prefixes++)
		if (!strncmp(s, *prefixes, strlen(*prefixes)))
			return true;
	return false;
}

const struct jit_runtime *jits__perf_map(const struct stream *s, size_t obj)
{
	const struct stream_object *o = &s->objects[obj];

	for (size_t k = 0; k < RUNTIMES_NR; k++)
		if (starts_any(o->name, runtimes[k]->map_names))
			return runtimes[k];
	for (size_t i = 0; i < s->maps_nr; i++) {
		const char *base;

		if (s->maps[i].pid != o->pid)
			continue;
		base = base_name(s->maps[i].path);
		for (size_t k = 0; k < RUNTIMES_NR; k++)
			if (starts_any(base, runtimes[k]->map_files))
				return runtimes[k];
	}
	return &unknown;
}

char *jits__demangle(const char *name)
{
	for (size_t k = 0; k < RUNTIMES_NR; k++) {
		char *dm = runtimes[k]->demangle ? runtimes[k]->demangle(name) : NULL;

		if (dm)
			return dm;
	}
	return NULL;
}

/* SPDX-License-Identifier: MIT */
/*
 * One JIT runtime as the report needs to know it: the row that the runtime's
 * own folder fills (annotate/NAME/NAME.c, with all else it knows of the
 * runtime beside it, NAME.h saying it) and that the dispatcher, jits.c,
 * asks. Data only, so that a runtime's folder at any layer includes it.
 */
#ifndef POSTPROC_ANNOTATE_JIT_RUNTIME_H
#define POSTPROC_ANNOTATE_JIT_RUNTIME_H

struct jit_runtime {
	const char *name;	/* as its users call it: "HotSpot", "node (V8)", ... */
	/* How its perf map's code is told (NULL-ended lists, NULL for none):
	 * the prefixes of the names it writes there, and the starts of the base
	 * names of the files its process maps (its executable, its library). */
	const char *const *map_names;
	const char *const *map_files;
	/* What writes a jitdump, whose code bytes give blocks and instructions,
	 * instead of (or besides) its perf map, as one phrase; for a runtime
	 * that has none, says so. */
	const char *jitdump;
	/* A name as its users write it, malloc()ed; NULL when name is none of
	 * its mangled names (or memory ran out). NULL: its names are written
	 * as they are read. */
	char *(*demangle)(const char *name);
};

#endif

/* SPDX-License-Identifier: MIT */
/* The plugin's options: one `--dlarg OPTION` each on perf script's command line. */
#ifndef PLUGIN_OPTIONS_H
#define PLUGIN_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

struct options {
	char *out_path;		/* out=FILE (owned); NULL: standard output */
	char *perf_data;	/* perf-data=FILE (owned); NULL: what perf reads */
	const char **jitdumps;	/* jitdump=FILE, in order (owned array of borrowed strings) */
	size_t jitdumps_nr;
	const char *jitdir;	/* jitdir=DIR (borrowed; the last one given) */
	const char **search;	/* search=DIR, in order (owned array of borrowed strings):
				 * where files gone from their recorded paths are looked for */
	size_t search_nr;
	bool jit_only;		/* jit-only */
	bool code_refs;		/* code-refs: a JIT's code a mapped file holds is named, not copied */
	bool stats;		/* stats: what resolving natives cost, on standard error */
};

enum options_result {
	OPTIONS_OK,
	OPTIONS_HELP,		/* `help` was given: print options__usage, do nothing else */
	OPTIONS_UNKNOWN,	/* *bad is an argument that is no option */
};

/* The usage text `--dlarg help` prints, also shown after an unknown option. */
extern const char options__usage[];

/*
 * Parse argv[0, argc) (perf's --dlarg strings, which must outlive o: the
 * jitdump, jitdir and search values point into them). Parsing stops at the first
 * `help` or unknown argument. o is zeroed first; release it with
 * options__release whatever the result. Returns an enum options_result or
 * -ENOMEM.
 */
int options__parse(struct options *o, int argc, char **argv, const char **bad);
void options__release(struct options *o);

#endif

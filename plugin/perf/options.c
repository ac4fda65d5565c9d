// SPDX-License-Identifier: MIT
/* The plugin's --dlarg options (see options.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "options.h"

const char options__usage[] =
	"usage: perf script [-i perf.data] --dlfilter hotblocks.so [--dlarg OPTION]...\n"
	"Writes the hotblocks annotated stream (read it with the `hotblocks` command).\n"
	"options (each one --dlarg):\n"
	"  out=FILE        write the stream to FILE (default: standard output)\n"
	"  perf-data=FILE  the perf.data to scan for jitdump paths (default: perf's -i, else ./perf.data)\n"
	"  jitdump=FILE    also read this jit-<pid>.dump (repeatable)\n"
	"  jitdir=DIR      look for jit-<pid>.dump in DIR too\n"
	"  search=DIR      look in DIR for files gone from their recorded paths (jitdumps,\n"
	"                  .cwasm and ELF files, by name and by build-id; repeatable;\n"
	"                  perf.data's own directory is looked in first)\n"
	"  jit-only        count only JIT samples (native code is not resolved)\n"
	"  code-refs       where a JIT's code is the bytes of a file it ran from (a wasmtime\n"
	"                  .cwasm), name the file, offset and CRC-64 instead of copying them\n"
	"                  (the report then reads that file)\n"
	"  stats           print what resolving native code read (files, symbols, memory) to stderr\n"
	"  help            print this and stop\n"
	"Record with `perf record -k mono` so JIT samples can be matched by time (with\n"
	"--per-thread add -T: without it perf records no sample times).\n"
	"perf then exits with status 1 when the stream cannot be written (out=FILE is\n"
	"checked before any sample is read and may not be the input), 2 for a bad --dlarg.\n";

/* Replace *slot with a copy of value: 0 or -ENOMEM. */
static int set_string(char **slot, const char *value)
{
	char *copy = strdup(value);

	if (!copy)
		return -ENOMEM;
	free(*slot);
	*slot = copy;
	return 0;
}

int options__parse(struct options *o, int argc, char **argv, const char **bad)
{
	memset(o, 0, sizeof(*o));
	*bad = NULL;
	o->jitdumps = calloc((size_t)(argc > 0 ? argc : 0) + 1, sizeof(*o->jitdumps));
	o->search = calloc((size_t)(argc > 0 ? argc : 0) + 1, sizeof(*o->search));
	if (!o->jitdumps || !o->search)
		return -ENOMEM;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strncmp(a, "out=", 4)) {
			if (set_string(&o->out_path, a + 4) < 0)
				return -ENOMEM;
		} else if (!strncmp(a, "perf-data=", 10)) {
			if (set_string(&o->perf_data, a + 10) < 0)
				return -ENOMEM;
		} else if (!strncmp(a, "jitdump=", 8)) {
			o->jitdumps[o->jitdumps_nr++] = a + 8;
		} else if (!strncmp(a, "jitdir=", 7)) {
			o->jitdir = a + 7;
		} else if (!strncmp(a, "search=", 7) && a[7]) {
			o->search[o->search_nr++] = a + 7;
		} else if (!strcmp(a, "jit-only")) {
			o->jit_only = true;
		} else if (!strcmp(a, "code-refs")) {
			o->code_refs = true;
		} else if (!strcmp(a, "stats")) {
			o->stats = true;
		} else if (!strcmp(a, "help")) {
			return OPTIONS_HELP;
		} else {
			*bad = a;
			return OPTIONS_UNKNOWN;
		}
	}
	return OPTIONS_OK;
}

void options__release(struct options *o)
{
	free(o->out_path);
	free(o->perf_data);
	free(o->jitdumps);
	free(o->search);
	memset(o, 0, sizeof(*o));
}

/* SPDX-License-Identifier: MIT */
/*
 * A perf map, /tmp/perf-<pid>.map: the names a JIT gives its code for perf
 * (node --perf-basic-prof, wasmtime --profile=perfmap, and many others).
 * perf reads it for a process's anonymous executable memory, once, as the
 * file is when perf script first needs it, and so does this reader: one
 * symbol per line "START SIZE NAME" (hex numbers, 0x optional), read with
 * perf 6.1's own arithmetic (NATIVE.md "Perf maps"), every line kept (no
 * fix-ups: duplicates and overlaps stay, and a lookup among them returns what
 * perf's tree returns).
 */
#ifndef PLUGIN_PERFMAP_H
#define PLUGIN_PERFMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../symbols/symset.h"

struct perfmap {
	struct symset set;
	char *text;		/* the file's bytes, NUL-terminated lines (names point here) */
	size_t lines;		/* lines perf takes as symbols */
	int err;		/* 0, or the errno of opening or reading the file */
};

/* Read the map at path: 0, or a negative errno (the map then has no symbols;
 * perf's answer for such memory is no symbol either). */
int perfmap__load(struct perfmap *m, const char *path);

/* Parse a map already in memory (text is taken over: it must be malloc'ed,
 * len bytes plus room for a NUL). 0 or -ENOMEM. */
int perfmap__parse(struct perfmap *m, char *text, size_t len);

void perfmap__release(struct perfmap *m);

/* perf's symbol at ip (an address in the process), or NULL. */
const struct symset_sym *perfmap__find(struct perfmap *m, uint64_t ip);

#endif

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

/* The most of a map read (what is past it is left out, and said). */
#define PERFMAP_MAX ((size_t)512 << 20)

struct perfmap {
	struct symset set;
	char *text;		/* the file's bytes, NUL-terminated lines (names point here) */
	size_t lines;		/* lines perf takes as symbols */
	size_t wrapped;		/* ... of which START + SIZE wraps past 2^64 (perf's tree never
				 * finds them either) */
	size_t first_wrapped;	/* the line number of the first of those (1-based) */
	int err;		/* 0, or the errno of opening or reading the file */
	char note[320];		/* what the user should hear: why the map was refused, or
				 * what of it was not used; "" when all is well */
};

/*
 * Read the map at path, at most max bytes of it (0: PERFMAP_MAX): 0, or a
 * negative errno (the map then has no symbols; perf's answer for such memory
 * is no symbol either). The map is written by the profiled program, so it is
 * untrusted: a symbolic link (-ELOOP), a file neither the reader nor root
 * owns (-EPERM, unless force: perf script -f), anything but a regular file
 * (-EINVAL) is refused, and note says so. perf 6.1 reads the first two.
 */
int perfmap__load(struct perfmap *m, const char *path, size_t max, bool force);

/* Parse a map already in memory (text is taken over: it must be malloc'ed,
 * len bytes plus room for a NUL). 0 or -ENOMEM. */
int perfmap__parse(struct perfmap *m, char *text, size_t len);

void perfmap__release(struct perfmap *m);

/* perf's symbol at ip (an address in the process), or NULL. */
const struct symset_sym *perfmap__find(struct perfmap *m, uint64_t ip);

#endif

/* SPDX-License-Identifier: MIT */
/* A whole input file in memory by mapping it: only the pages read cost memory. */
#ifndef POSTPROC_MAP_FILE_H
#define POSTPROC_MAP_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* map_file() flags, besides read_file()'s. */
enum {
	/*
	 * The mapping may be written (copy-on-write: never to the file), as
	 * libelf's elf_memory() may convert an image of the other byte order
	 * in place.
	 */
	MAP_FILE_WRITABLE = 1 << 8,
};

struct mapped_file {
	uint8_t *buf;	/* len bytes (not NUL-terminated when mapped) */
	size_t len;
	bool mapped;		/* mmap(2)ed, else read_file()'s buffer */
	bool writable;		/* mapped with MAP_FILE_WRITABLE */
};

/*
 * As read_file() (read-file.h: the same checks, messages and flags), but a
 * non-empty regular file is mapped read-only instead of read: a large module
 * costs only the pages its reader touches (and the kernel can drop them
 * again). Without MAP_FILE_WRITABLE the pages are read-only. Anything else (a pipe with READ_FILE_PIPES, an empty file) is read
 * as read_file() does.
 *
 * A mapped file cut short while mapped would make reading its lost pages a
 * SIGBUS: the first call installs a handler that, for an address in a file
 * mapped here, says "hotblocks: error: PATH: cut short while being read" and
 * ends the program with status 1 (an input error), instead of a crash. Any
 * other SIGBUS is left to the default action.
 *
 * Returns 0 and fills *f, or a negative errno (f zeroed) with the message.
 */
int map_file(const char *path, size_t max, const char *max_text, unsigned flags,
	     struct mapped_file *f, char *err, size_t errlen);

/*
 * The pages read so far no longer count as the program's memory: a file read
 * through once (a module's first pass) stays mapped, and what is read of it
 * later comes back from the page cache. Nothing for a file read into memory
 * or mapped writable (whose written pages would be lost).
 */
void map_file__forget_pages(struct mapped_file *f);

/*
 * As map_file__forget_pages, for the whole pages of f's bytes [p, p + len)
 * alone, also of a file mapped writable: bytes the caller knows were never
 * written (a section libelf hands out as it is, ELF_T_BYTE).
 */
void map_file__forget_range(const struct mapped_file *f, const void *p, size_t len);

/* Unmap or free, and zero *f. A zeroed f is fine. */
void unmap_file(struct mapped_file *f);

#endif

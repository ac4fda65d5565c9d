/* SPDX-License-Identifier: MIT */
/* Reader of jit-<pid>.dump files (perf's jitdump format), incremental so a file
 * that is still being written can be read again as it grows. */
#ifndef PLUGIN_JITDUMP_H
#define PLUGIN_JITDUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/hash.h"
#include "jitdump-format.h"

/* One DEBUG_INFO entry; all fields host byte order. */
struct jitdump_debug_entry {
	uint64_t addr;		/* code address as written by the JIT (absolute) */
	uint32_t line;		/* source line, from 1 */
	uint32_t discrim;	/* column / discriminator, 0 = none */
	char *file;		/* owned; NUL-terminated; "\xff" = same file as previous entry */
};

/*
 * One code load. A CODE_MOVE record adds another load that shares the moved
 * load's name and code (the same pointers: names and code live in the
 * jitdump's arena) and copies code_size and unwind_mapped_size (moved_from =
 * index of that load in jitdump.loads: the latest one with the MOVE's
 * code_index, found through an index, so a dump of many moves costs neither
 * time nor memory per earlier load). Its timestamp, pid, tid, vma and
 * code_index are the MOVE's, code_addr is the MOVE's new_code_addr, and debug
 * is NULL (the entries' addresses are those of the old place; see
 * loads[moved_from].debug). 96 bytes: millions of tiny loads are read.
 */
struct jitdump_load {
	uint64_t timestamp;	/* record timestamp, ns of the writer's clock */
	uint64_t vma;
	uint64_t code_addr;	/* where the code runs; what samples are matched against */
	uint64_t code_size;	/* bytes; may be 0 */
	uint64_t code_index;
	char *name;		/* NUL-terminated; in the jitdump's arena (valid as long as it) */
	uint8_t *code;		/* copy of code_size bytes, in the arena (NULL when code_size is 0) */
	struct jitdump_debug_entry *debug; /* owned; entries of the DEBUG_INFO record before this LOAD; NULL if none */
	uint64_t unwind_mapped_size; /* from a preceding UNWINDING_INFO, else 0; unchecked */
	uint64_t file_offset;	/* where the LOAD (or MOVE) record starts in the file */
	uint32_t pid, tid;
	uint32_t debug_nr;
	int32_t moved_from;	/* -1 for a LOAD; for a MOVE the index of the load it moved */
};

struct jitdump_chunk;

struct jitdump {
	char *path;		/* owned copy of the path given to jitdump__open */
	int fd;
	bool swapped;		/* file written in the other byte order */
	uint32_t version, elf_mach, pid;
	uint64_t flags;
	uint64_t header_size;	/* the header's total_size (>= 40); records start there */
	uint64_t parsed_off;	/* file offset of the first byte not yet consumed */
	bool closed;		/* a CODE_CLOSE record was seen */

	struct jitdump_load *loads; /* in file order */
	size_t nr, alloc;

	/* Counters for the summary line. */
	size_t unknown_records;	/* skipped by total_size */
	size_t orphan_moves;	/* MOVE naming a code_index never loaded; skipped */
	size_t wrapping;	/* LOAD or MOVE whose code passes 2^64; skipped */
	uint64_t first_wrapping_off;	/* the file offset of the first of them */
	size_t unwind_records, debug_records;

	/* Internal: the names and code bytes of all loads, packed in big chunks
	 * (a million tiny loads must not cost two malloc()s each). */
	struct jitdump_chunk *arena;

	/* Internal: code_index -> index of its latest load, keyed by the
	 * code_index's hash alone (hash_u64 is a bijection). Built at the first
	 * CODE_MOVE (dumps without moves, like V8's, never need it) and kept up
	 * to date from then on. */
	struct idx_table idx;
	bool idx_built;

	/* DEBUG_INFO / UNWINDING_INFO waiting for the next LOAD (internal). */
	struct jitdump_debug_entry *pending_debug;
	size_t pending_debug_nr;
	uint64_t pending_unwind_mapped_size;

	/* Internal: file size at the last read (for jitdump__tail_bytes) and the
	 * sticky error that jitdump__update repeats (0 = none; message owned). */
	uint64_t file_size;
	int error;
	char *error_msg;
};

/*
 * Open the jitdump at path and read every complete record in it (the file
 * stays open for jitdump__update; either byte order).
 * Returns 0 and sets *out (owned by the caller, free with jitdump__close), or
 * a negative errno, sets *out to NULL and writes a message that names the file
 * and byte offset into err (e.g. "jit-1.dump+0x0: bad magic 0x12345678").
 * Refuses: a path that is not a regular file (-EINVAL; a FIFO is opened
 * without blocking and never read), bad magic (-EINVAL), version > 1 (-ENOTSUP), reserved flag bits
 * (-ENOTSUP), header total_size < 40 (-EINVAL), JITDUMP_FLAGS_ARCH_TIMESTAMP
 * (-ENOTSUP: perf converts those with perf.data's TIME_CONV, which a dlfilter
 * cannot see), a file shorter than the 40-byte header (-ENODATA: the JIT may
 * not have written it yet, so the caller may try again later).
 * A malformed record (what jitdump__update reports as -EINVAL) does not fail
 * the open: the loads before it are kept, jd->error is -EINVAL and
 * jd->error_msg (and err) hold the message. Check jd->error after opening.
 * A truncated last record is not an error: it is left for jitdump__update.
 * Nor is a header total_size past the end of the file: records are read once
 * the file has grown past it. err may be NULL; messages are cut to errlen
 * (512 plus the length of the path is always enough).
 */
int jitdump__open(struct jitdump **out, const char *path, char *err, size_t errlen);

/*
 * Read the records appended since the last call (one fstat when nothing is
 * new, else preads of up to 1 MiB). Returns the number of new loads (>= 0,
 * MOVEs included) or a negative errno with a message in err naming the file and
 * offset. -EINVAL is a malformed record: total_size < 16, a LOAD < 56 bytes or
 * whose name is not NUL-terminated or whose code_size does not fit after the
 * name, a MOVE < 64 bytes, an UNWINDING_INFO < 40 bytes, a DEBUG_INFO < 32
 * bytes or whose nr_entry entries run past its total_size. After -EINVAL the
 * loads read before the bad record stay valid (jd->nr may have grown) and
 * later calls return the same error and message. -ENOMEM and I/O errors
 * (fstat, pread) are not sticky: parsed_off stays on the record that failed,
 * a later call retries.
 * A file that shrank is not an error either: nothing new is read.
 */
int jitdump__update(struct jitdump *jd, char *err, size_t errlen);

/*
 * Bytes at the end of the file, as seen by the last open/update, that do not
 * form a complete record (0 when the file ends on a record boundary). Also
 * counts the bytes of a header whose total_size runs past the end of the file,
 * and, after an -EINVAL, the bytes from the bad record on. Used in the final
 * summary: a dump that ends mid-record when perf is done was truncated.
 */
uint64_t jitdump__tail_bytes(const struct jitdump *jd);

/* Free everything, close the file. NULL is allowed. */
void jitdump__close(struct jitdump *jd);

#endif

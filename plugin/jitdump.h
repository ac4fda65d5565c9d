/* SPDX-License-Identifier: MIT */
/* Reader of jit-<pid>.dump files (perf's jitdump format), incremental so a file
 * that is still being written can be read again as it grows. */
#ifndef PLUGIN_JITDUMP_H
#define PLUGIN_JITDUMP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Record ids, from tools/perf/Documentation/jitdump-specification.txt. */
enum jitdump_record_id {
	JITDUMP_CODE_LOAD = 0,
	JITDUMP_CODE_MOVE = 1,
	JITDUMP_CODE_DEBUG_INFO = 2,
	JITDUMP_CODE_CLOSE = 3,
	JITDUMP_CODE_UNWINDING_INFO = 4,
};

/* Header flag bit 0: timestamps are raw arch cycles (TSC), not CLOCK_MONOTONIC. */
#define JITDUMP_FLAGS_ARCH_TIMESTAMP 1ULL

/* One DEBUG_INFO entry; all fields host byte order. */
struct jitdump_debug_entry {
	uint64_t addr;		/* code address as written by the JIT (absolute) */
	uint32_t line;		/* source line, from 1 */
	uint32_t discrim;	/* column / discriminator, 0 = none */
	char *file;		/* owned; NUL-terminated; "\xff" = same file as previous entry */
};

/*
 * One code load. A CODE_MOVE record adds another load that copies the moved
 * load's name and code (moved_from = index of that load in jitdump.loads).
 */
struct jitdump_load {
	uint64_t timestamp;	/* record timestamp, ns of the writer's clock */
	uint32_t pid, tid;
	uint64_t vma;
	uint64_t code_addr;	/* where the code runs; what samples are matched against */
	uint64_t code_size;	/* bytes; may be 0 */
	uint64_t code_index;
	char *name;		/* owned, NUL-terminated */
	uint8_t *code;		/* owned copy of code_size bytes (NULL when code_size is 0) */
	struct jitdump_debug_entry *debug; /* owned; entries of the DEBUG_INFO record before this LOAD */
	size_t debug_nr;
	uint64_t unwind_mapped_size; /* from a preceding UNWINDING_INFO, else 0 */
	uint64_t file_offset;	/* where the LOAD (or MOVE) record starts in the file */
	long moved_from;	/* -1 for a LOAD; for a MOVE the index of the load it moved */
};

struct jitdump {
	char *path;		/* owned copy of the path given to jitdump__open */
	int fd;
	bool swapped;		/* file written in the other byte order */
	uint32_t version, elf_mach, pid;
	uint64_t flags;
	uint64_t header_size;	/* the header's total_size */
	uint64_t parsed_off;	/* file offset of the first byte not yet consumed */
	bool closed;		/* a CODE_CLOSE record was seen */

	struct jitdump_load *loads; /* in file order */
	size_t nr, alloc;

	/* Counters for the summary line. */
	size_t unknown_records;	/* skipped by total_size */
	size_t orphan_moves;	/* MOVE naming a code_index never loaded; skipped */
	size_t unwind_records, debug_records;

	/* DEBUG_INFO / UNWINDING_INFO waiting for the next LOAD (internal). */
	struct jitdump_debug_entry *pending_debug;
	size_t pending_debug_nr;
	uint64_t pending_unwind_mapped_size;
};

/*
 * Open the jitdump at path and read every complete record in it.
 * Returns 0 and sets *out, or a negative errno and writes a message that names
 * the file and byte offset into err (e.g. "jit-1.dump+0x0: bad magic 0x12345678").
 * Refuses: bad magic, version > 1, reserved flag bits, header total_size < 40,
 * JITDUMP_FLAGS_ARCH_TIMESTAMP (perf converts those with perf.data's TIME_CONV,
 * which a dlfilter cannot see), a header shorter than 40 bytes.
 * A truncated last record is not an error: it is left for jitdump__update.
 */
int jitdump__open(struct jitdump **out, const char *path, char *err, size_t errlen);

/*
 * Read the records appended since the last call. Returns the number of new
 * loads (>= 0) or a negative errno with a message in err naming the file and
 * offset (a record with total_size < 16, a LOAD whose name or code run past its
 * total_size, a DEBUG_INFO whose entries run past it). After an error the
 * loads read so far stay valid and later calls return the same error.
 */
int jitdump__update(struct jitdump *jd, char *err, size_t errlen);

/*
 * Bytes at the end of the file that do not form a complete record (0 when the
 * file ends on a record boundary). Used in the final summary: a dump that ends
 * mid-record when perf is done was truncated.
 */
uint64_t jitdump__tail_bytes(const struct jitdump *jd);

/* Free everything, close the file. NULL is allowed. */
void jitdump__close(struct jitdump *jd);

#endif

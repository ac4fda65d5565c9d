/* SPDX-License-Identifier: MIT */
/* Finds the jit-<pid>.dump marker mappings recorded in a perf.data file. A dlfilter
 * never sees MMAP events, so the plugin reads perf.data itself for them. */
#ifndef PLUGIN_PERFDATA_SCAN_H
#define PLUGIN_PERFDATA_SCAN_H

#include <stddef.h>
#include <stdint.h>

/* Called once per MMAP/MMAP2 record whose file name's basename is
 * jit-<digits>.dump (in file order, duplicates included). pid is the record's
 * pid; path is the file name exactly as recorded (borrowed, valid during the
 * call). A non-zero return stops the scan and is returned by perfdata__scan. */
typedef int (*perfdata_jitdump_cb)(void *arg, uint32_t pid, const char *path);

struct perfdata_scan_stats {
	uint64_t records;	/* records walked (inside compressed ones too) */
	uint64_t compressed;	/* PERF_RECORD_COMPRESSED records seen */
	uint64_t compressed_failed; /* ... that could not be decompressed (skipped) */
	int pipe_format;	/* 1 if the file is in pipe format (perf record -o -) */
	int swapped;		/* 1 if written in the other byte order */
};

/*
 * Walk the data section of the perf.data file at path (file format, or pipe
 * format saved to a file; either byte order; zstd-compressed records are
 * decompressed) and call cb for every jitdump marker mapping.
 * Returns 0, the callback's non-zero value, or a negative errno with a message
 * naming the file and byte offset in err (not a perf.data file, truncated
 * header, a record whose size is < 8 or runs past the data section).
 * A pipe-format file that simply ends mid-record is not an error.
 * stats may be NULL.
 */
int perfdata__scan(const char *path, perfdata_jitdump_cb cb, void *arg,
		   struct perfdata_scan_stats *stats, char *err, size_t errlen);

/* Same over a buffer already in memory (for tests and fuzzing); name is used in messages. */
int perfdata__scan_buf(const uint8_t *buf, size_t len, const char *name,
		       perfdata_jitdump_cb cb, void *arg,
		       struct perfdata_scan_stats *stats, char *err, size_t errlen);

#endif

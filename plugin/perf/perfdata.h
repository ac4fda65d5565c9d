/* SPDX-License-Identifier: MIT */
/* The plugin's reader of perf.data: one walk of its records for what a
 * dlfilter never sees (MMAP/MMAP2, FORK/EXIT, build-ids, and among the mmaps
 * the jit-<pid>.dump marker mappings), each to a visitor's callback. */
#ifndef PLUGIN_PERFDATA_H
#define PLUGIN_PERFDATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Called once per MMAP/MMAP2 record whose file name's basename is
 * jit-<digits>.dump (in file order, duplicates included; for a directory:
 * data first, then data.* in version order). pid is the record's
 * pid; path is the file name exactly as recorded (borrowed, valid during the
 * call). A non-zero return stops the scan and is returned by perfdata__scan. */
typedef int (*perfdata_jitdump_cb)(void *arg, uint32_t pid, const char *path);

/* One PERF_RECORD_MMAP or MMAP2 as recorded (perf's include/uapi/linux/perf_event.h
 * describes the records; the fields here are what the plugin uses). */
struct perfdata_mmap {
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	uint64_t time;		/* sample_id time (perf record -k mono: CLOCK_MONOTONIC); 0 when absent */
	bool has_time;
	bool mmap2;		/* MMAP2: prot, flags and the file identity below are known */
	uint16_t misc;		/* header misc: cpumode, PERF_RECORD_MISC_MMAP_DATA (MMAP: not executable) */
	uint32_t prot, flags;	/* mmap(2)'s; MMAP records: PROT_EXEC unless MMAP_DATA, flags 0 */
	uint32_t maj, min;	/* MMAP2 without a build-id: the file's device and inode */
	uint64_t ino, ino_generation;
	uint8_t build_id[20];	/* MMAP2 with PERF_RECORD_MISC_MMAP_BUILD_ID (perf record --buildid-mmap) */
	uint8_t build_id_size;	/* 0: none in the record */
	const char *filename;	/* borrowed, valid during the call */
};

/* PERF_RECORD_FORK and PERF_RECORD_EXIT. */
struct perfdata_task {
	bool exit;		/* EXIT, else FORK */
	uint16_t misc;		/* PERF_RECORD_MISC_FORK_EXEC: synthesized by perf for a running task */
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;		/* sample_id time, else the record's own time field */
};

/* One build-id perf record wrote for a file it saw samples in: the
 * HEADER_BUILD_ID feature section of a perf.data file, or a
 * PERF_RECORD_HEADER_BUILD_ID record in pipe mode. */
struct perfdata_build_id {
	uint16_t misc;		/* cpumode of the file: kernel, user, guest */
	int32_t pid;		/* the machine's pid: -1 host, else a guest's */
	uint8_t id[20];
	uint8_t size;		/* bytes of id used (20 for GNU build-ids of SHA-1) */
	const char *filename;	/* borrowed, valid during the call */
};

/*
 * What a walk reports; every callback may be NULL, and a non-zero return of
 * any stops the walk and is returned by perfdata__walk. Records come in file
 * order (not time order; for a directory: data first, then data.* in version
 * order), build-ids of the feature section after the data section's records.
 */
struct perfdata_visitor {
	perfdata_jitdump_cb jitdump;	/* MMAP/MMAP2 of a jit-<pid>.dump marker (as perfdata__scan) */
	int (*mmap)(void *arg, const struct perfdata_mmap *m);		/* every MMAP/MMAP2 */
	int (*task)(void *arg, const struct perfdata_task *t);		/* every FORK/EXIT */
	int (*build_id)(void *arg, const struct perfdata_build_id *b);
	void *arg;
};

struct perfdata_scan_stats {
	uint64_t records;	/* records walked (inside compressed ones too) */
	uint64_t compressed;	/* PERF_RECORD_COMPRESSED/COMPRESSED2 records seen */
	uint64_t compressed_failed; /* ... that could not be decompressed (skipped) */
	uint64_t decompressed_bytes; /* bytes the compressed records expanded to */
	uint64_t split_records;	/* records cut at the end of a COMPRESSED record's
				 * output, to be completed by the next one */
	uint64_t mmaps;		/* MMAP and MMAP2 records */
	uint64_t markers;	/* ... whose name matched: calls of the callback */
	uint64_t malformed;	/* MMAP/MMAP2 records too short or with an unterminated name (skipped) */
	int pipe_format;	/* 1 if the file is in pipe format (perf record -o -) */
	int swapped;		/* 1 if written in the other byte order */
	int dir_format;		/* 1 if path is a directory (perf record --threads) */
	uint64_t tasks;		/* FORK and EXIT records */
	uint64_t build_ids;	/* build-ids reported (feature section and records) */
	int timed;		/* 1 if the attrs give non-sample records a time (sample_id_all) */
	int truncated;		/* 1 if the records ended mid-record: a pipe-format or
				 * data.* file cut short, or compressed data ending
				 * inside a record (not an error) */
	char arch[32];		/* the recording machine's uname -m (HEADER_ARCH: the
				 * feature section, or a pipe's HEADER_FEATURE record),
				 * e.g. "x86_64"; empty when perf.data does not say */
	char osrelease[65];	/* its uname -r (HEADER_OSRELEASE, as arch): a kernel
				 * other than this one's says the recording was made
				 * on another machine or boot; empty when not said */
};

/* The ELF machine (e_machine) of the code of a machine whose uname -m is
 * arch ("x86_64" 62, "aarch64" 183, "s390x" 22, "riscv64" 243, ...), as
 * perf's own arch names go; 0 (EM_NONE) for one it does not know. */
uint16_t perfdata__arch_machine(const char *arch);

/*
 * Walk the data section of the perf.data file at path (file format, or pipe
 * format saved to a file; either byte order; zstd-compressed records are
 * decompressed) and call cb (may be NULL) for every jitdump marker mapping.
 * The file is mapped read-only; only regular files are read (a FIFO is refused
 * without reading from it, so perf's own input is never consumed).
 * A directory is read as perf record --threads writes it: the perf.data file
 * path/data, then the header-less path/data.* files in version order
 * (data.2 before data.10); such a file may end mid-record like a pipe.
 *
 * Returns 0, the callback's non-zero value, or a negative errno with a message
 * "<path>+0x<offset>: <what>" in err (lowercase, no trailing period; <path>
 * is the file inside the directory for the directory format):
 *   -EINVAL   not a perf.data file, truncated header, a record whose size is
 *             < 8 or that runs past the data section, a data or attr section
 *             (or an attr's ids section) outside the file, an attr entry size
 *             that does not fit its section, or path is neither a regular file nor a directory
 *             ("<path>: not a regular file")
 *   -ENOTSUP  perf.data version 1 ("PERFFILE")
 *   -ENOMEM, or the errno of open/fstat/mmap/scandir ("<path>: <what>")
 * A pipe-format file that simply ends mid-record is not an error (stats->truncated).
 *
 * Compressed records are decompressed as one zstd stream per file, as perf
 * does: perf 6.1 writes a single zstd frame that each COMPRESSED record
 * continues (only the first one has the frame magic), and the ring buffer's
 * wrap-around can split a record across two COMPRESSED records. A COMPRESSED
 * record that cannot be decompressed (corrupt payload, a zstd window above
 * 128 MiB, more than 64 MiB of output, or records inside it with size < 8) is
 * counted in compressed_failed and skipped; the scan goes on, though in perf's
 * single stream the records after a bad one fail too. Decompressed output is bounded
 * in total by max(256 MiB, 64 x the input size); compressed records past that
 * bound are counted as failed too. Memory use is about 1 MiB plus the zstd
 * window (512 KiB for perf record -z 1, 128 MiB for -z 22), all freed on return.
 * stats may be NULL; err may be NULL or errlen 0.
 */
int perfdata__scan(const char *path, perfdata_jitdump_cb cb, void *arg,
		   struct perfdata_scan_stats *stats, char *err, size_t errlen);

/* Same over a buffer already in memory (for tests and fuzzing); name is used in messages. */
int perfdata__scan_buf(const uint8_t *buf, size_t len, const char *name,
		       perfdata_jitdump_cb cb, void *arg,
		       struct perfdata_scan_stats *stats, char *err, size_t errlen);

/*
 * The same walk with every callback of v (v->jitdump behaves as perfdata__scan's
 * cb). The times of non-sample records come from their sample_id fields, laid
 * out by the sample_type of the recording's attrs (the file header's attr
 * section, or PERF_RECORD_HEADER_ATTR records in pipe mode); when the attrs
 * differ in layout and carry no PERF_SAMPLE_IDENTIFIER to tell them apart, or
 * lack sample_id_all, records have no time (has_time false, stats->timed 0).
 * A feature section that is cut short or malformed is skipped (its build-ids
 * are not reported), never an error: the records are what matters.
 */
int perfdata__walk(const char *path, const struct perfdata_visitor *v,
		   struct perfdata_scan_stats *stats, char *err, size_t errlen);
int perfdata__walk_buf(const uint8_t *buf, size_t len, const char *name, const struct perfdata_visitor *v,
		       struct perfdata_scan_stats *stats, char *err, size_t errlen);

/* Whether the basename of name[0, len) is exactly jit-<one or more digits>.dump. */
bool perfdata__is_jitdump_name(const char *name, size_t len);

#endif

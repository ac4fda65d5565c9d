/* SPDX-License-Identifier: MIT */
/* The set of jitdump files the plugin reads: discovery, fallbacks, re-reading as
 * they grow, and feeding their loads into the code map. */
#ifndef PLUGIN_DUMPS_H
#define PLUGIN_DUMPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "codemap.h"
#include "jitdump.h"
#include "../perf/perfdata.h"

typedef void (*dumps_warn_fn)(void *arg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

struct dump_file {
	struct jitdump *jd;
	uint32_t pid;		/* host pid the samples carry (marker record's pid, else the header's) */
	size_t indexed;		/* loads already added to the code map */
	uint64_t size_seen;	/* file size at the last re-read */
	bool failed;		/* a corrupt record stopped reading; the error was reported */
};

/* A set of pids (open addressing, 0 = empty slot; pid 0 is never stored). */
struct pidset {
	uint32_t *slots;
	size_t mask, nr;
};

struct dumps {
	struct dump_file *files;
	size_t nr, alloc;
	struct codemap *map;
	/* Directories searched for jit-<pid>.dump when perf.data named none for a pid. */
	char *dirs[4];
	size_t dirs_nr;
	/* Pids whose fallback search already ran. */
	struct pidset tried;
	/* Pids perf.data has a jitdump marker mapping of, once markers_known: a
	 * jit-<pid>.dump lying around for any other pid is not this recording's. */
	struct pidset marked;
	bool markers_known;
	/* What was searched, for the one-time "could not resolve JIT samples"
	 * hint: each place once (seen: the paths listed, to tell). */
	char searched[2048];
	size_t searched_len;
	char *seen[64];
	size_t seen_nr;
	dumps_warn_fn warn;
	void *warn_arg;
};

/* 0 or -ENOMEM. warn is called for every problem worth telling the user (once each). */
int dumps__init(struct dumps *d, dumps_warn_fn warn, void *warn_arg);
void dumps__release(struct dumps *d);

/* Add a fallback directory (copied), unless it is one already added under
 * another name ("." and the current directory). Order of calls = search order. */
void dumps__add_dir(struct dumps *d, const char *dir);

/*
 * Open the jitdump perf.data's marker mapping of host pid names (path as
 * recorded). If it cannot be used there, try its basename in each fallback
 * directory and say which file was used instead. A file already open (same
 * device and inode) is not added twice. Only regular files are read (never a
 * FIFO: opening one would wait for a writer). A dump whose header pid is not
 * the pid its jit-<pid>.dump name says is another process's and is refused.
 * Returns 0, or a negative errno after warning.
 */
int dumps__add(struct dumps *d, const char *path, uint32_t pid);

/* A jitdump the user named (--dlarg jitdump=FILE): used as it is, its pid from
 * its header; a header pid other than its name's is only warned about. */
int dumps__add_explicit(struct dumps *d, const char *path);

/* perf.data was scanned: from now on only pids dumps__add was called for may
 * have a dump found by dumps__try_pid. */
void dumps__markers_known(struct dumps *d);

/* For a pid no dump was found for: look for jit-<pid>.dump in the fallback
 * directories, once per pid. Cheap when already tried. A dump found so is
 * said (warned) to be a fallback; after dumps__markers_known one for a pid
 * perf.data has no marker of is not used (the recorded process never mapped
 * a jitdump, so a file with its pid is another process's). */
void dumps__try_pid(struct dumps *d, uint32_t pid);

/* Read what was appended to every dump whose size changed, and index new
 * loads. Returns the number of new loads. */
size_t dumps__refresh(struct dumps *d);

/* The walk of perf.data that discovery makes, shared with whoever else reads
 * its records (the native resolver's mmaps) so that the file is read once. */
struct dumps_walk {
	const struct perfdata_visitor *also;	/* in: more callbacks (its jitdump is not called) */
	bool walked;				/* out: perf.data was walked (not live) */
	int ret;				/* out: perfdata__walk's result */
	struct perfdata_scan_stats st;		/* out */
};

/*
 * Find the recording's dumps (JITDUMP.md "How the plugin finds the dumps"):
 * the fallback directories in search order (jitdir when not NULL, the
 * directory of perf_data, the current directory), then, unless live, the
 * marker mappings perf.data records (after which only marked pids may have a
 * dump found by name), then the files the user named. Problems are warned.
 */
void dumps__discover(struct dumps *d, const char *perf_data, bool live, const char *jitdir,
		     const char *const *named, size_t named_nr, struct dumps_walk *walk);

/* perf is done: warn about dumps that end mid-record or whose header runs
 * past the end, and about records that were skipped. */
void dumps__warn_unfinished(struct dumps *d);

/* The stream's one-word status of a dump: ok, truncated, corrupt or
 * header-past-end (STREAM.md "Records"). */
const char *dumps__status(const struct dump_file *f);

/* The load a code map entry refers to. */
const struct jitdump_load *dumps__load(const struct dumps *d, size_t map_id, const struct dump_file **file);

#endif

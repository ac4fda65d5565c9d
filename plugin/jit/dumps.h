/* SPDX-License-Identifier: MIT */
/* The set of jitdump files the plugin reads: discovery, fallbacks, re-reading as
 * they grow, and feeding their loads into the code map. */
#ifndef PLUGIN_DUMPS_H
#define PLUGIN_DUMPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/hash.h"
#include "../lib/warnings.h"
#include "../perf/perfdata.h"
#include "codemap.h"
#include "jitdump.h"

struct dump_file {
	struct jitdump *jd;
	uint32_t pid;		/* host pid the samples carry (marker record's pid, else the header's) */
	uint16_t e_machine;	/* the code's ELF machine: the header's; where it names none,
				 * the recording's (dumps__settle_machines); 0 unknown */
	size_t indexed;		/* loads already added to the code map */
	uint64_t size_seen;	/* file size at the last re-read */
	bool failed;		/* a corrupt record stopped reading; the error was reported */
	char *recorded;		/* the path perf.data names, when the dump was read elsewhere
				 * (owned; NULL: read there): the objects' dump= */
};

struct dumps {
	struct dump_file *files;
	size_t nr, alloc;
	struct codemap *map;
	/* Directories searched for jit-<pid>.dump when perf.data named none for a
	 * pid, or the one it names is gone (--jitdir, perf.data's, the current
	 * one, --dlarg search=DIR). */
	char *dirs[16];
	size_t dirs_nr;
	size_t beside;			/* 1 + the index in dirs of perf.data's own; 0 none */
	/* Sets of pids (keyed by their hashes alone, see dumps.c): those whose
	 * fallback search already ran, and those perf.data has a jitdump marker
	 * mapping of, once markers_known: a jit-<pid>.dump lying around for any
	 * other pid is not this recording's. */
	struct idx_table tried, marked;
	bool markers_known;
	/* What was searched, for the one-time "could not resolve JIT samples"
	 * hint: each place once (seen: the paths listed, to tell). */
	char searched[2048];
	size_t searched_len;
	char *seen[64];
	size_t seen_nr;
	struct warnings *warnings;	/* borrowed: every problem worth telling the user */
	uint64_t last_refresh_ns;	/* when the dumps were last re-read on a miss */
	char arch[32];			/* the recording machine's uname -m (perf.data's HEADER_ARCH); "" unknown */
	char osrelease[65];		/* its uname -r (HEADER_OSRELEASE); "" unknown */
};

/* 0 or -ENOMEM. Every problem worth telling the user goes to warnings, which
 * must outlive d. */
int dumps__init(struct dumps *d, struct warnings *warnings);
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

/*
 * Finding the recording's dumps (JITDUMP.md "How the plugin finds the
 * dumps") is four steps, in this order: the fallback directories, the
 * marker mappings of the walk of perf.data (unless live: a pipe is not
 * walked), what the walk's end says, and the files the user named.
 */

/* The fallback directories in search order: jitdir when not NULL, the
 * directory of perf_data (unless "-"), the current directory. */
void dumps__add_fallback_dirs(struct dumps *d, const char *jitdir, const char *perf_data);

/* The callbacks a walk of perf.data calls for each jitdump marker mapping:
 * the dump it names is added (dumps__add). */
void dumps__visitor(struct dumps *d, struct perfdata_visitor *v);

/* The walk of perf_data ended with ret (perfdata__walk's; err its message) and
 * st: when it saw every record, only marked pids may have a dump found by
 * name from now on; else why the markers are unknown is warned. */
void dumps__walked(struct dumps *d, const char *perf_data, int ret, const struct perfdata_scan_stats *st,
		   const char *err);

/*
 * perf is done: a dump whose header names no machine (e_machine 0, as
 * CPython 3.13's -X perf_jit writes it) gets the recording's, from
 * perf.data's arch (dumps__walked), else that of a file of its process
 * (machine_of: the e_machine read from the ELF header of a file pid ran,
 * naming it in *file; 0 when none is known). Said in one warning; a dump
 * neither knows keeps 0 and that is said too (its code cannot be
 * disassembled).
 */
void dumps__settle_machines(struct dumps *d, uint16_t (*machine_of)(void *arg, uint32_t pid, const char **file),
			    void *arg);

/* The jitdumps the user named (--dlarg jitdump=FILE), in order; a missing one is warned. */
void dumps__add_named(struct dumps *d, const char *const *named, size_t named_nr);

/* Loads an ambiguous answer of dumps__find names; how many covered is counted. */
#define AMBIGUOUS_NAMED 4

/* Which load a JIT sample hit. */
struct dumps_hit {
	enum codemap_result result;
	size_t id;			/* CODEMAP_HIT: the code map id of the load */
	uint64_t off;			/* ... and the sample's offset in it */
	size_t covering_nr;		/* CODEMAP_AMBIGUOUS: how many loads covered ip */
	uint32_t covering[AMBIGUOUS_NAMED];	/* ... the code map ids of the first of them */
};

/*
 * The load of pid's dumps that held ip at time (time_aware: the sample's
 * time is comparable with the dumps'; else the only load covering ip). With
 * look_further the pid's dump is looked for first when none was found yet
 * (dumps__try_pid), and a miss re-reads growing dumps (dumps__refresh, at
 * most once a millisecond) and looks again.
 */
void dumps__find(struct dumps *d, uint32_t pid, uint64_t ip, uint64_t time, bool time_aware, bool look_further,
		 struct dumps_hit *hit);

/* perf is done: warn about dumps that end mid-record or whose header runs
 * past the end, and about records that were skipped. */
void dumps__warn_unfinished(struct dumps *d);

/* The stream's one-word status of a dump: ok, truncated, corrupt or
 * header-past-end (STREAM.md "Records"). */
const char *dumps__status(const struct dump_file *f);

/* The path that names f's objects: the one perf.data recorded, where it
 * was read elsewhere (a recording moved with its dumps), else the file's. */
const char *dumps__name(const struct dump_file *f);

/* The load a code map entry refers to. */
const struct jitdump_load *dumps__load(const struct dumps *d, size_t map_id, const struct dump_file **file);

#endif

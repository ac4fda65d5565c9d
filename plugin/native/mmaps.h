/* SPDX-License-Identifier: MIT */
/*
 * The recording's memory maps as perf script holds them at each moment: the
 * MMAP/MMAP2 records of every process, by time, with what FORK gives a child
 * (a copy of its parent's maps at that time; perf 6.1 drops nothing at exec),
 * and the build-id perf recorded for each file. Answers which mapping covered
 * an address of a process at a sample's time (NATIVE.md "Mappings").
 *
 * Fed by a walk of perf.data (perfdata__walk: mmaps__visitor), then
 * mmaps__finish; lookups after that.
 */
#ifndef PLUGIN_MMAPS_H
#define PLUGIN_MMAPS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../jit/codemap.h"
#include "../lib/hash.h"
#include "../perf/perfdata.h"

/* What perf makes of a mapping's name (its map__new). */
enum mmaps_kind {
	MMAPS_FILE,		/* a file: its ELF symbols */
	MMAPS_PERFMAP,		/* anonymous executable memory: /tmp/perf-<pid>.map names it */
	MMAPS_VDSO,		/* [vdso] */
	MMAPS_ANON,		/* anonymous memory perf gives no symbols (not executable when mapped) */
};

struct mmaps_file {
	char *path;		/* as recorded: perf's dso name */
	uint8_t build_id[20];
	uint8_t build_id_size;	/* 0: perf.data has none for it */
	void *priv;		/* the user's (the symbol index, built on first use) */
};

struct mmaps_map {
	uint64_t start, len, pgoff;
	uint64_t time;
	uint32_t pid;		/* the recording's pid (a perf map is this pid's) */
	uint32_t file;		/* index into files */
	uint32_t space;		/* the process incarnation it belongs to */
	enum mmaps_kind kind;
};

struct mmaps_space {
	uint32_t pid;
	uint32_t parent;	/* the space forked from, or UINT32_MAX */
	uint64_t created;	/* the FORK's time; 0 for a process perf saw no fork of */
};

struct mmaps {
	struct mmaps_file *files;
	size_t files_nr, files_alloc;
	struct idx_table file_index;	/* path -> files */
	struct mmaps_map *maps;
	size_t maps_nr, maps_alloc;
	struct perfdata_task *forks;	/* collected, turned into spaces by finish */
	size_t forks_nr, forks_alloc;
	struct mmaps_space *spaces;	/* sorted by (pid, created) after finish */
	size_t spaces_nr, spaces_alloc;
	struct codemap *index;		/* maps keyed by space */
	bool timed;		/* records carry times: lookups are time-aware */
	bool finished;
	bool oom;		/* a record could not be kept: lookups are not to be trusted */
};

void mmaps__init(struct mmaps *m);
void mmaps__release(struct mmaps *m);

/* Callbacks for perfdata__walk that fill m (arg = m). */
int mmaps__on_mmap(void *m, const struct perfdata_mmap *mm);
int mmaps__on_task(void *m, const struct perfdata_task *t);
int mmaps__on_build_id(void *m, const struct perfdata_build_id *b);

/* The file of perf's dso name path (added when new: files outlive the walk):
 * its index, or -1 when out of memory. */
long mmaps__file(struct mmaps *m, const char *path);

/* The walk is over (timed: its records had times): make the processes and
 * index the maps. 0 or -ENOMEM. */
int mmaps__finish(struct mmaps *m, bool timed);

/* The mapping that covered ip in process pid at time, as perf's thread maps
 * have it then; NULL when none did. */
const struct mmaps_map *mmaps__find(struct mmaps *m, uint32_t pid, uint64_t ip, uint64_t time);

#endif

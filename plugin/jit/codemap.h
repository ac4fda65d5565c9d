/* SPDX-License-Identifier: MIT */
/* Time-aware index of JIT code loads: which load did a sample (pid, ip, time) hit? */
#ifndef PLUGIN_CODEMAP_H
#define PLUGIN_CODEMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* One code range as the map sees it. Entries are never removed; ids are stable. */
struct codemap_entry {
	uint64_t start, end;	/* [start, end) run-time addresses */
	uint64_t time;		/* when the code was loaded (LOAD or MOVE timestamp) */
	uint32_t pid;
	uint32_t owner;		/* caller's tag, e.g. which jitdump */
	size_t owner_idx;	/* caller's index, e.g. which load of that jitdump */
};

enum codemap_result {
	CODEMAP_HIT,		/* *id is the newest load with time <= sample time covering ip */
	CODEMAP_BEFORE_LOAD,	/* loads cover ip, but all of them happened after the sample */
	CODEMAP_MISS,		/* no load of this pid covers ip */
	CODEMAP_AMBIGUOUS,	/* without time: several loads cover ip (*id the newest) */
};

struct codemap;

/* Returns NULL with errno set on allocation failure. */
struct codemap *codemap__new(void);
void codemap__free(struct codemap *m);

/* Add a load. Its id (the return value, >= 0) is its insertion index; -ENOMEM on failure.
 * Loads of size 0 are accepted but never match a sample. */
long codemap__add(struct codemap *m, uint32_t pid, uint64_t start, uint64_t size, uint64_t time,
		  uint32_t owner, size_t owner_idx);

/*
 * Find the load a sample hit. time_aware: pick the newest load with time <=
 * sample time (a later load at the same address never takes an earlier
 * sample, nor the reverse). Without it (recordings without -k mono, or
 * without sample times, where times cannot be compared): the one load
 * covering ip, or CODEMAP_AMBIGUOUS when several do: nothing says which ran.
 * Ties between loads with equal times go to the one added last.
 * No allocation; the first lookup after codemap__add re-sorts the index
 * (O(n log n)), so batch additions.
 */
enum codemap_result codemap__lookup(struct codemap *m, uint32_t pid, uint64_t ip, uint64_t time,
				    bool time_aware, size_t *id);

/* The loads of pid covering ip, whatever their times: their number, and up
 * to max of them in ids, sorted by id. */
size_t codemap__covering(struct codemap *m, uint32_t pid, uint64_t ip, uint32_t *ids, size_t max);

/* True if at least one load of this pid was added. */
bool codemap__has_pid(const struct codemap *m, uint32_t pid);

const struct codemap_entry *codemap__entry(const struct codemap *m, size_t id);
size_t codemap__nr(const struct codemap *m);

#endif

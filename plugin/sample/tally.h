/* SPDX-License-Identifier: MIT */
/* Sample counts per (object, event, offset): an array of counts and the one
 * hash table (lib/hash.h) over it, which allocate only when they grow, never
 * per sample. */
#ifndef PLUGIN_TALLY_H
#define PLUGIN_TALLY_H

#include <stddef.h>
#include <stdint.h>

#include "../lib/hash.h"

struct tally_entry {
	uint32_t obj;		/* object id (the plugin's own numbering) */
	uint32_t ev;		/* event id */
	uint64_t off;		/* byte offset from the object's start */
	uint64_t samples;
	uint64_t period;	/* sum of the samples' periods */
};

struct tally {
	struct tally_entry *entries;	/* one per key, in the order of their first samples */
	size_t nr, alloc;
	size_t max_nr;			/* further new keys are refused */
	struct idx_table index;		/* (obj, ev, off) -> entries */
};

/* An empty table of at most max_slots / 2 keys (as many as max_slots slots
 * hold at load 1/2; a max_slots below 4096 is raised to it). 0 or -ENOMEM. */
int tally__init(struct tally *c, size_t max_slots);
void tally__release(struct tally *c);

/* Add one sample. Returns 0, or -ENOSPC when the key is new and the table is
 * full (the caller counts the sample elsewhere and warns once). */
int tally__add(struct tally *c, uint32_t obj, uint32_t ev, uint64_t off, uint64_t period);

/* Copy the used entries into a new array (caller frees) sorted by (obj, ev, off).
 * Returns NULL on allocation failure (or when empty, with *nr = 0). */
struct tally_entry *tally__sorted(const struct tally *c, size_t *nr);

#endif

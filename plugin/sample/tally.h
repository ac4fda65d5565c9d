/* SPDX-License-Identifier: MIT */
/* Sample counts per (object, event, offset): an open-addressing hash table that
 * allocates only when it grows, never per sample. */
#ifndef PLUGIN_TALLY_H
#define PLUGIN_TALLY_H

#include <stddef.h>
#include <stdint.h>

struct tally_entry {
	uint32_t obj;		/* object id (the plugin's own numbering) */
	uint32_t ev;		/* event id */
	uint64_t off;		/* byte offset from the object's start */
	uint64_t samples;	/* 0 = empty slot */
	uint64_t period;	/* sum of the samples' periods */
};

struct tally {
	struct tally_entry *slots;
	size_t mask;		/* capacity - 1; capacity is a power of two */
	size_t used;
	size_t max_slots;	/* growth stops here; further new keys are refused */
};

/* Start with a small table; growth doubles it up to max_slots (a power of two). 0 or -ENOMEM. */
int tally__init(struct tally *c, size_t max_slots);
void tally__release(struct tally *c);

/* Add one sample. Returns 0, or -ENOSPC when the key is new and the table is
 * full (the caller counts the sample elsewhere and warns once). */
int tally__add(struct tally *c, uint32_t obj, uint32_t ev, uint64_t off, uint64_t period);

/* Copy the used entries into a new array (caller frees) sorted by (obj, ev, off).
 * Returns NULL on allocation failure (or when empty, with *nr = 0). */
struct tally_entry *tally__sorted(const struct tally *c, size_t *nr);

#endif

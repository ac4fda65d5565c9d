/* SPDX-License-Identifier: MIT */
/* Hashing, and the one hash table of both programs: an open-addressing
 * table of indexes into an array the caller owns. */
#ifndef PLUGIN_LIB_HASH_H
#define PLUGIN_LIB_HASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * FNV-1a style mixing, good enough for the tables below; h is the running
 * hash. For one h, hash_u64 is a bijection of v (splitmix64's finaliser is
 * invertible): two values never hash alike, so a table keyed by one 64-bit
 * value needs no comparison (idx_table's eq NULL).
 */
uint64_t hash_bytes(uint64_t h, const void *p, size_t n);
uint64_t hash_u64(uint64_t h, uint64_t v);
#define HASH_SEED 0xcbf29ce484222325ULL

/*
 * An open-addressing table of uint32_t indexes into an array the caller owns,
 * keyed by whatever the caller hashes: the table keeps each entry's hash so it
 * can grow without calling back. Lookups compare candidates with eq(idx, key,
 * ctx), only those of an equal hash; eq NULL: equal hashes are equal keys
 * (the hash a bijection of the key, see hash_u64), so nothing else is
 * compared, and any idx will do where only presence matters (a set).
 * A zeroed struct is an empty table without a bound.
 */
typedef bool (*idx_eq_fn)(uint32_t idx, const void *key, const void *ctx);

struct idx_slot {
	uint64_t hash;
	uint32_t idx;		/* index + 1; 0 = empty */
};

struct idx_table {
	struct idx_slot *slots;	/* owned; NULL while empty */
	size_t cap;		/* power of two, or 0 */
	size_t nr;
	size_t max_nr;		/* the caller's: 0, or the most entries the table takes */
};

/* The index stored for key, or -1. */
long idx_table_find(const struct idx_table *t, uint64_t hash, idx_eq_fn eq, const void *key,
		     const void *ctx);
/* Add idx under hash (the caller checked it is absent). Returns 0, -ENOSPC
 * when the table holds max_nr entries already, or -ENOMEM. */
int idx_table_add(struct idx_table *t, uint64_t hash, uint32_t idx);
/* Make idx the index stored for key: the one stored is replaced, else idx is
 * added (idx_table_add's errors). */
int idx_table_set(struct idx_table *t, uint64_t hash, idx_eq_fn eq, const void *key, const void *ctx,
		  uint32_t idx);
/* Forget every entry, keep the memory (and max_nr). */
void idx_table_clear(struct idx_table *t);
/* Free the memory: the table is empty (max_nr kept). */
void idx_table_release(struct idx_table *t);

#endif

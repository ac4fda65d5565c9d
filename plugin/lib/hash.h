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
#define HASH_SEED 0xcbf29ce484222325ULL

/* Inline, as the lookup below: the plugin counts every sample through both. */
static inline uint64_t hash_u64(uint64_t h, uint64_t v)
{
	/* splitmix64 finaliser: sample offsets are small and clustered. */
	v += 0x9e3779b97f4a7c15ULL + h;
	v = (v ^ (v >> 30)) * 0xbf58476d1ce4e5b9ULL;
	v = (v ^ (v >> 27)) * 0x94d049bb133111ebULL;
	return v ^ (v >> 31);
}

/*
 * An open-addressing table of uint32_t indexes into an array the caller owns,
 * keyed by whatever the caller hashes: the table keeps each entry's hash so it
 * can grow without calling back. Lookups compare candidates with eq(idx, key,
 * ctx), only those of an equal hash; eq NULL: equal hashes are equal keys
 * (the hash a bijection of the key, see hash_u64), so nothing else is
 * compared, and any idx will do where only presence matters (a set).
 * A zeroed struct is an empty table.
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
};

/* The slot holding key, or NULL. */
static inline struct idx_slot *idx_table_slot(const struct idx_table *t, uint64_t hash, idx_eq_fn eq,
					      const void *key, const void *ctx)
{
	size_t i;

	if (!t->cap)
		return NULL;
	for (i = hash & (t->cap - 1); t->slots[i].idx; i = (i + 1) & (t->cap - 1)) {
		if (t->slots[i].hash == hash && (!eq || eq(t->slots[i].idx - 1, key, ctx)))
			return &t->slots[i];
	}
	return NULL;
}

/* The index stored for key, or -1. Inline so that eq is too: the plugin
 * looks up every sample's count (sample/tally.c). */
static inline long idx_table_find(const struct idx_table *t, uint64_t hash, idx_eq_fn eq, const void *key,
				  const void *ctx)
{
	const struct idx_slot *s = idx_table_slot(t, hash, eq, key, ctx);

	return s ? (long)s->idx - 1 : -1;
}

/* Add idx under hash (the caller checked it is absent). Returns 0 or -ENOMEM. */
int idx_table_add(struct idx_table *t, uint64_t hash, uint32_t idx);
/* Make idx the index stored for key: the one stored is replaced, else idx is
 * added (idx_table_add's errors). */
int idx_table_set(struct idx_table *t, uint64_t hash, idx_eq_fn eq, const void *key, const void *ctx,
		  uint32_t idx);
/* Forget every entry, keep the memory. */
void idx_table_clear(struct idx_table *t);
void idx_table_release(struct idx_table *t);

#endif

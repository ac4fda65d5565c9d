/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of plugin/lib/hash.c (built into the post-processor too): the
 * index table's contract as hash.h states it (lookups through growth, equal
 * hashes told apart by eq, replacing an index, eq NULL, clearing),
 * and hash_u64's bijection, checked by inverting it.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/hash.h"

/* The keys the tests index: k[idx]. */
struct keys {
	uint64_t k[20000];
};

static bool key_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct keys *ks = ctx;

	return ks->k[idx] == *(const uint64_t *)key;
}

static long find(const struct idx_table *t, const struct keys *ks, uint64_t hash, uint64_t key)
{
	return idx_table_find(t, hash, key_eq, &key, ks);
}

static void every_key_is_found_through_growth(void **state)
{
	static struct keys ks;
	struct idx_table t = { 0 };

	assert_int_equal(find(&t, &ks, 1, 1), -1);
	for (uint32_t i = 0; i < 20000; i++) {
		ks.k[i] = (uint64_t)i * 7919 + 3;
		assert_int_equal(find(&t, &ks, hash_u64(HASH_SEED, ks.k[i]), ks.k[i]), -1);
		assert_int_equal(idx_table_add(&t, hash_u64(HASH_SEED, ks.k[i]), i), 0);
	}
	assert_int_equal(t.nr, 20000);
	/* load at most 1/2 */
	assert_true(t.cap >= 40000);
	for (uint32_t i = 0; i < 20000; i++)
		assert_int_equal(find(&t, &ks, hash_u64(HASH_SEED, ks.k[i]), ks.k[i]), i);
	assert_int_equal(find(&t, &ks, hash_u64(HASH_SEED, 4), 4), -1);
	idx_table_release(&t);
	assert_null(t.slots);
	assert_int_equal(t.nr, 0);
}

static void equal_hashes_are_told_apart_by_eq(void **state)
{
	static struct keys ks;
	struct idx_table t = { 0 };

	/* every key under one hash: one probe run, eq decides */
	for (uint32_t i = 0; i < 100; i++) {
		ks.k[i] = 1000 + i;
		assert_int_equal(idx_table_add(&t, 42, i), 0);
	}
	for (uint32_t i = 0; i < 100; i++)
		assert_int_equal(find(&t, &ks, 42, 1000 + i), i);
	assert_int_equal(find(&t, &ks, 42, 999), -1);
	/* eq is asked only about entries of an equal hash */
	assert_int_equal(find(&t, &ks, 43, 1000), -1);
	idx_table_release(&t);
}

static void set_replaces_the_index_of_a_key_or_adds_it(void **state)
{
	static struct keys ks;
	struct idx_table t = { 0 };

	for (uint32_t i = 0; i < 10; i++)
		ks.k[i] = i % 5;	/* k[5..9] repeat k[0..4] */
	for (uint32_t i = 0; i < 10; i++)
		assert_int_equal(idx_table_set(&t, hash_u64(HASH_SEED, ks.k[i]), key_eq, &ks.k[i], &ks, i), 0);
	assert_int_equal(t.nr, 5);
	for (uint64_t k = 0; k < 5; k++)
		assert_int_equal(find(&t, &ks, hash_u64(HASH_SEED, k), k), k + 5);
	assert_int_equal(idx_table_set(&t, 1, key_eq, &ks.k[0], &ks, UINT32_MAX), -ENOMEM);
	assert_int_equal(idx_table_add(&t, 1, UINT32_MAX), -ENOMEM);
	assert_int_equal(t.nr, 5);
	idx_table_release(&t);
}

static void without_eq_the_hash_is_the_key(void **state)
{
	struct idx_table t = { 0 };

	/* a set of values: eq NULL, any idx */
	for (uint64_t v = 1; v <= 1000; v++)
		assert_int_equal(idx_table_add(&t, hash_u64(HASH_SEED, v * 4096), 0), 0);
	for (uint64_t v = 1; v <= 1000; v++) {
		assert_int_equal(idx_table_find(&t, hash_u64(HASH_SEED, v * 4096), NULL, NULL, NULL), 0);
		assert_int_equal(idx_table_find(&t, hash_u64(HASH_SEED, v * 4096 + 1), NULL, NULL, NULL), -1);
	}
	/* a map keyed by one value: set replaces by the hash alone */
	assert_int_equal(idx_table_set(&t, hash_u64(HASH_SEED, 4096), NULL, NULL, NULL, 17), 0);
	assert_int_equal(idx_table_find(&t, hash_u64(HASH_SEED, 4096), NULL, NULL, NULL), 17);
	assert_int_equal(t.nr, 1000);
	idx_table_release(&t);
}

static void clear_forgets_but_keeps_the_memory(void **state)
{
	static struct keys ks;
	struct idx_table t = { 0 };
	struct idx_slot *slots;
	size_t cap;

	for (uint32_t i = 0; i < 1000; i++) {
		ks.k[i] = i;
		assert_int_equal(idx_table_add(&t, hash_u64(HASH_SEED, i), i), 0);
	}
	slots = t.slots;
	cap = t.cap;
	idx_table_clear(&t);
	assert_ptr_equal(t.slots, slots);
	assert_int_equal(t.cap, cap);
	assert_int_equal(t.nr, 0);
	for (uint32_t i = 0; i < 1000; i++)
		assert_int_equal(find(&t, &ks, hash_u64(HASH_SEED, i), i), -1);
	idx_table_release(&t);
}

/* splitmix64's finaliser undone step by step: x ^= x >> s, and the odd multipliers. */
static uint64_t unshift(uint64_t x, int s)
{
	uint64_t v = x;

	for (int i = 0; i < 64 / s + 1; i++)
		v = x ^ (v >> s);
	return v;
}

static uint64_t inverse(uint64_t c)
{
	uint64_t inv = c;

	/* Newton's iteration doubles the correct low bits: 3, 6, 12, 24, 48, 96 */
	for (int i = 0; i < 5; i++)
		inv *= 2 - c * inv;
	return inv;
}

static uint64_t unhash_u64(uint64_t h, uint64_t x)
{
	const uint64_t c1 = 0xbf58476d1ce4e5b9ULL, c2 = 0x94d049bb133111ebULL;

	assert_true(c1 * inverse(c1) == 1 && c2 * inverse(c2) == 1);
	x = unshift(x, 31) * inverse(c2);
	x = unshift(x, 27) * inverse(c1);
	x = unshift(x, 30);
	return x - 0x9e3779b97f4a7c15ULL - h;
}

static void hash_u64_is_a_bijection_of_its_value(void **state)
{
	static const uint64_t seeds[] = { 0, 1, HASH_SEED, UINT64_MAX };
	uint64_t v = 0x0123456789abcdefULL;

	for (size_t s = 0; s < sizeof(seeds) / sizeof(seeds[0]); s++) {
		for (uint64_t i = 0; i < 100000; i++) {
			assert_true(unhash_u64(seeds[s], hash_u64(seeds[s], i)) == i);
			assert_true(unhash_u64(seeds[s], hash_u64(seeds[s], v)) == v);
			v = v * 6364136223846793005ULL + 1442695040888963407ULL;
		}
	}
}

static void hash_bytes_separates_consecutive_fields(void **state)
{
	uint64_t ab_c = hash_bytes(hash_bytes(HASH_SEED, "ab", 2), "c", 1);
	uint64_t a_bc = hash_bytes(hash_bytes(HASH_SEED, "a", 1), "bc", 2);

	assert_true(ab_c != a_bc);
	assert_true(hash_bytes(HASH_SEED, "ab", 2) == hash_bytes(HASH_SEED, "ab", 2));
	assert_true(hash_bytes(HASH_SEED, "", 0) != HASH_SEED);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_key_is_found_through_growth),
		cmocka_unit_test(equal_hashes_are_told_apart_by_eq),
		cmocka_unit_test(set_replaces_the_index_of_a_key_or_adds_it),
		cmocka_unit_test(without_eq_the_hash_is_the_key),
		cmocka_unit_test(clear_forgets_but_keeps_the_memory),
		cmocka_unit_test(hash_u64_is_a_bijection_of_its_value),
		cmocka_unit_test(hash_bytes_separates_consecutive_fields),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

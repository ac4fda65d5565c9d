// SPDX-License-Identifier: MIT
/* Unit tests of the time-aware code map. Expected answers
 * follow from the rule in codemap.h (newest load with time <= sample time
 * covering ip), worked out by hand for each small case below. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "jit/codemap.h"

static void a_sample_hits_the_load_covering_it(void **state)
{
	struct codemap *m = codemap__new();
	size_t id = 99;

	assert_int_equal(codemap__add(m, 7, 0x1000, 0x100, 10, 0, 0), 0);
	assert_int_equal(codemap__add(m, 7, 0x2000, 0x10, 10, 0, 1), 1);
	assert_int_equal(codemap__lookup(m, 7, 0x10ff, 20, true, &id), CODEMAP_HIT);
	assert_int_equal(id, 0);
	assert_int_equal(codemap__lookup(m, 7, 0x2000, 20, true, &id), CODEMAP_HIT);
	assert_int_equal(id, 1);
	/* End is exclusive; gaps and other pids miss. */
	assert_int_equal(codemap__lookup(m, 7, 0x1100, 20, true, &id), CODEMAP_MISS);
	assert_int_equal(codemap__lookup(m, 7, 0xfff, 20, true, &id), CODEMAP_MISS);
	assert_int_equal(codemap__lookup(m, 8, 0x1000, 20, true, &id), CODEMAP_MISS);
	codemap__free(m);
}

static void a_reused_address_goes_to_the_load_current_at_sample_time(void **state)
{
	struct codemap *m = codemap__new();
	size_t id;

	/* alpha at t=100, beta at the same address at t=200, gamma (partly overlapping) at t=300. */
	codemap__add(m, 1, 0x1000, 0x40, 100, 0, 0);
	codemap__add(m, 1, 0x1000, 0x20, 200, 0, 1);
	codemap__add(m, 1, 0x1010, 0x40, 300, 0, 2);

	assert_int_equal(codemap__lookup(m, 1, 0x1008, 50, true, &id), CODEMAP_BEFORE_LOAD);
	assert_int_equal(codemap__lookup(m, 1, 0x1008, 100, true, &id), CODEMAP_HIT);
	assert_int_equal(id, 0);
	assert_int_equal(codemap__lookup(m, 1, 0x1008, 199, true, &id), CODEMAP_HIT);
	assert_int_equal(id, 0);
	assert_int_equal(codemap__lookup(m, 1, 0x1008, 200, true, &id), CODEMAP_HIT);
	assert_int_equal(id, 1);
	/* The same ip again at an earlier time must not reuse the cached later answer. */
	assert_int_equal(codemap__lookup(m, 1, 0x1008, 150, true, &id), CODEMAP_HIT);
	assert_int_equal(id, 0);
	/* 0x1030 is covered by alpha (to 0x1040) and gamma (from t=300), not by beta. */
	assert_int_equal(codemap__lookup(m, 1, 0x1030, 250, true, &id), CODEMAP_HIT);
	assert_int_equal(id, 0);
	assert_int_equal(codemap__lookup(m, 1, 0x1030, 300, true, &id), CODEMAP_HIT);
	assert_int_equal(id, 2);
	assert_int_equal(codemap__lookup(m, 1, 0x1048, 250, true, &id), CODEMAP_BEFORE_LOAD);
	/* Without time nothing tells alpha from beta at 0x1008: ambiguous (the
	 * newest named), whatever the sample's time; at 0x1048 only gamma. */
	assert_int_equal(codemap__lookup(m, 1, 0x1008, 50, false, &id), CODEMAP_AMBIGUOUS);
	assert_int_equal(id, 1);
	assert_int_equal(codemap__lookup(m, 1, 0x1048, 50, false, &id), CODEMAP_HIT);
	assert_int_equal(id, 2);
	uint32_t ids[2];

	assert_int_equal(codemap__covering(m, 1, 0x1018, ids, 2), 3);
	assert_int_equal(codemap__covering(m, 1, 0x1008, ids, 2), 2);
	assert_int_equal(ids[0], 0);
	assert_int_equal(ids[1], 1);
	assert_int_equal(codemap__covering(m, 2, 0x1008, ids, 2), 0);
	codemap__free(m);
}

static void equal_load_times_go_to_the_load_added_last(void **state)
{
	struct codemap *m = codemap__new();
	size_t id;

	codemap__add(m, 1, 0x1000, 0x10, 5, 0, 0);
	codemap__add(m, 1, 0x1000, 0x10, 5, 0, 1);
	assert_int_equal(codemap__lookup(m, 1, 0x1000, 5, true, &id), CODEMAP_HIT);
	assert_int_equal(id, 1);
	codemap__free(m);
}

static void a_large_early_load_does_not_hide_later_small_ones(void **state)
{
	struct codemap *m = codemap__new();
	size_t id;

	/* A big region first, then many small loads after it, then lookups past the
	 * big region's end must still find the small loads (prefix max of ends). */
	codemap__add(m, 1, 0x1000, 0x10000, 1, 0, 0);
	for (int i = 0; i < 1000; i++)
		codemap__add(m, 1, 0x2000 + (uint64_t)i * 0x20, 0x20, 2, 0, (size_t)i + 1);
	assert_int_equal(codemap__lookup(m, 1, 0x2000 + 500 * 0x20 + 4, 3, true, &id), CODEMAP_HIT);
	assert_int_equal(id, 501);
	assert_int_equal(codemap__lookup(m, 1, 0x2000 + 500 * 0x20 + 4, 1, true, &id), CODEMAP_HIT);
	assert_int_equal(id, 0);
	assert_int_equal(codemap__lookup(m, 1, 0x10ffff, 3, true, &id), CODEMAP_MISS);
	codemap__free(m);
}

static void loads_added_after_a_lookup_are_found(void **state)
{
	struct codemap *m = codemap__new();
	size_t id;

	codemap__add(m, 1, 0x1000, 0x10, 1, 0, 0);
	assert_int_equal(codemap__lookup(m, 1, 0x3000, 9, true, &id), CODEMAP_MISS);
	codemap__add(m, 1, 0x3000, 0x10, 2, 0, 1);
	assert_int_equal(codemap__lookup(m, 1, 0x3000, 9, true, &id), CODEMAP_HIT);
	assert_int_equal(id, 1);
	assert_true(codemap__has_pid(m, 1));
	assert_false(codemap__has_pid(m, 2));
	codemap__free(m);
}

static void a_zero_size_or_wrapping_load_is_harmless(void **state)
{
	struct codemap *m = codemap__new();
	size_t id;

	codemap__add(m, 1, 0x1000, 0, 1, 0, 0);
	codemap__add(m, 1, UINT64_MAX - 4, 100, 1, 0, 1);
	assert_int_equal(codemap__lookup(m, 1, 0x1000, 9, true, &id), CODEMAP_MISS);
	assert_int_equal(codemap__lookup(m, 1, UINT64_MAX - 1, 9, true, &id), CODEMAP_HIT);
	assert_int_equal(id, 1);
	codemap__free(m);
}

/* The rule of codemap.h, by brute force over every load: the reference answer. */
static enum codemap_result reference(const struct codemap *m, uint32_t pid, uint64_t ip,
				     uint64_t time, bool time_aware, size_t *id)
{
	bool found = false, later = false;
	size_t covering = 0;

	for (size_t i = 0; i < codemap__nr(m); i++) {
		const struct codemap_entry *e = codemap__entry(m, i);

		if (e->pid != pid || ip < e->start || ip >= e->end)
			continue;
		covering++;
		if (time_aware && e->time > time) {
			later = true;
			continue;
		}
		if (!found || e->time >= codemap__entry(m, *id)->time)
			*id = i;
		found = true;
	}
	if (found && !time_aware && covering > 1)
		return CODEMAP_AMBIGUOUS;
	return found ? CODEMAP_HIT : later ? CODEMAP_BEFORE_LOAD : CODEMAP_MISS;
}

/*
 * Random loads (nested, overlapping, reused addresses, equal times, two pids,
 * a few huge ones over everything) and random lookups, each answer checked
 * against the brute-force rule, with and without time awareness. Loads are
 * added in batches between lookups, as a growing jitdump adds them.
 */
static void lookups_agree_with_the_rule_on_random_overlapping_loads(void **state)
{
	struct codemap *m = codemap__new();
	unsigned seed = 12345;

	for (int batch = 0; batch < 8; batch++) {
		for (int i = 0; i < 300; i++) {
			uint64_t start = 0x1000 + (uint64_t)(rand_r(&seed) % 4096);
			uint64_t size = rand_r(&seed) % 50 == 0 ? 8192 : (uint64_t)(rand_r(&seed) % 64);

			codemap__add(m, 1 + (uint32_t)(rand_r(&seed) % 2), start, size,
				     (uint64_t)(rand_r(&seed) % 1000), 0, 0);
		}
		for (int q = 0; q < 2000; q++) {
			uint32_t pid = 1 + (uint32_t)(rand_r(&seed) % 3);
			uint64_t ip = 0xf00 + (uint64_t)(rand_r(&seed) % 8704);
			uint64_t t = (uint64_t)(rand_r(&seed) % 1100);
			bool ta = rand_r(&seed) % 4 != 0;
			size_t got = SIZE_MAX, want = SIZE_MAX;
			enum codemap_result r = codemap__lookup(m, pid, ip, t, ta, &got);

			uint32_t ids[8], all[8];
			size_t n = codemap__covering(m, pid, ip, ids, 8), k = 0;

			assert_int_equal(r, reference(m, pid, ip, t, ta, &want));
			if (r == CODEMAP_HIT || r == CODEMAP_AMBIGUOUS)
				assert_int_equal(got, want);
			/* Every load covering ip, whatever its time, in id order. */
			for (size_t i = 0; i < codemap__nr(m); i++) {
				const struct codemap_entry *e = codemap__entry(m, i);

				if (e->pid == pid && ip >= e->start && ip < e->end && k++ < 8)
					all[k - 1] = (uint32_t)i;
			}
			assert_int_equal(n, k);
			if (n <= 8)
				assert_memory_equal(ids, all, n * sizeof(*ids));
		}
	}
	codemap__free(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_sample_hits_the_load_covering_it),
		cmocka_unit_test(a_reused_address_goes_to_the_load_current_at_sample_time),
		cmocka_unit_test(equal_load_times_go_to_the_load_added_last),
		cmocka_unit_test(a_large_early_load_does_not_hide_later_small_ones),
		cmocka_unit_test(loads_added_after_a_lookup_are_found),
		cmocka_unit_test(a_zero_size_or_wrapping_load_is_harmless),
		cmocka_unit_test(lookups_agree_with_the_rule_on_random_overlapping_loads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

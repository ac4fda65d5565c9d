// SPDX-License-Identifier: MIT
/* Unit tests of the sample count table (plugin/sample/tally.c). The expected counts
 * follow from how many times each key is added; worked out for each case. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "sample/tally.h"

static void counts_sum_samples_and_periods_per_key(void **state)
{
	struct tally c;
	size_t nr;

	assert_int_equal(tally__init(&c, 1 << 20), 0);
	/* 20000 distinct keys force several growths; each key gets (key % 3) + 1 samples. */
	for (uint32_t k = 0; k < 20000; k++)
		for (uint32_t r = 0; r <= k % 3; r++)
			assert_int_equal(tally__add(&c, k % 7, k % 2, k, 10), 0);
	struct tally_entry *e = tally__sorted(&c, &nr);

	assert_non_null(e);
	assert_int_equal(nr, 20000);
	for (size_t i = 1; i < nr; i++) {
		int ordered = e[i - 1].obj < e[i].obj ||
			      (e[i - 1].obj == e[i].obj && (e[i - 1].ev < e[i].ev ||
			       (e[i - 1].ev == e[i].ev && e[i - 1].off < e[i].off)));
		assert_true(ordered);
	}
	for (size_t i = 0; i < nr; i++) {
		assert_int_equal(e[i].samples, e[i].off % 3 + 1);
		assert_int_equal(e[i].period, 10 * (e[i].off % 3 + 1));
		assert_int_equal(e[i].obj, e[i].off % 7);
	}
	free(e);
	tally__release(&c);
}

static void a_full_count_table_refuses_new_keys_but_counts_old_ones(void **state)
{
	struct tally c;

	assert_int_equal(tally__init(&c, 4096), 0);
	/* The table holds 2048 keys at load factor 1/2. */
	for (uint64_t k = 0; k < 2048; k++)
		assert_int_equal(tally__add(&c, 0, 0, k, 1), 0);
	assert_int_equal(tally__add(&c, 0, 0, 5000, 1), -ENOSPC);
	assert_int_equal(tally__add(&c, 0, 0, 7, 1), 0);
	/* nothing grew to refuse it */
	assert_int_equal(c.alloc, 2048);
	tally__release(&c);
}

static void keys_that_differ_only_in_object_or_event_stay_apart(void **state)
{
	struct tally c;
	size_t nr;

	assert_int_equal(tally__init(&c, 1 << 12), 0);
	/* The hash folds obj << 32 and ev << 56 into one u64: obj 1 << 24 and ev 1
	 * feed it the same bits, so only the key comparison keeps them apart. */
	assert_int_equal(tally__add(&c, 1u << 24, 0, 0x40, 3), 0);
	assert_int_equal(tally__add(&c, 0, 1, 0x40, 5), 0);
	assert_int_equal(tally__add(&c, 0, 1, 0x40, 5), 0);
	assert_int_equal(tally__add(&c, 0, 0, 0x40, 7), 0);

	struct tally_entry *e = tally__sorted(&c, &nr);

	assert_non_null(e);
	assert_int_equal(nr, 3);
	/* Sorted by object, then event, then offset. */
	assert_int_equal(e[0].obj, 0);
	assert_int_equal(e[0].ev, 0);
	assert_int_equal(e[0].samples, 1);
	assert_int_equal(e[0].period, 7);
	assert_int_equal(e[1].obj, 0);
	assert_int_equal(e[1].ev, 1);
	assert_int_equal(e[1].samples, 2);
	assert_int_equal(e[1].period, 10);
	assert_int_equal(e[2].obj, 1u << 24);
	assert_int_equal(e[2].ev, 0);
	assert_int_equal(e[2].samples, 1);
	assert_int_equal(e[2].period, 3);
	free(e);
	tally__release(&c);
}

static void a_sample_of_period_zero_still_counts(void **state)
{
	struct tally c;
	size_t nr;

	assert_int_equal(tally__init(&c, 1 << 12), 0);
	/* A zero period is still a sample. */
	assert_int_equal(tally__add(&c, 2, 0, 0, 0), 0);
	assert_int_equal(tally__add(&c, 2, 0, 0, 0), 0);

	struct tally_entry *e = tally__sorted(&c, &nr);

	assert_non_null(e);
	assert_int_equal(nr, 1);
	assert_int_equal(e[0].samples, 2);
	assert_int_equal(e[0].period, 0);
	free(e);
	tally__release(&c);
}

static void an_empty_table_sorts_to_nothing(void **state)
{
	struct tally c;
	size_t nr = 99;

	assert_int_equal(tally__init(&c, 1 << 12), 0);
	struct tally_entry *e = tally__sorted(&c, &nr);

	/* Not NULL: NULL with nr 0 would read as out of memory to a caller that checks. */
	assert_non_null(e);
	assert_int_equal(nr, 0);
	free(e);
	tally__release(&c);
	assert_null(c.entries);
	assert_null(c.index.slots);
}

static void a_bound_below_the_first_table_is_raised_to_it(void **state)
{
	struct tally c;

	/* A bound below 4096 slots is raised to it: 2048 keys fit. */
	assert_int_equal(tally__init(&c, 16), 0);
	for (uint64_t k = 0; k < 2048; k++)
		assert_int_equal(tally__add(&c, 0, 0, k, 1), 0);
	assert_int_equal(tally__add(&c, 0, 0, 2048, 1), -ENOSPC);
	tally__release(&c);
}

static void growth_keeps_every_count(void **state)
{
	struct tally c;
	size_t nr;

	assert_int_equal(tally__init(&c, 1 << 20), 0);
	/* Every key added before and after each doubling (64 -> 128 -> ...
	 * -> 65536 slots) keeps its own total: key k gets k % 5 + 1 samples of
	 * period k, added over five passes. */
	for (int pass = 0; pass < 5; pass++)
		for (uint64_t k = 0; k < 30000; k++)
			if ((uint64_t)pass <= k % 5)
				assert_int_equal(tally__add(&c, (uint32_t)(k >> 12), (uint32_t)(k & 1), k, k), 0);
	assert_int_equal(c.nr, 30000);
	assert_int_equal(c.index.cap, 65536);

	struct tally_entry *e = tally__sorted(&c, &nr);

	assert_non_null(e);
	assert_int_equal(nr, 30000);
	for (size_t i = 0; i < nr; i++) {
		assert_int_equal(e[i].samples, e[i].off % 5 + 1);
		assert_int_equal(e[i].period, e[i].off * (e[i].off % 5 + 1));
		assert_int_equal(e[i].obj, e[i].off >> 12);
		assert_int_equal(e[i].ev, e[i].off & 1);
	}
	free(e);
	tally__release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts_sum_samples_and_periods_per_key),
		cmocka_unit_test(a_full_count_table_refuses_new_keys_but_counts_old_ones),
		cmocka_unit_test(keys_that_differ_only_in_object_or_event_stay_apart),
		cmocka_unit_test(a_sample_of_period_zero_still_counts),
		cmocka_unit_test(an_empty_table_sorts_to_nothing),
		cmocka_unit_test(a_bound_below_the_first_table_is_raised_to_it),
		cmocka_unit_test(growth_keeps_every_count),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of plugin/lib/bsearch.h: LOWER_BOUND against a linear scan, on
 * every sorted array of up to 12 values from {0, 1, 2} and every threshold,
 * for both conditions the plugin uses (< and <=).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "lib/bsearch.h"

/* The first i whose v[i] is not before x (lt: v[i] < x, else v[i] <= x). */
static size_t linear(const int *v, size_t n, int x, int lt)
{
	size_t i = 0;

	while (i < n && (lt ? v[i] < x : v[i] <= x))
		i++;
	return i;
}

static void the_first_index_where_the_condition_stops_holding(void **state)
{
	int v[12];

	for (size_t n = 0; n <= 12; n++) {
		/* each sorted array of n values in {0, 1, 2}: where the 1s and 2s start */
		for (size_t ones = 0; ones <= n; ones++) {
			for (size_t twos = ones; twos <= n; twos++) {
				for (size_t i = 0; i < n; i++)
					v[i] = i < ones ? 0 : i < twos ? 1 : 2;
				for (int x = -1; x <= 3; x++) {
					assert_int_equal(LOWER_BOUND(n, i, v[i] < x), linear(v, n, x, 1));
					assert_int_equal(LOWER_BOUND(n, i, v[i] <= x), linear(v, n, x, 0));
				}
			}
		}
	}
}

static void the_range_is_evaluated_once(void **state)
{
	size_t calls = 0, n = 5;

	/* n is an expression: it is read once */
	assert_int_equal(LOWER_BOUND((calls++, n), i, i < 3), 3);
	assert_int_equal(calls, 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_first_index_where_the_condition_stops_holding),
		cmocka_unit_test(the_range_is_evaluated_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

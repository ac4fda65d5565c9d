/* SPDX-License-Identifier: MIT */
/* Unit tests of the back-edge search (postproc/analysis/back-edges.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include <cmocka.h>

#include "analysis/back-edges.h"

/*
 * 0 -> 1 -> 2 -> 3 -> 1 (a loop), 2 -> 2 (a self-loop), 0 -> 3, and 4 <-> 5
 * that the entry does not reach. Slots in node order, each node's by target.
 */
static const size_t off[] = { 0, 2, 3, 5, 6, 7, 8 };
static const uint32_t to[] = { 1, 3, 2, 2, 3, 1, 5, 4 };

static void loops_from_the_entry_then_by_index(void **state)
{
	bool back[8] = { false };
	const bool want[8] = { false, false, false, true, false, true, false, true };

	assert_int_equal(back_edges__mark(6, 0, off, to, back), 0);
	for (size_t k = 0; k < 8; k++)
		assert_int_equal(back[k], want[k]);
}

static void another_entry_closes_the_loop_elsewhere(void **state)
{
	bool back[8] = { false };

	/* From 3: 3 -> 1 -> 2 -> 3 is closed by 2 -> 3, not 3 -> 1. */
	assert_int_equal(back_edges__mark(6, 3, off, to, back), 0);
	assert_true(back[4]);
	assert_false(back[5]);
	assert_true(back[3]);
	/* 0 is reached last, from nothing: its edges go to finished nodes. */
	assert_false(back[0]);
	assert_false(back[1]);
	/* An entry out of range is node 0. */
	for (size_t k = 0; k < 8; k++)
		back[k] = false;
	assert_int_equal(back_edges__mark(6, 99, off, to, back), 0);
	assert_true(back[5]);
	assert_false(back[4]);
}

static void other_slots_are_left_alone(void **state)
{
	bool back[8] = { true, true, true, true, true, true, true, true };

	assert_int_equal(back_edges__mark(6, 0, off, to, back), 0);
	for (size_t k = 0; k < 8; k++)
		assert_true(back[k]);
	assert_int_equal(back_edges__mark(0, 0, off, to, back), 0);
}

/* A long chain closed at its end: the walk keeps its own stack. */
static void deep_chain(void **state)
{
	const size_t n = 200000;
	size_t *o = malloc((n + 1) * sizeof(*o));
	uint32_t *t = malloc(n * sizeof(*t));
	bool *back = calloc(n, sizeof(*back));

	assert_non_null(o);
	assert_non_null(t);
	assert_non_null(back);
	for (size_t i = 0; i <= n; i++)
		o[i] = i;
	for (size_t i = 0; i < n; i++)
		t[i] = (uint32_t)((i + 1) % n);
	assert_int_equal(back_edges__mark(n, 0, o, t, back), 0);
	for (size_t i = 0; i + 1 < n; i++)
		assert_false(back[i]);
	assert_true(back[n - 1]);
	free(o);
	free(t);
	free(back);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(loops_from_the_entry_then_by_index),
		cmocka_unit_test(another_entry_closes_the_loop_elsewhere),
		cmocka_unit_test(other_slots_are_left_alone),
		cmocka_unit_test(deep_chain),
	};

	return cmocka_run_group_tests_name("back-edges", tests, NULL, NULL);
}

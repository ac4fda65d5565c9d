/* SPDX-License-Identifier: MIT */
/* Unit tests of names as people look for them (postproc/annotate/names.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "annotate/names.h"

/* Names as V8 10 (node 18) and V8 11+ (node 20, 22) write them: test-data/v8-versions. */
#define V8_NEW "JS:*work /srv/app/hot.js:5:14"
#define V8_OLD "LazyCompile:*work /srv/app/hot.js:5"

static void distance_for_suggestions(void **state)
{
	/* Contained, ignoring case: 0. */
	assert_int_equal(name_distance("Work", V8_NEW), 0);
	assert_int_equal(name_distance("JS:*WORK /srv/app/hot.js:5:14 and more", V8_NEW), 0);
	/* Another V8's tag and tier mark: the function parts are equal. */
	assert_int_equal(name_distance("LazyCompile:*work", V8_NEW), 1);
	assert_int_equal(name_distance("JS:*work", V8_OLD), 1);
	/* A typo: one transposition is two edits. */
	assert_int_equal(name_distance("wrok", V8_NEW), 3);
	assert_int_equal(name_distance("JS:^wrk", V8_NEW), 2);
	/* Too far: more than a third of the name (and more than 2 edits). */
	assert_true(name_distance("xyzw", V8_NEW) == NAME_FAR);
	assert_true(name_distance("handle_request", "JS:*mix /a.js:4:13") == NAME_FAR);
	/* Long names are looked at only up to NAME_DISTANCE_MAX bytes, without overflow. */
	{
		char a[400], b[400];

		for (size_t i = 0; i < sizeof(a) - 1; i++) {
			a[i] = 'a' + (char)(i % 26);
			b[i] = 'a' + (char)((i + 1) % 26);
		}
		a[sizeof(a) - 1] = b[sizeof(b) - 1] = '\0';
		b[0] = 'Z';
		/* b is a shifted by one with its first letter changed: within
		 * the first 128 bytes, 'a' -> 'Z', drop 'b', add one at the end. */
		assert_int_equal(name_distance(a, b), 3 + 1);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(distance_for_suggestions),
	};

	return cmocka_run_group_tests_name("names", tests, NULL, NULL);
}

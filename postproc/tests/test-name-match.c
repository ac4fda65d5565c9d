/* SPDX-License-Identifier: MIT */
/* Unit tests of --function matching and suggestions (postproc/name-match.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "name-match.h"

/* Names as V8 10 (node 18) and V8 11+ (node 20, 22) write them: test-data/v8-versions. */
#define V8_NEW "JS:*work /srv/app/hot.js:5:14"
#define V8_OLD "LazyCompile:*work /srv/app/hot.js:5"

static void exact_glob_and_substring(void **state)
{
	assert_int_equal(name_match(V8_NEW, V8_NEW), NAME_MATCH_EXACT);
	/* The V8 tier mark '*' is a literal in a substring... */
	assert_int_equal(name_match("JS:*work", V8_NEW), NAME_MATCH_SUBSTRING);
	assert_int_equal(name_match("JS:*work", "JS:^work /srv/app/hot.js:5:14"), NAME_MATCH_NONE);
	/* ... and a wildcard in a glob, which must match the whole name. */
	assert_int_equal(name_match("*:[*]work *", V8_NEW), NAME_MATCH_GLOB);
	assert_int_equal(name_match("*:[*]work *", V8_OLD), NAME_MATCH_GLOB);
	assert_int_equal(name_match("*work", V8_NEW), NAME_MATCH_SUBSTRING);	/* not a glob match */
	assert_int_equal(name_match("*work*", V8_NEW), NAME_MATCH_GLOB);
	assert_int_equal(name_match("work", V8_NEW), NAME_MATCH_SUBSTRING);
	assert_int_equal(name_match("Work", V8_NEW), NAME_MATCH_NONE);	/* case counts */
	assert_int_equal(name_match("", V8_NEW), NAME_MATCH_NONE);
	assert_int_equal(name_match("work", NULL), NAME_MATCH_NONE);
	assert_int_equal(name_match("fib", "wasm[0]::function[1]::fib"), NAME_MATCH_SUBSTRING);
	assert_int_equal(name_match("wasm[0]::function[1]::fib", "wasm[0]::function[1]::fib"),
			 NAME_MATCH_EXACT);
	/* '[' makes it a glob attempt; "[0]" is a class there, so the exact name
	 * is what matches it, not the glob. */
	assert_int_equal(name_match("wasm[0]::*", "wasm[0]::function[1]::fib"), NAME_MATCH_NONE);
	assert_int_equal(name_match("wasm\\[0\\]::*", "wasm[0]::function[1]::fib"), NAME_MATCH_GLOB);
}

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
		cmocka_unit_test(exact_glob_and_substring),
		cmocka_unit_test(distance_for_suggestions),
	};

	return cmocka_run_group_tests_name("name-match", tests, NULL, NULL);
}

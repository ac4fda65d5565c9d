/* SPDX-License-Identifier: MIT */
/* Unit tests of --function matching (postproc/analysis/name-match.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "analysis/name-match.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(exact_glob_and_substring),
	};

	return cmocka_run_group_tests_name("name-match", tests, NULL, NULL);
}

// SPDX-License-Identifier: MIT
/*
 * Unit tests of perf maps (plugin/jit/perfmap.c). The expected symbols follow
 * perf 6.1's dso__load_perf_map and its symbol fix-ups (symbols__fixup_end,
 * symbols__fixup_duplicate), worked out by hand in the comments; that perf
 * itself answers so is checked by scripts/tests/perf-map-overlaps.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "jit/perfmap.h"

static int parse(struct perfmap *m, const char *text)
{
	size_t n = strlen(text);
	char *copy = malloc(n + 1);

	assert_non_null(copy);
	memcpy(copy, text, n);
	return perfmap__parse(m, copy, n);
}

/*
 * dso__load_perf_map's arithmetic: each line loses its last byte (a missing
 * final newline costs the name's last character), numbers are strtoull base
 * 16 (0x or not), a name of two bytes or fewer is skipped, and every line is
 * kept (a duplicate start too).
 */
static void reads_perf_maps_with_perfs_own_arithmetic(void **state)
{
	struct perfmap m;

	assert_int_equal(parse(&m, "1000 10 JS:alpha\n"
				   "0x2000 0x20 wasm[0]::function[3]::fib\n"
				   "3000 10 ab\n"
				   "3000 10 abc\n"
				   "4000 8 name with spaces\n"
				   "5000 10 last"), 0);
	assert_int_equal(m.lines, 5);
	assert_string_equal(perfmap__find(&m, 0x100f)->name, "JS:alpha");
	assert_null(perfmap__find(&m, 0x1010));
	assert_string_equal(perfmap__find(&m, 0x201f)->name, "wasm[0]::function[3]::fib");
	assert_string_equal(perfmap__find(&m, 0x3005)->name, "abc");
	assert_string_equal(perfmap__find(&m, 0x4007)->name, "name with spaces");
	assert_string_equal(perfmap__find(&m, 0x5000)->name, "las");
	perfmap__release(&m);
}

/* Two lines over one address (code freed and reused): perf's tree decides. */
static void perf_map_duplicates_are_answered_by_perfs_tree(void **state)
{
	struct perfmap m;

	/* inserted: 1000 (root), then 1000 (right child); the search meets the root first */
	assert_int_equal(parse(&m, "1000 100 old\n1000 100 new\n"), 0);
	assert_string_equal(perfmap__find(&m, 0x1050)->name, "old");
	perfmap__release(&m);
	/* a (root), b (its right), c (b's right: a left rotation at a makes b the
	 * root): neither the first line nor the last answers, the middle one does */
	assert_int_equal(parse(&m, "1000 100 aaa\n1000 100 bbb\n1000 100 ccc\n"), 0);
	assert_string_equal(perfmap__find(&m, 0x1050)->name, "bbb");
	perfmap__release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_perf_maps_with_perfs_own_arithmetic),
		cmocka_unit_test(perf_map_duplicates_are_answered_by_perfs_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

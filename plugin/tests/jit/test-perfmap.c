// SPDX-License-Identifier: MIT
/*
 * Unit tests of perf maps (plugin/jit/perfmap.c). The expected symbols follow
 * perf 6.1's dso__load_perf_map and its symbol fix-ups (symbols__fixup_end,
 * symbols__fixup_duplicate), worked out by hand in the comments; that perf
 * itself answers so is checked by scripts/tests/perf-map-overlaps.sh.
 *
 * The hostile cases (a map is written by the profiled program: untrusted)
 * use crafted maps, written here: huge and wrapping ranges, NULs and escape
 * bytes in names, a symbolic link, another user's file, a FIFO, a map past
 * the size bound and one of two million lines.
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "jit/perfmap.h"
#include "tests/scratch-dir.h"

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

/* perf's symbol__new: end = start + size, wrapping; its tree search then
 * never finds the line (ip >= start means ip >= end). Kept, counted, said. */
static void wrapping_and_huge_ranges_are_perfs_and_said(void **state)
{
	struct perfmap m;

	assert_int_equal(parse(&m, "1000 10 okay\n"
				   "ffffffffffffff00 200 wraps\n"
				   "fffffffffffff000 ffffffffffffffff wraps too\n"), 0);
	assert_int_equal(m.lines, 3);
	assert_int_equal(m.wrapped, 2);
	assert_int_equal(m.first_wrapped, 2);
	assert_non_null(strstr(m.note, "line 2: START + SIZE wraps"));
	assert_non_null(strstr(m.note, "2 such lines"));
	assert_null(perfmap__find(&m, 0xffffffffffffff10));
	assert_null(perfmap__find(&m, 0xfffffffffffff010));
	assert_string_equal(perfmap__find(&m, 0x1005)->name, "okay");
	perfmap__release(&m);
	/* a range over the whole address space holds every address, as in perf's tree */
	assert_int_equal(parse(&m, "0 ffffffffffffffff everything\n"), 0);
	assert_string_equal(perfmap__find(&m, 0x7fff12345678)->name, "everything");
	assert_string_equal(m.note, "");
	perfmap__release(&m);
}

/* Names keep the program's bytes as they are (perf's strlen ends one at a
 * NUL); escaping them is the stream writer's (test-stream-writer) and every
 * output's, never the reader's. Lines that are no "START SIZE NAME" are skipped. */
static void names_keep_raw_bytes_and_garbage_lines_are_skipped(void **state)
{
	static const char text[] = "1000 10 a\x1b[31mb\x07\0hidden\n"
				   "zzzz\n\n\n2000\n2000 \n2000 10\n"
				   "3000 10 \xff\xfe\r\n";
	char *copy = malloc(sizeof(text));
	struct perfmap m;

	assert_non_null(copy);
	memcpy(copy, text, sizeof(text));
	assert_int_equal(perfmap__parse(&m, copy, sizeof(text) - 1), 0);
	assert_int_equal(m.lines, 2);
	assert_string_equal(perfmap__find(&m, 0x1001)->name, "a\x1b[31mb\x07");
	assert_null(perfmap__find(&m, 0x2001));
	assert_string_equal(perfmap__find(&m, 0x3001)->name, "\xff\xfe\r");
	perfmap__release(&m);
}

static void refused(const char *path, int err, const char *why)
{
	struct perfmap m;

	assert_int_equal(perfmap__load(&m, path, 0, false), err);
	assert_int_equal(m.lines, 0);
	assert_null(perfmap__find(&m, 0x1005));
	assert_non_null(strstr(m.note, why));
	perfmap__release(&m);
	/* what was refused is still said after the release */
	assert_non_null(strstr(m.note, why));
}

/* A symbolic link in the map's place would make us read any file the reader
 * may read; a FIFO would hold perf up; another user's map is that user's
 * word about our process (older perf's dso__load ignored it unless forced;
 * perf 6.1 reads both, scripts/tests/perf-map-untrusted.sh shows it). */
static void maps_that_are_links_fifos_or_another_users_are_refused(void **state)
{
	struct scratch_dir d;
	char *real, *link, *fifo, *theirs;
	struct perfmap m;

	assert_int_equal(scratch_dir__make(&d, "perfmap"), 0);
	real = scratch_dir__file(&d, "real.map");
	link = scratch_dir__file(&d, "perf-1.map");
	fifo = scratch_dir__file(&d, "perf-2.map");
	theirs = scratch_dir__file(&d, "perf-3.map");
	scratch_dir__put(real, "1000 10 mine\n");
	assert_int_equal(perfmap__load(&m, real, 0, false), 0);
	assert_string_equal(perfmap__find(&m, 0x1005)->name, "mine");
	assert_string_equal(m.note, "");
	perfmap__release(&m);
	assert_int_equal(symlink(real, link), 0);
	refused(link, -ELOOP, "a symbolic link; not read as a perf map");
	assert_int_equal(mkfifo(fifo, 0600), 0);
	refused(fifo, -EINVAL, "not a regular file");
	scratch_dir__put(theirs, "1000 10 theirs\n");
	if (chown(theirs, 4242, 4242) == 0) {
		refused(theirs, -EPERM, "owned by uid 4242, neither root nor this user");
		/* perf script -f: read, as perf reads it */
		assert_int_equal(perfmap__load(&m, theirs, 0, true), 0);
		assert_string_equal(perfmap__find(&m, 0x1005)->name, "theirs");
		perfmap__release(&m);
	} else {
		/* only root can give a file away; the check needs such a file */
		fprintf(stderr, "# not root: another user's map not tried\n");
	}
	free(real);
	free(link);
	free(fifo);
	free(theirs);
	assert_int_equal(scratch_dir__remove(&d), 0);
}

/* A map past the bound is read up to its last whole line before it, and said. */
static void a_map_past_the_bound_is_cut_at_a_line_and_said(void **state)
{
	struct scratch_dir d;
	char *path, *text = malloc(100 * 32), *p;
	struct perfmap m;
	FILE *f;

	assert_non_null(text);
	assert_int_equal(scratch_dir__make(&d, "perfmap"), 0);
	path = scratch_dir__file(&d, "perf-4.map");
	p = text;
	for (int i = 0; i < 100; i++)
		p += sprintf(p, "%x 10 function_%03d\n", 0x1000 + i * 0x10, i);
	assert_non_null(f = fopen(path, "w"));
	fwrite(text, 1, (size_t)(p - text), f);
	fclose(f);
	/* each line is 21 bytes: 1000 bytes hold 47 of them and part of the 48th */
	assert_int_equal(perfmap__load(&m, path, 1000, false), 0);
	assert_int_equal(m.lines, 47);
	assert_string_equal(perfmap__find(&m, 0x1000 + 46 * 0x10)->name, "function_046");
	assert_null(perfmap__find(&m, 0x1000 + 47 * 0x10));
	assert_non_null(strstr(m.note, "bigger than 1000 bytes: only its first 47 lines were read"));
	perfmap__release(&m);
	/* exactly at the bound: nothing is left out, nothing said */
	assert_int_equal(perfmap__load(&m, path, (size_t)(p - text), false), 0);
	assert_int_equal(m.lines, 100);
	assert_string_equal(m.note, "");
	perfmap__release(&m);
	free(text);
	free(path);
	assert_int_equal(scratch_dir__remove(&d), 0);
}

/* Two million lines (a long node --perf-basic-prof run): every one found,
 * in memory that grows with the lines (under 128 bytes of index each). */
static void two_million_lines_are_read_whole(void **state)
{
	enum { LINES = 2000000 };
	char *text = malloc((size_t)LINES * 24 + 1), *p = text;
	struct perfmap m;

	assert_non_null(text);
	for (unsigned i = 0; i < LINES; i++)
		p += sprintf(p, "%x 20 js_%u\n", 0x10000000u + i * 0x20, i);
	assert_int_equal(perfmap__parse(&m, text, (size_t)(p - text)), 0);
	assert_int_equal(m.lines, LINES);
	assert_string_equal(perfmap__find(&m, 0x10000000u + 0x1f)->name, "js_0");
	assert_string_equal(perfmap__find(&m, 0x10000000u + 1234567u * 0x20 + 3)->name, "js_1234567");
	assert_string_equal(perfmap__find(&m, 0x10000000u + (LINES - 1) * 0x20u)->name, "js_1999999");
	assert_null(perfmap__find(&m, 0x10000000u + LINES * 0x20u));
	assert_true(symset__memory(&m.set) < (size_t)LINES * 128);
	perfmap__release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_perf_maps_with_perfs_own_arithmetic),
		cmocka_unit_test(perf_map_duplicates_are_answered_by_perfs_tree),
		cmocka_unit_test(wrapping_and_huge_ranges_are_perfs_and_said),
		cmocka_unit_test(names_keep_raw_bytes_and_garbage_lines_are_skipped),
		cmocka_unit_test(maps_that_are_links_fifos_or_another_users_are_refused),
		cmocka_unit_test(a_map_past_the_bound_is_cut_at_a_line_and_said),
		cmocka_unit_test(two_million_lines_are_read_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

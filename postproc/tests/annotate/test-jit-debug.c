/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of postproc/annotate/jit-debug.c: which V8 code kinds' entries map
 * machine code, and with what bias (the kinds and the 0x40 measured on real
 * V8 dumps, postproc/FORMATS.md); the linear lookup on entries worked out by
 * hand; and the indexed lookup, which on random entries (garbage addresses
 * outside the object, equal addresses, "\xff" same-file names, a bias) must
 * give every answer, entry and file, of the linear jit_debug__find, the
 * rule's reference.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "annotate/jit-debug.h"
#include "annotate/v8/v8-debug.h"
#include "stream/stream.h"

static void jit_bias_follows_the_v8_code_kind(void **state)
{
	uint64_t b;

	assert_true(v8_debug__bias("JS:*work /tmp/hot.js:2:14", 62, &b));
	assert_int_equal(b, 0x40);
	assert_true(v8_debug__bias("JS:+work /tmp/hot.js:2:14", 183, &b));
	assert_int_equal(b, 0x40);
	assert_true(v8_debug__bias("JS:*work /tmp/hot.js:2:14", 3, &b));
	assert_int_equal(b, 0x34);
	assert_false(v8_debug__bias("JS:^work /tmp/hot.js:2:14", 62, &b));
	assert_false(v8_debug__bias("JS:~work /tmp/hot.js:2:14", 62, &b));
	assert_false(v8_debug__bias("JS:work /tmp/hot.js:2:14", 62, &b));
	assert_true(v8_debug__bias("JS:work-1-turbofan", 62, &b));
	assert_int_equal(b, 0x40);
	/* V8 10 (node 18) names: test-data/v8-versions/node-18. */
	assert_true(v8_debug__bias("LazyCompile:*work /tmp/hot.js:5", 62, &b));
	assert_int_equal(b, 0x40);
	assert_false(v8_debug__bias("Function:^work /tmp/hot.js:5", 62, &b));
	assert_false(v8_debug__bias("LazyCompile:~work /tmp/hot.js:5", 62, &b));
	assert_false(v8_debug__bias("Script:~ /tmp/hot.js:1", 62, &b));
	assert_true(v8_debug__bias("Function:work-1-turbofan", 62, &b));
	assert_int_equal(b, 0x40);
	assert_true(v8_debug__bias("Function:work-1-liftoff", 3, &b));
	assert_int_equal(b, 0x34);
	/* Not V8 JavaScript or wasm code: entries are taken as written. */
	assert_true(v8_debug__bias("Builtin:ArgumentsAdaptorTrampoline", 62, &b));
	assert_int_equal(b, 0);
	assert_true(v8_debug__bias("JSX:*work", 62, &b));
	assert_int_equal(b, 0);
	assert_true(v8_debug__bias("java.lang.String::hashCode", 62, &b));
	assert_int_equal(b, 0);
}

static void jit_find_takes_the_last_entry_at_or_before(void **state)
{
	/* Record order, not address order; "\xff" = previous entry's file. */
	const struct stream_debug e[] = {
		{ 0x1040, 10, 1, "a.js" },
		{ 0x1050, 11, 2, "\xff" },
		{ 0x1048, 12, 3, "b.js" },
		{ 0x1050, 13, 4, "\xff" },		/* same addr as [1]: the later wins */
		{ 0x9999999999, 1, 1, "junk" },		/* outside the object */
		{ 0x1030, 9, 9, "\xff" },		/* before the object start + bias */
		{ 0x10f0, 14, 5, NULL },		/* file unknown */
	};
	const char *file;

	assert_int_equal(jit_debug__find(e, 7, 0x1000, 0x100, 0x40, 0, &file), 0);
	assert_string_equal(file, "a.js");
	assert_int_equal(jit_debug__find(e, 7, 0x1000, 0x100, 0x40, 7, &file), 0);
	assert_int_equal(jit_debug__find(e, 7, 0x1000, 0x100, 0x40, 8, &file), 2);
	assert_string_equal(file, "b.js");
	assert_int_equal(jit_debug__find(e, 7, 0x1000, 0x100, 0x40, 0x10, &file), 3);
	assert_string_equal(file, "b.js");
	assert_int_equal(jit_debug__find(e, 7, 0x1000, 0x100, 0x40, 0xaf, &file), 3);
	assert_int_equal(jit_debug__find(e, 7, 0x1000, 0x100, 0x40, 0xb0, &file), 6);
	assert_null(file);
	/* Past the object, nothing; before the first entry, nothing. */
	assert_int_equal(jit_debug__find(e, 7, 0x1000, 0x100, 0x40, 0x100, &file), -1);
	assert_int_equal(jit_debug__find(e, 7, 0x1009, 0x100, 0x40, 0, &file), -1);
	assert_null(file);
	assert_int_equal(jit_debug__find(e, 0, 0x1000, 0x100, 0x40, 0, NULL), -1);
	/* A leading "\xff" has no file to repeat. */
	assert_int_equal(jit_debug__find(e + 5, 1, 0x1000, 0x100, 0x30, 0, &file), 0);
	assert_null(file);
}

static void index_agrees_with_the_linear_lookup(void **state)
{
	static char same[] = "\xff", fa[] = "a.js", fb[] = "b.js";
	unsigned seed = 7;

	for (int round = 0; round < 200; round++) {
		size_t n = (size_t)(rand_r(&seed) % 40);
		uint64_t load = 0x10000, size = 1 + (uint64_t)(rand_r(&seed) % 200);
		uint64_t bias = rand_r(&seed) % 2 ? 0x40 : 0;
		struct stream_debug *e = calloc(n ? n : 1, sizeof(*e));

		assert_non_null(e);
		for (size_t i = 0; i < n; i++) {
			int k = rand_r(&seed) % 10;

			/* Mostly inside the object, some before it, past it, or below the bias. */
			e[i].addr = k == 0 ? 3 : k == 1 ? load + bias + size + 5 :
				    load + bias + (uint64_t)(rand_r(&seed) % (int)size);
			e[i].line = (uint32_t)i + 1;
			e[i].file = rand_r(&seed) % 3 == 0 ? same : rand_r(&seed) % 2 ? fa : fb;
		}
		struct jit_debug_index *ix = jit_debug_index__new(e, n, load, size, bias);

		assert_non_null(ix);
		for (uint64_t off = 0; off < size + 3; off++) {
			const char *f1 = "x", *f2 = "y";
			long want = jit_debug__find(e, n, load, size, bias, off, &f1);
			long got = jit_debug_index__find(ix, off, &f2);

			assert_int_equal(got, want);
			assert_ptr_equal(f2, f1);
		}
		jit_debug_index__free(ix);
		free(e);
	}
}

/*
 * A printable file name no load names as its script is garbage too: node 20
 * once wrote "G6}E" where "/p/hot.js" belonged (seen in source-column.sh's
 * V8 check). The cell then names the load's script; an inlined function of
 * another script that has loads of its own keeps its file, and without the
 * scripts (NULL) the name is taken as written, as before.
 */
static void garbage_file_names_become_the_load_script(void **state)
{
	struct stream_debug e[] = {
		{ 0x1040, 4, 27, "G6}E" },
		{ 0x1050, 7, 3, "/p/lib.js" },
		{ 0x1060, 5, 9, "/p/hot.js" },
	};
	struct stream_object obj = { .kind = HB_KIND_JIT, .e_machine = 62, .addr = 0x1000,
				     .size = 0x100, .name = "JS:*work /p/hot.js:3:13",
				     .debug = e, .debug_nr = 3 };
	struct annot_texts t = { 0 };
	struct annot_func af = { 0 };
	struct annot_cell cell;
	struct strset scripts = { 0 };

	assert_non_null(strset_add(&scripts, "/p/hot.js"));
	assert_non_null(strset_add(&scripts, "/p/lib.js"));
	assert_true(jit_debug__claim(&obj, &af, &t));
	jit_debug__cell(&obj, &af, 0x00, &scripts, &cell, &t);
	assert_string_equal(cell.text, "hot.js:4:27");
	jit_debug__cell(&obj, &af, 0x10, &scripts, &cell, &t);
	assert_string_equal(cell.text, "lib.js:7:3");
	jit_debug__cell(&obj, &af, 0x20, &scripts, &cell, &t);
	assert_string_equal(cell.text, "hot.js:5:9");
	jit_debug__cell(&obj, &af, 0x00, NULL, &cell, &t);
	assert_string_equal(cell.text, "G6}E:4:27");
	jit_debug_index__free(af.debug_index);
	strset_release(&scripts);
	strset_release(&t.set);
}

/*
 * BEAM's clause head (annotate/beam/beam.h): the first entry lies before the
 * code and applies from offset 0 where the object says so
 * (debug_from_start), hot:loop/3's entries of test-data/jit-beam, its
 * prologue joined in front (addr 0x...a90); without the flag, as before.
 */
static void an_entry_before_the_code_applies_from_its_start(void **state)
{
	struct stream_debug e[] = {
		{ 0x7f8c33d99a8c, 34, 0, "hot.erl" },
		{ 0x7f8c33d99af0, 35, 0, "hot.erl" },
		{ 0x7f8c33d99ba8, 0, 0, "" },
	};
	struct stream_object obj = { .kind = HB_KIND_JIT, .e_machine = 62, .addr = 0x7f8c33d99a90,
				     .size = 280, .name = "hot:loop/3", .debug = e, .debug_nr = 3,
				     .debug_from_start = true };
	struct annot_texts t = { 0 };
	struct annot_func af = { 0 };
	struct annot_cell cell = { 0 };

	assert_true(jit_debug__claim(&obj, &af, &t));
	jit_debug__cell(&obj, &af, 0x00, NULL, &cell, &t);
	assert_string_equal(cell.text, "hot.erl:34");
	jit_debug__cell(&obj, &af, 0x5f, NULL, &cell, &t);
	assert_string_equal(cell.text, "hot.erl:34");
	jit_debug__cell(&obj, &af, 0x60, NULL, &cell, &t);
	assert_string_equal(cell.text, "hot.erl:35");
	jit_debug_index__free(af.debug_index);
	af = (struct annot_func){ 0 };
	obj.debug_from_start = false;
	cell = (struct annot_cell){ 0 };
	assert_true(jit_debug__claim(&obj, &af, &t));
	jit_debug__cell(&obj, &af, 0x00, NULL, &cell, &t);
	assert_null(cell.text);
	jit_debug_index__free(af.debug_index);
	strset_release(&t.set);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(jit_bias_follows_the_v8_code_kind),
		cmocka_unit_test(jit_find_takes_the_last_entry_at_or_before),
		cmocka_unit_test(index_agrees_with_the_linear_lookup),
		cmocka_unit_test(garbage_file_names_become_the_load_script),
		cmocka_unit_test(an_entry_before_the_code_applies_from_its_start),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

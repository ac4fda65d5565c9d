/* SPDX-License-Identifier: MIT */
/* Unit tests of merging that aggregates (postproc/stream/stream-fold.c, through the reader). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "stream/stream.h"

static char err[1024];

/* Read text as file fname into s. */
static void read_text(struct stream *s, const char *fname, const char *text)
{
	FILE *f = tmpfile();

	assert_non_null(f);
	fputs(text, f);
	rewind(f);
	err[0] = '\0';
	if (stream__read(s, f, fname, err, sizeof(err)))
		fail_msg("%s", err);
	fclose(f);
}

/* A jit object of one run: its own dump, load time and address. */
#define JIT(id, run, addr, name, size) \
	"object " #id " jit pid=" #run "0 e_machine=62 addr=" addr " size=" #size \
	" code-index=" #id " load-time=" #run "000 dump=/tmp/jit-" #run "0.dump name=" name "\n"

static const char run1[] =
	"hotblocks-stream 1\ninput /rec/one.data\nevent 0 cpu-clock\ntotal 0 all 100 100\n"
	JIT(0, 1, "0x1000", "work", 3) "code 0 0x0 31c0c3\n"
	JIT(1, 1, "0x2000", "other", 3) "code 1 0x0 31c0c3\n"
	JIT(2, 1, "0x3000", "tier", 2) "code 2 0x0 90c3\n"
	"sample 0 0 0x0 10 10\nsample 0 0 0x2 5 5\nsample 1 0 0x0 7 7\nsample 2 0 0x0 1 1\nend\n";
/* The same code of work at another address, other code under tier. */
static const char run2[] =
	"hotblocks-stream 1\ninput /rec/two.data\nevent 0 cpu-clock\ntotal 0 all 50 50\n"
	JIT(0, 2, "0x7000", "work", 3) "code 0 0x0 31c0c3\n"
	JIT(1, 2, "0x8000", "tier", 2) "code 1 0x0 cc90\n"
	"sample 0 0 0x0 20 20\nsample 1 0 0x1 3 3\nend\n";

static void same_code_under_one_name_is_one_object(void **state)
{
	struct stream s;

	stream__init(&s);
	read_text(&s, "a.hbs", run1);
	read_text(&s, "b.hbs", run2);
	assert_int_equal(stream__finish(&s), 0);
	assert_int_equal(s.objects_nr, 5);
	/* work of run 2 (object 3) goes into work of run 1 (object 0) */
	assert_int_equal(s.objects[3].folded_into, 0);
	assert_int_equal(s.objects[0].folds, 1);
	assert_int_equal(s.objects[0].folded_into, UINT32_MAX);
	assert_int_equal(s.objects[0].samples_nr, 2);
	assert_int_equal(s.objects[0].samples[0].off, 0);
	assert_int_equal(s.objects[0].samples[0].samples, 30);
	assert_int_equal(s.objects[0].samples[1].samples, 5);
	assert_int_equal(s.objects[3].samples_nr, 0);
	/* provenance: 15 from run 0, 20 from run 1 */
	assert_int_equal(s.objects[0].tally_nr, 2);
	assert_int_equal(s.objects[0].tally[0].run, 0);
	assert_int_equal(s.objects[0].tally[0].samples, 15);
	assert_int_equal(s.objects[0].tally[1].run, 1);
	assert_int_equal(s.objects[0].tally[1].samples, 20);
	assert_int_equal(s.objects[3].tally_nr, 0);
	/* the same bytes under another name, and other bytes under one name: apart */
	assert_int_equal(s.objects[1].folded_into, UINT32_MAX);
	assert_int_equal(s.objects[2].folded_into, UINT32_MAX);
	assert_int_equal(s.objects[4].folded_into, UINT32_MAX);
	assert_int_equal(s.objects[4].samples[0].samples, 3);
	assert_int_equal(s.objects[4].tally[0].run, 1);
	/* the runs: where each section began, what it read, its total */
	assert_int_equal(s.runs_nr, 2);
	assert_string_equal(s.runs[0].origin, "a.hbs");
	assert_string_equal(s.runs[1].origin, "b.hbs");
	assert_int_equal(s.runs[1].line, 1);
	assert_string_equal(s.runs[0].input, "/rec/one.data");
	assert_string_equal(s.runs[1].input, "/rec/two.data");
	assert_int_equal(s.runs[0].totals_nr, 1);
	assert_int_equal(s.runs[0].totals[0].samples, 100);
	assert_int_equal(s.runs[1].totals[0].samples, 50);
	stream__release(&s);
}

/* Code that is not known whole cannot be told the same as another. */
static void partial_or_missing_code_is_not_folded(void **state)
{
	static const char text[] =
		"hotblocks-stream 1\nevent 0 e\ntotal 0 all 9 9\n"
		JIT(0, 1, "0x1000", "f", 4) "code 0 0x0 31c0\n"
		JIT(1, 2, "0x2000", "f", 4) "code 1 0x0 31c0\n"
		JIT(2, 3, "0x3000", "g", 4)
		JIT(3, 4, "0x4000", "g", 4)
		"sample 0 0 0x0 1 1\nsample 1 0 0x0 2 2\nsample 2 0 0x0 3 3\nsample 3 0 0x0 3 3\nend\n";
	struct stream s;

	stream__init(&s);
	read_text(&s, "t.hbs", text);
	assert_int_equal(stream__finish(&s), 0);
	for (size_t i = 0; i < 4; i++) {
		assert_int_equal(s.objects[i].folded_into, UINT32_MAX);
		assert_int_equal(s.objects[i].samples_nr, 1);
	}
	stream__release(&s);
}

/*
 * A CODE_MOVE copy is folded into its root first; when that root is folded
 * in turn, the copy's samples and runs end up in the final object.
 */
static void moved_copies_follow_their_root(void **state)
{
	static const char a[] =
		"hotblocks-stream 1\nevent 0 e\ntotal 0 all 9 9\n"
		JIT(0, 1, "0x1000", "m", 2) "code 0 0x0 90c3\n"
		"sample 0 0 0x0 4 4\nend\n";
	static const char b[] =
		"hotblocks-stream 1\nevent 0 e\ntotal 0 all 9 9\n"
		"object 0 jit pid=20 e_machine=62 addr=0x5000 size=2 code-index=9 load-time=1 dump=/d name=m\n"
		"code 0 0x0 90c3\n"
		"object 1 jit pid=20 e_machine=62 addr=0x6000 size=2 code-index=9 load-time=2 dump=/d name=m\n"
		"code 1 0x0 90c3\n"
		"sample 0 0 0x0 1 1\nsample 1 0 0x0 2 2\nsample 1 0 0x1 8 8\nend\n";
	struct stream s;

	stream__init(&s);
	read_text(&s, "a.hbs", a);
	read_text(&s, "b.hbs", b);
	assert_int_equal(stream__finish(&s), 0);
	assert_int_equal(s.objects[2].moved_into, 1);
	assert_int_equal(s.objects[1].folded_into, 0);
	assert_int_equal(s.objects[0].samples_nr, 2);
	assert_int_equal(s.objects[0].samples[0].samples, 7);
	assert_int_equal(s.objects[0].samples[1].samples, 8);
	assert_int_equal(s.objects[0].tally_nr, 2);
	assert_int_equal(s.objects[0].tally[0].samples, 4);
	assert_int_equal(s.objects[0].tally[1].run, 1);
	assert_int_equal(s.objects[0].tally[1].samples, 11);
	assert_int_equal(s.objects[1].tally_nr + s.objects[2].tally_nr, 0);
	stream__release(&s);
}

/* Lines of one object and run in any order: one entry per (event, run). */
static void tallies_are_sorted_and_summed(void **state)
{
	static const char text[] =
		"hotblocks-stream 1\nevent 0 e\nevent 1 f\n"
		JIT(0, 1, "0x1000", "t", 2) "code 0 0x0 90c3\n"
		"sample 0 1 0x0 1 1\nsample 0 0 0x0 2 2\nsample 0 1 0x1 3 3\nend\n"
		"hotblocks-stream 1\nevent 5 f\n"
		JIT(0, 1, "0x1000", "t", 2)
		"sample 0 5 0x1 10 10\nend\n";
	struct stream s;

	stream__init(&s);
	read_text(&s, "t.hbs", text);
	assert_int_equal(stream__finish(&s), 0);
	/* one object: the second section has the same identity */
	assert_int_equal(s.objects_nr, 1);
	assert_int_equal(s.objects[0].tally_nr, 3);
	assert_int_equal(s.objects[0].tally[0].ev, 0);
	assert_int_equal(s.objects[0].tally[0].samples, 2);
	assert_int_equal(s.objects[0].tally[1].ev, 1);
	assert_int_equal(s.objects[0].tally[1].run, 0);
	assert_int_equal(s.objects[0].tally[1].samples, 4);
	assert_int_equal(s.objects[0].tally[2].run, 1);
	assert_int_equal(s.objects[0].tally[2].samples, 10);
	stream__release(&s);
}

/*
 * One wasmtime function seen two ways (test-data/wasmtime-real's jitdump and
 * perfmap recordings of one .cwasm: the same bytes): the jitdump's load
 * `interp` (kind jit) and the mapped .cwasm's symbol
 * `wasm[0]::function[1]::interp` (kind cwasm) are one code; the same bytes
 * under another wasm name, and a native symbol of that name, are not.
 */
static void a_cwasm_symbol_and_its_jit_load_are_one_code(void **state)
{
	static const char jitdump[] =
		"hotblocks-stream 1\nevent 0 e\ntotal 0 all 20 20\n"
		JIT(0, 1, "0x1000", "interp", 3) "code 0 0x0 31c0c3\n"
		"sample 0 0 0x0 8 8\nend\n";
	static const char perfmap[] =
		"hotblocks-stream 1\nevent 0 e\ntotal 0 all 30 30\n"
		"object 0 cwasm pid=2 e_machine=62 addr=0x70a0 size=3 dso=/r/module.cwasm "
		"sym-start=0x10a0 name=wasm[0]::function[1]::interp\ncode 0 0x0 31c0c3\n"
		"object 1 cwasm pid=2 e_machine=62 addr=0x80a0 size=3 dso=/r/module.cwasm "
		"sym-start=0x20a0 name=wasm[0]::function[2]::blend\ncode 1 0x0 31c0c3\n"
		"object 2 native pid=2 e_machine=62 addr=0x90a0 size=3 dso=/r/lib.so "
		"sym-start=0x30a0 name=interp\ncode 2 0x0 31c0c3\n"
		"sample 0 0 0x0 9 9\nsample 1 0 0x0 1 1\nsample 2 0 0x0 2 2\nend\n";
	struct stream s;

	stream__init(&s);
	read_text(&s, "jitdump.hbs", jitdump);
	read_text(&s, "perfmap.hbs", perfmap);
	assert_int_equal(stream__finish(&s), 0);
	assert_int_equal(s.objects_nr, 4);
	assert_int_equal(s.objects[1].folded_into, 0);
	assert_int_equal(s.objects[0].samples[0].samples, 17);
	assert_int_equal(s.objects[0].tally_nr, 2);
	assert_int_equal(s.objects[0].tally[0].samples, 8);
	assert_int_equal(s.objects[0].tally[1].run, 1);
	assert_int_equal(s.objects[0].tally[1].samples, 9);
	assert_int_equal(s.objects[2].folded_into, UINT32_MAX);
	assert_int_equal(s.objects[3].folded_into, UINT32_MAX);
	stream__release(&s);
}

static void tally_sums_saturate(void **state)
{
	struct stream_tally *v = NULL;
	size_t nr = 0, alloc = 0;

	assert_int_equal(stream__tally_add(&v, &nr, &alloc, 0, 0, UINT64_MAX - 1), 0);
	assert_int_equal(stream__tally_add(&v, &nr, &alloc, 0, 0, 5), 0);
	assert_int_equal(nr, 1);
	assert_true(v[0].samples == UINT64_MAX);
	assert_int_equal(stream__tally_add(&v, &nr, &alloc, 1, 0, 5), 0);
	assert_int_equal(nr, 2);
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_code_under_one_name_is_one_object),
		cmocka_unit_test(partial_or_missing_code_is_not_folded),
		cmocka_unit_test(moved_copies_follow_their_root),
		cmocka_unit_test(tallies_are_sorted_and_summed),
		cmocka_unit_test(a_cwasm_symbol_and_its_jit_load_are_one_code),
		cmocka_unit_test(tally_sums_saturate),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* Unit tests of --kind's stream side (postproc/stream/stream-kinds.c): what kind a sample is, and keeping some. */
#include <errno.h>
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

/*
 * Every kind of object and class, hand-made to the rules of plugin/STREAM.md
 * (the classes sum to all, each object's samples in its class): run 1 has a
 * jitdump load (10), a native function (6), a .cwasm function (4, in class
 * native), a perf map's function (3), kernel 5 and unattributed jit-no-load 2,
 * no-symbol 1, no-map 7 (of no kind); run 2 the native function again (4) and
 * kernel 2.
 */
static const char run1[] =
	"hotblocks-stream 1\ninput /rec/one.data\nevent 0 cpu-clock\n"
	"total 0 all 38 38\ntotal 0 jit 10 10\ntotal 0 native 10 10\ntotal 0 perfmap 3 3\n"
	"total 0 kernel 5 5\ntotal 0 unattributed.jit-no-load 2 2\n"
	"total 0 unattributed.no-symbol 1 1\ntotal 0 unattributed.no-map 7 7\n"
	"object 0 jit pid=10 e_machine=62 addr=0x1000 size=3 code-index=0 load-time=1000"
	" dump=/tmp/jit-10.dump name=work\ncode 0 0x0 31c0c3\n"
	"object 1 native pid=10 e_machine=62 addr=0x4000 size=3 dso=/lib/libc.so.6 sym-start=0x4000"
	" source=symtab name=memcpy\ncode 1 0x0 31c0c3\n"
	"object 2 cwasm pid=10 e_machine=62 addr=0x5000 size=2 dso=/rec/m.cwasm sym-start=0x0"
	" name=wasm[0]::function[1]::f\ncode 2 0x0 90c3\n"
	"object 3 native pid=10 e_machine=62 addr=0x9000 size=16 dso=/tmp/perf-10.map"
	" sym-start=0x9000 source=perf-map name=LazyCompile:*f\n"
	"sample 0 0 0x0 10 10\nsample 1 0 0x0 6 6\nsample 2 0 0x0 4 4\nsample 3 0 0x4 3 3\nend\n";
static const char run2[] =
	"hotblocks-stream 1\ninput /rec/two.data\nevent 0 cpu-clock\n"
	"total 0 all 6 6\ntotal 0 native 4 4\ntotal 0 kernel 2 2\n"
	"object 0 native pid=20 e_machine=62 addr=0x7000 size=3 dso=/lib/libc.so.6 sym-start=0x4000"
	" source=symtab name=memcpy\ncode 0 0x0 31c0c3\n"
	"sample 0 0 0x0 4 4\nend\n";

static void load(struct stream *s)
{
	stream__init(s);
	read_text(s, "a.hbs", run1);
	read_text(s, "b.hbs", run2);
	assert_int_equal(stream__finish(s), 0);
	assert_int_equal(s->objects_nr, 4);
	assert_int_equal(s->runs_nr, 2);
}

/* Object i's samples of event 0. */
static uint64_t object_samples(const struct stream *s, size_t i)
{
	uint64_t n = 0;

	for (size_t k = 0; k < s->objects[i].samples_nr; k++)
		n += s->objects[i].samples[k].samples;
	return n;
}

static void kinds_are_named_one_by_one_or_in_a_comma_list(void **state)
{
	unsigned k = 0;
	char buf[32];

	(void)state;
	assert_int_equal(stream__parse_kinds("jit", &k), 0);
	assert_int_equal(k, STREAM_KIND_JIT);
	/* repeated: or-ed into what was there */
	assert_int_equal(stream__parse_kinds("kernel,native", &k), 0);
	assert_int_equal(k, STREAM_KINDS_ALL);
	stream__kinds_text(STREAM_KIND_KERNEL | STREAM_KIND_JIT, buf, sizeof(buf));
	assert_string_equal(buf, "jit,kernel");
	stream__kinds_text(STREAM_KINDS_ALL, buf, 8);
	assert_string_equal(buf, "jit,nat");
	for (const char *const *bad = (const char *const[]){ "", "JIT", "jit,", ",jit", "jit,,native",
							      "user", "jit native", NULL }; *bad; bad++) {
		k = 0;
		assert_int_equal(stream__parse_kinds(*bad, &k), -EINVAL);
	}
}

static void a_perf_map_and_a_cwasm_are_jit_code(void **state)
{
	struct stream s;

	(void)state;
	load(&s);
	assert_int_equal(stream__object_kind(&s.objects[0]), STREAM_KIND_JIT);
	assert_int_equal(stream__object_kind(&s.objects[1]), STREAM_KIND_NATIVE);
	assert_int_equal(stream__object_kind(&s.objects[2]), STREAM_KIND_JIT);
	assert_int_equal(stream__object_kind(&s.objects[3]), STREAM_KIND_JIT);
	assert_int_equal(stream__class_kinds(HB_CLASS_NATIVE), STREAM_KIND_NATIVE | STREAM_KIND_JIT);
	assert_int_equal(stream__class_kinds(HB_CLASS_NO_MAP), 0);
	assert_int_equal(stream__class_kinds(HB_CLASS_NOT_RESOLVED), 0);
	assert_int_equal(stream__class_kinds(HB_CLASS_ALL), 0);
	stream__release(&s);
}

/* The run totals of event 0, in run order. */
static void assert_run_totals(const struct stream *s, uint64_t one, uint64_t two)
{
	assert_int_equal(s->runs[0].totals_nr, 1);
	assert_int_equal(s->runs[0].totals[0].samples, one);
	assert_int_equal(s->runs[1].totals_nr, 1);
	assert_int_equal(s->runs[1].totals[0].samples, two);
}

static void native_keeps_the_files_functions_without_the_cwasm(void **state)
{
	struct stream s;
	const struct stream_event *e;

	(void)state;
	load(&s);
	assert_int_equal(stream__keep_kinds(&s, STREAM_KIND_NATIVE), 0);
	e = &s.events[0];
	assert_int_equal(s.kinds, STREAM_KIND_NATIVE);
	/* memcpy 6 + 4, and no-symbol's 1 */
	assert_int_equal(e->samples[HB_CLASS_ALL], 11);
	assert_int_equal(e->samples[HB_CLASS_NATIVE], 10);
	assert_int_equal(e->samples[HB_CLASS_NO_SYMBOL], 1);
	assert_int_equal(e->samples[HB_CLASS_JIT], 0);
	assert_int_equal(e->samples[HB_CLASS_PERFMAP], 0);
	assert_int_equal(e->samples[HB_CLASS_KERNEL], 0);
	assert_int_equal(e->samples[HB_CLASS_JIT_NO_LOAD], 0);
	assert_int_equal(e->samples[HB_CLASS_NO_MAP], 0);
	/* the input's counts kept */
	assert_int_equal(e->collected[HB_CLASS_ALL], 44);
	assert_int_equal(e->collected[HB_CLASS_NATIVE], 14);
	assert_int_equal(e->collected[HB_CLASS_NO_MAP], 7);
	assert_int_equal(object_samples(&s, 0), 0);
	assert_int_equal(object_samples(&s, 1), 10);
	assert_int_equal(object_samples(&s, 2), 0);
	assert_int_equal(object_samples(&s, 3), 0);
	assert_int_equal(s.objects[0].tally_nr, 0);
	assert_int_equal(s.objects[1].tally_nr, 2);
	/* run 1: memcpy 6 and no-symbol 1; run 2: memcpy 4 */
	assert_run_totals(&s, 7, 4);
	stream__release(&s);
}

static void jit_keeps_loads_perf_maps_cwasm_and_jit_memory(void **state)
{
	struct stream s;
	const struct stream_event *e;

	(void)state;
	load(&s);
	assert_int_equal(stream__keep_kinds(&s, STREAM_KIND_JIT), 0);
	e = &s.events[0];
	/* work 10, f's .cwasm 4, the perf map's 3, jit-no-load 2 */
	assert_int_equal(e->samples[HB_CLASS_ALL], 19);
	assert_int_equal(e->samples[HB_CLASS_JIT], 10);
	assert_int_equal(e->samples[HB_CLASS_NATIVE], 4);
	assert_int_equal(e->samples[HB_CLASS_PERFMAP], 3);
	assert_int_equal(e->samples[HB_CLASS_JIT_NO_LOAD], 2);
	assert_int_equal(e->samples[HB_CLASS_NO_SYMBOL], 0);
	assert_int_equal(object_samples(&s, 0), 10);
	assert_int_equal(object_samples(&s, 1), 0);
	assert_int_equal(object_samples(&s, 2), 4);
	assert_int_equal(object_samples(&s, 3), 3);
	assert_run_totals(&s, 19, 0);
	stream__release(&s);
}

static void kernel_keeps_counts_and_no_object(void **state)
{
	struct stream s;

	(void)state;
	load(&s);
	assert_int_equal(stream__keep_kinds(&s, STREAM_KIND_KERNEL), 0);
	assert_int_equal(s.events[0].samples[HB_CLASS_ALL], 7);
	for (size_t i = 0; i < s.objects_nr; i++)
		assert_int_equal(object_samples(&s, i), 0);
	assert_run_totals(&s, 5, 2);
	stream__release(&s);
}

/* All three kinds still leave out what is of none: no map covered it. */
static void every_kind_leaves_out_the_samples_of_none(void **state)
{
	struct stream s;

	(void)state;
	load(&s);
	assert_int_equal(stream__keep_kinds(&s, STREAM_KINDS_ALL), 0);
	assert_int_equal(s.events[0].samples[HB_CLASS_ALL], 44 - 7);
	assert_int_equal(s.events[0].samples[HB_CLASS_NATIVE], 14);
	assert_run_totals(&s, 38 - 7, 6);
	stream__release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kinds_are_named_one_by_one_or_in_a_comma_list),
		cmocka_unit_test(a_perf_map_and_a_cwasm_are_jit_code),
		cmocka_unit_test(native_keeps_the_files_functions_without_the_cwasm),
		cmocka_unit_test(jit_keeps_loads_perf_maps_cwasm_and_jit_memory),
		cmocka_unit_test(kernel_keeps_counts_and_no_object),
		cmocka_unit_test(every_kind_leaves_out_the_samples_of_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

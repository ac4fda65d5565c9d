/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of joining BEAM's two loads (or perf map ranges) of one
 * function (stream-join.c, annotate/beam/beam.c), through the reader. The prologue's 48 bytes are
 * hot:loop/3's of test-data/jit-beam (OTP 25, x86-64): call, nop, the four
 * func_info words (0, module atom, function atom, arity 3), jmp +6, the
 * breakpoint flag byte, call.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "annotate/beam/beam.h"
#include "stream-text.h"

#define PROLOGUE_CODE "e85bf9ffff0f1f0000000000000000004bf5020000000000cb510100000000000300000000000000eb0600e850f9ffff"
#define HEAD "hotblocks-stream 1\ninput /rec/beam.data\ntime-aware yes\nevent 0 cpu-clock\ntotal 0 all 10 10\n"
#define OBJ(id, addr, size, index, time, name) \
	"object " #id " jit pid=7 e_machine=62 addr=" addr " size=" #size " code-index=" #index \
	" load-time=" #time " dump=/tmp/jit-7.dump name=" name "\n"

/* prologue at 0x1000, body (push rbp; ret) at 0x1030, the next load */
static const char joined[] = HEAD
	OBJ(0, "0x1000", 48, 10, 100, "hot:loop/3-CodeInfoPrologue") "code 0 0x0 " PROLOGUE_CODE "\n"
	OBJ(1, "0x1030", 2, 11, 101, "hot:loop/3") "code 1 0x0 55c3\n"
	"debug 1 0xffc 34 0 hot.erl\ndebug 1 0x1031 35 0 hot.erl\n"
	"sample 0 0 0x28 1 1\nsample 1 0 0x0 2 2\nsample 1 0 0x1 3 3\nend\n";

static void a_prologue_and_its_body_are_one_function(void **state)
{
	struct stream s;
	const struct stream_object *o;

	stream_text__load(&s, joined);
	assert_int_equal(s.objects_nr, 1);
	o = &s.objects[0];
	assert_string_equal(o->name, "hot:loop/3");
	assert_int_equal(o->addr, 0x1000);
	assert_int_equal(o->size, 50);
	assert_int_equal(o->code_nr, 50);
	assert_int_equal(o->code[0], 0xe8);
	assert_int_equal(o->code[0x30], 0x55);
	assert_int_equal(o->joined_bytes, 48);
	assert_true(o->debug_from_start);
	/* the prologue's sample where it was, the body's 48 bytes on */
	assert_int_equal(o->samples_nr, 3);
	assert_int_equal(o->samples[0].off, 0x28);
	assert_int_equal(o->samples[0].samples, 1);
	assert_int_equal(o->samples[1].off, 0x30);
	assert_int_equal(o->samples[2].off, 0x31);
	assert_int_equal(o->tally_nr, 1);
	assert_int_equal(o->tally[0].samples, 6);
	/* the four func_info words and the breakpoint flag byte */
	assert_int_equal(o->data_nr, 5);
	for (int k = 0; k < 4; k++) {
		assert_int_equal(o->data[k].off, 8 + 8 * k);
		assert_int_equal(o->data[k].size, 8);
	}
	assert_int_equal(o->data[4].off, 0x2a);
	assert_int_equal(o->data[4].size, 1);
	/* the debug entries keep their addresses (one before the code) */
	assert_int_equal(o->debug_nr, 2);
	stream__release(&s);
}

/* Each of what must hold, broken once: two objects, nothing joined. */
static void only_adjacent_consecutive_loads_are_joined(void **state)
{
	static const char *const apart[] = {
		/* the body not where the prologue ends */
		HEAD OBJ(0, "0x1000", 48, 10, 100, "hot:loop/3-CodeInfoPrologue") "code 0 0x0 " PROLOGUE_CODE "\n"
		OBJ(1, "0x1040", 2, 11, 101, "hot:loop/3") "code 1 0x0 55c3\nsample 0 0 0x28 1 1\nsample 1 0 0x0 2 2\nend\n",
		/* another load between them in the dump: another generation */
		HEAD OBJ(0, "0x1000", 48, 10, 100, "hot:loop/3-CodeInfoPrologue") "code 0 0x0 " PROLOGUE_CODE "\n"
		OBJ(1, "0x1030", 2, 12, 101, "hot:loop/3") "code 1 0x0 55c3\nsample 0 0 0x28 1 1\nsample 1 0 0x0 2 2\nend\n",
		/* the body loaded before the prologue */
		HEAD OBJ(0, "0x1000", 48, 10, 100, "hot:loop/3-CodeInfoPrologue") "code 0 0x0 " PROLOGUE_CODE "\n"
		OBJ(1, "0x1030", 2, 11, 99, "hot:loop/3") "code 1 0x0 55c3\nsample 0 0 0x28 1 1\nsample 1 0 0x0 2 2\nend\n",
		/* another function's body */
		HEAD OBJ(0, "0x1000", 48, 10, 100, "hot:loop/3-CodeInfoPrologue") "code 0 0x0 " PROLOGUE_CODE "\n"
		OBJ(1, "0x1030", 2, 11, 101, "hot:crc/3") "code 1 0x0 55c3\nsample 0 0 0x28 1 1\nsample 1 0 0x0 2 2\nend\n",
		/* the prologue's bytes not all known */
		HEAD OBJ(0, "0x1000", 48, 10, 100, "hot:loop/3-CodeInfoPrologue") "code 0 0x0 e85bf9ffff\n"
		OBJ(1, "0x1030", 2, 11, 101, "hot:loop/3") "code 1 0x0 55c3\nsample 0 0 0x28 1 1\nsample 1 0 0x0 2 2\nend\n",
	};

	for (size_t k = 0; k < sizeof(apart) / sizeof(apart[0]); k++) {
		struct stream s;

		stream_text__load(&s, apart[k]);
		assert_int_equal(s.objects_nr, 2);
		assert_int_equal(s.objects[1].addr, k == 0 ? 0x1040 : 0x1030);
		assert_int_equal(s.objects[1].joined_bytes, 0);
		assert_int_equal(s.objects[1].data_nr, 0);
		assert_int_equal(s.objects[1].samples[0].off, 0);
		stream__release(&s);
	}
}

/* Joined, but bytes that are not the layout (the arity word is not the
 * name's) are no data rows. */
static void data_only_where_the_layout_is_beams(void **state)
{
	static const char text[] = HEAD
		OBJ(0, "0x1000", 48, 10, 100, "hot:loop/2-CodeInfoPrologue") "code 0 0x0 " PROLOGUE_CODE "\n"
		OBJ(1, "0x1030", 2, 11, 101, "hot:loop/2") "code 1 0x0 55c3\nsample 1 0 0x0 2 2\nend\n";
	struct stream s;
	struct code_data d[BEAM_PROLOGUE_DATA_MAX];

	stream_text__load(&s, text);
	assert_int_equal(s.objects_nr, 1);
	assert_int_equal(s.objects[0].joined_bytes, 48);
	assert_int_equal(s.objects[0].data_nr, 0);
	stream__release(&s);
	/* another machine's bytes are not read so either */
	assert_int_equal(beam__prologue_data(183, (const uint8_t *)"\xe8", 48, "m:f/3", d), 0);
}

/* A body without its prologue's object: alone, its debug rule from the loads. */
static void a_lone_body_reads_its_debug_info_from_its_start(void **state)
{
	static const char text[] = HEAD
		OBJ(0, "0x1030", 2, 11, 101, "hot:loop/3") "code 0 0x0 55c3\n"
		"debug 0 0xffc 34 0 hot.erl\nsample 0 0 0x0 2 2\n"
		"load pid=7 addr=0x1000 size=48 load-time=100 name=hot:loop/3-CodeInfoPrologue\n"
		"load pid=7 addr=0x1030 size=2 load-time=101 name=hot:loop/3\n"
		OBJ(1, "0x2000", 2, 20, 101, "other:f/0") "code 1 0x0 55c3\nsample 1 0 0x0 1 1\nend\n";
	struct stream s;

	stream_text__load(&s, text);
	assert_int_equal(s.objects_nr, 2);
	assert_int_equal(s.objects[0].addr, 0x1030);
	assert_true(s.objects[0].debug_from_start);
	assert_false(s.objects[1].debug_from_start);
	stream__release(&s);
}

/* A perf map's ranges (+JPperf map; the addresses and sizes are
 * $lists:merge3_1/6's of test-data/jit-beam-perfmap, shortened names): */
#define MAP_OBJ(id, addr, size, name) \
	"object " #id " native pid=7 e_machine=62 addr=" addr " size=" #size " dso=/tmp/perf-7.map" \
	" sym-start=" addr " source=perf-map name=" name "\n"

/* one function, each sample at the name perf gives it; a prologue that is
 * not right before it, and a name without BEAM's $, stay apart */
static void a_perf_maps_prologue_and_body_are_one_function(void **state)
{
	static const char text[] = HEAD
		MAP_OBJ(0, "0x1000", 48, "$m:f/6-CodeInfoPrologue") MAP_OBJ(1, "0x1030", 552, "$m:f/6")
		MAP_OBJ(2, "0x3000", 48, "$m:g/1-CodeInfoPrologue") MAP_OBJ(3, "0x3040", 16, "$m:g/1")
		MAP_OBJ(4, "0x5000", 48, "m:h/1-CodeInfoPrologue") MAP_OBJ(5, "0x5030", 16, "m:h/1")
		"sample 0 0 0x28 2 2\nsample 1 0 0x55 28 28\nsample 2 0 0x28 1 1\nsample 3 0 0x0 1 1\n"
		"sample 4 0 0x28 1 1\nsample 5 0 0x0 1 1\nend\n";
	struct stream s;
	const struct stream_object *o;

	(void)state;
	stream_text__load(&s, text);
	assert_int_equal(s.objects_nr, 5);
	o = &s.objects[0];
	assert_string_equal(o->name, "$m:f/6");
	assert_string_equal(o->joined_name, "$m:f/6-CodeInfoPrologue");
	assert_int_equal(o->addr, 0x1000);
	assert_int_equal(o->sym_start, 0x1000);
	assert_int_equal(o->size, 600);
	assert_int_equal(o->joined_bytes, 48);
	assert_int_equal(o->samples_nr, 2);
	assert_int_equal(o->samples[0].off, 0x28);
	assert_int_equal(o->samples[1].off, 0x30 + 0x55);
	assert_int_equal(o->tally[0].samples, 30);
	/* 16 bytes between them: not its body; the prologue named as it, alone */
	for (size_t i = 1; i < s.objects_nr; i++)
		assert_true(s.objects[i].addr != 0x1030);
	assert_string_equal(s.objects[1].name, "$m:g/1");
	assert_int_equal(s.objects[1].addr, 0x3000);
	assert_int_equal(s.objects[1].size, 48);
	assert_string_equal(s.objects[1].joined_name, "$m:g/1-CodeInfoPrologue");
	assert_string_equal(s.objects[2].name, "$m:g/1");
	assert_int_equal(s.objects[2].addr, 0x3040);
	assert_null(s.objects[2].joined_name);
	assert_string_equal(s.objects[3].name, "m:h/1-CodeInfoPrologue");
	assert_null(s.objects[3].joined_name);
	stream__release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_prologue_and_its_body_are_one_function),
		cmocka_unit_test(only_adjacent_consecutive_loads_are_joined),
		cmocka_unit_test(data_only_where_the_layout_is_beams),
		cmocka_unit_test(a_lone_body_reads_its_debug_info_from_its_start),
		cmocka_unit_test(a_perf_maps_prologue_and_body_are_one_function),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

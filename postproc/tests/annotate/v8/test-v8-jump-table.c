/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of postproc/annotate/v8/v8-jump-table.c on hand-made streams
 * (an imitation, said here: x86-64 calls assembled by hand into V8's
 * geometry, src/wasm/jump-table-assembler.h: 64-byte lines of 12 5-byte
 * slots, then 16-byte far slots). The real tables are checked against the
 * modules' `call N` in scripts/tests/v8-jump-table.sh.
 *
 * pid 7, a code space at 0x10000 (one line of main table, 12 slots, so the
 * far table at 0x10040). JS:f-2-liftoff at 0x14000 calls
 *   +0x0  e8 05c0ffff  call 0x1000a  slot 2   (sampled after: returned)
 *   +0x6  e8 09c0ffff  call 0x10014  slot 4   (sampled after: returned)
 *   +0xc  e8 3fc0ffff  call 0x10050  far slot 1
 * and g-3 and h-5 have loads: with 1 import, slots 2 and 4 are functions 3
 * and 5, both compiled; 0, 2, 3 or 4 imports make one of them a function V8
 * never compiled.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "annotate/v8/v8-jump-table.h"
#include "tests/stream/stream-text.h"

#define HEAD                                                                                              \
	"hotblocks-stream 1\n"                                                                            \
	"event 0 cpu-clock\n"                                                                             \
	"total 0 all 2 2\n"                                                                               \
	"object 0 jit pid=7 e_machine=62 addr=0x14000 size=%zu code-index=1 load-time=50 dump=d"          \
	" name=JS:f-2-liftoff\n"                                                                          \
	"code 0 0x0 %s\n"
#define LOADS                                                                                             \
	"load pid=7 addr=0x15000 size=16 load-time=100 name=JS:g-3-liftoff\n"                             \
	"load pid=7 addr=0x16000 size=16 load-time=100 name=JS:h-5-turbofan\n"                            \
	"end\n"

static const char calls[] = "e805c0ffff90e809c0ffff90e83fc0ffff90c3";
/* the same and a call to 0x10058, between far slots 0x10050 and 0x10060 */
static const char calls_between[] = "e805c0ffff90e809c0ffff90e83fc0ffff90e841c0ffffc3";
/* je over a call of slot 2 to the sampled nop after it: it may not have run */
static const char jumped_over[] = "7405e803c0ffff90c3";

static void load(struct stream *s, const char *code, const char *samples)
{
	char text[2048];

	snprintf(text, sizeof(text), HEAD "%s" LOADS, strlen(code) / 2, code, samples);
	stream_text__load(s, text);
}

static char notes[1024];

static void note(void *arg, const char *line)
{
	(void)arg;
	strncat(notes, line, sizeof(notes) - strlen(notes) - 2);
	strcat(notes, "\n");
}

static void slots_name_their_callees(void **state)
{
	struct v8_jump_tables *j;
	struct v8_slot x;
	struct stream s;

	(void)state;
	load(&s, calls, "sample 0 0 0x5 1 1\nsample 0 0 0xb 1 1\n");
	assert_int_equal(v8_jump_tables__derive(&j, &s), 0);
	assert_non_null(j);
	assert_true(v8_jump_tables__find(j, 7, 0x1000a, &x));
	assert_false(x.far);
	assert_int_equal(x.func_index, 3);
	assert_string_equal(x.name, "JS:g-3-liftoff");
	assert_true(v8_jump_tables__find(j, 7, 0x10014, &x));
	assert_int_equal(x.func_index, 5);
	assert_string_equal(x.name, "JS:h-5-turbofan");
	/* slot 1 (0x10005): function 2, the caller itself */
	assert_true(v8_jump_tables__find(j, 7, 0x10005, &x));
	assert_int_equal(x.func_index, 2);
	assert_string_equal(x.name, "JS:f-2-liftoff");
	/* slot 11 is function 12, never compiled: no name */
	assert_true(v8_jump_tables__find(j, 7, 0x10037, &x));
	assert_int_equal(x.func_index, 12);
	assert_null(x.name);
	/* off the grid: inside a slot, or the line's 4 bytes of padding */
	assert_false(v8_jump_tables__find(j, 7, 0x10006, &x));
	assert_false(v8_jump_tables__find(j, 7, 0x1003c, &x));
	/* the far table: by its 16-byte slots */
	assert_true(v8_jump_tables__find(j, 7, 0x10050, &x));
	assert_true(x.far);
	assert_int_equal(x.off, 0x10);
	assert_false(v8_jump_tables__find(j, 7, 0x10051, &x));
	/* another process, or below the table */
	assert_false(v8_jump_tables__find(j, 8, 0x1000a, &x));
	assert_false(v8_jump_tables__find(j, 7, 0xfffa, &x));
	notes[0] = '\0';
	v8_jump_tables__summary(j, note, NULL);
	assert_string_equal(notes, "");
	v8_jump_tables__free(j);
	stream__release(&s);
}

static void a_call_between_far_slots_leaves_it_raw(void **state)
{
	struct v8_jump_tables *j;
	struct v8_slot x;
	struct stream s;

	(void)state;
	load(&s, calls_between, "sample 0 0 0x5 1 1\nsample 0 0 0xb 1 1\n");
	assert_int_equal(v8_jump_tables__derive(&j, &s), 0);
	assert_false(v8_jump_tables__find(j, 7, 0x1000a, &x));
	notes[0] = '\0';
	v8_jump_tables__summary(j, note, NULL);
	assert_string_equal(notes, "calls into V8's wasm jump table at 0x10000 (pid 7) left as addresses: a call lands"
				   " at +0x18 of its far jump table, between its 16-byte slots\n");
	v8_jump_tables__free(j);
	stream__release(&s);
}

static void one_returned_call_is_too_little(void **state)
{
	struct v8_jump_tables *j;
	struct v8_slot x;
	struct stream s;

	(void)state;
	/* slot 2 alone: 0, 1 and 3 imports make it a compiled function (2, 3, 5) */
	load(&s, calls, "sample 0 0 0x5 1 1\n");
	assert_int_equal(v8_jump_tables__derive(&j, &s), 0);
	assert_false(v8_jump_tables__find(j, 7, 0x1000a, &x));
	notes[0] = '\0';
	v8_jump_tables__summary(j, note, NULL);
	assert_string_equal(notes, "calls into V8's wasm jump table at 0x10000 (pid 7) left as addresses: 3 counts of"
				   " imported functions agree with the 1 calls into it that returned: too little"
				   " evidence\n");
	v8_jump_tables__free(j);
	stream__release(&s);
}

static void no_call_returned_no_table(void **state)
{
	struct v8_jump_tables *j;
	struct v8_slot x;
	struct stream s;

	(void)state;
	/* the nop after the call is a jump's target: its sample says nothing of the call */
	load(&s, jumped_over, "sample 0 0 0x7 2 2\n");
	assert_int_equal(v8_jump_tables__derive(&j, &s), 0);
	assert_null(j);
	assert_false(v8_jump_tables__find(j, 7, 0x1000a, &x));
	notes[0] = '\0';
	v8_jump_tables__summary(j, note, NULL);
	assert_string_equal(notes, "");
	stream__release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(slots_name_their_callees),
		cmocka_unit_test(a_call_between_far_slots_leaves_it_raw),
		cmocka_unit_test(one_returned_call_is_too_little),
		cmocka_unit_test(no_call_returned_no_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

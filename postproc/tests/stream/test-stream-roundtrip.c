// SPDX-License-Identifier: MIT
/*
 * The stream from the writer's side to the reader's: sections written by the
 * plugin's stream writer (plugin/emit/stream-writer.c) and read back by postproc's
 * reader (postproc/stream/stream.c) must give back every field, string and byte the
 * writer was handed, and two sections of one recording must merge into the
 * objects of one. The expected values are the inputs themselves.
 */
#define _GNU_SOURCE	/* open_memstream */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "stream/stream.h"
#include "../../../plugin/emit/stream-writer.h"

/* Every byte 0x01..0xff in a name, to check escaping both ways. */
static char every_byte[256];

static void write_one(FILE *f, uint64_t all, uint64_t jit)
{
	static const char *const events[] = { "cpu-clock", "cycles:u" };
	static const char *const warnings[] = { "50% of samples\tare odd", every_byte };
	static const struct stream_writer_jitdump dumps[] = {
		{ .path = "/tmp/dir with space/jit-7.dump", .pid = 7, .loads = 3, .status = "truncated" },
	};
	static const struct jitdump_debug_entry debug[] = {
		{ .addr = 0x7f0000001000, .line = 10, .discrim = 0, .file = (char *)"/src/a b.js" },
		{ .addr = 0x7f0000001011, .line = 12, .discrim = 4, .file = (char *)"\xff" },
	};
	static uint8_t code[200], native_code[3] = { 0xc3, 0x90, 0xcc };
	uint64_t totals[2][HB_CLASS__NR][2] = { 0 };

	for (size_t i = 0; i < sizeof(code); i++)
		code[i] = (uint8_t)(i * 7);
	totals[0][HB_CLASS_ALL][0] = all, totals[0][HB_CLASS_ALL][1] = all * 1000;
	totals[0][HB_CLASS_JIT][0] = jit, totals[0][HB_CLASS_JIT][1] = jit * 1000;
	totals[0][HB_CLASS_NATIVE][0] = all - jit, totals[0][HB_CLASS_NATIVE][1] = (all - jit) * 1000;
	totals[1][HB_CLASS_ALL][0] = 1, totals[1][HB_CLASS_ALL][1] = 9;
	totals[1][HB_CLASS_NO_MAP][0] = 1, totals[1][HB_CLASS_NO_MAP][1] = 9;

	const struct stream_writer_header h = {
		.producer = "hotblocks.so/1", .input = "/tmp/dir with space/perf.data", .time_aware = true,
		.events = events, .events_nr = 2, .totals = (const uint64_t(*)[HB_CLASS__NR][2])totals,
		.jitdumps = dumps, .jitdumps_nr = 1, .warnings = warnings, .warnings_nr = 2,
	};
	struct stream_writer_object objs[] = {
		{ .kind = HB_KIND_NATIVE, .id = 0x80000000, .pid = 7, .e_machine = 62, .addr = 0x401000,
		  .size = 3, .name = every_byte, .code = native_code, .code_len = 3,
		  .dso = "/usr/lib/x86_64-linux-gnu/libc.so.6", .sym_start = 0x1000 },
		{ .kind = HB_KIND_JIT, .id = 4, .pid = 7, .e_machine = 62, .addr = 0x7f0000001000,
		  .size = 200, .name = "JS:*work a.js:3", .code = code, .code_len = 200, .code_index = 42,
		  .load_time = 123456789, .dump = "/tmp/dir with space/jit-7.dump", .debug = debug,
		  .debug_nr = 2 },
	};
	const struct tally_entry counts[] = {
		{ .obj = 4, .ev = 0, .off = 0x11, .samples = jit, .period = jit * 1000 },
		{ .obj = 0x80000000, .ev = 0, .off = 0x1, .samples = all - jit, .period = (all - jit) * 1000 },
	};

	assert_int_equal(stream_writer__write(f, &h, objs, 2, counts, 2), 0);
}

/* Write the given sections one after the other and read them back into s. */
static void round_trip(struct stream *s, int sections)
{
	char *text = NULL, err[512] = "";
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	for (int i = 0; i < sections; i++)
		write_one(f, 10 + (uint64_t)i, 6 + (uint64_t)i);
	assert_int_equal(fclose(f), 0);
	f = fmemopen(text, len, "r");
	assert_non_null(f);
	stream__init(s);
	if (stream__read(s, f, "roundtrip.hbs", err, sizeof(err)))
		fail_msg("the reader refused the writer's stream: %s", err);
	assert_int_equal(stream__finish(s), 0);
	fclose(f);
	free(text);
}

static void every_field_comes_back(void **state)
{
	struct stream s;

	round_trip(&s, 1);
	assert_int_equal(s.sections, 1);
	assert_int_equal(s.skipped_kinds + s.skipped_classes + s.skipped_objects, 0);

	assert_int_equal(s.events_nr, 2);
	assert_string_equal(s.events[0].name, "cpu-clock");
	assert_string_equal(s.events[1].name, "cycles:u");
	assert_int_equal(s.events[0].samples[HB_CLASS_ALL], 10);
	assert_int_equal(s.events[0].period[HB_CLASS_ALL], 10000);
	assert_int_equal(s.events[0].samples[HB_CLASS_JIT], 6);
	assert_int_equal(s.events[0].samples[HB_CLASS_NATIVE], 4);
	assert_int_equal(s.events[1].samples[HB_CLASS_NO_MAP], 1);
	assert_int_equal(s.events[1].period[HB_CLASS_NO_MAP], 9);

	assert_int_equal(s.warnings_nr, 2);
	assert_string_equal(s.warnings[0].text, "50% of samples\tare odd");
	assert_string_equal(s.warnings[1].text, every_byte);

	/* The writer puts JIT objects first. */
	assert_int_equal(s.objects_nr, 2);
	const struct stream_object *j = &s.objects[0], *n = &s.objects[1];

	assert_int_equal(j->kind, HB_KIND_JIT);
	assert_int_equal(j->pid, 7);
	assert_int_equal(j->e_machine, 62);
	assert_int_equal(j->addr, 0x7f0000001000);
	assert_int_equal(j->size, 200);
	assert_int_equal(j->code_index, 42);
	assert_int_equal(j->load_time, 123456789);
	assert_string_equal(j->name, "JS:*work a.js:3");
	assert_string_equal(j->path, "/tmp/dir with space/jit-7.dump");
	assert_int_equal(j->code_nr, 200);
	for (size_t i = 0; i < 200; i++)
		assert_int_equal(j->code[i], (uint8_t)(i * 7));
	assert_int_equal(j->debug_nr, 2);
	assert_int_equal(j->debug[0].addr, 0x7f0000001000);
	assert_int_equal(j->debug[0].line, 10);
	assert_int_equal(j->debug[0].discrim, 0);
	assert_string_equal(j->debug[0].file, "/src/a b.js");
	assert_int_equal(j->debug[1].addr, 0x7f0000001011);
	assert_int_equal(j->debug[1].line, 12);
	assert_int_equal(j->debug[1].discrim, 4);
	assert_string_equal(j->debug[1].file, "\xff");
	assert_int_equal(j->samples_nr, 1);
	assert_int_equal(j->samples[0].ev, 0);
	assert_int_equal(j->samples[0].off, 0x11);
	assert_int_equal(j->samples[0].samples, 6);
	assert_int_equal(j->samples[0].period, 6000);

	assert_int_equal(n->kind, HB_KIND_NATIVE);
	assert_int_equal(n->addr, 0x401000);
	assert_int_equal(n->sym_start, 0x1000);
	assert_string_equal(n->path, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	assert_string_equal(n->name, every_byte);
	assert_int_equal(n->code_nr, 3);
	assert_memory_equal(n->code, "\xc3\x90\xcc", 3);
	assert_int_equal(n->samples_nr, 1);
	assert_int_equal(n->samples[0].off, 0x1);
	assert_int_equal(n->samples[0].samples, 4);
	stream__release(&s);
}

static void sections_of_one_recording_merge(void **state)
{
	struct stream s;

	/* Two sections (as `cat a.hbs b.hbs` gives): the same objects, summed. */
	round_trip(&s, 2);
	assert_int_equal(s.sections, 2);
	assert_int_equal(s.objects_nr, 2);
	assert_int_equal(s.events[0].samples[HB_CLASS_ALL], 10 + 11);
	assert_int_equal(s.events[0].samples[HB_CLASS_JIT], 6 + 7);
	assert_int_equal(s.objects[0].samples_nr, 1);
	assert_int_equal(s.objects[0].samples[0].samples, 6 + 7);
	assert_int_equal(s.objects[0].samples[0].period, 13000);
	assert_int_equal(s.objects[1].samples[0].samples, 4 + 4);
	/* Each distinct warning once. */
	assert_int_equal(s.warnings_nr, 2);
	stream__release(&s);
}

/*
 * The audit's case: a JIT function whose name is 360 KB of CJK (120,000 x
 * U+6F22) beside an ordinary one. The stream stays readable: the long name
 * comes back cut at a character boundary, marked, with its full length; the
 * other object and every count come back whole.
 */
static void a_360_kb_name_comes_back_shortened_and_nothing_else_is_lost(void **state)
{
	enum { N = 360000 };
	char *huge = malloc(N + 1), *text = NULL, err[512] = "";
	size_t len = 0;
	uint64_t totals[1][HB_CLASS__NR][2] = { 0 };
	static uint8_t code[4] = { 0x90, 0x90, 0x90, 0xc3 };
	struct stream s;
	FILE *f;

	assert_non_null(huge);
	for (size_t i = 0; i < N; i++)
		huge[i] = "\xe6\xbc\xa2"[i % 3];
	huge[N] = 0;
	totals[0][HB_CLASS_ALL][0] = totals[0][HB_CLASS_JIT][0] = 5;
	const struct stream_writer_header h = {
		.producer = "hotblocks.so/1", .input = "perf.data", .events = (const char *const[]){ "cpu-clock" },
		.events_nr = 1, .totals = (const uint64_t(*)[HB_CLASS__NR][2])totals,
	};
	struct stream_writer_object objs[] = {
		{ .kind = HB_KIND_JIT, .id = 1, .pid = 7, .e_machine = 62, .addr = 0x1000, .size = 4,
		  .name = huge, .code = code, .code_len = 4, .code_index = 1, .load_time = 5, .dump = "jit-7.dump" },
		{ .kind = HB_KIND_JIT, .id = 2, .pid = 7, .e_machine = 62, .addr = 0x2000, .size = 4,
		  .name = "small", .code = code, .code_len = 4, .code_index = 2, .load_time = 6, .dump = "jit-7.dump" },
	};
	const struct tally_entry counts[] = {
		{ .obj = 1, .ev = 0, .off = 3, .samples = 3, .period = 3 },
		{ .obj = 2, .ev = 0, .off = 1, .samples = 2, .period = 2 },
	};

	f = open_memstream(&text, &len);
	assert_non_null(f);
	assert_int_equal(stream_writer__write(f, &h, objs, 2, counts, 2), 0);
	assert_int_equal(fclose(f), 0);
	f = fmemopen(text, len, "r");
	assert_non_null(f);
	stream__init(&s);
	if (stream__read(&s, f, "long.hbs", err, sizeof(err)))
		fail_msg("the reader refused the writer's stream: %s", err);
	assert_int_equal(stream__finish(&s), 0);
	assert_int_equal(s.lost_nr, 0);
	assert_int_equal(s.objects_nr, 2);
	const struct stream_object *l = &s.objects[0], *o = &s.objects[1];
	size_t cut = strlen(l->name) - strlen(HB_STREAM_SHORTENED);

	assert_int_equal(l->name_length, N);
	assert_true(cut % 3 == 0 && cut > 1000);
	assert_memory_equal(l->name, huge, cut);
	assert_string_equal(l->name + cut, HB_STREAM_SHORTENED);
	assert_int_equal(l->samples_nr, 1);
	assert_int_equal(l->samples[0].samples, 3);
	assert_string_equal(o->name, "small");
	assert_int_equal(o->name_length, 0);
	assert_int_equal(o->samples[0].samples, 2);
	assert_int_equal(s.events[0].samples[HB_CLASS_ALL], 5);
	stream__release(&s);
	fclose(f);
	free(text);
	free(huge);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_field_comes_back),
		cmocka_unit_test(sections_of_one_recording_merge),
		cmocka_unit_test(a_360_kb_name_comes_back_shortened_and_nothing_else_is_lost),
	};

	for (int i = 1; i < 256; i++)
		every_byte[i - 1] = (char)i;
	return cmocka_run_group_tests(tests, NULL, NULL);
}

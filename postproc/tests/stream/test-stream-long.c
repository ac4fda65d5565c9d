/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the annotated stream reader (postproc/stream/) on long
 * lines and long streams: STREAM.md "Lines" (a line at the limit is read,
 * a longer one loses its record alone, or is refused where it makes the
 * sections; shortened strings keep their full length), lines across the
 * read buffer, many samples merged, memory reused between sections.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <malloc.h>

#include <cmocka.h>

#include "stream/stream.h"
#include "stream-check.h"

/* A line of n bytes: prefix, then x up to n. Caller frees. */
static char *long_line(const char *prefix, size_t n)
{
	char *line = malloc(n + 1);

	assert_non_null(line);
	assert_true(strlen(prefix) <= n);
	memcpy(line, prefix, strlen(prefix));
	memset(line + strlen(prefix), 'x', n - strlen(prefix));
	line[n] = '\0';
	return line;
}

/* STREAM.md "Lines": HB_STREAM_LINE_MAX bytes are a line; one more loses its record only. */
static void a_line_at_the_limit_is_read_and_one_past_it_is_lost(void **state)
{
	char *at = long_line("warning a", HB_STREAM_LINE_MAX), *past = long_line("warning b", HB_STREAM_LINE_MAX + 1);
	char *text = malloc(3 * HB_STREAM_LINE_MAX);
	struct stream s;

	assert_non_null(text);
	sprintf(text, "hotblocks-stream 1\n%s\n%s\nevent 0 e\nend\n", at, past);
	stream__init(&s);
	assert_int_equal(read_text(&s, text), 0);
	assert_int_equal(s.warnings_nr, 1);
	assert_int_equal(strlen(s.warnings[0].text), HB_STREAM_LINE_MAX - strlen("warning "));
	assert_int_equal(s.events_nr, 1);
	assert_int_equal(s.lost_nr, 1);
	assert_string_equal(s.lost[0].origin, "t.hbs");
	assert_int_equal(s.lost[0].line, 3);
	assert_int_equal(s.lost[0].bytes, HB_STREAM_LINE_MAX + 1);
	assert_string_equal(s.lost[0].kind, "warning");
	assert_false(s.lost[0].has_id);
	assert_int_equal(s.lost_lines, 0);
	stream__release(&s);
	free(text);
	free(at);
	free(past);
}

/*
 * The audit's case: a 1 MB `object` line (a 360 KB name, escaped) in the
 * middle of a section. Its object, and the code, debug and sample lines that
 * name it, are lost and counted; everything else is read.
 */
static void an_overlong_object_loses_itself_and_its_lines_only(void **state)
{
	char *obj = long_line("object 1 jit pid=7 e_machine=62 addr=0x2000 size=16 code-index=4 "
			      "load-time=99 dump=/tmp/jit-7.dump name=", 1081234);
	char *text = malloc(1081234 + 4096);
	struct stream s;

	assert_non_null(text);
	sprintf(text, "hotblocks-stream 1\nevent 0 e\ntotal 0 all 12 12\ntotal 0 jit 12 12\n"
		OBJ_JIT(0, "") "%s\n" OBJ_JIT(2, "")
		"code 1 0x0 b900\ndebug 1 0x2000 3 0 a.js\nsample 1 0 0x1 7 7\n"
		"code 0 0x0 b900\nsample 0 0 0x1 2 2\nsample 2 0 0x1 3 3\nend\n"
		"hotblocks-stream 1\nevent 0 e\n" OBJ_JIT(1, "") "sample 1 0 0x1 4 4\nend\n", obj);
	stream__init(&s);
	assert_int_equal(read_text(&s, text), 0);
	assert_int_equal(stream__finish(&s), 0);
	assert_int_equal(s.sections, 2);
	assert_int_equal(s.events[0].samples[HB_CLASS_ALL], 12);
	/* Objects 0 and 2 of the first section (one identity) and the second section's 1. */
	assert_int_equal(s.objects_nr, 1);
	assert_int_equal(s.objects[0].code_nr, 2);
	assert_int_equal(s.objects[0].samples_nr, 1);
	assert_int_equal(s.objects[0].samples[0].samples, 2 + 3 + 4);
	assert_int_equal(s.lost_nr, 1);
	assert_int_equal(s.lost[0].line, 6);
	assert_int_equal(s.lost[0].bytes, 1081234);
	assert_string_equal(s.lost[0].kind, "object");
	assert_true(s.lost[0].has_id);
	assert_int_equal(s.lost[0].id, 1);
	assert_int_equal(s.lost[0].lines, 3);
	assert_int_equal(s.lost[0].samples, 7);
	assert_int_equal(s.lost_lines, 3);
	assert_int_equal(s.lost_samples, 7);
	stream__release(&s);
	free(text);
	free(obj);
}

static void an_overlong_event_loses_its_totals_and_samples(void **state)
{
	char *ev = long_line("event 1 ", HB_STREAM_LINE_MAX + 10);
	char *text = malloc(HB_STREAM_LINE_MAX + 4096);
	struct stream s;

	assert_non_null(text);
	sprintf(text, "hotblocks-stream 1\nevent 0 e\n%s\ntotal 0 all 5 5\ntotal 1 all 6 6\n"
		OBJ_JIT(0, "") "sample 0 1 0x1 6 6\nsample 0 0 0x1 5 5\nend\n", ev);
	stream__init(&s);
	assert_int_equal(read_text(&s, text), 0);
	assert_int_equal(stream__finish(&s), 0);
	assert_int_equal(s.events_nr, 1);
	assert_int_equal(s.events[0].samples[HB_CLASS_ALL], 5);
	assert_int_equal(s.objects[0].samples_nr, 1);
	assert_int_equal(s.objects[0].samples[0].samples, 5);
	assert_int_equal(s.lost_nr, 1);
	assert_string_equal(s.lost[0].kind, "event");
	assert_int_equal(s.lost[0].lines, 2);
	assert_int_equal(s.lost[0].samples, 6);
	stream__release(&s);
	free(text);
	free(ev);
}

static void overlong_lines_that_make_the_sections_are_refused(void **state)
{
	char *line = long_line("", HB_STREAM_LINE_MAX + 1), *text = malloc(3 * HB_STREAM_LINE_MAX);

	assert_non_null(text);
	/* Not a stream at all (say a perf.data given by mistake). */
	sprintf(text, "%s\nhotblocks-stream 1\nend\n", line);
	refused(text, "t.hbs:1: line of 65537 bytes, longer than a stream's lines can be (65536) (not a hotblocks stream?)");
	free(line);
	line = long_line("end ", HB_STREAM_LINE_MAX + 1);
	sprintf(text, "hotblocks-stream 1\n%s\n", line);
	refused(text, "t.hbs:2: line of 65537 bytes, longer than a stream's lines can be (65536)");
	/* A cut stream stays a cut stream, however long its last line. */
	sprintf(text, "hotblocks-stream 1\n%s", line);
	refused(text, "t.hbs:2: last line has no newline (truncated stream?)");
	free(line);
	free(text);
}

/* STREAM.md "Lines": the writer's shortened strings carry their full length. */
static void full_lengths_of_shortened_strings_are_kept(void **state)
{
	struct stream s;

	stream__init(&s);
	assert_int_equal(read_text(&s, "hotblocks-stream 1\n"
				   OBJ_JIT(0, " name-length=368645 dump-length=20000")
				   "object 1 native pid=1 e_machine=62 addr=0x10 size=4 dso=/a%E2%80%A6 "
				   "sym-start=0x20 name=f dso-length=5000\n"
				   "end\n"), 0);
	assert_int_equal(s.objects[0].name_length, 368645);
	assert_int_equal(s.objects[0].path_length, 20000);
	assert_int_equal(s.objects[1].name_length, 0);
	assert_int_equal(s.objects[1].path_length, 5000);
	stream__release(&s);
}

static void lines_near_the_buffer_size_are_read(void **state)
{
	/* A line that straddles the reader's first 64 KiB buffer, at the limit. */
	char *line = long_line("warning ", HB_STREAM_LINE_MAX);
	char *text = malloc(HB_STREAM_LINE_MAX + 64);
	struct stream s;

	assert_non_null(text);
	sprintf(text, "hotblocks-stream 1\n%s\nevent 0 e\nend\n", line);
	stream__init(&s);
	assert_int_equal(read_text(&s, text), 0);
	assert_int_equal(s.events_nr, 1);
	assert_int_equal(s.lost_nr, 0);
	stream__release(&s);
	free(text);
	free(line);
}

/* text read, its one object has offsets 0, 3, ... 14997 in order, each
 * with 2 samples and a period of 4 (two samples of 1 and 2 summed); frees text. */
static void read_offsets_twice(char *text)
{
	struct stream s;

	stream__init(&s);
	assert_int_equal(read_text(&s, text), 0);
	assert_int_equal(stream__finish(&s), 0);
	assert_int_equal(s.objects[0].samples_nr, 5000);
	for (size_t i = 0; i < 5000; i++) {
		assert_int_equal(s.objects[0].samples[i].off, i * 3);
		assert_int_equal(s.objects[0].samples[i].samples, 2);
		assert_int_equal(s.objects[0].samples[i].period, 4);
	}
	stream__release(&s);
	free(text);
}

static void many_samples_merge_without_loss(void **state)
{
	/* Enough distinct offsets to grow the hash table several times, twice over. */
	size_t cap = 1 << 20, len = 0, i, k;
	char *text = malloc(cap);

	assert_non_null(text);
	for (k = 0; k < 2; k++) {
		len += (size_t)snprintf(text + len, cap - len, "hotblocks-stream 1\nevent 0 e\n"
					OBJ_JIT(0, ""));
		for (i = 0; i < 5000; i++)
			len += (size_t)snprintf(text + len, cap - len, "sample 0 0 0x%zx 1 2\n",
						i * 3);
		len += (size_t)snprintf(text + len, cap - len, "end\n");
	}
	read_offsets_twice(text);
}

/*
 * Samples out of order (one section descending, the other in a
 * permutation of its offsets): each merge while reading sorts what came
 * since the last one and merges it into what that one left; the result is
 * every offset once, in order, its samples summed, as a sort of the whole.
 */
static void unordered_samples_merge_in_order(void **state)
{
	size_t cap = 1 << 20, len = 0, i;
	char *text = malloc(cap);

	assert_non_null(text);
	len += (size_t)snprintf(text + len, cap - len, "hotblocks-stream 1\nevent 0 e\n" OBJ_JIT(0, ""));
	for (i = 0; i < 5000; i++)
		len += (size_t)snprintf(text + len, cap - len, "sample 0 0 0x%zx 1 2\n", (4999 - i) * 3);
	len += (size_t)snprintf(text + len, cap - len, "end\nhotblocks-stream 1\nevent 0 e\n" OBJ_JIT(0, ""));
	for (i = 0; i < 5000; i++)	/* 7919 is prime to 5000: every offset once */
		len += (size_t)snprintf(text + len, cap - len, "sample 0 0 0x%zx 1 2\n", (i * 7919 % 5000) * 3);
	len += (size_t)snprintf(text + len, cap - len, "end\n");
	read_offsets_twice(text);
}

/*
 * DEBUG_INFO entries are kept from the first section that has them, whatever
 * the memory the reader's tables reuse held before. glibc's M_PERTURB fills
 * every new allocation with 253 ^ 0xff = 2, the value that once made a
 * section-local flag read as "an earlier section supplied them", so the
 * entries vanished. Checked by hand: one object, two entries, then a second
 * section repeating the object with other entries, which must not be added.
 */
static void debug_entries_survive_recycled_memory(void **state)
{
	struct stream s;

	mallopt(M_PERTURB, 253);
	stream__init(&s);
	assert_int_equal(read_text(&s, "hotblocks-stream 1\n"
				   OBJ_JIT(0, "")
				   "object 1 jit pid=7 e_machine=62 addr=0x2000 size=16 code-index=4 "
				   "load-time=99 dump=/tmp/jit-7.dump name=two\n"
				   "debug 0 0x1000 10 0 a.js\n"
				   "debug 0 0x1004 11 0 %FF\n"
				   "debug 1 0x1000 20 0 b.js\n"
				   "end\n"
				   "hotblocks-stream 1\n"
				   OBJ_JIT(5, "")
				   "debug 5 0x1000 99 0 other.js\n"
				   "end\n"), 0);
	mallopt(M_PERTURB, 0);
	assert_int_equal(stream__finish(&s), 0);
	assert_int_equal(s.objects_nr, 2);
	assert_int_equal(s.objects[0].debug_nr, 2);
	assert_int_equal(s.objects[0].debug[0].line, 10);
	assert_string_equal(s.objects[0].debug[0].file, "a.js");
	assert_int_equal(s.objects[0].debug[1].line, 11);
	assert_int_equal(s.objects[1].debug_nr, 1);
	assert_int_equal(s.objects[1].debug[0].line, 20);
	stream__release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_line_at_the_limit_is_read_and_one_past_it_is_lost),
		cmocka_unit_test(an_overlong_object_loses_itself_and_its_lines_only),
		cmocka_unit_test(an_overlong_event_loses_its_totals_and_samples),
		cmocka_unit_test(overlong_lines_that_make_the_sections_are_refused),
		cmocka_unit_test(full_lengths_of_shortened_strings_are_kept),
		cmocka_unit_test(lines_near_the_buffer_size_are_read),
		cmocka_unit_test(many_samples_merge_without_loss),
		cmocka_unit_test(unordered_samples_merge_in_order),
		cmocka_unit_test(debug_entries_survive_recycled_memory),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

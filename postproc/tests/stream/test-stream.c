/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the annotated stream reader (postproc/stream/): records,
 * sections and inputs merged, what is refused; long lines and long streams
 * are test-stream-long.c's.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "stream/stream.h"
#include "stream-check.h"

static void escapes_are_decoded(void **state)
{
	struct stream s;

	stream__init(&s);
	assert_int_equal(read_text(&s, "hotblocks-stream 1\n"
				   "event 0 cpu%2Dclock%25\n"
				   "object 0 native pid=1 e_machine=62 addr=0x10 size=4 "
				   "dso=/a%20b/lib%0A.so sym-start=0x20 name=f%C3%A9%7F%25x=\n"
				   "end\n"), 0);
	assert_int_equal(stream__finish(&s), 0);
	assert_int_equal(s.events_nr, 1);
	assert_string_equal(s.events[0].name, "cpu-clock%");
	assert_int_equal(s.objects_nr, 1);
	assert_string_equal(s.objects[0].path, "/a b/lib\n.so");
	assert_string_equal(s.objects[0].name, "f\xc3\xa9\x7f%x=");
	assert_int_equal(s.objects[0].kind, HB_KIND_NATIVE);
	assert_int_equal(s.objects[0].sym_start, 0x20);
	stream__release(&s);
}

static void empty_string_is_allowed(void **state)
{
	struct stream s;

	stream__init(&s);
	assert_int_equal(read_text(&s, "hotblocks-stream 1\n"
				   "object 0 cwasm pid=1 e_machine=62 addr=0x10 size=4 "
				   "dso= sym-start=0x0 name=\n"
				   "end\n"), 0);
	assert_string_equal(s.objects[0].path, "");
	assert_string_equal(s.objects[0].name, "");
	assert_int_equal(s.objects[0].kind, HB_KIND_CWASM);
	stream__release(&s);
}

static void bad_escapes_are_refused(void **state)
{
	refused("hotblocks-stream 1\nevent 0 a%G0\nend\n", "t.hbs:2: event name: bad %-escape");
	refused("hotblocks-stream 1\nevent 0 a%2\nend\n", "t.hbs:2: event name: bad %-escape");
	refused("hotblocks-stream 1\nevent 0 a%00b\nend\n", "t.hbs:2: event name: NUL byte");
}

static void two_sections_are_merged(void **state)
{
	struct stream s;
	const struct stream_object *a, *b;

	stream__init(&s);
	/* Local ids differ between sections; identity (dump, code-index, load-time, addr) does not. */
	assert_int_equal(read_text(&s, "hotblocks-stream 1\n"
				   "event 0 cycles\n"
				   "event 1 instructions\n"
				   "total 0 all 100 1000\n"
				   "total 0 jit 60 600\n"
				   "total 1 all 7 70\n"
				   OBJ_JIT(0, "")
				   "code 0 0x0 b900000000\n"
				   "sample 0 0 0x0 40 400\n"
				   "sample 0 0 0x5 20 200\n"
				   "sample 0 1 0x5 7 70\n"
				   "end\n"
				   "hotblocks-stream 1\n"
				   "event 0 instructions\n"
				   "event 1 cycles\n"
				   "total 1 all 50 500\n"
				   "total 1 jit 5 50\n"
				   "object 0 native pid=7 e_machine=62 addr=0x2000 size=8 dso=/lib.so "
				   "sym-start=0x40 name=beta\n"
				   OBJ_JIT(3, "")
				   "code 3 0x0 b900000000ffc1\n"
				   "sample 0 1 0x2 9 90\n"
				   "sample 3 1 0x5 1 10\n"
				   "sample 3 1 0x7 4 40\n"
				   "end\n"), 0);
	assert_int_equal(stream__finish(&s), 0);
	assert_int_equal(s.sections, 2);
	assert_int_equal(s.events_nr, 2);
	assert_string_equal(s.events[0].name, "cycles");
	assert_int_equal(s.events[0].samples[HB_CLASS_ALL], 150);
	assert_int_equal(s.events[0].period[HB_CLASS_ALL], 1500);
	assert_int_equal(s.events[0].samples[HB_CLASS_JIT], 65);
	assert_int_equal(s.events[1].samples[HB_CLASS_ALL], 7);
	assert_int_equal(s.objects_nr, 2);
	a = &s.objects[0];
	b = &s.objects[1];
	assert_string_equal(a->name, "alpha");
	assert_string_equal(b->name, "beta");
	/* The second section had more code bytes, the common ones agree. */
	assert_int_equal(a->code_nr, 7);
	assert_memory_equal(a->code, "\xb9\x00\x00\x00\x00\xff\xc1", 7);
	/* (ev, off) sorted, equal keys summed. */
	assert_int_equal(a->samples_nr, 4);
	assert_int_equal(a->samples[0].ev, 0);
	assert_int_equal(a->samples[0].off, 0);
	assert_int_equal(a->samples[0].samples, 40);
	assert_int_equal(a->samples[1].off, 5);
	assert_int_equal(a->samples[1].samples, 21);
	assert_int_equal(a->samples[1].period, 210);
	assert_int_equal(a->samples[2].off, 7);
	assert_int_equal(a->samples[2].samples, 4);
	assert_int_equal(a->samples[3].ev, 1);
	assert_int_equal(a->samples[3].samples, 7);
	assert_int_equal(b->samples_nr, 1);
	assert_int_equal(b->samples[0].ev, 0);
	assert_int_equal(b->samples[0].samples, 9);
	assert_int_equal(stream__find_event(&s, "instructions"), 1);
	assert_int_equal(stream__find_event(&s, "nope"), -1);
	stream__release(&s);
}

/* fakejit-style CODE_MOVE: object 1 is object 0's code at another address. */
static void moved_code_is_folded_into_the_original(void **state)
{
	static const char sec[] =
		"hotblocks-stream 1\nevent 0 e\ntotal 0 all 10 10\n"
		"object 0 jit pid=1 e_machine=62 addr=0x1000 size=2 code-index=2 load-time=5 dump=/d name=gamma\n"
		"code 0 0x0 90c3\n"
		"object 1 jit pid=1 e_machine=62 addr=0x2040 size=2 code-index=2 load-time=9 dump=/d name=gamma\n"
		"code 1 0x0 90c3\n"
		"object 2 jit pid=1 e_machine=62 addr=0x3000 size=2 code-index=3 load-time=9 dump=/d name=other\n"
		"code 2 0x0 90c3\n"
		"sample 0 0 0x0 3 3\nsample 1 0 0x0 4 4\nsample 1 0 0x1 1 1\nsample 2 0 0x0 2 2\nend\n";
	struct stream s;

	stream__init(&s);
	assert_int_equal(read_text(&s, sec), 0);
	assert_int_equal(stream__finish(&s), 0);
	assert_int_equal(s.objects[1].moved_into, 0);
	assert_int_equal(s.objects[0].moves, 1);
	/* Another code_index with the same bytes is other code. */
	assert_int_equal(s.objects[2].moved_into, UINT32_MAX);
	assert_int_equal(s.objects[0].samples_nr, 2);
	assert_int_equal(s.objects[0].samples[0].samples, 7);
	assert_int_equal(s.objects[0].samples[1].samples, 1);
	assert_int_equal(s.objects[1].samples_nr, 0);
	assert_int_equal(s.objects[2].samples[0].samples, 2);
	stream__release(&s);
}

static void files_are_merged(void **state)
{
	static const char sec[] = "hotblocks-stream 1\nevent 0 e\ntotal 0 all 3 3\n"
				  OBJ_JIT(0, "") "sample 0 0 0x1 3 3\nend\n";
	struct stream s;

	stream__init(&s);
	assert_int_equal(read_text(&s, sec), 0);
	assert_int_equal(read_text(&s, sec), 0);
	assert_int_equal(stream__finish(&s), 0);
	assert_int_equal(s.objects_nr, 1);
	assert_int_equal(s.objects[0].samples_nr, 1);
	assert_int_equal(s.objects[0].samples[0].samples, 6);
	assert_int_equal(s.events[0].samples[HB_CLASS_ALL], 6);
	stream__release(&s);
}

static void different_identity_is_another_object(void **state)
{
	struct stream s;

	stream__init(&s);
	/* Same name and code index, later load-time: a re-load, so a new object. */
	assert_int_equal(read_text(&s, "hotblocks-stream 1\n" OBJ_JIT(0, "")
				   "object 1 jit pid=7 e_machine=62 addr=0x1000 size=16 code-index=3 "
				   "load-time=100 dump=/tmp/jit-7.dump name=alpha\n"
				   "end\n"), 0);
	assert_int_equal(s.objects_nr, 2);
	stream__release(&s);
}

static void unknown_kinds_are_skipped_and_counted(void **state)
{
	struct stream s;

	stream__init(&s);
	assert_int_equal(read_text(&s, "# a comment\n\nhotblocks-stream 1\n"
				   "flux-capacitor 1 2 3\n"
				   "event 0 e\n"
				   "total 0 all 5 5\n"
				   "total 0 unattributed.new-class 1 1\n"
				   "object 0 interp pid=1 whatever=1\n"
				   "code 0 0x0 00\n"
				   "sample 0 0 0x0 1 1\n"
				   OBJ_JIT(1, " future=yes")
				   "sample 1 0 0x0 4 4 weight=2\n"
				   "another-kind\n"
				   "end\n"), 0);
	assert_int_equal(stream__finish(&s), 0);
	assert_int_equal(s.skipped_kinds, 2);
	assert_int_equal(s.skipped_classes, 1);
	assert_int_equal(s.skipped_objects, 1);
	assert_int_equal(s.skipped_object_lines, 2);
	assert_int_equal(s.objects_nr, 1);
	assert_int_equal(s.objects[0].samples[0].samples, 4);
	stream__release(&s);
}

static void newer_major_version_is_refused(void **state)
{
	refused("# written by a newer plugin\nhotblocks-stream 2\nend\n",
		"t.hbs:2: stream version 2 is not supported (this hotblocks reads version 1)");
	refused("hotblocks-stream 1\nend\nhotblocks-stream 10\nend\n",
		"t.hbs:3: stream version 10 is not supported");
	refused("hotblocks-stream x\nend\n", "t.hbs:1: stream version: 'x' is not");
}

static void truncated_section_is_refused(void **state)
{
	refused("hotblocks-stream 1\nevent 0 e\n", "t.hbs:2: truncated stream: the section started "
		"at line 1 has no 'end'");
	refused("hotblocks-stream 1\nend\nhotblocks-stream 1\nevent 0 e\nhotblocks-stream 1\nend\n",
		"t.hbs:5: new section before the end of the one started at line 3");
	refused("hotblocks-stream 1\nevent 0 e\nen", "t.hbs:3: last line has no newline");
}

static void not_a_stream_is_refused(void **state)
{
	refused("", "t.hbs+0x0: empty input: no 'hotblocks-stream' section");
	refused("# only a comment\n", "t.hbs:1: no 'hotblocks-stream' section in its 1 line");
	refused("  7f00 fib+0x3 (/tmp/x.cwasm)\n",
		"t.hbs:1: expected 'hotblocks-stream 1' (not a hotblocks stream?)");
	refused("# c\nevent 0 e\n", "t.hbs:2: expected 'hotblocks-stream 1'");
	refused("hotblocks-stream 1\nend\nend\n", "t.hbs:3: 'end' outside a section");
}

static void malformed_numbers_are_refused(void **state)
{
	refused("hotblocks-stream 1\nevent 0 e\ntotal 0 all 1x 0\nend\n",
		"t.hbs:3: samples: '1x' is not an unsigned decimal number");
	refused("hotblocks-stream 1\nevent 0 e\ntotal 0 all -1 0\nend\n",
		"t.hbs:3: samples: '-1' is not");
	refused("hotblocks-stream 1\nevent 0 e\ntotal 0 all 18446744073709551616 0\nend\n",
		"t.hbs:3: samples: 18446744073709551616 is out of range");
	refused("hotblocks-stream 1\nevent 0 e\ntotal 0 all  0\nend\n",
		"t.hbs:3: samples: empty number");
	refused("hotblocks-stream 1\nevent 0 e\n" OBJ_JIT(0, "") "sample 0 0 7 1 1\nend\n",
		"t.hbs:4: sample offset: '7' is not a 0x-prefixed hex number");
	refused("hotblocks-stream 1\nevent 0 e\n" OBJ_JIT(0, "") "sample 0 0 0x 1 1\nend\n",
		"t.hbs:4: sample offset: '0x' is not");
	refused("hotblocks-stream 1\nevent 0 e\n" OBJ_JIT(0, "")
		"sample 0 0 0x10000000000000000 1 1\nend\n",
		"t.hbs:4: sample offset: 0x10000000000000000 is out of range");
	refused("hotblocks-stream 1\nobject 0 jit pid=7 e_machine=62 addr=0x1000 size=1e3 "
		"code-index=3 load-time=99 dump=d name=n\nend\n", "t.hbs:2: size: '1e3' is not");
	refused("hotblocks-stream 1\nobject 0 jit pid=4294967296 e_machine=62 addr=0x1000 size=1 "
		"code-index=3 load-time=99 dump=d name=n\nend\n", "t.hbs:2: object 0: pid");
}

static void malformed_records_are_refused(void **state)
{
	refused("hotblocks-stream 1\nevent 0 e\ntotal 0 all 1\nend\n",
		"t.hbs:3: 'total' record: 3 fields, expected 4");
	refused("hotblocks-stream 1\nevent 0 e\ntotal 0 all 1 1 junk\nend\n",
		"t.hbs:3: 'total' record: unexpected field 'junk'");
	refused("hotblocks-stream 1\nevent 0 e\ntotal 1 all 1 1\nend\n",
		"t.hbs:3: event 1 was not defined in this section");
	refused("hotblocks-stream 1\nevent 0 e\nevent 0 f\nend\n",
		"t.hbs:3: event 0 defined twice");
	refused("hotblocks-stream 1\nevent 0 e\nsample 0 0 0x0 1 1\nend\n",
		"t.hbs:3: object 0 was not defined in this section");
	/* Ids are local to their section. */
	refused("hotblocks-stream 1\nevent 0 e\n" OBJ_JIT(0, "") "end\n"
		"hotblocks-stream 1\nevent 0 e\nsample 0 0 0x0 1 1\nend\n",
		"t.hbs:7: object 0 was not defined");
	refused("hotblocks-stream 1\n" OBJ_JIT(0, "") OBJ_JIT(0, "") "end\n",
		"t.hbs:3: object 0 defined twice");
	refused("hotblocks-stream 1\nobject 0 jit pid=7 e_machine=62 size=16 code-index=3 "
		"load-time=99 dump=/tmp/jit-7.dump name=alpha\nend\n",
		"t.hbs:2: object 0: no 'addr=' field");
	refused("hotblocks-stream 1\nobject 0 native pid=1 e_machine=62 addr=0x10 size=4 "
		"dso=x name=f\nend\n", "t.hbs:2: object 0: no 'sym-start=' field");
	refused("hotblocks-stream 1\n" OBJ_JIT(0, " size=3") "end\n",
		"t.hbs:2: object 0: field 'size' given twice");
	refused("hotblocks-stream 1\n" OBJ_JIT(0, " oops") "end\n",
		"t.hbs:2: 'object' record: unexpected field 'oops'");
	refused("hotblocks-stream 1\nend extra\n", "t.hbs:2: 'end' takes no fields");
}

static void code_with_a_gap_is_refused(void **state)
{
	refused("hotblocks-stream 1\n" OBJ_JIT(0, "") "code 0 0x0 b900\ncode 0 0x4 00\nend\n",
		"t.hbs:4: code of object 0: chunk at 0x4, expected 0x2 (gap)");
	refused("hotblocks-stream 1\n" OBJ_JIT(0, "") "code 0 0x2 b900\nend\n",
		"t.hbs:3: code of object 0: chunk at 0x2, expected 0x0 (gap)");
	refused("hotblocks-stream 1\n" OBJ_JIT(0, "") "code 0 0x0 b900\ncode 0 0x1 00\nend\n",
		"t.hbs:4: code of object 0: chunk at 0x1, expected 0x2 (overlap)");
	refused("hotblocks-stream 1\n" OBJ_JIT(0, "")
		"code 0 0x0 00112233445566778899aabbccddeeff00\nend\n",
		"t.hbs:3: code of object 0 runs past its size 16");
	refused("hotblocks-stream 1\n" OBJ_JIT(0, "") "code 0 0x0 b90\nend\n",
		"t.hbs:3: code bytes: odd number of hex digits");
	refused("hotblocks-stream 1\n" OBJ_JIT(0, "") "code 0 0x0 b9zz\nend\n",
		"t.hbs:3: code bytes: 'z' is not a hex digit");
	refused("hotblocks-stream 1\n" OBJ_JIT(0, "") "code 0 0x0 b900\nend\n"
		"hotblocks-stream 1\n" OBJ_JIT(5, "") "code 5 0x0 b901\nend\n",
		"t.hbs:7: code of object 5 at 0x1 differs from an earlier section's");
}

static void code_chunks_are_joined(void **state)
{
	struct stream s;
	char line[256], text[2048];
	uint8_t want[130];
	int i;

	/* Three chunks, the largest the writer makes, then a short one. */
	snprintf(text, sizeof(text), "hotblocks-stream 1\nobject 0 native pid=1 e_machine=62 "
		 "addr=0x10 size=200 dso=x sym-start=0x0 name=f\n");
	for (i = 0; i < 130; i++)
		want[i] = (uint8_t)(i * 7);
	for (i = 0; i < 130; i += HB_STREAM_CODE_CHUNK) {
		int n = 130 - i < HB_STREAM_CODE_CHUNK ? 130 - i : HB_STREAM_CODE_CHUNK, k;
		size_t len = (size_t)snprintf(line, sizeof(line), "code 0 0x%x ", i);

		for (k = 0; k < n; k++)
			len += (size_t)snprintf(line + len, sizeof(line) - len, "%02x", want[i + k]);
		strcat(text, line);
		strcat(text, "\n");
	}
	strcat(text, "end\n");
	stream__init(&s);
	assert_int_equal(read_text(&s, text), 0);
	assert_int_equal(s.objects[0].code_nr, 130);
	assert_memory_equal(s.objects[0].code, want, 130);
	stream__release(&s);
}

/* One section of an object line and a sample: what conflicting inputs are made of. */
#define SECTION(obj) "hotblocks-stream 1\nevent 0 cycles\n" obj "sample 0 0 0x0 1 1\nend\n"

/*
 * The same object (by identity) in two sections must agree on what describes
 * its code; otherwise one section's bytes would be shown with the other's
 * machine or name. Each case checked by hand against STREAM.md's identity.
 */
static void conflicting_metadata_is_refused(void **state)
{
	refused(SECTION(OBJ_JIT(0, "")) SECTION("object 0 jit pid=7 e_machine=183 addr=0x1000 size=16 "
		"code-index=3 load-time=99 dump=/tmp/jit-7.dump name=alpha\n"),
		"t.hbs:8: object 0 (alpha): e_machine 183 conflicts with e_machine 62 of the same object at t.hbs:3");
	refused(SECTION(OBJ_JIT(0, "")) SECTION("object 0 jit pid=7 e_machine=62 addr=0x1000 size=32 "
		"code-index=3 load-time=99 dump=/tmp/jit-7.dump name=alpha\n"),
		"t.hbs:8: object 0 (alpha): size 32 conflicts with size 16");
	refused(SECTION(OBJ_JIT(0, "")) SECTION("object 0 jit pid=8 e_machine=62 addr=0x1000 size=16 "
		"code-index=3 load-time=99 dump=/tmp/jit-7.dump name=alpha\n"),
		"t.hbs:8: object 0 (alpha): pid 8 conflicts with pid 7");
	refused(SECTION(OBJ_JIT(0, "")) SECTION("object 0 jit pid=7 e_machine=62 addr=0x1000 size=16 "
		"code-index=3 load-time=99 dump=/tmp/jit-7.dump name=beta\n"),
		"t.hbs:8: object 0: name 'beta' conflicts with 'alpha' of the same code load at t.hbs:3");
	refused(SECTION("object 0 native pid=1 e_machine=62 addr=0x10 size=4 dso=/lib.so sym-start=0x20 name=f\n")
		SECTION("object 0 native pid=1 e_machine=183 addr=0x10 size=4 dso=/lib.so sym-start=0x20 name=f\n"),
		"t.hbs:8: object 0 (f): e_machine 183 conflicts with e_machine 62");
}

/* A native object's pid and address change from run to run: not a conflict. */
static void native_objects_of_two_runs_merge(void **state)
{
	struct stream s;

	stream__init(&s);
	assert_int_equal(read_text(&s,
		SECTION("object 0 native pid=1 e_machine=62 addr=0x10 size=4 dso=/lib.so sym-start=0x20 name=f\n")
		SECTION("object 0 native pid=2 e_machine=62 addr=0x7f10 size=4 dso=/lib.so sym-start=0x20 name=f\n")),
		0);
	assert_int_equal(stream__finish(&s), 0);
	assert_int_equal(s.objects_nr, 1);
	assert_int_equal(s.objects[0].samples[0].samples, 2);
	stream__release(&s);
}

/* The plugin's warning lines are kept (decoded, once per text) for the report. */
static void warnings_are_kept(void **state)
{
	struct stream s;

	stream__init(&s);
	assert_int_equal(read_text(&s, "hotblocks-stream 1\nwarning a%20b\nwarning c\nend\n"
				   "hotblocks-stream 1\nwarning a%20b\nend\n"), 0);
	assert_int_equal(s.warnings_nr, 2);
	assert_string_equal(s.warnings[0].text, "a b");
	assert_string_equal(s.warnings[0].origin, "t.hbs");
	assert_string_equal(s.warnings[1].text, "c");
	stream__release(&s);
}

/* The jitdumps each run read are kept (decoded): inputs no report may replace. */
static void jitdumps_of_each_run_are_kept(void **state)
{
	struct stream s;

	stream__init(&s);
	assert_int_equal(read_text(&s, "hotblocks-stream 1\ninput a.data\n"
				   "jitdump /r/jit-1.dump pid=1 loads=2 status=ok\n"
				   "jitdump /r/jit%202.dump pid=2 loads=0 status=truncated\nend\n"
				   "hotblocks-stream 1\ninput b.data\nend\n"), 0);
	assert_int_equal(s.runs_nr, 2);
	assert_string_equal(s.runs[0].input, "a.data");
	assert_int_equal(s.runs[0].jitdumps_nr, 2);
	assert_string_equal(s.runs[0].jitdumps[0], "/r/jit-1.dump");
	assert_string_equal(s.runs[0].jitdumps[1], "/r/jit 2.dump");
	assert_int_equal(s.runs[1].jitdumps_nr, 0);
	stream__release(&s);
}

/* A file holding "123456789" at offset 2, whose CRC-64/XZ is the check
 * value of the CRC catalogue (0x995dc9bbdf1939fa: independent of liblzma). */
static void code_file_write(const char *path)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs("xx123456789yy", f);
	fclose(f);
}

#define OBJ9 "object 0 jit pid=7 e_machine=62 addr=0x1000 size=9 code-index=3 load-time=99 dump=/tmp/jit-7.dump name=alpha\n"

static void code_file_is_read_and_checked(void **state)
{
	char path[] = "/tmp/hotblocks-code-file-XXXXXX", text[512];
	struct stream s;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	close(fd);
	code_file_write(path);
	snprintf(text, sizeof(text), "hotblocks-stream 1\n" OBJ9 "code-file 0 0x2 9 0x995dc9bbdf1939fa %s\nend\n", path);
	stream__init(&s);
	assert_int_equal(read_text(&s, text), 0);
	assert_int_equal(stream__finish(&s), 0);
	assert_int_equal(s.code_files_read, 1);
	assert_int_equal(s.objects[0].code_nr, 9);
	assert_memory_equal(s.objects[0].code, "123456789", 9);
	assert_int_equal(s.code_file_problems_nr, 0);
	stream__release(&s);

	/* another CRC: not the recorded code; told, and no code */
	snprintf(text, sizeof(text), "hotblocks-stream 1\n" OBJ9 "code-file 0 0x2 9 0x995dc9bbdf1939fb %s\nend\n", path);
	stream__init(&s);
	assert_int_equal(read_text(&s, text), 0);
	assert_int_equal(stream__finish(&s), 0);
	assert_int_equal(s.objects[0].code_nr, 0);
	assert_int_equal(s.code_file_problems_nr, 1);
	assert_non_null(strstr(s.code_file_problems[0], "the code of alpha is not shown"));
	assert_non_null(strstr(s.code_file_problems[0], "CRC-64 differs"));
	stream__release(&s);

	/* a file too short for it: told without reading (or allocating) past its end */
	snprintf(text, sizeof(text), "hotblocks-stream 1\n" OBJ9 "code-file 0 0x8 9 0x995dc9bbdf1939fa %s\nend\n", path);
	stream__init(&s);
	assert_int_equal(read_text(&s, text), 0);
	assert_int_equal(stream__finish(&s), 0);
	assert_int_equal(s.objects[0].code_nr, 0);
	assert_non_null(strstr(s.code_file_problems[0], "ends before the code's end"));
	stream__release(&s);

	/* a FIFO: refused as no regular file, without waiting for a writer */
	{
		char fifo[64] = "/tmp/hotblocks-code-fifo-XXXXXX";

		assert_non_null(mkdtemp(fifo));
		strcat(fifo, "/p");
		assert_int_equal(mkfifo(fifo, 0600), 0);
		snprintf(text, sizeof(text), "hotblocks-stream 1\n" OBJ9 "code-file 0 0x2 9 0x995dc9bbdf1939fa %s\nend\n",
			 fifo);
		stream__init(&s);
		assert_int_equal(read_text(&s, text), 0);
		assert_int_equal(stream__finish(&s), 0);
		assert_int_equal(s.objects[0].code_nr, 0);
		assert_non_null(strstr(s.code_file_problems[0], "not a regular file"));
		stream__release(&s);
		unlink(fifo);
		*strrchr(fifo, '/') = '\0';
		rmdir(fifo);
	}
	/* the named file gone: another copy given (--cwasm) is read */
	{
		const char *also[] = { path };

		stream__init(&s);
		s.code_files_also = also;
		s.code_files_also_nr = 1;
		assert_int_equal(read_text(&s, "hotblocks-stream 1\n" OBJ9
					   "code-file 0 0x2 9 0x995dc9bbdf1939fa /nonexistent/module.cwasm\nend\n"), 0);
		assert_int_equal(stream__finish(&s), 0);
		assert_int_equal(s.objects[0].code_nr, 9);
		assert_int_equal(s.code_file_problems_nr, 0);
		stream__release(&s);
	}
	unlink(path);
}

static void bad_code_files_are_refused(void **state)
{
	refused("hotblocks-stream 1\n" OBJ9 "code-file 0 0x2 10 0x1 /m.cwasm\nend\n",
		"t.hbs:3: code of object 0: 10 bytes in a file, its size is 9");
	refused("hotblocks-stream 1\n" OBJ9 "code 0 0x0 b9\ncode-file 0 0x2 9 0x1 /m.cwasm\nend\n",
		"t.hbs:4: code of object 0: a file named after its code lines");
	refused("hotblocks-stream 1\n" OBJ9 "code-file 0 0x2 9 0x1 \nend\n", "t.hbs:3: code of object 0: no file named");
	refused("hotblocks-stream 1\n" OBJ9 "code-file 0 2 9 0x1 /m.cwasm\nend\n", "t.hbs:3:");
	refused("hotblocks-stream 1\n" OBJ9 "code-file 0 0x2 9 0x1 /m.cwasm\nend\n"
		"hotblocks-stream 1\n" OBJ9 "code-file 0 0x2 9 0x2 /m.cwasm\nend\n",
		"t.hbs:7: code of object 0 (alpha) differs from an earlier section's");
}

static void names_of_enums(void **state)
{
	assert_string_equal(stream__kind_name(HB_KIND_CWASM), "cwasm");
	assert_string_equal(stream__class_name(HB_CLASS_TABLE_FULL), "unattributed.table-full");
	assert_string_equal(stream__class_name(HB_CLASS__NR), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(escapes_are_decoded),
		cmocka_unit_test(empty_string_is_allowed),
		cmocka_unit_test(bad_escapes_are_refused),
		cmocka_unit_test(two_sections_are_merged),
		cmocka_unit_test(moved_code_is_folded_into_the_original),
		cmocka_unit_test(files_are_merged),
		cmocka_unit_test(different_identity_is_another_object),
		cmocka_unit_test(unknown_kinds_are_skipped_and_counted),
		cmocka_unit_test(newer_major_version_is_refused),
		cmocka_unit_test(truncated_section_is_refused),
		cmocka_unit_test(not_a_stream_is_refused),
		cmocka_unit_test(malformed_numbers_are_refused),
		cmocka_unit_test(malformed_records_are_refused),
		cmocka_unit_test(code_with_a_gap_is_refused),
		cmocka_unit_test(code_chunks_are_joined),
		cmocka_unit_test(conflicting_metadata_is_refused),
		cmocka_unit_test(native_objects_of_two_runs_merge),
		cmocka_unit_test(warnings_are_kept),
		cmocka_unit_test(jitdumps_of_each_run_are_kept),
		cmocka_unit_test(code_file_is_read_and_checked),
		cmocka_unit_test(bad_code_files_are_refused),
		cmocka_unit_test(names_of_enums),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

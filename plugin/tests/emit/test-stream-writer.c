// SPDX-License-Identifier: MIT
/*
 * Unit tests of the stream writer (plugin/emit/stream-writer.c). The expected text
 * was written by hand from plugin/STREAM.md: record order, the object order
 * of "Objects are written in a deterministic order", renumbering, string
 * escaping, 64-byte code lines; every line's words are the stream's table
 * (plugin/lib/stream-records.def), in its order. The reader side of the
 * same stream is postproc/tests/stream/test-stream-roundtrip.c.
 */
#define _GNU_SOURCE	/* open_memstream */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "emit/stream-writer.h"

/* A string to write into (open_memstream); memory_text closes it and hands it over. */
struct memory {
	char *text;
	size_t len;
	FILE *f;
};

static FILE *memory_open(struct memory *m)
{
	*m = (struct memory){ 0 };
	m->f = open_memstream(&m->text, &m->len);
	assert_non_null(m->f);
	return m->f;
}

static char *memory_text(struct memory *m)
{
	assert_int_equal(fclose(m->f), 0);
	return m->text;
}

/* Write a section into a string (caller frees). */
static char *write_section(const struct stream_writer_header *h, struct stream_writer_object *objs,
			   size_t nr, const struct tally_entry *counts, size_t counts_nr, int *ret)
{
	struct memory m;

	*ret = stream_writer__write(memory_open(&m), h, objs, nr, counts, counts_nr);
	return memory_text(&m);
}

/* The text of the_section, written by hand from STREAM.md. */
static const char the_section_text[] =
	"hotblocks-stream 1\n"
	"producer hotblocks.so/1\n"
	"input /tmp/my%20data/perf.data\n"
	"time-aware yes\n"
	"event 0 cpu-clock\n"
	"event 1 cycles%25x\n"
	"jitdump /tmp/jit-7.dump pid=7 loads=2 status=ok\n"
	"warning 50%25%20done%09ok\n"
	"total 0 all 5 500\n"
	"total 0 jit 3 300\n"
	"total 0 native 1 100\n"
	"total 0 kernel 1 100\n"
	"total 1 all 0 0\n"
	/* JIT objects first, by pid, then load time: g (100) before JS:f (200). */
	"object 0 jit pid=7 e_machine=62 addr=0x8000 size=4 code-index=1 load-time=100 "
	"dump=/tmp/jit-7.dump name=g\n"
	"object 1 jit pid=7 e_machine=62 addr=0x7f00 size=70 code-index=2 load-time=200 "
	"dump=/tmp/jit-7.dump name=JS:f%20%C3%A9\n"
	"code 1 0x0 000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f\n"
	"code 1 0x40 404142434445\n"
	"debug 1 0x7f00 10 0 a.js\n"
	"debug 1 0x7f10 11 3 %FF\n"
	/* Then the others by DSO: /m.cwasm before /usr/bin/prog. */
	"object 2 cwasm pid=9 e_machine=62 addr=0x0 size=8 dso=/m.cwasm sym-start=0x0 "
	"name=wasm[0]::function[0]\n"
	"object 3 native pid=9 e_machine=62 addr=0x401000 size=32 dso=/usr/bin/prog "
	"sym-start=0x1000 source=symtab name=main\n"
	"code 3 0x0 554889\n"
	"sample 0 0 0x0 1 100\n"
	"sample 1 0 0x10 2 200\n"
	"sample 1 1 0x4 1 7\n"
	"sample 2 0 0x4 1 100\n"
	"sample 3 0 0x2 1 100\n"
	"load pid=7 addr=0x9000 size=16 load-time=300 name=stub%20a\n"
	"map pid=9 addr=0x400000 size=4096 pgoff=0x1000 time=0 dso=/usr/bin/prog build-id=0a0b\n"
	"end\n";

/*
 * A section of every record (its text above): the objects given out of
 * order, with the caller's own ids, into objs (left in stream order).
 */
static char *write_the_section(struct stream_writer_object objs[4], int *ret)
{
	static const char *const events[] = { "cpu-clock", "cycles%x" };
	static const char *const warnings[] = { "50% done\tok" };
	static const struct stream_writer_jitdump dumps[] = {
		{ .path = "/tmp/jit-7.dump", .pid = 7, .loads = 2, .status = "ok" },
	};
	static const struct jitdump_debug_entry debug[] = {
		{ .addr = 0x7f00, .line = 10, .discrim = 0, .file = (char *)"a.js" },
		{ .addr = 0x7f10, .line = 11, .discrim = 3, .file = (char *)"\xff" },
	};
	static const struct stream_writer_load loads[] = {
		{ .pid = 7, .addr = 0x9000, .size = 16, .load_time = 300, .name = "stub a" },
	};
	static const struct stream_writer_map maps[] = {
		{ .pid = 9, .addr = 0x400000, .size = 4096, .pgoff = 0x1000, .path = "/usr/bin/prog",
		  .build_id = (const uint8_t *)"\x0a\x0b", .build_id_size = 2 },
	};
	static const uint8_t main_code[] = { 0x55, 0x48, 0x89 };
	static uint64_t totals[2][HB_CLASS__NR][2];
	static uint8_t f_code[70];

	for (size_t i = 0; i < sizeof(f_code); i++)
		f_code[i] = (uint8_t)i;
	totals[0][HB_CLASS_ALL][0] = 5, totals[0][HB_CLASS_ALL][1] = 500;
	totals[0][HB_CLASS_JIT][0] = 3, totals[0][HB_CLASS_JIT][1] = 300;
	totals[0][HB_CLASS_NATIVE][0] = 1, totals[0][HB_CLASS_NATIVE][1] = 100;
	totals[0][HB_CLASS_KERNEL][0] = 1, totals[0][HB_CLASS_KERNEL][1] = 100;

	const struct stream_writer_header h = {
		.producer = "hotblocks.so/1", .input = "/tmp/my data/perf.data", .time_aware = true,
		.events = events, .events_nr = 2, .totals = (const uint64_t(*)[HB_CLASS__NR][2])totals,
		.jitdumps = dumps, .jitdumps_nr = 1, .warnings = warnings, .warnings_nr = 1,
		.loads = loads, .loads_nr = 1, .maps = maps, .maps_nr = 1,
	};
	const struct stream_writer_object given[] = {
		{ .kind = HB_KIND_NATIVE, .id = 0x80000001, .pid = 9, .e_machine = 62, .addr = 0x401000,
		  .size = 0x20, .name = "main", .code = main_code, .code_len = 3, .dso = "/usr/bin/prog",
		  .sym_start = 0x1000, .source = "symtab" },
		{ .kind = HB_KIND_JIT, .id = 5, .pid = 7, .e_machine = 62, .addr = 0x7f00, .size = 70,
		  .name = "JS:f \xc3\xa9", .code = f_code, .code_len = 70, .code_index = 2, .load_time = 200,
		  .dump = "/tmp/jit-7.dump", .debug = debug, .debug_nr = 2 },
		{ .kind = HB_KIND_JIT, .id = 3, .pid = 7, .e_machine = 62, .addr = 0x8000, .size = 4,
		  .name = "g", .code_index = 1, .load_time = 100, .dump = "/tmp/jit-7.dump" },
		{ .kind = HB_KIND_CWASM, .id = 0x80000000, .pid = 9, .e_machine = 62, .addr = 0, .size = 8,
		  .name = "wasm[0]::function[0]", .dso = "/m.cwasm", .sym_start = 0 },
	};
	/* Sorted by the caller's ids; the last names no object and is dropped. */
	static const struct tally_entry counts[] = {
		{ .obj = 3, .ev = 0, .off = 0x0, .samples = 1, .period = 100 },
		{ .obj = 5, .ev = 0, .off = 0x10, .samples = 2, .period = 200 },
		{ .obj = 5, .ev = 1, .off = 0x4, .samples = 1, .period = 7 },
		{ .obj = 0x80000000, .ev = 0, .off = 0x4, .samples = 1, .period = 100 },
		{ .obj = 0x80000001, .ev = 0, .off = 0x2, .samples = 1, .period = 100 },
		{ .obj = 0x80000002, .ev = 0, .off = 0x0, .samples = 9, .period = 9 },
	};

	memcpy(objs, given, sizeof(given));
	return write_section(&h, objs, 4, counts, 6, ret);
}

static void a_section_is_written_as_the_format_says(void **state)
{
	struct stream_writer_object objs[4];
	int ret;
	char *text = write_the_section(objs, &ret);

	assert_int_equal(ret, 0);
	assert_string_equal(text, the_section_text);
	/* objs is left in stream order. */
	assert_int_equal(objs[0].id, 3);
	assert_int_equal(objs[1].id, 5);
	assert_int_equal(objs[2].id, 0x80000000);
	assert_int_equal(objs[3].id, 0x80000001);
	free(text);
}

/*
 * The line's fields checked against the stream's table (stream-records.def):
 * its kind is a record's, the record's FIELDS come first, then key=value
 * fields that are the record's (for the object's kind), in the table's
 * order, every REQUIRED one there.
 */
static void check_line(char *line)
{
	char *f[64], *save;
	size_t nf = 0, i;
	enum hb_record rec;
	unsigned kinds = HB_KINDS_ALL, k = 0, seen = 0;

	for (char *t = strtok_r(line, " ", &save); t && nf < 64; t = strtok_r(NULL, " ", &save))
		f[nf++] = t;
	rec = hb_record_find(f[0]);
	if (rec == HB_REC__NR)
		fail_msg("'%s' is no record of the table", f[0]);
	assert_true(nf > hb_records[rec].fields);
	for (i = 1; i <= hb_records[rec].fields; i++)
		assert_null(strchr(f[i], '='));
	if (rec == HB_REC_OBJECT)
		kinds = !strcmp(f[2], "jit") ? HB_KINDS_JIT : HB_KINDS_FILE;
	for (; i < nf; i++) {
		char *eq = strchr(f[i], '=');

		assert_non_null(eq);
		*eq = '\0';
		for (; k < HB_FIELD__NR; k++)
			if (hb_fields[k].record == rec && (hb_fields[k].kinds & kinds) &&
			    !strcmp(hb_fields[k].key, f[i]))
				break;
		if (k == HB_FIELD__NR)
			fail_msg("%s: '%s=' is not the table's, or out of its order", f[0], f[i]);
		seen += hb_fields[k].required;
	}
	for (k = 0; k < HB_FIELD__NR; k++)
		if (hb_fields[k].record == rec && (hb_fields[k].kinds & kinds) && hb_fields[k].required)
			seen--;
	assert_int_equal(seen, 0);
}

static void every_record_is_the_tables(void **state)
{
	struct stream_writer_object objs[4];
	int ret;
	char *text = write_the_section(objs, &ret), *line, *nl;

	assert_int_equal(ret, 0);
	for (line = text; (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		check_line(line);
	}
	free(text);
}

/*
 * Branch stacks (STREAM.md `branch-total`, `branch`, `range`), by hand: the
 * totals after `total`, the classes with a count; the counts renamed to the
 * stream's ids (object 21 is 0: /a before /b), sorted (taken edges, then
 * ranges, by ends, event, flags: P is 2, MXA 1 + 4 + 8), the flags as
 * perf's letters, and a count
 * whose end has no object left out.
 */
static void branch_counts_are_written_as_the_format_says(void **state)
{
	uint64_t totals[1][HB_CLASS__NR][2] = { 0 };
	uint64_t branch_totals[1][HB_CLASS__NR][2] = { 0 };
	const struct branch_count counts[] = {
		{ .from_obj = 20, .from_off = 4, .to_obj = 21, .to_off = 0, .kind = BRANCH_TAKEN,
		  .flags = BRANCH_PREDICTED, .count = 7, .cycles_nr = 6, .cycles_sum = 60 },
		{ .from_obj = 21, .from_off = 9, .to_obj = 21, .to_off = 1, .kind = BRANCH_RANGE, .count = 3,
		  .cycles_nr = 2, .cycles_sum = 11 },
		{ .from_obj = 20, .from_off = 4, .to_obj = 21, .to_off = 0, .kind = BRANCH_TAKEN,
		  .flags = BRANCH_MISPRED | BRANCH_IN_TX | BRANCH_ABORT, .count = 1 },
		{ .from_obj = 21, .from_off = 2, .to_obj = 20, .to_off = 0x10, .kind = BRANCH_TAKEN, .count = 2 },
		{ .from_obj = 21, .from_off = 2, .to_obj = 99, .to_off = 0, .kind = BRANCH_TAKEN, .count = 5 },
	};
	struct stream_writer_object objs[] = {
		{ .kind = HB_KIND_NATIVE, .id = 20, .dso = "/b", .name = "f", .pid = 1 },
		{ .kind = HB_KIND_NATIVE, .id = 21, .dso = "/a", .name = "g", .pid = 1 },
	};
	const struct stream_writer_header h = {
		.producer = "p", .events = (const char *const[]){ "e" }, .events_nr = 1,
		.totals = (const uint64_t(*)[HB_CLASS__NR][2])totals,
		.branch_totals = (const uint64_t(*)[HB_CLASS__NR][2])branch_totals,
		.branches = counts, .branches_nr = 5,
	};
	static const char want[] =
		"hotblocks-stream 1\n"
		"producer p\n"
		"input -\n"
		"time-aware no\n"
		"event 0 e\n"
		"total 0 all 0 0\n"
		"branch-total 0 all 16 4\n"
		"branch-total 0 native 10 3\n"
		"branch-total 0 kernel 6 1\n"
		"object 0 native pid=1 e_machine=0 addr=0x0 size=0 dso=/a sym-start=0x0 name=g\n"
		"object 1 native pid=1 e_machine=0 addr=0x0 size=0 dso=/b sym-start=0x0 name=f\n"
		"branch 0 0x2 1 0x10 0 - 2 0 0\n"
		"branch 1 0x4 0 0x0 0 P 7 6 60\n"
		"branch 1 0x4 0 0x0 0 MXA 1 0 0\n"
		"range 0 0x9 0 0x1 0 3 2 11\n"
		"end\n";
	int ret;
	char *text;

	branch_totals[0][HB_CLASS_ALL][0] = 16;
	branch_totals[0][HB_CLASS_ALL][1] = 4;
	branch_totals[0][HB_CLASS_NATIVE][0] = 10;
	branch_totals[0][HB_CLASS_NATIVE][1] = 3;
	branch_totals[0][HB_CLASS_KERNEL][0] = 6;
	branch_totals[0][HB_CLASS_KERNEL][1] = 1;
	text = write_section(&h, objs, 2, NULL, 0, &ret);
	assert_int_equal(ret, 0);
	assert_string_equal(text, want);
	free(text);
}

static void objects_order_by_identity_whatever_the_ids(void **state)
{
	uint64_t totals[1][HB_CLASS__NR][2] = { 0 };
	const struct stream_writer_header h = {
		.producer = "p", .events = (const char *const[]){ "e" }, .events_nr = 1,
		.totals = (const uint64_t(*)[HB_CLASS__NR][2])totals,
	};
	/* JIT: pid, load time, code index, address, then id; natives: DSO,
	 * symbol start, name, pid, then id. */
	struct stream_writer_object objs[] = {
		{ .kind = HB_KIND_NATIVE, .id = 10, .dso = "/b", .sym_start = 1, .name = "x", .pid = 1 },
		{ .kind = HB_KIND_JIT, .id = 11, .pid = 2, .load_time = 1 },
		{ .kind = HB_KIND_NATIVE, .id = 12, .dso = "/a", .sym_start = 2, .name = "x", .pid = 1 },
		{ .kind = HB_KIND_JIT, .id = 13, .pid = 1, .load_time = 5, .code_index = 1 },
		{ .kind = HB_KIND_NATIVE, .id = 14, .dso = "/a", .sym_start = 2, .name = "w", .pid = 1 },
		{ .kind = HB_KIND_JIT, .id = 15, .pid = 1, .load_time = 5, .code_index = 0, .addr = 9 },
		{ .kind = HB_KIND_JIT, .id = 16, .pid = 1, .load_time = 5, .code_index = 0, .addr = 8 },
		{ .kind = HB_KIND_NATIVE, .id = 17, .dso = "/a", .sym_start = 1, .name = "z", .pid = 3 },
		{ .kind = HB_KIND_NATIVE, .id = 18, .dso = "/a", .sym_start = 1, .name = "z", .pid = 2 },
		{ .kind = HB_KIND_JIT, .id = 19, .pid = 1, .load_time = 5, .code_index = 0, .addr = 8 },
	};
	static const uint32_t want[] = { 16, 19, 15, 13, 11, 18, 17, 14, 12, 10 };
	int ret;
	char *text = write_section(&h, objs, 10, NULL, 0, &ret);

	assert_int_equal(ret, 0);
	for (size_t i = 0; i < 10; i++)
		assert_int_equal(objs[i].id, want[i]);
	free(text);
}

/* The decoding every reader does (STREAM.md "Strings"). */
static size_t decode(const char *s, char *out)
{
	size_t n = 0;

	for (; *s; s++) {
		unsigned v;

		if (*s == '%' && sscanf(s + 1, "%2X", &v) == 1) {
			out[n++] = (char)v;
			s += 2;
		} else {
			out[n++] = *s;
		}
	}
	out[n] = 0;
	return n;
}

static void every_byte_survives_escaping(void **state)
{
	char all[256], *text = NULL, back[256];
	size_t len = 0;
	FILE *f;

	for (int i = 1; i < 256; i++)
		all[i - 1] = (char)i;
	all[255] = 0;
	f = open_memstream(&text, &len);
	assert_non_null(f);
	stream_writer__put_string(f, all);
	assert_int_equal(fclose(f), 0);
	/* Nothing a reader splits on, and nothing outside printable ASCII. */
	for (size_t i = 0; i < len; i++)
		assert_true(text[i] > 0x20 && text[i] < 0x7f);
	assert_int_equal(decode(text, back), 255);
	assert_memory_equal(back, all, 255);
	free(text);
}

/* put_string into a new string (caller frees); *full is what it returned. */
static char *put(const char *str, size_t *full)
{
	struct memory m;

	*full = stream_writer__put_string(memory_open(&m), str);
	return memory_text(&m);
}

/* n bytes of c, or of the 3-byte character U+6F22 (漢) when c is 0. Caller frees. */
static char *repeat(char c, size_t n)
{
	char *s = malloc(n + 1);

	assert_non_null(s);
	for (size_t i = 0; i < n; i++)
		s[i] = c ? c : "\xe6\xbc\xa2"[i % 3];
	s[n] = 0;
	return s;
}

/*
 * STREAM.md "Lines": a string is written in at most HB_STREAM_STRING_MAX
 * bytes, escapes counted; past that it is cut where the marker %E2%80%A6
 * (9 bytes) still fits, never inside a UTF-8 character, and its full length
 * is returned. The expected cuts are worked out in the comments.
 */
static void strings_past_the_limit_are_cut_marked_and_measured(void **state)
{
	char *s, *out, back[HB_STREAM_STRING_MAX + 1];
	size_t full;

	/* 16384 plain bytes fit exactly. */
	s = repeat('a', HB_STREAM_STRING_MAX);
	out = put(s, &full);
	assert_int_equal(full, 0);
	assert_string_equal(out, s);
	free(s);
	free(out);
	/* One more: 16375 of them and the marker, 16384 bytes written. */
	s = repeat('a', HB_STREAM_STRING_MAX + 1);
	out = put(s, &full);
	assert_int_equal(full, HB_STREAM_STRING_MAX + 1);
	assert_int_equal(strlen(out), HB_STREAM_STRING_MAX);
	assert_memory_equal(out, s, HB_STREAM_STRING_MAX - 9);
	assert_string_equal(out + HB_STREAM_STRING_MAX - 9, "%E2%80%A6");
	free(s);
	free(out);
	/* '%' is written as 3 bytes: 5461 of them fit (16383), 5462 do not:
	 * cut, 5458 of them (16374, within 16384 - 9) and the marker, 16383. */
	s = repeat('%', 5461);
	out = put(s, &full);
	assert_int_equal(full, 0);
	assert_int_equal(strlen(out), 16383);
	free(s);
	free(out);
	s = repeat('%', 5462);
	out = put(s, &full);
	assert_int_equal(full, 5462);
	assert_int_equal(strlen(out), 5458 * 3 + 9);
	free(s);
	free(out);
	/* 120,000 CJK characters (360,000 bytes, 9 written bytes each): 16375
	 * written bytes hold 5458 bytes, one into character 1820: cut before
	 * it, 1819 characters and the marker. */
	s = repeat(0, 360000);
	out = put(s, &full);
	assert_int_equal(full, 360000);
	assert_int_equal(strlen(out), 1820 * 9);
	assert_int_equal(decode(out, back), 1819 * 3 + 3);
	assert_memory_equal(back, s, 1819 * 3);
	assert_string_equal(back + 1819 * 3, HB_STREAM_SHORTENED);
	free(s);
	free(out);
}

/* Every string a section can carry at its longest: no line over HB_STREAM_LINE_MAX. */
static void no_line_is_longer_than_the_limit(void **state)
{
	char *huge = repeat(0, 360000), *path = repeat('/', 100000), *word = repeat('w', 70000);
	const char *events[] = { word };
	const char *warnings[] = { huge };
	const struct stream_writer_jitdump dumps[] = {
		{ .path = path, .pid = 7, .loads = 1, .status = "ok" },
	};
	const struct jitdump_debug_entry debug[] = { { .addr = 0x1000, .line = 1, .file = huge } };
	uint64_t totals[1][HB_CLASS__NR][2] = { { { 1, 1 } } };
	const struct stream_writer_header h = {
		.producer = word, .input = path, .events = events, .events_nr = 1,
		.totals = (const uint64_t(*)[HB_CLASS__NR][2])totals,
		.jitdumps = dumps, .jitdumps_nr = 1, .warnings = warnings, .warnings_nr = 1,
	};
	struct stream_writer_object objs[] = {
		{ .kind = HB_KIND_JIT, .id = 0, .pid = UINT32_MAX, .e_machine = UINT16_MAX,
		  .addr = UINT64_MAX, .size = UINT64_MAX, .name = huge, .code_index = UINT64_MAX,
		  .load_time = UINT64_MAX, .dump = path, .debug = debug, .debug_nr = 1 },
		{ .kind = HB_KIND_NATIVE, .id = 1, .pid = UINT32_MAX, .e_machine = UINT16_MAX,
		  .addr = UINT64_MAX, .size = UINT64_MAX, .name = huge, .dso = path,
		  .sym_start = UINT64_MAX },
	};
	int ret;
	char *text = write_section(&h, objs, 2, NULL, 0, &ret), *line, *next;
	size_t lines = 0;

	assert_int_equal(ret, 0);
	for (line = text; *line; line = next + 1, lines++) {
		next = strchr(line, '\n');
		assert_non_null(next);
		if ((size_t)(next - line) > HB_STREAM_LINE_MAX)
			fail_msg("line %zu: %zu bytes", lines + 1, (size_t)(next - line));
	}
	/* Each shortened string's full length follows it. */
	assert_non_null(strstr(text, " dump-length=100000 name-length=360000\n"));
	assert_non_null(strstr(text, " dso-length=100000 name-length=360000\n"));
	assert_non_null(strstr(text, " status=ok path-length=100000\n"));
	assert_non_null(strstr(text, "%E2%80%A6 file-length=360000\n"));
	assert_non_null(strstr(text, "%E2%80%A6 text-length=360000\n"));
	assert_non_null(strstr(text, "%E2%80%A6 name-length=70000\n"));
	assert_non_null(strstr(text, "\ninput /"));
	assert_non_null(strstr(text, "%E2%80%A6 path-length=100000\ntime-aware"));
	free(text);
	free(huge);
	free(path);
	free(word);
}

/* Code a file holds (STREAM.md `code-file`): one line naming the file, the
 * offset, the length and the CRC-64, the path escaped; no code line. */
static void code_a_file_holds_is_one_code_file_line(void **state)
{
	static const uint8_t code[100] = { 0x90 };
	const struct stream_writer_header h = { .producer = "hotblocks.so/1", .input = "-" };
	struct stream_writer_object objs[] = {
		{ .kind = HB_KIND_JIT, .id = 1, .pid = 7, .e_machine = 62, .addr = 0x7f0000001060, .size = 100,
		  .name = "f", .code = code, .code_len = 100, .code_index = 2, .load_time = 200,
		  .dump = "/tmp/jit-7.dump", .code_file = "/my dir/module.cwasm", .code_file_off = 0x2060,
		  .code_crc = 0x0123456789abcdefULL },
	};
	static const struct tally_entry counts[] = { { .obj = 1, .ev = 0, .off = 0x4, .samples = 1, .period = 1 } };
	int ret;
	char *text = write_section(&h, objs, 1, counts, 1, &ret), *line, *nl;

	assert_int_equal(ret, 0);
	assert_non_null(strstr(text, "\ncode-file 0 0x2060 100 0x0123456789abcdef /my%20dir/module.cwasm\n"));
	assert_null(strstr(text, "\ncode "));
	for (line = text; (nl = strchr(line, '\n')); line = nl + 1) {
		*nl = '\0';
		check_line(line);
	}
	free(text);
}

static void a_failed_write_is_reported(void **state)
{
	uint64_t totals[1][HB_CLASS__NR][2] = { 0 };
	const struct stream_writer_header h = {
		.producer = "p", .events = (const char *const[]){ "e" }, .events_nr = 1,
		.totals = (const uint64_t(*)[HB_CLASS__NR][2])totals,
	};
	/* /dev/full takes no byte: the section cannot be written. */
	FILE *f = fopen("/dev/full", "w");

	assert_non_null(f);
	assert_int_equal(stream_writer__write(f, &h, NULL, 0, NULL, 0), -EIO);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_section_is_written_as_the_format_says),
		cmocka_unit_test(every_record_is_the_tables),
		cmocka_unit_test(objects_order_by_identity_whatever_the_ids),
		cmocka_unit_test(branch_counts_are_written_as_the_format_says),
		cmocka_unit_test(every_byte_survives_escaping),
		cmocka_unit_test(strings_past_the_limit_are_cut_marked_and_measured),
		cmocka_unit_test(no_line_is_longer_than_the_limit),
		cmocka_unit_test(code_a_file_holds_is_one_code_file_line),
		cmocka_unit_test(a_failed_write_is_reported),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* Unit tests of perfdata-scan.c: synthesized perf.data buffers and real recordings. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "perfdata-scan.h"
#include "perfdata-writer.h"

#define MARKER "/tmp/run/jit-4242.dump"
#define MAX_FOUND 8

struct found {
	int nr;
	uint32_t pid[MAX_FOUND];
	char path[MAX_FOUND][256];
	int stop_at;		/* return stop_val from the stop_at'th call (1-based); 0 = never */
	int stop_val;
};

static int collect(void *arg, uint32_t pid, const char *path)
{
	struct found *f = arg;

	if (f->nr < MAX_FOUND) {
		f->pid[f->nr] = pid;
		snprintf(f->path[f->nr], sizeof(f->path[0]), "%s", path);
	}
	f->nr++;
	return f->nr == f->stop_at ? f->stop_val : 0;
}

/*
 * Scan w's bytes from an exact-size copy, so that valgrind catches any read
 * past the end (the writer's own buffer has slack).
 */
static int scan(struct perfdata_writer *w, struct found *f, struct perfdata_scan_stats *st,
		char *err, size_t errlen)
{
	uint8_t *copy;
	int ret;

	perfdata_writer__finish(w);
	assert_false(w->oom);
	copy = malloc(w->len ? w->len : 1);
	assert_non_null(copy);
	if (w->len)
		memcpy(copy, w->buf, w->len);
	ret = perfdata__scan_buf(copy, w->len, "t.data", collect, f, st, err, errlen);
	free(copy);
	return ret;
}

/* A file with some ordinary records around one marker. */
static void typical_records(struct perfdata_writer *w, bool mmap1)
{
	perfdata_writer__mmap(w, (uint32_t)-1, 0, 0xffffffff81000000, 0x1000000, "[kernel.kallsyms]_text");
	perfdata_writer__mmap2(w, 4242, 4242, 0x400000, 0x1000, "/usr/bin/node");
	perfdata_writer__filler(w, 40);
	if (mmap1)
		perfdata_writer__mmap(w, 4242, 4243, 0x7f0000000000, 0x1000, MARKER);
	else
		perfdata_writer__mmap2(w, 4242, 4243, 0x7f0000000000, 0x1000, MARKER);
	perfdata_writer__filler(w, 40);
	perfdata_writer__mmap2(w, 4242, 4242, 0x7f0000100000, 0x1000, "/tmp/run/jit-4242.dump.bak");
}

static void expect_one_marker(struct perfdata_writer *w, uint64_t records)
{
	struct perfdata_scan_stats st;
	struct found f = { 0 };
	char err[256];

	assert_int_equal(scan(w, &f, &st, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(f.nr, 1);
	assert_int_equal(f.pid[0], 4242);
	assert_string_equal(f.path[0], MARKER);
	assert_int_equal(st.markers, 1);
	assert_int_equal(st.records, records);
	assert_int_equal(st.malformed, 0);
	assert_int_equal(st.truncated, 0);
}

static void finds_the_marker_in_an_mmap2_record_of_a_file_mode_file(void **state)
{
	struct perfdata_writer w;
	struct perfdata_scan_stats st;
	struct found f = { 0 };

	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	typical_records(&w, false);
	expect_one_marker(&w, 6);
	assert_int_equal(scan(&w, &f, &st, NULL, 0), 0);
	assert_int_equal(st.pipe_format, 0);
	assert_int_equal(st.swapped, 0);
	assert_int_equal(st.mmaps, 4);
	perfdata_writer__release(&w);
}

static void finds_the_marker_in_an_mmap_record(void **state)
{
	struct perfdata_writer w;

	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	typical_records(&w, true);
	expect_one_marker(&w, 6);
	perfdata_writer__release(&w);
}

static void finds_the_marker_in_a_byte_swapped_file(void **state)
{
	struct perfdata_writer w;
	struct perfdata_scan_stats st;
	struct found f = { 0 };

	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, true);
	typical_records(&w, false);
	perfdata_writer__mmap(&w, 7, 7, 0x1000, 0x1000, "/x/jit-7.dump");
	assert_int_equal(scan(&w, &f, &st, NULL, 0), 0);
	assert_int_equal(st.swapped, 1);
	assert_int_equal(f.nr, 2);
	assert_int_equal(f.pid[0], 4242);
	assert_string_equal(f.path[0], MARKER);
	assert_int_equal(f.pid[1], 7);
	assert_string_equal(f.path[1], "/x/jit-7.dump");
	perfdata_writer__release(&w);
}

static void finds_the_marker_in_a_pipe_mode_file(void **state)
{
	struct perfdata_writer w;
	struct perfdata_scan_stats st;
	struct found f = { 0 };

	perfdata_writer__init(&w, PERFDATA_WRITER_PIPE, false);
	/* Pipe mode starts with synthesized HEADER_ATTR (64) and HEADER_FEATURE (80) records. */
	perfdata_writer__end(&w, perfdata_writer__begin(&w, 64, 0));
	perfdata_writer__filler(&w, 136);
	typical_records(&w, false);
	expect_one_marker(&w, 8);
	assert_int_equal(scan(&w, &f, &st, NULL, 0), 0);
	assert_int_equal(st.pipe_format, 1);
	perfdata_writer__release(&w);
}

static void finds_the_marker_in_a_byte_swapped_pipe_mode_file(void **state)
{
	struct perfdata_writer w;
	struct perfdata_scan_stats st;
	struct found f = { 0 };

	perfdata_writer__init(&w, PERFDATA_WRITER_PIPE, true);
	typical_records(&w, true);
	expect_one_marker(&w, 6);
	assert_int_equal(scan(&w, &f, &st, NULL, 0), 0);
	assert_int_equal(st.pipe_format, 1);
	assert_int_equal(st.swapped, 1);
	perfdata_writer__release(&w);
}

static void reports_every_marker_in_file_order_duplicates_included(void **state)
{
	struct perfdata_writer w;
	struct perfdata_scan_stats st;
	struct found f = { 0 };

	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	perfdata_writer__mmap2(&w, 10, 10, 0x1000, 0x1000, "/a/jit-10.dump");
	perfdata_writer__mmap2(&w, 20, 21, 0x1000, 0x1000, "/b/jit-20.dump");
	perfdata_writer__mmap(&w, 10, 11, 0x1000, 0x1000, "/a/jit-10.dump");
	assert_int_equal(scan(&w, &f, &st, NULL, 0), 0);
	assert_int_equal(f.nr, 3);
	assert_int_equal(f.pid[0], 10);
	assert_string_equal(f.path[0], "/a/jit-10.dump");
	assert_int_equal(f.pid[1], 20);
	assert_string_equal(f.path[1], "/b/jit-20.dump");
	assert_int_equal(f.pid[2], 10);
	assert_string_equal(f.path[2], "/a/jit-10.dump");
	perfdata_writer__release(&w);
}

static const char *const bad_names[] = {
	"/tmp/jit-.dump", "/tmp/jit-12x.dump", "/tmp/xjit-1.dump", "/tmp/jit-1.dumpx",
	"/tmp/jit-1.dump.bak", "/tmp/jit-1/x.dump", "/tmp/jit-1.Dump", "/tmp/JIT-1.dump",
	"/tmp/jit-+1.dump", "/tmp/jit- 1.dump", "/tmp/jit-1 .dump", "/tmp/jit-1.dump/",
	"/tmp/jit-1", "jit-", ".dump", "", "/", "/tmp/java-jit-1.dump", "//anon",
	"[anon:v8]", "/memfd:jit-1.dump (deleted)", "/tmp/jit-1.dump (deleted)",
};

static const char *const good_names[] = {
	"/tmp/jit-1.dump", "jit-1.dump", "/jit-0.dump", "/a/b/jit-007.dump",
	"/x.dump/jit-4194304.dump", "/jit-1.dump/jit-2.dump", "./jit-99999999999999999999.dump",
};

static void matches_only_basenames_of_the_form_jit_digits_dump(void **state)
{
	size_t i;

	for (i = 0; i < sizeof(bad_names) / sizeof(bad_names[0]); i++)
		assert_false(perfdata__is_jitdump_name(bad_names[i], strlen(bad_names[i])));
	for (i = 0; i < sizeof(good_names) / sizeof(good_names[0]); i++)
		assert_true(perfdata__is_jitdump_name(good_names[i], strlen(good_names[i])));
	/* The length is the name's end, whatever follows. */
	assert_true(perfdata__is_jitdump_name("/t/jit-5.dumpXYZ", 13));
	assert_false(perfdata__is_jitdump_name("/t/jit-5.dump", 12));
}

static void ignores_mappings_whose_name_is_not_a_jitdump(void **state)
{
	struct perfdata_writer w;
	struct perfdata_scan_stats st;
	struct found f = { 0 };
	size_t i;

	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	for (i = 0; i < sizeof(bad_names) / sizeof(bad_names[0]); i++) {
		perfdata_writer__mmap2(&w, 1, 1, 0x1000, 0x1000, bad_names[i]);
		perfdata_writer__mmap(&w, 1, 1, 0x1000, 0x1000, bad_names[i]);
	}
	for (i = 0; i < sizeof(good_names) / sizeof(good_names[0]); i++)
		perfdata_writer__mmap2(&w, 2, 2, 0x1000, 0x1000, good_names[i]);
	assert_int_equal(scan(&w, &f, &st, NULL, 0), 0);
	assert_int_equal(f.nr, sizeof(good_names) / sizeof(good_names[0]));
	for (i = 0; i < MAX_FOUND && i < (size_t)f.nr; i++)
		assert_string_equal(f.path[i], good_names[i]);
	assert_int_equal(st.mmaps, 2 * sizeof(bad_names) / sizeof(bad_names[0]) +
				   sizeof(good_names) / sizeof(good_names[0]));
	assert_int_equal(st.malformed, 0);
	perfdata_writer__release(&w);
}

static void skips_an_mmap_name_without_a_nul(void **state)
{
	static const char name[] = "/tmp/run/jit-1.dump...."; /* 24 bytes, no NUL written */
	struct perfdata_writer w;
	struct perfdata_scan_stats st;
	struct found f = { 0 };
	size_t rec;

	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	rec = perfdata_writer__begin(&w, 10, 2);
	perfdata_writer__fill(&w, 0, 64);
	perfdata_writer__bytes(&w, "/tmp/run/jit-1.dump", 19);
	perfdata_writer__end(&w, rec);
	rec = perfdata_writer__begin(&w, 1, 2);
	perfdata_writer__fill(&w, 0, 32);
	perfdata_writer__bytes(&w, name, sizeof(name) - 1);
	perfdata_writer__end(&w, rec);
	/* Then a good one, right behind: the NUL search must stop at the record's end. */
	perfdata_writer__mmap2(&w, 4242, 4242, 0x1000, 0x1000, MARKER);
	assert_int_equal(scan(&w, &f, &st, NULL, 0), 0);
	assert_int_equal(st.mmaps, 3);
	assert_int_equal(st.malformed, 2);
	assert_int_equal(f.nr, 1);
	assert_string_equal(f.path[0], MARKER);
	perfdata_writer__release(&w);
}

static void skips_an_mmap_record_too_short_to_hold_a_name(void **state)
{
	struct perfdata_writer w;
	struct perfdata_scan_stats st;
	struct found f = { 0 };
	size_t rec;

	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	rec = perfdata_writer__begin(&w, 10, 2);	/* MMAP2 with no name bytes at all */
	perfdata_writer__fill(&w, 0, 64);
	perfdata_writer__end(&w, rec);
	rec = perfdata_writer__begin(&w, 1, 2);		/* MMAP cut inside its fixed part */
	perfdata_writer__fill(&w, 0, 8);
	perfdata_writer__end(&w, rec);
	rec = perfdata_writer__begin(&w, 10, 2);	/* header only */
	perfdata_writer__end(&w, rec);
	perfdata_writer__mmap2(&w, 4242, 4242, 0x1000, 0x1000, MARKER);
	assert_int_equal(scan(&w, &f, &st, NULL, 0), 0);
	assert_int_equal(st.malformed, 3);
	assert_int_equal(f.nr, 1);
	perfdata_writer__release(&w);
}

static void rejects_a_record_smaller_than_its_header(void **state)
{
	struct perfdata_writer w;
	struct found f = { 0 };
	char err[256];
	size_t rec;

	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	perfdata_writer__filler(&w, 16);
	rec = perfdata_writer__filler(&w, 16);
	perfdata_writer__put_u16(&w, rec + 6, 4);
	assert_int_equal(scan(&w, &f, NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.data+0x78: record size 4 < 8 (type 9)");
	perfdata_writer__release(&w);

	/* Size 0 would loop forever if it were accepted; pipe mode rejects it too. */
	perfdata_writer__init(&w, PERFDATA_WRITER_PIPE, false);
	rec = perfdata_writer__filler(&w, 16);
	perfdata_writer__put_u16(&w, rec + 6, 0);
	assert_int_equal(scan(&w, &f, NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.data+0x10: record size 0 < 8 (type 9)");
	perfdata_writer__release(&w);
}

static void rejects_a_record_running_past_the_data_section(void **state)
{
	struct perfdata_writer w;
	struct found f = { 0 };
	char err[256];
	size_t rec;

	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	perfdata_writer__filler(&w, 16);
	rec = perfdata_writer__mmap2(&w, 4242, 4242, 0x1000, 0x1000, MARKER);
	perfdata_writer__put_u16(&w, rec + 6, 0x200);
	/* Bytes after the data section (as in real files: the feature sections) do not count. */
	perfdata_writer__finish(&w);
	perfdata_writer__fill(&w, 0xab, 0x400);
	w.mode = PERFDATA_WRITER_RAW;	/* keep the data section as finished above */
	assert_int_equal(scan(&w, &f, NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.data+0x78: record of size 512 runs past end of data section at 0xd8");
	assert_int_equal(f.nr, 0);
	perfdata_writer__release(&w);
}

static void rejects_a_record_header_cut_by_the_end_of_the_data_section(void **state)
{
	struct perfdata_writer w;
	struct found f = { 0 };
	char err[256];

	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	perfdata_writer__mmap2(&w, 4242, 4242, 0x1000, 0x1000, MARKER);
	perfdata_writer__fill(&w, 0, 5);
	assert_int_equal(scan(&w, &f, NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.data+0xc8: record header runs past end of data section (5 bytes left)");
	/* The marker before the bad spot was still reported. */
	assert_int_equal(f.nr, 1);
	perfdata_writer__release(&w);
}

static void accepts_a_pipe_mode_file_that_ends_mid_record(void **state)
{
	struct perfdata_writer w;
	struct perfdata_scan_stats st;
	struct found f = { 0 };
	char err[256];
	size_t cut;

	perfdata_writer__init(&w, PERFDATA_WRITER_PIPE, false);
	perfdata_writer__mmap2(&w, 4242, 4242, 0x1000, 0x1000, MARKER);
	perfdata_writer__filler(&w, 40);
	cut = w.len;
	for (size_t keep = 1; keep < 40; keep++) {
		w.len = cut - keep;
		memset(&f, 0, sizeof(f));
		assert_int_equal(scan(&w, &f, &st, err, sizeof(err)), 0);
		assert_string_equal(err, "");
		assert_int_equal(st.truncated, 1);
		assert_int_equal(st.records, 1);
		assert_int_equal(f.nr, 1);
	}
	w.len = cut;
	assert_int_equal(scan(&w, &f, &st, err, sizeof(err)), 0);
	assert_int_equal(st.truncated, 0);
	perfdata_writer__release(&w);
}

static void rejects_a_truncated_header(void **state)
{
	static const size_t lens[] = { 0, 1, 8, 15 };
	struct perfdata_writer w;
	struct found f = { 0 };
	char err[256], want[64];
	size_t i;

	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	perfdata_writer__mmap2(&w, 4242, 4242, 0x1000, 0x1000, MARKER);
	perfdata_writer__finish(&w);
	w.mode = PERFDATA_WRITER_RAW;
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		w.len = lens[i];
		assert_int_equal(scan(&w, &f, NULL, err, sizeof(err)), -EINVAL);
		snprintf(want, sizeof(want), "t.data+0x0: truncated header (%zu bytes)", lens[i]);
		assert_string_equal(err, want);
	}
	w.len = 60;	/* file mode header says 104 bytes */
	assert_int_equal(scan(&w, &f, NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.data+0x0: truncated header (60 of 104 bytes)");
	assert_int_equal(f.nr, 0);
	perfdata_writer__release(&w);
}

static void rejects_a_file_that_is_not_perf_data(void **state)
{
	static const char text[] = "#!/bin/sh\necho this is not a perf.data file\n";
	struct perfdata_scan_stats st;
	uint8_t v1[128] = "PERFFILE";
	char err[256];

	assert_int_equal(perfdata__scan_buf((const uint8_t *)text, sizeof(text), "t.sh", collect, NULL,
					    &st, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.sh+0x0: not a perf.data file (bad magic)");
	assert_int_equal(st.records, 0);
	assert_int_equal(perfdata__scan_buf(v1, sizeof(v1), "old.data", collect, NULL, NULL,
					    err, sizeof(err)), -ENOTSUP);
	assert_string_equal(err, "old.data+0x0: perf.data version 1 is not supported");
}

static void rejects_a_header_size_that_is_neither_pipe_nor_file(void **state)
{
	struct perfdata_writer w;
	struct found f = { 0 };
	char err[256];

	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, true);
	perfdata_writer__mmap2(&w, 4242, 4242, 0x1000, 0x1000, MARKER);
	perfdata_writer__finish(&w);
	w.mode = PERFDATA_WRITER_RAW;
	perfdata_writer__put_u64(&w, 8, 40);
	assert_int_equal(scan(&w, &f, NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.data+0x8: bad header size 40");
	perfdata_writer__put_u64(&w, 8, UINT64_MAX);
	assert_int_equal(scan(&w, &f, NULL, err, sizeof(err)), -EINVAL);
	assert_int_equal(f.nr, 0);
	perfdata_writer__release(&w);
}

static void rejects_a_data_section_outside_the_file(void **state)
{
	static const uint64_t sections[][2] = {
		{ 0x1000, 0 },			/* starts past the end */
		{ 104, 0x1000 },		/* ends past the end */
		{ 104, UINT64_MAX },		/* offset + size wraps */
		{ UINT64_MAX - 7, 16 },
	};
	struct perfdata_writer w;
	struct found f = { 0 };
	char err[256];
	size_t i;

	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	perfdata_writer__mmap2(&w, 4242, 4242, 0x1000, 0x1000, MARKER);
	perfdata_writer__finish(&w);
	w.mode = PERFDATA_WRITER_RAW;
	for (i = 0; i < sizeof(sections) / sizeof(sections[0]); i++) {
		perfdata_writer__put_u64(&w, 40, sections[i][0]);
		perfdata_writer__put_u64(&w, 48, sections[i][1]);
		assert_int_equal(scan(&w, &f, NULL, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "runs past end of file (0xc8 bytes)"));
		assert_memory_equal(err, "t.data+0x28: data section 0x", 28);
	}
	assert_int_equal(f.nr, 0);
	perfdata_writer__release(&w);
}

static void accepts_an_empty_data_section(void **state)
{
	struct perfdata_writer w;
	struct perfdata_scan_stats st;
	struct found f = { 0 };
	char err[256];

	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	assert_int_equal(scan(&w, &f, &st, err, sizeof(err)), 0);
	assert_int_equal(st.records, 0);
	/* perf record killed before it rewrote the header: data size still 0. */
	perfdata_writer__mmap2(&w, 4242, 4242, 0x1000, 0x1000, MARKER);
	perfdata_writer__finish(&w);
	perfdata_writer__put_u64(&w, 48, 0);
	w.mode = PERFDATA_WRITER_RAW;
	assert_int_equal(scan(&w, &f, &st, err, sizeof(err)), 0);
	assert_int_equal(st.records, 0);
	assert_int_equal(f.nr, 0);
	perfdata_writer__release(&w);

	perfdata_writer__init(&w, PERFDATA_WRITER_PIPE, false);
	assert_int_equal(scan(&w, &f, &st, err, sizeof(err)), 0);
	assert_int_equal(st.pipe_format, 1);
	assert_int_equal(st.records, 0);
	perfdata_writer__release(&w);
}

static void returns_the_callback_stop_value(void **state)
{
	static const int stops[] = { 42, -7, 1 };
	struct perfdata_writer w;
	struct perfdata_scan_stats st;
	char err[256];
	size_t i;

	for (int pipe = 0; pipe < 2; pipe++) {
		perfdata_writer__init(&w, pipe ? PERFDATA_WRITER_PIPE : PERFDATA_WRITER_FILE, false);
		perfdata_writer__mmap2(&w, 1, 1, 0x1000, 0x1000, "/a/jit-1.dump");
		perfdata_writer__mmap2(&w, 2, 2, 0x1000, 0x1000, "/a/jit-2.dump");
		perfdata_writer__mmap2(&w, 3, 3, 0x1000, 0x1000, "/a/jit-3.dump");
		for (i = 0; i < sizeof(stops) / sizeof(stops[0]); i++) {
			struct found f = { .stop_at = 2, .stop_val = stops[i] };

			assert_int_equal(scan(&w, &f, &st, err, sizeof(err)), stops[i]);
			assert_int_equal(f.nr, 2);
			assert_int_equal(st.records, 2);
			/* A stop is not an error: no message. */
			assert_string_equal(err, "");
		}
		perfdata_writer__release(&w);
	}
}

static void returns_the_callback_stop_value_from_inside_compressed_data(void **state)
{
	struct perfdata_writer w, raw;
	struct perfdata_scan_stats st;
	struct found f = { .stop_at = 1, .stop_val = 3 };

	perfdata_writer__init(&raw, PERFDATA_WRITER_RAW, false);
	perfdata_writer__mmap2(&raw, 1, 1, 0x1000, 0x1000, "/a/jit-1.dump");
	perfdata_writer__filler(&raw, 64);
	perfdata_writer__mmap2(&raw, 2, 2, 0x1000, 0x1000, "/a/jit-2.dump");
	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	assert_int_equal(perfdata_writer__zstd(&w, raw.buf, raw.len), 0);
	perfdata_writer__mmap2(&w, 3, 3, 0x1000, 0x1000, "/a/jit-3.dump");
	assert_int_equal(scan(&w, &f, &st, NULL, 0), 3);
	assert_int_equal(f.nr, 1);
	assert_int_equal(st.records, 2);
	/* The records left unread are not a cut-off stream. */
	assert_int_equal(st.truncated, 0);
	perfdata_writer__release(&w);
	perfdata_writer__release(&raw);
}

/* The records of typical_records() in a raw (header-less) buffer. */
static void raw_typical(struct perfdata_writer *raw, bool swapped)
{
	perfdata_writer__init(raw, PERFDATA_WRITER_RAW, swapped);
	typical_records(raw, false);
	assert_false(raw->oom);
}

static void finds_the_marker_inside_a_compressed_record(void **state)
{
	struct perfdata_writer w, raw;
	struct perfdata_scan_stats st;
	struct found f = { 0 };

	for (int swapped = 0; swapped < 2; swapped++) {
		raw_typical(&raw, swapped);
		perfdata_writer__init(&w, PERFDATA_WRITER_FILE, swapped);
		perfdata_writer__filler(&w, 16);
		assert_int_equal(perfdata_writer__zstd(&w, raw.buf, raw.len), 0);
		perfdata_writer__filler(&w, 16);
		expect_one_marker(&w, 1 + 1 + 6 + 1);
		assert_int_equal(scan(&w, &f, &st, NULL, 0), 0);
		assert_int_equal(st.compressed, 1);
		assert_int_equal(st.compressed_failed, 0);
		assert_int_equal(st.decompressed_bytes, raw.len);
		assert_int_equal(st.swapped, swapped);
		perfdata_writer__release(&w);
		perfdata_writer__release(&raw);
	}
}

static void finds_the_marker_inside_a_compressed_record_of_a_pipe_mode_file(void **state)
{
	struct perfdata_writer w, raw;

	raw_typical(&raw, false);
	perfdata_writer__init(&w, PERFDATA_WRITER_PIPE, false);
	assert_int_equal(perfdata_writer__zstd(&w, raw.buf, raw.len), 0);
	expect_one_marker(&w, 7);
	perfdata_writer__release(&w);
	perfdata_writer__release(&raw);
}

static void finds_the_marker_inside_a_compressed2_record(void **state)
{
	struct perfdata_writer w, raw;
	struct perfdata_scan_stats st;
	struct found f = { 0 };
	uint8_t *z;
	size_t zlen;

	raw_typical(&raw, false);
	assert_int_equal(perfdata_writer__zstd_frame(raw.buf, raw.len, &z, &zlen), 0);
	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	perfdata_writer__compressed2(&w, z, zlen);
	expect_one_marker(&w, 7);
	assert_int_equal(scan(&w, &f, &st, NULL, 0), 0);
	assert_int_equal(st.compressed, 1);
	free(z);
	perfdata_writer__release(&w);
	perfdata_writer__release(&raw);
}

/* What perf 6.1 writes: one never-ended zstd frame, one flush per COMPRESSED record. */
static void finds_markers_in_every_flush_of_one_zstd_frame(void **state)
{
	struct perfdata_writer w, a, b;
	struct perfdata_writer_zstream z;
	struct perfdata_scan_stats st;
	struct found f = { 0 };

	perfdata_writer__init(&a, PERFDATA_WRITER_RAW, false);
	perfdata_writer__mmap2(&a, 1, 1, 0x1000, 0x1000, "/a/jit-1.dump");
	perfdata_writer__filler(&a, 64);
	perfdata_writer__init(&b, PERFDATA_WRITER_RAW, false);
	perfdata_writer__filler(&b, 64);
	perfdata_writer__mmap2(&b, 2, 2, 0x1000, 0x1000, "/a/jit-2.dump");
	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	assert_int_equal(perfdata_writer__zstream_init(&z), 0);
	assert_int_equal(perfdata_writer__zstream_flush(&z, &w, a.buf, a.len), 0);
	perfdata_writer__filler(&w, 8);	/* FINISHED_ROUND-like record in between */
	assert_int_equal(perfdata_writer__zstream_flush(&z, &w, b.buf, b.len), 0);
	assert_int_equal(perfdata_writer__zstream_flush(&z, &w, a.buf, a.len), 0);
	assert_int_equal(scan(&w, &f, &st, NULL, 0), 0);
	assert_int_equal(st.compressed, 3);
	assert_int_equal(st.compressed_failed, 0);
	assert_int_equal(f.nr, 3);
	assert_string_equal(f.path[0], "/a/jit-1.dump");
	assert_string_equal(f.path[1], "/a/jit-2.dump");
	assert_string_equal(f.path[2], "/a/jit-1.dump");
	assert_int_equal(st.records, 4 + 6);
	perfdata_writer__zstream_release(&z);
	perfdata_writer__release(&w);
	perfdata_writer__release(&a);
	perfdata_writer__release(&b);
}

/* perf flushes the ring buffer in two pieces when it wraps, cutting a record in two. */
static void finds_a_marker_record_split_across_two_compressed_records(void **state)
{
	struct perfdata_writer w, raw;
	struct perfdata_writer_zstream z;
	struct perfdata_scan_stats st;
	size_t rec, cut;

	raw_typical(&raw, false);
	/* The marker MMAP2 is the 4th record; cut it at every byte in turn. */
	rec = 0;
	for (int i = 0; i < 3; i++) {
		uint16_t size;

		memcpy(&size, raw.buf + rec + 6, 2);
		rec += size;
	}
	for (cut = rec + 1; cut < rec + 0x70; cut += 3) {
		for (int frames = 0; frames < 2; frames++) {
			struct found f = { 0 };

			perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
			if (frames) {
				/* Two separate, ended frames: the carry-over must survive the frame end. */
				assert_int_equal(perfdata_writer__zstd(&w, raw.buf, cut), 0);
				assert_int_equal(perfdata_writer__zstd(&w, raw.buf + cut, raw.len - cut), 0);
			} else {
				assert_int_equal(perfdata_writer__zstream_init(&z), 0);
				assert_int_equal(perfdata_writer__zstream_flush(&z, &w, raw.buf, cut), 0);
				assert_int_equal(perfdata_writer__zstream_flush(&z, &w, raw.buf + cut,
										raw.len - cut), 0);
				perfdata_writer__zstream_release(&z);
			}
			assert_int_equal(scan(&w, &f, &st, NULL, 0), 0);
			assert_int_equal(f.nr, 1);
			assert_string_equal(f.path[0], MARKER);
			assert_int_equal(st.compressed_failed, 0);
			assert_int_equal(st.truncated, 0);
			/* The cut falls inside the marker or the filler after it, never between. */
			assert_int_equal(st.split_records, cut == rec + 96 ? 0 : 1);
			assert_int_equal(st.records, 2 + 6);
			perfdata_writer__release(&w);
		}
	}
	perfdata_writer__release(&raw);
}

static void counts_a_compressed_record_with_a_garbage_payload_and_goes_on(void **state)
{
	static const uint8_t garbage[] = "this is not zstd at all, just some bytes";
	/* Frame magic, then a header with the reserved bit set (and long enough to be read whole). */
	static const uint8_t bad_frame[32] = { 0x28, 0xb5, 0x2f, 0xfd, 0xff, 0xff, 0xff, 0xff };
	struct perfdata_writer w, raw;
	struct perfdata_scan_stats st;
	struct found f = { 0 };

	raw_typical(&raw, false);
	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	perfdata_writer__compressed(&w, garbage, sizeof(garbage));
	perfdata_writer__compressed(&w, bad_frame, sizeof(bad_frame));
	perfdata_writer__compressed(&w, NULL, 0);	/* empty: harmless */
	assert_int_equal(perfdata_writer__zstd(&w, raw.buf, raw.len), 0);
	perfdata_writer__compressed(&w, garbage, sizeof(garbage));
	assert_int_equal(scan(&w, &f, &st, NULL, 0), 0);
	assert_int_equal(st.compressed, 5);
	assert_int_equal(st.compressed_failed, 3);
	assert_int_equal(f.nr, 1);
	assert_string_equal(f.path[0], MARKER);
	perfdata_writer__release(&w);
	perfdata_writer__release(&raw);
}

static void counts_a_compressed_record_holding_corrupt_records(void **state)
{
	struct perfdata_writer w, raw, bad;
	struct perfdata_scan_stats st;
	struct found f = { 0 };
	size_t rec;

	raw_typical(&raw, false);
	perfdata_writer__init(&bad, PERFDATA_WRITER_RAW, false);
	perfdata_writer__filler(&bad, 16);
	rec = perfdata_writer__filler(&bad, 16);
	perfdata_writer__put_u16(&bad, rec + 6, 3);
	perfdata_writer__mmap2(&bad, 9, 9, 0x1000, 0x1000, "/b/jit-9.dump");
	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	assert_int_equal(perfdata_writer__zstd(&w, bad.buf, bad.len), 0);
	assert_int_equal(perfdata_writer__zstd(&w, raw.buf, raw.len), 0);
	assert_int_equal(scan(&w, &f, &st, NULL, 0), 0);
	assert_int_equal(st.compressed, 2);
	assert_int_equal(st.compressed_failed, 1);
	/* Nothing after the corrupt record of the first stream is trusted. */
	assert_int_equal(f.nr, 1);
	assert_string_equal(f.path[0], MARKER);
	perfdata_writer__release(&w);
	perfdata_writer__release(&raw);
	perfdata_writer__release(&bad);
}

static void counts_a_compressed2_record_whose_data_size_overruns_it(void **state)
{
	struct perfdata_writer w, raw;
	struct perfdata_scan_stats st;
	struct found f = { 0 };
	uint8_t *z;
	size_t zlen, rec;

	raw_typical(&raw, false);
	assert_int_equal(perfdata_writer__zstd_frame(raw.buf, raw.len, &z, &zlen), 0);
	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	rec = perfdata_writer__compressed2(&w, z, zlen);
	perfdata_writer__put_u64(&w, rec + 8, UINT64_MAX - 4);
	rec = perfdata_writer__begin(&w, 83, 0);	/* too short for data_size */
	perfdata_writer__u32(&w, 0);
	perfdata_writer__end(&w, rec);
	perfdata_writer__compressed2(&w, z, zlen);
	assert_int_equal(scan(&w, &f, &st, NULL, 0), 0);
	assert_int_equal(st.compressed, 3);
	assert_int_equal(st.compressed_failed, 2);
	assert_int_equal(f.nr, 1);
	free(z);
	perfdata_writer__release(&w);
	perfdata_writer__release(&raw);
}

static void does_not_decompress_compressed_data_inside_compressed_data(void **state)
{
	struct perfdata_writer w, inner, outer;
	struct perfdata_scan_stats st;
	struct found f = { 0 };

	raw_typical(&inner, false);
	perfdata_writer__init(&outer, PERFDATA_WRITER_RAW, false);
	assert_int_equal(perfdata_writer__zstd(&outer, inner.buf, inner.len), 0);
	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	assert_int_equal(perfdata_writer__zstd(&w, outer.buf, outer.len), 0);
	assert_int_equal(scan(&w, &f, &st, NULL, 0), 0);
	assert_int_equal(st.compressed, 2);
	assert_int_equal(st.compressed_failed, 1);
	assert_int_equal(f.nr, 0);
	perfdata_writer__release(&w);
	perfdata_writer__release(&inner);
	perfdata_writer__release(&outer);
}

/* A zstd bomb: a few KB that expand to more than one record may produce. */
static void stops_decompressing_a_record_beyond_its_output_cap(void **state)
{
	const size_t rec_size = 65528, total = 80u << 20;
	struct perfdata_writer w, raw, bomb;
	struct perfdata_scan_stats st;
	struct found f = { 0 };

	perfdata_writer__init(&bomb, PERFDATA_WRITER_RAW, false);
	while (bomb.len < total && !bomb.oom)
		perfdata_writer__filler(&bomb, (uint16_t)rec_size);
	perfdata_writer__mmap2(&bomb, 9, 9, 0x1000, 0x1000, "/b/jit-9.dump");
	raw_typical(&raw, false);
	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	assert_int_equal(perfdata_writer__zstd(&w, bomb.buf, bomb.len), 0);
	assert_int_equal(perfdata_writer__zstd(&w, raw.buf, raw.len), 0);
	assert_true(w.len < 64 * 1024);
	assert_int_equal(scan(&w, &f, &st, NULL, 0), 0);
	assert_int_equal(st.compressed, 2);
	assert_int_equal(st.compressed_failed, 1);
	assert_true(st.decompressed_bytes > (64u << 20));
	/* Stopped within one output chunk (1 MiB) of the cap, not at the bomb's end. */
	assert_true(st.decompressed_bytes <= (65u << 20) + raw.len);
	assert_int_equal(f.nr, 1);
	assert_string_equal(f.path[0], MARKER);
	perfdata_writer__release(&w);
	perfdata_writer__release(&raw);
	perfdata_writer__release(&bomb);
}

/* A frame header may ask for a huge window buffer: up to what perf -z 22 uses is fine. */
static void refuses_a_zstd_window_above_128_mib(void **state)
{
	struct perfdata_writer w, raw;
	struct perfdata_writer_zstream z;
	struct perfdata_scan_stats st;

	raw_typical(&raw, false);
	for (int log = 27; log <= 28; log++) {
		struct found f = { 0 };

		perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
		assert_int_equal(perfdata_writer__zstream_init(&z), 0);
		assert_int_equal(perfdata_writer__zstream_window_log(&z, log), 0);
		assert_int_equal(perfdata_writer__zstream_flush(&z, &w, raw.buf, raw.len), 0);
		perfdata_writer__zstream_release(&z);
		/* Frame header descriptor, then the window descriptor: exponent - 10 in bits 7..3. */
		assert_int_equal(w.buf[PERFDATA_WRITER_FILE_HDR + 8 + 4 + 1] >> 3, log - 10);
		assert_int_equal(scan(&w, &f, &st, NULL, 0), 0);
		assert_int_equal(st.compressed_failed, log > 27);
		assert_int_equal(f.nr, log > 27 ? 0 : 1);
		perfdata_writer__release(&w);
	}
	perfdata_writer__release(&raw);
}

static void flags_compressed_data_that_ends_mid_record(void **state)
{
	struct perfdata_writer w, raw;
	struct perfdata_scan_stats st;
	struct found f = { 0 };
	char err[256];

	raw_typical(&raw, false);
	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	assert_int_equal(perfdata_writer__zstd(&w, raw.buf, raw.len - 20), 0);
	assert_int_equal(scan(&w, &f, &st, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(st.truncated, 1);
	assert_int_equal(st.split_records, 1);
	assert_int_equal(st.compressed_failed, 0);
	assert_int_equal(f.nr, 1);
	perfdata_writer__release(&w);
	perfdata_writer__release(&raw);
}

static uint64_t xorshift(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

/* Flipped bytes and cut-off files: any result but a crash or a bad message. */
static void survives_random_corruption(void **state)
{
	struct perfdata_writer base[4], raw;
	struct perfdata_writer_zstream z;
	uint64_t seed = 0x9e3779b97f4a7c15ULL;
	char err[256];

	raw_typical(&raw, false);
	perfdata_writer__init(&base[0], PERFDATA_WRITER_FILE, false);
	typical_records(&base[0], false);
	perfdata_writer__init(&base[1], PERFDATA_WRITER_PIPE, true);
	typical_records(&base[1], true);
	perfdata_writer__init(&base[2], PERFDATA_WRITER_FILE, false);
	assert_int_equal(perfdata_writer__zstd(&base[2], raw.buf, raw.len), 0);
	perfdata_writer__compressed2(&base[2], raw.buf, raw.len);
	perfdata_writer__init(&base[3], PERFDATA_WRITER_PIPE, false);
	assert_int_equal(perfdata_writer__zstream_init(&z), 0);
	assert_int_equal(perfdata_writer__zstream_flush(&z, &base[3], raw.buf, 100), 0);
	assert_int_equal(perfdata_writer__zstream_flush(&z, &base[3], raw.buf + 100, raw.len - 100), 0);
	perfdata_writer__zstream_release(&z);

	for (int b = 0; b < 4; b++) {
		perfdata_writer__finish(&base[b]);
		for (int iter = 0; iter < 1500; iter++) {
			struct perfdata_scan_stats st;
			size_t len = base[b].len;
			uint8_t *copy = malloc(len);
			int flips = 1 + (int)(xorshift(&seed) % 4), ret;

			assert_non_null(copy);
			memcpy(copy, base[b].buf, len);
			for (int i = 0; i < flips; i++) {
				uint64_t r = xorshift(&seed);

				copy[r % len] = (r >> 32) & 1 ? (uint8_t)(r >> 40) : copy[r % len] ^ 0x80;
			}
			if (xorshift(&seed) % 4 == 0)
				len = xorshift(&seed) % len;
			ret = perfdata__scan_buf(copy, len, "t.data", NULL, NULL, &st, err, sizeof(err));
			assert_true(ret <= 0);
			if (ret)
				assert_memory_equal(err, "t.data+0x", 9);
			else
				assert_string_equal(err, "");
			free(copy);
		}
		perfdata_writer__release(&base[b]);
	}
	perfdata_writer__release(&raw);
}

static void tolerates_null_stats_and_small_error_buffers(void **state)
{
	static const uint8_t junk[32] = "not perf data";
	char err[8];

	memset(err, 'x', sizeof(err));
	assert_int_equal(perfdata__scan_buf(junk, sizeof(junk), "t.data", NULL, NULL, NULL,
					    err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.data+");
	assert_int_equal(perfdata__scan_buf(junk, sizeof(junk), "a-rather-long-name.data", NULL, NULL,
					    NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "a-rathe");
	assert_int_equal(perfdata__scan_buf(junk, sizeof(junk), NULL, NULL, NULL, NULL, NULL, 0), -EINVAL);
	assert_int_equal(perfdata__scan("/nonexistent/perf.data", NULL, NULL, NULL, NULL, 0), -ENOENT);
	assert_int_equal(perfdata__scan("/nonexistent/perf.data", NULL, NULL, NULL, err, 1), -ENOENT);
	assert_string_equal(err, "");
}

/* Files on disk. */

static int make_tmpdir(void **state)
{
	char *dir = strdup("/tmp/test-perfdata-scan-XXXXXX");

	if (!dir || !mkdtemp(dir)) {
		free(dir);
		return -1;
	}
	*state = dir;
	return 0;
}

static int remove_tmpdir(void **state)
{
	char cmd[128];
	int ret;

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", (char *)*state);
	ret = system(cmd);
	free(*state);
	return ret ? -1 : 0;
}

static void tmp_path(void **state, char *buf, size_t len, const char *name)
{
	snprintf(buf, len, "%s/%s", (const char *)*state, name);
}

static void scans_a_file_on_disk(void **state)
{
	struct perfdata_writer w;
	struct perfdata_scan_stats st;
	struct found f = { 0 };
	char path[256], err[512];

	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	typical_records(&w, false);
	perfdata_writer__finish(&w);
	tmp_path(state, path, sizeof(path), "perf.data");
	assert_int_equal(perfdata_writer__save(&w, path), 0);
	assert_int_equal(perfdata__scan(path, collect, &f, &st, err, sizeof(err)), 0);
	assert_int_equal(f.nr, 1);
	assert_int_equal(f.pid[0], 4242);
	assert_string_equal(f.path[0], MARKER);
	assert_int_equal(st.records, 6);
	perfdata_writer__release(&w);
}

static void reports_files_that_cannot_be_scanned(void **state)
{
	char path[256], want[512], err[512];
	struct perfdata_scan_stats st;
	FILE *fp;

	tmp_path(state, path, sizeof(path), "missing.data");
	memset(&st, 0xff, sizeof(st));
	assert_int_equal(perfdata__scan(path, collect, NULL, &st, err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "%s: cannot open: no such file or directory", path);
	assert_string_equal(err, want);
	assert_int_equal(st.records, 0);

	/* A directory is taken for perf record --threads output: it needs a data file. */
	tmp_path(state, path, sizeof(path), "nodata.data");
	assert_int_equal(mkdir(path, 0700), 0);
	assert_int_equal(perfdata__scan(path, collect, NULL, NULL, err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "%s/data: cannot open: no such file or directory", path);
	assert_string_equal(err, want);
	tmp_path(state, path, sizeof(path), "nodata.data/data");
	assert_int_equal(mkdir(path, 0700), 0);
	tmp_path(state, path, sizeof(path), "nodata.data");
	assert_int_equal(perfdata__scan(path, collect, NULL, NULL, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s/data: not a regular file", path);
	assert_string_equal(err, want);

	/* A FIFO with no writer: opening it for reading must not block. */
	tmp_path(state, path, sizeof(path), "fifo");
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(perfdata__scan(path, collect, NULL, NULL, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: not a regular file", path);
	assert_string_equal(err, want);

	tmp_path(state, path, sizeof(path), "empty.data");
	fp = fopen(path, "w");
	assert_non_null(fp);
	fclose(fp);
	assert_int_equal(perfdata__scan(path, collect, NULL, NULL, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s+0x0: truncated header (0 bytes)", path);
	assert_string_equal(err, want);
}

static void save_in(void **state, struct perfdata_writer *w, const char *name)
{
	char path[256];

	perfdata_writer__finish(w);
	tmp_path(state, path, sizeof(path), name);
	assert_int_equal(perfdata_writer__save(w, path), 0);
	perfdata_writer__release(w);
}

static void reads_a_directory_the_way_perf_record_threads_writes_it(void **state)
{
	struct perfdata_writer w, raw;
	struct perfdata_writer_zstream z;
	struct perfdata_scan_stats st;
	struct found f = { 0 };
	char path[256], err[512];
	size_t half;

	tmp_path(state, path, sizeof(path), "threads.data");
	assert_int_equal(mkdir(path, 0700), 0);
	/* Everything in the other byte order: the data.* files follow the header file. */
	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, true);
	perfdata_writer__mmap(&w, (uint32_t)-1, 0, 0xffffffff81000000, 0x1000000, "[kernel.kallsyms]_text");
	perfdata_writer__mmap2(&w, 1, 1, 0x1000, 0x1000, "/d/jit-1.dump");
	save_in(state, &w, "threads.data/data");

	perfdata_writer__init(&w, PERFDATA_WRITER_RAW, true);
	perfdata_writer__filler(&w, 40);
	perfdata_writer__mmap2(&w, 2, 2, 0x1000, 0x1000, "/d/jit-2.dump");
	save_in(state, &w, "threads.data/data.0");

	/* data.2: a zstd stream whose data ends inside a record. */
	perfdata_writer__init(&raw, PERFDATA_WRITER_RAW, true);
	perfdata_writer__mmap2(&raw, 3, 3, 0x1000, 0x1000, "/d/jit-3.dump");
	half = raw.len;
	perfdata_writer__filler(&raw, 64);
	perfdata_writer__init(&w, PERFDATA_WRITER_RAW, true);
	assert_int_equal(perfdata_writer__zstream_init(&z), 0);
	assert_int_equal(perfdata_writer__zstream_flush(&z, &w, raw.buf, half + 20), 0);
	perfdata_writer__zstream_release(&z);
	perfdata_writer__release(&raw);
	save_in(state, &w, "threads.data/data.2");

	/* data.10: a stream of its own, starting fresh after data.2's unfinished one. */
	perfdata_writer__init(&raw, PERFDATA_WRITER_RAW, true);
	perfdata_writer__mmap(&raw, 4, 4, 0x1000, 0x1000, "/d/jit-4.dump");
	perfdata_writer__init(&w, PERFDATA_WRITER_RAW, true);
	assert_int_equal(perfdata_writer__zstream_init(&z), 0);
	assert_int_equal(perfdata_writer__zstream_flush(&z, &w, raw.buf, raw.len), 0);
	perfdata_writer__zstream_release(&z);
	perfdata_writer__release(&raw);
	save_in(state, &w, "threads.data/data.10");

	/* Ignored: not a regular file, not named data.*. */
	tmp_path(state, path, sizeof(path), "threads.data/data.5");
	assert_int_equal(mkdir(path, 0700), 0);
	perfdata_writer__init(&w, PERFDATA_WRITER_RAW, true);
	perfdata_writer__mmap2(&w, 5, 5, 0x1000, 0x1000, "/d/jit-5.dump");
	save_in(state, &w, "threads.data/other");

	tmp_path(state, path, sizeof(path), "threads.data");
	assert_int_equal(perfdata__scan(path, collect, &f, &st, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(f.nr, 4);
	for (int i = 0; i < 4; i++) {
		char want[32];

		snprintf(want, sizeof(want), "/d/jit-%d.dump", i + 1);
		assert_string_equal(f.path[i], want);
		assert_int_equal(f.pid[i], i + 1);
	}
	assert_int_equal(st.dir_format, 1);
	assert_int_equal(st.swapped, 1);
	assert_int_equal(st.compressed, 2);
	assert_int_equal(st.compressed_failed, 0);
	assert_int_equal(st.truncated, 1);
	assert_int_equal(st.records, 2 + 2 + 2 + 2);

	/* An error names the file inside the directory. */
	perfdata_writer__init(&w, PERFDATA_WRITER_RAW, true);
	perfdata_writer__filler(&w, 16);
	perfdata_writer__filler(&w, 16);
	perfdata_writer__put_u16(&w, 16 + 6, 2);
	save_in(state, &w, "threads.data/data.1");
	memset(&f, 0, sizeof(f));
	assert_int_equal(perfdata__scan(path, collect, &f, &st, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "threads.data/data.1+0x10: record size 2 < 8 (type 9)"));
	assert_int_equal(f.nr, 2);
}

/* Speed is measured by scripts/bench, not here: this only checks that a large
 * file is walked to its last record, from memory and from disk. */
static void finds_the_last_marker_of_a_ten_megabyte_file(void **state)
{
	struct perfdata_writer w;
	struct perfdata_scan_stats st;
	char path[256], err[256];
	struct found f = { 0 };

	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	typical_records(&w, false);
	while (w.len < (10u << 20) && !w.oom) {
		perfdata_writer__filler(&w, 40);
		perfdata_writer__filler(&w, 48);
		if (w.len % 64 == 0)
			perfdata_writer__mmap2(&w, 77, 77, 0x1000, 0x1000, "/usr/lib/libfoo.so");
	}
	perfdata_writer__mmap2(&w, 5, 5, 0x1000, 0x1000, "/last/jit-5.dump");
	perfdata_writer__finish(&w);
	assert_false(w.oom);
	tmp_path(state, path, sizeof(path), "big.data");
	assert_int_equal(perfdata_writer__save(&w, path), 0);
	assert_int_equal(perfdata__scan_buf(w.buf, w.len, "big.data", collect, &f, &st, err, sizeof(err)), 0);
	assert_int_equal(f.nr, 2);
	assert_int_equal(perfdata__scan(path, collect, &f, &st, err, sizeof(err)), 0);
	assert_int_equal(f.nr, 4);
	assert_true(st.records > 200000);
	perfdata_writer__release(&w);
}

/*
 * Real recordings of build/tools/jitmarker, made as test-data/perfdata/README.md
 * says; the expected values are the ones stated there (from perf report -D).
 */
struct fixture {
	const char *file;
	uint32_t pid;
	const char *path;
	uint64_t records;	/* perf report --stats: TOTAL events */
	int pipe_format;
	uint64_t compressed;
	int dir_format;
	uint64_t split_records;	/* by test-data/perfdata/inspect.py */
};

#define REC_DIR "/tmp/hotblocks-rec/perfdata/"

static const struct fixture fixtures[] = {
	{ .file = "test-data/perfdata/file.data", .pid = 13150, .path = REC_DIR "jit-13150.dump",
	  .records = 66 },
	{ .file = "test-data/perfdata/pipe.data", .pid = 13153, .path = REC_DIR "jit-13153.dump",
	  .records = 90, .pipe_format = 1 },
	{ .file = "test-data/perfdata/zstd.data", .pid = 13156, .path = REC_DIR "jit-13156.dump",
	  .records = 68, .compressed = 1 },
	{ .file = "test-data/perfdata/zstd-split.data", .pid = 13159, .path = REC_DIR "jit-13159.dump",
	  .records = 235, .compressed = 8, .split_records = 1 },
	{ .file = "test-data/perfdata/threads.data", .pid = 13228, .path = REC_DIR "jit-13228.dump",
	  .records = 65, .dir_format = 1 },
};

static void check_fixture(const struct fixture *fx)
{
	struct perfdata_scan_stats st;
	struct found f = { 0 };
	char err[512];

	assert_int_equal(perfdata__scan(fx->file, collect, &f, &st, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(f.nr, 1);
	assert_int_equal(f.pid[0], fx->pid);
	assert_string_equal(f.path[0], fx->path);
	assert_int_equal(st.records, fx->records);
	assert_int_equal(st.pipe_format, fx->pipe_format);
	assert_int_equal(st.dir_format, fx->dir_format);
	assert_int_equal(st.swapped, 0);
	assert_int_equal(st.compressed, fx->compressed);
	assert_int_equal(st.split_records, fx->split_records);
	assert_int_equal(st.compressed_failed, 0);
	assert_int_equal(st.truncated, 0);
	assert_int_equal(st.malformed, 0);
}

static void finds_the_marker_in_the_file_mode_recording(void **state)
{
	check_fixture(&fixtures[0]);
}

static void finds_the_marker_in_the_pipe_mode_recording(void **state)
{
	check_fixture(&fixtures[1]);
}

static void finds_the_marker_in_the_compressed_recording(void **state)
{
	check_fixture(&fixtures[2]);
}

static void finds_the_marker_in_the_compressed_recording_with_a_split_record(void **state)
{
	check_fixture(&fixtures[3]);
}

static void finds_the_marker_in_the_threads_directory_recording(void **state)
{
	check_fixture(&fixtures[4]);
}

int main(void)
{
	const struct CMUnitTest buffer_tests[] = {
		cmocka_unit_test(finds_the_marker_in_an_mmap2_record_of_a_file_mode_file),
		cmocka_unit_test(finds_the_marker_in_an_mmap_record),
		cmocka_unit_test(finds_the_marker_in_a_byte_swapped_file),
		cmocka_unit_test(finds_the_marker_in_a_pipe_mode_file),
		cmocka_unit_test(finds_the_marker_in_a_byte_swapped_pipe_mode_file),
		cmocka_unit_test(reports_every_marker_in_file_order_duplicates_included),
		cmocka_unit_test(matches_only_basenames_of_the_form_jit_digits_dump),
		cmocka_unit_test(ignores_mappings_whose_name_is_not_a_jitdump),
		cmocka_unit_test(skips_an_mmap_name_without_a_nul),
		cmocka_unit_test(skips_an_mmap_record_too_short_to_hold_a_name),
		cmocka_unit_test(rejects_a_record_smaller_than_its_header),
		cmocka_unit_test(rejects_a_record_running_past_the_data_section),
		cmocka_unit_test(rejects_a_record_header_cut_by_the_end_of_the_data_section),
		cmocka_unit_test(accepts_a_pipe_mode_file_that_ends_mid_record),
		cmocka_unit_test(rejects_a_truncated_header),
		cmocka_unit_test(rejects_a_file_that_is_not_perf_data),
		cmocka_unit_test(rejects_a_header_size_that_is_neither_pipe_nor_file),
		cmocka_unit_test(rejects_a_data_section_outside_the_file),
		cmocka_unit_test(accepts_an_empty_data_section),
		cmocka_unit_test(returns_the_callback_stop_value),
		cmocka_unit_test(finds_the_marker_inside_a_compressed_record),
		cmocka_unit_test(returns_the_callback_stop_value_from_inside_compressed_data),
		cmocka_unit_test(finds_the_marker_inside_a_compressed_record_of_a_pipe_mode_file),
		cmocka_unit_test(finds_the_marker_inside_a_compressed2_record),
		cmocka_unit_test(finds_markers_in_every_flush_of_one_zstd_frame),
		cmocka_unit_test(finds_a_marker_record_split_across_two_compressed_records),
		cmocka_unit_test(counts_a_compressed_record_with_a_garbage_payload_and_goes_on),
		cmocka_unit_test(counts_a_compressed_record_holding_corrupt_records),
		cmocka_unit_test(counts_a_compressed2_record_whose_data_size_overruns_it),
		cmocka_unit_test(does_not_decompress_compressed_data_inside_compressed_data),
		cmocka_unit_test(stops_decompressing_a_record_beyond_its_output_cap),
		cmocka_unit_test(refuses_a_zstd_window_above_128_mib),
		cmocka_unit_test(flags_compressed_data_that_ends_mid_record),
		cmocka_unit_test(survives_random_corruption),
		cmocka_unit_test(tolerates_null_stats_and_small_error_buffers),
	};
	const struct CMUnitTest file_tests[] = {
		cmocka_unit_test(scans_a_file_on_disk),
		cmocka_unit_test(reports_files_that_cannot_be_scanned),
		cmocka_unit_test(reads_a_directory_the_way_perf_record_threads_writes_it),
		cmocka_unit_test(finds_the_last_marker_of_a_ten_megabyte_file),
		cmocka_unit_test(finds_the_marker_in_the_file_mode_recording),
		cmocka_unit_test(finds_the_marker_in_the_pipe_mode_recording),
		cmocka_unit_test(finds_the_marker_in_the_compressed_recording),
		cmocka_unit_test(finds_the_marker_in_the_compressed_recording_with_a_split_record),
		cmocka_unit_test(finds_the_marker_in_the_threads_directory_recording),
	};
	int failed;

	failed = cmocka_run_group_tests_name("perfdata-scan buffers", buffer_tests, NULL, NULL);
	failed += cmocka_run_group_tests_name("perfdata-scan files", file_tests, make_tmpdir,
					      remove_tmpdir);
	return failed ? 1 : 0;
}

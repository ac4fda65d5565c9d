/* SPDX-License-Identifier: MIT */
/* Unit tests of the perf.data reader (plugin/perf/perfdata*.c) on bytes built
 * in memory: markers in every file shape and byte order, names, framing
 * errors, the callback, and random damage. Compressed records: test-perfdata-zstd.c; files and
 * real recordings: test-perfdata-files.c. */
#include "tests/perfdata-check.h"

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

/* The attr section, its entry size and each entry's ids section must fit the file
 * (perf refuses such a file too); an entry size near 2^64 used to wrap the entry
 * walk's end and point before the buffer (UBSan; corpus/perfdata/crash-attr-size-wraps). */
static void rejects_an_attr_section_that_does_not_fit_the_file(void **state)
{
	static const struct {
		uint64_t asize, off, size;
		const char *err;
	} cases[] = {
		{ 144, 0x1000, 144, "t.data+0x18: attr section 0x1000+0x90 runs past end of file (0xc8 bytes)" },
		{ 144, 104, UINT64_MAX, "t.data+0x18: attr section 0x68+0xffffffffffffffff runs past end of file" },
		{ UINT64_MAX - 103 + 16, 104, 64, "t.data+0x10: attr entry size 18446744073709551528 does not fit" },
		{ 0, 104, 64, "t.data+0x10: attr entry size 0 does not fit the attr section (64 bytes;" },
		{ 63, 104, 64, "t.data+0x10: attr entry size 63 does not fit" },
		{ 144, 104, 64, "t.data+0x10: attr entry size 144 does not fit" },
	};
	struct perfdata_writer w;
	struct found f = { 0 };
	char err[256];

	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	perfdata_writer__mmap2(&w, 4242, 4242, 0x1000, 0x1000, MARKER);
	perfdata_writer__finish(&w);
	w.mode = PERFDATA_WRITER_RAW;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		perfdata_writer__put_u64(&w, 16, cases[i].asize);
		perfdata_writer__put_u64(&w, 24, cases[i].off);
		perfdata_writer__put_u64(&w, 32, cases[i].size);
		assert_int_equal(scan(&w, &f, NULL, err, sizeof(err)), -EINVAL);
		assert_memory_equal(err, cases[i].err, strlen(cases[i].err));
	}
	assert_int_equal(f.nr, 0);
	/* one entry of 64 bytes at the end whose ids section lies past the file */
	perfdata_writer__fill(&w, 0, 48);
	perfdata_writer__u64(&w, 0x1000);
	perfdata_writer__u64(&w, 8);
	perfdata_writer__put_u64(&w, 16, 64);
	perfdata_writer__put_u64(&w, 24, w.len - 64);
	perfdata_writer__put_u64(&w, 32, 64);
	assert_int_equal(scan(&w, &f, NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "t.data+0xf8: ids section 0x1000+0x8 of the attr at 0xc8 runs past end of file (0x108 bytes)");
	/* in the file, it is read: the marker is found */
	perfdata_writer__put_u64(&w, w.len - 16, 104);
	assert_int_equal(scan(&w, &f, NULL, err, sizeof(err)), 0);
	assert_int_equal(f.nr, 1);
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

int main(void)
{
	const struct CMUnitTest tests[] = {
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
		cmocka_unit_test(rejects_an_attr_section_that_does_not_fit_the_file),
		cmocka_unit_test(accepts_an_empty_data_section),
		cmocka_unit_test(returns_the_callback_stop_value),
		cmocka_unit_test(returns_the_callback_stop_value_from_inside_compressed_data),
		cmocka_unit_test(survives_random_corruption),
		cmocka_unit_test(tolerates_null_stats_and_small_error_buffers),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

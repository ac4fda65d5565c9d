/* SPDX-License-Identifier: MIT */
/* Unit tests of the perf.data reader (plugin/perf/perfdata*.c) on files: on
 * disk, unreadable, perf record --threads directories, a large file, and the
 * real recordings in test-data/perfdata/. */
#include "tests/perfdata-check.h"

/* Files on disk. */

static int make_tmpdir(void **state)
{
	char *dir = strdup("/tmp/test-perfdata-XXXXXX");

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
	const struct CMUnitTest tests[] = {
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

	return cmocka_run_group_tests(tests, make_tmpdir, remove_tmpdir);
}

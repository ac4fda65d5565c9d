/* SPDX-License-Identifier: MIT */
/* Unit tests of the perf.data reader (plugin/perf/perfdata-zstd.c) on
 * compressed records (perf record -z): one zstd stream across records, split
 * records, bad payloads and the bounds. */
#include "tests/perfdata-check.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(finds_the_marker_inside_a_compressed_record),
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

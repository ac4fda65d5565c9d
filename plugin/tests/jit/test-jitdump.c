/* SPDX-License-Identifier: MIT */
/* Unit tests of the jitdump reader (plugin/jit/jitdump.c), over files built by
 * jitdump-writer: every record type read in either byte order, and the
 * header, well-formed and not. Each record type's own cases are in
 * test-jitdump-records.c; growing, cut and damaged dumps in
 * test-jitdump-growth.c. */
#include "tests/jitdump-check.h"

static const struct jitdump_writer_debug_entry entries[] = {
	{ 0x1000, 1, 0, "a.c" },
	{ 0x1002, 2, 3, "\xff" },
};
static const uint8_t fcode[] = { 0x55, 0x48, 0x89, 0xe5, 0xc3 };
static const uint8_t gcode[] = { 0x90, 0xc3 };

/* Header, DEBUG_INFO, UNWINDING_INFO, LOAD f, LOAD g, MOVE f, unknown id 99,
 * CLOSE into w; returns the MOVE's offset. */
static size_t write_every_record_type(struct jitdump_writer *w, bool big_endian)
{
	size_t move_off, unknown;

	jitdump_writer__init(w, big_endian);
	write_header(w, 4242);
	jitdump_writer__debug_info(w, 10, 0x1000, entries, 2, false);
	jitdump_writer__unwinding_info(w, 11, NULL, 24, 20, 88);
	jitdump_writer__code_load(w, &(struct jitdump_writer_load){
		.timestamp = 12, .pid = 4242, .tid = 4243, .vma = 0x1000,
		.code_addr = 0x1000, .code_index = 0, .name = "f",
		.code = fcode, .code_size = sizeof(fcode),
	});
	write_load(w, "g", 0x2000, 1, gcode, sizeof(gcode));
	move_off = jitdump_writer__code_move(w, &(struct jitdump_writer_move){
		.timestamp = 14, .pid = 4242, .tid = 4244, .old_code_addr = 0x1000,
		.new_code_addr = 0x3000, .code_size = sizeof(fcode), .code_index = 0,
	});
	unknown = jitdump_writer__begin(w, 99, 15);
	jitdump_writer__u64(w, 0x1234);
	jitdump_writer__end(w, unknown);
	jitdump_writer__code_close(w, 16);
	return move_off;
}

/* LOAD f, with the DEBUG_INFO and UNWINDING_INFO before it. */
static void check_load_f(const struct jitdump_load *l)
{
	assert_string_equal(l->name, "f");
	assert_int_equal(l->timestamp, 12);
	assert_int_equal(l->pid, 4242);
	assert_int_equal(l->tid, 4243);
	assert_int_equal(l->vma, 0x1000);
	assert_int_equal(l->code_addr, 0x1000);
	assert_int_equal(l->code_size, sizeof(fcode));
	assert_int_equal(l->code_index, 0);
	assert_memory_equal(l->code, fcode, sizeof(fcode));
	assert_int_equal(l->file_offset, 40 + (32 + 20 + 18) + (40 + 24));
	assert_int_equal(l->moved_from, -1);
	assert_int_equal(l->unwind_mapped_size, 88);
	assert_int_equal(l->debug_nr, 2);
	assert_int_equal(l->debug[0].addr, 0x1000);
	assert_int_equal(l->debug[0].line, 1);
	assert_int_equal(l->debug[0].discrim, 0);
	assert_string_equal(l->debug[0].file, "a.c");
	assert_int_equal(l->debug[1].addr, 0x1002);
	assert_int_equal(l->debug[1].line, 2);
	assert_int_equal(l->debug[1].discrim, 3);
	assert_string_equal(l->debug[1].file, "\xff");
}

static void check_every_record_type(void **state, bool big_endian)
{
	const char *path = new_path(state);
	struct jitdump_writer w;
	size_t move_off = write_every_record_type(&w, big_endian);
	struct jitdump *jd;

	save(&w, path);
	jd = open_ok(path);
	assert_int_equal(jd->swapped, jitdump_writer__swapped(&w));
	assert_string_equal(jd->path, path);
	assert_int_equal(jd->version, 1);
	assert_int_equal(jd->elf_mach, 62);
	assert_int_equal(jd->pid, 4242);
	assert_int_equal(jd->flags, 0);
	assert_int_equal(jd->header_size, 40);
	assert_int_equal(jd->parsed_off, w.len);
	assert_int_equal(jitdump__tail_bytes(jd), 0);
	assert_true(jd->closed);
	assert_int_equal(jd->unknown_records, 1);
	assert_int_equal(jd->orphan_moves, 0);
	assert_int_equal(jd->unwind_records, 1);
	assert_int_equal(jd->debug_records, 1);
	assert_int_equal(jd->nr, 3);

	check_load_f(&jd->loads[0]);

	assert_string_equal(jd->loads[1].name, "g");
	assert_int_equal(jd->loads[1].code_addr, 0x2000);
	assert_memory_equal(jd->loads[1].code, gcode, sizeof(gcode));
	assert_int_equal(jd->loads[1].debug_nr, 0);
	assert_null(jd->loads[1].debug);
	assert_int_equal(jd->loads[1].unwind_mapped_size, 0);

	assert_string_equal(jd->loads[2].name, "f");
	assert_int_equal(jd->loads[2].code_addr, 0x3000);
	assert_int_equal(jd->loads[2].timestamp, 14);
	assert_int_equal(jd->loads[2].tid, 4244);
	assert_int_equal(jd->loads[2].moved_from, 0);
	assert_int_equal(jd->loads[2].file_offset, move_off);
	assert_memory_equal(jd->loads[2].code, fcode, sizeof(fcode));

	jitdump__close(jd);
	jitdump_writer__release(&w);
}

static void reads_every_record_type_of_a_little_endian_dump(void **state)
{
	check_every_record_type(state, false);
}

static void reads_every_record_type_of_a_big_endian_dump(void **state)
{
	check_every_record_type(state, true);
}

/* Byte-swapped relative to the host, whatever the host is. */
static void swaps_every_field_of_a_dump_in_the_other_byte_order(void **state)
{
	struct jitdump_writer w;

	jitdump_writer__init(&w, false);
	check_every_record_type(state, !jitdump_writer__swapped(&w));
}

static void check_header_size(void **state, uint32_t total_size)
{
	const char *path = new_path(state);
	struct jitdump_writer_header h = jitdump_writer__default_header(1);
	struct jitdump_writer w;
	struct jitdump *jd;

	jitdump_writer__init(&w, false);
	h.total_size = total_size;
	jitdump_writer__header(&w, &h);
	assert_int_equal(w.len, total_size);
	write_load(&w, "after_the_header", 0x1000, 0, NULL, 3);
	save(&w, path);

	jd = open_ok(path);
	assert_int_equal(jd->header_size, total_size);
	assert_int_equal(jd->nr, 1);
	assert_string_equal(jd->loads[0].name, "after_the_header");
	assert_int_equal(jd->loads[0].file_offset, total_size);
	assert_int_equal(jd->unknown_records, 0);
	assert_int_equal(jitdump__tail_bytes(jd), 0);
	jitdump__close(jd);
	jitdump_writer__release(&w);
}

static void skips_8_extra_header_bytes_when_header_total_size_is_48(void **state)
{
	check_header_size(state, 48);
}

static void skips_60_extra_header_bytes_when_header_total_size_is_100(void **state)
{
	check_header_size(state, 100);
}

static void waits_for_a_header_whose_total_size_runs_past_the_end(void **state)
{
	const char *path = new_path(state);
	struct jitdump_writer_header h = jitdump_writer__default_header(1);
	struct jitdump_writer w;
	char err[512];
	struct jitdump *jd;

	jitdump_writer__init(&w, false);
	h.total_size = 100;
	jitdump_writer__header(&w, &h);
	write_load(&w, "late", 0x1000, 0, NULL, 3);
	assert_int_equal(jitdump_writer__save(&w, path, 70), 0);

	jd = open_ok(path);
	assert_int_equal(jd->nr, 0);
	assert_int_equal(jitdump__tail_bytes(jd), 30);
	assert_int_equal(jitdump_writer__append(&w, path, 70, w.len), 0);
	assert_int_equal(jitdump__update(jd, err, sizeof(err)), 1);
	assert_string_equal(jd->loads[0].name, "late");
	assert_int_equal(jitdump__tail_bytes(jd), 0);
	jitdump__close(jd);
	jitdump_writer__release(&w);
}

static void check_bad_header(void **state, void (*corrupt)(struct jitdump_writer_header *),
			     int code, uint64_t off, const char *needle)
{
	const char *path = new_path(state);
	struct jitdump_writer_header h = jitdump_writer__default_header(1);
	struct jitdump_writer w;

	jitdump_writer__init(&w, false);
	corrupt(&h);
	jitdump_writer__header(&w, &h);
	write_load(&w, "f", 0x1000, 0, NULL, 3);
	save(&w, path);
	expect_open_error(path, code, off, needle);
	jitdump_writer__release(&w);
}

static void version_2(struct jitdump_writer_header *h)
{
	h->version = 2;
}

static void reserved_flag_bit_1(struct jitdump_writer_header *h)
{
	h->flags = 2;
}

static void reserved_flag_bit_63(struct jitdump_writer_header *h)
{
	h->flags = 1ULL << 63 | JITDUMP_FLAGS_ARCH_TIMESTAMP;
}

static void arch_timestamp(struct jitdump_writer_header *h)
{
	h->flags = JITDUMP_FLAGS_ARCH_TIMESTAMP;
}

static void bad_magic(struct jitdump_writer_header *h)
{
	h->magic = 0x12345678;
}

static void header_total_size_39(struct jitdump_writer_header *h)
{
	h->total_size = 39;
}

static void rejects_version_2(void **state)
{
	check_bad_header(state, version_2, -ENOTSUP, 0x4, "unsupported jitdump version 2");
}

static void rejects_reserved_flag_bits(void **state)
{
	check_bad_header(state, reserved_flag_bit_1, -ENOTSUP, 0x20, "reserved flag bits set in flags 0x2");
	check_bad_header(state, reserved_flag_bit_63, -ENOTSUP, 0x20,
			 "reserved flag bits set in flags 0x8000000000000001");
}

static void rejects_arch_timestamps_saying_time_conv_is_not_available_to_a_dlfilter(void **state)
{
	check_bad_header(state, arch_timestamp, -ENOTSUP, 0x20, "JITDUMP_FLAGS_ARCH_TIMESTAMP");
	check_bad_header(state, arch_timestamp, -ENOTSUP, 0x20,
			 "TIME_CONV record, and that conversion is not available to a dlfilter");
}

static void rejects_a_bad_magic(void **state)
{
	check_bad_header(state, bad_magic, -EINVAL, 0x0, "bad magic 0x12345678");
}

static void rejects_a_header_total_size_below_40(void **state)
{
	check_bad_header(state, header_total_size_39, -EINVAL, 0x8, "header total_size 39 < 40");
}

static void rejects_a_file_shorter_than_the_40_byte_header(void **state)
{
	const char *path = new_path(state);
	struct jitdump_writer w;

	jitdump_writer__init(&w, false);
	write_header(&w, 1);
	assert_int_equal(jitdump_writer__save(&w, path, 39), 0);
	expect_open_error(path, -ENODATA, 0, "header truncated: the file has 39 of its 40 bytes");
	assert_int_equal(jitdump_writer__save(&w, path, 0), 0);
	expect_open_error(path, -ENODATA, 0, "the file has 0 of its 40 bytes");
	jitdump_writer__release(&w);
}

static void names_the_file_when_it_cannot_be_opened(void **state)
{
	const char *path = new_path(state);
	char err[512] = "";
	struct jitdump *jd;

	assert_int_equal(jitdump__open(&jd, path, err, sizeof(err)), -ENOENT);
	assert_null(jd);
	assert_contains(err, path);
	assert_contains(err, "cannot open");
}

static void close_accepts_null(void **state)
{
	(void)state;
	jitdump__close(NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_every_record_type_of_a_little_endian_dump),
		cmocka_unit_test(reads_every_record_type_of_a_big_endian_dump),
		cmocka_unit_test(swaps_every_field_of_a_dump_in_the_other_byte_order),
		cmocka_unit_test(skips_8_extra_header_bytes_when_header_total_size_is_48),
		cmocka_unit_test(skips_60_extra_header_bytes_when_header_total_size_is_100),
		cmocka_unit_test(waits_for_a_header_whose_total_size_runs_past_the_end),
		cmocka_unit_test(rejects_version_2),
		cmocka_unit_test(rejects_reserved_flag_bits),
		cmocka_unit_test(rejects_arch_timestamps_saying_time_conv_is_not_available_to_a_dlfilter),
		cmocka_unit_test(rejects_a_bad_magic),
		cmocka_unit_test(rejects_a_header_total_size_below_40),
		cmocka_unit_test(rejects_a_file_shorter_than_the_40_byte_header),
		cmocka_unit_test(names_the_file_when_it_cannot_be_opened),
		cmocka_unit_test(close_accepts_null),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}

/* SPDX-License-Identifier: MIT */
/* Unit tests of the jitdump reader (plugin/jit/jitdump.c), over files built by
 * jitdump-writer: each record type's own cases, well-formed and not (unknown
 * ids, DEBUG_INFO and UNWINDING_INFO, MOVE, LOAD, total_size). */
#include "tests/jitdump-check.h"

static void skips_and_counts_unknown_record_ids(void **state)
{
	const char *path = new_path(state);
	struct jitdump_writer w;
	struct jitdump *jd;
	size_t rec;

	jitdump_writer__init(&w, false);
	write_header(&w, 1);
	rec = jitdump_writer__begin(&w, 5, 1);
	jitdump_writer__fill(&w, 0, 3);
	jitdump_writer__end(&w, rec);
	write_load(&w, "a", 0x1000, 0, NULL, 1);
	rec = jitdump_writer__begin(&w, 0xffffffff, 2);	/* prefix only */
	jitdump_writer__end(&w, rec);
	write_load(&w, "b", 0x2000, 1, NULL, 1);
	save(&w, path);

	jd = open_ok(path);
	assert_int_equal(jd->unknown_records, 2);
	assert_int_equal(jd->nr, 2);
	assert_string_equal(jd->loads[0].name, "a");
	assert_string_equal(jd->loads[1].name, "b");
	jitdump__close(jd);
	jitdump_writer__release(&w);
}

static void attaches_debug_and_unwinding_info_to_the_next_load_only(void **state)
{
	static const struct jitdump_writer_debug_entry old[] = { { 0x1, 9, 0, "old.c" } };
	static const struct jitdump_writer_debug_entry e[] = { { 0x1000, 5, 0, "x.c" } };
	const char *path = new_path(state);
	struct jitdump_writer w;
	struct jitdump *jd;

	jitdump_writer__init(&w, true);
	write_header(&w, 1);
	/* Of two DEBUG_INFO in a row only the last one precedes the LOAD. */
	jitdump_writer__debug_info(&w, 1, 0x1, old, 1, false);
	jitdump_writer__debug_info(&w, 1, 0x1000, e, 1, false);
	jitdump_writer__unwinding_info(&w, 2, NULL, 20, 20, 64);
	write_load(&w, "first", 0x1000, 0, NULL, 8);
	write_load(&w, "second", 0x2000, 1, NULL, 8);
	jitdump_writer__unwinding_info(&w, 3, NULL, 20, 20, 0);
	write_load(&w, "third", 0x3000, 2, NULL, 8);
	/* Pending at the end of the file: attached to nothing, freed on close. */
	jitdump_writer__debug_info(&w, 4, 0x4000, e, 1, false);
	save(&w, path);

	jd = open_ok(path);
	assert_int_equal(jd->nr, 3);
	assert_int_equal(jd->debug_records, 3);
	assert_int_equal(jd->unwind_records, 2);
	assert_int_equal(jd->loads[0].debug_nr, 1);
	assert_string_equal(jd->loads[0].debug[0].file, "x.c");
	assert_int_equal(jd->loads[0].debug[0].line, 5);
	assert_int_equal(jd->loads[0].unwind_mapped_size, 64);
	assert_int_equal(jd->loads[1].debug_nr, 0);
	assert_null(jd->loads[1].debug);
	assert_int_equal(jd->loads[1].unwind_mapped_size, 0);
	assert_int_equal(jd->loads[2].debug_nr, 0);
	assert_int_equal(jd->loads[2].unwind_mapped_size, 0);
	assert_int_equal(jd->pending_debug_nr, 1);
	jitdump__close(jd);
	jitdump_writer__release(&w);
}

static void walks_padded_debug_info_by_nr_entry_and_skips_by_total_size(void **state)
{
	static const struct jitdump_writer_debug_entry e[] = {
		{ 0x1000, 1, 0, "ab.c" },
		{ 0x1008, 2, 0, "\xff" },
	};
	const char *path = new_path(state);
	struct jitdump_writer w;
	struct jitdump *jd;
	size_t rec;

	jitdump_writer__init(&w, false);
	write_header(&w, 1);
	rec = jitdump_writer__debug_info(&w, 1, 0x1000, e, 2, true);
	assert_int_equal((w.len - rec) % 8, 0);
	assert_true(w.len - rec > 32 + 21 + 18);
	write_load(&w, "f", 0x1000, 0, NULL, 16);
	/* Junk (not zeros) after the entries: nr_entry says where they end. */
	rec = jitdump_writer__debug_info(&w, 2, 0x2000, e, 1, false);
	jitdump_writer__fill(&w, 0xff, 11);
	jitdump_writer__end(&w, rec);
	write_load(&w, "g", 0x2000, 1, NULL, 16);
	save(&w, path);

	jd = open_ok(path);
	assert_int_equal(jd->nr, 2);
	assert_int_equal(jd->loads[0].debug_nr, 2);
	assert_string_equal(jd->loads[0].debug[0].file, "ab.c");
	assert_int_equal(jd->loads[0].debug[1].addr, 0x1008);
	assert_int_equal(jd->loads[0].debug[1].line, 2);
	assert_int_equal(jd->loads[1].debug_nr, 1);
	assert_string_equal(jd->loads[1].name, "g");
	jitdump__close(jd);
	jitdump_writer__release(&w);
}

static void keeps_the_ff_file_name_meaning_same_as_previous(void **state)
{
	static const struct jitdump_writer_debug_entry e[] = {
		{ 0x10, 1, 0, "a.c" },
		{ 0x14, 2, 0, "\xff" },
		{ 0x18, 3, 0, "\xff" },
		{ 0x1c, 4, 0, "b.c" },
		{ 0x20, 5, 0, "" },
	};
	const char *path = new_path(state);
	struct jitdump_writer w;
	struct jitdump *jd;

	jitdump_writer__init(&w, false);
	write_header(&w, 1);
	jitdump_writer__debug_info(&w, 1, 0x10, e, 5, false);
	write_load(&w, "f", 0x10, 0, NULL, 32);
	save(&w, path);

	jd = open_ok(path);
	assert_int_equal(jd->loads[0].debug_nr, 5);
	assert_string_equal(jd->loads[0].debug[0].file, "a.c");
	assert_string_equal(jd->loads[0].debug[1].file, "\xff");
	assert_string_equal(jd->loads[0].debug[2].file, "\xff");
	assert_string_equal(jd->loads[0].debug[3].file, "b.c");
	assert_string_equal(jd->loads[0].debug[4].file, "");
	assert_int_equal(jd->loads[0].debug[4].line, 5);
	jitdump__close(jd);
	jitdump_writer__release(&w);
}

static void rejects_debug_info_whose_nr_entry_cannot_fit(void **state)
{
	static const struct jitdump_writer_debug_entry e[] = { { 0x10, 1, 0, "a.c" } };
	const char *path = new_path(state);
	struct jitdump_writer w;
	size_t rec;

	jitdump_writer__init(&w, false);
	write_header(&w, 1);
	write_load(&w, "f", 0x10, 0, NULL, 32);
	rec = jitdump_writer__debug_info(&w, 1, 0x10, e, 1, false);
	jitdump_writer__put_u64(&w, rec + 24, UINT64_MAX);
	save(&w, path);
	expect_open_error(path, -EINVAL, rec,
			  "debug info nr_entry 18446744073709551615 cannot fit in total_size 52");
	jitdump_writer__release(&w);
}

static void rejects_a_debug_entry_that_runs_past_the_record(void **state)
{
	static const struct jitdump_writer_debug_entry e[] = { { 0x10, 1, 0, "a.c" } };
	const char *path = new_path(state);
	struct jitdump_writer w;
	size_t rec;

	jitdump_writer__init(&w, false);
	write_header(&w, 1);
	rec = jitdump_writer__debug_info(&w, 1, 0x10, e, 1, false);
	jitdump_writer__u64(&w, 0x14);		/* entry 1 without its name's NUL */
	jitdump_writer__u32(&w, 2);
	jitdump_writer__u32(&w, 0);
	jitdump_writer__bytes(&w, "b.c", 3);
	jitdump_writer__put_u64(&w, rec + 24, 2);
	jitdump_writer__end(&w, rec);
	write_load(&w, "f", 0x10, 0, NULL, 32);
	save(&w, path);
	expect_open_error(path, -EINVAL, rec + 32 + 20,
			  "debug info entry 1 of 2 runs past the record end (total_size 71)");
	jitdump_writer__release(&w);
}

static void move_adds_a_load_at_the_new_address_with_the_move_timestamp(void **state)
{
	static const uint8_t code[] = { 1, 2, 3, 4, 5, 6 };
	const char *path = new_path(state);
	struct jitdump_writer w;
	size_t move1, move2;
	struct jitdump *jd;
	char err[512];

	jitdump_writer__init(&w, false);
	write_header(&w, 1);
	write_load(&w, "moved", 0x1000, 7, code, sizeof(code));
	write_load(&w, "other", 0x8000, 8, NULL, 2);
	move1 = jitdump_writer__code_move(&w, &(struct jitdump_writer_move){
		.timestamp = 500, .pid = 7, .tid = 9, .old_code_addr = 0x1000,
		.new_code_addr = 0x5000, .code_size = sizeof(code), .code_index = 7,
	});
	move2 = jitdump_writer__code_move(&w, &(struct jitdump_writer_move){
		.timestamp = 600, .old_code_addr = 0x5000, .new_code_addr = 0x6000,
		.code_size = sizeof(code), .code_index = 7,
	});
	save(&w, path);

	jd = open_ok(path);
	assert_int_equal(jd->nr, 4);
	assert_int_equal(jd->orphan_moves, 0);
	assert_string_equal(jd->loads[2].name, "moved");
	assert_int_equal(jd->loads[2].code_addr, 0x5000);
	assert_int_equal(jd->loads[2].vma, 0x5000);
	assert_int_equal(jd->loads[2].timestamp, 500);
	assert_int_equal(jd->loads[2].tid, 9);
	assert_int_equal(jd->loads[2].code_index, 7);
	assert_int_equal(jd->loads[2].code_size, sizeof(code));
	assert_memory_equal(jd->loads[2].code, code, sizeof(code));
	assert_int_equal(jd->loads[2].moved_from, 0);
	assert_int_equal(jd->loads[2].file_offset, move1);
	/* The original stays: samples before the move still resolve to it. */
	assert_int_equal(jd->loads[0].code_addr, 0x1000);
	/* A second move copies from the latest holder of the code_index. */
	assert_int_equal(jd->loads[3].code_addr, 0x6000);
	assert_int_equal(jd->loads[3].timestamp, 600);
	assert_int_equal(jd->loads[3].moved_from, 2);
	assert_int_equal(jd->loads[3].file_offset, move2);
	assert_int_equal(jitdump__update(jd, err, sizeof(err)), 0);
	jitdump__close(jd);
	jitdump_writer__release(&w);
}

static void counts_a_move_of_a_code_index_never_loaded_as_orphan(void **state)
{
	const char *path = new_path(state);
	struct jitdump_writer w;
	struct jitdump *jd;

	jitdump_writer__init(&w, false);
	write_header(&w, 1);
	/* A MOVE cannot come before its LOAD. */
	jitdump_writer__code_move(&w, &(struct jitdump_writer_move){
		.timestamp = 1, .new_code_addr = 0x5000, .code_size = 4, .code_index = 3,
	});
	write_load(&w, "f", 0x1000, 3, NULL, 4);
	jitdump_writer__code_move(&w, &(struct jitdump_writer_move){
		.timestamp = 2, .new_code_addr = 0x5000, .code_size = 4, .code_index = 4,
	});
	save(&w, path);

	jd = open_ok(path);
	assert_int_equal(jd->orphan_moves, 2);
	assert_int_equal(jd->nr, 1);
	assert_string_equal(jd->loads[0].name, "f");
	jitdump__close(jd);
	jitdump_writer__release(&w);
}

/* Crafted: code at the top of the address space running past 2^64 (no
 * runtime writes it; a forged or broken dump). Before: kept, its end
 * saturated, so it claimed addresses up to the top that were not its. */
static void skips_and_counts_a_load_or_move_whose_code_passes_2_64(void **state)
{
	const char *path = new_path(state);
	struct jitdump_writer w;
	struct jitdump *jd;
	size_t first;

	jitdump_writer__init(&w, false);
	write_header(&w, 1);
	first = w.len;
	write_load(&w, "wraps", 0xfffffffffffff000ull, 1, NULL, 0x2000);
	write_load(&w, "top", 0xfffffffffffffff0ull, 2, NULL, 0x10);	/* ends at 2^64 exactly: kept */
	write_load(&w, "f", 0x1000, 3, NULL, 4);
	jitdump_writer__code_move(&w, &(struct jitdump_writer_move){
		.timestamp = 2, .new_code_addr = 0xfffffffffffffffeull, .code_size = 4, .code_index = 3,
	});
	save(&w, path);

	jd = open_ok(path);
	assert_int_equal(jd->nr, 2);
	assert_string_equal(jd->loads[0].name, "top");
	assert_string_equal(jd->loads[1].name, "f");
	assert_int_equal(jd->wrapping, 2);
	assert_int_equal(jd->first_wrapping_off, first);
	jitdump__close(jd);
	jitdump_writer__release(&w);
}

static void rejects_a_move_shorter_than_64_bytes(void **state)
{
	const char *path = new_path(state);
	struct jitdump_writer w;
	size_t rec;

	jitdump_writer__init(&w, false);
	write_header(&w, 1);
	write_load(&w, "f", 0x1000, 3, NULL, 4);
	rec = jitdump_writer__code_move(&w, &(struct jitdump_writer_move){ .code_index = 3 });
	jitdump_writer__truncate(&w, rec + 56);
	jitdump_writer__end(&w, rec);
	write_load(&w, "g", 0x2000, 4, NULL, 4);
	save(&w, path);
	expect_open_error(path, -EINVAL, rec, "code move total_size 56 < 64");
	jitdump_writer__release(&w);
}

static void accepts_a_load_with_code_size_0(void **state)
{
	const char *path = new_path(state);
	struct jitdump_writer w;
	struct jitdump *jd;

	jitdump_writer__init(&w, false);
	write_header(&w, 1);
	write_load(&w, "empty", 0x1000, 0, NULL, 0);
	write_load(&w, "", 0x1000, 1, NULL, 0);
	save(&w, path);

	jd = open_ok(path);
	assert_int_equal(jd->nr, 2);
	assert_string_equal(jd->loads[0].name, "empty");
	assert_int_equal(jd->loads[0].code_size, 0);
	assert_null(jd->loads[0].code);
	assert_string_equal(jd->loads[1].name, "");
	jitdump__close(jd);
	jitdump_writer__release(&w);
}

static void takes_the_code_from_the_end_of_the_load_record(void **state)
{
	static const uint8_t code[] = { 0xaa, 0xbb, 0xcc, 0xdd };
	const char *path = new_path(state);
	struct jitdump_writer w;
	struct jitdump *jd;
	size_t rec;

	jitdump_writer__init(&w, false);
	write_header(&w, 1);
	rec = write_load(&w, "f", 0x1000, 0, code, sizeof(code));
	jitdump_writer__put_u64(&w, rec + 40, 2);
	save(&w, path);

	jd = open_ok(path);
	assert_int_equal(jd->loads[0].code_size, 2);
	assert_memory_equal(jd->loads[0].code, code + 2, 2);
	jitdump__close(jd);
	jitdump_writer__release(&w);
}

static void rejects_a_load_whose_name_is_not_nul_terminated_in_the_record(void **state)
{
	const char *path = new_path(state);
	struct jitdump_writer w;
	size_t rec;

	jitdump_writer__init(&w, false);
	write_header(&w, 1);
	write_load(&w, "ok", 0x1000, 0, NULL, 4);
	rec = write_load(&w, "abc", 0x2000, 1, NULL, 0);
	jitdump_writer__truncate(&w, rec + 59);	/* drop the NUL */
	jitdump_writer__end(&w, rec);
	/* The next record starts with a NUL byte, which must not end the name. */
	write_load(&w, "z", 0x3000, 2, NULL, 4);
	save(&w, path);
	expect_open_error(path, -EINVAL, rec, "code load name is not nul-terminated within total_size 59");
	jitdump_writer__release(&w);
}

static void rejects_a_load_shorter_than_its_fixed_part(void **state)
{
	const char *path = new_path(state);
	struct jitdump_writer w;
	size_t rec;

	jitdump_writer__init(&w, false);
	write_header(&w, 1);
	rec = write_load(&w, "abc", 0x2000, 1, NULL, 0);
	jitdump_writer__truncate(&w, rec + 40);
	jitdump_writer__end(&w, rec);
	save(&w, path);
	expect_open_error(path, -EINVAL, rec, "code load total_size 40 < 56");
	jitdump_writer__release(&w);
}

static void rejects_a_load_whose_code_size_exceeds_the_record(void **state)
{
	static const uint64_t sizes[] = { 5, 6, UINT32_MAX, 1ULL << 32, UINT64_MAX - 56, UINT64_MAX };
	const char *path = new_path(state);
	struct jitdump_writer w;
	char msg[128];
	size_t rec;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		jitdump_writer__init(&w, i & 1);
		write_header(&w, 1);
		rec = write_load(&w, "f", 0x1000, 0, NULL, 4);
		jitdump_writer__put_u64(&w, rec + 40, sizes[i]);
		save(&w, path);
		snprintf(msg, sizeof(msg), "code load code_size %" PRIu64
			 " does not fit in total_size 62 (4 bytes after the name)", sizes[i]);
		expect_open_error(path, -EINVAL, rec, msg);
		jitdump_writer__release(&w);
	}
}

static void rejects_record_total_size_below_16_naming_its_offset(void **state)
{
	const char *path = new_path(state);
	struct jitdump_writer w;
	size_t rec;

	jitdump_writer__init(&w, false);
	write_header(&w, 1);
	write_load(&w, "f", 0x1000, 0, NULL, 4);
	rec = jitdump_writer__begin(&w, 0, 1);
	jitdump_writer__put_u32(&w, rec + 4, 8);
	write_load(&w, "g", 0x2000, 1, NULL, 4);
	save(&w, path);
	assert_int_equal(rec, 0x66);
	expect_open_error(path, -EINVAL, 0x66, "record total_size 8 < 16");

	jitdump_writer__put_u32(&w, rec + 4, 0);
	save(&w, path);
	expect_open_error(path, -EINVAL, 0x66, "record total_size 0 < 16");
	jitdump_writer__release(&w);
}

static void rejects_too_short_unwinding_and_debug_records(void **state)
{
	const char *path = new_path(state);
	struct jitdump_writer w;
	size_t rec;

	jitdump_writer__init(&w, false);
	write_header(&w, 1);
	rec = jitdump_writer__unwinding_info(&w, 1, NULL, 0, 0, 0);
	jitdump_writer__truncate(&w, rec + 32);
	jitdump_writer__end(&w, rec);
	save(&w, path);
	expect_open_error(path, -EINVAL, rec, "unwinding info total_size 32 < 40");
	jitdump_writer__release(&w);

	jitdump_writer__init(&w, false);
	write_header(&w, 1);
	rec = jitdump_writer__debug_info(&w, 1, 0, NULL, 0, false);
	jitdump_writer__truncate(&w, rec + 24);
	jitdump_writer__end(&w, rec);
	save(&w, path);
	expect_open_error(path, -EINVAL, rec, "debug info total_size 24 < 32");
	jitdump_writer__release(&w);
}

static void treats_a_total_size_near_4g_at_the_end_as_truncated(void **state)
{
	static const uint32_t sizes[] = { UINT32_MAX, UINT32_MAX - 15, 1U << 31, 1000 };
	const char *path = new_path(state);
	struct jitdump_writer w;
	char err[512];
	struct jitdump *jd;
	size_t rec;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		jitdump_writer__init(&w, i & 1);
		write_header(&w, 1);
		write_load(&w, "f", 0x1000, 0, NULL, 4);
		rec = write_load(&w, "g", 0x2000, 1, NULL, 100);
		jitdump_writer__put_u32(&w, rec + 4, sizes[i]);
		save(&w, path);

		jd = open_ok(path);
		assert_int_equal(jd->nr, 1);
		assert_int_equal(jd->parsed_off, rec);
		assert_int_equal(jitdump__tail_bytes(jd), w.len - rec);
		assert_int_equal(jitdump__update(jd, err, sizeof(err)), 0);
		assert_int_equal(jitdump__tail_bytes(jd), w.len - rec);
		jitdump__close(jd);
		jitdump_writer__release(&w);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(skips_and_counts_unknown_record_ids),
		cmocka_unit_test(attaches_debug_and_unwinding_info_to_the_next_load_only),
		cmocka_unit_test(walks_padded_debug_info_by_nr_entry_and_skips_by_total_size),
		cmocka_unit_test(keeps_the_ff_file_name_meaning_same_as_previous),
		cmocka_unit_test(rejects_debug_info_whose_nr_entry_cannot_fit),
		cmocka_unit_test(rejects_a_debug_entry_that_runs_past_the_record),
		cmocka_unit_test(move_adds_a_load_at_the_new_address_with_the_move_timestamp),
		cmocka_unit_test(counts_a_move_of_a_code_index_never_loaded_as_orphan),
		cmocka_unit_test(skips_and_counts_a_load_or_move_whose_code_passes_2_64),
		cmocka_unit_test(rejects_a_move_shorter_than_64_bytes),
		cmocka_unit_test(accepts_a_load_with_code_size_0),
		cmocka_unit_test(takes_the_code_from_the_end_of_the_load_record),
		cmocka_unit_test(rejects_a_load_whose_name_is_not_nul_terminated_in_the_record),
		cmocka_unit_test(rejects_a_load_shorter_than_its_fixed_part),
		cmocka_unit_test(rejects_a_load_whose_code_size_exceeds_the_record),
		cmocka_unit_test(rejects_record_total_size_below_16_naming_its_offset),
		cmocka_unit_test(rejects_too_short_unwinding_and_debug_records),
		cmocka_unit_test(treats_a_total_size_near_4g_at_the_end_as_truncated),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}

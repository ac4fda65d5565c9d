/* SPDX-License-Identifier: MIT */
/* Unit tests of the jitdump reader (plugin/jit/jitdump.c) on dumps read as they
 * grow, cut or damaged at any byte, large ones, and the real V8 dump. */
#include <glob.h>

#include "tests/jitdump-check.h"

/* The real V8 --perf-prof dump (test-data/v8-wasm/README.md), found when the
 * test runs from the top directory; its pid changes when it is re-recorded. */
#define V8_DUMP_GLOB "test-data/v8-wasm/jit-*.dump"

static void reads_a_load_completed_after_open_on_update(void **state)
{
	const char *path = new_path(state);
	struct jitdump_writer w;
	size_t rec, half;
	struct jitdump *jd;
	char err[512];

	jitdump_writer__init(&w, false);
	write_header(&w, 1);
	write_load(&w, "first", 0x1000, 0, NULL, 10);
	rec = write_load(&w, "grown", 0x2000, 1, NULL, 10);
	half = rec + (w.len - rec) / 2;
	assert_int_equal(jitdump_writer__save(&w, path, half), 0);

	jd = open_ok(path);
	assert_int_equal(jd->nr, 1);
	assert_int_equal(jitdump__tail_bytes(jd), half - rec);
	assert_int_equal(jitdump__update(jd, err, sizeof(err)), 0);

	assert_int_equal(jitdump_writer__append(&w, path, half, w.len), 0);
	assert_int_equal(jitdump__update(jd, err, sizeof(err)), 1);
	assert_int_equal(jd->nr, 2);
	assert_string_equal(jd->loads[1].name, "grown");
	assert_int_equal(jd->loads[1].file_offset, rec);
	assert_int_equal(jitdump__tail_bytes(jd), 0);

	/* A prefix alone (15 bytes, then 16) is still a partial record. */
	rec = write_load(&w, "third", 0x3000, 2, NULL, 10);
	assert_int_equal(jitdump_writer__append(&w, path, rec, rec + 15), 0);
	assert_int_equal(jitdump__update(jd, err, sizeof(err)), 0);
	assert_int_equal(jitdump__tail_bytes(jd), 15);
	assert_int_equal(jitdump_writer__append(&w, path, rec + 15, rec + 16), 0);
	assert_int_equal(jitdump__update(jd, err, sizeof(err)), 0);
	assert_int_equal(jitdump__tail_bytes(jd), 16);
	assert_int_equal(jitdump_writer__append(&w, path, rec + 16, w.len), 0);
	assert_int_equal(jitdump__update(jd, err, sizeof(err)), 1);
	assert_string_equal(jd->loads[2].name, "third");
	assert_int_equal(jitdump__tail_bytes(jd), 0);
	jitdump__close(jd);
	jitdump_writer__release(&w);
}

static void repeats_a_record_error_on_every_later_update(void **state)
{
	const char *path = new_path(state);
	char err[512], err2[512];
	struct jitdump_writer w;
	struct jitdump *jd;
	size_t rec;

	jitdump_writer__init(&w, false);
	write_header(&w, 1);
	write_load(&w, "f", 0x1000, 0, NULL, 4);
	rec = w.len;
	save(&w, path);
	jd = open_ok(path);

	write_load(&w, "g", 0x2000, 1, NULL, 4);
	assert_int_equal(jitdump_writer__begin(&w, 2, 0), 0xa4);
	jitdump_writer__put_u32(&w, 0xa4 + 4, 4);
	write_load(&w, "h", 0x3000, 2, NULL, 4);
	assert_int_equal(jitdump_writer__append(&w, path, rec, w.len), 0);

	assert_int_equal(jitdump__update(jd, err, sizeof(err)), -EINVAL);
	assert_contains(err, path);
	assert_contains(err, "+0xa4: record total_size 4 < 16");
	assert_int_equal(jd->nr, 2);
	assert_string_equal(jd->loads[1].name, "g");
	assert_int_equal(jd->parsed_off, 0xa4);
	assert_int_equal(jitdump__tail_bytes(jd), w.len - 0xa4);
	assert_int_equal(jitdump__update(jd, err2, sizeof(err2)), -EINVAL);
	assert_string_equal(err, err2);
	assert_int_equal(jitdump__update(jd, NULL, 0), -EINVAL);
	jitdump__close(jd);
	jitdump_writer__release(&w);
}

/* Header + 3 LOADs; ends[i] = end of load i. */
static void write_three_loads(struct jitdump_writer *w, size_t ends[3])
{
	write_header(w, 1);
	write_load(w, "one", 0x1000, 0, NULL, 7);
	ends[0] = w->len;
	write_load(w, "two_two", 0x2000, 1, NULL, 0);
	ends[1] = w->len;
	write_load(w, "three", 0x3000, 2, NULL, 33);
	ends[2] = w->len;
}

static void yields_a_prefix_of_the_loads_when_truncated_at_any_byte(void **state)
{
	static const char *const names[] = { "one", "two_two", "three" };
	const char *path = new_path(state);
	struct jitdump_writer w;
	struct jitdump *jd;
	char err[512];
	size_t ends[3];

	jitdump_writer__init(&w, true);
	write_three_loads(&w, ends);
	for (size_t len = 0; len <= w.len; len++) {
		size_t nr = 0, end = 40;

		while (nr < 3 && ends[nr] <= len)
			end = ends[nr++];
		assert_int_equal(jitdump_writer__save(&w, path, len), 0);
		if (len < 40) {
			expect_open_error(path, -ENODATA, 0, "header truncated");
			continue;
		}
		jd = open_ok(path);
		assert_int_equal(jd->nr, nr);
		for (size_t i = 0; i < nr; i++)
			assert_string_equal(jd->loads[i].name, names[i]);
		assert_int_equal(jd->parsed_off, end);
		assert_int_equal(jitdump__tail_bytes(jd), len - end);

		/* ... and the rest shows up once the file is complete. */
		assert_int_equal(jitdump_writer__append(&w, path, len, w.len), 0);
		assert_int_equal(jitdump__update(jd, err, sizeof(err)), 3 - nr);
		assert_int_equal(jd->nr, 3);
		assert_string_equal(jd->loads[2].name, "three");
		assert_int_equal(jitdump__tail_bytes(jd), 0);
		jitdump__close(jd);
	}
	jitdump_writer__release(&w);
}

/* Never crashes whatever byte is corrupted; an error names the file. Valgrind checks the reads. */
static void survives_any_corrupted_byte_of_a_dump_with_every_record_type(void **state)
{
	static const uint8_t values[] = { 0x00, 0x01, 0x0f, 0x10, 0x7f, 0x80, 0xfe, 0xff };
	static const struct jitdump_writer_debug_entry e[] = {
		{ 0x1000, 1, 0, "a.c" },
		{ 0x1002, 2, 3, "\xff" },
	};
	const char *path = new_path(state);
	struct jitdump_writer w;
	struct jitdump *jd;
	char err[512];
	uint32_t seed = 1;

	jitdump_writer__init(&w, false);
	write_header(&w, 1);
	jitdump_writer__debug_info(&w, 10, 0x1000, e, 2, true);
	jitdump_writer__unwinding_info(&w, 11, NULL, 24, 20, 88);
	write_load(&w, "f", 0x1000, 0, NULL, 9);
	jitdump_writer__code_move(&w, &(struct jitdump_writer_move){
		.new_code_addr = 0x3000, .code_size = 9, .code_index = 0,
	});
	write_load(&w, "g", 0x2000, 1, NULL, 3);
	jitdump_writer__code_close(&w, 16);

	for (size_t off = 0; off < w.len; off++) {
		uint8_t orig = w.buf[off];

		for (size_t v = 0; v < sizeof(values); v++) {
			int ret;

			w.buf[off] = values[v];
			save(&w, path);
			jd = NULL;
			ret = jitdump__open(&jd, path, err, sizeof(err));
			if (ret < 0) {
				assert_null(jd);
				assert_contains(err, path);
				continue;
			}
			/* 6 records: a corrupted id can turn any of them into a LOAD or MOVE. */
			assert_true(jd->nr <= 6);
			assert_true(jd->parsed_off <= w.len);
			jitdump__close(jd);
		}
		w.buf[off] = orig;
	}
	/* A few thousand multi-byte corruptions from a fixed seed. */
	for (int round = 0; round < 2000; round++) {
		struct jitdump_writer c;

		jitdump_writer__init(&c, false);
		jitdump_writer__bytes(&c, w.buf, w.len);
		for (int k = 0; k < 4; k++) {
			seed = seed * 1103515245 + 12345;
			c.buf[40 + (seed >> 8) % (c.len - 40)] = (uint8_t)(seed >> 24);
		}
		save(&c, path);
		jd = NULL;
		if (jitdump__open(&jd, path, err, sizeof(err)) == 0)
			jitdump__close(jd);
		else
			assert_contains(err, path);
		jitdump_writer__release(&c);
	}
	jitdump_writer__release(&w);
}

static void reads_many_loads_and_one_larger_than_a_read_chunk(void **state)
{
	enum { NR = 3000, BIG = (5 << 20) / 2 };
	const char *path = new_path(state);
	struct jitdump_writer w;
	uint8_t *big = malloc(BIG);
	struct jitdump *jd;
	char name[32];

	assert_non_null(big);
	for (size_t i = 0; i < BIG; i++)
		big[i] = (uint8_t)(i * 7);
	jitdump_writer__init(&w, true);
	write_header(&w, 1);
	for (int i = 0; i < NR; i++) {
		snprintf(name, sizeof(name), "fn%d", i);
		write_load(&w, name, 0x100000 + 0x1000 * (uint64_t)i, i, NULL, 1000 + i % 7);
		if (i == NR / 2)
			write_load(&w, "big", 0x9000000, NR, big, BIG);
	}
	save(&w, path);
	assert_true(w.len > (8 << 20) / 2);

	jd = open_ok(path);
	assert_int_equal(jd->nr, NR + 1);
	assert_int_equal(jitdump__tail_bytes(jd), 0);
	assert_string_equal(jd->loads[NR / 2 + 1].name, "big");
	assert_int_equal(jd->loads[NR / 2 + 1].code_size, BIG);
	assert_memory_equal(jd->loads[NR / 2 + 1].code, big, BIG);
	assert_string_equal(jd->loads[NR].name, "fn2999");
	assert_int_equal(jd->loads[NR].code_addr, 0x100000 + 0x1000 * (NR - 1));
	assert_int_equal(jd->loads[NR].code_size, 1000 + (NR - 1) % 7);
	jitdump__close(jd);
	jitdump_writer__release(&w);
	free(big);
}

static void reads_the_v8_dump_in_test_data(void **state)
{
	size_t mapped = 0, with_debug = 0, turbofan = 0, stubs = 0;
	uint64_t stub_addr = 0, last_ts = 0;
	struct jitdump *jd;
	unsigned int pid;
	glob_t g;

	(void)state;
	if (glob(V8_DUMP_GLOB, 0, NULL, &g) || g.gl_pathc != 1) {
		globfree(&g);
		skip();
	}
	jd = open_ok(g.gl_pathv[0]);
	assert_int_equal(sscanf(g.gl_pathv[0], "test-data/v8-wasm/jit-%u.dump", &pid), 1);
	globfree(&g);

	/* Facts from test-data/v8-wasm/README.md. */
	assert_false(jd->swapped);
	assert_int_equal(jd->pid, pid);
	assert_int_equal(jd->elf_mach, 62);
	assert_true(jd->nr > 2000);
	assert_true(jd->unwind_records >= jd->nr - 2);
	assert_true(jd->debug_records > 0);
	assert_int_equal(jd->unknown_records, 0);
	assert_int_equal(jd->orphan_moves, 0);
	assert_int_equal(jitdump__tail_bytes(jd), 0);
	assert_false(jd->closed);
	for (size_t i = 0; i < jd->nr; i++) {
		const struct jitdump_load *l = &jd->loads[i];

		assert_int_equal(l->pid, pid);
		assert_int_equal(l->vma, l->code_addr);
		assert_true(l->timestamp >= last_ts);
		last_ts = l->timestamp;
		mapped += l->unwind_mapped_size == 88;
		with_debug += l->debug_nr > 0;
		turbofan += !strcmp(l->name, "JS:work-1-turbofan");
		if (!strcmp(l->name, "Stub:js-to-wasm:i:i")) {
			/* Loaded twice at one address. */
			if (stubs++)
				assert_int_equal(l->code_addr, stub_addr);
			stub_addr = l->code_addr;
		}
	}
	assert_int_equal(mapped, 2);
	assert_true(with_debug > 0 && with_debug <= jd->debug_records);
	assert_int_equal(turbofan, 1);
	assert_int_equal(stubs, 2);
	jitdump__close(jd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_a_load_completed_after_open_on_update),
		cmocka_unit_test(repeats_a_record_error_on_every_later_update),
		cmocka_unit_test(yields_a_prefix_of_the_loads_when_truncated_at_any_byte),
		cmocka_unit_test(survives_any_corrupted_byte_of_a_dump_with_every_record_type),
		cmocka_unit_test(reads_many_loads_and_one_larger_than_a_read_chunk),
		cmocka_unit_test(reads_the_v8_dump_in_test_data),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}

/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the .cwasm reader (postproc/annotate/wasmtime/cwasm.c) on ELF
 * files synthesized with libelf and on the committed fixtures: what it reads
 * of a good file (files it refuses: test-cwasm-refused.c).
 */
#include <elf.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cwasm-check.h"
#include "lib/util.h"

/* Expectation: good_syms minus the ignored and dropped ones, by hand, in st_value order. */
static void functions_come_from_the_symbols_in_text_order(void **state)
{
	static const struct {
		const char *sym;
		uint32_t off, size;
		int m, f;
		const char *name;
	} want[NR_GOOD_FUNCS] = {
		{ "wasm[0]::function[1]::fib", 0x00, 0x30, 0, 1, "fib" },
		{ "wasm[0]::function[2]", 0x30, 0x20, 0, 2, NULL },
		{ "wasm[0]::array_to_wasm_trampoline[1]", 0x60, 0x18, -1, -1, NULL },
		{ "wasm[0]::array_to_wasm_trampoline[2]", 0x80, 0x18, -1, -1, NULL },
		{ "signatures[0]::wasm_to_array_trampoline", 0xa0, 0x10, -1, -1, NULL },
		/* a name-section name containing "::" stays whole */
		{ "wasm[1]::function[12]::a::b", 0xb0, 0x08, 1, 12, "a::b" },
		/* not of the form wasmtime writes, nor an index that fits an int */
		{ "wasm[0]::function[3]x", 0xb8, 0x08, -1, -1, NULL },
		{ "wasm[0]::function[99999999999]", 0xc0, 0x08, -1, -1, NULL },
		{ "wasmtime_builtin_memory_grow", 0xc8, 0x10, -1, -1, NULL },
	};
	const struct cwasm_func *f;
	struct cwasm *c;
	size_t nr, i;

	write_cwasm(&(struct opts){ .fmt = ADDRMAP_BLOCKS });
	c = open_ok();
	f = cwasm__funcs(c, &nr);
	assert_int_equal(nr, NR_GOOD_FUNCS);
	for (i = 0; i < nr; i++) {
		assert_string_equal(f[i].symbol, want[i].sym);
		assert_int_equal(f[i].text_off, want[i].off);
		assert_int_equal(f[i].size, want[i].size);
		assert_int_equal(f[i].module, want[i].m);
		assert_int_equal(f[i].func_index, want[i].f);
		if (want[i].name)
			assert_string_equal(f[i].wasm_name, want[i].name);
		else
			assert_null(f[i].wasm_name);
	}
	/* in_rodata, past_end, past_end_far, overlap, undefined */
	assert_int_equal(cwasm__nr_skipped_symbols(c), NR_SKIPPED);
	assert_true(cwasm__has_symbols(c));
	cwasm__close(c);
}

/* Expectation: what write_cwasm put there. */
static void header_facts_and_text_bytes_are_the_written_ones(void **state)
{
	const uint8_t *t;
	struct cwasm *c;
	size_t size;

	write_cwasm(&(struct opts){ .fmt = ADDRMAP_BLOCKS });
	c = open_ok();
	assert_int_equal(cwasm__e_machine(c), EM_X86_64);
	assert_int_equal(cwasm__e_flags(c), EF_WASMTIME_MODULE);
	assert_false(cwasm__big_endian(c));
	t = cwasm__text(c, &size);
	assert_int_equal(size, TEXT_SIZE);
	assert_memory_equal(t, text, TEXT_SIZE);
	assert_string_equal(cwasm__engine_version(c), "47");
	assert_int_equal(cwasm__engine_major(c), 47);
	cwasm__close(c);
}

/* Expectation: the symbol layout above (padding at 0x50..0x5f, twins at 0x60 and 0x80). */
static void functions_are_found_by_symbol_code_and_offset(void **state)
{
	const struct cwasm_func *f, *t1, *t2;
	uint8_t other[0x18];
	struct cwasm *c;

	write_cwasm(&(struct opts){ .fmt = ADDRMAP_BLOCKS });
	c = open_ok();
	f = cwasm__find_symbol(c, "wasm[0]::function[1]::fib");
	assert_non_null(f);
	assert_int_equal(f->text_off, 0);
	assert_null(cwasm__find_symbol(c, "fib"));
	assert_null(cwasm__find_symbol(c, "overlap"));
	assert_ptr_equal(cwasm__find_code(c, text, 0x30, NULL), f);
	assert_null(cwasm__find_code(c, text, 0x30, f));
	assert_null(cwasm__find_code(c, text, 0x2f, NULL));
	assert_null(cwasm__find_code(c, text, 0, NULL));

	/* Twin trampolines: both are found, in text order, then no more. */
	t1 = cwasm__find_code(c, text + 0x60, 0x18, NULL);
	assert_non_null(t1);
	assert_int_equal(t1->text_off, 0x60);
	t2 = cwasm__find_code(c, text + 0x60, 0x18, t1);
	assert_non_null(t2);
	assert_int_equal(t2->text_off, 0x80);
	assert_null(cwasm__find_code(c, text + 0x60, 0x18, t2));
	memcpy(other, text + 0x60, sizeof(other));
	other[5] ^= 1;
	assert_null(cwasm__find_code(c, other, sizeof(other), NULL));

	assert_ptr_equal(cwasm__func_at(c, 0), f);
	assert_ptr_equal(cwasm__func_at(c, 0x2f), f);
	assert_int_equal(cwasm__func_at(c, 0x30)->text_off, 0x30);
	assert_null(cwasm__func_at(c, 0x50));	/* padding */
	assert_null(cwasm__func_at(c, 0x5f));
	assert_int_equal(cwasm__func_at(c, 0xd7)->text_off, 0xc8);
	assert_null(cwasm__func_at(c, 0xd8));
	assert_null(cwasm__func_at(c, TEXT_SIZE));
	assert_null(cwasm__func_at(c, UINT64_MAX));
	cwasm__close(c);
}

/* Expectation: the entries written are the entries read, and lookups follow the reference's rule. */
static void check_addrmap(enum addrmap_format fmt, const void *engine, size_t engine_len)
{
	const struct addrmap_entry *e;
	const struct cwasm_func *fib, *f2;
	enum addrmap_format got;
	struct cwasm *c;
	uint32_t w = 0;
	size_t nr, i;

	write_cwasm(&(struct opts){ .fmt = fmt, .engine = engine, .engine_len = engine_len });
	c = open_ok();
	assert_true(cwasm__has_addrmap(c));
	e = cwasm__addrmap(c, &nr, &got);
	assert_int_equal(got, fmt);
	assert_int_equal(nr, ARRAY_SIZE(map));
	for (i = 0; i < nr; i++) {
		assert_int_equal(e[i].text_off, map[i].text_off);
		assert_int_equal(e[i].wasm_off, map[i].wasm_off);
	}
	fib = cwasm__find_symbol(c, "wasm[0]::function[1]::fib");
	f2 = cwasm__find_symbol(c, "wasm[0]::function[2]");
	assert_false(cwasm__wasm_offset(c, fib, 0x00, &w));	/* prologue: none */
	assert_true(cwasm__wasm_offset(c, fib, 0x04, &w));
	assert_int_equal(w, 0x2b);
	assert_true(cwasm__wasm_offset(c, fib, 0x1f, &w));
	assert_int_equal(w, 0x40);
	assert_true(cwasm__wasm_offset(c, fib, 0x2b, &w));
	assert_int_equal(w, 0x5e);
	assert_false(cwasm__wasm_offset(c, fib, 0x2c, &w));
	/* function[2] has no entry at its start: fib's last entry must not leak into it. */
	assert_false(cwasm__wasm_offset(c, f2, 0x30, &w));
	assert_true(cwasm__wasm_offset(c, f2, 0x35, &w));
	assert_int_equal(w, 0x70);
	assert_false(cwasm__wasm_offset(c, f2, 0x4f, &w));
	cwasm__close(c);
}

static void the_block_encoded_address_map_is_read(void **state)
{
	check_addrmap(ADDRMAP_BLOCKS, engine47, sizeof(engine47));
}

static void the_plain_address_map_of_older_engines_is_read(void **state)
{
	check_addrmap(ADDRMAP_PLAIN, engine46, sizeof(engine46));
	/* The structure decides, not the version: a "47-dev" build that still wrote plain. */
	check_addrmap(ADDRMAP_PLAIN, engine47, sizeof(engine47));
}

/* libelf byte-swaps headers and symbols; the map stays little-endian. readelf -h agrees. */
static void a_big_endian_s390x_file_is_read_with_a_little_endian_map(void **state)
{
	const struct cwasm_func *f;
	struct cwasm *c;
	uint32_t w = 0;
	size_t nr;

	write_cwasm(&(struct opts){ .data = ELFDATA2MSB, .machine = EM_S390, .fmt = ADDRMAP_PLAIN });
	c = open_ok();
	assert_true(cwasm__big_endian(c));
	assert_int_equal(cwasm__e_machine(c), EM_S390);
	assert_int_equal(cwasm__e_flags(c), EF_WASMTIME_MODULE);
	f = cwasm__funcs(c, &nr);
	assert_int_equal(nr, NR_GOOD_FUNCS);
	assert_int_equal(f[1].text_off, 0x30);
	assert_int_equal(f[1].size, 0x20);
	assert_true(cwasm__wasm_offset(c, &f[0], 0x10, &w));
	assert_int_equal(w, 0x40);
	cwasm__close(c);
}

static void a_file_without_address_map_opens_without_one(void **state)
{
	const struct cwasm_func *f;
	struct cwasm *c;
	uint32_t w = 0;
	size_t nr;

	write_cwasm(&(struct opts){ .no_addrmap = true });
	c = open_ok();
	assert_false(cwasm__has_addrmap(c));
	assert_null(cwasm__addrmap(c, &nr, NULL));
	assert_int_equal(nr, 0);
	f = cwasm__funcs(c, &nr);
	assert_int_equal(nr, NR_GOOD_FUNCS);
	assert_false(cwasm__wasm_offset(c, &f[0], 0x10, &w));
	cwasm__close(c);
}

static void a_file_without_symbols_has_no_functions(void **state)
{
	struct cwasm *c;
	size_t nr;

	write_cwasm(&(struct opts){ .no_symtab = true, .fmt = ADDRMAP_BLOCKS });
	c = open_ok();
	assert_false(cwasm__has_symbols(c));
	cwasm__funcs(c, &nr);
	assert_int_equal(nr, 0);
	assert_null(cwasm__func_at(c, 0));
	assert_null(cwasm__find_symbol(c, "wasm[0]::function[2]"));
	assert_null(cwasm__find_code(c, text, 0x30, NULL));
	cwasm__close(c);
}

static void engine_versions_of_every_shape_are_read(void **state)
{
	static const uint8_t full[] = { 0, 6, '3', '0', '.', '0', '.', '0', 0x00 };
	static const uint8_t empty[] = { 0, 0, 0x00 };
	static const uint8_t custom[] = { 0, 4, 'a', 'b', 'c', 'd' };
	static const uint8_t bad_version[] = { 1, 2, '4', '7', 0x00 };
	static const uint8_t too_short[] = { 0, 9, '4', '7' };
	static const struct {
		const uint8_t *p;
		size_t n;
		const char *version;
		int major;
	} cases[] = {
		{ full, sizeof(full), "30.0.0", 30 },
		{ empty, sizeof(empty), "", -1 },
		{ custom, sizeof(custom), "abcd", -1 },
		{ bad_version, sizeof(bad_version), NULL, -1 },
		{ too_short, sizeof(too_short), NULL, -1 },
		{ too_short, 1, NULL, -1 },
		{ too_short, 0, NULL, -1 },
	};
	struct cwasm *c;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		write_cwasm(&(struct opts){ .fmt = ADDRMAP_BLOCKS, .engine = cases[i].p,
					    .engine_len = cases[i].n });
		c = open_ok();
		if (cases[i].version)
			assert_string_equal(cwasm__engine_version(c), cases[i].version);
		else
			assert_null(cwasm__engine_version(c));
		assert_int_equal(cwasm__engine_major(c), cases[i].major);
		cwasm__close(c);
	}
	write_cwasm(&(struct opts){ .fmt = ADDRMAP_BLOCKS, .no_engine = true });
	c = open_ok();
	assert_null(cwasm__engine_version(c));
	assert_int_equal(cwasm__engine_major(c), -1);
	cwasm__close(c);
}

/*
 * The committed fixtures test-data/cwasm/fib-x86_64{,-plain}.cwasm: code
 * assembled from test-data/cwasm/fib-x86_64.S (GNU as; bytes checked with
 * objdump -d), address map entries at the instructions marked there,
 * symbols as wasmtime names fib.wat's functions. Rewritten by
 *   HOTBLOCKS_UPDATE_FIXTURES=1 build/tests/postproc-test-cwasm
 * and otherwise only read, so the reader is checked on files it did not just write.
 */
static const uint8_t fib_text[] = {
	0x55, 0x48, 0x89, 0xe5, 0xb8, 0x01, 0x00, 0x00, 0x00, 0xb9, 0x01, 0x00,
	0x00, 0x00, 0x31, 0xf6, 0x39, 0xd6, 0x73, 0x0c, 0x8d, 0x3c, 0x01, 0x89,
	0xc8, 0x89, 0xf9, 0x83, 0xc6, 0x01, 0xeb, 0xf0, 0x89, 0xc8, 0x5d, 0xc3,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x55, 0x48, 0x89, 0xe5, 0x53, 0x41, 0x54, 0x49, 0x89, 0xfc, 0x31, 0xdb,
	0x81, 0xfb, 0xa0, 0x86, 0x01, 0x00, 0x73, 0x12, 0x4c, 0x89, 0xe7, 0x4c,
	0x89, 0xe6, 0x89, 0xda, 0xe8, 0xaf, 0xff, 0xff, 0xff, 0x83, 0xc3, 0x01,
	0xeb, 0xe6, 0x41, 0x5c, 0x5b, 0x5d, 0xc3, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x55, 0x48, 0x89, 0xe5, 0x48, 0x89, 0xfe, 0xe8, 0xc4, 0xff, 0xff, 0xff,
	0xb8, 0x01, 0x00, 0x00, 0x00, 0x5d, 0xc3,
};

static const struct cw_symbol fib_syms[] = {
	{ "wasm[0]::function[0]::fib", ".text", 0x00, 0x24, STT_FUNC, STB_LOCAL },
	{ "wasm[0]::function[1]", ".text", 0x30, 0x2b, STT_FUNC, STB_LOCAL },
	{ "wasm[0]::array_to_wasm_trampoline[1]", ".text", 0x60, 0x13, STT_FUNC, STB_LOCAL },
};

static const struct addrmap_entry fib_map[] = {
	{ 0x00, NONE }, { 0x04, 0x2b }, { 0x0e, 0x33 }, { 0x10, 0x3f }, { 0x12, 0x40 },
	{ 0x14, 0x4e }, { 0x1b, 0x55 }, { 0x1e, 0x58 }, { 0x20, 0x5e },
	{ 0x30, NONE }, { 0x3a, 0x63 }, { 0x3c, 0x71 }, { 0x42, 0x72 }, { 0x44, 0x76 },
	{ 0x51, 0x7d }, { 0x54, 0x80 }, { 0x56, 0x84 },
};

static void write_fib_fixture(const char *file, enum addrmap_format fmt, const char *version)
{
	uint8_t engine[16] = { 0, (uint8_t)strlen(version) }, bti = 0, *am;
	size_t am_len;
	struct cw_section secs[4] = {
		{ ".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, 0x1000, fib_text, sizeof(fib_text) },
		{ ".wasmtime.bti", SHT_PROGBITS, 0, 1, &bti, 1 },
		{ ".wasmtime.engine", SHT_PROGBITS, 0, 1, engine, 2 + strlen(version) + 1 },
		{ ".wasmtime.addrmap", SHT_PROGBITS, 0, 1, NULL, 0 },
	};
	struct cw_elf spec = {
		.osabi = ELFOSABI_WASMTIME,
		.machine = EM_X86_64,
		.flags = EF_WASMTIME_MODULE,
		.sections = secs,
		.nr_sections = ARRAY_SIZE(secs),
		.symbols = fib_syms,
		.nr_symbols = ARRAY_SIZE(fib_syms),
	};

	/* The version string, then one byte standing in for the postcard metadata. */
	memcpy(engine + 2, version, strlen(version));
	assert_int_equal(addrmap__encode(fib_map, ARRAY_SIZE(fib_map), fmt, &am, &am_len), 0);
	secs[3].data = am;
	secs[3].size = am_len;
	assert_int_equal(cw_elf__write(file, &spec), 0);
	free(am);
}

static void check_fib_fixture(const char *file, enum addrmap_format fmt, const char *version)
{
	const struct addrmap_entry *e;
	const struct cwasm_func *f;
	enum addrmap_format got;
	const uint8_t *t;
	struct cwasm *c;
	size_t nr, size, i;
	uint32_t w = 0;

	if (cwasm__open(&c, file, err, sizeof(err)))
		fail_msg("%s", err);
	t = cwasm__text(c, &size);
	assert_int_equal(size, sizeof(fib_text));
	assert_memory_equal(t, fib_text, size);
	f = cwasm__funcs(c, &nr);
	assert_int_equal(nr, ARRAY_SIZE(fib_syms));
	for (i = 0; i < nr; i++) {
		assert_string_equal(f[i].symbol, fib_syms[i].name);
		assert_int_equal(f[i].text_off, fib_syms[i].value);
		assert_int_equal(f[i].size, fib_syms[i].size);
	}
	assert_string_equal(f[0].wasm_name, "fib");
	assert_int_equal(f[1].func_index, 1);
	assert_string_equal(cwasm__engine_version(c), version);
	e = cwasm__addrmap(c, &nr, &got);
	assert_int_equal(got, fmt);
	assert_int_equal(nr, ARRAY_SIZE(fib_map));
	assert_memory_equal(e, fib_map, sizeof(fib_map));
	/* lea edi, [rcx + rax] at 0x14 is fib.wat's i32.add at 0x4e; mov ecx, edi follows at 0x19. */
	assert_true(cwasm__wasm_offset(c, &f[0], 0x19, &w));
	assert_int_equal(w, 0x4e);
	assert_false(cwasm__wasm_offset(c, &f[2], 0x60, &w));
	cwasm__close(c);
}

static void the_committed_fib_fixtures_open_as_documented(void **state)
{
	static const struct {
		const char *file, *version;
		enum addrmap_format fmt;
	} fx[] = {
		{ "test-data/cwasm/fib-x86_64.cwasm", "49", ADDRMAP_BLOCKS },
		{ "test-data/cwasm/fib-x86_64-plain.cwasm", "46", ADDRMAP_PLAIN },
	};
	const char *update = getenv("HOTBLOCKS_UPDATE_FIXTURES");
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fx); i++) {
		if (update && !strcmp(update, "1"))
			write_fib_fixture(fx[i].file, fx[i].fmt, fx[i].version);
		check_fib_fixture(fx[i].file, fx[i].fmt, fx[i].version);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(functions_come_from_the_symbols_in_text_order),
		cmocka_unit_test(header_facts_and_text_bytes_are_the_written_ones),
		cmocka_unit_test(functions_are_found_by_symbol_code_and_offset),
		cmocka_unit_test(the_block_encoded_address_map_is_read),
		cmocka_unit_test(the_plain_address_map_of_older_engines_is_read),
		cmocka_unit_test(a_big_endian_s390x_file_is_read_with_a_little_endian_map),
		cmocka_unit_test(a_file_without_address_map_opens_without_one),
		cmocka_unit_test(a_file_without_symbols_has_no_functions),
		cmocka_unit_test(engine_versions_of_every_shape_are_read),
		cmocka_unit_test(the_committed_fib_fixtures_open_as_documented),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

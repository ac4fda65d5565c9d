/* SPDX-License-Identifier: MIT */
/* Unit tests of the .cwasm reader (postproc/annotate/wasmtime/cwasm.c) on ELF files synthesized with libelf. */
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

#include "annotate/wasmtime/addrmap.h"
#include "cwasm-writer.h"
#include "annotate/wasmtime/cwasm.h"
#include "lib/util.h"

#define NONE ADDRMAP_NONE
#define TEXT_SIZE 0x100

static char dir[] = "/tmp/hotblocks-test-cwasm-XXXXXX";
static char path[256];
static char err[1024];
static uint8_t text[TEXT_SIZE];
static const uint8_t rodata[16];

/*
 * wasmtime's layout: defined functions first, then trampolines, each symbol
 * STT_FUNC/STB_LOCAL with its exact size; 0x50..0x5f is alignment padding.
 * The two array-to-wasm trampolines get identical bytes (see setup).
 */
static const struct cw_symbol good_syms[] = {
	{ ".text", ".text", 0, 0, STT_SECTION, STB_LOCAL },
	{ "wasm[0]::function[1]::fib", ".text", 0x00, 0x30, STT_FUNC, STB_LOCAL },
	{ "wasm[0]::function[2]", ".text", 0x30, 0x20, STT_FUNC, STB_LOCAL },
	{ "wasm[0]::array_to_wasm_trampoline[1]", ".text", 0x60, 0x18, STT_FUNC, STB_LOCAL },
	{ "wasm[0]::array_to_wasm_trampoline[2]", ".text", 0x80, 0x18, STT_FUNC, STB_LOCAL },
	{ "signatures[0]::wasm_to_array_trampoline", ".text", 0xa0, 0x10, STT_FUNC, STB_LOCAL },
	{ "wasm[1]::function[12]::a::b", ".text", 0xb0, 0x08, STT_FUNC, STB_LOCAL },
	{ "wasm[0]::function[3]x", ".text", 0xb8, 0x08, STT_FUNC, STB_LOCAL },
	{ "wasm[0]::function[99999999999]", ".text", 0xc0, 0x08, STT_FUNC, STB_LOCAL },
	{ "wasmtime_builtin_memory_grow", ".text", 0xc8, 0x10, STT_FUNC, STB_LOCAL },
	/* Ignored without counting: not functions, or empty. */
	{ "a_label", ".text", 0x10, 0, STT_NOTYPE, STB_LOCAL },
	{ "empty", ".text", 0x40, 0, STT_FUNC, STB_LOCAL },
	{ "data", ".rodata.wasm", 0, 8, STT_OBJECT, STB_LOCAL },
	/* Dropped and counted: another section, past the end of .text, overlapping fib. */
	{ "in_rodata", ".rodata.wasm", 0, 8, STT_FUNC, STB_LOCAL },
	{ "past_end", ".text", 0xf8, 0x10, STT_FUNC, STB_LOCAL },
	{ "past_end_far", ".text", 0xfffffff0, 0x20, STT_FUNC, STB_LOCAL },
	{ "overlap", ".text", 0x08, 0x04, STT_FUNC, STB_LOCAL },
	{ "undefined", NULL, 0, 0x10, STT_FUNC, STB_GLOBAL },
};
#define NR_GOOD_FUNCS 9
#define NR_SKIPPED 5

/* fib [0, 0x30) starts with the prologue's none entry; function[2] [0x30, 0x50) has none. */
static const struct addrmap_entry map[] = {
	{ 0x00, NONE }, { 0x04, 0x2b }, { 0x10, 0x40 }, { 0x20, 0x5e }, { 0x2c, NONE },
	{ 0x34, 0x70 }, { 0x38, NONE },
};

/* byte 0 = 0, length, version string, then postcard bytes we never read */
static const uint8_t engine47[] = { 0, 2, '4', '7', 0x01, 0x02, 0x03 };
static const uint8_t engine46[] = { 0, 2, '4', '6', 0x01 };

struct opts {
	unsigned char class, data, osabi;
	uint16_t type, machine;
	enum addrmap_format fmt;
	bool no_addrmap, no_text, no_symtab, no_engine;
	const void *engine;
	size_t engine_len;
	const void *addrmap;	/* raw section instead of map[] */
	size_t addrmap_len;
};

/* Write the test .cwasm (sections 1 .text, 2 .rodata.wasm, 3 .wasmtime.engine, 4 .wasmtime.addrmap). */
static void write_cwasm(const struct opts *o)
{
	struct cw_section secs[4];
	uint8_t *am = NULL;
	size_t am_len = 0, n = 0;
	struct cw_elf spec = {
		.class = o->class,
		.data = o->data,
		.osabi = o->osabi ? o->osabi : ELFOSABI_WASMTIME,
		.type = o->type,
		.machine = o->machine ? o->machine : EM_X86_64,
		.flags = EF_WASMTIME_MODULE,
		.sections = secs,
		.symbols = good_syms,
		.nr_symbols = ARRAY_SIZE(good_syms),
		.no_symtab = o->no_symtab,
	};

	secs[n++] = (struct cw_section){ o->no_text ? ".text.not" : ".text", SHT_PROGBITS,
					 SHF_ALLOC | SHF_EXECINSTR, 16, text, sizeof(text) };
	secs[n++] = (struct cw_section){ ".rodata.wasm", SHT_PROGBITS, SHF_ALLOC, 1, rodata,
					 sizeof(rodata) };
	if (!o->no_engine)
		secs[n++] = (struct cw_section){ ".wasmtime.engine", SHT_PROGBITS, 0, 1,
						 o->engine ? o->engine : engine47,
						 o->engine ? o->engine_len : sizeof(engine47) };
	if (!o->no_addrmap) {
		if (o->addrmap) {
			am_len = o->addrmap_len;
		} else {
			assert_int_equal(addrmap__encode(map, ARRAY_SIZE(map), o->fmt, &am, &am_len), 0);
		}
		secs[n++] = (struct cw_section){ ".wasmtime.addrmap", SHT_PROGBITS, 0, 1,
						 o->addrmap ? o->addrmap : am, am_len };
	}
	spec.nr_sections = n;
	assert_int_equal(cw_elf__write(path, &spec), 0);
	free(am);
}

static int open_cwasm(struct cwasm **c)
{
	*c = NULL;
	err[0] = '\0';
	return cwasm__open(c, path, err, sizeof(err));
}

static struct cwasm *open_ok(void)
{
	struct cwasm *c;

	if (open_cwasm(&c))
		fail_msg("%s", err);
	return c;
}

/* Expect path to be refused with want after "PATH" in the message. */
static void refused(int want_ret, const char *want)
{
	struct cwasm *c;
	size_t n = strlen(path);
	int ret;

	ret = open_cwasm(&c);
	if (ret != want_ret || strncmp(err, path, n) || strncmp(err + n, want, strlen(want)))
		fail_msg("got %d '%s', want %d '%s%s...'", ret, err, want_ret, path, want);
	assert_null(c);
}

static int setup(void **state)
{
	size_t i;

	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/module.cwasm", dir);
	for (i = 0; i < sizeof(text); i++)
		text[i] = (i * 7 + 3) & 0xff;
	memcpy(text + 0x80, text + 0x60, 0x18);
	return 0;
}

static int teardown(void **state)
{
	unlink(path);
	return rmdir(dir);
}

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

/* Offsets: e_ident[EI_CLASS] 4, e_ident[EI_OSABI] 7, e_type 0x10 (ELF spec). */
static void other_elf_files_are_refused_at_the_deciding_byte(void **state)
{
	FILE *f;

	write_cwasm(&(struct opts){ .class = ELFCLASS32 });
	refused(-EINVAL, "+0x4: ELF class 1, a .cwasm is always ELF64");
	write_cwasm(&(struct opts){ .osabi = ELFOSABI_LINUX });
	refused(-EINVAL, "+0x7: EI_OSABI is 3, not 200: not a wasmtime compiled module");
	write_cwasm(&(struct opts){ .type = ET_EXEC });
	refused(-EINVAL, "+0x10: e_type 2, a .cwasm is ET_REL (1)");
	write_cwasm(&(struct opts){ .no_text = true });
	refused(-EINVAL, ": no .text section");

	f = fopen(path, "w");
	assert_non_null(f);
	fputs("(module)\n", f);
	fclose(f);
	refused(-EINVAL, "+0x0: not an ELF file");
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	refused(-EINVAL, "+0x0: not an ELF file");
	unlink(path);
	refused(-ENOENT, ": No such file or directory");
}

/* Little-endian Elf64 field access in a file image, for the corruption tests. */
static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		p[i] = v;
}

/* Offset of section header ndx in the image (Elf64_Ehdr: e_shoff at 0x28, e_shentsize at 0x3a). */
static size_t shdr_at(const uint8_t *img, size_t ndx)
{
	return get64(img + 0x28) + ndx * (img[0x3a] | img[0x3b] << 8);
}

/* Write the good file with bytes field.. of section header ndx set to v; returns the header's offset. */
static size_t patch_shdr(size_t ndx, size_t field, uint64_t v)
{
	uint8_t *img;
	size_t len, at;

	write_cwasm(&(struct opts){ .fmt = ADDRMAP_BLOCKS });
	img = cw_file__read(path, &len);
	assert_non_null(img);
	at = shdr_at(img, ndx);
	assert_true(at + 64 <= len);
	put64(img + at + field, v);
	assert_int_equal(cw_file__write(path, img, len), 0);
	free(img);
	return at;
}

/* Write the good file with n bytes at file offset at replaced. */
static void patch_bytes(size_t at, const void *bytes, size_t n)
{
	uint8_t *img;
	size_t len;

	write_cwasm(&(struct opts){ .fmt = ADDRMAP_BLOCKS });
	img = cw_file__read(path, &len);
	assert_non_null(img);
	assert_true(at + n <= len);
	memcpy(img + at, bytes, n);
	assert_int_equal(cw_file__write(path, img, len), 0);
	free(img);
}

/* File offset of section ndx's contents (sh_offset) in the file at path. */
static uint64_t section_file_off(size_t ndx)
{
	uint8_t *img;
	size_t len;
	uint64_t off;

	img = cw_file__read(path, &len);
	assert_non_null(img);
	off = get64(img + shdr_at(img, ndx) + 0x18);
	free(img);
	return off;
}

/*
 * The map's offsets are file offsets, as every reader's are, followed by the
 * offset inside the section (corrupt-inputs-wasm.sh accepts either form).
 */
static void a_corrupt_address_map_is_refused_with_its_file_offset(void **state)
{
	static const uint8_t bad[] = { 0x01, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x09, 0, 0, 0, 0x00 };
	char want[160];

	write_cwasm(&(struct opts){ .addrmap = bad, .addrmap_len = sizeof(bad) });
	snprintf(want, sizeof(want), "+0x%llx: .wasmtime.addrmap+0xc: block 0 at body offset 0x9"
		 " is past the 0x1 bytes", (unsigned long long)section_file_off(4) + 0xc);
	refused(-EINVAL, want);
	/* An empty section is not an absent one: wasmtime fails on it too. */
	write_cwasm(&(struct opts){ .addrmap = bad, .addrmap_len = 0 });
	snprintf(want, sizeof(want), "+0x%llx: .wasmtime.addrmap+0x0: truncated",
		 (unsigned long long)section_file_off(4));
	refused(-EINVAL, want);
}

/* corrupt-inputs-wasm.sh: cut at 16 bytes, libelf said "invalid ELF file data" without an offset. */
static void a_file_cut_inside_the_elf_header_is_refused_at_its_end(void **state)
{
	static const size_t cuts[] = { 3, 4, 16, 40, 63 };
	uint8_t *img;
	char want[96];
	size_t len, i;

	write_cwasm(&(struct opts){ .fmt = ADDRMAP_BLOCKS });
	img = cw_file__read(path, &len);
	assert_non_null(img);
	for (i = 0; i < ARRAY_SIZE(cuts); i++) {
		assert_int_equal(cw_file__write(path, img, cuts[i]), 0);
		snprintf(want, sizeof(want), "+0x%zx: truncated ELF header (%zu of 64 bytes)", cuts[i],
			 cuts[i]);
		refused(-EINVAL, want);
	}
	/* Short files that are no ELF64 are named for what they are. */
	img[EI_CLASS] = ELFCLASS32;
	assert_int_equal(cw_file__write(path, img, 40), 0);
	refused(-EINVAL, "+0x4: ELF class 1, a .cwasm is always ELF64");
	img[1] = 'X';
	assert_int_equal(cw_file__write(path, img, 3), 0);
	refused(-EINVAL, "+0x0: not an ELF file");
	free(img);
}

/* corrupt-inputs-wasm.sh: e_shstrndx 255 of 13 sections gave "no .text section", no offset. */
static void a_bad_e_shstrndx_or_e_shnum_is_refused_at_its_field(void **state)
{
	static const uint8_t ff[2] = { 0xff, 0x00 }, zero[2] = { 0, 0 }, one[2] = { 1, 0 };
	uint8_t *img;
	size_t len;
	char want[96];

	/* Elf64_Ehdr: e_shnum at 0x3c, e_shstrndx at 0x3e. */
	patch_bytes(0x3e, ff, 2);
	refused(-EINVAL, "+0x3e: e_shstrndx 255 is not one of the 8 sections");
	patch_bytes(0x3e, zero, 2);
	refused(-EINVAL, "+0x3e: e_shstrndx is 0 (SHN_UNDEF)");
	patch_bytes(0x3c, zero, 2);
	refused(-EINVAL, "+0x3c: e_shnum 0: the file has no sections");
	/* Section 1 (.text) as the name table: its sh_type field is to blame. */
	patch_bytes(0x3e, one, 2);
	img = cw_file__read(path, &len);
	assert_non_null(img);
	snprintf(want, sizeof(want), "+0x%zx: section 1 (e_shstrndx) has type 1, not SHT_STRTAB",
		 shdr_at(img, 1) + 4);
	free(img);
	refused(-EINVAL, want);
}

/* corrupt-inputs-wasm.sh: libelf's "invalid data" for a .symtab of 0xa9 bytes, no offset. */
static void a_symtab_size_not_a_multiple_of_24_is_refused_at_its_sh_size(void **state)
{
	uint8_t *img;
	size_t len, at;
	uint64_t size;
	char want[128];

	write_cwasm(&(struct opts){ .fmt = ADDRMAP_BLOCKS });
	img = cw_file__read(path, &len);
	assert_non_null(img);
	size = get64(img + shdr_at(img, 5) + 0x20);
	free(img);
	assert_int_equal(size % 24, 0);
	at = patch_shdr(5, 0x20, size + 1);
	snprintf(want, sizeof(want), "+0x%zx: section .symtab of 0x%llx bytes is not a whole number"
		 " of 24-byte symbols", at + 0x20, (unsigned long long)size + 1);
	refused(-EINVAL, want);
}

static char saved_path[sizeof(path)];

/* corrupt-inputs-wasm.sh: a directory gave libelf's "invalid file descriptor"; a FIFO must not block. */
static void a_directory_or_a_fifo_is_refused_without_blocking(void **state)
{
	snprintf(path, sizeof(path), "%s/dir.cwasm", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	refused(-EISDIR, ": is a directory");
	snprintf(path, sizeof(path), "%s/fifo.cwasm", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	/* Nobody writes: a blocking open would wait forever; the alarm ends the run instead. */
	alarm(20);
	refused(-EINVAL, ": not a regular file");
	alarm(0);
}

static int use_other_paths(void **state)
{
	memcpy(saved_path, path, sizeof(path));
	return 0;
}

/* Also after a failure, so that the next tests find the directory as they expect. */
static int remove_other_paths(void **state)
{
	char p[sizeof(path)];

	snprintf(p, sizeof(p), "%s/dir.cwasm", dir);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/fifo.cwasm", dir);
	unlink(p);
	memcpy(path, saved_path, sizeof(path));
	return 0;
}

/* Elf64_Shdr: sh_offset at +0x18, sh_size at +0x20. Sections: 1 .text, 4 .wasmtime.addrmap, 5 .symtab. */
static void section_headers_that_lie_are_refused_with_their_offset(void **state)
{
	char want[128];
	size_t at;

	at = patch_shdr(1, 0x20, 0x7fffffff);
	snprintf(want, sizeof(want), "+0x%zx: section .text at 0x", at);
	refused(-EINVAL, want);
	at = patch_shdr(1, 0x18, UINT64_MAX - 8);
	snprintf(want, sizeof(want),
		 "+0x%zx: section .text at 0xfffffffffffffff7 of 0x100 bytes runs past", at);
	refused(-EINVAL, want);
	at = patch_shdr(4, 0x20, 1u << 30);
	snprintf(want, sizeof(want), "+0x%zx: section .wasmtime.addrmap at 0x", at);
	refused(-EINVAL, want);
	/* A count of symbols the file cannot hold. */
	at = patch_shdr(5, 0x20, UINT64_MAX / 2);
	snprintf(want, sizeof(want), "+0x%zx: section .symtab at 0x", at);
	refused(-EINVAL, want);
}

/* Opening must end in success or a message naming the file: never a crash (valgrind checks leaks). */
static void open_survives(const char *what, size_t at)
{
	struct cwasm *c;
	int ret = open_cwasm(&c);

	if (ret && strncmp(err, path, strlen(path)))
		fail_msg("%s at %zu: %d with message '%s'", what, at, ret, err);
	if (!ret) {
		const struct cwasm_func *f;
		const uint8_t *t;
		size_t nr, size, i;
		uint32_t w;

		/* Whatever was accepted must be safe to use. */
		t = cwasm__text(c, &size);
		f = cwasm__funcs(c, &nr);
		for (i = 0; i < nr; i++) {
			assert_true((uint64_t)f[i].text_off + f[i].size <= size);
			assert_non_null(cwasm__find_code(c, t + f[i].text_off, f[i].size, NULL));
			cwasm__wasm_offset(c, &f[i], f[i].text_off, &w);
		}
		cwasm__close(c);
	}
}

static void truncated_files_never_crash(void **state)
{
	uint8_t *img;
	size_t len, cut;

	write_cwasm(&(struct opts){ .fmt = ADDRMAP_BLOCKS });
	img = cw_file__read(path, &len);
	assert_non_null(img);
	for (cut = 0; cut < len; cut += cut < 128 ? 1 : 7) {
		assert_int_equal(cw_file__write(path, img, cut), 0);
		open_survives("cut", cut);
	}
	free(img);
}

static void random_byte_flips_never_crash(void **state)
{
	uint64_t r = 0x2545f4914f6cdd1dULL;
	uint8_t *img, *mut;
	size_t len, round;

	write_cwasm(&(struct opts){ .fmt = ADDRMAP_BLOCKS });
	img = cw_file__read(path, &len);
	assert_non_null(img);
	mut = malloc(len);
	assert_non_null(mut);
	for (round = 0; round < 1500; round++) {
		size_t k;

		memcpy(mut, img, len);
		for (k = 0; k < 1 + round % 4; k++) {
			r ^= r << 13;
			r ^= r >> 7;
			r ^= r << 17;
			/* Keep the identification mostly intact so the deeper code gets exercised. */
			mut[16 + r % (len - 16)] = r >> 32;
		}
		assert_int_equal(cw_file__write(path, mut, len), 0);
		open_survives("round", round);
	}
	free(mut);
	free(img);
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
		cmocka_unit_test(other_elf_files_are_refused_at_the_deciding_byte),
		cmocka_unit_test(a_corrupt_address_map_is_refused_with_its_file_offset),
		cmocka_unit_test(a_file_cut_inside_the_elf_header_is_refused_at_its_end),
		cmocka_unit_test(a_bad_e_shstrndx_or_e_shnum_is_refused_at_its_field),
		cmocka_unit_test(a_symtab_size_not_a_multiple_of_24_is_refused_at_its_sh_size),
		cmocka_unit_test_setup_teardown(a_directory_or_a_fifo_is_refused_without_blocking,
						use_other_paths, remove_other_paths),
		cmocka_unit_test(section_headers_that_lie_are_refused_with_their_offset),
		cmocka_unit_test(truncated_files_never_crash),
		cmocka_unit_test(random_byte_flips_never_crash),
		cmocka_unit_test(the_committed_fib_fixtures_open_as_documented),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

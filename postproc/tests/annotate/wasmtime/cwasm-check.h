/* SPDX-License-Identifier: MIT */
/*
 * Test support of the .cwasm reader's tests (test-cwasm*.c): a test .cwasm
 * written with cwasm-writer.h (its symbols, address map and engine section,
 * every header field settable), opened expecting success or one refusal,
 * and the temporary directory it lives in (setup, teardown).
 */
#ifndef POSTPROC_TESTS_ANNOTATE_WASMTIME_CWASM_CHECK_H
#define POSTPROC_TESTS_ANNOTATE_WASMTIME_CWASM_CHECK_H

#include <elf.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "annotate/wasmtime/addrmap.h"
#include "annotate/wasmtime/cwasm.h"
#include "cwasm-writer.h"
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
static inline void write_cwasm(const struct opts *o)
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

static inline int open_cwasm(struct cwasm **c)
{
	*c = NULL;
	err[0] = '\0';
	return cwasm__open(c, path, err, sizeof(err));
}

static inline struct cwasm *open_ok(void)
{
	struct cwasm *c;

	if (open_cwasm(&c))
		fail_msg("%s", err);
	return c;
}

/* Expect path to be refused with want after "PATH" in the message. */
static inline void refused(int want_ret, const char *want)
{
	struct cwasm *c;
	size_t n = strlen(path);
	int ret;

	ret = open_cwasm(&c);
	if (ret != want_ret || strncmp(err, path, n) || strncmp(err + n, want, strlen(want)))
		fail_msg("got %d '%s', want %d '%s%s...'", ret, err, want_ret, path, want);
	assert_null(c);
}

static inline int setup(void **state)
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

static inline int teardown(void **state)
{
	unlink(path);
	return rmdir(dir);
}

#endif

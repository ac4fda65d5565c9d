/* SPDX-License-Identifier: MIT */
/* Unit tests of the wasm decoder (postproc/annotate/wasm/wasm*.c; immediates and floats: test-wasm-imm.c), and a dumper for the shell cross-checks. */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "lib/leb128.h"
#include "lib/util.h"
#include "wasm-builder.h"
#include "annotate/wasm/wasm-insn.h"
#include "annotate/wasm/wasm.h"

/*
 * Usage:
 *   postproc-test-wasm                         run the unit tests (cmocka)
 *   postproc-test-wasm --dump FILE             print "OFFSET<TAB>TEXT" per instruction
 *   postproc-test-wasm --dump-nonames FILE     the same, with the name section ignored
 *   postproc-test-wasm --modules FILE          print "OFFSET LENGTH" (decimal) per core module
 *   postproc-test-wasm --dump-list LIST        --dump each file named in LIST (one path a
 *                                              line), each after a line "== PATH"; a file
 *                                              that fails gets "!! error: ..." instead
 * OFFSET is 6+ lowercase hex digits (wasm-objdump's width), TEXT the Wasm column
 * text, or "-" for a function's final end. scripts/tests/wasm-vs-wabt.sh uses
 * the dump to compare against wasm-objdump and jco (wasmprinter);
 * scripts/tests/wasmprinter-diff.mjs the list form, one process for
 * thousands of modules.
 */

static uint8_t *read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p = NULL;
	size_t alloc = 0, n = 0;

	if (!f)
		return NULL;
	for (;;) {
		if (n == alloc && VEC_GROW(p, n + 65536, alloc))
			break;
		size_t r = fread(p + n, 1, alloc - n, f);

		n += r;
		if (r == 0)
			break;
	}
	fclose(f);
	*len = n;
	return p;
}

/*
 * Hide a module's name section by renaming it ("name" -> "nam_", same length,
 * so no offset moves): what the instructions look like without names.
 */
static void hide_names(uint8_t *p, size_t len)
{
	const uint8_t *c = p + 8, *end = p + len;

	if (len < 8 || p[4] != 1)
		return;
	while (c < end) {
		uint8_t id = *c++;
		uint64_t size, nlen;
		const uint8_t *body;

		if (leb128_read_u(&c, end, 32, &size) || size > (uint64_t)(end - c))
			return;
		body = c;
		if (id == 0 && !leb128_read_u(&body, c + size, 32, &nlen) && nlen == 4 &&
		    body + 4 <= c + size && !memcmp(body, "name", 4))
			p[body + 3 - p] = '_';
		c += size;
	}
}

enum dump_mode { DUMP_TEXT, DUMP_NONAMES, DUMP_MODULES };

static int dump_to(const char *path, enum dump_mode mode, FILE *errs, const char *err_prefix)
{
	char err[256];
	struct wasm_module *m;
	const struct wasm_insn *in;
	size_t len, n;
	uint8_t *buf = read_file(path, &len);
	int rc;

	if (!buf) {
		fprintf(errs, "%s%s: cannot read\n", err_prefix, path);
		return 1;
	}
	if (mode == DUMP_NONAMES)
		hide_names(buf, len);
	rc = wasm_module__parse(&m, buf, len, path, err, sizeof(err));
	if (rc) {
		fprintf(errs, "%serror: %s\n", err_prefix, err);
		free(buf);
		return 1;
	}
	if (mode == DUMP_MODULES) {
		uint32_t off, mlen;

		for (uint32_t i = 0; !wasm_module__module_range(m, i, &off, &mlen); i++)
			printf("%" PRIu32 " %" PRIu32 "\n", off, mlen);
	}
	n = mode == DUMP_MODULES ? 0 : wasm_module__insns(m, &in);
	for (size_t i = 0; i < n; i++)
		printf("%06" PRIx32 "\t%s\n", in[i].off, in[i].text ? in[i].text : "-");
	if (wasm_module__name_errors(m))
		fprintf(stderr, "warning: %s\n", wasm_module__name_error(m));
	wasm_module__free(m);
	free(buf);
	return 0;
}

static int dump(const char *path, enum dump_mode mode)
{
	return dump_to(path, mode, stderr, "");
}

static int dump_list(const char *list)
{
	FILE *f = fopen(list, "r");
	char line[4096];

	if (!f) {
		fprintf(stderr, "%s: cannot read\n", list);
		return 1;
	}
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		printf("== %s\n", line);
		dump_to(line, DUMP_TEXT, stdout, "!! ");
	}
	fclose(f);
	return fflush(stdout) ? 1 : 0;
}

/* ---- the opcode table ---- */

static void opcode_table_is_sorted_unique_and_complete(void **state)
{
	const struct wasm_opcode *ops;
	size_t n = wasm_opcodes(&ops);

	(void)state;
	assert_true(n > 600);
	for (size_t i = 0; i < n; i++) {
		assert_true(ops[i].name && ops[i].name[0]);
		assert_true(ops[i].text && ops[i].text[0]);
		assert_true(ops[i].prefix == 0 || (ops[i].prefix >= 0xfb && ops[i].prefix <= 0xfe));
		if (i)
			assert_true(ops[i - 1].prefix < ops[i].prefix ||
				    (ops[i - 1].prefix == ops[i].prefix && ops[i - 1].code < ops[i].code));
		assert_ptr_equal(wasm_opcode__find(ops[i].prefix, ops[i].code), &ops[i]);
		for (const char *c = ops[i].text; *c; c++)
			assert_true((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') ||
				    *c == '.' || *c == '_');
	}
	/* Spot checks against the spec's numbering. */
	assert_string_equal(wasm_opcode__find(0, 0x6a)->text, "i32.add");
	assert_string_equal(wasm_opcode__find(0, 0x1f)->text, "try_table");
	assert_string_equal(wasm_opcode__find(0xfc, 0x0a)->text, "memory.copy");
	assert_string_equal(wasm_opcode__find(0xfd, 0x0d)->text, "i8x16.shuffle");
	assert_string_equal(wasm_opcode__find(0xfd, 0x113)->text, "i32x4.relaxed_dot_i8x16_i7x16_add_s");
	assert_string_equal(wasm_opcode__find(0xfe, 0x48)->text, "i32.atomic.rmw.cmpxchg");
	assert_string_equal(wasm_opcode__find(0xfb, 0x18)->text, "br_on_cast");
	/* Holes and out-of-range codes. */
	assert_null(wasm_opcode__find(0, 0x16));
	assert_null(wasm_opcode__find(0, 0xfb));
	assert_null(wasm_opcode__find(0xfd, 0x200));
	assert_null(wasm_opcode__find(0xfc, 0xffffffff));
	assert_null(wasm_opcode__find(0xfa, 0));
}

/* ---- structure, errors, robustness ---- */

static void offsets_are_first_bytes_and_final_ends_have_no_text(void **state)
{
	/* A padded local index and a padded prefixed sub-opcode keep their offsets. */
	static const uint8_t code[] = { 0x20, 0x80, 0x80, 0x80, 0x80, 0x00,
					0xfc, 0x80, 0x00, 0x1a };
	struct mb body = { 0 }, m;
	struct wasm_module *w;
	const struct wasm_insn *in;
	uint32_t base;

	(void)state;
	mb_bytes(&body, code, sizeof(code));
	m = make_module(0, &body, 1, NULL);
	w = parse_ok(&m);
	assert_int_equal(wasm_module__insns(w, &in), 4);
	base = in[0].off;
	assert_int_equal(m.p[base], 0x20);
	assert_int_equal(in[1].off, base + 6);
	assert_int_equal(in[1].prefix, 0xfc);
	assert_int_equal(in[1].code, 0);
	assert_int_equal(in[2].off, base + 9);
	assert_int_equal(in[3].off, base + 10);
	assert_int_equal(m.p[in[3].off], 0x0b);
	assert_null(in[3].text);
	assert_int_equal(in[0].func, 0);
	assert_string_equal(wasm_module__insn_text(w, base), "local.get 0");
	assert_string_equal(wasm_module__insn_text(w, base + 6), "i32.trunc_sat_f32_s");
	assert_null(wasm_module__insn_text(w, base + 1));
	assert_null(wasm_module__insn_text(w, base + 10));
	assert_null(wasm_module__insn_text(w, 0));
	wasm_module__free(w);
	mb_free(&m);
	mb_free(&body);
}

static void unknown_opcodes_are_errors_naming_file_and_offset(void **state)
{
	static const uint8_t one[] = { 0x01, 0x16 };
	static const uint8_t pfx[] = { 0x01, 0xfd, 0x80, 0x04 };
	struct mb body = { 0 }, m;
	char want[64];

	(void)state;
	mb_bytes(&body, one, sizeof(one));
	m = make_module(0, &body, 1, NULL);
	/* The body starts 2 bytes before the end minus its own size. */
	snprintf(want, sizeof(want), "t.wasm+0x%zx: unknown opcode 0x16", m.len - 2);
	expect_error(&m, -ENOTSUP, want);
	mb_free(&m);
	mb_free(&body);
	mb_bytes(&body, pfx, sizeof(pfx));
	m = make_module(0, &body, 1, NULL);
	snprintf(want, sizeof(want), "t.wasm+0x%zx: unknown opcode 0xfd 0x200", m.len - 4);
	expect_error(&m, -ENOTSUP, want);
	mb_free(&m);
	mb_free(&body);
}

static void malformed_structure_is_an_error(void **state)
{
	struct mb m = { 0 }, body = { 0 };
	static const uint8_t noend[] = { 0x41 };

	(void)state;
	mb_bytes(&m, "\0asm\x02\0\0\0", 8);
	expect_error(&m, -ENOTSUP, "unsupported binary version");
	mb_free(&m);
	mb_bytes(&m, "\0asn\x01\0\0\0", 8);
	expect_error(&m, -EINVAL, "bad magic");
	mb_free(&m);
	mb_bytes(&m, "\0asm\x01\0\0\0\x01\x05\x01", 11);
	expect_error(&m, -EINVAL, "t.wasm+0x9: section size 5 runs past the end");
	mb_free(&m);
	/* An i32.const whose immediate eats the final end. */
	mb_bytes(&body, noend, sizeof(noend));
	m = make_module(0, &body, 1, NULL);
	expect_error(&m, -EINVAL, "does not end with `end`");
	mb_free(&m);
	mb_free(&body);
	{
		struct wasm_module *w;

		assert_int_equal(wasm_module__parse(&w, (const uint8_t *)"", 0, "e", NULL, 0), -EINVAL);
		assert_null(w);
	}
}

/*
 * corrupt-inputs-wasm.sh: a section id 32 after the name section was skipped
 * in silence; wabt and wasmparser refuse the module. Ids 0..13 are known
 * (13: the tag section), custom sections stay opaque.
 */
static void an_unknown_section_id_is_an_error_at_the_section(void **state)
{
	struct mb body = { 0 }, m, garbage = { 0 }, tags = { 0 };
	struct wasm_module *w;
	char want[64];
	size_t at;

	(void)state;
	mb_bytes(&body, "", 1);
	m = make_module(0, &body, 1, NULL);
	at = m.len;
	mb_bytes(&m, " " "abc", 5);
	snprintf(want, sizeof(want), "t.wasm+0x%zx: unknown section id 32", at);
	expect_error(&m, -EINVAL, want);
	/* Refused before its size is read: 0xff is no valid LEB128 end either. */
	m.len = at;
	mb_bytes(&m, "ÿ", 2);
	snprintf(want, sizeof(want), "t.wasm+0x%zx: unknown section id 14", at);
	expect_error(&m, -EINVAL, want);
	/* A tag section (0 tags) and a custom section of garbage are fine. */
	m.len = at;
	mb_uleb(&tags, 0);
	mb_section(&m, 13, &tags);
	mb_str(&garbage, "foo");
	mb_bytes(&garbage, "ÿÿ", 2);
	mb_section(&m, 0, &garbage);
	w = parse_ok(&m);
	wasm_module__free(w);
	mb_free(&m);
	mb_free(&body);
	mb_free(&garbage);
	mb_free(&tags);
}

/*
 * corrupt-inputs-wasm.sh: 2 functions declared and 1 body parsed without a
 * word (wasm-validate: "function signature count != function body count").
 * Reported at the code section's count, as wasmparser does.
 */
static void function_and_code_sections_of_different_lengths_are_an_error(void **state)
{
	static const uint8_t two_one[] = {
		0, 'a', 's', 'm', 1, 0, 0, 0,
		0x01, 0x04, 0x01, 0x60, 0x00, 0x00,		/* type (func) */
		0x03, 0x03, 0x02, 0x00, 0x00,			/* 2 functions; count at 0x10 */
		0x0a, 0x04, 0x01, 0x02, 0x00, 0x0b,		/* 1 body; count at 0x15 */
	};
	struct mb m = { 0 };

	(void)state;
	mb_bytes(&m, two_one, sizeof(two_one));
	expect_error(&m, -EINVAL, "t.wasm+0x15: function and code section have inconsistent "
		     "lengths (function section 2, code section 1)");
	/* Without a code section: the function section's count is to blame. */
	m.len = 0x13;
	expect_error(&m, -EINVAL, "t.wasm+0x10: function and code section have inconsistent "
		     "lengths (function section 2, no code section)");
	/* A body without a function section. */
	mb_free(&m);
	mb_bytes(&m, two_one, 0x0e);
	mb_bytes(&m, two_one + 0x13, sizeof(two_one) - 0x13);
	expect_error(&m, -EINVAL, "t.wasm+0x10: function and code section have inconsistent "
		     "lengths (function section 0, code section 1)");
	mb_free(&m);
}

/* One long name called many times: bounded text, an error instead of gigabytes. */
static void text_memory_is_bounded(void **state)
{
	enum { NAME = 1 << 20, CALLS = 200 };
	struct mb names = { 0 }, s = { 0 }, body = { 0 }, m;
	char *name = malloc(NAME + 1);

	(void)state;
	memset(name, 'a', NAME);
	name[NAME] = '\0';
	mb_uleb(&s, 1), mb_uleb(&s, 0), mb_str(&s, name);
	mb_section(&names, 1, &s);
	for (int i = 0; i < CALLS; i++)
		mb_bytes(&body, "\x10\x00", 2);
	m = make_module(0, &body, 1, &names);
	expect_error(&m, -E2BIG, "instruction text over");
	mb_free(&m);
	mb_free(&s);
	mb_free(&names);
	mb_free(&body);
	free(name);
}

/* Depth comes from a counter and a heap label stack: no recursion. */
static void deep_nesting_decodes_without_recursion(void **state)
{
	enum { DEPTH = 200000 };
	struct mb body = { 0 }, m;
	struct wasm_module *w;
	const struct wasm_insn *in;
	char want[64];

	(void)state;
	for (int i = 0; i < DEPTH; i++)
		mb_bytes(&body, "\x02\x40", 2);
	mb_bytes(&body, "\x0c\x00", 2);
	mb_bytes(&body, "\x0c\x80\x80\x80\x80\x00", 6);
	mb_bytes(&body, "\x0c\x02", 2);
	for (int i = 0; i < DEPTH; i++)
		mb_u8(&body, 0x0b);
	m = make_module(0, &body, 1, NULL);
	w = parse_ok(&m);
	assert_int_equal(wasm_module__insns(w, &in), 2 * DEPTH + 4);
	snprintf(want, sizeof(want), "block ;; label = @%d", DEPTH);
	assert_string_equal(in[DEPTH - 1].text, want);
	snprintf(want, sizeof(want), "br 0 (;@%d;)", DEPTH);
	assert_string_equal(in[DEPTH].text, want);
	assert_string_equal(in[DEPTH + 1].text, want);
	snprintf(want, sizeof(want), "br 2 (;@%d;)", DEPTH - 2);
	assert_string_equal(in[DEPTH + 2].text, want);
	wasm_module__free(w);
	mb_free(&m);
	mb_free(&body);
}

static uint8_t *load(const char *path, size_t *len)
{
	uint8_t *p = read_file(path, len);

	if (!p)
		fail_msg("cannot read %s (run the tests from the repository top)", path);
	return p;
}

/* Every prefix of a real module, and single-byte corruptions: errors, never crashes. */
static void truncation_and_corruption_never_crash(void **state)
{
	static const char *const files[] = {
		"test-data/wasm/names.wasm", "test-data/wasm/gc.wasm",
		"test-data/wasm/eh.wasm", "test-data/wasm/component.wasm",
	};
	uint64_t x = 88172645463325252ULL;

	(void)state;
	for (size_t f = 0; f < ARRAY_SIZE(files); f++) {
		size_t len, ok = 0;
		uint8_t *full = load(files[f], &len);

		for (size_t n = 0; n <= len; n++) {
			/* A private copy, so reads past n are caught by valgrind/ASan. */
			uint8_t *p = malloc(n ? n : 1);
			struct wasm_module *w;
			char err[128];

			memcpy(p, full, n);
			if (!wasm_module__parse(&w, p, n, "t", err, sizeof(err))) {
				ok++;
				wasm_module__free(w);
			} else {
				assert_null(w);
				assert_true(!strncmp(err, "t+0x", 4));
			}
			free(p);
		}
		/* Only cuts inside trailing custom sections can still parse. */
		assert_true(ok >= 1 && ok < len / 2);
		for (int i = 0; i < 3000; i++) {
			uint8_t *p = malloc(len);
			struct wasm_module *w;

			memcpy(p, full, len);
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			p[8 + x % (len - 8)] ^= (uint8_t)(x >> 32) | 1;
			if (!wasm_module__parse(&w, p, len, "t", NULL, 0))
				wasm_module__free(w);
			free(p);
		}
		free(full);
	}
}

static void components_decode_their_core_modules_in_file_order(void **state)
{
	size_t len;
	uint8_t *p = load("test-data/wasm/component.wasm", &len);
	struct wasm_module *w = NULL;
	const struct wasm_insn *in;
	uint32_t off, mlen, prev_end = 0;
	size_t n;

	(void)state;
	assert_int_equal(wasm_module__parse(&w, p, len, "c", NULL, 0), 0);
	assert_int_equal(wasm_module__core_modules(w), 3);
	for (uint32_t i = 0; i < 3; i++) {
		assert_int_equal(wasm_module__module_range(w, i, &off, &mlen), 0);
		assert_true(off >= prev_end && off + mlen <= len);
		assert_memory_equal(p + off, "\0asm\x01\0\0\0", 8);
		prev_end = off + mlen;
	}
	assert_int_equal(wasm_module__module_range(w, 3, &off, &mlen), -ENOENT);
	assert_int_equal(wasm_module__module_imported_funcs(w, 0), 1);
	assert_string_equal(wasm_module__module_func_name(w, 0, 1), "one");
	assert_string_equal(wasm_module__module_func_name(w, 1, 0), "two");
	assert_string_equal(wasm_module__module_func_name(w, 2, 0), "three");
	assert_null(wasm_module__module_func_name(w, 3, 0));
	n = wasm_module__insns(w, &in);
	assert_int_equal(n, 16);
	assert_int_equal(in[0].module, 0);
	assert_int_equal(in[0].func, 1);
	assert_string_equal(in[1].text, "call $imported");
	assert_int_equal(in[4].module, 1);
	assert_string_equal(in[4].text, "block $b (result i32)");
	assert_int_equal(in[15].module, 2);
	for (size_t i = 1; i < n; i++)
		assert_true(in[i - 1].off < in[i].off);
	wasm_module__free(w);
	free(p);
}

/* A big module: many functions, a million instructions; timing is reported. */
static void a_large_module_decodes_quickly(void **state)
{
	enum { FUNCS = 500, PER = 500 };
	struct mb *bodies = calloc(FUNCS, sizeof(*bodies)), m;
	struct wasm_module *w;
	const struct wasm_insn *in;
	struct timespec t0, t1;

	(void)state;
	assert_non_null(bodies);
	for (int f = 0; f < FUNCS; f++) {
		mb_bytes(&bodies[f], "\x02\x40\x03\x40", 4);
		for (int i = 0; i < PER; i++)
			mb_bytes(&bodies[f], "\x20\x00\x41\xc5\xbb\xf2\x88\x78\x6c\x28\x02\x10\x0d\x01\x1a", 15);
		mb_bytes(&bodies[f], "\x0b\x0b", 2);
	}
	m = make_module(0, bodies, FUNCS, NULL);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	w = parse_ok(&m);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	assert_int_equal(wasm_module__insns(w, &in), (size_t)FUNCS * (PER * 6 + 5));
	printf("# %zu bytes, %zu instructions decoded in %.3f s\n", m.len,
	       (size_t)FUNCS * (PER * 6 + 5),
	       (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	wasm_module__free(w);
	mb_free(&m);
	for (int f = 0; f < FUNCS; f++)
		mb_free(&bodies[f]);
	free(bodies);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "--dump"))
		return dump(argv[2], DUMP_TEXT);
	if (argc == 3 && !strcmp(argv[1], "--dump-nonames"))
		return dump(argv[2], DUMP_NONAMES);
	if (argc == 3 && !strcmp(argv[1], "--modules"))
		return dump(argv[2], DUMP_MODULES);
	if (argc == 3 && !strcmp(argv[1], "--dump-list"))
		return dump_list(argv[2]);

	const struct CMUnitTest tests[] = {
		cmocka_unit_test(opcode_table_is_sorted_unique_and_complete),
		cmocka_unit_test(offsets_are_first_bytes_and_final_ends_have_no_text),
		cmocka_unit_test(unknown_opcodes_are_errors_naming_file_and_offset),
		cmocka_unit_test(malformed_structure_is_an_error),
		cmocka_unit_test(an_unknown_section_id_is_an_error_at_the_section),
		cmocka_unit_test(function_and_code_sections_of_different_lengths_are_an_error),
		cmocka_unit_test(deep_nesting_decodes_without_recursion),
		cmocka_unit_test(text_memory_is_bounded),
		cmocka_unit_test(truncation_and_corruption_never_crash),
		cmocka_unit_test(components_decode_their_core_modules_in_file_order),
		cmocka_unit_test(a_large_module_decodes_quickly),
	};
	if (argc > 1) {
		fprintf(stderr, "usage: %s [--dump|--dump-nonames|--modules FILE | --dump-list LIST]\n",
			argv[0]);
		return 2;
	}
	return cmocka_run_group_tests_name("wasm", tests, NULL, NULL);
}

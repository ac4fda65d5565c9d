/* SPDX-License-Identifier: MIT */
/* Unit tests of the wasm decoder (postproc/annotate/wasm/wasm*.c), and a dumper for the shell cross-checks. */
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
#include "annotate/wasm/wasm-float.h"
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

/* ---- immediates, one kind at a time ---- */

static void immediates_of_control_instructions(void **state)
{
	(void)state;
	EXPECT("block ;; label = @1|br 0 (;@1;)|end|-", 0x02, 0x40, 0x0c, 0x00, 0x0b);
	EXPECT("loop (result i32) ;; label = @1|i32.const 1|end|drop|-",
	       0x03, 0x7f, 0x41, 0x01, 0x0b, 0x1a);
	/* Type index block type, expanded: type 1 = (param i32 i64) (result i32). */
	EXPECT("i32.const 0|i64.const 0|block (type 1) (param i32 i64) (result i32) ;; label = @1|end|drop|-",
	       0x41, 0x00, 0x42, 0x00, 0x02, 0x01, 0x0b, 0x1a);
	EXPECT("i32.const 0|if (type 2) (param i32) (result f32 f64) ;; label = @1|unreachable|else|unreachable|end|drop|drop|-",
	       0x41, 0x00, 0x04, 0x02, 0x00, 0x05, 0x00, 0x0b, 0x1a, 0x1a);
	/* A type index with no such type prints bare. */
	EXPECT("block (type 9) ;; label = @1|end|-", 0x02, 0x09, 0x0b);
	/* Branch to the function label: no comment; beyond it: INVALID. */
	EXPECT("block ;; label = @1|br 1|br 2 (; INVALID ;)|end|-",
	       0x02, 0x40, 0x0c, 0x01, 0x0c, 0x02, 0x0b);
	EXPECT("block ;; label = @1|block ;; label = @2|i32.const 0|br_table 0 (;@2;) 1 (;@1;) 2 1 (;@1;)|end|end|-",
	       0x02, 0x40, 0x02, 0x40, 0x41, 0x00, 0x0e, 0x03, 0x00, 0x01, 0x02, 0x01, 0x0b, 0x0b);
	EXPECT("i32.const 0|br_table 0|-", 0x41, 0x00, 0x0e, 0x00, 0x00);
	EXPECT("call 0|return_call 0|-", 0x10, 0x00, 0x12, 0x00);
	EXPECT("i32.const 0|call_indirect (type 0)|i32.const 0|call_indirect 3 (type 0)|-",
	       0x41, 0x00, 0x11, 0x00, 0x00, 0x41, 0x00, 0x11, 0x00, 0x03);
	EXPECT("i32.const 0|return_call_indirect 1 (type 0)|-", 0x41, 0x00, 0x13, 0x00, 0x01);
	EXPECT("ref.func 0|call_ref 0|ref.func 0|return_call_ref 0|-",
	       0xd2, 0x00, 0x14, 0x00, 0xd2, 0x00, 0x15, 0x00);
	EXPECT("i32.const 1|i32.const 2|i32.const 0|select|drop|-",
	       0x41, 0x01, 0x41, 0x02, 0x41, 0x00, 0x1b, 0x1a);
	EXPECT("select (result i32)|select (result i64 funcref)|select (result)|-",
	       0x1c, 0x01, 0x7f, 0x1c, 0x02, 0x7e, 0x70, 0x1c, 0x00);
	EXPECT("local.get 0|local.set 1|local.tee 200|global.get 3|global.set 0|-",
	       0x20, 0x00, 0x21, 0x01, 0x22, 0xc8, 0x01, 0x23, 0x03, 0x24, 0x00);
}

static void immediates_of_memory_instructions(void **state)
{
	(void)state;
	/* Natural alignment is not printed; offsets only when nonzero. */
	EXPECT("i32.load|i32.load offset=8 align=1|i64.load align=4|i32.load8_u offset=4294967295|-",
	       0x28, 0x02, 0x00, 0x28, 0x00, 0x08, 0x29, 0x02, 0x00,
	       0x2d, 0x00, 0xff, 0xff, 0xff, 0xff, 0x0f);
	/* Multi-memory: bit 6 of the flags, then a memory index. memory64 offsets. */
	EXPECT("i32.store 2 offset=1|i64.load 1 offset=4294967296 align=16|-",
	       0x36, 0x42, 0x02, 0x01, 0x29, 0x44, 0x01, 0x80, 0x80, 0x80, 0x80, 0x10);
	EXPECT("memory.size|memory.grow 1|memory.fill|memory.fill 2|-",
	       0x3f, 0x00, 0x40, 0x01, 0xfc, 0x0b, 0x00, 0xfc, 0x0b, 0x02);
	EXPECT("memory.init 3|memory.init 1 0|data.drop 2|memory.copy|memory.copy 0 1|-",
	       0xfc, 0x08, 0x03, 0x00, 0xfc, 0x08, 0x00, 0x01, 0xfc, 0x09, 0x02,
	       0xfc, 0x0a, 0x00, 0x00, 0xfc, 0x0a, 0x00, 0x01);
	EXPECT("table.init 1|table.init 2 1|elem.drop 0|table.copy|table.copy 1 0|-",
	       0xfc, 0x0c, 0x01, 0x00, 0xfc, 0x0c, 0x01, 0x02, 0xfc, 0x0d, 0x00,
	       0xfc, 0x0e, 0x00, 0x00, 0xfc, 0x0e, 0x01, 0x00);
	EXPECT("table.get 0|table.set 1|table.size 2|table.grow 0|table.fill 1|-",
	       0x25, 0x00, 0x26, 0x01, 0xfc, 0x10, 0x02, 0xfc, 0x0f, 0x00, 0xfc, 0x11, 0x01);
	/* Alignment too large. */
	{
		static const uint8_t code[] = { 0x28, 0x80, 0x01, 0x00 };	/* 2^128 */
		struct mb body = { 0 }, m;

		mb_bytes(&body, code, sizeof(code));
		m = make_module(0, &body, 1, NULL);
		expect_error(&m, -EINVAL, "alignment too large");
		mb_free(&m);
		mb_free(&body);
	}
}

static void immediates_of_numeric_and_simd_instructions(void **state)
{
	(void)state;
	EXPECT("i32.const -2147483648|i64.const 9223372036854775807|-",
	       0x41, 0x80, 0x80, 0x80, 0x80, 0x78,
	       0x42, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00);
	EXPECT("f32.const 0x1.8p+0 (;=1.5;)|f64.const -0x1p-1 (;=-0.5;)|-",
	       0x43, 0x00, 0x00, 0xc0, 0x3f, 0x44, 0, 0, 0, 0, 0, 0, 0xe0, 0xbf);
	EXPECT("i32.trunc_sat_f64_u|i64.add128|-", 0xfc, 0x03, 0xfc, 0x13);
	/* A prefixed sub-opcode padded to 5 bytes still names the instruction. */
	EXPECT("i32.trunc_sat_f32_s|-", 0xfc, 0x80, 0x80, 0x80, 0x80, 0x00);
	EXPECT("v128.const i32x4 0x03020100 0x07060504 0x0b0a0908 0x0f0e0d0c|-",
	       0xfd, 0x0c, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
	EXPECT("i8x16.shuffle 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 31|-",
	       0xfd, 0x0d, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 31);
	EXPECT("i16x8.extract_lane_u 7|v128.load offset=16|v128.load8_lane 1 15|v128.store64_lane offset=8 align=1 1|-",
	       0xfd, 0x19, 0x07, 0xfd, 0x00, 0x04, 0x10, 0xfd, 0x54, 0x40, 0x01, 0x00, 0x0f,
	       0xfd, 0x5b, 0x00, 0x08, 0x01);
	EXPECT("f64x2.promote_low_f32x4|i32x4.relaxed_dot_i8x16_i7x16_add_s|-",
	       0xfd, 0x5f, 0xfd, 0x93, 0x02);
}

static void immediates_of_reference_gc_and_exception_instructions(void **state)
{
	(void)state;
	EXPECT("ref.null func|ref.null extern|ref.null 1|ref.null (shared any)|ref.null (exact 0)|-",
	       0xd0, 0x70, 0xd0, 0x6f, 0xd0, 0x01, 0xd0, 0x65, 0x6e, 0xd0, 0x62, 0x00);
	EXPECT("ref.test (ref 0)|ref.test (ref null 0)|ref.cast (ref any)|ref.cast nullref|ref.test (ref null cont)|-",
	       0xfb, 0x14, 0x00, 0xfb, 0x15, 0x00, 0xfb, 0x16, 0x6e, 0xfb, 0x17, 0x71,
	       0xfb, 0x15, 0x68);
	EXPECT("block ;; label = @1|br_on_cast 0 (;@1;) anyref (ref 2)|br_on_cast_fail 0 (;@1;) (ref eq) i31ref|end|-",
	       0x02, 0x40, 0xfb, 0x18, 0x01, 0x00, 0x6e, 0x02, 0xfb, 0x19, 0x02, 0x00, 0x6d, 0x6c, 0x0b);
	EXPECT("struct.new 1|struct.get 1 2|struct.set 0 0|array.new_fixed 2 5|array.copy 1 2|array.new_data 1 0|array.init_elem 1 3|-",
	       0xfb, 0x00, 0x01, 0xfb, 0x02, 0x01, 0x02, 0xfb, 0x05, 0x00, 0x00,
	       0xfb, 0x08, 0x02, 0x05, 0xfb, 0x11, 0x01, 0x02, 0xfb, 0x09, 0x01, 0x00,
	       0xfb, 0x13, 0x01, 0x03);
	EXPECT("ref.i31|i31.get_s|any.convert_extern|extern.convert_any|ref.as_non_null|br_on_null 0|br_on_non_null 0|-",
	       0xfb, 0x1c, 0xfb, 0x1d, 0xfb, 0x1a, 0xfb, 0x1b, 0xd4, 0xd5, 0x00, 0xd6, 0x00);
	/* Catch labels count from outside the try_table. */
	EXPECT("block ;; label = @1|try_table (catch 0 0 (;@1;)) (catch_ref 1 1) (catch_all 0 (;@1;)) (catch_all_ref 2 (; INVALID ;)) ;; label = @2|throw 0|end|end|throw_ref|-",
	       0x02, 0x40,
	       0x1f, 0x40, 0x04, 0x00, 0x00, 0x00, 0x01, 0x01, 0x01, 0x02, 0x00, 0x03, 0x02,
	       0x08, 0x00, 0x0b, 0x0b, 0x0a);
	EXPECT("try ;; label = @1|catch 1|rethrow 0 (;@1;)|catch_all|end|-",
	       0x06, 0x40, 0x07, 0x01, 0x09, 0x00, 0x19, 0x0b);
	EXPECT("try ;; label = @1|delegate 0|-", 0x06, 0x40, 0x18, 0x00);
}

static void immediates_of_atomic_and_stack_switching_instructions(void **state)
{
	(void)state;
	EXPECT("memory.atomic.notify|memory.atomic.wait64 offset=8|atomic.fence|i64.atomic.rmw8.cmpxchg_u|-",
	       0xfe, 0x00, 0x02, 0x00, 0xfe, 0x02, 0x03, 0x08, 0xfe, 0x03, 0x00, 0xfe, 0x4c, 0x00, 0x00);
	EXPECT("global.atomic.get seq_cst 1|struct.atomic.rmw.add acq_rel 0 2|array.atomic.get_u seq_cst 3|table.atomic.set acq_rel 0|-",
	       0xfe, 0x4f, 0x00, 0x01, 0xfe, 0x60, 0x01, 0x00, 0x02, 0xfe, 0x69, 0x00, 0x03,
	       0xfe, 0x59, 0x01, 0x00);
	EXPECT("cont.new 0|cont.bind 0 1|suspend 2|switch 0 1|-",
	       0xe0, 0x00, 0xe1, 0x00, 0x01, 0xe2, 0x02, 0xe6, 0x00, 0x01);
	EXPECT("block ;; label = @1|resume 0 (on 1 0 (;@1;)) (on 2 switch)|resume_throw 0 1|end|-",
	       0x02, 0x40, 0xe3, 0x00, 0x02, 0x00, 0x01, 0x00, 0x01, 0x02,
	       0xe4, 0x00, 0x01, 0x00, 0x0b);
	/* atomic.fence takes a zero byte; orderings are 0 or 1. */
	{
		static const uint8_t fence[] = { 0xfe, 0x03, 0x01 };
		static const uint8_t ord[] = { 0xfe, 0x4f, 0x02, 0x00 };
		struct mb body = { 0 }, m;

		mb_bytes(&body, fence, sizeof(fence));
		m = make_module(0, &body, 1, NULL);
		expect_error(&m, -EINVAL, "nonzero byte after `atomic.fence`");
		mb_free(&m);
		mb_free(&body);
		mb_bytes(&body, ord, sizeof(ord));
		m = make_module(0, &body, 1, NULL);
		expect_error(&m, -EINVAL, "ordering 2");
		mb_free(&m);
		mb_free(&body);
	}
}

/* ---- floats ---- */

static void floats_print_as_wasmprinter_does(void **state)
{
	static const struct {
		uint32_t bits;
		const char *want;
	} f32s[] = {
		{ 0x00000000, "0x0p+0 (;=0;)" },
		{ 0x80000000, "-0x0p+0 (;=-0;)" },
		{ 0x3dcccccd, "0x1.99999ap-4 (;=0.1;)" },
		{ 0x7f7fffff, "0x1.fffffep+127 (;=340282350000000000000000000000000000000;)" },
		{ 0x00000001, "0x1.p-149 (;=0.000000000000000000000000000000000000000000001;)" },
		{ 0x00000003, "0x1.8p-148 (;=0.000000000000000000000000000000000000000000004;)" },
		{ 0x7f800000, "inf (;=inf;)" },
		{ 0xff800000, "-inf (;=-inf;)" },
		{ 0x7fc00000, "nan (;=NaN;)" },
		{ 0xffc00000, "-nan (;=NaN;)" },
		{ 0x7f800001, "nan:0x1 (;=NaN;)" },
		{ 0x3eaaaaab, "0x1.555556p-2 (;=0.33333334;)" },
		{ 0x5f800000, "0x1p+64 (;=18446744000000000000;)" },
	};
	static const struct {
		uint64_t bits;
		const char *want;
	} f64s[] = {
		{ 0x3fb999999999999aULL, "0x1.999999999999ap-4 (;=0.1;)" },
		{ 0x3fd3333333333334ULL, "0x1.3333333333334p-2 (;=0.30000000000000004;)" },
		{ 0x43b0000000000000ULL, "0x1p+60 (;=1152921504606847000;)" },
		{ 0x444b1ae4d6e2ef50ULL, "0x1.b1ae4d6e2ef5p+69 (;=1000000000000000000000;)" },
		{ 0x3e7ad7f29abcaf48ULL, "0x1.ad7f29abcaf48p-24 (;=0.0000001;)" },
		{ 0x400921fb54442d18ULL, "0x1.921fb54442d18p+1 (;=3.141592653589793;)" },
		{ 0xfff0000000000000ULL, "-inf (;=-inf;)" },
		{ 0x7ff4000000000001ULL, "nan:0x4000000000001 (;=NaN;)" },
	};
	char buf[512];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(f32s); i++) {
		wasm_float__fmt_f32(buf, sizeof(buf), f32s[i].bits);
		assert_string_equal(buf, f32s[i].want);
	}
	for (size_t i = 0; i < ARRAY_SIZE(f64s); i++) {
		wasm_float__fmt_f64(buf, sizeof(buf), f64s[i].bits);
		assert_string_equal(buf, f64s[i].want);
	}
	/* The smallest subnormal needs 327 characters; a short buffer truncates. */
	assert_int_equal(wasm_float__fmt_f64(buf, 8, 1), strlen("0x1.p-1074 (;=0.") + 323 + strlen("5;)"));
	assert_string_equal(buf, "0x1.p-1");
}

/*
 * An exact tie: the value lies halfway between the two shortest decimals that
 * read back as it. Rust (so wasmprinter) takes the larger magnitude; printf's
 * rounding would take the even last digit (1.0039062). Expected texts are
 * `jco print` (wasmprinter 0.259) of test-data/wasm/floats.wasm, which holds
 * these values.
 */
static void float_ties_take_the_larger_magnitude(void **state)
{
	static const struct {
		uint32_t bits;
		const char *want;
	} f32s[] = {
		{ 0x3f808000, "0x1.01p+0 (;=1.0039063;)" },
		{ 0xbf808000, "-0x1.01p+0 (;=-1.0039063;)" },
		{ 0x39800000, "0x1p-12 (;=0.00024414063;)" },
		{ 0xc1f05000, "-0x1.e0ap+4 (;=-30.039063;)" },
		{ 0x49e1473a, "0x1.c28e74p+20 (;=1845479.3;)" },
	};
	static const struct {
		uint64_t bits;
		const char *want;
	} f64s[] = {
		{ 0x431f7a17b4e59465ULL, "0x1.f7a17b4e59465p+50 (;=2214991628952857.3;)" },
		{ 0x3e60000000000000ULL, "0x1p-25 (;=0.000000029802322387695313;)" },
		{ 0xbea4000000000000ULL, "-0x1.4p-21 (;=-0.0000005960464477539063;)" },
		{ 0x3fe1cfd000000000ULL, "0x1.1cfdp-1 (;=0.5566177368164063;)" },
		{ 0x42d40537fcc46ec8ULL, "0x1.40537fcc46ec8p+46 (;=88050586816955.13;)" },
		{ 0x4310000000000001ULL, "0x1.0000000000001p+50 (;=1125899906842624.3;)" },
	};
	char buf[128];

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(f32s); i++) {
		wasm_float__fmt_f32(buf, sizeof(buf), f32s[i].bits);
		assert_string_equal(buf, f32s[i].want);
	}
	for (size_t i = 0; i < ARRAY_SIZE(f64s); i++) {
		wasm_float__fmt_f64(buf, sizeof(buf), f64s[i].bits);
		assert_string_equal(buf, f64s[i].want);
	}
}

/* The decimal comment reads back as the same float, for many bit patterns. */
static void float_comments_round_trip(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	char buf[512];

	(void)state;
	for (int i = 0; i < 20000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		uint64_t bits = i & 1 ? x : x >> 32;
		bool is64 = i & 1;
		char *c;

		if (is64 ? ((bits >> 52) & 0x7ff) == 0x7ff : ((bits >> 23) & 0xff) == 0xff)
			continue;
		if (is64)
			wasm_float__fmt_f64(buf, sizeof(buf), bits);
		else
			wasm_float__fmt_f32(buf, sizeof(buf), (uint32_t)bits);
		c = strstr(buf, "(;=");
		assert_non_null(c);
		if (is64) {
			double d = strtod(c + 3, NULL), want;

			memcpy(&want, &bits, sizeof(want));
			assert_true(d == want);
		} else {
			uint32_t b32 = (uint32_t)bits;
			float want;

			memcpy(&want, &b32, sizeof(want));
			assert_true(strtof(c + 3, NULL) == want);
		}
	}
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
		cmocka_unit_test(immediates_of_control_instructions),
		cmocka_unit_test(immediates_of_memory_instructions),
		cmocka_unit_test(immediates_of_numeric_and_simd_instructions),
		cmocka_unit_test(immediates_of_reference_gc_and_exception_instructions),
		cmocka_unit_test(immediates_of_atomic_and_stack_switching_instructions),
		cmocka_unit_test(floats_print_as_wasmprinter_does),
		cmocka_unit_test(float_ties_take_the_larger_magnitude),
		cmocka_unit_test(float_comments_round_trip),
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

/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the wasm decoder's instruction text (postproc/annotate/wasm/
 * wasm-imm.c, wasm-float.c): every kind of immediate, one kind at a time, and
 * float constants as wasmprinter prints them (the rest: test-wasm.c).
 */
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

#include <cmocka.h>

#include "annotate/wasm/wasm-float.h"
#include "annotate/wasm/wasm.h"
#include "lib/util.h"
#include "wasm-builder.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(immediates_of_control_instructions),
		cmocka_unit_test(immediates_of_memory_instructions),
		cmocka_unit_test(immediates_of_numeric_and_simd_instructions),
		cmocka_unit_test(immediates_of_reference_gc_and_exception_instructions),
		cmocka_unit_test(immediates_of_atomic_and_stack_switching_instructions),
		cmocka_unit_test(floats_print_as_wasmprinter_does),
		cmocka_unit_test(float_ties_take_the_larger_magnitude),
		cmocka_unit_test(float_comments_round_trip),
	};

	return cmocka_run_group_tests_name("wasm-imm", tests, NULL, NULL);
}

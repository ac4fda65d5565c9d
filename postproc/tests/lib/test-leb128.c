/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of postproc/lib/leb128.c. The encodings were worked out by hand from
 * the LEB128 definition (7 bits a byte, low first, high bit = more follow;
 * signed values sign-extend from bit 6 of the last byte) and the WebAssembly
 * spec's limits (ceil(N/7) bytes for an N-bit value, unused bits zero or sign).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "lib/leb128.h"

/* ---- reading ---- */

static int64_t leb_s(const uint8_t *b, size_t n, unsigned bits, int *rc, size_t *used)
{
	const uint8_t *p = b;
	int64_t v = 0;

	*rc = leb128_read_s(&p, b + n, bits, &v);
	*used = (size_t)(p - b);
	return v;
}

static uint64_t leb_u(const uint8_t *b, size_t n, unsigned bits, int *rc, size_t *used)
{
	const uint8_t *p = b;
	uint64_t v = 0;

	*rc = leb128_read_u(&p, b + n, bits, &v);
	*used = (size_t)(p - b);
	return v;
}

#define U(bits, want_rc, want_v, want_used, ...)                                      \
	do {                                                                          \
		static const uint8_t b_[] = { __VA_ARGS__ };                          \
		int rc_;                                                              \
		size_t used_;                                                         \
		uint64_t v_ = leb_u(b_, sizeof(b_), bits, &rc_, &used_);              \
		assert_int_equal(rc_, want_rc);                                       \
		assert_int_equal(used_, want_used);                                   \
		if (!rc_)                                                             \
			assert_int_equal(v_, want_v);                                 \
	} while (0)

#define S(bits, want_rc, want_v, want_used, ...)                                      \
	do {                                                                          \
		static const uint8_t b_[] = { __VA_ARGS__ };                          \
		int rc_;                                                              \
		size_t used_;                                                         \
		int64_t v_ = leb_s(b_, sizeof(b_), bits, &rc_, &used_);               \
		assert_int_equal(rc_, want_rc);                                       \
		assert_int_equal(used_, want_used);                                   \
		if (!rc_)                                                             \
			assert_true(v_ == (int64_t)(want_v));                         \
	} while (0)

static void leb_unsigned_accepts_minimal_and_padded_forms(void **state)
{
	(void)state;
	U(32, 0, 0, 1, 0x00);
	U(32, 0, 127, 1, 0x7f, 0x55);
	U(32, 0, 128, 2, 0x80, 0x01);
	U(32, 0, 624485, 3, 0xe5, 0x8e, 0x26);
	/* Linkers pad to 5 bytes: non-minimal is fine. */
	U(32, 0, 0, 5, 0x80, 0x80, 0x80, 0x80, 0x00);
	U(32, 0, 3, 5, 0x83, 0x80, 0x80, 0x80, 0x00);
	U(32, 0, UINT32_MAX, 5, 0xff, 0xff, 0xff, 0xff, 0x0f);
	U(64, 0, UINT64_MAX, 10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
	U(64, 0, 1, 10, 0x81, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00);
}

static void leb_unsigned_rejects_overflow_overlong_and_truncation(void **state)
{
	(void)state;
	/* Bits past 32 in the fifth byte. */
	U(32, -ERANGE, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x1f);
	U(32, -ERANGE, 0, 0, 0x80, 0x80, 0x80, 0x80, 0x10);
	/* A sixth byte. */
	U(32, -ERANGE, 0, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00);
	U(64, -ERANGE, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x02);
	U(64, -ERANGE, 0, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00);
	/* Truncated: the cursor does not move. */
	U(32, -EINVAL, 0, 0, 0x80);
	U(32, -EINVAL, 0, 0, 0xff, 0xff, 0xff, 0xff);
	{
		const uint8_t *p = NULL;
		uint64_t v;

		assert_int_equal(leb128_read_u(&p, p, 32, &v), -EINVAL);
	}
}

static void leb_signed_extends_and_checks_the_sign_bits(void **state)
{
	(void)state;
	S(32, 0, 0, 1, 0x00);
	S(32, 0, -1, 1, 0x7f);
	S(32, 0, 63, 1, 0x3f);
	S(32, 0, -64, 1, 0x40);
	S(32, 0, 64, 2, 0xc0, 0x00);
	S(32, 0, -1, 5, 0xff, 0xff, 0xff, 0xff, 0x7f);
	S(32, 0, INT32_MIN, 5, 0x80, 0x80, 0x80, 0x80, 0x78);
	S(32, 0, INT32_MAX, 5, 0xff, 0xff, 0xff, 0xff, 0x07);
	S(32, -ERANGE, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f);	/* 2^32-1: too large */
	S(32, -ERANGE, 0, 0, 0x80, 0x80, 0x80, 0x80, 0x70);
	S(32, -ERANGE, 0, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f);
	S(32, -EINVAL, 0, 0, 0xff, 0xff);
	/* s33 (block types, heap types): 5 data bits in the last byte. */
	S(33, 0, 0xffffffffLL, 5, 0xff, 0xff, 0xff, 0xff, 0x0f);
	S(33, 0, -((int64_t)1 << 32), 5, 0x80, 0x80, 0x80, 0x80, 0x70);
	S(33, -ERANGE, 0, 0, 0x80, 0x80, 0x80, 0x80, 0x20);
	S(64, 0, INT64_MIN, 10, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f);
	S(64, 0, INT64_MAX, 10, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x00);
	S(64, -ERANGE, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01);
	S(64, -ERANGE, 0, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x40);
}

/* ---- writing ---- */

static void leb_writes_are_minimal(void **state)
{
	static const struct {
		int64_t v;
		bool sign;
		uint8_t n, bytes[LEB128_MAX];
	} cases[] = {
		{ 0, false, 1, { 0x00 } },
		{ 0x2a, false, 1, { 0x2a } },
		{ 127, false, 1, { 0x7f } },
		{ 128, false, 2, { 0x80, 0x01 } },
		{ 0x100dc, false, 3, { 0xdc, 0x81, 0x04 } },
		{ -1, false, 10, { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01 } },
		{ 0, true, 1, { 0x00 } },
		{ -3, true, 1, { 0x7d } },
		{ 63, true, 1, { 0x3f } },
		{ 64, true, 2, { 0xc0, 0x00 } },
		{ -64, true, 1, { 0x40 } },
		{ -65, true, 2, { 0xbf, 0x7f } },
		{ INT64_MIN, true, 10, { 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x7f } },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		uint8_t got[LEB128_MAX];
		size_t n = cases[i].sign ? leb128_write_s(got, cases[i].v) :
					   leb128_write_u(got, (uint64_t)cases[i].v);

		assert_int_equal(n, cases[i].n);
		assert_memory_equal(got, cases[i].bytes, n);
	}
}

static void leb_writes_read_back(void **state)
{
	uint64_t x = 0x9e3779b97f4a7c15ULL;

	(void)state;
	for (int i = 0; i < 100000; i++) {
		uint8_t b[LEB128_MAX];
		const uint8_t *p = b;
		uint64_t u, v;
		int64_t s;
		size_t n;

		/* xorshift64, shifted down at random so that short values come up too */
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = x >> (x % 64);
		n = leb128_write_u(b, v);
		assert_int_equal(leb128_read_u(&p, b + n, 64, &u), 0);
		assert_true(u == v && p == b + n);
		p = b;
		n = leb128_write_s(b, (int64_t)(v ^ (x & 1 ? UINT64_MAX : 0)));
		assert_int_equal(leb128_read_s(&p, b + n, 64, &s), 0);
		assert_true((uint64_t)s == (v ^ (x & 1 ? UINT64_MAX : 0)) && p == b + n);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(leb_unsigned_accepts_minimal_and_padded_forms),
		cmocka_unit_test(leb_unsigned_rejects_overflow_overlong_and_truncation),
		cmocka_unit_test(leb_signed_extends_and_checks_the_sign_bits),
		cmocka_unit_test(leb_writes_are_minimal),
		cmocka_unit_test(leb_writes_read_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

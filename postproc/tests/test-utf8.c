/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of postproc/utf8.c. The cases are the boundaries of RFC 3629's
 * table of well-formed byte sequences (section 4), worked out by hand, and
 * every 1- and 2-byte sequence checked against a decoder written from the
 * definition (code point ranges rather than the table).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "utf8.h"

#define SEQ(want, ...)                                                          \
	do {                                                                    \
		static const uint8_t s_[] = { __VA_ARGS__ };                    \
		assert_int_equal(utf8_seq_len(s_, sizeof(s_)), want);           \
	} while (0)

static void sequences_at_the_table_boundaries(void **state)
{
	(void)state;
	SEQ(1, 0x00);
	SEQ(1, 0x7f);
	SEQ(0, 0x80);			/* a lone continuation byte */
	SEQ(0, 0xc1, 0xbf);		/* overlong U+007F */
	SEQ(2, 0xc2, 0x80);		/* U+0080 */
	SEQ(2, 0xdf, 0xbf);		/* U+07FF */
	SEQ(0, 0xdf, 0xc0);
	SEQ(0, 0xe0, 0x9f, 0xbf);	/* overlong U+07FF */
	SEQ(3, 0xe0, 0xa0, 0x80);	/* U+0800 */
	SEQ(3, 0xed, 0x9f, 0xbf);	/* U+D7FF */
	SEQ(0, 0xed, 0xa0, 0x80);	/* U+D800, a surrogate */
	SEQ(0, 0xed, 0xbf, 0xbf);	/* U+DFFF */
	SEQ(3, 0xee, 0x80, 0x80);	/* U+E000 */
	SEQ(3, 0xef, 0xbf, 0xbf);	/* U+FFFF */
	SEQ(0, 0xf0, 0x8f, 0xbf, 0xbf);	/* overlong U+FFFF */
	SEQ(4, 0xf0, 0x90, 0x80, 0x80);	/* U+10000 */
	SEQ(4, 0xf4, 0x8f, 0xbf, 0xbf);	/* U+10FFFF */
	SEQ(0, 0xf4, 0x90, 0x80, 0x80);	/* U+110000 */
	SEQ(0, 0xf5, 0x80, 0x80, 0x80);
	SEQ(0, 0xff);
	/* Cut short, or a continuation byte missing. */
	SEQ(0, 0xe2, 0x82);
	SEQ(0, 0xe2, 0x28, 0xa1);
	SEQ(0, 0xf0, 0x9f, 0x98);
	assert_int_equal(utf8_seq_len((const uint8_t *)"", 0), 0);
}

/* The definition: a code point in range, encoded in the fewest bytes. */
static bool by_definition(const uint8_t *s, size_t n)
{
	uint32_t cp;

	if (n == 1)
		return s[0] < 0x80;
	if ((s[0] & 0xe0) != 0xc0 || (s[1] & 0xc0) != 0x80)
		return false;
	cp = (uint32_t)(s[0] & 0x1f) << 6 | (s[1] & 0x3f);
	return cp >= 0x80;
}

static void every_short_sequence_agrees_with_the_definition(void **state)
{
	(void)state;
	for (unsigned a = 0; a < 256; a++) {
		uint8_t s[2] = { (uint8_t)a, 0 };

		assert_int_equal(utf8_valid(s, 1), by_definition(s, 1));
		for (unsigned b = 0; b < 256; b++) {
			s[1] = (uint8_t)b;
			/* Two bytes: one 2-byte sequence, or two 1-byte ones. */
			assert_int_equal(utf8_valid(s, 2),
					 by_definition(s, 2) || (a < 0x80 && b < 0x80));
		}
	}
}

static void code_points_are_decoded(void **state)
{
	static const uint8_t s[] = { 'a', 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80 };
	static const uint32_t want[] = { 'a', 0xe9, 0x20ac, 0x1f600 };
	const uint8_t *p = s;

	(void)state;
	assert_true(utf8_valid(s, sizeof(s)));
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_int_equal(utf8_next(&p), want[i]);
	assert_ptr_equal(p, s + sizeof(s));
	assert_false(utf8_valid(s, sizeof(s) - 1));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sequences_at_the_table_boundaries),
		cmocka_unit_test(every_short_sequence_agrees_with_the_definition),
		cmocka_unit_test(code_points_are_decoded),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

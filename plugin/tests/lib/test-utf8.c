/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of plugin/lib/utf8.c (built into the post-processor too). The cases are the boundaries of RFC 3629's
 * table of well-formed byte sequences (section 4), worked out by hand, and
 * every 1- and 2-byte sequence checked against a decoder written from the
 * definition (code point ranges rather than the table).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/utf8.h"

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

/* utf8_decode: the length as utf8_seq_len, and the code point. */
static void a_sequence_and_its_code_point(void **state)
{
	uint32_t cp = 0;
	static const struct {
		const char *s;
		size_t len;
		uint32_t cp;
	} cases[] = {
		{ "A", 1, 'A' },
		{ "\xc3\xa9", 2, 0xe9 },
		{ "\xe2\x82\xac", 3, 0x20ac },
		{ "\xf0\x9f\x94\xa5", 4, 0x1f525 },
		{ "\xf4\x8f\xbf\xbf", 4, 0x10ffff },
		{ "\xc0\x80", 0, 0 },		/* overlong NUL */
		{ "\xe0\x80\xaf", 0, 0 },		/* overlong '/' */
		{ "\xf0\x8f\xbf\xbf", 0, 0 },	/* overlong U+FFFF */
		{ "\xed\xa0\x80", 0, 0 },		/* surrogate U+D800 */
		{ "\xf4\x90\x80\x80", 0, 0 },	/* past U+10FFFF */
		{ "\x80", 0, 0 },			/* stray continuation */
		{ "\xc3", 0, 0 },			/* cut short */
		{ "\xe2\x82", 0, 0 },
		{ "\xc3(", 0, 0 },			/* continuation missing */
		{ "\xff", 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = strlen(cases[i].s);

		assert_int_equal(utf8_decode((const uint8_t *)cases[i].s, n, &cp), cases[i].len);
		if (cases[i].len)
			assert_int_equal(cp, cases[i].cp);
	}
}

/*
 * utf8_cut: never half a character. "a\u00e9\u20ac\U0001F600" is 1 + 2 + 3 + 4
 * bytes; a cut inside a character keeps the characters before it; a byte
 * that starts no sequence is a character of its own.
 */
static void a_cut_keeps_whole_characters(void **state)
{
	static const char s[] = "a\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80";
	static const size_t want[] = { 0, 1, 1, 3, 3, 3, 6, 6, 6, 6, 10, 10 };

	(void)state;
	for (size_t max = 0; max < sizeof(want) / sizeof(want[0]); max++)
		assert_int_equal(utf8_cut(s, 10, max), want[max]);
	assert_int_equal(utf8_cut("\xff\xfe\xc3", 3, 2), 2);
	assert_int_equal(utf8_cut("\xe2\x82", 2, 1), 1);
	assert_int_equal(utf8_cut("", 0, 5), 0);
}

/* The controls: C0, DEL, C1 and Unicode's Bidi_Control list (PropList.txt). */
static void controls_are_c0_del_c1_and_bidi(void **state)
{
	static const uint32_t yes[] = { 0x00, 0x09, 0x0a, 0x1b, 0x1f, 0x7f, 0x80, 0x85, 0x9b, 0x9f,
					0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d,
					0x202e, 0x2066, 0x2067, 0x2068, 0x2069 };
	static const uint32_t no[] = { 0x20, 'a', 0x7e, 0xa0, 0xe9, 0x061b, 0x200d, 0x2029,
				       0x202f, 0x2065, 0x206a, 0x4e2d, 0xfffd, 0x1f600 };

	(void)state;
	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++)
		assert_true(utf8_is_control(yes[i]));
	for (size_t i = 0; i < sizeof(no) / sizeof(no[0]); i++)
		assert_false(utf8_is_control(no[i]));
}

/*
 * The terminal rule both trees show text by: valid UTF-8 kept, C0 and DEL
 * and bad bytes as \xNN, C1 and bidi controls as \uNNNN, a backslash as it
 * is. The expected texts are written out by hand from that rule.
 */
static void text_is_shown_printable(void **state)
{
	static const char in[] = "a\033]0;T\007 \302\233 \342\200\256 \344\270\255 \377\\x";
	char *buf = NULL;
	size_t len = 0, n;
	uint32_t cp;
	char esc[UTF8_ESCAPE_MAX];
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	utf8_write_shown(f, in, sizeof(in) - 1);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf, "a\\x1b]0;T\\x07 \\u009b \\u202e \344\270\255 \\xff\\x");
	free(buf);
	assert_int_equal(utf8_escape("\344\270\255", 3, &n, &cp, esc), 0);
	assert_int_equal(n, 3);
	assert_int_equal(cp, 0x4e2d);
	assert_int_equal(utf8_escape("\342\201\246", 3, &n, &cp, esc), 6);
	assert_string_equal(esc, "\\u2066");
	assert_int_equal(utf8_escape("\300\200", 2, &n, &cp, esc), 4);
	assert_int_equal(n, 1);
	assert_string_equal(esc, "\\xc0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sequences_at_the_table_boundaries),
		cmocka_unit_test(every_short_sequence_agrees_with_the_definition),
		cmocka_unit_test(code_points_are_decoded),
		cmocka_unit_test(a_sequence_and_its_code_point),
		cmocka_unit_test(a_cut_keeps_whole_characters),
		cmocka_unit_test(controls_are_c0_del_c1_and_bidi),
		cmocka_unit_test(text_is_shown_printable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

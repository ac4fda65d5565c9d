/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of postproc/lib/term.c (text from profiled programs shown printable
 * on a terminal) and of the text report's columns holding such text. Every
 * expected string was worked out by hand from term.h's rules: the bytes of
 * each input are spelled out in C escapes beside it; widths count an escape's
 * characters, 2 for a CJK ideograph or an emoji, 0 for a combining mark.
 */
#define _GNU_SOURCE	/* open_memstream */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render/render.h"
#include "lib/term.h"

/* term_write(s[0..n), max, flags) as a string (free it), its width in *w. */
static char *shown(const char *s, size_t n, size_t max, unsigned flags, size_t *w)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	*w = term_write(f, s, n, max, flags);
	assert_int_equal(fclose(f), 0);
	return buf;
}

#define SHOWN(in, want, want_w)                                                        \
	do {                                                                           \
		size_t w_;                                                             \
		char *got_ = shown(in, sizeof(in) - 1, SIZE_MAX, 0, &w_);              \
		assert_string_equal(got_, want);                                       \
		assert_int_equal(w_, want_w);                                          \
		assert_int_equal(term_width(in, sizeof(in) - 1, 0), want_w);           \
		free(got_);                                                            \
	} while (0)

/* C0, DEL, C1 and the bidi controls are shown by their values; what else is
 * valid UTF-8 stays as it is; a byte of no valid sequence by its value. */
static void controls_and_bad_bytes_are_shown_by_value(void **state)
{
	(void)state;
	SHOWN("plain text", "plain text", 10);
	SHOWN("a\x1b[2Jb", "a\\x1b[2Jb", 9);			/* CSI: clear the screen */
	SHOWN("\x1b]0;T\x07", "\\x1b]0;T\\x07", 12);		/* OSC: set the title */
	SHOWN("\x1b]8;;http://x\x1b\\", "\\x1b]8;;http://x\\x1b\\", 21); /* OSC 8 link */
	SHOWN("n\x00x", "n\\x00x", 6);
	SHOWN("a\nb\rc\td", "a\\x0ab\\x0dc\\x09d", 16);
	SHOWN("\x7f", "\\x7f", 4);
	SHOWN("\xc2\x9b" "2J", "\\u009b2J", 8);		/* C1 CSI, as UTF-8 */
	SHOWN("\xc2\x85", "\\u0085", 6);			/* NEL */
	SHOWN("x\xe2\x80\xaey", "x\\u202ey", 8);		/* RLO */
	SHOWN("\xe2\x81\xa6\xe2\x81\xa9", "\\u2066\\u2069", 12); /* LRI, PDI */
	SHOWN("\xd8\x9c\xe2\x80\x8e\xe2\x80\x8f", "\\u061c\\u200e\\u200f", 18); /* ALM LRM RLM */
	SHOWN("\xff", "\\xff", 4);
	SHOWN("\x9b", "\\x9b", 4);				/* an 8-bit CSI byte, not UTF-8 */
	SHOWN("\xc0\x80", "\\xc0\\x80", 8);			/* overlong NUL */
	SHOWN("ab\xe2\x82", "ab\\xe2\\x82", 10);		/* a sequence cut short */
	SHOWN("\xed\xa0\x80", "\\xed\\xa0\\x80", 12);		/* a surrogate */
	/* valid text as it is: e-acute, a CJK ideograph, an emoji, a combining acute */
	SHOWN("\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80" "e\xcc\x81",
	      "\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80" "e\xcc\x81", 6);
	SHOWN("C:\\dir\\f.js", "C:\\dir\\f.js", 11);		/* a backslash stays one */
	SHOWN("", "", 0);
}

/* A cut at max columns never splits an escape or a character. */
static void a_cut_keeps_whole_escapes_and_characters(void **state)
{
	size_t w;
	char *s;

	(void)state;
	s = shown("ab\x1b" "c", 4, 5, 0, &w);		/* "ab" + 4 columns of \x1b: 6 > 5 */
	assert_string_equal(s, "ab");
	assert_int_equal(w, 2);
	free(s);
	s = shown("ab\x1b" "c", 4, 6, 0, &w);
	assert_string_equal(s, "ab\\x1b");
	assert_int_equal(w, 6);
	free(s);
	s = shown("\xe4\xb8\xad\xe6\x96\x87", 6, 3, 0, &w);	/* two ideographs, 2 columns each */
	assert_string_equal(s, "\xe4\xb8\xad");
	assert_int_equal(w, 2);
	free(s);
	s = shown("abc", 3, 0, 0, &w);
	assert_string_equal(s, "");
	assert_int_equal(w, 0);
	free(s);
}

/* TERM_TABS: a tab is spaces to the next multiple of 8 columns of the text. */
static void tabs_of_source_lines_are_spaces(void **state)
{
	size_t w;
	char *s;

	(void)state;
	s = shown("\tif (x)\t{", 9, SIZE_MAX, TERM_TABS, &w);
	assert_string_equal(s, "        if (x)  {");
	assert_int_equal(w, 17);
	assert_int_equal(term_width("\tif (x)\t{", 9, TERM_TABS), 17);
	free(s);
	/* an escape before it counts its columns */
	s = shown("\x1b\t.", 3, SIZE_MAX, TERM_TABS, &w);
	assert_string_equal(s, "\\x1b    .");
	assert_int_equal(w, 9);
	free(s);
}

/*
 * The text report's columns hold shown text: a block whose [CLIF] and
 * [Wasm] cells (columns padded to their widths) and [Source] cell (the last
 * column) hold controls and wide characters. A report model built here by
 * hand, as report__build would give it. Widths, by term.h's rules:
 *   [Assembly] "mov eax, 1", "add eax, 2": 10 (the minimum, 10)
 *   [CLIF] "v0 = \x1b[2J" is 12 columns shown (9 bytes), "iadd" 4: 12
 *   [Wasm] "call $<U+4E2D>" is 8 columns (9 bytes), "i32.add" 7: 8
 *   [Source] last: not padded
 */
static void columns_are_aligned_on_shown_text(void **state)
{
	struct report_row rows[2] = {
		{ .off = 0, .samples = 60, .text = "mov eax, 1", .block = 0, .target_block = -1,
		  .cells = { [REPORT_COL_CLIF] = { "v0 = \x1b[2J", 1 },
			     [REPORT_COL_WASM] = { "call $\xe4\xb8\xad", 1 } } },
		{ .off = 5, .samples = 40, .text = "add eax, 2", .block = 0, .target_block = -1,
		  .cells = { [REPORT_COL_CLIF] = { "iadd", 2 }, [REPORT_COL_WASM] = { "i32.add", 2 },
			     [REPORT_COL_SOURCE] = { "a\xe2\x80\xae.c:2", 0 } } },
	};
	struct report_block block = { .start = 0, .end = 8, .insns = 2, .samples = 100,
				      .rank = 1, .shown = true, .listed = true,
				      .show = { [REPORT_COL_CLIF] = true, [REPORT_COL_WASM] = true,
						[REPORT_COL_SOURCE] = true } };
	struct report_func func = {
		.display_name = "f\x1b]0;T\x07", .disassembled = true, .samples = 100,
		.has = { [REPORT_COL_CLIF] = true, [REPORT_COL_WASM] = true, [REPORT_COL_SOURCE] = true },
		.blocks = &block, .blocks_nr = 1, .rows = rows, .rows_nr = 2,
	};
	struct report_ref ref = { 0, 0 };
	struct report rep = { .total = 100, .jit = 100, .funcs = &func, .funcs_nr = 1,
			      .shown = &ref, .shown_nr = 1 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	render_text__block(f, &rep, &ref, false);
	assert_int_equal(fclose(f), 0);
	assert_string_equal(buf,
		"`f\\x1b]0;T\\x07` :: block 0x0 :: 100.00% total samples\n"
		"\n"
		" [Samples]   [Assembly]   [CLIF]         [Wasm]     [Source]\n"
		"    60.00%   mov eax, 1   v0 = \\x1b[2J   call $\xe4\xb8\xad   -\n"
		"    40.00%   add eax, 2   iadd           i32.add    a\\u202e.c:2\n"
		"\n");
	free(buf);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(controls_and_bad_bytes_are_shown_by_value),
		cmocka_unit_test(a_cut_keeps_whole_escapes_and_characters),
		cmocka_unit_test(tabs_of_source_lines_are_spaces),
		cmocka_unit_test(columns_are_aligned_on_shown_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

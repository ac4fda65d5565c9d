/* SPDX-License-Identifier: MIT */
/* Text from profiled programs shown printable on a terminal (see term.h). */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "term.h"
#include "../plugin/lib/bsearch.h"
#include "../plugin/lib/utf8.h"
#include "util.h"

/* Code point ranges, inclusive, sorted. */
struct cp_range {
	uint32_t lo, hi;
};

/* East Asian Wide and Fullwidth (Unicode's EastAsianWidth.txt, W and F),
 * by block: Hangul Jamo leads, CJK, Hangul syllables, fullwidth forms,
 * the emoji blocks. */
static const struct cp_range wide[] = {
	{ 0x1100, 0x115f }, { 0x2329, 0x232a }, { 0x2e80, 0x303e }, { 0x3041, 0x33ff },
	{ 0x3400, 0x4dbf }, { 0x4e00, 0x9fff }, { 0xa000, 0xa4cf }, { 0xa960, 0xa97f },
	{ 0xac00, 0xd7a3 }, { 0xf900, 0xfaff }, { 0xfe10, 0xfe19 }, { 0xfe30, 0xfe6f },
	{ 0xff00, 0xff60 }, { 0xffe0, 0xffe6 }, { 0x16fe0, 0x18cff }, { 0x1b000, 0x1b2ff },
	{ 0x1f300, 0x1f64f }, { 0x1f680, 0x1f6ff }, { 0x1f900, 0x1f9ff }, { 0x1fa70, 0x1faff },
	{ 0x20000, 0x2fffd }, { 0x30000, 0x3fffd },
};

/* Combining marks (the blocks of them) and zero-width characters: drawn
 * on the character before, or not at all. */
static const struct cp_range zero[] = {
	{ 0x0300, 0x036f }, { 0x0483, 0x0489 }, { 0x0591, 0x05bd }, { 0x0610, 0x061a },
	{ 0x064b, 0x065f }, { 0x0670, 0x0670 }, { 0x06d6, 0x06dc }, { 0x1160, 0x11ff },
	{ 0x1ab0, 0x1aff }, { 0x1dc0, 0x1dff }, { 0x200b, 0x200d }, { 0x2060, 0x2064 },
	{ 0x20d0, 0x20ff }, { 0xfe00, 0xfe0f }, { 0xfe20, 0xfe2f }, { 0xfeff, 0xfeff },
	{ 0xe0100, 0xe01ef },
};

static bool in(const struct cp_range *r, size_t nr, uint32_t cp)
{
	/* the first range not ending before cp: the ranges are disjoint */
	size_t i = LOWER_BOUND(nr, k, r[k].hi < cp);

	return i < nr && r[i].lo <= cp;
}

static size_t cp_width(uint32_t cp)
{
	if (cp < 0x300)
		return 1;
	if (in(zero, ARRAY_SIZE(zero), cp))
		return 0;
	return in(wide, ARRAY_SIZE(wide), cp) ? 2 : 1;
}

/* How the character (or bad byte) at the start of s[0..n) is shown. */
struct unit {
	size_t len;		/* the bytes of s it stands for */
	size_t width;		/* columns */
	const char *show;	/* what is written: s itself, buf, or spaces */
	size_t show_len;
	char buf[UTF8_ESCAPE_MAX];
};

static const char spaces[8] = "        ";

/* The unit at s[0..n) (n > 0), at column col of the text: as utf8_escape
 * shows it, but for a tab with TERM_TABS. */
static void unit(struct unit *u, const char *s, size_t n, size_t col, unsigned flags)
{
	uint32_t cp;
	size_t e = utf8_escape(s, n, &u->len, &cp, u->buf);

	if (!e) {
		u->show = s;
		u->show_len = u->len;
		u->width = cp < 0x7f ? 1 : cp_width(cp);
		return;
	}
	if (cp == '\t' && u->len == 1 && (flags & TERM_TABS)) {
		u->show = spaces;
		u->show_len = u->width = 8 - col % 8;
		return;
	}
	u->show = u->buf;
	u->show_len = u->width = e;
}

size_t term_write(FILE *out, const char *s, size_t n, size_t max, unsigned flags)
{
	size_t i = 0, col = 0, run = 0;
	struct unit u;

	/* Runs of text shown as it is go out in one call. */
	while (i < n) {
		unit(&u, s + i, n - i, col, flags);
		if (u.width > max - col)
			break;
		if (u.show != s + i) {
			if (i > run)
				fwrite(s + run, 1, i - run, out);
			fwrite(u.show, 1, u.show_len, out);
			run = i + u.len;
		}
		i += u.len;
		col += u.width;
	}
	if (i > run)
		fwrite(s + run, 1, i - run, out);
	return col;
}

void term_puts(FILE *out, const char *s)
{
	term_write(out, s, strlen(s), SIZE_MAX, 0);
}

size_t term_width(const char *s, size_t n, unsigned flags)
{
	size_t i = 0, col = 0;
	struct unit u;

	while (i < n) {
		unit(&u, s + i, n - i, col, flags);
		i += u.len;
		col += u.width;
	}
	return col;
}

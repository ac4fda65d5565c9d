/* SPDX-License-Identifier: MIT */
/*
 * Text from profiled programs (names, paths, source lines, the plugin's
 * warnings) for a terminal or a text report: the one way every such text is
 * written there, so that no byte of it can drive the terminal (set its
 * title, clear the screen, reorder what it shows).
 *
 * Shown printable: valid UTF-8 stays as it is, but
 *   a byte that starts no valid sequence        \xNN   (its value)
 *   C0 controls and DEL (U+0000..U+001F, 7F)   \xNN   (\x1b for ESC)
 *   C1 controls (U+0080..U+009F)               \uNNNN (\u009b for CSI)
 *   bidi controls (U+061C, U+200E, U+200F,      \uNNNN (\u202e)
 *     U+202A..U+202E, U+2066..U+2069)
 * (utf8_is_control). A backslash of the text stays one: names and Windows
 * paths read as they are, at the price that a text holding the four
 * characters \x1b looks like one that held ESC.
 *
 * Widths are terminal columns: an escape counts its characters; an East
 * Asian wide or fullwidth character 2, a combining mark or zero-width
 * character 0, any other character 1. This is wcwidth(3) approximated
 * without a locale (the output must not depend on one): characters outside
 * the ranges in term.c count 1.
 */
#ifndef POSTPROC_TERM_H
#define POSTPROC_TERM_H

#include <stddef.h>
#include <stdio.h>

/* Flags of term_write and term_width. */
enum {
	/* A tab is spaces to the next multiple of 8 columns (counted from the
	 * text's start), as a terminal would move: for source lines. Without
	 * it a tab is \x09, as in a name, whose width must be known. */
	TERM_TABS = 1 << 0,
};

/*
 * Write s[0..n) shown printable, at most max columns of it (SIZE_MAX: all):
 * a character or escape that would cross max is left out with the rest, so
 * nothing is cut in half. Returns the columns written.
 */
size_t term_write(FILE *out, const char *s, size_t n, size_t max, unsigned flags);

/* term_write of all of the NUL-terminated s. */
void term_puts(FILE *out, const char *s);

/* The columns term_write takes for all of s[0..n). */
size_t term_width(const char *s, size_t n, unsigned flags);

#endif

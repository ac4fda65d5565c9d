/* SPDX-License-Identifier: MIT */
/*
 * UTF-8 as RFC 3629 defines it (what Rust's str::from_utf8 accepts), and the
 * one rule by which text from a profiled program is shown on a terminal:
 * the plugin's messages, and the post-processor's (postproc/lib/term.h,
 * which also reads wasm names, JSON strings and the page's text with it).
 * The plugin owns it as it owns the stream's format; the post-processor
 * builds this file in.
 */
#ifndef PLUGIN_UTF8_H
#define PLUGIN_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * The length (1 to 4) of the well-formed sequence at s[0..n), or 0: a stray
 * continuation byte, a sequence cut short, an overlong form, a surrogate
 * (U+D800..U+DFFF) or a code point past U+10FFFF.
 */
size_t utf8_seq_len(const uint8_t *s, size_t n);

/* Whether all of s[0..n) is well-formed. */
bool utf8_valid(const uint8_t *s, size_t n);

/* The code point at *p, advancing *p past it; the text must be well-formed. */
uint32_t utf8_next(const uint8_t **p);

/* utf8_seq_len(s, n), and the code point of that sequence in *cp (untouched when 0). */
size_t utf8_decode(const uint8_t *s, size_t n, uint32_t *cp);

/*
 * The length of the longest start of s[0..n) that has at most max bytes and
 * does not end inside a well-formed sequence (a byte that starts none counts
 * as one character): where a text may be cut short without leaving half a
 * character behind.
 */
size_t utf8_cut(const char *s, size_t n, size_t max);

/*
 * Whether cp is a control character: something a terminal may act on, or
 * that reorders the text around it, instead of showing a glyph. C0 (U+0000
 * to U+001F), DEL, C1 (U+0080 to U+009F; in a UTF-8 terminal CSI, OSC and
 * the others again) and Unicode's Bidi_Control characters (U+061C, U+200E,
 * U+200F, U+202A to U+202E, U+2066 to U+2069), which make text read in
 * another order than it is stored ("Trojan Source", CVE-2021-42574).
 */
bool utf8_is_control(uint32_t cp);

/* The longest escape utf8_escape writes, NUL included: "\\u202e". */
#define UTF8_ESCAPE_MAX 8

/*
 * How the character (or byte) at the start of s[0..n) (n > 0) is shown on a
 * terminal, so that no byte of it can drive the terminal (set its title,
 * clear the screen, reorder what it shows): *len gets the bytes it stands
 * for and *cp its code point (a bad byte's value); returns 0 when it is
 * shown as it is (valid UTF-8, no control), else the length of its escape,
 * written NUL-terminated to esc:
 *   a byte that starts no valid sequence        \xNN   (its value)
 *   C0 controls and DEL (U+0000..U+001F, 7F)   \xNN   (\x1b for ESC)
 *   C1 and bidi controls (utf8_is_control)     \uNNNN (\u009b, \u202e)
 * A backslash stays one: names and Windows paths read as they are.
 */
size_t utf8_escape(const char *s, size_t n, size_t *len, uint32_t *cp, char esc[UTF8_ESCAPE_MAX]);

/* s[0..n) written to out shown by utf8_escape's rule. */
void utf8_write_shown(FILE *out, const char *s, size_t n);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * Text from profiled programs (function names, assembly, source lines) made
 * safe for HTML, SVG and other XML: names are bytes, not always UTF-8, and
 * may hold anything.
 */
#ifndef POSTPROC_HTML_H
#define POSTPROC_HTML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/*
 * The code point of the UTF-8 sequence at s[0..n) in *cp and its length (1-4),
 * or 0 when it is not one: a stray or missing continuation byte, an overlong
 * form, a surrogate, past U+10FFFF, or cut short by n. n must be > 0.
 */
size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp);

/*
 * A new NUL-terminated copy of s[0..n) that is valid UTF-8 without control
 * characters: each byte that starts no valid sequence becomes U+FFFD, each C0
 * or C1 control character and DEL becomes a space (or, with keep_newlines, a
 * line feed stays one; a tab always becomes a space). NULL when out of memory.
 */
char *text_sanitize(const char *s, size_t n, bool keep_newlines);

/*
 * Write s[0..n) escaped for HTML text and for a quoted attribute value (and
 * for XML): & < > " ' as references; bytes that are not valid UTF-8 and
 * control characters other than tab and line feed as U+FFFD, since XML
 * forbids them and HTML warns. Returns 0 or -EIO on a write error.
 */
int html_escape(FILE *out, const char *s, size_t n);

/* html_escape of a NUL-terminated string. */
int html_puts(FILE *out, const char *s);

#endif

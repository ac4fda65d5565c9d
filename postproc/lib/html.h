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
#include <stdio.h>

/*
 * A new NUL-terminated copy of s[0..n) that is valid UTF-8 without control
 * characters: each byte that starts no valid sequence becomes U+FFFD, each
 * control character (utf8_is_control: C0, DEL, C1 and the bidi controls)
 * becomes a space (or, with keep_newlines, a line feed stays one; a tab
 * always becomes a space). NULL when out of memory.
 */
char *text_sanitize(const char *s, size_t n, bool keep_newlines);

/*
 * Write s[0..n) escaped for HTML text and for a quoted attribute value (and
 * for XML): & < > " ' as references; bytes that are not valid UTF-8 and
 * control characters (utf8_is_control) other than tab and line feed as
 * U+FFFD, since XML forbids the C0 ones, HTML warns of the C1 ones, and the
 * bidi controls would make a name read in another order than it is.
 * Returns 0 or -EIO on a write error.
 */
int html_escape(FILE *out, const char *s, size_t n);

/* html_escape of a NUL-terminated string. */
int html_puts(FILE *out, const char *s);

/*
 * s as a JSON string that a page's script element may hold as data
 * (json-writer.h's JSON_SCRIPT: the text html_escape shows, and nothing in
 * it ends the element or reads as markup). Returns 0 or -EIO.
 */
int html_json_str(FILE *out, const char *s);

#endif

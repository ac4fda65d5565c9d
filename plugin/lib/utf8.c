/* SPDX-License-Identifier: MIT */
/* UTF-8, and how it is shown on a terminal (utf8.h). */
#include <stdio.h>

#include "utf8.h"

size_t utf8_seq_len(const uint8_t *s, size_t n)
{
	uint8_t c, lo = 0x80, hi = 0xbf;
	size_t len;

	if (!n)
		return 0;
	c = s[0];
	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		len = 2;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4;
	else
		return 0;	/* a continuation byte, an overlong 2-byte lead, or past U+10FFFF */
	if (n < len)
		return 0;
	/* The second byte's range rules out the overlong forms, surrogates and
	 * code points past U+10FFFF of the 3- and 4-byte leads (RFC 3629 table). */
	if (c == 0xe0)
		lo = 0xa0;
	else if (c == 0xed)
		hi = 0x9f;
	else if (c == 0xf0)
		lo = 0x90;
	else if (c == 0xf4)
		hi = 0x8f;
	if (s[1] < lo || s[1] > hi)
		return 0;
	for (size_t i = 2; i < len; i++)
		if (s[i] < 0x80 || s[i] > 0xbf)
			return 0;
	return len;
}

bool utf8_valid(const uint8_t *s, size_t n)
{
	while (n) {
		size_t k = utf8_seq_len(s, n);

		if (!k)
			return false;
		s += k;
		n -= k;
	}
	return true;
}

uint32_t utf8_next(const uint8_t **pp)
{
	const uint8_t *p = *pp;
	uint32_t cp = *p++;

	if (cp >= 0x80) {
		int k = cp >= 0xf0 ? 3 : cp >= 0xe0 ? 2 : 1;

		cp &= 0x3f >> k;
		while (k--)
			cp = cp << 6 | (*p++ & 0x3f);
	}
	*pp = p;
	return cp;
}

size_t utf8_decode(const uint8_t *s, size_t n, uint32_t *cp)
{
	size_t k = utf8_seq_len(s, n);

	if (k)
		*cp = utf8_next(&s);
	return k;
}

size_t utf8_cut(const char *s, size_t n, size_t max)
{
	const uint8_t *p = (const uint8_t *)s;
	size_t at = 0;

	if (max >= n)
		return n;
	while (at < max) {
		size_t k = utf8_seq_len(p + at, n - at);

		if (!k)
			k = 1;
		if (k > max - at)
			break;
		at += k;
	}
	return at;
}

bool utf8_is_control(uint32_t cp)
{
	if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
		return true;
	return cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
	       (cp >= 0x2066 && cp <= 0x2069);
}

size_t utf8_escape(const char *s, size_t n, size_t *len, uint32_t *cp, char esc[UTF8_ESCAPE_MAX])
{
	const uint8_t *p = (const uint8_t *)s;
	size_t k;

	*cp = p[0];
	/* The common case first: printable ASCII. */
	if (*cp >= 0x20 && *cp < 0x7f) {
		*len = 1;
		return 0;
	}
	k = utf8_decode(p, n, cp);
	*len = k ? k : 1;
	if (k && !utf8_is_control(*cp))
		return 0;
	/* A bad byte or an ASCII control by its value, another control by its code point. */
	return (size_t)snprintf(esc, UTF8_ESCAPE_MAX, !k || *cp < 0x80 ? "\\x%02x" : "\\u%04x",
				(unsigned)(k ? *cp : p[0]));
}

void utf8_write_shown(FILE *out, const char *s, size_t n)
{
	char esc[UTF8_ESCAPE_MAX];
	size_t i = 0, run = 0, len, e;
	uint32_t cp;

	/* Runs of text shown as it is go out in one call. */
	while (i < n) {
		if ((e = utf8_escape(s + i, n - i, &len, &cp, esc))) {
			fwrite(s + run, 1, i - run, out);
			fwrite(esc, 1, e, out);
			run = i + len;
		}
		i += len;
	}
	fwrite(s + run, 1, i - run, out);
}

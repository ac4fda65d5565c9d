/* SPDX-License-Identifier: MIT */
/* Escaping text from profiled programs for HTML, SVG and XML. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"

size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	uint32_t c = s[0], min;
	size_t len, i;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf)
		len = 2, c &= 0x1f, min = 0x80;
	else if (c >= 0xe0 && c <= 0xef)
		len = 3, c &= 0x0f, min = 0x800;
	else if (c >= 0xf0 && c <= 0xf4)
		len = 4, c &= 0x07, min = 0x10000;
	else
		return 0;	/* a continuation byte, 0xc0/0xc1 (always overlong), 0xf5.. */
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

static bool is_control(uint32_t cp)
{
	return cp < 0x20 || (cp >= 0x7f && cp <= 0x9f);
}

char *text_sanitize(const char *s, size_t n, bool keep_newlines)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out, *o;
	size_t i = 0, len;
	uint32_t cp;

	/* U+FFFD is 3 bytes for 1 bad byte: at most 3 times as long. */
	if (n > (SIZE_MAX - 1) / 3)
		return NULL;
	out = o = malloc(3 * n + 1);
	if (!out)
		return NULL;
	while (i < n) {
		len = utf8_decode(p + i, n - i, &cp);
		if (!len) {
			memcpy(o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		} else if (is_control(cp)) {
			*o++ = cp == '\n' && keep_newlines ? '\n' : ' ';
			i += len;
		} else {
			memcpy(o, p + i, len);
			o += len;
			i += len;
		}
	}
	*o = '\0';
	return out;
}

int html_escape(FILE *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0, len;
	uint32_t cp;
	const char *rep;

	/* Copy runs of plain bytes in one call; stop at each byte to replace. */
	while (i < n) {
		len = utf8_decode(p + i, n - i, &cp);
		rep = NULL;
		if (!len || (is_control(cp) && cp != '\t' && cp != '\n'))
			rep = "\xef\xbf\xbd";
		else if (cp == '&')
			rep = "&amp;";
		else if (cp == '<')
			rep = "&lt;";
		else if (cp == '>')
			rep = "&gt;";
		else if (cp == '"')
			rep = "&quot;";
		else if (cp == '\'')
			rep = "&#39;";
		if (!rep) {
			i += len;
			continue;
		}
		if (i > run && fwrite(s + run, 1, i - run, out) != i - run)
			return -EIO;
		if (fputs(rep, out) == EOF)
			return -EIO;
		i += len ? len : 1;
		run = i;
	}
	if (i > run && fwrite(s + run, 1, i - run, out) != i - run)
		return -EIO;
	return 0;
}

int html_puts(FILE *out, const char *s)
{
	return html_escape(out, s, strlen(s));
}

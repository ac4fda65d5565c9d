/* SPDX-License-Identifier: MIT */
/* Escaping text from profiled programs for HTML, SVG and XML. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "../plugin/utf8.h"

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
		} else if (utf8_is_control(cp)) {
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
		if (!len || (utf8_is_control(cp) && cp != '\t' && cp != '\n'))
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

int html_json_str(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0, n = strlen(s), len;
	uint32_t cp;
	const char *rep;

	if (fputc('"', out) == EOF)
		return -EIO;
	while (i < n) {
		len = utf8_decode(p + i, n - i, &cp);
		rep = NULL;
		if (!len || (utf8_is_control(cp) && cp != '\t' && cp != '\n'))
			rep = "\xef\xbf\xbd";
		else if (cp == '"')
			rep = "\\\"";
		else if (cp == '\\')
			rep = "\\\\";
		else if (cp == '\t')
			rep = "\\t";
		else if (cp == '\n')
			rep = "\\n";
		else if (cp == '<')
			rep = "\\u003c";
		else if (cp == '>')
			rep = "\\u003e";
		else if (cp == '&')
			rep = "\\u0026";
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
	return fputc('"', out) == EOF ? -EIO : 0;
}

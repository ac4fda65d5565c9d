/* SPDX-License-Identifier: MIT */
/* Escaping text from profiled programs for HTML, SVG and XML. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "json-writer.h"
#include "../plugin/lib/utf8.h"

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

/* What a character becomes in a page's text and attributes, or NULL: itself. */
static const char *html_rep(uint32_t cp)
{
	switch (cp) {
	case '&': return "&amp;";
	case '<': return "&lt;";
	case '>': return "&gt;";
	case '"': return "&quot;";
	case '\'': return "&#39;";
	default: return NULL;
	}
}

/* Runs of plain bytes go out in one call. */
int html_escape(FILE *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0, len;
	uint32_t cp;
	const char *rep;

	while (i < n) {
		len = utf8_decode(p + i, n - i, &cp);
		if (!len || (utf8_is_control(cp) && cp != '\t' && cp != '\n'))
			rep = "\xef\xbf\xbd";
		else
			rep = html_rep(cp);
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
	return json_write_string(out, s, strlen(s), JSON_SCRIPT);
}

/* SPDX-License-Identifier: MIT */
/* What both programs say on standard error, shown printable (message.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "message.h"
#include "utf8.h"

/* msg[0..n), each line shown printable, its line feeds kept. */
static void write_lines(FILE *out, const char *msg, size_t n)
{
	const char *line, *nl;

	for (line = msg; line < msg + n; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(msg + n - line));
		utf8_write_shown(out, line, nl ? (size_t)(nl - line) : (size_t)(msg + n - line));
		if (!nl)
			break;
		fputc('\n', out);
	}
}

void message__vprint(FILE *out, const char *kind, unsigned how, const char *fmt, va_list ap)
{
	char buf[4096], *msg = buf;
	va_list again;
	int n;

	va_copy(again, ap);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	/* A long one (a hint listing the places searched) in memory of its
	 * own; without that memory, as much as fits. */
	if (n >= 0 && (size_t)n >= sizeof(buf)) {
		if ((msg = malloc((size_t)n + 1)))
			vsnprintf(msg, (size_t)n + 1, fmt, again);
		else
			msg = buf, n = (int)sizeof(buf) - 1;
	}
	va_end(again);
	if (kind)
		fprintf(out, "hotblocks: %s: ", kind);
	if (n < 0) {
		/* vsnprintf failed (EOVERFLOW, EILSEQ): the line still ends. */
		if (!(how & MESSAGE_LINES))
			fputs("(a message that could not be written: out of memory)\n", out);
	} else if (how & MESSAGE_LINES) {
		write_lines(out, msg, (size_t)n);
	} else {
		utf8_write_shown(out, msg, (size_t)n);
		fputc('\n', out);
	}
	if (msg != buf)
		free(msg);
}

void message__print(const char *kind, unsigned how, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message__vprint(stderr, kind, how, fmt, ap);
	va_end(ap);
}

void message__say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	message__vprint(stderr, NULL, MESSAGE_LINES, fmt, ap);
	va_end(ap);
}

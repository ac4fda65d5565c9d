/* SPDX-License-Identifier: MIT */
/* What the plugin says on standard error, shown printable (message.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "message.h"
#include "utf8.h"

void message__say(const char *fmt, ...)
{
	char buf[4096], *msg = buf, *line, *nl;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	/* A long one (a hint listing the places searched) in memory of its own. */
	if ((size_t)n >= sizeof(buf) && (msg = malloc((size_t)n + 1))) {
		va_start(ap, fmt);
		vsnprintf(msg, (size_t)n + 1, fmt, ap);
		va_end(ap);
	} else if ((size_t)n >= sizeof(buf)) {
		msg = buf;
		n = (int)sizeof(buf) - 1;
	}
	for (line = msg; line < msg + n; line = nl + 1) {
		nl = memchr(line, '\n', (size_t)(msg + n - line));
		utf8_write_shown(stderr, line, nl ? (size_t)(nl - line) : (size_t)(msg + n - line));
		if (!nl)
			break;
		fputc('\n', stderr);
	}
	if (msg != buf)
		free(msg);
}

// SPDX-License-Identifier: MIT
/* The plugin's warnings, said once each and kept for the stream (see warnings.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "message.h"
#include "warnings.h"

void warnings__add(struct warnings *w, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < w->nr; i++)
		if (!strcmp(w->kept[i], msg))
			return;
	message__print("warning", MESSAGE_LINES, "%s\n", msg);
	if (w->nr < WARNINGS_KEPT && (w->kept[w->nr] = strdup(msg)))
		w->nr++;
}

void warnings__release(struct warnings *w)
{
	for (size_t i = 0; i < w->nr; i++)
		free(w->kept[i]);
	w->nr = 0;
}

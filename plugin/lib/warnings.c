// SPDX-License-Identifier: MIT
/* The plugin's warnings, said once each and kept for the stream (see warnings.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "message.h"
#include "warnings.h"

/* Say msg as kind ("warning", "note") unless said before; keep it as kept
 * (msg, or "note: msg"). */
static void say(struct warnings *w, const char *kind, const char *kept, const char *msg)
{
	for (size_t i = 0; i < w->nr; i++)
		if (!strcmp(w->kept[i], kept))
			return;
	message__print(kind, MESSAGE_LINES, "%s\n", msg);
	if (w->nr < WARNINGS_KEPT && (w->kept[w->nr] = strdup(kept)))
		w->nr++;
}

void warnings__add(struct warnings *w, const char *fmt, ...)
{
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	say(w, "warning", msg, msg);
}

void warnings__note(struct warnings *w, const char *fmt, ...)
{
	char kept[1024];
	va_list ap;

	memcpy(kept, "note: ", 6);
	va_start(ap, fmt);
	vsnprintf(kept + 6, sizeof(kept) - 6, fmt, ap);
	va_end(ap);
	say(w, "note", kept, kept + 6);
}

void warnings__release(struct warnings *w)
{
	for (size_t i = 0; i < w->nr; i++)
		free(w->kept[i]);
	w->nr = 0;
}

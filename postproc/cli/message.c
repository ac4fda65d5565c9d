/* SPDX-License-Identifier: MIT */
/* What the commands say, and how they end (message.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "../plugin/lib/message.h"
#include "message.h"

const char *message_command = "hotblocks";

/* "hotblocks: KIND: message" on standard error, one line: its names and
 * paths come from the input, so it is shown printable (the plugin's
 * message.h, the one way both programs say things). */
static void vmessage(const char *kind, const char *fmt, va_list ap)
{
	message__vprint(stderr, kind, 0, fmt, ap);
}

int message__error(const char *fmt, ...)
{
	va_list ap;

	/* what was printed so far comes first */
	fflush(stdout);
	va_start(ap, fmt);
	vmessage("error", fmt, ap);
	va_end(ap);
	return -1;
}

void message__note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("note", fmt, ap);
	va_end(ap);
}

void message__usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("error", fmt, ap);
	va_end(ap);
	fprintf(stderr, "Try '%s --help' for more information.\n", message_command);
	exit(EXIT_USAGE);
}

void message__help(void (*print)(FILE *out))
{
	print(stdout);
	exit(fflush(stdout) || ferror(stdout) ? EXIT_INPUT : EXIT_OK);
}

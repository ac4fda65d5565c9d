/* SPDX-License-Identifier: MIT */
/*
 * What both programs say on standard error: "hotblocks: KIND: message".
 * Their paths and names come from the profiled program and from perf.data
 * (a jitdump's path, a function's name, out=), and may hold any bytes:
 * every message is shown printable by the one rule (utf8.h), so that no
 * byte of it can drive the terminal. The post-processor's error(), note()
 * and usage errors (postproc/cli/message.h) are callers of this.
 */
#ifndef PLUGIN_MESSAGE_H
#define PLUGIN_MESSAGE_H

#include <stdarg.h>
#include <stdio.h>

/* How message__vprint lays a message out. */
enum {
	/* The message is lines that each end in a line feed of their own (the
	 * plugin's hints run over several): the line feeds stay, each line is
	 * shown printable, none is added. Without it the message is one line,
	 * shown printable as a whole (a line feed a name brought shows as
	 * \x0a), and a line feed ends it. */
	MESSAGE_LINES = 1 << 0,
};

/*
 * Write "hotblocks: KIND: " (kind NULL: nothing, the message says it) and
 * the message (printf-style) to out, shown printable.
 */
void message__vprint(FILE *out, const char *kind, unsigned how, const char *fmt, va_list ap)
	__attribute__((format(printf, 4, 0)));

/* message__vprint to standard error. */
void message__print(const char *kind, unsigned how, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* message__print(NULL, MESSAGE_LINES, ...): the plugin's messages, whose
 * fmt says "hotblocks: KIND: " itself. */
void message__say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif

/* SPDX-License-Identifier: MIT */
/*
 * What the plugin says on standard error. Its paths and names come from the
 * profiled program and from perf.data (a jitdump's path, a name, out=), and
 * may hold any bytes: every message is shown printable, line by line, by
 * the rule the post-processor shows them with (utf8.h).
 */
#ifndef PLUGIN_MESSAGE_H
#define PLUGIN_MESSAGE_H

/*
 * Format a message (printf-style; its lines end in '\n') and write it to
 * standard error, each line shown printable: no byte of it can drive the
 * terminal.
 */
void message__say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif

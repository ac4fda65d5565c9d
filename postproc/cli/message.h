/* SPDX-License-Identifier: MIT */
/* What the commands say on standard error, and how they end: one funnel. */
#ifndef POSTPROC_CLI_MESSAGE_H
#define POSTPROC_CLI_MESSAGE_H

#include <stdio.h>

/* Exit codes (as every usage text says). */
enum {
	EXIT_OK = 0,
	EXIT_INPUT = 1,		/* bad or unreadable input, unwritable output */
	EXIT_USAGE = 2,		/* bad command line */
};

/* Standard input's name in messages. */
#define CLI_STDIN_NAME "<stdin>"

/* The command a usage error points to for help ("Try 'hotblocks --help'"). */
extern const char *message_command;

/*
 * Print "hotblocks: error: ..." and return -1 (git's error()): callers unwind,
 * then exit 1. The messages of these three are shown printable as a whole
 * (plugin/lib/message.h): arguments may be names and paths from the input,
 * as they are.
 */
int message__error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print "hotblocks: note: ...". */
void message__note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A bad command line: the message, where to find help, exit EXIT_USAGE. */
void message__usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

/* -h: print the usage text and exit (EXIT_INPUT if it could not be written). */
void message__help(void (*print)(FILE *out)) __attribute__((noreturn));

#endif

/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of plugin/lib/message.c, the one way both programs say things
 * on standard error: the "hotblocks: KIND: " prefix, a message shown
 * printable as one line (the post-processor's) or line by line (the
 * plugin's hints), and a message longer than the formatter's buffer. Every
 * expected string was worked out by hand from utf8.h's rule.
 */
#define _GNU_SOURCE	/* open_memstream */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/message.h"

static char *buf;
static size_t len;

/* message__vprint into a string (free it). */
__attribute__((format(printf, 3, 4)))
static char *printed(const char *kind, unsigned how, const char *fmt, ...)
{
	FILE *f;
	va_list ap;

	buf = NULL;
	f = open_memstream(&buf, &len);
	assert_non_null(f);
	va_start(ap, fmt);
	message__vprint(f, kind, how, fmt, ap);
	va_end(ap);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* One line, shown printable as a whole, ends its line. */
static void a_message_is_one_line_shown_printable(void **state)
{
	char *s;

	(void)state;
	s = printed("error", 0, "%s: no event called '%s'", "rec/a\x1b[2J.hbs", "e\xe2\x80\xae\x07");
	assert_string_equal(s, "hotblocks: error: rec/a\\x1b[2J.hbs: no event called 'e\\u202e\\x07'\n");
	free(s);
	/* A line feed a name brought cannot start a line of its own. */
	s = printed("note", 0, "%s is read", "a\nhotblocks: error: b");
	assert_string_equal(s, "hotblocks: note: a\\x0ahotblocks: error: b is read\n");
	free(s);
}

/* MESSAGE_LINES: the line feeds stay, each line is shown, none is added. */
static void a_hint_keeps_its_lines(void **state)
{
	char *s;

	(void)state;
	s = printed("warning", MESSAGE_LINES, "%d samples matched no load.\n  searched:\n%s", 3,
		    "  rec/\x9b" "dir\n");
	assert_string_equal(s, "hotblocks: warning: 3 samples matched no load.\n  searched:\n  rec/\\x9bdir\n");
	free(s);
	/* No kind: the message says it itself (message__say). */
	s = printed(NULL, MESSAGE_LINES, "hotblocks: error: unknown --dlarg '%s'\n", "\x1b]0;t\x07");
	assert_string_equal(s, "hotblocks: error: unknown --dlarg '\\x1b]0;t\\x07'\n");
	free(s);
}

/* A message past the formatter's 4 KiB buffer is whole, as short ones are. */
static void a_long_message_is_whole(void **state)
{
	size_t n = 10000;
	char *name = malloc(n + 1), *want, *s;

	(void)state;
	assert_non_null(name);
	memset(name, 'x', n);
	name[n] = '\0';
	name[n - 1] = '\x1b';
	assert_true(asprintf(&want, "hotblocks: note: %.*s\\x1b.\n", (int)(n - 1), name) > 0);
	s = printed("note", 0, "%s.", name);
	assert_int_equal(len, strlen(want));
	assert_string_equal(s, want);
	free(s);
	free(want);
	free(name);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_message_is_one_line_shown_printable),
		cmocka_unit_test(a_hint_keeps_its_lines),
		cmocka_unit_test(a_long_message_is_whole),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * Test support of the unit tests that build on a stream (test-rank.c,
 * test-report.c, test-targets.c): a stream read from its text.
 */
#ifndef POSTPROC_TESTS_STREAM_STREAM_TEXT_H
#define POSTPROC_TESTS_STREAM_STREAM_TEXT_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include <cmocka.h>

#include "stream/stream.h"

/* s read from text (named t.hbs) and finished; fails the test on a parse error. */
static inline void stream_text__load(struct stream *s, const char *text)
{
	char err[512];
	FILE *f = tmpfile();

	assert_non_null(f);
	fputs(text, f);
	rewind(f);
	stream__init(s);
	if (stream__read(s, f, "t.hbs", err, sizeof(err)))
		fail_msg("%s", err);
	fclose(f);
	assert_int_equal(stream__finish(s), 0);
}

#endif

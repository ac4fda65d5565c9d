/* SPDX-License-Identifier: MIT */
/* Test support of the stream reader's unit tests (test-stream.c, test-stream-long.c): a stream read from its text, or refused. */
#ifndef POSTPROC_TESTS_STREAM_STREAM_CHECK_H
#define POSTPROC_TESTS_STREAM_STREAM_CHECK_H

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "stream/stream.h"

#define OBJ_JIT(id, extra) \
	"object " #id " jit pid=7 e_machine=62 addr=0x1000 size=16 code-index=3 " \
	"load-time=99 dump=/tmp/jit-7.dump name=alpha" extra "\n"

static char err[1024];

/* Read text as file "t.hbs" into s; returns stream__read's result. */
static inline int read_text(struct stream *s, const char *text)
{
	FILE *f = tmpfile();
	int ret;

	assert_non_null(f);
	fputs(text, f);
	rewind(f);
	err[0] = '\0';
	ret = stream__read(s, f, "t.hbs", err, sizeof(err));
	fclose(f);
	return ret;
}

/* Expect text to be refused with a message starting with want. */
static inline void refused(const char *text, const char *want)
{
	struct stream s;
	int ret;

	stream__init(&s);
	ret = read_text(&s, text);
	if (ret != -EINVAL || strncmp(err, want, strlen(want)))
		fail_msg("got %d '%s', want -EINVAL '%s...'", ret, err, want);
	stream__release(&s);
}

#endif

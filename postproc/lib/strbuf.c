/* SPDX-License-Identifier: MIT */
/* A growable text buffer (see strbuf.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "strbuf.h"
#include "util.h"

bool strbuf_grow(struct strbuf *sb, size_t extra)
{
	if (sb->oom)
		return false;
	if (extra > SIZE_MAX - sb->len - 1 || VEC_GROW(sb->buf, sb->len + extra + 1, sb->alloc))
		sb->oom = true;
	return !sb->oom;
}

void strbuf_add(struct strbuf *sb, const void *data, size_t len)
{
	if (!strbuf_grow(sb, len))
		return;
	memcpy(sb->buf + sb->len, data, len);
	sb->len += len;
	sb->buf[sb->len] = '\0';
}

void strbuf_addstr(struct strbuf *sb, const char *s)
{
	strbuf_add(sb, s, strlen(s));
}

void strbuf_addch(struct strbuf *sb, char c)
{
	strbuf_add(sb, &c, 1);
}

void strbuf_addf(struct strbuf *sb, const char *fmt, ...)
{
	char tmp[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	/* Most texts are short: format once on the stack. */
	if ((size_t)n < sizeof(tmp)) {
		strbuf_add(sb, tmp, n);
		return;
	}
	if (!strbuf_grow(sb, n))
		return;
	va_start(ap, fmt);
	vsnprintf(sb->buf + sb->len, n + 1, fmt, ap);
	va_end(ap);
	sb->len += n;
}

void strbuf_addu(struct strbuf *sb, uint64_t v)
{
	char tmp[24];
	int i = sizeof(tmp);

	do {
		tmp[--i] = '0' + v % 10;
		v /= 10;
	} while (v);
	strbuf_add(sb, tmp + i, sizeof(tmp) - i);
}

void strbuf_addi(struct strbuf *sb, int64_t v)
{
	if (v < 0) {
		strbuf_addch(sb, '-');
		strbuf_addu(sb, -(uint64_t)v);
	} else {
		strbuf_addu(sb, (uint64_t)v);
	}
}

void strbuf_reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
}

void strbuf_release(struct strbuf *sb)
{
	free(sb->buf);
	memset(sb, 0, sizeof(*sb));
}

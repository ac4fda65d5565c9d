/* SPDX-License-Identifier: MIT */
/* A growable text buffer in the manner of git's strbuf: append, and look at .buf. */
#ifndef POSTPROC_STRBUF_H
#define POSTPROC_STRBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * buf[0..len) is the text, NUL-terminated once anything was added (buf is
 * NULL before). An append that cannot get memory sets oom and is dropped, as
 * are all later ones: callers append freely and check oom once at the end.
 */
struct strbuf {
	char *buf;
	size_t len, alloc;
	bool oom;
};

/* Room for extra more bytes (and the NUL) without moving; false (and oom) if none. */
bool strbuf_grow(struct strbuf *sb, size_t extra);

void strbuf_add(struct strbuf *sb, const void *data, size_t len);
void strbuf_addstr(struct strbuf *sb, const char *s);
void strbuf_addch(struct strbuf *sb, char c);
void strbuf_addf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* v in decimal. */
void strbuf_addu(struct strbuf *sb, uint64_t v);
void strbuf_addi(struct strbuf *sb, int64_t v);

/* Empty it, keeping the memory. */
void strbuf_reset(struct strbuf *sb);
/* Free the memory and zero sb. */
void strbuf_release(struct strbuf *sb);

#endif

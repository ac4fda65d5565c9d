/* SPDX-License-Identifier: MIT */
/*
 * What the report reads from files besides the stream (the .cwasm, the CLIF
 * and Wasm, DWARF, native files' symbols, source lines), as answers kept
 * while an archive is made (ARCHIVED_KEEP) and given back when one is read
 * (ARCHIVED_REPLAY), so that a report made from an archive needs none of
 * those files (postproc/FORMATS.md, "The archive"). One store per process: a
 * report reads at most one archive.
 *
 * An answer is a key and a value, each a list of fields: words, numbers, and
 * strings as archived__str() writes them (escaped as the stream's strings,
 * "s" before them, "-" for none), fields joined by one space.
 */
#ifndef POSTPROC_ANNOTATE_ARCHIVED_H
#define POSTPROC_ANNOTATE_ARCHIVED_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strbuf.h"
#include "stream/stream.h"

enum archived_mode {
	ARCHIVED_OFF,		/* files are read (the default) */
	ARCHIVED_KEEP,		/* files are read, and every answer kept */
	ARCHIVED_REPLAY,	/* no file is read: answers come from the archive */
};

void archived__set_mode(enum archived_mode mode);
enum archived_mode archived__mode(void);

/* A string field: s escaped, after "s"; "-" when s is NULL. n: its length. */
void archived__str(struct strbuf *sb, const char *s, size_t n);
/* Field i (0-based) of fields, decoded into a malloc()ed string (*out NULL
 * for "-"); false when there is no such field or it is not a string. */
bool archived__get_str(const char *fields, unsigned i, char **out, size_t *len);
/* Field i as a number (decimal or 0x-hex). */
bool archived__get_u64(const char *fields, unsigned i, uint64_t *v);

/* The fields that name stream object idx, whatever its index in this run:
 * its identity (STREAM.md, "Identity"). */
void archived__object(struct strbuf *sb, const struct stream *s, size_t idx);

/* ARCHIVED_KEEP: keep val as key's answer (the first one kept stays).
 * Memory running out is remembered: archived__write then fails. */
void archived__put(const char *key, const char *val);
/* ARCHIVED_REPLAY: key's answer, or NULL when the archive has none. */
const char *archived__get(const char *key);

/* The answers, one line each, sorted; 0 or -EIO / -ENOMEM. */
int archived__write(struct strbuf *out);
/* The answers of an archive's member (what archived__write wrote); 0, or
 * -EINVAL with "NAME:LINE: what is wrong" in err, or -ENOMEM. */
int archived__read(const char *buf, size_t len, const char *name, char *err, size_t errlen);
void archived__release(void);

#endif

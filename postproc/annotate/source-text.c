// SPDX-License-Identifier: MIT
/* Lines of source files (see source-text.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/read-file.h"
#include "archived.h"
#include "source-text.h"
#include "lib/util.h"

#define MAX_FILE (16u << 20)

struct source_file {
	char *path;
	char *buf;		/* NULL: unreadable */
	size_t *starts;		/* offset of each line's first byte */
	size_t lines;
	size_t len;
};

struct source_text {
	struct source_file *files;
	size_t nr, alloc;
};

/* The lines read from an archive (archived.h): beside struct source_text,
 * so that the heap, and the pages' Graphviz routes, are as without. */
static struct strset replayed;

struct source_text *source_text__new(void)
{
	return calloc(1, sizeof(struct source_text));
}

void source_text__free(struct source_text *st)
{
	if (!st)
		return;
	for (size_t i = 0; i < st->nr; i++) {
		free(st->files[i].path);
		free(st->files[i].buf);
		free(st->files[i].starts);
	}
	free(st->files);
	if (archived__mode() == ARCHIVED_REPLAY)
		strset_release(&replayed);
	free(st);
}

/*
 * The whole file (read_file: only a regular file, so a FIFO never waits for a
 * writer; at most MAX_FILE bytes, up to the size it had when opened). A file
 * that cannot be read is left without buffer; -ENOMEM only when memory ran out.
 */
static int load(struct source_file *f)
{
	uint8_t *buf;
	size_t alloc = 0;
	int ret = read_file(f->path, MAX_FILE, "the source-file limit", 0, &buf, &f->len, NULL, 0);

	if (ret == -ENOMEM)
		return -ENOMEM;
	if (ret)
		return 0;
	f->buf = (char *)buf;
	for (size_t at = 0; at < f->len;) {
		const char *nl = memchr(f->buf + at, '\n', f->len - at);

		if (VEC_GROW(f->starts, f->lines + 1, alloc)) {
			FREE_AND_NULL(f->buf);
			return -ENOMEM;
		}
		f->starts[f->lines++] = at;
		at = nl ? (size_t)(nl - f->buf) + 1 : f->len;
	}
	return 0;
}

/*
 * An archive's maker keeps each line asked for, "line PATH N" -> its text
 * (archived.h); a report of the archive reads it instead of the file.
 */
static void line_key(struct strbuf *k, const char *path, unsigned line)
{
	strbuf_addstr(k, "line");
	archived__str(k, path, strlen(path));
	strbuf_addf(k, " %u", line);
}

static int replay_line(struct source_text *st, const char *path, unsigned line, const char **text,
		       size_t *len)
{
	struct strbuf k = { 0 };
	const char *v;
	char *s;
	int ret = 0;

	line_key(&k, path, line);
	if (k.oom)
		ret = -ENOMEM;
	else if ((v = archived__get(k.buf)) && archived__get_str(v, 0, &s, len) && s) {
		/* a line has no NUL (the maker cut it at one): a C string will do */
		if (!(*text = strset_add_owned(&replayed, s)))
			ret = -ENOMEM;
	}
	strbuf_release(&k);
	if (ret || !*text)
		*len = 0;
	return ret;
}

static int line_of(struct source_text *st, const char *path, unsigned line, const char **text,
		   size_t *len);

int source_text__line(struct source_text *st, const char *path, unsigned line, const char **text,
		      size_t *len)
{
	struct strbuf k = { 0 }, v = { 0 };
	int ret;

	*text = NULL;
	*len = 0;
	if (!path || !line)
		return 0;
	if (archived__mode() == ARCHIVED_REPLAY)
		return replay_line(st, path, line, text, len);
	ret = line_of(st, path, line, text, len);
	if (ret || archived__mode() != ARCHIVED_KEEP)
		return ret;
	if (*text && memchr(*text, 0, *len))
		*len = strlen(*text);
	line_key(&k, path, line);
	archived__str(&v, *text, *len);
	if (!k.oom && !v.oom)
		archived__put(k.buf, v.buf);
	strbuf_release(&k);
	strbuf_release(&v);
	return 0;
}

static int line_of(struct source_text *st, const char *path, unsigned line, const char **text,
		   size_t *len)
{
	struct source_file *f = NULL;

	*text = NULL;
	*len = 0;
	if (!path || !line)
		return 0;
	for (size_t i = 0; i < st->nr && !f; i++)
		if (!strcmp(st->files[i].path, path))
			f = &st->files[i];
	if (!f) {
		if (VEC_GROW(st->files, st->nr + 1, st->alloc))
			return -ENOMEM;
		f = &st->files[st->nr];
		memset(f, 0, sizeof(*f));
		f->path = strdup(path);
		if (!f->path)
			return -ENOMEM;
		st->nr++;
		if (load(f))
			return -ENOMEM;
	}
	if (!f->buf || line > f->lines)
		return 0;
	size_t start = f->starts[line - 1];
	size_t end = line < f->lines ? f->starts[line] : f->len;

	while (end > start && (f->buf[end - 1] == '\n' || f->buf[end - 1] == '\r'))
		end--;
	*len = end - start;
	*text = f->buf + start;
	return 0;
}

// SPDX-License-Identifier: MIT
/* Lines of source files (see source-text.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source-text.h"
#include "util.h"

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
	free(st);
}

static void load(struct source_file *f)
{
	FILE *fp = fopen(f->path, "r");
	size_t alloc = 0;

	if (!fp)
		return;
	f->buf = malloc(MAX_FILE + 1);
	if (f->buf)
		f->len = fread(f->buf, 1, MAX_FILE + 1, fp);
	fclose(fp);
	if (!f->buf || f->len > MAX_FILE) {
		free(f->buf);
		f->buf = NULL;
		return;
	}
	for (size_t at = 0; at < f->len;) {
		const char *nl = memchr(f->buf + at, '\n', f->len - at);

		if (VEC_GROW(f->starts, f->lines + 1, alloc)) {
			free(f->buf);
			f->buf = NULL;
			return;
		}
		f->starts[f->lines++] = at;
		at = nl ? (size_t)(nl - f->buf) + 1 : f->len;
	}
}

const char *source_text__line(struct source_text *st, const char *path, unsigned line, size_t *len)
{
	struct source_file *f = NULL;

	if (!path || !line)
		return NULL;
	for (size_t i = 0; i < st->nr && !f; i++)
		if (!strcmp(st->files[i].path, path))
			f = &st->files[i];
	if (!f) {
		if (VEC_GROW(st->files, st->nr + 1, st->alloc))
			return NULL;
		f = &st->files[st->nr];
		memset(f, 0, sizeof(*f));
		f->path = strdup(path);
		if (!f->path)
			return NULL;
		st->nr++;
		load(f);
	}
	if (!f->buf || line > f->lines)
		return NULL;
	size_t start = f->starts[line - 1];
	size_t end = line < f->lines ? f->starts[line] : f->len;

	while (end > start && (f->buf[end - 1] == '\n' || f->buf[end - 1] == '\r'))
		end--;
	*len = end - start;
	return f->buf + start;
}

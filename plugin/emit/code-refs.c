// SPDX-License-Identifier: MIT
/* Code a file holds (see code-refs.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <lzma.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/stream-format.h"
#include "../lib/vec.h"
#include "../symbols/elfsyms.h"
#include "code-refs.h"

struct code_refs_file {
	uint32_t file;		/* mmaps file index */
	int fd;			/* -1: no candidate could be opened */
	char *path;		/* the one opened, absolute (owned) */
};

void code_refs__init(struct code_refs *c, const struct mmaps *maps, const struct code_refs_places *places)
{
	memset(c, 0, sizeof(*c));
	c->maps = maps;
	c->places = *places;
}

void code_refs__release(struct code_refs *c)
{
	for (size_t i = 0; i < c->files_nr; i++) {
		if (c->files[i].fd >= 0)
			close(c->files[i].fd);
		free(c->files[i].path);
	}
	free(c->files);
	free(c->buf);
	memset(c, 0, sizeof(*c));
}

/* Its length as the stream writes it (STREAM.md "Strings"). */
static size_t escaped_len(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += (unsigned char)*s <= 0x20 || (unsigned char)*s >= 0x7f || *s == '%' ? 3 : 1;
	return n;
}

/* Open candidate a + b (b may be NULL) into f when it is a regular file. */
static bool try_open(struct code_refs_file *f, const char *a, const char *b, const char *c)
{
	char p[PATH_MAX], real[PATH_MAX];
	struct stat st;
	int fd;

	if (snprintf(p, sizeof(p), "%s%s%s", a, b ? b : "", c ? c : "") >= (int)sizeof(p))
		return false;
	if ((fd = open(p, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return false;
	/* absolute: the reader opens it from wherever it runs */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !realpath(p, real) ||
	    escaped_len(real) > HB_STREAM_STRING_MAX || !(f->path = strdup(real))) {
		close(fd);
		return false;
	}
	f->fd = fd;
	return true;
}

/* The file where mmaps file idx is found now: where the plugin read it,
 * its path (under --symfs), perf.data's directory, the search directories. */
static void locate(const struct code_refs *c, struct code_refs_file *f, uint32_t idx)
{
	const struct mmaps_file *mf = &c->maps->files[idx];
	const char *base = strrchr(mf->path, '/') ? strrchr(mf->path, '/') + 1 : mf->path;
	const char *read_from = mf->priv ? elfsyms__read_from(mf->priv) : NULL;
	const char *pd = c->places.perf_data;

	f->fd = -1;
	if (mf->path[0] != '/' || !*base)
		return;		/* [vdso], a perf map's name: no file */
	if (read_from && try_open(f, read_from, NULL, NULL))
		return;
	if (try_open(f, c->places.symfs ? c->places.symfs : "", mf->path, NULL))
		return;
	if (pd && strcmp(pd, "-")) {
		const char *slash = strrchr(pd, '/');
		char dir[PATH_MAX];

		snprintf(dir, sizeof(dir), "%.*s/", slash ? (int)(slash - pd) : 1, slash ? pd : ".");
		if (try_open(f, dir, base, NULL))
			return;
	}
	for (size_t i = 0; i < c->places.search_nr; i++)
		if (try_open(f, c->places.search[i], "/", base))
			return;
}

static struct code_refs_file *file_of(struct code_refs *c, uint32_t idx)
{
	for (size_t i = 0; i < c->files_nr; i++)
		if (c->files[i].file == idx)
			return &c->files[i];
	if (VEC_GROW(c->files, c->files_nr + 1, c->files_alloc))
		return NULL;
	c->files[c->files_nr] = (struct code_refs_file){ .file = idx, .fd = -1 };
	locate(c, &c->files[c->files_nr], idx);
	return &c->files[c->files_nr++];
}

int code_refs__find(struct code_refs *c, uint32_t pid, uint64_t addr, uint64_t time, const uint8_t *code,
		    size_t len, const char **path, uint64_t *off, uint64_t *crc)
{
	/* a lookup: the index is built, nothing changes */
	const struct mmaps_map *m = c->maps && len ? mmaps__find((struct mmaps *)c->maps, pid, addr, time) : NULL;
	struct code_refs_file *f;
	size_t got = 0;

	if (!m || m->kind != MMAPS_FILE || addr < m->start || addr - m->start > m->len ||
	    len > m->len - (addr - m->start))
		return 0;
	if (!(f = file_of(c, m->file)))
		return -ENOMEM;
	if (f->fd < 0)
		return 0;
	*off = m->pgoff + (addr - m->start);
	if (len > c->buf_alloc) {
		uint8_t *b = realloc(c->buf, len);

		if (!b)
			return -ENOMEM;
		c->buf = b;
		c->buf_alloc = len;
	}
	while (got < len) {
		ssize_t n = pread(f->fd, c->buf + got, len - got, (off_t)(*off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return 0;
		got += (size_t)n;
	}
	/* the file as it is now must hold what ran: else the bytes are copied */
	if (memcmp(c->buf, code, len))
		return 0;
	*path = f->path;
	*crc = lzma_crc64(code, len, 0);
	return 1;
}

// SPDX-License-Identifier: MIT
/* A perf map read as perf 6.1 reads it (see perfmap.h). */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfmap.h"

/* A map bigger than this is read up to it (perf would read on; such maps do not occur). */
#define PERFMAP_MAX (1ULL << 32)

/* strtoull in base 16, as perf's hex2u64: the number, and how many bytes it took. */
static size_t hex(const char *p, uint64_t *v)
{
	char *end;

	*v = strtoull(p, &end, 16);
	return (size_t)(end - p);
}

int perfmap__parse(struct perfmap *m, char *text, size_t len)
{
	char *line = text, *end = text + len;

	memset(m, 0, sizeof(*m));
	symset__init(&m->set);
	m->text = text;
	text[len] = '\0';
	while (line < end) {
		char *nl = memchr(line, '\n', (size_t)(end - line));
		size_t line_len = nl ? (size_t)(nl - line) + 1 : (size_t)(end - line);
		size_t n;
		uint64_t start, size;

		/*
		 * perf's loop over getline(): the line's last byte is cut (its
		 * newline, or the last character of a last line that has none),
		 * then each number must leave more than two bytes after it.
		 */
		char *next = line + line_len;

		line[--line_len] = '\0';
		n = hex(line, &start) + 1;
		if (n + 2 < line_len) {
			n += hex(line + n, &size) + 1;
			if (n + 2 < line_len) {
				if (!symset__add(&m->set, start, size, line + n, STB_GLOBAL, 0))
					return -ENOMEM;
				m->lines++;
			}
		}
		line = next;
	}
	return symset__done(&m->set) ? 0 : -ENOMEM;
}

int perfmap__load(struct perfmap *m, const char *path)
{
	struct stat st;
	char *text = NULL;
	size_t len = 0;
	int fd, ret;

	memset(m, 0, sizeof(*m));
	symset__init(&m->set);
	/* O_NONBLOCK: a FIFO in the map's place must not hold perf up */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) < 0) {
		ret = -errno;
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = -EINVAL;
		goto fail;
	}
	/* read to the end: the JIT may still be appending */
	for (size_t alloc = (size_t)st.st_size + 4096;;) {
		char *nt = alloc <= PERFMAP_MAX ? realloc(text, alloc + 1) : NULL;
		ssize_t got;

		if (!nt) {
			ret = -ENOMEM;
			goto fail;
		}
		text = nt;
		got = read(fd, text + len, alloc - len);
		if (got < 0) {
			ret = -errno;
			goto fail;
		}
		if (!got)
			break;
		len += (size_t)got;
		if (len == alloc)
			alloc *= 2;
	}
	close(fd);
	ret = perfmap__parse(m, text, len);
	if (ret)
		perfmap__release(m);
	m->err = ret;
	return ret;
fail:
	if (fd >= 0)
		close(fd);
	free(text);
	m->err = ret;
	return ret;
}

void perfmap__release(struct perfmap *m)
{
	int err = m->err;

	symset__release(&m->set);
	free(m->text);
	memset(m, 0, sizeof(*m));
	m->err = err;
}

const struct symset_sym *perfmap__find(struct perfmap *m, uint64_t ip)
{
	return symset__find(&m->set, ip);
}

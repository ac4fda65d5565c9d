// SPDX-License-Identifier: MIT
/* A perf map read as perf 6.1 reads it (see perfmap.h). */
#define _GNU_SOURCE
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perfmap.h"

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
	size_t nr = 0;

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

		nr++;
		line[--line_len] = '\0';
		n = hex(line, &start) + 1;
		if (n + 2 < line_len) {
			n += hex(line + n, &size) + 1;
			if (n + 2 < line_len) {
				/* kept as perf keeps it (its place in perf's tree matters), but counted */
				if (size && start + size < start && !m->wrapped++)
					m->first_wrapped = nr;
				if (!symset__add(&m->set, start, size, line + n, STB_GLOBAL, 0))
					return -ENOMEM;
				m->lines++;
			}
		}
		line = next;
	}
	if (m->wrapped)
		snprintf(m->note, sizeof(m->note), "line %zu: START + SIZE wraps past the top of the address space"
			 " (%zu such line%s: no sample is ever theirs, as for perf)", m->first_wrapped, m->wrapped,
			 m->wrapped == 1 ? "" : "s");
	return symset__done(&m->set) ? 0 : -ENOMEM;
}

/* The map's text, at most max bytes, cut after its last whole line when the
 * file goes on (the JIT may still be appending: read to the end). */
static int read_text(int fd, const struct stat *st, size_t max, char **text, size_t *len, bool *cut)
{
	size_t alloc = (uint64_t)st->st_size + 4096 < max ? (size_t)st->st_size + 4096 : max;

	*text = NULL;
	*len = 0;
	*cut = false;
	for (;;) {
		char *nt = realloc(*text, alloc + 1);
		ssize_t got;

		if (!nt)
			return -ENOMEM;
		*text = nt;
		got = read(fd, *text + *len, alloc - *len);
		if (got < 0)
			return -errno;
		if (!got)
			return 0;
		*len += (size_t)got;
		if (*len < alloc)
			continue;
		if (alloc == max) {
			char c;
			char *nl = memrchr(*text, '\n', *len);

			/* at the bound: is there more? then drop the line it split */
			if (read(fd, &c, 1) == 1) {
				*cut = true;
				*len = nl ? (size_t)(nl - *text) + 1 : 0;
			}
			return 0;
		}
		alloc = alloc > max / 2 ? max : alloc * 2;
	}
}

int perfmap__load(struct perfmap *m, const char *path, size_t max, bool force)
{
	struct stat st;
	char *text = NULL;
	size_t len = 0;
	bool cut = false;
	int fd, ret;

	memset(m, 0, sizeof(*m));
	symset__init(&m->set);
	if (!max)
		max = PERFMAP_MAX;
	/* O_NONBLOCK: a FIFO in the map's place must not hold perf up; O_NOFOLLOW:
	 * the profiled program writes the map, and must not make us read another file */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	if (fd < 0 || fstat(fd, &st) < 0) {
		ret = -errno;
		if (ret == -ELOOP)
			snprintf(m->note, sizeof(m->note), "a symbolic link; not read as a perf map");
		goto fail;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = -EINVAL;
		snprintf(m->note, sizeof(m->note), "not a regular file; not read as a perf map");
		goto fail;
	}
	/* a map neither root nor the reader owns is another user's word about the
	 * process: older perf's dso__load ignored it unless forced (perf 6.1 reads it) */
	if (!force && st.st_uid && st.st_uid != geteuid()) {
		ret = -EPERM;
		snprintf(m->note, sizeof(m->note), "owned by uid %u, neither root nor this user (uid %u): not read"
			 " (perf script -f reads it)", (unsigned)st.st_uid, (unsigned)geteuid());
		goto fail;
	}
	if ((ret = read_text(fd, &st, max, &text, &len, &cut)) < 0)
		goto fail;
	close(fd);
	ret = perfmap__parse(m, text, len);
	if (ret) {
		perfmap__release(m);
	} else if (cut) {
		char wrapped[sizeof(m->note)];

		snprintf(wrapped, sizeof(wrapped), "%s", m->note);
		snprintf(m->note, sizeof(m->note), "bigger than %zu %s: only its first %zu lines were read%s%.200s",
			 max >= 1 << 20 ? max >> 20 : max, max >= 1 << 20 ? "MiB" : "bytes", m->lines,
			 *wrapped ? "; " : "", wrapped);
	}
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
	char note[sizeof(m->note)];

	memcpy(note, m->note, sizeof(note));
	symset__release(&m->set);
	free(m->text);
	memset(m, 0, sizeof(*m));
	m->err = err;
	memcpy(m->note, note, sizeof(note));
}

const struct symset_sym *perfmap__find(struct perfmap *m, uint64_t ip)
{
	return symset__find(&m->set, ip);
}

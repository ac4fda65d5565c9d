// SPDX-License-Identifier: MIT
/* The code `code-file` records name (STREAM.md), read from the files, checked by their CRC-64 (stream.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <lzma.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "stream-parse.h"

/* 0 when path holds the bytes at off with that CRC (into *out, malloc()ed:
 * no more than the file has); else why not, in why. */
static int read_one(const char *path, uint64_t off, uint64_t len, uint64_t crc, uint8_t **out, char *why,
		    size_t whylen)
{
	/* not blocking: a stream may name a FIFO, which is then refused as no file */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	uint64_t got = 0;
	struct stat st;
	uint8_t *buf;

	if (fd < 0) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return -ENOENT;
	}
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || (uint64_t)st.st_size < off ||
	    (uint64_t)st.st_size - off < len) {
		bool file = !fstat(fd, &st) && S_ISREG(st.st_mode);

		snprintf(why, whylen, "%s: %s", path, file ? "ends before the code's end" : "not a regular file");
		close(fd);
		return -ENOENT;
	}
	if (!(buf = malloc(len ? len : 1))) {
		close(fd);
		return -ENOMEM;
	}
	while (got < len) {
		ssize_t n = pread(fd, buf + got, len - got, (off_t)(off + got));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(why, whylen, "%s: %s at offset 0x%" PRIx64, path,
				 n < 0 ? strerror(errno) : "ends before the code's end", off + got);
			close(fd);
			free(buf);
			return -ENOENT;
		}
		got += (uint64_t)n;
	}
	close(fd);
	if (lzma_crc64(buf, len, 0) != crc) {
		snprintf(why, whylen, "%s: the %" PRIu64 " bytes at offset 0x%" PRIx64
			 " are not the recording's (CRC-64 differs: another build of the file?)", path, len, off);
		free(buf);
		return -ENOENT;
	}
	*out = buf;
	return 0;
}

int stream__code_file_read(const char *path, uint64_t off, uint64_t len, uint64_t crc, const char *const *also,
			   size_t also_nr, uint8_t **out, char *why, size_t whylen)
{
	char other[256];
	int ret = read_one(path, off, len, crc, out, why, whylen);

	if (ret != -ENOENT)
		return ret;
	/* another copy of the file: the same bytes at the same offset */
	for (size_t i = 0; i < also_nr; i++)
		if (strcmp(also[i], path) && (ret = read_one(also[i], off, len, crc, out, other, sizeof(other))) != -ENOENT)
			return ret;
	return -ENOENT;
}

/* What could not be read, for the report's notes (stream.code_file_problems). */
static int problem(struct stream *s, const char *text)
{
	char *t;

	if (s->code_file_problems_nr == STREAM_WARNINGS_MAX) {
		s->code_file_problems_dropped++;
		return 0;
	}
	if (VEC_GROW(s->code_file_problems, s->code_file_problems_nr + 1, s->code_file_problems_alloc) ||
	    !(t = strdup(text)))
		return -ENOMEM;
	s->code_file_problems[s->code_file_problems_nr++] = t;
	return 0;
}

int stream_code_files__read(struct stream *s)
{
	for (size_t i = 0; i < s->objects_nr; i++) {
		struct stream_object *o = &s->objects[i];
		char why[768], text[1024];
		uint8_t *buf = NULL;
		int ret;

		if (!o->code_file)
			continue;
		ret = stream__code_file_read(o->code_file, o->code_file_off, o->code_file_len, o->code_crc,
					     s->code_files_also, s->code_files_also_nr, &buf, why, sizeof(why));
		if (ret == -ENOMEM)
			return ret;
		if (ret) {
			snprintf(text, sizeof(text), "the code of %s is not shown: %s (its stream, %s:%lu, names it)",
				 o->name, why, o->origin, o->origin_line);
			if (problem(s, text))
				return -ENOMEM;
			continue;
		}
		/* Another section gave code lines: the same bytes. */
		if (o->code_nr && memcmp(o->code, buf, o->code_nr < o->code_file_len ? o->code_nr : o->code_file_len)) {
			free(buf);
			snprintf(text, sizeof(text), "the code of %s in %s differs from its code lines in %s:%lu;"
				 " those are shown", o->name, o->code_file, o->origin, o->origin_line);
			if (problem(s, text))
				return -ENOMEM;
			continue;
		}
		if (o->code_nr >= o->code_file_len) {
			free(buf);
			continue;
		}
		free(o->code);
		o->code = buf;
		o->code_nr = o->code_alloc = o->code_file_len;
		s->code_files_read++;
	}
	return 0;
}

/* A `code-file` line's fields (a copy, its path decoded), false when it is
 * not one the reader would take: then it is left for the reader to refuse. */
static bool parse_line(const char *l, size_t n, char **id, uint64_t *off, uint64_t *len, uint64_t *crc, char **path)
{
	char *copy = strndup(l, n), *f[6], *save = NULL, *end, *in, *o;
	size_t nf = 0;

	if (!copy)
		return false;
	for (char *t = strtok_r(copy, " ", &save); t && nf < 6; t = strtok_r(NULL, " ", &save))
		f[nf++] = t;
	if (nf != 6 || strncmp(f[2], "0x", 2) || strncmp(f[4], "0x", 2))
		goto bad;
	errno = 0;
	*off = strtoull(f[2] + 2, &end, 16);
	if (*end || errno)
		goto bad;
	*len = strtoull(f[3], &end, 10);
	if (*end || errno || !*len || *len > ((uint64_t)1 << 32))
		goto bad;
	*crc = strtoull(f[4] + 2, &end, 16);
	if (*end || errno)
		goto bad;
	for (in = o = f[5]; *in; o++) {
		int hi = *in == '%' ? hexval((unsigned char)in[1]) : -2, lo = hi >= 0 ? hexval((unsigned char)in[2]) : -1;

		if (hi == -2) {
			*o = *in++;
			continue;
		}
		if (lo < 0 || (!hi && !lo))
			goto bad;
		*o = (char)(hi << 4 | lo);
		in += 3;
	}
	*o = '\0';
	*id = strdup(f[1]);
	*path = strdup(f[5]);
	free(copy);
	if (*id && *path)
		return true;
	free(*id);
	free(*path);
	return false;
bad:
	free(copy);
	return false;
}

int stream__expand_code_files(const char *buf, size_t len, struct strbuf *out, const char *const *also,
			      size_t also_nr, const char *name, char *err, size_t errlen)
{
	static const char hex[] = "0123456789abcdef";
	static const char kind[] = "code-file ";
	const char *at = buf, *end = buf + len;
	unsigned long line = 0;
	bool any = false;

	while (at < end) {
		const char *nl = memchr(at, '\n', (size_t)(end - at));
		size_t n = nl ? (size_t)(nl - at) : (size_t)(end - at);
		uint64_t off, clen, crc;
		char *id = NULL, *path = NULL, why[768];
		uint8_t *bytes = NULL;

		line++;
		if (n < sizeof(kind) - 1 || memcmp(at, kind, sizeof(kind) - 1) ||
		    !parse_line(at, n, &id, &off, &clen, &crc, &path)) {
			if (any)
				strbuf_add(out, at, nl ? n + 1 : n);
			at += nl ? n + 1 : n;
			continue;
		}
		if (!any) {
			/* what came before, as it is */
			strbuf_add(out, buf, (size_t)(at - buf));
			any = true;
		}
		int ret = stream__code_file_read(path, off, clen, crc, also, also_nr, &bytes, why, sizeof(why));

		if (ret) {
			if (ret == -ENOENT)
				snprintf(err, errlen, "%s:%lu: object %s's code is in a file the archive cannot hold: %s",
					 name, line, id, why);
			free(id);
			free(path);
			return ret;
		}
		for (uint64_t o = 0; o < clen; o += HB_STREAM_CODE_CHUNK) {
			uint64_t k = clen - o < HB_STREAM_CODE_CHUNK ? clen - o : HB_STREAM_CODE_CHUNK;

			strbuf_addf(out, "%s %s 0x%" PRIx64 " ", hb_records[HB_REC_CODE].word, id, o);
			if (!strbuf_grow(out, 2 * k + 1))
				break;
			for (uint64_t i = 0; i < k; i++) {
				out->buf[out->len++] = hex[bytes[o + i] >> 4];
				out->buf[out->len++] = hex[bytes[o + i] & 15];
			}
			out->buf[out->len++] = '\n';
			out->buf[out->len] = '\0';
		}
		free(bytes);
		free(id);
		free(path);
		at += nl ? n + 1 : n;
	}
	if (out->oom)
		return -ENOMEM;
	return any;
}

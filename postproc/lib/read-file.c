/* SPDX-License-Identifier: MIT */
/* Reading a whole input file (see read-file.h). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "inputs.h"
#include "read-file.h"
#include "util.h"

/* Bytes asked of read(2) at a time from a pipe, whose size nobody knows. */
#define PIPE_CHUNK 65536

/* What a file that is neither regular nor a directory is, for a message. */
static const char *file_kind(mode_t mode)
{
	return S_ISCHR(mode) ? "a character device" : S_ISBLK(mode) ? "a block device" :
	       S_ISFIFO(mode) ? "a pipe" : S_ISSOCK(mode) ? "a socket" : "not a regular file";
}

/*
 * Room for need bytes in *b (of *alloc), doubling but never past cap: a
 * pipe's buffer stays within max + 2 bytes however much it sends. Returns
 * 0 or -ENOMEM.
 */
static int grow(uint8_t **b, size_t *alloc, size_t need, size_t cap)
{
	size_t n = *alloc ? *alloc : need;
	uint8_t *q;

	if (need <= *alloc)
		return 0;
	while (n < need)
		n = n > cap / 2 ? cap : n * 2;
	if (n > cap)
		n = cap;
	q = realloc(*b, n);
	if (!q)
		return -ENOMEM;
	*b = q;
	*alloc = n;
	return 0;
}

int read_file(const char *path, size_t max, const char *max_text, unsigned flags, uint8_t **buf,
	      size_t *len, char *err, size_t errlen)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | (flags & READ_FILE_PIPES ? 0 : O_NONBLOCK));
	bool regular;
	struct stat st;
	size_t alloc = 0, size = 0, cap;
	uint8_t *b = NULL;
	int ret;

	*buf = NULL;
	*len = 0;
	if (fd < 0 || fstat(fd, &st) < 0) {
		ret = -errno;
		errf(err, errlen, ret, "%s: %s", path, strerror(-ret));
		goto out;
	}
	regular = S_ISREG(st.st_mode);
	if (S_ISDIR(st.st_mode)) {
		ret = errf(err, errlen, -EISDIR, "%s: is a directory", path);
		goto out;
	}
	if (!regular && !(flags & READ_FILE_PIPES)) {
		ret = errf(err, errlen, -EINVAL, "%s: not a regular file", path);
		goto out;
	}
	/* A device never ends (/dev/zero) or is no file to read whole. */
	if (!regular && !S_ISFIFO(st.st_mode) && !S_ISSOCK(st.st_mode)) {
		ret = errf(err, errlen, -EINVAL, "%s: %s, not a regular file or a pipe", path,
			   file_kind(st.st_mode));
		goto out;
	}
	/* An input: no report may replace it (output-file.h). */
	if (inputs_note_fd(fd, path)) {
		ret = errf(err, errlen, -ENOMEM, "%s: out of memory", path);
		goto out;
	}
	if (regular && (uint64_t)st.st_size > max) {
		ret = errf(err, errlen, -EFBIG, "%s: %" PRIu64 " bytes, larger than %s", path,
			   (uint64_t)st.st_size, max_text);
		goto out;
	}
	/* A regular file in one buffer of its size; a pipe in growing ones, of
	 * at most max + 1 bytes and the NUL: one byte past max says too large. */
	cap = max < SIZE_MAX - 2 ? max + 2 : SIZE_MAX;
	if (regular) {
		size = (size_t)st.st_size;
		b = malloc(size + 1);
		alloc = size + 1;
	} else if (grow(&b, &alloc, PIPE_CHUNK + 1 < cap ? PIPE_CHUNK + 1 : cap, cap)) {
		b = NULL;
	}
	if (!b) {
		ret = errf(err, errlen, -ENOMEM, "%s: out of memory", path);
		goto out;
	}
	for (;;) {
		ssize_t n;

		if (regular && *len == size)
			break;
		if (!regular && *len > max) {
			ret = errf(err, errlen, -EFBIG, "%s: larger than %s", path, max_text);
			goto out;
		}
		if (!regular && grow(&b, &alloc, *len + PIPE_CHUNK + 1 < cap ? *len + PIPE_CHUNK + 1 : cap,
				     cap)) {
			ret = errf(err, errlen, -ENOMEM, "%s: out of memory", path);
			goto out;
		}
		n = read(fd, b + *len, (regular ? size : alloc - 1) - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = errf_at(err, errlen, -EIO, path, *len, "read failed: %s", strerror(errno));
			goto out;
		}
		if (n == 0)
			break;
		*len += (size_t)n;
	}
	b[*len] = '\0';
	*buf = b;
	b = NULL;
	ret = 0;
out:
	if (ret)
		*len = 0;
	free(b);
	if (fd >= 0)
		close(fd);
	return ret;
}

/* SPDX-License-Identifier: MIT */
/* Test support: in-memory perf.data builder (layout from the kernel's
 * tools/perf/Documentation/perf.data-file-format.txt; see plugin/JITDUMP.md). */
#include "tests/perfdata-writer.h"

#include <byteswap.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zstd.h>

#define MAGIC2 0x32454c4946524550ULL	/* perf's u64 magic: "PERFILE2" on a little-endian host */

void perfdata_writer__init(struct perfdata_writer *w, enum perfdata_writer_mode mode, bool swapped)
{
	*w = (struct perfdata_writer){ .mode = mode, .swapped = swapped };
	if (mode == PERFDATA_WRITER_RAW)
		return;
	/* The magic is a u64 like any other: a swapped writer stores it swapped. */
	perfdata_writer__u64(w, MAGIC2);
	if (mode == PERFDATA_WRITER_PIPE) {
		perfdata_writer__u64(w, 16);
	} else {
		perfdata_writer__u64(w, PERFDATA_WRITER_FILE_HDR);
		perfdata_writer__u64(w, 136);	/* attr_size; not read by the scanner */
		perfdata_writer__fill(w, 0, PERFDATA_WRITER_FILE_HDR - 24);
	}
	w->data_off = w->len;
}

void perfdata_writer__release(struct perfdata_writer *w)
{
	free(w->buf);
	*w = (struct perfdata_writer){ .mode = w->mode, .swapped = w->swapped };
}

static bool reserve(struct perfdata_writer *w, size_t n)
{
	size_t want;
	uint8_t *p;

	if (w->oom)
		return false;
	if (w->alloc - w->len >= n)
		return true;
	want = w->alloc ? w->alloc : 4096;
	while (want - w->len < n) {
		if (want > SIZE_MAX / 2) {
			w->oom = true;
			return false;
		}
		want *= 2;
	}
	p = realloc(w->buf, want);
	if (!p) {
		w->oom = true;
		return false;
	}
	w->buf = p;
	w->alloc = want;
	return true;
}

void perfdata_writer__bytes(struct perfdata_writer *w, const void *p, size_t n)
{
	if (!n || !reserve(w, n))
		return;
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

void perfdata_writer__fill(struct perfdata_writer *w, uint8_t byte, size_t n)
{
	if (!n || !reserve(w, n))
		return;
	memset(w->buf + w->len, byte, n);
	w->len += n;
}

void perfdata_writer__u16(struct perfdata_writer *w, uint16_t v)
{
	if (w->swapped)
		v = bswap_16(v);
	perfdata_writer__bytes(w, &v, sizeof(v));
}

void perfdata_writer__u32(struct perfdata_writer *w, uint32_t v)
{
	if (w->swapped)
		v = bswap_32(v);
	perfdata_writer__bytes(w, &v, sizeof(v));
}

void perfdata_writer__u64(struct perfdata_writer *w, uint64_t v)
{
	if (w->swapped)
		v = bswap_64(v);
	perfdata_writer__bytes(w, &v, sizeof(v));
}

void perfdata_writer__put_u16(struct perfdata_writer *w, size_t off, uint16_t v)
{
	if (w->oom || off > w->len || w->len - off < sizeof(v))
		return;
	if (w->swapped)
		v = bswap_16(v);
	memcpy(w->buf + off, &v, sizeof(v));
}

void perfdata_writer__put_u64(struct perfdata_writer *w, size_t off, uint64_t v)
{
	if (w->oom || off > w->len || w->len - off < sizeof(v))
		return;
	if (w->swapped)
		v = bswap_64(v);
	memcpy(w->buf + off, &v, sizeof(v));
}

size_t perfdata_writer__begin(struct perfdata_writer *w, uint32_t type, uint16_t misc)
{
	size_t rec = w->len;

	perfdata_writer__u32(w, type);
	perfdata_writer__u16(w, misc);
	perfdata_writer__u16(w, 0);
	return rec;
}

void perfdata_writer__end(struct perfdata_writer *w, size_t rec)
{
	size_t size = w->len - rec;

	perfdata_writer__put_u16(w, rec + 6, size > UINT16_MAX ? 0 : (uint16_t)size);
}

static void name_padded(struct perfdata_writer *w, const char *name)
{
	size_t n = strlen(name) + 1;

	perfdata_writer__bytes(w, name, n);
	perfdata_writer__fill(w, 0, (8 - n % 8) % 8);
}

size_t perfdata_writer__mmap(struct perfdata_writer *w, uint32_t pid, uint32_t tid,
			     uint64_t start, uint64_t len, const char *name)
{
	size_t rec = perfdata_writer__begin(w, 1, 2 /* PERF_RECORD_MISC_USER */);

	perfdata_writer__u32(w, pid);
	perfdata_writer__u32(w, tid);
	perfdata_writer__u64(w, start);
	perfdata_writer__u64(w, len);
	perfdata_writer__u64(w, 0);	/* pgoff */
	name_padded(w, name);
	perfdata_writer__end(w, rec);
	return rec;
}

size_t perfdata_writer__mmap2(struct perfdata_writer *w, uint32_t pid, uint32_t tid,
			      uint64_t start, uint64_t len, const char *name)
{
	size_t rec = perfdata_writer__begin(w, 10, 2);

	perfdata_writer__u32(w, pid);
	perfdata_writer__u32(w, tid);
	perfdata_writer__u64(w, start);
	perfdata_writer__u64(w, len);
	perfdata_writer__u64(w, 0);	/* pgoff */
	perfdata_writer__u32(w, 254);	/* maj */
	perfdata_writer__u32(w, 0);	/* min */
	perfdata_writer__u64(w, 12345);	/* ino */
	perfdata_writer__u64(w, 1);	/* ino_generation */
	perfdata_writer__u32(w, 5);	/* PROT_READ | PROT_EXEC */
	perfdata_writer__u32(w, 2);	/* MAP_PRIVATE */
	name_padded(w, name);
	perfdata_writer__end(w, rec);
	return rec;
}

size_t perfdata_writer__filler(struct perfdata_writer *w, uint16_t size)
{
	size_t rec = perfdata_writer__begin(w, 9 /* PERF_RECORD_SAMPLE */, 2);

	if (size > 8)
		perfdata_writer__fill(w, 0x5a, size - 8u);
	perfdata_writer__end(w, rec);
	return rec;
}

size_t perfdata_writer__compressed(struct perfdata_writer *w, const void *payload, size_t n)
{
	size_t rec = perfdata_writer__begin(w, 81, 0);

	perfdata_writer__bytes(w, payload, n);
	perfdata_writer__end(w, rec);
	return rec;
}

size_t perfdata_writer__compressed2(struct perfdata_writer *w, const void *payload, size_t n)
{
	size_t rec = perfdata_writer__begin(w, 83, 0);

	perfdata_writer__u64(w, n);
	perfdata_writer__bytes(w, payload, n);
	perfdata_writer__fill(w, 0, (8 - n % 8) % 8);
	perfdata_writer__end(w, rec);
	return rec;
}

int perfdata_writer__zstd_frame(const void *src, size_t n, uint8_t **out, size_t *out_len)
{
	size_t cap = ZSTD_compressBound(n), r;
	uint8_t *p = malloc(cap);

	if (!p)
		return -ENOMEM;
	r = ZSTD_compress(p, cap, src, n, 1);
	if (ZSTD_isError(r)) {
		free(p);
		return -EIO;
	}
	*out = p;
	*out_len = r;
	return 0;
}

int perfdata_writer__zstd(struct perfdata_writer *w, const void *src, size_t n)
{
	uint8_t *z;
	size_t zlen;
	int ret = perfdata_writer__zstd_frame(src, n, &z, &zlen);

	if (ret)
		return ret;
	if (zlen > UINT16_MAX - 8u) {
		free(z);
		return -E2BIG;
	}
	perfdata_writer__compressed(w, z, zlen);
	free(z);
	return 0;
}

int perfdata_writer__zstream_init(struct perfdata_writer_zstream *z)
{
	z->cctx = ZSTD_createCCtx();
	return z->cctx ? 0 : -ENOMEM;
}

int perfdata_writer__zstream_window_log(struct perfdata_writer_zstream *z, int log)
{
	return ZSTD_isError(ZSTD_CCtx_setParameter(z->cctx, ZSTD_c_windowLog, log)) ? -EINVAL : 0;
}

int perfdata_writer__zstream_flush(struct perfdata_writer_zstream *z, struct perfdata_writer *w,
				   const void *src, size_t n)
{
	uint8_t out[UINT16_MAX - 8];
	ZSTD_inBuffer in = { src, n, 0 };
	ZSTD_outBuffer o = { out, sizeof(out), 0 };
	size_t r;

	do {
		r = ZSTD_compressStream2(z->cctx, &o, &in, ZSTD_e_flush);
		if (ZSTD_isError(r))
			return -EIO;
	} while (r && o.pos < o.size);
	if (r)
		return -E2BIG;
	perfdata_writer__compressed(w, out, o.pos);
	return 0;
}

void perfdata_writer__zstream_release(struct perfdata_writer_zstream *z)
{
	ZSTD_freeCCtx(z->cctx);
	z->cctx = NULL;
}

void perfdata_writer__finish(struct perfdata_writer *w)
{
	if (w->mode != PERFDATA_WRITER_FILE)
		return;
	perfdata_writer__put_u64(w, 40, w->data_off);
	perfdata_writer__put_u64(w, 48, w->len - w->data_off);
}

int perfdata_writer__save(const struct perfdata_writer *w, const char *path)
{
	size_t off = 0;
	ssize_t n;
	int fd;

	if (w->oom)
		return -ENOMEM;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	while (off < w->len) {
		n = write(fd, w->buf + off, w->len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			n = -errno;
			close(fd);
			return (int)n;
		}
		off += (size_t)n;
	}
	return close(fd) < 0 ? -errno : 0;
}

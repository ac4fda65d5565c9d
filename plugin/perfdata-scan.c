/* SPDX-License-Identifier: MIT */
/* Scanner of perf.data files for the jit-<pid>.dump marker mappings. */
#define _GNU_SOURCE
#include "byteorder.h"
#include "perfdata-scan.h"

#include <byteswap.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

/*
 * Layout facts, from tools/perf/Documentation/perf.data-file-format.txt and
 * include/uapi/linux/perf_event.h (declared here, not copied).
 */
#define PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" written little-endian */
#define PERF_PIPE_HDR_SIZE	16	/* magic, size */
#define PERF_FILE_HDR_MIN	72	/* magic .. event_types section, no feature bitmap */
#define PERF_FILE_DATA_OFF	40	/* struct perf_file_section data { u64 offset, size } */
#define PERF_EV_HDR_SIZE	8	/* u32 type, u16 misc, u16 size (size includes the header) */

#define PERF_RECORD_MMAP	1
#define PERF_RECORD_MMAP2	10
#define PERF_RECORD_COMPRESSED	81	/* header, zstd data to the end of the record */
#define PERF_RECORD_COMPRESSED2	83	/* header, u64 data_size, zstd data, padding to 8 (2025 perf) */

#define MMAP_PID_OFF		8	/* after the header: u32 pid, u32 tid */
#define MMAP_NAME_OFF		40	/* pid, tid, u64 start, len, pgoff */
#define MMAP2_NAME_OFF		72	/* ... + maj/min/ino/ino_generation or build id (24), prot, flags */

/*
 * Decompression bounds. perf itself gives one COMPRESSED record at most the
 * ring-buffer size (HEADER_COMPRESSED mmap_len, 516 KiB by default) of output;
 * 64 MiB leaves room for big -m values. The total bound caps the time a zstd
 * bomb can cost while staying far above perf's real ratios (3 to 10).
 */
#define INFLATE_RECORD_MAX	(64ULL << 20)
#define INFLATE_TOTAL_MIN	(256ULL << 20)
#define INFLATE_RATIO_MAX	64
/* perf record -z 22 streams with a 2^27 window (-z 1: 2^19); refuse anything bigger. */
#define INFLATE_WINDOW_LOG_MAX	27
#define DBUF_CHUNK		(1U << 20)	/* output produced between two record walks */
#define DBUF_CARRY		65536	/* a cut-off record is < 64 KiB (u16 size) */

struct scan {
	const char *name;
	perfdata_jitdump_cb cb;
	void *arg;
	struct perfdata_scan_stats *st;
	char *err;
	size_t errlen;
	bool swapped;

	/*
	 * One zstd stream across all COMPRESSED records of a file, as in perf's
	 * session.c: perf 6.1 writes one never-ended frame, flushed per record.
	 */
	ZSTD_DCtx *dctx;
	uint8_t *dbuf;		/* DBUF_CARRY + DBUF_CHUNK bytes */
	size_t dlen;		/* bytes held: the start of a record cut at a record boundary */
	uint64_t in_bytes;	/* input read so far */
	uint64_t dtotal_max;	/* bound on decompressed_bytes */
	bool inflate_off;	/* bound reached or no memory: skip the rest */
	bool dcorrupt;		/* a decompressed record had size < 8 */
};

static int fail(struct scan *s, int errnum, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(struct scan *s, int errnum, uint64_t off, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!s->err || !s->errlen)
		return errnum;
	n = snprintf(s->err, s->errlen, "%s+0x%" PRIx64 ": ", s->name, off);
	if (n < 0 || (size_t)n >= s->errlen)
		return errnum;
	va_start(ap, fmt);
	vsnprintf(s->err + n, s->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return errnum;
}

/* Problems with a file as a whole: no offset. */
static int fail_path(char *err, size_t errlen, int errnum, const char *path, const char *what)
{
	if (err && errlen)
		snprintf(err, errlen, "%s: %s", path, what);
	return errnum;
}

/* Open/mmap failures: strerror's capital is lowered to match our messages. */
static int fail_errno(char *err, size_t errlen, const char *name, const char *what, int errnum)
{
	char msg[128];

	if (err && errlen) {
		snprintf(msg, sizeof(msg), "%s", strerror(errnum));
		if (msg[0] >= 'A' && msg[0] <= 'Z')
			msg[0] = (char)(msg[0] - 'A' + 'a');
		snprintf(err, errlen, "%s: %s: %s", name, what, msg);
	}
	return -errnum;
}

/* Multi-byte fields: unaligned (COMPRESSED records are not padded) and maybe swapped. */
static uint16_t get16(const struct scan *s, const uint8_t *p)
{
	return hb_load16(p, s->swapped);
}

static uint32_t get32(const struct scan *s, const uint8_t *p)
{
	return hb_load32(p, s->swapped);
}

static uint64_t get64(const struct scan *s, const uint8_t *p)
{
	return hb_load64(p, s->swapped);
}

bool perfdata__is_jitdump_name(const char *name, size_t len)
{
	const char *base = memrchr(name, '/', len);
	size_t n, i;

	base = base ? base + 1 : name;
	n = len - (size_t)(base - name);
	/* "jit-" + at least one digit + ".dump" */
	if (n < 10 || memcmp(base, "jit-", 4) || memcmp(base + n - 5, ".dump", 5))
		return false;
	for (i = 4; i < n - 5; i++)
		if (base[i] < '0' || base[i] > '9')
			return false;
	return true;
}

static int mmap_record(struct scan *s, const uint8_t *p, size_t size, size_t name_off)
{
	const char *name = (const char *)p + name_off;
	const char *nul;

	s->st->mmaps++;
	/* The name is NUL-padded to 8 bytes and may be followed by sample_id fields. */
	if (size <= name_off || !(nul = memchr(name, '\0', size - name_off))) {
		s->st->malformed++;
		return 0;
	}
	if (!perfdata__is_jitdump_name(name, (size_t)(nul - name)))
		return 0;
	s->st->markers++;
	return s->cb ? s->cb(s->arg, get32(s, p + MMAP_PID_OFF), name) : 0;
}

static int inflate_payload(struct scan *s, const uint8_t *src, size_t len);

/* One complete record of size bytes (>= 8) at p; nested: it came out of a COMPRESSED one. */
static int record(struct scan *s, const uint8_t *p, size_t size, bool nested)
{
	uint64_t data_size;

	s->st->records++;
	switch (get32(s, p)) {
	case PERF_RECORD_MMAP:
		return mmap_record(s, p, size, MMAP_NAME_OFF);
	case PERF_RECORD_MMAP2:
		return mmap_record(s, p, size, MMAP2_NAME_OFF);
	case PERF_RECORD_COMPRESSED:
		s->st->compressed++;
		/* perf never compresses compressed data; do not recurse on hostile input. */
		if (nested) {
			s->st->compressed_failed++;
			return 0;
		}
		return inflate_payload(s, p + PERF_EV_HDR_SIZE, size - PERF_EV_HDR_SIZE);
	case PERF_RECORD_COMPRESSED2:
		s->st->compressed++;
		if (nested || size < PERF_EV_HDR_SIZE + 8) {
			s->st->compressed_failed++;
			return 0;
		}
		data_size = get64(s, p + PERF_EV_HDR_SIZE);
		if (data_size > size - PERF_EV_HDR_SIZE - 8) {
			s->st->compressed_failed++;
			return 0;
		}
		return inflate_payload(s, p + PERF_EV_HDR_SIZE + 8, (size_t)data_size);
	default:
		return 0;
	}
}

/* Hand the complete records in dbuf to record(), keep a cut-off tail for the next payload. */
static int walk_dbuf(struct scan *s)
{
	size_t off = 0, size;
	int ret = 0;

	while (s->dlen - off >= PERF_EV_HDR_SIZE) {
		size = get16(s, s->dbuf + off + 6);
		if (size < PERF_EV_HDR_SIZE) {
			s->dcorrupt = true;
			s->dlen = 0;
			return 0;
		}
		if (size > s->dlen - off)
			break;
		ret = record(s, s->dbuf + off, size, true);
		off += size;
		if (ret)
			break;
	}
	memmove(s->dbuf, s->dbuf + off, s->dlen - off);
	s->dlen -= off;
	return ret;
}

static bool inflate_setup(struct scan *s)
{
	if (s->dctx)
		return true;
	s->dctx = ZSTD_createDCtx();
	s->dbuf = malloc(DBUF_CARRY + DBUF_CHUNK);
	if (!s->dctx || !s->dbuf ||
	    ZSTD_isError(ZSTD_DCtx_setParameter(s->dctx, ZSTD_d_windowLogMax,
						INFLATE_WINDOW_LOG_MAX))) {
		ZSTD_freeDCtx(s->dctx);
		free(s->dbuf);
		s->dctx = NULL;
		s->dbuf = NULL;
		return false;
	}
	return true;
}

/* Drop what the broken stream produced so the next frame starts clean. */
static void inflate_reset(struct scan *s)
{
	ZSTD_DCtx_reset(s->dctx, ZSTD_reset_session_only);
	s->dlen = 0;
}

/*
 * Feed one compressed payload to the stream and walk the records it yields.
 * Decompression problems only count: the marker may well be in a later record.
 */
static int inflate_payload(struct scan *s, const uint8_t *src, size_t len)
{
	ZSTD_inBuffer in = { src, len, 0 };
	uint64_t produced = 0;
	size_t r, in_before;
	int ret;

	if (s->inflate_off || !inflate_setup(s)) {
		s->inflate_off = true;
		s->st->compressed_failed++;
		return 0;
	}
	for (;;) {
		/* walk_dbuf leaves < DBUF_CARRY bytes, so there is room for a full chunk. */
		ZSTD_outBuffer out = { s->dbuf + s->dlen, DBUF_CHUNK, 0 };

		in_before = in.pos;
		r = ZSTD_decompressStream(s->dctx, &out, &in);
		if (ZSTD_isError(r))
			goto bad;
		s->dlen += out.pos;
		produced += out.pos;
		s->st->decompressed_bytes += out.pos;
		if (produced > INFLATE_RECORD_MAX)
			goto bad;
		if (s->st->decompressed_bytes > s->dtotal_max) {
			s->inflate_off = true;
			goto bad;
		}
		ret = walk_dbuf(s);
		if (ret) {
			s->dlen = 0;	/* the caller stopped us: nothing is cut off */
			return ret;
		}
		if (s->dcorrupt) {
			s->dcorrupt = false;
			goto bad;
		}
		/* Output space left over means zstd holds nothing more for this input. */
		if (in.pos == in.size && out.pos < out.size) {
			if (s->dlen)
				s->st->split_records++;
			return 0;
		}
		if (!out.pos && in.pos == in_before)
			goto bad;
	}
bad:
	s->st->compressed_failed++;
	inflate_reset(s);
	return 0;
}

/*
 * Records in buf[off, end). Pipe format: the data just stops at EOF, perhaps
 * mid-record (perf record killed); file format: the data section is exact.
 */
static int walk(struct scan *s, const uint8_t *buf, uint64_t off, uint64_t end, bool pipe)
{
	uint32_t size;
	int ret;

	while (off < end) {
		if (end - off < PERF_EV_HDR_SIZE) {
			if (pipe) {
				s->st->truncated = 1;
				return 0;
			}
			return fail(s, -EINVAL, off,
				    "record header runs past end of data section (%" PRIu64 " bytes left)",
				    end - off);
		}
		size = get16(s, buf + off + 6);
		if (size < PERF_EV_HDR_SIZE)
			return fail(s, -EINVAL, off, "record size %" PRIu32 " < 8 (type %" PRIu32 ")",
				    size, get32(s, buf + off));
		if (size > end - off) {
			if (pipe) {
				s->st->truncated = 1;
				return 0;
			}
			return fail(s, -EINVAL, off,
				    "record of size %" PRIu32 " runs past end of data section at 0x%" PRIx64,
				    size, end);
		}
		ret = record(s, buf + off, size, false);
		if (ret)
			return ret;
		off += size;
	}
	return 0;
}

static int scan_buf(struct scan *s, const uint8_t *buf, size_t len)
{
	uint64_t magic, hsize, doff, dsize;

	if (len < PERF_PIPE_HDR_SIZE)
		return fail(s, -EINVAL, 0, "truncated header (%zu bytes)", len);
	memcpy(&magic, buf, sizeof(magic));
	if (magic == bswap_64(PERF_MAGIC2)) {
		s->swapped = true;
	} else if (magic != PERF_MAGIC2) {
		if (!memcmp(buf, "PERFFILE", 8))
			return fail(s, -ENOTSUP, 0, "perf.data version 1 is not supported");
		return fail(s, -EINVAL, 0, "not a perf.data file (bad magic)");
	}
	s->st->swapped = s->swapped;

	hsize = get64(s, buf + 8);
	if (hsize == PERF_PIPE_HDR_SIZE) {
		s->st->pipe_format = 1;
		return walk(s, buf, PERF_PIPE_HDR_SIZE, len, true);
	}
	if (hsize < PERF_FILE_HDR_MIN)
		return fail(s, -EINVAL, 8, "bad header size %" PRIu64, hsize);
	if (len < hsize)
		return fail(s, -EINVAL, 0, "truncated header (%zu of %" PRIu64 " bytes)", len, hsize);
	doff = get64(s, buf + PERF_FILE_DATA_OFF);
	dsize = get64(s, buf + PERF_FILE_DATA_OFF + 8);
	if (doff > len || dsize > len - doff)
		return fail(s, -EINVAL, PERF_FILE_DATA_OFF,
			    "data section 0x%" PRIx64 "+0x%" PRIx64 " runs past end of file (0x%zx bytes)",
			    doff, dsize, len);
	return walk(s, buf, doff, doff + dsize, false);
}

static void scan_init(struct scan *s, const char *name, perfdata_jitdump_cb cb, void *arg,
		      struct perfdata_scan_stats *stats, char *err, size_t errlen)
{
	*s = (struct scan){
		.name = name ? name : "perf.data",
		.cb = cb,
		.arg = arg,
		.st = stats,
		.err = err,
		.errlen = errlen,
	};
	memset(stats, 0, sizeof(*stats));
	if (err && errlen)
		err[0] = '\0';
}

static void scan_release(struct scan *s)
{
	ZSTD_freeDCtx(s->dctx);
	free(s->dbuf);
	s->dctx = NULL;
	s->dbuf = NULL;
}

/* The bytes of one more input file: they raise the bound on decompressed output. */
static void scan_input(struct scan *s, const char *name, size_t len)
{
	s->name = name;
	s->in_bytes += len;
	s->dtotal_max = s->in_bytes > INFLATE_TOTAL_MIN / INFLATE_RATIO_MAX ?
			s->in_bytes * INFLATE_RATIO_MAX : INFLATE_TOTAL_MIN;
}

/* End of one file's records: each file of a directory has its own zstd stream. */
static void stream_end(struct scan *s)
{
	/* Bytes still held are the start of a record the stream never finished. */
	if (s->dlen)
		s->st->truncated = 1;
	if (s->dctx)
		inflate_reset(s);
}

int perfdata__scan_buf(const uint8_t *buf, size_t len, const char *name,
		       perfdata_jitdump_cb cb, void *arg,
		       struct perfdata_scan_stats *stats, char *err, size_t errlen)
{
	struct perfdata_scan_stats local;
	struct scan s;
	int ret;

	scan_init(&s, name, cb, arg, stats ? stats : &local, err, errlen);
	scan_input(&s, s.name, len);
	ret = scan_buf(&s, buf, len);
	stream_end(&s);
	scan_release(&s);
	return ret;
}

struct mapped {
	void *addr;		/* NULL for an empty file */
	size_t len;
};

/*
 * Map the regular file at path read-only. Returns 0, 1 if it is not a regular
 * file (*is_dir tells a directory), or a negative errno with the message in err.
 */
static int map_file(const char *path, struct mapped *m, bool *is_dir, char *err, size_t errlen)
{
	struct stat st;
	int fd, ret = 0;

	*m = (struct mapped){ NULL, 0 };
	*is_dir = false;
	/* O_NONBLOCK: opening a FIFO must neither block nor steal perf's input. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return fail_errno(err, errlen, path, "cannot open", errno);
	if (fstat(fd, &st) < 0) {
		ret = fail_errno(err, errlen, path, "cannot stat", errno);
		goto out_close;
	}
	if (!S_ISREG(st.st_mode)) {
		*is_dir = S_ISDIR(st.st_mode);
		ret = 1;
		goto out_close;
	}
	if ((uint64_t)st.st_size > SIZE_MAX) {
		ret = fail_errno(err, errlen, path, "cannot map", EFBIG);
		goto out_close;
	}
	m->len = (size_t)st.st_size;
	if (!m->len)
		goto out_close;	/* mmap refuses length 0; the scan sees an empty buffer */
	m->addr = mmap(NULL, m->len, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m->addr == MAP_FAILED) {
		m->addr = NULL;
		ret = fail_errno(err, errlen, path, "cannot map", errno);
		goto out_close;
	}
	madvise(m->addr, m->len, MADV_SEQUENTIAL);
out_close:
	close(fd);
	return ret;
}

static void unmap_file(struct mapped *m)
{
	if (m->addr)
		munmap(m->addr, m->len);
	m->addr = NULL;
}

static const uint8_t *mapped_bytes(const struct mapped *m)
{
	return m->addr ? m->addr : (const uint8_t *)"";
}

/* perf's util/data.c takes every regular file named data.* besides the header file. */
static int is_data_file(const struct dirent *d)
{
	return !strncmp(d->d_name, "data.", 5);
}

/*
 * Directory format (perf record --threads): "data" is an ordinary perf.data
 * file holding the synthesized records; the sampled records of each thread are
 * in data.<n>, header-less, in the header file's byte order, each with its own
 * zstd stream. Like a pipe, a data.<n> file may end mid-record.
 */
static int scan_dir(struct scan *s, const char *path)
{
	struct dirent **list = NULL;
	struct mapped m;
	char *sub;
	size_t sublen = strlen(path) + 256 + 2;
	bool is_dir;
	int n, i, ret;

	s->st->dir_format = 1;
	sub = malloc(sublen);
	if (!sub)
		return fail_errno(s->err, s->errlen, path, "cannot scan", ENOMEM);
	snprintf(sub, sublen, "%s/data", path);
	ret = map_file(sub, &m, &is_dir, s->err, s->errlen);
	if (ret > 0) {
		ret = fail_path(s->err, s->errlen, -EINVAL, sub, "not a regular file");
		goto out_free;
	}
	if (ret)
		goto out_free;
	scan_input(s, sub, m.len);
	ret = scan_buf(s, mapped_bytes(&m), m.len);
	stream_end(s);
	unmap_file(&m);
	if (ret)
		goto out_free;

	/* versionsort: data.2 before data.10, as the thread numbers go. */
	n = scandir(path, &list, is_data_file, versionsort);
	if (n < 0) {
		ret = fail_errno(s->err, s->errlen, path, "cannot read directory", errno);
		goto out_free;
	}
	for (i = 0; i < n && !ret; i++) {
		snprintf(sub, sublen, "%s/%s", path, list[i]->d_name);
		ret = map_file(sub, &m, &is_dir, s->err, s->errlen);
		if (ret > 0) {
			ret = 0;	/* perf skips what is not a regular file */
			continue;
		}
		if (ret)
			break;
		scan_input(s, sub, m.len);
		ret = walk(s, mapped_bytes(&m), 0, m.len, true);
		stream_end(s);
		unmap_file(&m);
	}
	for (i = 0; i < n; i++)
		free(list[i]);
	free(list);
out_free:
	free(sub);
	return ret;
}

int perfdata__scan(const char *path, perfdata_jitdump_cb cb, void *arg,
		   struct perfdata_scan_stats *stats, char *err, size_t errlen)
{
	struct perfdata_scan_stats local;
	struct mapped m;
	struct scan s;
	bool is_dir;
	int ret;

	scan_init(&s, path, cb, arg, stats ? stats : &local, err, errlen);
	ret = map_file(path, &m, &is_dir, err, errlen);
	if (ret > 0 && is_dir) {
		ret = scan_dir(&s, path);
		scan_release(&s);
		return ret;
	}
	if (ret > 0)
		return fail_path(err, errlen, -EINVAL, path, "not a regular file");
	if (ret)
		return ret;
	scan_input(&s, path, m.len);
	ret = scan_buf(&s, mapped_bytes(&m), m.len);
	stream_end(&s);
	scan_release(&s);
	unmap_file(&m);
	return ret;
}

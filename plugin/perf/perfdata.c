/* SPDX-License-Identifier: MIT */
/* The perf.data reader (see perfdata.h): its files and directories, the file
 * header and its sections; the records are walked in perfdata-records.c. */
#define _GNU_SOURCE
#include "../lib/errf.h"
#include "perfdata-attrs.h"
#include "perfdata-records.h"
#include "perfdata-zstd.h"

#include <byteswap.h>
#include <elf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Open/mmap failures: strerror's capital is lowered to match our messages. */
static int fail_errno(char *err, size_t errlen, const char *name, const char *what, int errnum)
{
	char msg[128];

	snprintf(msg, sizeof(msg), "%s", strerror(errnum));
	if (msg[0] >= 'A' && msg[0] <= 'Z')
		msg[0] = (char)(msg[0] - 'A' + 'a');
	return errf(err, errlen, -errnum, "%s: %s: %s", name, what, msg);
}

/*
 * The feature sections follow the data section: one {offset, size} per set
 * bit of adds_features, in bit order. Feature bit's section into *off and
 * *size; false when the header has no such section or it lies outside the
 * file (a section cut short is left: the records are what matters).
 */
static bool feature_section(const struct scan *s, const uint8_t *buf, size_t len, uint64_t hsize,
			    uint64_t data_end, unsigned bit, uint64_t *off, uint64_t *size)
{
	uint64_t words[4], idx = 0;

	if (hsize < PERF_FILE_HDR_FEATURES || bit >= 256)
		return false;
	for (int i = 0; i < 4; i++)
		words[i] = get64(s, buf + PERF_FILE_FEATURES_OFF + 8 * i);
	if (!(words[bit / 64] >> (bit % 64) & 1))
		return false;
	for (unsigned w = 0; w < bit / 64; w++)
		idx += (uint64_t)__builtin_popcountll(words[w]);
	idx += (uint64_t)__builtin_popcountll(words[bit / 64] & ((1ULL << (bit % 64)) - 1));
	if (data_end > len || (len - data_end) / 16 <= idx)
		return false;
	*off = get64(s, buf + data_end + 16 * idx);
	*size = get64(s, buf + data_end + 16 * idx + 8);
	return *off <= len && *size <= len - *off;
}

static int read_build_ids(struct scan *s, const uint8_t *buf, size_t len, uint64_t hsize,
			  uint64_t data_end)
{
	uint64_t off, size;

	if (!feature_section(s, buf, len, hsize, data_end, HEADER_BUILD_ID, &off, &size))
		return 0;
	for (uint64_t e = off; e + PERF_EV_HDR_SIZE <= off + size;) {
		uint16_t rsize = get16(s, buf + e + 6);
		bool bad;
		int ret;

		if (rsize < PERF_EV_HDR_SIZE || rsize > off + size - e)
			break;
		if ((ret = scan__build_id_entry(s, buf + e, rsize, &bad)))
			return ret;
		if (bad)
			break;
		e += rsize;
	}
	return 0;
}

static int scan_buf(struct scan *s, const uint8_t *buf, size_t len)
{
	uint64_t magic, hsize, doff, dsize;
	int ret;

	if (len < PERF_PIPE_HDR_SIZE)
		return errf_at(s->err, s->errlen, -EINVAL, s->name, 0, "truncated header (%zu bytes)", len);
	memcpy(&magic, buf, sizeof(magic));
	if (magic == bswap_64(PERF_MAGIC2)) {
		s->swapped = true;
	} else if (magic != PERF_MAGIC2) {
		if (!memcmp(buf, "PERFFILE", 8))
			return errf_at(s->err, s->errlen, -ENOTSUP, s->name, 0,
				       "perf.data version 1 is not supported");
		return errf_at(s->err, s->errlen, -EINVAL, s->name, 0, "not a perf.data file (bad magic)");
	}
	s->st->swapped = s->swapped;

	hsize = get64(s, buf + 8);
	if (hsize == PERF_PIPE_HDR_SIZE) {
		s->st->pipe_format = 1;
		s->attrs_nr = s->ids_nr = 0;
		scan__layout_times(s);
		return scan__walk(s, buf, PERF_PIPE_HDR_SIZE, len, true);
	}
	if (hsize < PERF_FILE_HDR_MIN)
		return errf_at(s->err, s->errlen, -EINVAL, s->name, 8, "bad header size %" PRIu64, hsize);
	if (len < hsize)
		return errf_at(s->err, s->errlen, -EINVAL, s->name, 0, "truncated header (%zu of %" PRIu64 " bytes)",
			       len, hsize);
	doff = get64(s, buf + PERF_FILE_DATA_OFF);
	dsize = get64(s, buf + PERF_FILE_DATA_OFF + 8);
	if (doff > len || dsize > len - doff)
		return errf_at(s->err, s->errlen, -EINVAL, s->name, PERF_FILE_DATA_OFF,
			       "data section 0x%" PRIx64 "+0x%" PRIx64 " runs past end of file (0x%zx bytes)",
			       doff, dsize, len);
	if ((ret = scan__read_attrs(s, buf, len)))
		return ret;
	if ((ret = scan__walk(s, buf, doff, doff + dsize, false)))
		return ret;
	uint64_t aoff, asize;

	if (feature_section(s, buf, len, hsize, doff + dsize, HEADER_ARCH, &aoff, &asize))
		scan__arch_string(s, buf + aoff, asize);
	if (feature_section(s, buf, len, hsize, doff + dsize, HEADER_OSRELEASE, &aoff, &asize))
		scan__osrelease_string(s, buf + aoff, asize);
	return read_build_ids(s, buf, len, hsize, doff + dsize);
}

static void scan_init(struct scan *s, const char *name, const struct perfdata_visitor *v,
		      struct perfdata_scan_stats *stats, char *err, size_t errlen)
{
	*s = (struct scan){
		.name = name ? name : "perf.data",
		.v = v,
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
	free(s->ids);
	s->dctx = NULL;
	s->dbuf = NULL;
	s->ids = NULL;
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
		scan__inflate_reset(s);
}

int perfdata__walk_buf(const uint8_t *buf, size_t len, const char *name, const struct perfdata_visitor *v,
		       struct perfdata_scan_stats *stats, char *err, size_t errlen)
{
	struct perfdata_scan_stats local;
	struct scan s;
	int ret;

	scan_init(&s, name, v, stats ? stats : &local, err, errlen);
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
		ret = errf(s->err, s->errlen, -EINVAL, "%s: not a regular file", sub);
		goto out_free;
	}
	if (ret)
		goto out_free;
	scan_input(s, sub, m.len);
	s->mapped = m.addr, s->dropped = 0;
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
		s->mapped = m.addr, s->dropped = 0;
		ret = scan__walk(s, mapped_bytes(&m), 0, m.len, true);
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

int perfdata__scan_buf(const uint8_t *buf, size_t len, const char *name,
		       perfdata_jitdump_cb cb, void *arg,
		       struct perfdata_scan_stats *stats, char *err, size_t errlen)
{
	struct perfdata_visitor v = { .jitdump = cb, .arg = arg };

	return perfdata__walk_buf(buf, len, name, &v, stats, err, errlen);
}

int perfdata__scan(const char *path, perfdata_jitdump_cb cb, void *arg,
		   struct perfdata_scan_stats *stats, char *err, size_t errlen)
{
	struct perfdata_visitor v = { .jitdump = cb, .arg = arg };

	return perfdata__walk(path, &v, stats, err, errlen);
}

int perfdata__walk(const char *path, const struct perfdata_visitor *v,
		   struct perfdata_scan_stats *stats, char *err, size_t errlen)
{
	struct perfdata_scan_stats local;
	struct mapped m;
	struct scan s;
	bool is_dir;
	int ret;

	scan_init(&s, path, v, stats ? stats : &local, err, errlen);
	ret = map_file(path, &m, &is_dir, err, errlen);
	if (ret > 0 && is_dir) {
		ret = scan_dir(&s, path);
		scan_release(&s);
		return ret;
	}
	if (ret > 0)
		return errf(err, errlen, -EINVAL, "%s: not a regular file", path);
	if (ret)
		return ret;
	scan_input(&s, path, m.len);
	s.mapped = m.addr, s.dropped = 0;
	ret = scan_buf(&s, mapped_bytes(&m), m.len);
	stream_end(&s);
	scan_release(&s);
	unmap_file(&m);
	return ret;
}

uint16_t perfdata__arch_machine(const char *arch)
{
	/* uname -m's words (perf's util/env.c normalizes the same ones) */
	static const struct {
		const char *prefix;
		bool exact;
		uint16_t machine;
	} arches[] = {
		{ "x86_64", true, EM_X86_64 },
		{ "aarch64", true, EM_AARCH64 },
		{ "arm64", true, EM_AARCH64 },
		{ "s390", false, EM_S390 },	/* s390 and s390x */
		{ "riscv", false, EM_RISCV },	/* riscv64 and riscv32 */
		{ "ppc64", false, EM_PPC64 },	/* ppc64 and ppc64le */
		{ "ppc", true, EM_PPC },
		{ "loongarch64", true, 258 },	/* EM_LOONGARCH, newer than some elf.h */
		{ "mips", false, EM_MIPS },
		{ "sparc64", true, EM_SPARCV9 },
		{ "arm", false, EM_ARM },	/* armv7l, armv6l, ... (after arm64) */
	};
	static const char *const x86_32[] = { "i386", "i486", "i586", "i686" };

	for (size_t i = 0; i < sizeof(x86_32) / sizeof(x86_32[0]); i++)
		if (!strcmp(arch, x86_32[i]))
			return EM_386;
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++) {
		size_t n = strlen(arches[i].prefix);

		if (arches[i].exact ? !strcmp(arch, arches[i].prefix) : !strncmp(arch, arches[i].prefix, n))
			return arches[i].machine;
	}
	return EM_NONE;
}

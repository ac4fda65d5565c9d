/* SPDX-License-Identifier: MIT */
/* Scanner of perf.data files for the jit-<pid>.dump marker mappings. */
#define _GNU_SOURCE
#include "../lib/byteorder.h"
#include "../lib/errf.h"
#include "perfdata.h"

#include <byteswap.h>
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
#include <linux/perf_event.h>
#include <zstd.h>

/*
 * Layout facts, from tools/perf/Documentation/perf.data-file-format.txt and
 * include/uapi/linux/perf_event.h (declared here, not copied).
 */
#define PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" written little-endian */
#define PERF_PIPE_HDR_SIZE	16	/* magic, size */
#define PERF_FILE_HDR_MIN	72	/* magic .. event_types section, no feature bitmap */
#define PERF_FILE_ATTR_SIZE_OFF	16	/* u64 attr_size: one attr section entry */
#define PERF_FILE_ATTRS_OFF	24	/* struct perf_file_section attrs { u64 offset, size } */
#define PERF_FILE_DATA_OFF	40	/* struct perf_file_section data { u64 offset, size } */
#define PERF_FILE_FEATURES_OFF	72	/* adds_features: a 256-bit bitmap, as 4 u64 */
#define PERF_FILE_HDR_FEATURES	104	/* a header this long has the bitmap */
#define HEADER_BUILD_ID		2	/* feature bit: the build-id table */
#define PERF_EV_HDR_SIZE	8	/* u32 type, u16 misc, u16 size (size includes the header) */

#define PERF_RECORD_MMAP	1
#define PERF_RECORD_EXIT	4
#define PERF_RECORD_FORK	7
#define PERF_RECORD_MMAP2	10
#define PERF_RECORD_HEADER_ATTR	64	/* pipe mode: perf_event_attr, then u64 ids */
#define PERF_RECORD_HEADER_BUILD_ID 67	/* pipe mode: one build-id (as the feature section's) */
#define PERF_RECORD_COMPRESSED	81	/* header, zstd data to the end of the record */
#define PERF_RECORD_COMPRESSED2	83	/* header, u64 data_size, zstd data, padding to 8 (2025 perf) */

#define MMAP_PID_OFF		8	/* after the header: u32 pid, u32 tid */
#define MMAP_START_OFF		16	/* u64 start, len, pgoff */
#define MMAP_NAME_OFF		40	/* pid, tid, u64 start, len, pgoff */
#define MMAP2_ID_OFF		40	/* u32 maj, min, u64 ino, ino_generation; or u8 size, 3 pad, build id[20] */
#define MMAP2_PROT_OFF		64	/* u32 prot, flags */
#define MMAP2_NAME_OFF		72	/* ... + maj/min/ino/ino_generation or build id (24), prot, flags */
#define TASK_SIZE		32	/* header, u32 pid, ppid, tid, ptid, u64 time */
#define BUILD_ID_NAME_OFF	36	/* header, s32 pid, u8 build_id[20], u8 size, 3 pad */
#define BUILD_ID_MISC_SIZE	(1 << 15)	/* the record's size byte is valid (else 20) */

/* perf_event_attr, as far as the walk reads it. */
#define ATTR_SIZE_OFF		4	/* u32 size of the attr */
#define ATTR_SAMPLE_TYPE_OFF	24
#define ATTR_FLAGS_OFF		40	/* the bitfield: disabled is bit 0 */
#define ATTR_MIN_SIZE		48
#define ATTR_SAMPLE_ID_ALL	18	/* bit of the bitfield */
/* Attrs and ids kept to lay out the sample_id of non-sample records. */
#define MAX_ATTRS		256
#define MAX_ATTR_IDS		65536

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

/* Where a non-sample record's time is: u64 slots from the record's end (0: none). */
struct attr_layout {
	uint64_t sample_type;
	bool sample_id_all;
};

struct attr_id {
	uint64_t id;
	uint32_t attr;
};

struct scan {
	const char *name;
	const struct perfdata_visitor *v;
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

	/* The recording's attrs, for the sample_id of non-sample records. */
	struct attr_layout attrs[MAX_ATTRS];
	size_t attrs_nr;
	struct attr_id *ids;	/* sorted by id once ids_sorted */
	size_t ids_nr, ids_alloc;
	bool ids_sorted;
	int time_slot;		/* one layout for all: u64 slots of the time from the end; 0 none */
	bool by_identifier;	/* layouts differ: the last u64 (IDENTIFIER) names the attr */

	/* A file walked in its mapping: the pages behind the walk are given back
	 * as it goes, so memory does not grow with the recording. */
	const uint8_t *mapped;
	uint64_t dropped;	/* bytes of the mapping given back */
};

/* Pages given back this many bytes at a time. */
#define DROP_CHUNK (32u << 20)

/* Open/mmap failures: strerror's capital is lowered to match our messages. */
static int fail_errno(char *err, size_t errlen, const char *name, const char *what, int errnum)
{
	char msg[128];

	snprintf(msg, sizeof(msg), "%s", strerror(errnum));
	if (msg[0] >= 'A' && msg[0] <= 'Z')
		msg[0] = (char)(msg[0] - 'A' + 'a');
	return errf(err, errlen, -errnum, "%s: %s: %s", name, what, msg);
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

/* u64 slots of the time from the end of a sample_id laid out by sample_type; 0: no time. */
static int time_slot_of(const struct attr_layout *a)
{
	static const uint64_t after_time[] = {
		PERF_SAMPLE_ID, PERF_SAMPLE_STREAM_ID, PERF_SAMPLE_CPU, PERF_SAMPLE_IDENTIFIER,
	};
	int slot = 1;

	if (!a->sample_id_all || !(a->sample_type & PERF_SAMPLE_TIME))
		return 0;
	for (size_t i = 0; i < sizeof(after_time) / sizeof(after_time[0]); i++)
		slot += !!(a->sample_type & after_time[i]);
	return slot;
}

static int id_cmp(const void *a, const void *b)
{
	uint64_t x = ((const struct attr_id *)a)->id, y = ((const struct attr_id *)b)->id;

	return x < y ? -1 : x > y;
}

/* After the attrs changed: one time slot for all, or one per attr by IDENTIFIER. */
static void layout_times(struct scan *s)
{
	bool same = true, ident = s->attrs_nr > 0;

	s->time_slot = 0;
	s->by_identifier = false;
	for (size_t i = 0; i < s->attrs_nr; i++) {
		same &= time_slot_of(&s->attrs[i]) == time_slot_of(&s->attrs[0]);
		ident &= !!(s->attrs[i].sample_type & PERF_SAMPLE_IDENTIFIER);
	}
	if (s->attrs_nr && same)
		s->time_slot = time_slot_of(&s->attrs[0]);
	else if (ident)
		s->by_identifier = true;
	s->st->timed = s->time_slot || s->by_identifier;
	s->ids_sorted = false;
}

/* A perf_event_attr of len bytes at p, with its ids; false when it cannot be kept. */
static bool add_attr(struct scan *s, const uint8_t *p, size_t len)
{
	struct attr_layout *a;
	uint64_t flags;

	if (len < ATTR_MIN_SIZE || s->attrs_nr == MAX_ATTRS)
		return false;
	a = &s->attrs[s->attrs_nr++];
	a->sample_type = get64(s, p + ATTR_SAMPLE_TYPE_OFF);
	flags = get64(s, p + ATTR_FLAGS_OFF);
	/* A bitfield: the first member is the lowest bit in a little-endian
	 * writer's u64 and the highest in a big-endian one's. */
	a->sample_id_all = s->swapped ^ (__BYTE_ORDER__ == __ORDER_BIG_ENDIAN__) ?
			   (flags >> (63 - ATTR_SAMPLE_ID_ALL)) & 1 : (flags >> ATTR_SAMPLE_ID_ALL) & 1;
	return true;
}

static void add_attr_id(struct scan *s, uint64_t id)
{
	if (s->ids_nr == s->ids_alloc) {
		size_t alloc = s->ids_alloc ? s->ids_alloc * 2 : 64;
		struct attr_id *v = alloc <= MAX_ATTR_IDS ? reallocarray(s->ids, alloc, sizeof(*v)) : NULL;

		if (!v)
			return;
		s->ids = v;
		s->ids_alloc = alloc;
	}
	s->ids[s->ids_nr++] = (struct attr_id){ id, (uint32_t)(s->attrs_nr - 1) };
	s->ids_sorted = false;
}

/* The sample_id time of a non-sample record whose body takes min bytes. */
static bool record_time(struct scan *s, const uint8_t *p, size_t size, size_t min, uint64_t *time)
{
	int slot = s->time_slot;

	if (s->by_identifier) {
		struct attr_id key, *hit;

		if (size < min + 8)
			return false;
		if (!s->ids_sorted) {
			qsort(s->ids, s->ids_nr, sizeof(*s->ids), id_cmp);
			s->ids_sorted = true;
		}
		key.id = get64(s, p + size - 8);
		hit = s->ids_nr ? bsearch(&key, s->ids, s->ids_nr, sizeof(*s->ids), id_cmp) : NULL;
		slot = hit ? time_slot_of(&s->attrs[hit->attr]) : 0;
	}
	if (!slot || size < min + 8 * (size_t)slot)
		return false;
	*time = get64(s, p + size - 8 * (size_t)slot);
	return true;
}

static int mmap_record(struct scan *s, const uint8_t *p, size_t size, bool mmap2)
{
	size_t name_off = mmap2 ? MMAP2_NAME_OFF : MMAP_NAME_OFF;
	const char *name = (const char *)p + name_off;
	const char *nul;
	int ret = 0;

	s->st->mmaps++;
	/* The name is NUL-padded to 8 bytes and may be followed by sample_id fields. */
	if (size <= name_off || !(nul = memchr(name, '\0', size - name_off))) {
		s->st->malformed++;
		return 0;
	}
	if (s->v->mmap) {
		struct perfdata_mmap m = {
			.pid = get32(s, p + MMAP_PID_OFF), .tid = get32(s, p + MMAP_PID_OFF + 4),
			.start = get64(s, p + MMAP_START_OFF), .len = get64(s, p + MMAP_START_OFF + 8),
			.pgoff = get64(s, p + MMAP_START_OFF + 16), .mmap2 = mmap2,
			.misc = get16(s, p + 4), .filename = name,
		};
		size_t body = (size_t)(nul - (const char *)p) + 1;

		m.has_time = record_time(s, p, size, body, &m.time);
		if (mmap2) {
			m.prot = get32(s, p + MMAP2_PROT_OFF);
			m.flags = get32(s, p + MMAP2_PROT_OFF + 4);
			if (m.misc & PERF_RECORD_MISC_MMAP_BUILD_ID) {
				m.build_id_size = p[MMAP2_ID_OFF] <= sizeof(m.build_id) ? p[MMAP2_ID_OFF] :
						  sizeof(m.build_id);
				memcpy(m.build_id, p + MMAP2_ID_OFF + 4, m.build_id_size);
			} else {
				m.maj = get32(s, p + MMAP2_ID_OFF);
				m.min = get32(s, p + MMAP2_ID_OFF + 4);
				m.ino = get64(s, p + MMAP2_ID_OFF + 8);
				m.ino_generation = get64(s, p + MMAP2_ID_OFF + 16);
			}
		} else {
			/* perf: an MMAP record is executable unless marked as data. */
			m.prot = m.misc & PERF_RECORD_MISC_MMAP_DATA ? PROT_READ : PROT_READ | PROT_EXEC;
		}
		if ((ret = s->v->mmap(s->v->arg, &m)))
			return ret;
	}
	if (!perfdata__is_jitdump_name(name, (size_t)(nul - name)))
		return 0;
	s->st->markers++;
	return s->v->jitdump ? s->v->jitdump(s->v->arg, get32(s, p + MMAP_PID_OFF), name) : 0;
}

static int task_record(struct scan *s, const uint8_t *p, size_t size, bool exit)
{
	struct perfdata_task t;

	if (size < TASK_SIZE) {
		s->st->malformed++;
		return 0;
	}
	s->st->tasks++;
	if (!s->v->task)
		return 0;
	t = (struct perfdata_task){
		.exit = exit, .misc = get16(s, p + 4),
		.pid = get32(s, p + 8), .ppid = get32(s, p + 12),
		.tid = get32(s, p + 16), .ptid = get32(s, p + 20),
	};
	if (!record_time(s, p, size, TASK_SIZE, &t.time))
		t.time = get64(s, p + 24);
	return s->v->task(s->v->arg, &t);
}

/* One build-id entry of size bytes at p (a record header first); false when malformed. */
static int build_id_entry(struct scan *s, const uint8_t *p, size_t size, bool *bad)
{
	struct perfdata_build_id b;
	const char *name = (const char *)p + BUILD_ID_NAME_OFF;
	uint16_t misc = get16(s, p + 4);

	*bad = size <= BUILD_ID_NAME_OFF || !memchr(name, '\0', size - BUILD_ID_NAME_OFF);
	if (*bad)
		return 0;
	s->st->build_ids++;
	if (!s->v->build_id)
		return 0;
	b = (struct perfdata_build_id){ .misc = misc, .pid = (int32_t)get32(s, p + 8), .filename = name };
	memcpy(b.id, p + 12, sizeof(b.id));
	b.size = misc & BUILD_ID_MISC_SIZE ? p[32] : sizeof(b.id);
	if (b.size > sizeof(b.id))
		b.size = sizeof(b.id);
	return s->v->build_id(s->v->arg, &b);
}

/* Pipe mode: HEADER_ATTR carries what the file header's attr section does. */
static int attr_record(struct scan *s, const uint8_t *p, size_t size)
{
	uint32_t alen;

	if (size < PERF_EV_HDR_SIZE + ATTR_MIN_SIZE)
		return 0;
	alen = get32(s, p + PERF_EV_HDR_SIZE + ATTR_SIZE_OFF);
	if (alen < ATTR_MIN_SIZE || alen > size - PERF_EV_HDR_SIZE ||
	    !add_attr(s, p + PERF_EV_HDR_SIZE, alen))
		return 0;
	for (size_t off = PERF_EV_HDR_SIZE + alen; off + 8 <= size; off += 8)
		add_attr_id(s, get64(s, p + off));
	layout_times(s);
	return 0;
}

static int inflate_payload(struct scan *s, const uint8_t *src, size_t len);

/* One complete record of size bytes (>= 8) at p; nested: it came out of a COMPRESSED one. */
static int record(struct scan *s, const uint8_t *p, size_t size, bool nested)
{
	uint64_t data_size;

	s->st->records++;
	switch (get32(s, p)) {
	case PERF_RECORD_MMAP:
		return mmap_record(s, p, size, false);
	case PERF_RECORD_MMAP2:
		return mmap_record(s, p, size, true);
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT:
		return task_record(s, p, size, get32(s, p) == PERF_RECORD_EXIT);
	case PERF_RECORD_HEADER_ATTR:
		return attr_record(s, p, size);
	case PERF_RECORD_HEADER_BUILD_ID: {
		bool bad;
		int ret = build_id_entry(s, p, size, &bad);

		s->st->malformed += bad;
		return ret;
	}
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
			return errf_at(s->err, s->errlen, -EINVAL, s->name, off,
				       "record header runs past end of data section (%" PRIu64 " bytes left)",
				       end - off);
		}
		size = get16(s, buf + off + 6);
		if (size < PERF_EV_HDR_SIZE)
			return errf_at(s->err, s->errlen, -EINVAL, s->name, off,
				       "record size %" PRIu32 " < 8 (type %" PRIu32 ")", size, get32(s, buf + off));
		if (size > end - off) {
			if (pipe) {
				s->st->truncated = 1;
				return 0;
			}
			return errf_at(s->err, s->errlen, -EINVAL, s->name, off,
				       "record of size %" PRIu32 " runs past end of data section at 0x%" PRIx64,
				       size, end);
		}
		ret = record(s, buf + off, size, false);
		if (ret)
			return ret;
		off += size;
		if (buf == s->mapped && off - s->dropped >= 2 * (uint64_t)DROP_CHUNK) {
			/* read-only and private: the pages come back from the file if needed */
			madvise((void *)(buf + s->dropped), DROP_CHUNK, MADV_DONTNEED);
			s->dropped += DROP_CHUNK;
		}
	}
	return 0;
}

/* The file header's attr section: the layout of every record's sample_id. */
static void read_attrs(struct scan *s, const uint8_t *buf, size_t len, uint64_t hsize)
{
	uint64_t asize = get64(s, buf + PERF_FILE_ATTR_SIZE_OFF);
	uint64_t off = get64(s, buf + PERF_FILE_ATTRS_OFF), size = get64(s, buf + PERF_FILE_ATTRS_OFF + 8);

	s->attrs_nr = s->ids_nr = 0;
	/* Each entry: a perf_event_attr, then the section {offset, size} of its u64 ids. */
	if (asize < ATTR_MIN_SIZE + 16 || off > len || size > len - off || hsize < PERF_FILE_DATA_OFF) {
		layout_times(s);
		return;
	}
	for (uint64_t e = off; e + asize <= off + size; e += asize) {
		uint64_t ioff = get64(s, buf + e + asize - 16), isize = get64(s, buf + e + asize - 8);

		if (!add_attr(s, buf + e, (size_t)(asize - 16)))
			break;
		if (ioff <= len && isize <= len - ioff)
			for (uint64_t i = 0; i + 8 <= isize; i += 8)
				add_attr_id(s, get64(s, buf + ioff + i));
	}
	layout_times(s);
}

/*
 * The feature sections follow the data section: one {offset, size} per set
 * bit of adds_features, in bit order. Only HEADER_BUILD_ID is read; a section
 * that is cut short or malformed is left, the records are what matters.
 */
static int read_build_ids(struct scan *s, const uint8_t *buf, size_t len, uint64_t hsize,
			  uint64_t data_end)
{
	uint64_t words[4], idx = 0, off, size;

	if (hsize < PERF_FILE_HDR_FEATURES)
		return 0;
	for (int i = 0; i < 4; i++)
		words[i] = get64(s, buf + PERF_FILE_FEATURES_OFF + 8 * i);
	if (!(words[0] >> HEADER_BUILD_ID & 1))
		return 0;
	idx = (uint64_t)__builtin_popcountll(words[0] & ((1ULL << HEADER_BUILD_ID) - 1));
	if (data_end > len || (len - data_end) / 16 <= idx)
		return 0;
	off = get64(s, buf + data_end + 16 * idx);
	size = get64(s, buf + data_end + 16 * idx + 8);
	if (off > len || size > len - off)
		return 0;
	for (uint64_t e = off; e + PERF_EV_HDR_SIZE <= off + size;) {
		uint16_t rsize = get16(s, buf + e + 6);
		bool bad;
		int ret;

		if (rsize < PERF_EV_HDR_SIZE || rsize > off + size - e)
			break;
		if ((ret = build_id_entry(s, buf + e, rsize, &bad)))
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
		layout_times(s);
		return walk(s, buf, PERF_PIPE_HDR_SIZE, len, true);
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
	read_attrs(s, buf, len, hsize);
	if ((ret = walk(s, buf, doff, doff + dsize, false)))
		return ret;
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
		inflate_reset(s);
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

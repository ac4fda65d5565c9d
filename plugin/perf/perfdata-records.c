// SPDX-License-Identifier: MIT
/* perf.data's records walked, each to its callback (see perfdata-records.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <string.h>
#include <sys/mman.h>
#include <linux/perf_event.h>

#include "../lib/errf.h"
#include "perfdata-attrs.h"
#include "perfdata-records.h"
#include "perfdata-zstd.h"

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

		m.has_time = scan__record_time(s, p, size, body, &m.time);
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
	if (!scan__record_time(s, p, size, TASK_SIZE, &t.time))
		t.time = get64(s, p + 24);
	return s->v->task(s->v->arg, &t);
}

int scan__build_id_entry(struct scan *s, const uint8_t *p, size_t size, bool *bad)
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

/* A perf_header_string of size bytes at p into out (outlen bytes) when it is
 * a word of letters, digits and the bytes of also; else out is left. */
static void header_word(struct scan *s, const uint8_t *p, uint64_t size, char *out, size_t outlen,
			const char *also)
{
	uint64_t n = 0;

	if (size < 4)
		return;
	uint64_t len = get32(s, p);

	p += 4, size -= 4;
	if (len > size)
		len = size;
	while (n < len && p[n] && n < outlen - 1) {
		if (!(p[n] >= 'a' && p[n] <= 'z') && !(p[n] >= '0' && p[n] <= '9') &&
		    !(p[n] >= 'A' && p[n] <= 'Z') && !strchr(also, p[n]))
			return;
		n++;
	}
	if (n == 0 || (n < len && p[n]))
		return;
	memcpy(out, p, n);
	out[n] = '\0';
}

void scan__arch_string(struct scan *s, const uint8_t *p, uint64_t size)
{
	/* uname -m is a word like x86_64 or aarch64 */
	header_word(s, p, size, s->st->arch, sizeof(s->st->arch), "_");
}

void scan__osrelease_string(struct scan *s, const uint8_t *p, uint64_t size)
{
	/* uname -r: 6.1.0-28-amd64, 6.18.44-fc-v669, 5.15.0+ */
	header_word(s, p, size, s->st->osrelease, sizeof(s->st->osrelease), "._-+~");
}

int scan__record(struct scan *s, const uint8_t *p, size_t size, bool nested)
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
		return scan__attr_record(s, p, size);
	case PERF_RECORD_HEADER_BUILD_ID: {
		bool bad;
		int ret = scan__build_id_entry(s, p, size, &bad);

		s->st->malformed += bad;
		return ret;
	}
	case PERF_RECORD_HEADER_FEATURE:
		if (size >= PERF_EV_HDR_SIZE + 8 && get64(s, p + PERF_EV_HDR_SIZE) == HEADER_ARCH)
			scan__arch_string(s, p + PERF_EV_HDR_SIZE + 8, size - PERF_EV_HDR_SIZE - 8);
		else if (size >= PERF_EV_HDR_SIZE + 8 && get64(s, p + PERF_EV_HDR_SIZE) == HEADER_OSRELEASE)
			scan__osrelease_string(s, p + PERF_EV_HDR_SIZE + 8, size - PERF_EV_HDR_SIZE - 8);
		return 0;
	case PERF_RECORD_COMPRESSED:
		s->st->compressed++;
		/* perf never compresses compressed data; do not recurse on hostile input. */
		if (nested) {
			s->st->compressed_failed++;
			return 0;
		}
		return scan__inflate(s, p + PERF_EV_HDR_SIZE, size - PERF_EV_HDR_SIZE, scan__record);
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
		return scan__inflate(s, p + PERF_EV_HDR_SIZE + 8, (size_t)data_size, scan__record);
	default:
		return 0;
	}
}

int scan__walk(struct scan *s, const uint8_t *buf, uint64_t off, uint64_t end, bool pipe)
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
		ret = scan__record(s, buf + off, size, false);
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

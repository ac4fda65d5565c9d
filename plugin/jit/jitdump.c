/* SPDX-License-Identifier: MIT */
/* Reader of jit-<pid>.dump files: bounds-checked, either byte order, incremental. */
#define _FILE_OFFSET_BITS 64

#include "../lib/byteorder.h"
#include "../lib/errf.h"
#include "jitdump.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* One pread per chunk; a V8 dump (~2 MB) takes two or three. */
#define READ_CHUNK	((size_t)1 << 20)

static uint32_t jd_u32(const struct jitdump *jd, const uint8_t *p)
{
	return hb_load32(p, jd->swapped);
}

static uint64_t jd_u64(const struct jitdump *jd, const uint8_t *p)
{
	return hb_load64(p, jd->swapped);
}

/*
 * A malformed record: the reader cannot know where the next record starts, so
 * the error is kept and every later jitdump__update repeats it.
 */
static int __attribute__((format(printf, 5, 6)))
refuse_record(struct jitdump *jd, uint64_t off, char *err, size_t errlen,
	const char *fmt, ...)
{
	char body[256], *msg;
	size_t len;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(body, sizeof(body), fmt, ap);
	va_end(ap);

	len = strlen(jd->path) + strlen(body) + 32;
	msg = malloc(len);
	if (msg)
		errf_at(msg, len, 0, jd->path, off, "%s", body);
	jd->error = -EINVAL;
	free(jd->error_msg);
	jd->error_msg = msg;
	return errf_at(err, errlen, -EINVAL, jd->path, off, "%s", body);
}

/* pread until len bytes or end of file; returns the bytes read or -errno. */
static ssize_t read_full(int fd, uint8_t *buf, size_t len, uint64_t off)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = pread(fd, buf + got, len - got, (off_t)(off + got));

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (n == 0)
			break;
		got += n;
	}
	return got;
}

static void debug_free(struct jitdump_debug_entry *debug, size_t nr)
{
	for (size_t i = 0; i < nr; i++)
		free(debug[i].file);
	free(debug);
}

static void load_release(struct jitdump_load *load)
{
	debug_free(load->debug, load->debug_nr);
}

/* Arena chunks: bytes are handed out in order and freed all at once. */
#define ARENA_CHUNK ((size_t)1 << 20)

struct jitdump_chunk {
	struct jitdump_chunk *others;	/* the other chunks */
	size_t filled, cap;
	uint8_t bytes[];
};

/* n bytes copied from p into the arena, or NULL when out of memory. */
static void *arena_dup(struct jitdump *jd, const void *p, size_t n)
{
	struct jitdump_chunk *c = jd->arena;
	void *q;

	if (!c || c->cap - c->filled < n) {
		/* Big blobs get a chunk of their own; the current one stays in use. */
		size_t cap = n > ARENA_CHUNK / 4 ? n : ARENA_CHUNK;

		if (cap > SIZE_MAX - sizeof(*c) || !(c = malloc(sizeof(*c) + cap)))
			return NULL;
		c->filled = 0;
		c->cap = cap;
		if (n > ARENA_CHUNK / 4 && jd->arena) {
			c->others = jd->arena->others;
			jd->arena->others = c;
		} else {
			c->others = jd->arena;
			jd->arena = c;
		}
	}
	q = c->bytes + c->filled;
	memcpy(q, p, n);
	c->filled += n;
	return q;
}

/* The index of the latest load of code_index, or -1. */
static long index_find(const struct jitdump *jd, uint64_t code_index)
{
	return idx_table_find(&jd->idx, hash_u64(HASH_SEED, code_index), NULL, NULL, NULL);
}

/* Make code_index's latest load load_idx. 0 or -ENOMEM. */
static int index_put(struct jitdump *jd, uint64_t code_index, size_t load_idx)
{
	return idx_table_set(&jd->idx, hash_u64(HASH_SEED, code_index), NULL, NULL, NULL, (uint32_t)load_idx);
}

static int grow_loads(struct jitdump *jd)
{
	struct jitdump_load *loads;
	size_t alloc;

	if (jd->nr < jd->alloc)
		return 0;
	alloc = jd->alloc ? jd->alloc * 2 : 64;
	/* moved_from is an int32_t index. */
	if (jd->alloc > INT32_MAX || alloc > SIZE_MAX / sizeof(*loads))
		return -ENOMEM;
	loads = realloc(jd->loads, alloc * sizeof(*loads));
	if (!loads)
		return -ENOMEM;
	jd->loads = loads;
	jd->alloc = alloc;
	return 0;
}

static void *dup_bytes(const void *p, size_t len)
{
	void *q = malloc(len);

	if (q)
		memcpy(q, p, len);
	return q;
}

/* Whether code of size bytes at addr passes 2^64: counted, the first's offset kept. */
static bool wraps(struct jitdump *jd, uint64_t addr, uint64_t size, uint64_t off)
{
	if (!size || addr + size - 1 >= addr)
		return false;
	if (!jd->wrapping++)
		jd->first_wrapping_off = off;
	return true;
}

/* JIT_CODE_LOAD. r holds the whole record (ts bytes). */
static int parse_load(struct jitdump *jd, const uint8_t *r, uint32_t ts,
		      uint64_t off, char *err, size_t errlen)
{
	struct jitdump_load *load;
	const uint8_t *name, *nul;
	uint64_t code_size, room;
	char *name_copy;
	uint8_t *code = NULL;

	if (ts < JITDUMP_LOAD_NAME)
		return refuse_record(jd, off, err, errlen,
			       "code load total_size %" PRIu32 " < %d", ts, JITDUMP_LOAD_NAME);
	name = r + JITDUMP_LOAD_NAME;
	nul = memchr(name, 0, ts - JITDUMP_LOAD_NAME);
	if (!nul)
		return refuse_record(jd, off, err, errlen,
			       "code load name is not nul-terminated within total_size %" PRIu32,
			       ts);
	/* perf takes the code from the end of the record, so anything between
	 * the name and the code is ignored; the code must not overlap the name. */
	room = ts - JITDUMP_LOAD_NAME - (uint64_t)(nul - name) - 1;
	code_size = jd_u64(jd, r + JITDUMP_LOAD_CODE_SIZE);
	if (code_size > room)
		return refuse_record(jd, off, err, errlen,
			       "code load code_size %" PRIu64 " does not fit in total_size %" PRIu32
			       " (%" PRIu64 " bytes after the name)", code_size, ts, room);

	/* code at the top of the address space running past it: no address of
	 * the process holds it (a writer's bug or a forged dump); its DEBUG_INFO
	 * and UNWINDING_INFO go with it */
	if (wraps(jd, jd_u64(jd, r + JITDUMP_LOAD_CODE_ADDR), code_size, off)) {
		debug_free(jd->pending_debug, jd->pending_debug_nr);
		jd->pending_debug = NULL;
		jd->pending_debug_nr = 0;
		jd->pending_unwind_mapped_size = 0;
		return 0;
	}
	if (grow_loads(jd) || (jd->idx_built && index_put(jd, jd_u64(jd, r + JITDUMP_LOAD_CODE_INDEX), jd->nr)))
		return errf_at(err, errlen, -ENOMEM, jd->path, off, "out of memory for %zu loads", jd->nr + 1);
	name_copy = arena_dup(jd, name, nul - name + 1);
	if (name_copy && code_size)
		code = arena_dup(jd, r + ts - code_size, code_size);
	/* What was copied stays in the arena until close: a retry copies again. */
	if (!name_copy || (code_size && !code))
		return errf_at(err, errlen, -ENOMEM, jd->path, off,
			       "out of memory for a %" PRIu64 "-byte code load", code_size);

	load = &jd->loads[jd->nr++];
	*load = (struct jitdump_load){
		.timestamp = jd_u64(jd, r + JITDUMP_REC_TIMESTAMP),
		.pid = jd_u32(jd, r + JITDUMP_LOAD_PID),
		.tid = jd_u32(jd, r + JITDUMP_LOAD_TID),
		.vma = jd_u64(jd, r + JITDUMP_LOAD_VMA),
		.code_addr = jd_u64(jd, r + JITDUMP_LOAD_CODE_ADDR),
		.code_size = code_size,
		.code_index = jd_u64(jd, r + JITDUMP_LOAD_CODE_INDEX),
		.name = name_copy,
		.code = code,
		/* DEBUG_INFO and UNWINDING_INFO precede the LOAD they describe
		 * and apply to that one only (JITDUMP.md "Records"). */
		.debug = jd->pending_debug,
		.debug_nr = jd->pending_debug_nr,
		.unwind_mapped_size = jd->pending_unwind_mapped_size,
		.file_offset = off,
		.moved_from = -1,
	};
	jd->pending_debug = NULL;
	jd->pending_debug_nr = 0;
	jd->pending_unwind_mapped_size = 0;
	return 1;
}

/*
 * JIT_CODE_MOVE: the code of an earlier LOAD (found by
 * code_index, as perf does) now also lives at new_code_addr.
 */
static int parse_move(struct jitdump *jd, const uint8_t *r, uint32_t ts,
		      uint64_t off, char *err, size_t errlen)
{
	const struct jitdump_load *from;
	struct jitdump_load *load;
	uint64_t code_index;
	long i;

	if (ts < JITDUMP_MOVE_SIZE)
		return refuse_record(jd, off, err, errlen,
			       "code move total_size %" PRIu32 " < %d", ts, JITDUMP_MOVE_SIZE);
	code_index = jd_u64(jd, r + JITDUMP_MOVE_CODE_INDEX);
	if (!jd->idx_built) {
		/* The first move: index every load so far, later ones win. */
		for (size_t k = 0; k < jd->nr; k++)
			if (index_put(jd, jd->loads[k].code_index, k))
				return errf_at(err, errlen, -ENOMEM, jd->path, off,
					       "out of memory for the code_index index");
		jd->idx_built = true;
	}
	/* The latest holder of code_index: a LOAD, or the MOVE that copied it. */
	i = index_find(jd, code_index);
	if (i < 0) {
		jd->orphan_moves++;
		return 0;
	}
	if (wraps(jd, jd_u64(jd, r + JITDUMP_MOVE_NEW_CODE_ADDR), jd->loads[i].code_size, off))
		return 0;
	if (grow_loads(jd) || index_put(jd, code_index, jd->nr))
		return errf_at(err, errlen, -ENOMEM, jd->path, off, "out of memory for %zu loads", jd->nr + 1);
	from = &jd->loads[i];

	load = &jd->loads[jd->nr++];
	*load = (struct jitdump_load){
		.timestamp = jd_u64(jd, r + JITDUMP_REC_TIMESTAMP),
		.pid = jd_u32(jd, r + JITDUMP_MOVE_PID),
		.tid = jd_u32(jd, r + JITDUMP_MOVE_TID),
		.vma = jd_u64(jd, r + JITDUMP_MOVE_VMA),
		.code_addr = jd_u64(jd, r + JITDUMP_MOVE_NEW_CODE_ADDR),
		.code_size = from->code_size,
		.code_index = code_index,
		/* The same code at another address: shared, not copied (a dump of
		 * many moves of big code would otherwise need memory per move). */
		.name = from->name,
		.code = from->code,
		.unwind_mapped_size = from->unwind_mapped_size,
		.file_offset = off,
		.moved_from = (int32_t)i,
	};
	return 1;
}

/*
 * JIT_CODE_DEBUG_INFO: nr_entry entries, walked one after the
 * other because names have no length; nr_entry, not total_size, says how many
 * (writers may pad the record to 8 bytes). Kept until the next LOAD.
 */
static int parse_debug_info(struct jitdump *jd, const uint8_t *r, uint32_t ts,
			    uint64_t off, char *err, size_t errlen)
{
	struct jitdump_debug_entry *debug = NULL;
	const uint8_t *p = r + JITDUMP_DEBUG_ENTRIES, *end = r + ts;
	uint64_t nr;

	if (ts < JITDUMP_DEBUG_ENTRIES)
		return refuse_record(jd, off, err, errlen,
			       "debug info total_size %" PRIu32 " < %d", ts, JITDUMP_DEBUG_ENTRIES);
	nr = jd_u64(jd, r + JITDUMP_DEBUG_NR_ENTRY);
	/* Bounds the allocation by the record, which is already in memory. */
	if (nr > (uint64_t)(ts - JITDUMP_DEBUG_ENTRIES) / JITDUMP_ENTRY_MIN_SIZE)
		return refuse_record(jd, off, err, errlen,
			       "debug info nr_entry %" PRIu64 " cannot fit in total_size %" PRIu32,
			       nr, ts);
	if (nr)
		debug = calloc(nr, sizeof(*debug));
	if (nr && !debug)
		return errf_at(err, errlen, -ENOMEM, jd->path, off,
			       "out of memory for %" PRIu64 " debug entries", nr);
	for (uint64_t i = 0; i < nr; i++) {
		uint64_t entry_off = off + (uint64_t)(p - r);
		const uint8_t *nul;

		nul = end - p > JITDUMP_ENTRY_NAME ? memchr(p + JITDUMP_ENTRY_NAME, 0, end - p - JITDUMP_ENTRY_NAME) : NULL;
		if (!nul) {
			debug_free(debug, i);
			return refuse_record(jd, entry_off, err, errlen,
				       "debug info entry %" PRIu64 " of %" PRIu64
				       " runs past the record end (total_size %" PRIu32 ")",
				       i, nr, ts);
		}
		debug[i].addr = jd_u64(jd, p + JITDUMP_ENTRY_ADDR);
		debug[i].line = jd_u32(jd, p + JITDUMP_ENTRY_LINE);
		debug[i].discrim = jd_u32(jd, p + JITDUMP_ENTRY_DISCRIM);
		/* "\xff" (same file as the previous entry) is kept as is. */
		debug[i].file = dup_bytes(p + JITDUMP_ENTRY_NAME, nul - (p + JITDUMP_ENTRY_NAME) + 1);
		if (!debug[i].file) {
			debug_free(debug, i);
			return errf_at(err, errlen, -ENOMEM, jd->path, entry_off,
				       "out of memory for a debug entry");
		}
		p = nul + 1;
	}
	/* Two DEBUG_INFO in a row: only the last one precedes the LOAD. */
	debug_free(jd->pending_debug, jd->pending_debug_nr);
	jd->pending_debug = debug;
	jd->pending_debug_nr = nr;
	jd->debug_records++;
	return 0;
}

/* JIT_CODE_UNWINDING_INFO: only mapped_size matters here. */
static int parse_unwinding_info(struct jitdump *jd, const uint8_t *r, uint32_t ts,
				uint64_t off, char *err, size_t errlen)
{
	if (ts < JITDUMP_UNWIND_FIXED_SIZE)
		return refuse_record(jd, off, err, errlen,
			       "unwinding info total_size %" PRIu32 " < %d", ts, JITDUMP_UNWIND_FIXED_SIZE);
	jd->pending_unwind_mapped_size = jd_u64(jd, r + JITDUMP_UNWIND_MAPPED_SIZE);
	jd->unwind_records++;
	return 0;
}

/* Returns the number of loads added (0 or 1) or a negative errno. */
static int parse_record(struct jitdump *jd, const uint8_t *r, uint32_t ts,
			uint64_t off, char *err, size_t errlen)
{
	switch (jd_u32(jd, r + JITDUMP_REC_ID)) {
	case JITDUMP_CODE_LOAD:
		return parse_load(jd, r, ts, off, err, errlen);
	case JITDUMP_CODE_MOVE:
		return parse_move(jd, r, ts, off, err, errlen);
	case JITDUMP_CODE_DEBUG_INFO:
		return parse_debug_info(jd, r, ts, off, err, errlen);
	case JITDUMP_CODE_CLOSE:
		jd->closed = true;
		return 0;
	case JITDUMP_CODE_UNWINDING_INFO:
		return parse_unwinding_info(jd, r, ts, off, err, errlen);
	default:
		/* Record types newer than this reader are skipped by total_size:
		 * the format promises that every record carries it. */
		jd->unknown_records++;
		return 0;
	}
}

/* Up to want bytes at off into *buf (grown to want bytes, *cap of them
 * held): the bytes read, fewer at the end of the file, or a negative errno
 * with the message in err. */
static ssize_t read_chunk(struct jitdump *jd, uint8_t **buf, size_t *cap, size_t want, uint64_t off, char *err,
			  size_t errlen)
{
	ssize_t n;

	if (want > *cap) {
		uint8_t *p = realloc(*buf, want);

		if (!p)
			return errf_at(err, errlen, -ENOMEM, jd->path, off, "out of memory for a %zu-byte read", want);
		*buf = p;
		*cap = want;
	}
	n = read_full(jd->fd, *buf, want, off);
	if (n < 0)
		return errf_at(err, errlen, (int)n, jd->path, off, "read: %s", strerror((int)-n));
	return n;
}

/*
 * The whole records of buf[0, n), read from file offset off of a file of
 * size bytes, from *pos on: each parsed (new loads added to *new_loads),
 * *pos past it. A record the chunk holds only in part: *need its size, when
 * the file has it all. 0, 1 when the file ends inside a record (one still
 * being written, not an error), or a negative errno (corrupt).
 */
static int parse_chunk(struct jitdump *jd, const uint8_t *buf, size_t n, uint64_t off, uint64_t size, size_t *pos,
		       size_t *need, long *new_loads, char *err, size_t errlen)
{
	while (n - *pos >= JITDUMP_REC_PREFIX_SIZE) {
		const uint8_t *r = buf + *pos;
		uint32_t ts = jd_u32(jd, r + JITDUMP_REC_TOTAL_SIZE);
		int rc;

		if (ts < JITDUMP_REC_PREFIX_SIZE)
			return refuse_record(jd, off + *pos, err, errlen, "record total_size %" PRIu32 " < %d", ts,
				       JITDUMP_REC_PREFIX_SIZE);
		if (ts > n - *pos) {
			if (ts > size - (off + *pos))
				return 1;
			*need = ts;
			return 0;
		}
		rc = parse_record(jd, r, ts, off + *pos, err, errlen);
		if (rc < 0)
			return rc;
		*new_loads += rc;
		*pos += ts;
		jd->parsed_off = off + *pos;
	}
	return 0;
}

int jitdump__update(struct jitdump *jd, char *err, size_t errlen)
{
	uint64_t size, off;
	uint8_t *buf = NULL;
	size_t cap = 0, need = 0;
	long new_loads = 0;
	struct stat st;
	int ret = 0;

	if (jd->error)
		return errf(err, errlen, jd->error, "%s", jd->error_msg ? jd->error_msg : jd->path);
	if (fstat(jd->fd, &st) < 0)
		return errf_at(err, errlen, -errno, jd->path, jd->parsed_off, "cannot stat: %s", strerror(errno));
	size = st.st_size > 0 ? (uint64_t)st.st_size : 0;
	jd->file_size = size;
	/* Records start at the header's total_size, which may be more than 40. */
	if (jd->parsed_off < jd->header_size) {
		if (size < jd->header_size)
			return 0;
		jd->parsed_off = jd->header_size;
	}

	off = jd->parsed_off;
	while (size > off && size - off >= JITDUMP_REC_PREFIX_SIZE) {
		uint64_t avail = size - off;
		size_t want = avail < READ_CHUNK ? (size_t)avail : READ_CHUNK, pos = 0;
		ssize_t n;

		/* need <= avail: a record larger than a chunk, known to be
		 * complete in the file, so the buffer is bounded by real data. */
		if (need > want)
			want = need;
		need = 0;
		n = read_chunk(jd, &buf, &cap, want, off, err, errlen);
		if (n < 0) {
			ret = (int)n;
			goto out;
		}
		if ((size_t)n < want) {
			/* The file shrank since fstat. */
			size = off + n;
			jd->file_size = size;
		}

		ret = parse_chunk(jd, buf, (size_t)n, off, size, &pos, &need, &new_loads, err, errlen);
		if (ret)
			goto out;
		if (pos == 0 && need == 0)
			break;
		off += pos;
	}
out:
	free(buf);
	if (ret < 0)
		return ret;
	return new_loads > INT_MAX ? INT_MAX : (int)new_loads;
}

/*
 * The file header (JITDUMP.md "File header"). Refused as perf refuses
 * them: a newer version, reserved flag bits; and, unlike perf, arch
 * timestamps, which only perf.data's TIME_CONV record can convert.
 */
static int parse_header(struct jitdump *jd, char *err, size_t errlen)
{
	uint8_t h[JITDUMP_HDR_SIZE];
	uint32_t magic, total_size;
	ssize_t n;

	n = read_full(jd->fd, h, sizeof(h), 0);
	if (n < 0)
		return errf_at(err, errlen, (int)n, jd->path, 0, "read: %s", strerror((int)-n));
	if (n < JITDUMP_HDR_SIZE)
		return errf_at(err, errlen, -ENODATA, jd->path, 0,
			       "header truncated: the file has %zd of its %d bytes", n, JITDUMP_HDR_SIZE);

	memcpy(&magic, h + JITDUMP_HDR_MAGIC, sizeof(magic));
	if (magic == JITDUMP_MAGIC_SWAPPED)
		jd->swapped = true;
	else if (magic != JITDUMP_MAGIC)
		return errf_at(err, errlen, -EINVAL, jd->path, JITDUMP_HDR_MAGIC,
			       "bad magic 0x%08" PRIx32 ", not a jitdump", magic);

	jd->version = jd_u32(jd, h + JITDUMP_HDR_VERSION);
	if (jd->version > JITDUMP_VERSION)
		return errf_at(err, errlen, -ENOTSUP, jd->path, JITDUMP_HDR_VERSION,
			       "unsupported jitdump version %" PRIu32 " (only %d is known)",
			       jd->version, JITDUMP_VERSION);
	total_size = jd_u32(jd, h + JITDUMP_HDR_TOTAL_SIZE);
	if (total_size < JITDUMP_HDR_SIZE)
		return errf_at(err, errlen, -EINVAL, jd->path, JITDUMP_HDR_TOTAL_SIZE,
			       "header total_size %" PRIu32 " < %d", total_size, JITDUMP_HDR_SIZE);
	jd->elf_mach = jd_u32(jd, h + JITDUMP_HDR_ELF_MACH);
	jd->pid = jd_u32(jd, h + JITDUMP_HDR_PID);
	jd->flags = jd_u64(jd, h + JITDUMP_HDR_FLAGS);
	if (jd->flags & ~JITDUMP_FLAGS_ARCH_TIMESTAMP)
		return errf_at(err, errlen, -ENOTSUP, jd->path, JITDUMP_HDR_FLAGS,
			       "reserved flag bits set in flags 0x%" PRIx64, jd->flags);
	if (jd->flags & JITDUMP_FLAGS_ARCH_TIMESTAMP)
		return errf_at(err, errlen, -ENOTSUP, jd->path, JITDUMP_HDR_FLAGS,
			       "arch timestamps (flags bit 0, JITDUMP_FLAGS_ARCH_TIMESTAMP) are not supported: "
			       "perf converts them with perf.data's TIME_CONV record, and that conversion "
			       "is not available to a dlfilter; make the JIT use CLOCK_MONOTONIC "
			       "(e.g. unset JITDUMP_USE_ARCH_TIMESTAMP) and record with perf record -k mono");
	/* A header longer than 40 bytes has fields this reader does not know:
	 * records start at total_size (jitdump__update seeks there). perf's own
	 * reader does not skip those bytes correctly, so this is not copied. */
	jd->header_size = total_size;
	jd->parsed_off = JITDUMP_HDR_SIZE;
	jd->file_size = JITDUMP_HDR_SIZE;
	return 0;
}

int jitdump__open(struct jitdump **out, const char *path, char *err, size_t errlen)
{
	struct jitdump *jd;
	struct stat st;
	int ret;

	*out = NULL;
	if (err && errlen)
		err[0] = '\0';
	jd = calloc(1, sizeof(*jd));
	if (!jd || !(jd->path = strdup(path))) {
		free(jd);
		return errf(err, errlen, -ENOMEM, "%s: out of memory", path);
	}
	/* O_NONBLOCK: opening a FIFO nobody writes would wait forever; it is refused below. */
	jd->fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (jd->fd < 0 || fstat(jd->fd, &st) < 0) {
		ret = -errno;
		errf(err, errlen, ret, "%s: cannot open: %s", path, strerror(-ret));
		goto out_free;
	}
	if (!S_ISREG(st.st_mode)) {
		ret = errf(err, errlen, -EINVAL, "%s: not a regular file", path);
		goto out_free;
	}
	ret = parse_header(jd, err, errlen);
	if (ret < 0)
		goto out_free;
	ret = jitdump__update(jd, err, errlen);
	/* A malformed record keeps the loads before it: the caller reads
	 * jd->error / jd->error_msg (the message is also in err). */
	if (ret < 0 && ret != -EINVAL)
		goto out_free;
	*out = jd;
	return 0;

out_free:
	jitdump__close(jd);
	return ret;
}

uint64_t jitdump__tail_bytes(const struct jitdump *jd)
{
	return jd->file_size > jd->parsed_off ? jd->file_size - jd->parsed_off : 0;
}

void jitdump__close(struct jitdump *jd)
{
	if (!jd)
		return;
	for (size_t i = 0; i < jd->nr; i++)
		load_release(&jd->loads[i]);
	free(jd->loads);
	idx_table_release(&jd->idx);
	while (jd->arena) {
		struct jitdump_chunk *others = jd->arena->others;

		free(jd->arena);
		jd->arena = others;
	}
	debug_free(jd->pending_debug, jd->pending_debug_nr);
	if (jd->fd >= 0)
		close(jd->fd);
	free(jd->error_msg);
	free(jd->path);
	free(jd);
}

/* SPDX-License-Identifier: MIT */
/* Test support: in-memory jitdump builder. The layout is jitdump-format.h's;
 * nothing about it is declared here. */
#include "tests/jitdump-writer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static bool host_big_endian(void)
{
	const uint16_t one = 1;
	uint8_t b;

	memcpy(&b, &one, 1);
	return b == 0;
}

void jitdump_writer__init(struct jitdump_writer *w, bool big_endian)
{
	*w = (struct jitdump_writer){ .big_endian = big_endian };
}

void jitdump_writer__release(struct jitdump_writer *w)
{
	free(w->buf);
	*w = (struct jitdump_writer){ .big_endian = w->big_endian };
}

bool jitdump_writer__swapped(const struct jitdump_writer *w)
{
	return w->big_endian != host_big_endian();
}

struct jitdump_writer_header jitdump_writer__default_header(uint32_t pid)
{
	return (struct jitdump_writer_header){
		.magic = JITDUMP_MAGIC,
		.version = JITDUMP_VERSION,
		.total_size = JITDUMP_HDR_SIZE,
		.elf_mach = 62,
		.pid = pid,
		.timestamp = 1000,
	};
}

/* Room for n more bytes at the end; false (and oom set) if there is none. */
static bool reserve(struct jitdump_writer *w, size_t n)
{
	size_t alloc;
	uint8_t *p;

	if (w->oom)
		return false;
	if (n <= w->alloc - w->len)
		return true;
	alloc = w->alloc ? w->alloc : 256;
	while (alloc - w->len < n) {
		if (alloc > SIZE_MAX / 2) {
			w->oom = true;
			return false;
		}
		alloc *= 2;
	}
	p = realloc(w->buf, alloc);
	if (!p) {
		w->oom = true;
		return false;
	}
	w->buf = p;
	w->alloc = alloc;
	return true;
}

/* Store v in the writer's order, n = 4 or 8 bytes. */
static void encode(const struct jitdump_writer *w, uint8_t *dst, uint64_t v, int n)
{
	for (int i = 0; i < n; i++) {
		int shift = w->big_endian ? 8 * (n - 1 - i) : 8 * i;

		dst[i] = (uint8_t)(v >> shift);
	}
}

void jitdump_writer__bytes(struct jitdump_writer *w, const void *p, size_t n)
{
	if (!n || !reserve(w, n))
		return;
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

void jitdump_writer__fill(struct jitdump_writer *w, uint8_t byte, size_t n)
{
	if (!n || !reserve(w, n))
		return;
	memset(w->buf + w->len, byte, n);
	w->len += n;
}

void jitdump_writer__u32(struct jitdump_writer *w, uint32_t v)
{
	uint8_t b[4];

	encode(w, b, v, 4);
	jitdump_writer__bytes(w, b, 4);
}

void jitdump_writer__u64(struct jitdump_writer *w, uint64_t v)
{
	uint8_t b[8];

	encode(w, b, v, 8);
	jitdump_writer__bytes(w, b, 8);
}

void jitdump_writer__str(struct jitdump_writer *w, const char *s)
{
	jitdump_writer__bytes(w, s, strlen(s) + 1);
}

void jitdump_writer__put_u32(struct jitdump_writer *w, size_t off, uint32_t v)
{
	if (!w->oom && off <= w->len && w->len - off >= 4)
		encode(w, w->buf + off, v, 4);
}

void jitdump_writer__put_u64(struct jitdump_writer *w, size_t off, uint64_t v)
{
	if (!w->oom && off <= w->len && w->len - off >= 8)
		encode(w, w->buf + off, v, 8);
}

void jitdump_writer__truncate(struct jitdump_writer *w, size_t len)
{
	if (len < w->len)
		w->len = len;
}

void jitdump_writer__header(struct jitdump_writer *w, const struct jitdump_writer_header *h)
{
	size_t at = w->len;

	jitdump_writer__fill(w, 0, JITDUMP_HDR_SIZE);
	jitdump_writer__put_u32(w, at + JITDUMP_HDR_MAGIC, h->magic);
	jitdump_writer__put_u32(w, at + JITDUMP_HDR_VERSION, h->version);
	jitdump_writer__put_u32(w, at + JITDUMP_HDR_TOTAL_SIZE, h->total_size);
	jitdump_writer__put_u32(w, at + JITDUMP_HDR_ELF_MACH, h->elf_mach);
	jitdump_writer__put_u32(w, at + JITDUMP_HDR_PAD1, h->pad1);
	jitdump_writer__put_u32(w, at + JITDUMP_HDR_PID, h->pid);
	jitdump_writer__put_u64(w, at + JITDUMP_HDR_TIMESTAMP, h->timestamp);
	jitdump_writer__put_u64(w, at + JITDUMP_HDR_FLAGS, h->flags);
	if (h->total_size > JITDUMP_HDR_SIZE)
		jitdump_writer__fill(w, 0xee, h->total_size - JITDUMP_HDR_SIZE);
}

size_t jitdump_writer__begin(struct jitdump_writer *w, uint32_t id, uint64_t timestamp)
{
	size_t rec = w->len;

	jitdump_writer__fill(w, 0, JITDUMP_REC_PREFIX_SIZE);
	jitdump_writer__put_u32(w, rec + JITDUMP_REC_ID, id);
	jitdump_writer__put_u64(w, rec + JITDUMP_REC_TIMESTAMP, timestamp);
	return rec;
}

void jitdump_writer__end(struct jitdump_writer *w, size_t rec)
{
	jitdump_writer__put_u32(w, rec + JITDUMP_REC_TOTAL_SIZE, (uint32_t)(w->len - rec));
}

/* A record's fixed part after the prefix, zeroed, for the fields to be put in. */
static void fixed_part(struct jitdump_writer *w, size_t rec, size_t size)
{
	jitdump_writer__fill(w, 0, rec + size - w->len);
}

size_t jitdump_writer__code_load(struct jitdump_writer *w, const struct jitdump_writer_load *l)
{
	size_t rec = jitdump_writer__begin(w, JITDUMP_CODE_LOAD, l->timestamp);

	fixed_part(w, rec, JITDUMP_LOAD_NAME);
	jitdump_writer__put_u32(w, rec + JITDUMP_LOAD_PID, l->pid);
	jitdump_writer__put_u32(w, rec + JITDUMP_LOAD_TID, l->tid);
	jitdump_writer__put_u64(w, rec + JITDUMP_LOAD_VMA, l->vma ? l->vma : l->code_addr);
	jitdump_writer__put_u64(w, rec + JITDUMP_LOAD_CODE_ADDR, l->code_addr);
	jitdump_writer__put_u64(w, rec + JITDUMP_LOAD_CODE_SIZE, l->code_size);
	jitdump_writer__put_u64(w, rec + JITDUMP_LOAD_CODE_INDEX, l->code_index);
	jitdump_writer__str(w, l->name ? l->name : "");
	if (l->code)
		jitdump_writer__bytes(w, l->code, l->code_size);
	else
		jitdump_writer__fill(w, 0xcc, l->code_size);
	jitdump_writer__end(w, rec);
	return rec;
}

size_t jitdump_writer__code_move(struct jitdump_writer *w, const struct jitdump_writer_move *m)
{
	size_t rec = jitdump_writer__begin(w, JITDUMP_CODE_MOVE, m->timestamp);

	fixed_part(w, rec, JITDUMP_MOVE_SIZE);
	jitdump_writer__put_u32(w, rec + JITDUMP_MOVE_PID, m->pid);
	jitdump_writer__put_u32(w, rec + JITDUMP_MOVE_TID, m->tid);
	jitdump_writer__put_u64(w, rec + JITDUMP_MOVE_VMA, m->vma ? m->vma : m->new_code_addr);
	jitdump_writer__put_u64(w, rec + JITDUMP_MOVE_OLD_CODE_ADDR, m->old_code_addr);
	jitdump_writer__put_u64(w, rec + JITDUMP_MOVE_NEW_CODE_ADDR, m->new_code_addr);
	jitdump_writer__put_u64(w, rec + JITDUMP_MOVE_CODE_SIZE, m->code_size);
	jitdump_writer__put_u64(w, rec + JITDUMP_MOVE_CODE_INDEX, m->code_index);
	jitdump_writer__end(w, rec);
	return rec;
}

size_t jitdump_writer__debug_info(struct jitdump_writer *w, uint64_t timestamp, uint64_t code_addr,
				  const struct jitdump_writer_debug_entry *e, size_t nr, bool pad8)
{
	size_t rec = jitdump_writer__begin(w, JITDUMP_CODE_DEBUG_INFO, timestamp);

	fixed_part(w, rec, JITDUMP_DEBUG_ENTRIES);
	jitdump_writer__put_u64(w, rec + JITDUMP_DEBUG_CODE_ADDR, code_addr);
	jitdump_writer__put_u64(w, rec + JITDUMP_DEBUG_NR_ENTRY, nr);
	for (size_t i = 0; i < nr; i++) {
		size_t at = w->len;

		jitdump_writer__fill(w, 0, JITDUMP_ENTRY_NAME);
		jitdump_writer__put_u64(w, at + JITDUMP_ENTRY_ADDR, e[i].addr);
		jitdump_writer__put_u32(w, at + JITDUMP_ENTRY_LINE, e[i].line);
		jitdump_writer__put_u32(w, at + JITDUMP_ENTRY_DISCRIM, e[i].discrim);
		jitdump_writer__str(w, e[i].file ? e[i].file : "");
	}
	if (pad8 && (w->len - rec) % 8)
		jitdump_writer__fill(w, 0, 8 - (w->len - rec) % 8);
	jitdump_writer__end(w, rec);
	return rec;
}

size_t jitdump_writer__code_close(struct jitdump_writer *w, uint64_t timestamp)
{
	size_t rec = jitdump_writer__begin(w, JITDUMP_CODE_CLOSE, timestamp);

	jitdump_writer__end(w, rec);
	return rec;
}

size_t jitdump_writer__unwinding_info(struct jitdump_writer *w, uint64_t timestamp,
				      const void *data, uint64_t data_size,
				      uint64_t eh_frame_hdr_size, uint64_t mapped_size)
{
	size_t rec = jitdump_writer__begin(w, JITDUMP_CODE_UNWINDING_INFO, timestamp);

	fixed_part(w, rec, JITDUMP_UNWIND_FIXED_SIZE);
	jitdump_writer__put_u64(w, rec + JITDUMP_UNWIND_DATA_SIZE, data_size);
	jitdump_writer__put_u64(w, rec + JITDUMP_UNWIND_EH_FRAME_HDR_SIZE, eh_frame_hdr_size);
	jitdump_writer__put_u64(w, rec + JITDUMP_UNWIND_MAPPED_SIZE, mapped_size);
	if (data)
		jitdump_writer__bytes(w, data, data_size);
	else
		jitdump_writer__fill(w, 0, data_size);
	jitdump_writer__end(w, rec);
	return rec;
}

static int write_all(int fd, const uint8_t *p, size_t n)
{
	while (n) {
		ssize_t k = write(fd, p, n);

		if (k < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += k;
		n -= k;
	}
	return 0;
}

static int write_file(const struct jitdump_writer *w, const char *path, int flags,
		      size_t from, size_t to)
{
	int fd, ret;

	if (w->oom)
		return -ENOMEM;
	if (from > to || to > w->len)
		return -EINVAL;
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | flags, 0644);
	if (fd < 0)
		return -errno;
	ret = write_all(fd, w->buf + from, to - from);
	if (close(fd) < 0 && !ret)
		ret = -errno;
	return ret;
}

int jitdump_writer__save(const struct jitdump_writer *w, const char *path, size_t len)
{
	return write_file(w, path, O_TRUNC, 0, len);
}

int jitdump_writer__append(const struct jitdump_writer *w, const char *path, size_t from, size_t to)
{
	return write_file(w, path, O_APPEND, from, to);
}

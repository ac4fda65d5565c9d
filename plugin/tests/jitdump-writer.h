/* SPDX-License-Identifier: MIT */
/* Test support: builds jitdump files in memory, in either byte order, with any
 * field values (corrupt ones included), and writes them out whole or in pieces. */
#ifndef PLUGIN_TESTS_JITDUMP_WRITER_H
#define PLUGIN_TESTS_JITDUMP_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "jit/jitdump-format.h"

/*
 * The bytes of one jitdump file. Every multi-byte value is written in the
 * writer's byte order (big_endian or not), the magic included, so a
 * big-endian writer on a little-endian host makes a byte-swapped file.
 * Appending never fails visibly: on out of memory the writer sets oom, drops
 * further bytes, and jitdump_writer__save/__append return -ENOMEM.
 * Offsets returned by the builders are byte offsets into buf (= file offsets).
 */
struct jitdump_writer {
	uint8_t *buf;		/* owned; the file's bytes */
	size_t len, alloc;
	bool big_endian;
	bool oom;
};

/* Header field values; jitdump_writer__default_header fills a valid one. */
struct jitdump_writer_header {
	uint32_t magic;		/* JITDUMP_MAGIC */
	uint32_t version;	/* JITDUMP_VERSION */
	uint32_t total_size;	/* 40; more adds filler bytes, less writes 40 anyway */
	uint32_t elf_mach;	/* 62 (EM_X86_64) */
	uint32_t pad1;
	uint32_t pid;
	uint64_t timestamp;
	uint64_t flags;		/* 0 */
};

/* JIT_CODE_LOAD. vma 0 means "same as code_addr". The record is laid out as
 * the spec says: fixed part, name + NUL, code_size bytes of code. */
struct jitdump_writer_load {
	uint64_t timestamp;
	uint32_t pid, tid;
	uint64_t vma, code_addr, code_index;
	const char *name;	/* NULL = "" */
	const void *code;	/* code_size bytes; NULL = code_size bytes 0xcc */
	uint64_t code_size;
};

/* JIT_CODE_MOVE (64 bytes). vma 0 means "same as new_code_addr". */
struct jitdump_writer_move {
	uint64_t timestamp;
	uint32_t pid, tid;
	uint64_t vma, old_code_addr, new_code_addr, code_size, code_index;
};

/* One JIT_CODE_DEBUG_INFO entry; file "\xff" = same as the previous entry. */
struct jitdump_writer_debug_entry {
	uint64_t addr;
	uint32_t line, discrim;
	const char *file;
};

void jitdump_writer__init(struct jitdump_writer *w, bool big_endian);
void jitdump_writer__release(struct jitdump_writer *w);

/* True when the file is not in the host's byte order (the reader must swap). */
bool jitdump_writer__swapped(const struct jitdump_writer *w);

struct jitdump_writer_header jitdump_writer__default_header(uint32_t pid);

/* Raw appends, in the writer's byte order; __str appends s and its NUL. */
void jitdump_writer__u32(struct jitdump_writer *w, uint32_t v);
void jitdump_writer__u64(struct jitdump_writer *w, uint64_t v);
void jitdump_writer__bytes(struct jitdump_writer *w, const void *p, size_t n);
void jitdump_writer__fill(struct jitdump_writer *w, uint8_t byte, size_t n);
void jitdump_writer__str(struct jitdump_writer *w, const char *s);

/* Overwrite already written bytes (to corrupt a field); off + size <= len. */
void jitdump_writer__put_u32(struct jitdump_writer *w, size_t off, uint32_t v);
void jitdump_writer__put_u64(struct jitdump_writer *w, size_t off, uint64_t v);
/* Drop everything from len on (len <= w->len). */
void jitdump_writer__truncate(struct jitdump_writer *w, size_t len);

/* The 40-byte header, then total_size - 40 filler bytes (0xee) if larger. */
void jitdump_writer__header(struct jitdump_writer *w, const struct jitdump_writer_header *h);

/*
 * Framing for hand-made records: __begin appends a prefix with total_size 0
 * and returns the record's offset; append the payload; __end sets total_size
 * to the bytes written since __begin (patch it afterwards to lie).
 */
size_t jitdump_writer__begin(struct jitdump_writer *w, uint32_t id, uint64_t timestamp);
void jitdump_writer__end(struct jitdump_writer *w, size_t rec);

/* Whole, well-formed records; each returns the record's offset. */
size_t jitdump_writer__code_load(struct jitdump_writer *w, const struct jitdump_writer_load *l);
size_t jitdump_writer__code_move(struct jitdump_writer *w, const struct jitdump_writer_move *m);
/* pad8: pad the record with zeros to a multiple of 8 bytes, as some writers do. */
size_t jitdump_writer__debug_info(struct jitdump_writer *w, uint64_t timestamp, uint64_t code_addr,
				  const struct jitdump_writer_debug_entry *e, size_t nr, bool pad8);
size_t jitdump_writer__code_close(struct jitdump_writer *w, uint64_t timestamp);
/* data: data_size bytes (NULL = zeros) holding the .eh_frame_hdr and .eh_frame. */
size_t jitdump_writer__unwinding_info(struct jitdump_writer *w, uint64_t timestamp,
				      const void *data, uint64_t data_size,
				      uint64_t eh_frame_hdr_size, uint64_t mapped_size);

/*
 * Files: __save writes buf[0, len) to path, creating or truncating it;
 * __append appends buf[from, to) to path (to grow a file in steps).
 * Return 0 or a negative errno.
 */
int jitdump_writer__save(const struct jitdump_writer *w, const char *path, size_t len);
int jitdump_writer__append(const struct jitdump_writer *w, const char *path, size_t from, size_t to);

#endif

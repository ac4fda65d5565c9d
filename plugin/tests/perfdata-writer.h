/* SPDX-License-Identifier: MIT */
/* Test support: builds perf.data files in memory (file or pipe format, either
 * byte order, compressed records, any field values including corrupt ones). */
#ifndef PLUGIN_TESTS_PERFDATA_WRITER_H
#define PLUGIN_TESTS_PERFDATA_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum perfdata_writer_mode {
	PERFDATA_WRITER_FILE,	/* 104-byte header; __finish fills in the data section */
	PERFDATA_WRITER_PIPE,	/* 16-byte header, records to the end */
	PERFDATA_WRITER_RAW,	/* records only: the payload of a COMPRESSED record */
};

/*
 * The bytes of one perf.data file. Multi-byte values are written in the host's
 * byte order, or the other one when swapped (then the magic reads "2ELIFREP").
 * Appending never fails visibly: on out of memory the writer sets oom and
 * drops further bytes. Offsets returned are byte offsets into buf.
 */
struct perfdata_writer {
	uint8_t *buf;		/* owned */
	size_t len, alloc;
	enum perfdata_writer_mode mode;
	bool swapped;
	bool oom;
	size_t data_off;	/* where the records start */
};

#define PERFDATA_WRITER_FILE_HDR 104

void perfdata_writer__init(struct perfdata_writer *w, enum perfdata_writer_mode mode, bool swapped);
void perfdata_writer__release(struct perfdata_writer *w);

/* Raw appends in the writer's byte order. */
void perfdata_writer__u16(struct perfdata_writer *w, uint16_t v);
void perfdata_writer__u32(struct perfdata_writer *w, uint32_t v);
void perfdata_writer__u64(struct perfdata_writer *w, uint64_t v);
void perfdata_writer__bytes(struct perfdata_writer *w, const void *p, size_t n);
void perfdata_writer__fill(struct perfdata_writer *w, uint8_t byte, size_t n);
/* Overwrite already written bytes; off + size <= len. */
void perfdata_writer__put_u16(struct perfdata_writer *w, size_t off, uint16_t v);
void perfdata_writer__put_u64(struct perfdata_writer *w, size_t off, uint64_t v);

/*
 * Framing for hand-made records: __begin appends a header with size 0 and
 * returns the record's offset; append the payload; __end sets the size to the
 * bytes written since __begin (patch it afterwards with __put_u16 to lie).
 */
size_t perfdata_writer__begin(struct perfdata_writer *w, uint32_t type, uint16_t misc);
void perfdata_writer__end(struct perfdata_writer *w, size_t rec);

/* PERF_RECORD_MMAP / MMAP2 with name NUL-padded to 8 bytes; return the record's offset. */
size_t perfdata_writer__mmap(struct perfdata_writer *w, uint32_t pid, uint32_t tid,
			     uint64_t start, uint64_t len, const char *name);
size_t perfdata_writer__mmap2(struct perfdata_writer *w, uint32_t pid, uint32_t tid,
			      uint64_t start, uint64_t len, const char *name);
/* A PERF_RECORD_SAMPLE-shaped filler record of size bytes (>= 8, multiple of 8). */
size_t perfdata_writer__filler(struct perfdata_writer *w, uint16_t size);

/* PERF_RECORD_COMPRESSED (81) holding payload as is, or COMPRESSED2 (83). */
size_t perfdata_writer__compressed(struct perfdata_writer *w, const void *payload, size_t n);
size_t perfdata_writer__compressed2(struct perfdata_writer *w, const void *payload, size_t n);
/* zstd-compress src[0, n) into one frame, then write it as one COMPRESSED record. */
int perfdata_writer__zstd(struct perfdata_writer *w, const void *src, size_t n);

/*
 * perf 6.1's own way (record__pushfn with ZSTD_e_flush): one zstd frame for the
 * whole recording, flushed into one COMPRESSED record per chunk, never ended.
 * Only the first record starts with the frame magic.
 */
struct perfdata_writer_zstream {
	void *cctx;		/* owned ZSTD_CCtx */
};
int perfdata_writer__zstream_init(struct perfdata_writer_zstream *z);
/* Ask for a 2^log byte window (perf record -z 22 uses 27); 0 or -EINVAL. */
int perfdata_writer__zstream_window_log(struct perfdata_writer_zstream *z, int log);
/* Compress src[0, n), flush, and write the output as one COMPRESSED record. */
int perfdata_writer__zstream_flush(struct perfdata_writer_zstream *z, struct perfdata_writer *w,
				   const void *src, size_t n);
void perfdata_writer__zstream_release(struct perfdata_writer_zstream *z);

/* File mode: set the header's data section to [data_off, len). */
void perfdata_writer__finish(struct perfdata_writer *w);

/* zstd-compress src[0, n) into a malloc'ed frame (*out, *out_len); 0 or -ENOMEM/-EIO. */
int perfdata_writer__zstd_frame(const void *src, size_t n, uint8_t **out, size_t *out_len);

/* Write buf[0, len) to path; 0 or a negative errno. */
int perfdata_writer__save(const struct perfdata_writer *w, const char *path);

#endif

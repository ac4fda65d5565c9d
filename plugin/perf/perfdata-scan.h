/* SPDX-License-Identifier: MIT */
/*
 * What the perf.data reader's files share: the layout facts of the format
 * and the state of one walk (struct scan). The reader is in files by
 * concern: the files, directories and file header (perfdata.c), the record
 * walk (perfdata-records.h), the attrs that say where a record's time is
 * (perfdata-attrs.h), the zstd-compressed records (perfdata-zstd.h). Only
 * they include these headers; perfdata.h is the reader's contract.
 */
#ifndef PLUGIN_PERF_PERFDATA_SCAN_H
#define PLUGIN_PERF_PERFDATA_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <zstd.h>

#include "../lib/byteorder.h"
#include "perfdata.h"

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
#define HEADER_OSRELEASE	4	/* feature bit: uname -r of the recording machine (a perf_header_string) */
#define HEADER_ARCH		6	/* feature bit: uname -m of the recording machine (a perf_header_string) */
#define PERF_EV_HDR_SIZE	8	/* u32 type, u16 misc, u16 size (size includes the header) */

#define PERF_RECORD_MMAP	1
#define PERF_RECORD_EXIT	4
#define PERF_RECORD_FORK	7
#define PERF_RECORD_MMAP2	10
#define PERF_RECORD_HEADER_ATTR	64	/* pipe mode: perf_event_attr, then u64 ids */
#define PERF_RECORD_HEADER_BUILD_ID 67	/* pipe mode: one build-id (as the feature section's) */
#define PERF_RECORD_HEADER_FEATURE 80	/* pipe mode: header, u64 feature bit, the feature section's bytes */
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

/* Multi-byte fields: unaligned (COMPRESSED records are not padded) and maybe swapped. */
static inline uint16_t get16(const struct scan *s, const uint8_t *p)
{
	return hb_load16(p, s->swapped);
}

static inline uint32_t get32(const struct scan *s, const uint8_t *p)
{
	return hb_load32(p, s->swapped);
}

static inline uint64_t get64(const struct scan *s, const uint8_t *p)
{
	return hb_load64(p, s->swapped);
}

#endif

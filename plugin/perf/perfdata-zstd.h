/* SPDX-License-Identifier: MIT */
/* perf.data's zstd-compressed records: one stream per file, as perf writes
 * it (the reader's own, see perfdata-scan.h and perfdata.h's bounds). */
#ifndef PLUGIN_PERF_PERFDATA_ZSTD_H
#define PLUGIN_PERF_PERFDATA_ZSTD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata-scan.h"

/* What takes each record a payload yields, nested (perfdata-records.h's
 * scan__record): passed in, the records being the layer above this one. */
typedef int (*scan_record_fn)(struct scan *s, const uint8_t *p, size_t size, bool nested);

/* Feed one compressed payload of len bytes at src to the file's stream and
 * hand each complete record it yields to record. Decompression problems only
 * count (stats compressed_failed): the marker may well be in a later record.
 * Returns 0 or record's non-zero value. */
int scan__inflate(struct scan *s, const uint8_t *src, size_t len, scan_record_fn record);

/* Drop what the broken stream produced so the next frame starts clean (also
 * at the end of a file: each file of a directory has its own stream). */
void scan__inflate_reset(struct scan *s);

#endif

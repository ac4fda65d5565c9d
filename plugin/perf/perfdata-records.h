/* SPDX-License-Identifier: MIT */
/* perf.data's records walked, each to the visitor's callback for it (the
 * reader's own, see perfdata-scan.h). */
#ifndef PLUGIN_PERF_PERFDATA_RECORDS_H
#define PLUGIN_PERF_PERFDATA_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata-scan.h"

/* One complete record of size bytes (>= 8) at p; nested: it came out of a
 * COMPRESSED one, so a COMPRESSED record is not decompressed but counted as
 * failed (perf never nests them). Returns 0 or a callback's non-zero value. */
int scan__record(struct scan *s, const uint8_t *p, size_t size, bool nested);

/* The records in buf[off, end). pipe: the data may stop mid-record (perf
 * record killed: stats truncated, no error); else the data section is exact
 * and a record past its end is an error. The pages of a mapped file behind
 * the walk are given back as it goes. Returns 0, a callback's non-zero value
 * or -EINVAL with the message in s->err. */
int scan__walk(struct scan *s, const uint8_t *buf, uint64_t off, uint64_t end, bool pipe);

/* One build-id entry of size bytes at p (a record header first: the feature
 * section's or a pipe's HEADER_BUILD_ID record); *bad when malformed.
 * Returns 0 or the callback's value. */
int scan__build_id_entry(struct scan *s, const uint8_t *p, size_t size, bool *bad);

/* HEADER_ARCH's perf_header_string of size bytes at p (u32 length, the
 * string NUL-padded): into stats->arch when it is a short printable word;
 * anything else is left (the recording's machine is then not known). */
void scan__arch_string(struct scan *s, const uint8_t *p, uint64_t size);

/* HEADER_OSRELEASE's perf_header_string, the same way: into stats->osrelease
 * when it is a short word of letters, digits and ._-+~ (uname -r). */
void scan__osrelease_string(struct scan *s, const uint8_t *p, uint64_t size);

#endif

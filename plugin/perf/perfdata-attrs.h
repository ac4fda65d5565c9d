/* SPDX-License-Identifier: MIT */
/* The recording's attrs (perf_event_attr and their ids): where the time of
 * a non-sample record is in its sample_id (the reader's own, see
 * perfdata-scan.h). */
#ifndef PLUGIN_PERF_PERFDATA_ATTRS_H
#define PLUGIN_PERF_PERFDATA_ATTRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "perfdata-scan.h"

/* The file header's attr section (file of len bytes, its header read): the
 * layout of every record's sample_id. Returns 0, or -EINVAL with the message
 * in s->err when the section, an entry's size or an entry's ids section does
 * not fit the file (perf refuses such a file too). */
int scan__read_attrs(struct scan *s, const uint8_t *buf, size_t len);

/* Pipe mode's HEADER_ATTR record of size bytes at p: one attr and its ids,
 * what the file header's attr section carries. Returns 0. */
int scan__attr_record(struct scan *s, const uint8_t *p, size_t size);

/* After the attrs changed: one time slot for all, or one per attr by
 * IDENTIFIER, or none (stats timed says which). */
void scan__layout_times(struct scan *s);

/* The sample_id time of a non-sample record of size bytes at p whose body
 * takes min bytes; false when it has none. */
bool scan__record_time(struct scan *s, const uint8_t *p, size_t size, size_t min, uint64_t *time);

#endif

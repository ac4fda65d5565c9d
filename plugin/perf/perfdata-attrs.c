// SPDX-License-Identifier: MIT
/* The recording's attrs: where a non-sample record's time is (see perfdata-attrs.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <linux/perf_event.h>

#include "../lib/errf.h"
#include "perfdata-attrs.h"

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

void scan__layout_times(struct scan *s)
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

bool scan__record_time(struct scan *s, const uint8_t *p, size_t size, size_t min, uint64_t *time)
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

int scan__attr_record(struct scan *s, const uint8_t *p, size_t size)
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
	scan__layout_times(s);
	return 0;
}

int scan__read_attrs(struct scan *s, const uint8_t *buf, size_t len)
{
	uint64_t asize = get64(s, buf + PERF_FILE_ATTR_SIZE_OFF);
	uint64_t off = get64(s, buf + PERF_FILE_ATTRS_OFF), size = get64(s, buf + PERF_FILE_ATTRS_OFF + 8);

	s->attrs_nr = s->ids_nr = 0;
	scan__layout_times(s);
	if (!size)
		return 0;	/* no attrs: no times */
	/* Each entry: a perf_event_attr, then the section {offset, size} of its u64 ids. */
	if (off > len || size > len - off)
		return errf_at(s->err, s->errlen, -EINVAL, s->name, PERF_FILE_ATTRS_OFF,
			       "attr section 0x%" PRIx64 "+0x%" PRIx64 " runs past end of file (0x%zx bytes)",
			       off, size, len);
	if (asize < ATTR_MIN_SIZE + 16 || asize > size)
		return errf_at(s->err, s->errlen, -EINVAL, s->name, PERF_FILE_ATTR_SIZE_OFF,
			       "attr entry size %" PRIu64 " does not fit the attr section (%" PRIu64
			       " bytes; an entry is an attr of at least %d bytes and its ids section)",
			       asize, size, ATTR_MIN_SIZE);
	/* (a part entry at the end is ignored, as perf does: it reads size / asize) */
	for (uint64_t used = 0; asize <= size - used; used += asize) {
		uint64_t e = off + used;
		uint64_t ioff = get64(s, buf + e + asize - 16), isize = get64(s, buf + e + asize - 8);

		if (ioff > len || isize > len - ioff)
			return errf_at(s->err, s->errlen, -EINVAL, s->name, e + asize - 16,
				       "ids section 0x%" PRIx64 "+0x%" PRIx64
				       " of the attr at 0x%" PRIx64 " runs past end of file (0x%zx bytes)",
				       ioff, isize, e, len);
		if (!add_attr(s, buf + e, (size_t)(asize - 16)))
			break;
		for (uint64_t i = 0; i + 8 <= isize; i += 8)
			add_attr_id(s, get64(s, buf + ioff + i));
	}
	scan__layout_times(s);
	return 0;
}

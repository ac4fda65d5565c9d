// SPDX-License-Identifier: MIT
/* The events of a run and their clocks (see events.h). */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "events.h"

void events__init(struct events *e, const struct perf_dlfilter_fns *perf, struct warnings *warnings)
{
	memset(e, 0, sizeof(*e));
	e->perf = perf;
	e->warnings = warnings;
}

void events__release(struct events *e)
{
	for (size_t i = 0; i < e->nr; i++)
		free(e->v[i].name);
	e->nr = 0;
}

/* Times of the event's samples are comparable with the dumps' only when perf
 * recorded them at all (PERF_SAMPLE_TIME: perf record sets it unless
 * --per-thread is given without -T) and used CLOCK_MONOTONIC (-k mono). */
static void read_clock(struct events *e, void *ctx, struct event *ev)
{
	struct perf_event_attr *attr = e->perf && e->perf->attr ? e->perf->attr(ctx) : NULL;

	ev->timed = attr && (attr->sample_type & PERF_SAMPLE_TIME);
	ev->mono = attr && attr->use_clockid && attr->clockid == CLOCK_MONOTONIC;
	ev->time_aware = ev->timed && ev->mono;
}

uint32_t events__id(struct events *e, const char *name, void *ctx)
{
	if (name && name == e->last_ptr)
		return e->last;
	if (!name)
		name = "unknown";
	for (size_t i = 0; i < e->nr; i++) {
		if (e->v[i].seen_ptr == name || !strcmp(e->v[i].name, name)) {
			e->v[i].seen_ptr = name;
			e->last_ptr = name;
			return e->last = (uint32_t)i;
		}
	}
	if (e->nr == MAX_EVENTS) {
		warnings__add(e->warnings, "more than %d events: the rest are counted as %s", MAX_EVENTS,
			      e->v[MAX_EVENTS - 1].name);
		return MAX_EVENTS - 1;
	}
	struct event *ev = &e->v[e->nr];

	ev->name = strdup(name);
	if (!ev->name)
		return e->nr ? (uint32_t)e->nr - 1 : 0;
	ev->seen_ptr = name;
	read_clock(e, ctx, ev);
	e->last_ptr = name;
	return e->last = (uint32_t)e->nr++;
}

void events__check_time_aware(struct events *e, uint32_t ev)
{
	struct event *v = &e->v[ev];

	if (v->time_aware || v->clock_warned)
		return;
	v->clock_warned = true;
	if (!v->timed)
		warnings__add(e->warnings, "event %s has no sample times (`perf record --per-thread` without `-T`/`--timestamp`):"
			      " JIT samples cannot be matched to code loads by time; where several loads covered"
			      " an address they are counted as unattributed.ambiguous (record with -k mono -T)", v->name);
	else
		warnings__add(e->warnings, "event %s was not recorded with `perf record -k mono`: its sample times are not the"
			      " jitdumps' and JIT samples cannot be matched to code loads by time; where several loads"
			      " covered an address they are counted as unattributed.ambiguous", v->name);
}

bool events__time_aware(const struct events *e)
{
	bool time_aware = e->nr > 0;

	for (size_t i = 0; i < e->nr; i++)
		time_aware &= e->v[i].time_aware;
	return time_aware;
}

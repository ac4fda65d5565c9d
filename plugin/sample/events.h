/* SPDX-License-Identifier: MIT */
/*
 * The events of a run (perf's evsels, by name) and what their clocks allow:
 * a JIT sample is matched to a code load by time only when its event
 * carries times on the jitdumps' clock (JITDUMP.md "Time").
 */
#ifndef PLUGIN_SAMPLE_EVENTS_H
#define PLUGIN_SAMPLE_EVENTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perf/perf_dlfilter.h>

#include "../lib/warnings.h"

/* Events beyond this many are counted as the last one (with a warning). */
#define MAX_EVENTS 32

struct event {
	const char *seen_ptr;	/* perf's string for this event, compared by address first */
	char *name;		/* owned */
	bool timed;		/* its samples carry times (not so: perf record --per-thread without -T) */
	bool mono;		/* ... on the jitdumps' clock (perf record -k mono) */
	bool time_aware;	/* both: JIT samples are matched by time */
	bool clock_warned;
};

struct events {
	const struct perf_dlfilter_fns *perf;	/* borrowed: attr() gives an event's clock */
	struct warnings *warnings;		/* borrowed */
	struct event v[MAX_EVENTS];
	size_t nr;
	const char *last_ptr;
	uint32_t last;
};

/* No event yet; perf and warnings must outlive e. */
void events__init(struct events *e, const struct perf_dlfilter_fns *perf, struct warnings *warnings);
void events__release(struct events *e);

/* The id of the sample's event (perf's evsel name; NULL counts as "unknown").
 * A new event's clock is read from perf's attr(ctx). */
uint32_t events__id(struct events *e, const char *name, void *ctx);

/* A sample of event ev fell in JIT code: warn once if its times were not usable. */
void events__check_time_aware(struct events *e, uint32_t ev);

/* Whether every event seen was recorded with -k mono (and any was seen). */
bool events__time_aware(const struct events *e);

#endif

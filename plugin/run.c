// SPDX-License-Identifier: MIT
/* One perf script run: its state, events, sample accounting and warnings (see run.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "run.h"

/* Samples between two updates of the progress line. */
#define PROGRESS_EVERY (1u << 18)

struct run *run__new(const struct perf_dlfilter_fns *perf)
{
	struct run *run = calloc(1, sizeof(*run));

	if (!run)
		return NULL;
	run->perf = perf;
	run->out_fd = -1;
	natives__init(&run->natives);
	resolve__init(&run->resolve);
	if (dumps__init(&run->dumps, run__warn, run) < 0 || counts__init(&run->counts, MAX_COUNT_SLOTS) < 0) {
		run__free(run);
		return NULL;
	}
	return run;
}

void run__free(struct run *run)
{
	if (!run)
		return;
	dumps__release(&run->dumps);
	resolve__release(&run->resolve);
	natives__release(&run->natives);
	counts__release(&run->counts);
	classify__release(&run->classify);
	pending__release(&run->pending);
	for (size_t i = 0; i < run->events_nr; i++)
		free(run->events[i].name);
	for (size_t i = 0; i < run->warnings_nr; i++)
		free(run->warnings[i]);
	if (run->out_fd >= 0)
		close(run->out_fd);
	options__release(&run->opts);
	free(run->perf_data);
	free(run);
}

void run__warn(void *arg, const char *fmt, ...)
{
	struct run *run = arg;
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < run->warnings_nr; i++)
		if (!strcmp(run->warnings[i], msg))
			return;
	fprintf(stderr, "hotblocks: warning: %s\n", msg);
	if (run->warnings_nr < MAX_WARNINGS) {
		run->warnings[run->warnings_nr] = strdup(msg);
		if (run->warnings[run->warnings_nr])
			run->warnings_nr++;
	}
}

/* Times of the event's samples are comparable with the dumps' only when perf
 * used CLOCK_MONOTONIC (perf record -k mono) and recorded them at all. */
static bool clock_is_mono(struct run *run, void *ctx)
{
	struct perf_event_attr *attr = run->perf->attr ? run->perf->attr(ctx) : NULL;

	return attr && attr->use_clockid && attr->clockid == CLOCK_MONOTONIC &&
	       (attr->sample_type & PERF_SAMPLE_TIME);
}

uint32_t run__event(struct run *run, const char *name, void *ctx)
{
	if (name && name == run->last_event_ptr)
		return run->last_event;
	if (!name)
		name = "unknown";
	for (size_t i = 0; i < run->events_nr; i++) {
		if (run->events[i].seen_ptr == name || !strcmp(run->events[i].name, name)) {
			run->events[i].seen_ptr = name;
			run->last_event_ptr = name;
			return run->last_event = (uint32_t)i;
		}
	}
	if (run->events_nr == MAX_EVENTS) {
		run__warn(run, "more than %d events: the rest are counted as %s", MAX_EVENTS,
			  run->events[MAX_EVENTS - 1].name);
		return MAX_EVENTS - 1;
	}
	struct event *e = &run->events[run->events_nr];

	e->name = strdup(name);
	if (!e->name)
		return run->events_nr ? (uint32_t)run->events_nr - 1 : 0;
	e->seen_ptr = name;
	e->time_aware = clock_is_mono(run, ctx);
	run->last_event_ptr = name;
	return run->last_event = (uint32_t)run->events_nr++;
}

void run__check_time_aware(struct run *run, uint32_t ev)
{
	struct event *e = &run->events[ev];

	if (e->time_aware || e->clock_warned)
		return;
	e->clock_warned = true;
	run__warn(run, "event %s was not recorded with `perf record -k mono`: JIT samples are matched to the "
		  "newest code load covering them, not by time (address reuse can misattribute)", e->name);
}

bool run__time_aware(const struct run *run)
{
	bool time_aware = run->events_nr > 0;

	for (size_t e = 0; e < run->events_nr; e++)
		time_aware &= run->events[e].time_aware;
	return time_aware;
}

void run__account(struct run *run, uint32_t ev, enum hb_sample_class c, uint64_t period)
{
	run->totals[ev][c][0]++;
	run->totals[ev][c][1] += period;
	if (c == HB_CLASS_ALL && run->progress && !(++run->seen % PROGRESS_EVERY)) {
		fprintf(stderr, "\rhotblocks.so: %" PRIu64 " samples...", run->seen);
		run->progress_shown = true;
	}
}

void run__count(struct run *run, uint32_t obj, uint32_t ev, uint64_t off, uint64_t period,
		enum hb_sample_class c)
{
	if (counts__add(&run->counts, obj, ev, off, period) < 0) {
		if (!run->table_full_warned)
			run__warn(run, "sample table full (%u distinct offsets); further new offsets are counted as %s",
				  MAX_COUNT_SLOTS / 2, "unattributed.table-full");
		run->table_full_warned = true;
		c = HB_CLASS_TABLE_FULL;
	}
	run__account(run, ev, c, period);
}

void run__end_progress(struct run *run)
{
	if (run->progress_shown)
		fputs("\r\033[K", stderr);
	run->progress_shown = false;
}

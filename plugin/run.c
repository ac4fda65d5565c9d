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
	if (dumps__init(&run->dumps, run__warn, run) < 0 || counts__init(&run->counts, MAX_COUNT_SLOTS) < 0) {
		run__free(run);
		return NULL;
	}
	classify__init(&run->classify, perf, &run->dumps, &run->natives, &run->opts);
	return run;
}

void run__free(struct run *run)
{
	if (!run)
		return;
	dumps__release(&run->dumps);
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

/* Count the sample at its object and offset, then in its class; a full count
 * table makes it unattributed.table-full (warned once). */
static void count(struct run *run, uint32_t ev, uint64_t period, const struct classify_verdict *v)
{
	enum hb_sample_class c = v->cls;

	if (counts__add(&run->counts, v->obj, ev, v->off, period) < 0) {
		if (!run->table_full_warned)
			run__warn(run, "sample table full (%u distinct offsets); further new offsets are counted as %s",
				  MAX_COUNT_SLOTS / 2, "unattributed.table-full");
		run->table_full_warned = true;
		c = HB_CLASS_TABLE_FULL;
	}
	run__account(run, ev, c, period);
}

/* Account a sample that is not held back (again). */
static void place(struct run *run, uint32_t ev, uint64_t period, const struct classify_verdict *v)
{
	if (v->cls == HB_CLASS_JIT || v->cls == HB_CLASS_NATIVE)
		count(run, ev, period, v);
	else
		run__account(run, ev, v->cls, period);
}

void run__settle(struct run *run, uint32_t ev, const struct perf_dlfilter_sample *s,
		 const struct classify_verdict *v)
{
	if (v->in_jit_code)
		run__check_time_aware(run, ev);
	if (v->hold) {
		struct pending_sample held = { s->ip, s->time, s->period, (uint32_t)s->pid, ev };

		if (!pending__hold(&run->pending, &held))
			return;
		if (!run->pending_full_warned)
			run__warn(run, "too many samples waiting for jitdump records; the rest are counted as unattributed");
		run->pending_full_warned = true;
	}
	place(run, ev, s->period, v);
}

void run__place_held(struct run *run)
{
	for (size_t i = 0; i < run->pending.nr; i++) {
		const struct pending_sample *s = &run->pending.v[i];
		struct classify_verdict v = classify__held(&run->classify, s->pid, s->ip, s->time,
							   run->events[s->ev].time_aware);

		place(run, s->ev, s->period, &v);
	}
	pending__clear(&run->pending);
}

void run__explain_unresolved(struct run *run)
{
	uint64_t no_load = 0, before = 0, jit = 0;

	for (size_t e = 0; e < run->events_nr; e++) {
		no_load += run->totals[e][HB_CLASS_JIT_NO_LOAD][0];
		before += run->totals[e][HB_CLASS_BEFORE_LOAD][0];
		jit += run->totals[e][HB_CLASS_JIT][0];
	}
	/* A few strays (a stub perf did not see either) are worth a line; a
	 * missing or unreadable jitdump (>= 1% unresolved) is worth the full hint. */
	if (no_load && no_load * 100 < jit) {
		run__warn(run, "%" PRIu64 " sample%s in JIT-looking memory matched no jitdump code load"
			  " (%zu jitdump%s read: code its JIT did not log, e.g. a stub)",
			  no_load, no_load == 1 ? "" : "s", run->dumps.nr, run->dumps.nr == 1 ? "" : "s");
	} else if (no_load) {
		fprintf(stderr,
			"hotblocks: warning: %" PRIu64 " sample%s in JIT-looking memory matched no jitdump code load.\n"
			"  perf.data scanned for jitdump markers: %s\n"
			"  jitdumps read: %zu; searched:\n%s"
			"  fix: run the JIT with its jitdump enabled (node --perf-prof, wasmtime --profile=jitdump),\n"
			"  keep jit-<pid>.dump next to perf.data, or pass --dlarg jitdump=FILE / --dlarg jitdir=DIR\n",
			no_load, no_load == 1 ? "" : "s", run->classify.live ? "(none: pipe input)" : run->perf_data,
			run->dumps.nr, run->dumps.searched_len ? run->dumps.searched : "  (nothing)\n");
	}
	if (before)
		run__warn(run, "%" PRIu64 " sample%s hit JIT code before its load record's time"
			  " (counted as unattributed.before-load)", before, before == 1 ? "" : "s");
}

void run__end_progress(struct run *run)
{
	if (run->progress_shown)
		fputs("\r\033[K", stderr);
	run->progress_shown = false;
}

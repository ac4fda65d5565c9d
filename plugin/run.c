// SPDX-License-Identifier: MIT
/* One perf script run: its state, events, sample accounting and warnings (see run.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "message.h"
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
	classify__init(&run->classify, perf, &run->dumps, &run->natives, &run->resolve, &run->opts);
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
	message__say("hotblocks: warning: %s\n", msg);
	if (run->warnings_nr < MAX_WARNINGS) {
		run->warnings[run->warnings_nr] = strdup(msg);
		if (run->warnings[run->warnings_nr])
			run->warnings_nr++;
	}
}

/* Times of the event's samples are comparable with the dumps' only when perf
 * recorded them at all (PERF_SAMPLE_TIME: perf record sets it unless
 * --per-thread is given without -T) and used CLOCK_MONOTONIC (-k mono). */
static void read_clock(struct run *run, void *ctx, struct event *e)
{
	struct perf_event_attr *attr = run->perf->attr ? run->perf->attr(ctx) : NULL;

	e->timed = attr && (attr->sample_type & PERF_SAMPLE_TIME);
	e->mono = attr && attr->use_clockid && attr->clockid == CLOCK_MONOTONIC;
	e->time_aware = e->timed && e->mono;
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
	read_clock(run, ctx, e);
	run->last_event_ptr = name;
	return run->last_event = (uint32_t)run->events_nr++;
}

void run__check_time_aware(struct run *run, uint32_t ev)
{
	struct event *e = &run->events[ev];

	if (e->time_aware || e->clock_warned)
		return;
	e->clock_warned = true;
	if (!e->timed)
		run__warn(run, "event %s has no sample times (`perf record --per-thread` without `-T`/`--timestamp`):"
			  " JIT samples cannot be matched to code loads by time; where several loads covered"
			  " an address they are counted as unattributed.ambiguous (record with -k mono -T)", e->name);
	else
		run__warn(run, "event %s was not recorded with `perf record -k mono`: its sample times are not the"
			  " jitdumps' and JIT samples cannot be matched to code loads by time; where several loads"
			  " covered an address they are counted as unattributed.ambiguous", e->name);
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

/* An ambiguous sample at (pid, ip): tallied by the loads covering ip, to name them. */
static void tally_ambiguous(struct run *run, uint32_t pid, uint64_t ip)
{
	struct ambiguous_set key = { .pid = pid };
	size_t i;

	key.nr = codemap__covering(run->dumps.map, pid, ip, key.ids, AMBIGUOUS_NAMED);
	for (i = 0; i < run->ambiguous_nr; i++) {
		struct ambiguous_set *a = &run->ambiguous[i];

		if (a->pid == pid && a->nr == key.nr && !memcmp(a->ids, key.ids, sizeof(key.ids)))
			break;
	}
	if (i == run->ambiguous_nr) {
		if (i == MAX_AMBIGUOUS_SETS) {
			run->ambiguous_other++;
			return;
		}
		run->ambiguous[run->ambiguous_nr++] = key;
	}
	run->ambiguous[i].samples++;
}

/* Account sample (pid, ip) that is not held back (again). */
static void place(struct run *run, uint32_t ev, uint32_t pid, uint64_t ip, uint64_t period,
		  const struct classify_verdict *v)
{
	if (v->cls == HB_CLASS_JIT || v->cls == HB_CLASS_NATIVE || v->cls == HB_CLASS_PERFMAP) {
		count(run, ev, period, v);
		return;
	}
	if (v->cls == HB_CLASS_AMBIGUOUS)
		tally_ambiguous(run, pid, ip);
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
	place(run, ev, (uint32_t)s->pid, s->ip, s->period, v);
}

void run__place_held(struct run *run)
{
	for (size_t i = 0; i < run->pending.nr; i++) {
		const struct pending_sample *s = &run->pending.v[i];
		struct classify_verdict v = classify__held(&run->classify, s->pid, s->ip, s->time,
							   run->events[s->ev].time_aware);

		if (v.in_jit_code)
			run__check_time_aware(run, s->ev);
		place(run, s->ev, s->pid, s->ip, s->period, &v);
	}
	pending__clear(&run->pending);
}

/* At most max bytes of name to *out, not cutting a UTF-8 character, control
 * bytes as \xNN (names come from the profiled program); "..." when cut. */
static void put_name(char **out, const char *end, const char *name, size_t max)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t n = 0;

	while (s[n] && n < max)
		n++;
	/* Not inside a character: back to its first byte. */
	if (s[n])
		while (n && (s[n] & 0xc0) == 0x80)
			n--;
	for (size_t i = 0; i < n && *out + 5 < end; i++)
		*out += s[i] < 0x20 || s[i] == 0x7f ? sprintf(*out, "\\x%02x", s[i]) : sprintf(*out, "%c", s[i]);
	if (s[n] && *out + 4 < end)
		*out += sprintf(*out, "...");
}

static int by_samples(const void *a, const void *b)
{
	const struct ambiguous_set *x = a, *y = b;

	return x->samples != y->samples ? (x->samples < y->samples ? 1 : -1) : 0;
}

/* Name the loads ambiguous samples could have been, the most sampled sets first. */
static void explain_ambiguous(struct run *run, uint64_t ambiguous)
{
	enum { SETS = 3, NAME = 40 };
	char text[768], *out = text, *end = text + sizeof(text);

	qsort(run->ambiguous, run->ambiguous_nr, sizeof(run->ambiguous[0]), by_samples);
	text[0] = '\0';
	for (size_t i = 0; i < run->ambiguous_nr && i < SETS; i++) {
		const struct ambiguous_set *a = &run->ambiguous[i];
		size_t named = a->nr < AMBIGUOUS_NAMED ? a->nr : AMBIGUOUS_NAMED;

		out += snprintf(out, (size_t)(end - out), "%s", i ? "; " : "");
		for (size_t k = 0; k < named && out + 8 < end; k++) {
			const struct jitdump_load *l = dumps__load(&run->dumps, a->ids[k], NULL);

			out += snprintf(out, (size_t)(end - out), "%s", k ? " or " : "");
			put_name(&out, end - 32, l && l->name ? l->name : "?", NAME);
		}
		if (out + 40 < end)
			out += snprintf(out, (size_t)(end - out), "%s (pid %" PRIu32 ", %" PRIu64 ")",
					a->nr > named ? " or others" : "", a->pid, a->samples);
	}
	if (run->ambiguous_nr > SETS && out + 24 < end)
		snprintf(out, (size_t)(end - out), "; and other loads");
	run__warn(run, "%" PRIu64 " JIT sample%s hit addresses that several code loads covered, with no time to tell"
		  " which ran (counted as unattributed.ambiguous): %s", ambiguous, ambiguous == 1 ? "" : "s", text);
}

void run__explain_unresolved(struct run *run)
{
	uint64_t no_load = 0, before = 0, jit = 0, ambiguous = 0;

	for (size_t e = 0; e < run->events_nr; e++) {
		no_load += run->totals[e][HB_CLASS_JIT_NO_LOAD][0];
		before += run->totals[e][HB_CLASS_BEFORE_LOAD][0];
		jit += run->totals[e][HB_CLASS_JIT][0];
		ambiguous += run->totals[e][HB_CLASS_AMBIGUOUS][0];
	}
	if (ambiguous)
		explain_ambiguous(run, ambiguous);
	/* A few strays (a stub perf did not see either) are worth a line; a
	 * missing or unreadable jitdump (>= 1% unresolved) is worth the full hint. */
	if (no_load && no_load * 100 < jit) {
		run__warn(run, "%" PRIu64 " sample%s in JIT-looking memory matched no jitdump code load"
			  " (%zu jitdump%s read: code its JIT did not log, e.g. a stub)",
			  no_load, no_load == 1 ? "" : "s", run->dumps.nr, run->dumps.nr == 1 ? "" : "s");
	} else if (no_load) {
		message__say(
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

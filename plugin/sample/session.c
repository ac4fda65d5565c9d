// SPDX-License-Identifier: MIT
/* One perf script run: its state, events, sample accounting and warnings (see session.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "../lib/message.h"
#include "session.h"

/* Samples between two updates of the progress line. */
#define PROGRESS_EVERY (1u << 18)

struct session *session__new(const struct perf_dlfilter_fns *perf)
{
	struct session *session = calloc(1, sizeof(*session));

	if (!session)
		return NULL;
	session->perf = perf;
	session->out_fd = -1;
	natives__init(&session->natives);
	resolve__init(&session->resolve);
	if (dumps__init(&session->dumps, session__warn, session) < 0 || tally__init(&session->counts, MAX_COUNT_SLOTS) < 0) {
		session__free(session);
		return NULL;
	}
	classify__init(&session->classify, perf, &session->dumps, &session->natives, &session->resolve, &session->opts);
	return session;
}

void session__free(struct session *session)
{
	if (!session)
		return;
	dumps__release(&session->dumps);
	resolve__release(&session->resolve);
	natives__release(&session->natives);
	tally__release(&session->counts);
	classify__release(&session->classify);
	pending__release(&session->pending);
	for (size_t i = 0; i < session->events_nr; i++)
		free(session->events[i].name);
	for (size_t i = 0; i < session->warnings_nr; i++)
		free(session->warnings[i]);
	if (session->out_fd >= 0)
		close(session->out_fd);
	options__release(&session->opts);
	free(session->perf_data);
	free(session);
}

void session__warn(void *arg, const char *fmt, ...)
{
	struct session *session = arg;
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < session->warnings_nr; i++)
		if (!strcmp(session->warnings[i], msg))
			return;
	message__say("hotblocks: warning: %s\n", msg);
	if (session->warnings_nr < MAX_WARNINGS) {
		session->warnings[session->warnings_nr] = strdup(msg);
		if (session->warnings[session->warnings_nr])
			session->warnings_nr++;
	}
}

/* Times of the event's samples are comparable with the dumps' only when perf
 * recorded them at all (PERF_SAMPLE_TIME: perf record sets it unless
 * --per-thread is given without -T) and used CLOCK_MONOTONIC (-k mono). */
static void read_clock(struct session *session, void *ctx, struct event *e)
{
	struct perf_event_attr *attr = session->perf->attr ? session->perf->attr(ctx) : NULL;

	e->timed = attr && (attr->sample_type & PERF_SAMPLE_TIME);
	e->mono = attr && attr->use_clockid && attr->clockid == CLOCK_MONOTONIC;
	e->time_aware = e->timed && e->mono;
}

uint32_t session__event(struct session *session, const char *name, void *ctx)
{
	if (name && name == session->last_event_ptr)
		return session->last_event;
	if (!name)
		name = "unknown";
	for (size_t i = 0; i < session->events_nr; i++) {
		if (session->events[i].seen_ptr == name || !strcmp(session->events[i].name, name)) {
			session->events[i].seen_ptr = name;
			session->last_event_ptr = name;
			return session->last_event = (uint32_t)i;
		}
	}
	if (session->events_nr == MAX_EVENTS) {
		session__warn(session, "more than %d events: the rest are counted as %s", MAX_EVENTS,
			  session->events[MAX_EVENTS - 1].name);
		return MAX_EVENTS - 1;
	}
	struct event *e = &session->events[session->events_nr];

	e->name = strdup(name);
	if (!e->name)
		return session->events_nr ? (uint32_t)session->events_nr - 1 : 0;
	e->seen_ptr = name;
	read_clock(session, ctx, e);
	session->last_event_ptr = name;
	return session->last_event = (uint32_t)session->events_nr++;
}

void session__check_time_aware(struct session *session, uint32_t ev)
{
	struct event *e = &session->events[ev];

	if (e->time_aware || e->clock_warned)
		return;
	e->clock_warned = true;
	if (!e->timed)
		session__warn(session, "event %s has no sample times (`perf record --per-thread` without `-T`/`--timestamp`):"
			  " JIT samples cannot be matched to code loads by time; where several loads covered"
			  " an address they are counted as unattributed.ambiguous (record with -k mono -T)", e->name);
	else
		session__warn(session, "event %s was not recorded with `perf record -k mono`: its sample times are not the"
			  " jitdumps' and JIT samples cannot be matched to code loads by time; where several loads"
			  " covered an address they are counted as unattributed.ambiguous", e->name);
}

bool session__time_aware(const struct session *session)
{
	bool time_aware = session->events_nr > 0;

	for (size_t e = 0; e < session->events_nr; e++)
		time_aware &= session->events[e].time_aware;
	return time_aware;
}

void session__account(struct session *session, uint32_t ev, enum hb_sample_class c, uint64_t period)
{
	session->totals[ev][c][0]++;
	session->totals[ev][c][1] += period;
	if (c == HB_CLASS_ALL && session->progress && !(++session->seen % PROGRESS_EVERY)) {
		fprintf(stderr, "\rhotblocks.so: %" PRIu64 " samples...", session->seen);
		session->progress_shown = true;
	}
}

/* Count the sample at its object and offset, then in its class; a full count
 * table makes it unattributed.table-full (warned once). */
static void count(struct session *session, uint32_t ev, uint64_t period, const struct classify_verdict *v)
{
	enum hb_sample_class c = v->cls;

	if (tally__add(&session->counts, v->obj, ev, v->off, period) < 0) {
		if (!session->table_full_warned)
			session__warn(session, "sample table full (%u distinct offsets); further new offsets are counted as %s",
				  MAX_COUNT_SLOTS / 2, "unattributed.table-full");
		session->table_full_warned = true;
		c = HB_CLASS_TABLE_FULL;
	}
	session__account(session, ev, c, period);
}

/* An ambiguous sample at (pid, ip): tallied by the loads covering ip, to name them. */
static void tally_ambiguous(struct session *session, uint32_t pid, uint64_t ip)
{
	struct ambiguous_set key = { .pid = pid };
	size_t i;

	key.nr = codemap__covering(session->dumps.map, pid, ip, key.ids, AMBIGUOUS_NAMED);
	for (i = 0; i < session->ambiguous_nr; i++) {
		struct ambiguous_set *a = &session->ambiguous[i];

		if (a->pid == pid && a->nr == key.nr && !memcmp(a->ids, key.ids, sizeof(key.ids)))
			break;
	}
	if (i == session->ambiguous_nr) {
		if (i == MAX_AMBIGUOUS_SETS) {
			session->ambiguous_other++;
			return;
		}
		session->ambiguous[session->ambiguous_nr++] = key;
	}
	session->ambiguous[i].samples++;
}

/* Account sample (pid, ip) that is not held back (again). */
static void place(struct session *session, uint32_t ev, uint32_t pid, uint64_t ip, uint64_t period,
		  const struct classify_verdict *v)
{
	if (v->cls == HB_CLASS_JIT || v->cls == HB_CLASS_NATIVE || v->cls == HB_CLASS_PERFMAP) {
		count(session, ev, period, v);
		return;
	}
	if (v->cls == HB_CLASS_AMBIGUOUS)
		tally_ambiguous(session, pid, ip);
	session__account(session, ev, v->cls, period);
}

void session__settle(struct session *session, uint32_t ev, const struct perf_dlfilter_sample *s,
		 const struct classify_verdict *v)
{
	if (v->in_jit_code)
		session__check_time_aware(session, ev);
	if (v->hold) {
		struct pending_sample held = { s->ip, s->time, s->period, (uint32_t)s->pid, ev };

		if (!pending__hold(&session->pending, &held))
			return;
		if (!session->pending_full_warned)
			session__warn(session, "too many samples waiting for jitdump records; the rest are counted as unattributed");
		session->pending_full_warned = true;
	}
	place(session, ev, (uint32_t)s->pid, s->ip, s->period, v);
}

void session__place_held(struct session *session)
{
	for (size_t i = 0; i < session->pending.nr; i++) {
		const struct pending_sample *s = &session->pending.v[i];
		struct classify_verdict v = classify__held(&session->classify, s->pid, s->ip, s->time,
							   session->events[s->ev].time_aware);

		if (v.in_jit_code)
			session__check_time_aware(session, s->ev);
		place(session, s->ev, s->pid, s->ip, s->period, &v);
	}
	pending__clear(&session->pending);
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
static void explain_ambiguous(struct session *session, uint64_t ambiguous)
{
	enum { SETS = 3, NAME = 40 };
	char text[768], *out = text, *end = text + sizeof(text);

	qsort(session->ambiguous, session->ambiguous_nr, sizeof(session->ambiguous[0]), by_samples);
	text[0] = '\0';
	for (size_t i = 0; i < session->ambiguous_nr && i < SETS; i++) {
		const struct ambiguous_set *a = &session->ambiguous[i];
		size_t named = a->nr < AMBIGUOUS_NAMED ? a->nr : AMBIGUOUS_NAMED;

		out += snprintf(out, (size_t)(end - out), "%s", i ? "; " : "");
		for (size_t k = 0; k < named && out + 8 < end; k++) {
			const struct jitdump_load *l = dumps__load(&session->dumps, a->ids[k], NULL);

			out += snprintf(out, (size_t)(end - out), "%s", k ? " or " : "");
			put_name(&out, end - 32, l && l->name ? l->name : "?", NAME);
		}
		if (out + 40 < end)
			out += snprintf(out, (size_t)(end - out), "%s (pid %" PRIu32 ", %" PRIu64 ")",
					a->nr > named ? " or others" : "", a->pid, a->samples);
	}
	if (session->ambiguous_nr > SETS && out + 24 < end)
		snprintf(out, (size_t)(end - out), "; and other loads");
	session__warn(session, "%" PRIu64 " JIT sample%s hit addresses that several code loads covered, with no time to tell"
		  " which ran (counted as unattributed.ambiguous): %s", ambiguous, ambiguous == 1 ? "" : "s", text);
}

void session__explain_unresolved(struct session *session)
{
	uint64_t no_load = 0, before = 0, jit = 0, ambiguous = 0;

	for (size_t e = 0; e < session->events_nr; e++) {
		no_load += session->totals[e][HB_CLASS_JIT_NO_LOAD][0];
		before += session->totals[e][HB_CLASS_BEFORE_LOAD][0];
		jit += session->totals[e][HB_CLASS_JIT][0];
		ambiguous += session->totals[e][HB_CLASS_AMBIGUOUS][0];
	}
	if (ambiguous)
		explain_ambiguous(session, ambiguous);
	/* A few strays (a stub perf did not see either) are worth a line; a
	 * missing or unreadable jitdump (>= 1% unresolved) is worth the full hint. */
	if (no_load && no_load * 100 < jit) {
		session__warn(session, "%" PRIu64 " sample%s in JIT-looking memory matched no jitdump code load"
			  " (%zu jitdump%s read: code its JIT did not log, e.g. a stub)",
			  no_load, no_load == 1 ? "" : "s", session->dumps.nr, session->dumps.nr == 1 ? "" : "s");
	} else if (no_load) {
		message__say(
			"hotblocks: warning: %" PRIu64 " sample%s in JIT-looking memory matched no jitdump code load.\n"
			"  perf.data scanned for jitdump markers: %s\n"
			"  jitdumps read: %zu; searched:\n%s"
			"  fix: run the JIT with its jitdump enabled (node --perf-prof, wasmtime --profile=jitdump),\n"
			"  keep jit-<pid>.dump next to perf.data, or pass --dlarg jitdump=FILE / --dlarg jitdir=DIR\n",
			no_load, no_load == 1 ? "" : "s", session->classify.live ? "(none: pipe input)" : session->perf_data,
			session->dumps.nr, session->dumps.searched_len ? session->dumps.searched : "  (nothing)\n");
	}
	if (before)
		session__warn(session, "%" PRIu64 " sample%s hit JIT code before its load record's time"
			  " (counted as unattributed.before-load)", before, before == 1 ? "" : "s");
}

void session__end_progress(struct session *session)
{
	if (session->progress_shown)
		fputs("\r\033[K", stderr);
	session->progress_shown = false;
}

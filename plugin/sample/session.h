/* SPDX-License-Identifier: MIT */
/*
 * One perf script run as the plugin sees it: what it was told, what it reads
 * (the jitdumps, perf's symbols) and what it has counted. Every sample perf
 * hands the plugin is accounted here in exactly one class per event
 * (STREAM.md "total classes"), and the warnings the stream repeats are kept
 * here.
 */
#ifndef PLUGIN_SESSION_H
#define PLUGIN_SESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perf/perf_dlfilter.h>

#include "classify.h"
#include "tally.h"
#include "../jit/dumps.h"
#include "../native/natives.h"
#include "../perf/options.h"
#include "pending.h"
#include "../native/resolve.h"
#include "../lib/stream-format.h"

/* Events beyond this many are counted as the last one (with a warning). */
#define MAX_EVENTS 32
/* Distinct warnings kept for the stream; all are printed. */
#define MAX_WARNINGS 64
/* Count table bound: 16M distinct (object, event, offset) keys, ~512 MiB. */
#define MAX_COUNT_SLOTS (1u << 25)

struct event {
	const char *seen_ptr;	/* perf's string for this event, compared by address first */
	char *name;
	bool timed;		/* its samples carry times (not so: perf record --per-thread without -T) */
	bool mono;		/* ... on the jitdumps' clock (perf record -k mono) */
	bool time_aware;	/* both: JIT samples are matched by time (JITDUMP.md "Time") */
	bool clock_warned;
};

/* Distinct sets of loads that ambiguous samples (unattributed.ambiguous) fell
 * in, kept to name them; the samples of further sets are only counted. */
#define MAX_AMBIGUOUS_SETS 64
/* Loads of a set kept by id; the set's size is kept too. */
#define AMBIGUOUS_NAMED 4

struct ambiguous_set {
	uint32_t pid;
	uint32_t ids[AMBIGUOUS_NAMED];	/* code map ids of the loads covering the address */
	size_t nr;			/* how many loads cover it */
	uint64_t samples;
};

struct session {
	const struct perf_dlfilter_fns *perf;	/* perf's callbacks */
	bool started;		/* start() succeeded: stop() writes the stream */

	struct options opts;
	char *perf_data;	/* the recording perf reads; "-" for a pipe */
	bool defer;		/* perf filters samples itself: classify only what it keeps */
	bool symfs;		/* perf script --symfs: natives go through perf's resolution */
	int out_fd;		/* out=FILE, opened and checked in start(); -1: stdout */

	struct dumps dumps;
	struct natives natives;
	struct resolve resolve;	/* native samples resolved without perf's symbols */
	struct tally counts;
	struct classify classify;	/* live: the input is a pipe, dumps may still be growing */
	struct pending pending;

	struct event events[MAX_EVENTS];
	size_t events_nr;
	const char *last_event_ptr;
	uint32_t last_event;
	uint64_t totals[MAX_EVENTS][HB_CLASS__NR][2];	/* [event][class] = {samples, period} */

	/* Progress on a terminal: perf script can run for minutes on big files. */
	bool progress;
	bool progress_shown;
	uint64_t seen;

	struct ambiguous_set ambiguous[MAX_AMBIGUOUS_SETS];
	size_t ambiguous_nr;
	uint64_t ambiguous_other;	/* samples of sets past MAX_AMBIGUOUS_SETS */

	char *warnings[MAX_WARNINGS];
	size_t warnings_nr;
	bool table_full_warned;
	bool pending_full_warned;
};

/* A run with nothing counted and no option set yet; NULL when out of memory.
 * perf is kept (it must outlive the session). */
struct session *session__new(const struct perf_dlfilter_fns *perf);
void session__free(struct session *session);

/* Print "hotblocks: warning: ..." once per distinct message and keep it for
 * the stream. Takes a void * so it can serve as the dumps' warn callback. */
__attribute__((format(printf, 2, 3)))
void session__warn(void *session, const char *fmt, ...);

/* The id of the sample's event (perf's evsel name; NULL counts as "unknown").
 * A new event's clock is read from perf's attr(ctx). */
uint32_t session__event(struct session *session, const char *name, void *ctx);

/* A JIT sample of event ev was placed: warn once if its times were not usable. */
void session__check_time_aware(struct session *session, uint32_t ev);

/* Whether every event seen was recorded with -k mono (and any was seen). */
bool session__time_aware(const struct session *session);

/* Count a sample in class c (and in `all` when c is HB_CLASS_ALL). */
void session__account(struct session *session, uint32_t ev, enum hb_sample_class c, uint64_t period);

/*
 * Account sample s of event ev as classification decided (v): held back when
 * v says so (live mode; at once in v->cls when too many are held, warned
 * once), else counted at its object and offset (a full count table makes it
 * unattributed.table-full, warned once) or in its class.
 */
void session__settle(struct session *session, uint32_t ev, const struct perf_dlfilter_sample *s,
		 const struct classify_verdict *v);

/* The dumps are complete: classify and account every held sample. */
void session__place_held(struct session *session);

/* After the last sample: say why JIT samples matched no load, if any did
 * not, and which loads ambiguous ones could have been. */
void session__explain_unresolved(struct session *session);

/* Clear the progress line, if one was shown. */
void session__end_progress(struct session *session);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The run's accounting: every sample perf hands the plugin is counted here in
 * exactly one class per event (STREAM.md "total classes"), and an attributed
 * one also at its object and offset. What classification decided (a
 * verdict, classify.h) comes in; counts go out to the stream. In live mode a
 * sample whose JIT load may still be written is held back here and placed
 * once the dumps are complete.
 */
#ifndef PLUGIN_SAMPLE_ACCOUNT_H
#define PLUGIN_SAMPLE_ACCOUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perf/perf_dlfilter.h>

#include "../lib/stream-format.h"
#include "../lib/warnings.h"
#include "classify.h"
#include "events.h"
#include "pending.h"
#include "tally.h"

/* Count table bound: 16M distinct (object, event, offset) keys, ~1.1 GiB. */
#define MAX_COUNT_SLOTS (1u << 25)
/* Distinct sets of loads that ambiguous samples (unattributed.ambiguous) fell
 * in, kept to name them; the samples of further sets are only counted. */
#define MAX_AMBIGUOUS_SETS 64

struct ambiguous_set {
	uint32_t pid;
	uint32_t ids[AMBIGUOUS_NAMED];	/* code map ids of the loads covering the address */
	size_t nr;			/* how many loads cover it */
	uint64_t samples;
};

struct account {
	struct events *events;		/* borrowed: a JIT sample's event must be time-aware */
	struct warnings *warnings;	/* borrowed */
	struct tally counts;		/* attributed samples by (object, event, offset) */
	struct pending pending;		/* live mode: samples held back */
	uint64_t totals[MAX_EVENTS][HB_CLASS__NR][2];	/* [event][class] = {samples, period} */

	struct ambiguous_set ambiguous[MAX_AMBIGUOUS_SETS];
	size_t ambiguous_nr;
	uint64_t ambiguous_other;	/* samples of sets past MAX_AMBIGUOUS_SETS */

	/* Progress on a terminal: perf script can run for minutes on big files. */
	bool progress;
	bool progress_shown;
	uint64_t seen;

	bool table_full_warned;
	bool pending_full_warned;
};

/* Nothing counted; events and warnings must outlive a. 0 or -ENOMEM. */
int account__init(struct account *a, struct events *events, struct warnings *warnings);
void account__release(struct account *a);

/* Count a sample in class c (and in `all` when c is HB_CLASS_ALL: each
 * sample perf hands the plugin, once). */
void account__count(struct account *a, uint32_t ev, enum hb_sample_class c, uint64_t period);

/*
 * Account sample s of event ev as classification decided (v): held back when
 * v says so (live mode; at once in v->cls when too many are held, warned
 * once), else counted at its object and offset (a full count table makes it
 * unattributed.table-full, warned once) or in its class.
 */
void account__settle(struct account *a, uint32_t ev, const struct perf_dlfilter_sample *s,
		     const struct classify_verdict *v);

/* The dumps are complete: classify (c) and account every held sample. */
void account__place_held(struct account *a, struct classify *c);

/* Samples of class c over every event. */
uint64_t account__total(const struct account *a, enum hb_sample_class c);

/* Clear the progress line, if one was shown. */
void account__end_progress(struct account *a);

#endif

// SPDX-License-Identifier: MIT
/* The run's accounting of samples (see account.h). */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "account.h"

/* Samples between two updates of the progress line. */
#define PROGRESS_EVERY (1u << 18)

int account__init(struct account *a, struct events *events, struct warnings *warnings)
{
	memset(a, 0, sizeof(*a));
	a->events = events;
	a->warnings = warnings;
	return tally__init(&a->counts, MAX_COUNT_SLOTS);
}

void account__release(struct account *a)
{
	tally__release(&a->counts);
	pending__release(&a->pending);
}

void account__count(struct account *a, uint32_t ev, enum hb_sample_class c, uint64_t period)
{
	a->totals[ev][c][0]++;
	a->totals[ev][c][1] += period;
	if (c == HB_CLASS_ALL && a->progress && !(++a->seen % PROGRESS_EVERY)) {
		fprintf(stderr, "\rhotblocks.so: %" PRIu64 " samples...", a->seen);
		a->progress_shown = true;
	}
}

/* Count the sample at its object and offset, then in its class; a full count
 * table makes it unattributed.table-full (warned once). */
static void count_at(struct account *a, uint32_t ev, uint64_t period, const struct classify_verdict *v)
{
	enum hb_sample_class c = v->cls;

	if (tally__add(&a->counts, v->obj, ev, v->off, period) < 0) {
		if (!a->table_full_warned)
			warnings__add(a->warnings, "sample table full (%u distinct offsets); further new offsets are counted as %s",
				      MAX_COUNT_SLOTS / 2, "unattributed.table-full");
		a->table_full_warned = true;
		c = HB_CLASS_TABLE_FULL;
	}
	account__count(a, ev, c, period);
}

/* An ambiguous sample of pid: tallied by the loads that covered it, to name them. */
static void tally_ambiguous(struct account *a, uint32_t pid, const struct classify_verdict *v)
{
	struct ambiguous_set key = { .pid = pid, .nr = v->covering_nr };
	size_t i;

	memcpy(key.ids, v->covering, sizeof(key.ids));
	for (i = 0; i < a->ambiguous_nr; i++) {
		struct ambiguous_set *s = &a->ambiguous[i];

		if (s->pid == pid && s->nr == key.nr && !memcmp(s->ids, key.ids, sizeof(key.ids)))
			break;
	}
	if (i == a->ambiguous_nr) {
		if (i == MAX_AMBIGUOUS_SETS) {
			a->ambiguous_other++;
			return;
		}
		a->ambiguous[a->ambiguous_nr++] = key;
	}
	a->ambiguous[i].samples++;
}

/* Account a sample of pid that is not held back (again). */
static void place(struct account *a, uint32_t ev, uint32_t pid, uint64_t period, const struct classify_verdict *v)
{
	if (v->in_jit_code)
		events__check_time_aware(a->events, ev);
	if (v->cls == HB_CLASS_JIT || v->cls == HB_CLASS_NATIVE || v->cls == HB_CLASS_PERFMAP) {
		count_at(a, ev, period, v);
		return;
	}
	if (v->cls == HB_CLASS_AMBIGUOUS)
		tally_ambiguous(a, pid, v);
	account__count(a, ev, v->cls, period);
}

void account__settle(struct account *a, uint32_t ev, const struct perf_dlfilter_sample *s,
		     const struct classify_verdict *v)
{
	if (v->hold) {
		struct pending_sample held = { s->ip, s->time, s->period, (uint32_t)s->pid, ev };

		if (v->in_jit_code)
			events__check_time_aware(a->events, ev);
		if (!pending__hold(&a->pending, &held))
			return;
		if (!a->pending_full_warned)
			warnings__add(a->warnings, "too many samples waiting for jitdump records; the rest are counted as unattributed");
		a->pending_full_warned = true;
	}
	place(a, ev, (uint32_t)s->pid, s->period, v);
}

void account__place_held(struct account *a, struct classify *c)
{
	for (size_t i = 0; i < a->pending.nr; i++) {
		const struct pending_sample *s = &a->pending.v[i];
		struct classify_verdict v = classify__held(c, s->pid, s->ip, s->time, a->events->v[s->ev].time_aware);

		place(a, s->ev, s->pid, s->period, &v);
	}
	pending__clear(&a->pending);
}

uint64_t account__total(const struct account *a, enum hb_sample_class c)
{
	uint64_t n = 0;

	for (size_t e = 0; e < a->events->nr; e++)
		n += a->totals[e][c][0];
	return n;
}

void account__end_progress(struct account *a)
{
	if (a->progress_shown)
		fputs("\r\033[K", stderr);
	a->progress_shown = false;
}

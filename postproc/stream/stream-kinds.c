/* SPDX-License-Identifier: MIT */
/* What code a sample is in, and keeping the samples of some kinds only (--kind; stream.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stream.h"

static const struct {
	unsigned kind;
	const char *name;
} kind_names[] = {
	{ STREAM_KIND_JIT, "jit" },
	{ STREAM_KIND_NATIVE, "native" },
	{ STREAM_KIND_KERNEL, "kernel" },
};

unsigned stream__object_kind(const struct stream_object *obj)
{
	/* A perf map names JIT code (its bytes unknown); a .cwasm is wasmtime's
	 * compiled wasm, the same code its jit dump logs. */
	return obj->kind == HB_KIND_JIT || obj->kind == HB_KIND_CWASM || !strcmp(obj->source, "perf-map") ?
		       STREAM_KIND_JIT : STREAM_KIND_NATIVE;
}

unsigned stream__class_kinds(enum hb_sample_class cls)
{
	switch (cls) {
	case HB_CLASS_JIT:
	case HB_CLASS_PERFMAP:
	case HB_CLASS_BEFORE_LOAD:
	case HB_CLASS_AMBIGUOUS:
	case HB_CLASS_JIT_NO_LOAD:
		return STREAM_KIND_JIT;
	case HB_CLASS_NATIVE:
		return STREAM_KIND_NATIVE | STREAM_KIND_JIT;
	case HB_CLASS_NO_SYMBOL:
		return STREAM_KIND_NATIVE;
	case HB_CLASS_KERNEL:
		return STREAM_KIND_KERNEL;
	default:
		return 0;
	}
}

int stream__parse_kinds(const char *arg, unsigned *kinds)
{
	const char *p = arg;

	for (;;) {
		size_t n = strcspn(p, ","), k;

		for (k = 0; k < ARRAY_SIZE(kind_names); k++)
			if (strlen(kind_names[k].name) == n && !strncmp(p, kind_names[k].name, n))
				break;
		if (k == ARRAY_SIZE(kind_names))
			return -EINVAL;
		*kinds |= kind_names[k].kind;
		if (!p[n])
			return 0;
		p += n + 1;
	}
}

void stream__kinds_text(unsigned kinds, char *buf, size_t len)
{
	size_t at = 0;

	if (len)
		buf[0] = '\0';
	for (size_t k = 0; k < ARRAY_SIZE(kind_names); k++)
		if (kinds & kind_names[k].kind)
			at += (size_t)snprintf(buf + at, at < len ? len - at : 0, "%s%s", at ? "," : "",
					       kind_names[k].name);
}

/* The class obj's samples are counted in (STREAM.md "total classes"). */
static enum hb_sample_class object_class(const struct stream_object *obj)
{
	if (obj->kind == HB_KIND_JIT)
		return HB_CLASS_JIT;
	return !strcmp(obj->source, "perf-map") ? HB_CLASS_PERFMAP : HB_CLASS_NATIVE;
}

/* What a class keeps of n, of which hidden are in objects of kinds not kept. */
static uint64_t kept(unsigned kinds, enum hb_sample_class cls, uint64_t n, uint64_t hidden)
{
	if (!(stream__class_kinds(cls) & kinds))
		return 0;
	return n > hidden ? n - hidden : 0;
}

/* hidden[ev * HB_CLASS__NR + cls] (and per run: [(run * events + ev) * HB_CLASS__NR + cls]):
 * the samples of the objects whose kind is not kept; hidden_period their periods. */
static void count_hidden(const struct stream *s, unsigned kinds, uint64_t *hidden, uint64_t *hidden_period,
			 uint64_t *run_hidden)
{
	for (size_t i = 0; i < s->objects_nr; i++) {
		const struct stream_object *o = &s->objects[i];
		enum hb_sample_class cls = object_class(o);

		if (stream__object_kind(o) & kinds)
			continue;
		for (size_t k = 0; k < o->samples_nr; k++) {
			size_t at = o->samples[k].ev * HB_CLASS__NR + cls;

			hidden[at] = sat_add(hidden[at], o->samples[k].samples);
			hidden_period[at] = sat_add(hidden_period[at], o->samples[k].period);
		}
		for (size_t k = 0; k < o->tally_nr; k++) {
			const struct stream_tally *t = &o->tally[k];
			uint64_t *h = &run_hidden[((size_t)t->run * s->events_nr + t->ev) * HB_CLASS__NR + cls];

			if (t->run < s->runs_nr)
				*h = sat_add(*h, t->samples);
		}
	}
}

/* One run's classes and totals, of the kinds kept. */
static void keep_run(struct stream *s, size_t r, unsigned kinds, uint64_t *run_hidden)
{
	struct stream_run *run = &s->runs[r];

	for (size_t k = 0; k < run->totals_nr; k++)
		run->totals[k].samples = 0;
	for (size_t k = 0; k < run->classes_nr; k++) {
		struct stream_class_total *c = &run->classes[k];
		uint64_t *h = &run_hidden[(r * s->events_nr + c->ev) * HB_CLASS__NR + c->cls];
		uint64_t n = kept(kinds, c->cls, c->samples, *h);

		/* a class given twice in a run: what is hidden leaves it once */
		*h = *h > c->samples ? *h - c->samples : 0;
		c->samples = n;
		for (size_t t = 0; t < run->totals_nr; t++)
			if (run->totals[t].ev == c->ev)
				run->totals[t].samples = sat_add(run->totals[t].samples, n);
	}
}

int stream__keep_kinds(struct stream *s, unsigned kinds)
{
	size_t n = s->events_nr * HB_CLASS__NR;
	uint64_t *hidden = calloc(n ? n : 1, sizeof(*hidden));
	uint64_t *hidden_period = calloc(n ? n : 1, sizeof(*hidden_period));
	uint64_t *run_hidden = calloc(n && s->runs_nr ? n * s->runs_nr : 1, sizeof(*run_hidden));

	if (!hidden || !hidden_period || !run_hidden) {
		free(hidden);
		free(hidden_period);
		free(run_hidden);
		return -ENOMEM;
	}
	s->kinds = kinds;
	count_hidden(s, kinds, hidden, hidden_period, run_hidden);
	for (size_t e = 0; e < s->events_nr; e++) {
		struct stream_event *ev = &s->events[e];

		memcpy(ev->collected, ev->samples, sizeof(ev->collected));
		ev->samples[HB_CLASS_ALL] = 0;
		ev->period[HB_CLASS_ALL] = 0;
		for (int c = HB_CLASS_ALL + 1; c < HB_CLASS__NR; c++) {
			ev->samples[c] = kept(kinds, c, ev->collected[c], hidden[e * HB_CLASS__NR + c]);
			ev->samples[HB_CLASS_ALL] = sat_add(ev->samples[HB_CLASS_ALL], ev->samples[c]);
			ev->period[c] = kept(kinds, c, ev->period[c], hidden_period[e * HB_CLASS__NR + c]);
			ev->period[HB_CLASS_ALL] = sat_add(ev->period[HB_CLASS_ALL], ev->period[c]);
		}
	}
	for (size_t r = 0; r < s->runs_nr; r++)
		keep_run(s, r, kinds, run_hidden);
	for (size_t i = 0; i < s->objects_nr; i++) {
		struct stream_object *o = &s->objects[i];

		if (stream__object_kind(o) & kinds)
			continue;
		o->samples_nr = 0;
		o->tally_nr = 0;
	}
	free(hidden);
	free(hidden_period);
	free(run_hidden);
	return 0;
}

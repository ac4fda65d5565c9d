/* SPDX-License-Identifier: MIT */
/* The merged stream (stream.h): its wire names, its samples merged, its tallies, its lifetime. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stream.h"

const char *stream__kind_name(enum hb_object_kind kind)
{
	return hb_kind_name(kind);
}

const char *stream__class_name(enum hb_sample_class cls)
{
	return hb_class_name(cls);
}

static int sample_cmp(const void *a, const void *b)
{
	const struct stream_sample *x = a, *y = b;

	if (x->obj != y->obj)
		return x->obj < y->obj ? -1 : 1;
	if (x->ev != y->ev)
		return x->ev < y->ev ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return 0;
}

static bool samples_sorted(const struct stream_sample *v, size_t nr)
{
	for (size_t i = 1; i < nr; i++)
		if (sample_cmp(&v[i - 1], &v[i]) > 0)
			return false;
	return true;
}

/*
 * Sort the samples by key. Reading merges each time the array fills: what
 * the last merge left (samples_merged) is sorted already, unless folding
 * renumbered objects since, and a stream written in order needs no sort at
 * all; so the new tail alone is sorted, then the two runs merged, rather
 * than sorting everything again each time (a big stream's millions).
 */
static void sort_samples(struct stream *s)
{
	struct stream_sample *v = s->samples, *tmp;
	size_t nr = s->samples_nr, head = s->samples_merged, i, j, k;

	if (samples_sorted(v, nr))
		return;
	if (head > nr || !samples_sorted(v, head))
		head = 0;
	if (!samples_sorted(v + head, nr - head))
		qsort(v + head, nr - head, sizeof(*v), sample_cmp);
	if (!head || sample_cmp(&v[head - 1], &v[head]) <= 0)
		return;
	tmp = malloc(head * sizeof(*tmp));
	if (!tmp) {
		qsort(v, nr, sizeof(*v), sample_cmp);
		return;
	}
	memcpy(tmp, v, head * sizeof(*tmp));
	/* the head from tmp, the tail in place: k never passes j */
	for (i = 0, j = head, k = 0; i < head; k++)
		v[k] = j < nr && sample_cmp(&v[j], &tmp[i]) < 0 ? v[j++] : tmp[i++];
	free(tmp);
}

int stream__merge_samples(struct stream *s, bool saturate)
{
	size_t n = 0;

	sort_samples(s);
	for (size_t i = 0; i < s->samples_nr; i++) {
		struct stream_sample *last = n ? &s->samples[n - 1] : NULL;

		if (!last || sample_cmp(last, &s->samples[i])) {
			s->samples[n++] = s->samples[i];
		} else if (saturate) {
			last->samples = sat_add(last->samples, s->samples[i].samples);
			last->period = sat_add(last->period, s->samples[i].period);
		} else if (!add_u64(&last->samples, s->samples[i].samples) ||
			   !add_u64(&last->period, s->samples[i].period)) {
			return -ERANGE;
		}
	}
	s->samples_nr = n;
	s->samples_merged = n;
	return 0;
}

int stream__tally_add(struct stream_tally **v, size_t *nr, size_t *alloc, uint32_t run,
		      uint32_t ev, uint64_t samples)
{
	struct stream_tally *last = *nr ? &(*v)[*nr - 1] : NULL;

	if (last && last->run == run && last->ev == ev) {
		last->samples = sat_add(last->samples, samples);
		return 0;
	}
	if (vec_grow((void **)v, alloc, *nr + 1, sizeof(**v)))
		return -ENOMEM;
	(*v)[(*nr)++] = (struct stream_tally){ run, ev, samples };
	return 0;
}

long stream__find_event(const struct stream *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->events_nr; i++)
		if (!strcmp(s->events[i].name, name))
			return (long)i;
	return -1;
}

void stream__init(struct stream *s)
{
	memset(s, 0, sizeof(*s));
}

void stream__release(struct stream *s)
{
	size_t i;

	for (i = 0; i < s->objects_nr; i++) {
		free(s->objects[i].name);
		free(s->objects[i].path);
		free(s->objects[i].code);
		free(s->objects[i].code_file);
		for (size_t j = 0; j < s->objects[i].debug_nr; j++)
			free(s->objects[i].debug[j].file);
		free(s->objects[i].debug);
		free(s->objects[i].tally);
		free(s->objects[i].data);
		free(s->objects[i].joined_name);
	}
	for (i = 0; i < s->runs_nr; i++) {
		free(s->runs[i].input);
		for (size_t j = 0; j < s->runs[i].jitdumps_nr; j++)
			free(s->runs[i].jitdumps[j]);
		free(s->runs[i].jitdumps);
		free(s->runs[i].totals);
		free(s->runs[i].classes);
	}
	free(s->runs);
	free(s->objects);
	for (i = 0; i < s->code_file_problems_nr; i++)
		free(s->code_file_problems[i]);
	free(s->code_file_problems);
	for (i = 0; i < s->events_nr; i++)
		free(s->events[i].name);
	free(s->events);
	for (i = 0; i < s->warnings_nr; i++)
		free(s->warnings[i].text);
	free(s->warnings);
	free(s->lost);
	free(s->samples);
	for (i = 0; i < s->loads_nr; i++)
		free(s->loads[i].name);
	free(s->loads);
	for (i = 0; i < s->maps_nr; i++)
		free(s->maps[i].path);
	for (i = 0; i < s->maps_found_nr; i++)
		free(s->maps_found[i]);
	free(s->maps_found);
	free(s->maps);
	free(s->branches);
	free(s->branch_totals);
	free(s->stacks);
	free(s->frames);
	idx_table_release(&s->obj_tab);
	memset(s, 0, sizeof(*s));
}

const char *stream__map_found(const struct stream *s, size_t i)
{
	return i < s->maps_found_nr ? s->maps_found[i] : NULL;
}

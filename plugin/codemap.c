// SPDX-License-Identifier: MIT
/* Time-aware index of JIT code loads (see codemap.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "codemap.h"

/* Small direct-mapped cache: hot JIT loops hit a handful of ips millions of times. */
#define CACHE_SLOTS 1024

struct cache_slot {
	uint64_t ip;
	uint64_t t_lo, t_hi;	/* the cached answer holds for sample times in [t_lo, t_hi) */
	size_t id;
	uint32_t pid;
	uint8_t valid;
	uint8_t time_aware;
	uint8_t result;
};

struct codemap {
	struct codemap_entry *ents;
	size_t nr, alloc;
	/* Entry ids sorted by (pid, start, id), and the running maximum of `end`
	 * within each pid's run: a backwards walk can stop once no earlier entry
	 * reaches ip. Rebuilt lazily after additions. */
	size_t *order;
	uint64_t *maxend;
	size_t sorted_nr;
	struct cache_slot cache[CACHE_SLOTS];
};

struct codemap *codemap__new(void)
{
	return calloc(1, sizeof(struct codemap));
}

void codemap__free(struct codemap *m)
{
	if (!m)
		return;
	free(m->ents);
	free(m->order);
	free(m->maxend);
	free(m);
}

long codemap__add(struct codemap *m, uint32_t pid, uint64_t start, uint64_t size, uint64_t time,
		  uint32_t owner, size_t owner_idx)
{
	if (m->nr == m->alloc) {
		size_t alloc = m->alloc ? m->alloc * 2 : 256;
		struct codemap_entry *e = reallocarray(m->ents, alloc, sizeof(*e));

		if (!e)
			return -ENOMEM;
		m->ents = e;
		m->alloc = alloc;
	}
	struct codemap_entry *e = &m->ents[m->nr];

	e->start = start;
	/* Saturate: a size that wraps the address space covers up to the top. */
	e->end = start + size < start ? UINT64_MAX : start + size;
	e->time = time;
	e->pid = pid;
	e->owner = owner;
	e->owner_idx = owner_idx;
	memset(m->cache, 0, sizeof(m->cache));
	return (long)m->nr++;
}

static const struct codemap_entry *sort_ents;

static int cmp_order(const void *a, const void *b)
{
	size_t ia = *(const size_t *)a, ib = *(const size_t *)b;
	const struct codemap_entry *x = &sort_ents[ia], *y = &sort_ents[ib];

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return ia < ib ? -1 : ia > ib;
}

static int ensure_sorted(struct codemap *m)
{
	if (m->sorted_nr == m->nr && m->order)
		return 0;
	size_t *order = reallocarray(m->order, m->nr ? m->nr : 1, sizeof(*order));

	if (!order)
		return -ENOMEM;
	m->order = order;
	uint64_t *maxend = reallocarray(m->maxend, m->nr ? m->nr : 1, sizeof(*maxend));

	if (!maxend)
		return -ENOMEM;
	m->maxend = maxend;
	for (size_t i = 0; i < m->nr; i++)
		order[i] = i;
	/* qsort has no context argument; the map is single-threaded (perf calls us from one thread). */
	sort_ents = m->ents;
	qsort(order, m->nr, sizeof(*order), cmp_order);
	sort_ents = NULL;
	for (size_t i = 0; i < m->nr; i++) {
		const struct codemap_entry *e = &m->ents[order[i]];
		bool run_start = i == 0 || m->ents[order[i - 1]].pid != e->pid;

		maxend[i] = run_start || maxend[i - 1] < e->end ? e->end : maxend[i - 1];
	}
	m->sorted_nr = m->nr;
	return 0;
}

/* First index in order[lo, hi) whose (pid, start) is greater than (pid, ip). */
static size_t upper_bound(const struct codemap *m, uint32_t pid, uint64_t ip)
{
	size_t lo = 0, hi = m->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct codemap_entry *e = &m->ents[m->order[mid]];

		if (e->pid < pid || (e->pid == pid && e->start <= ip))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static enum codemap_result full_lookup(const struct codemap *m, uint32_t pid, uint64_t ip,
				       uint64_t time, bool time_aware, size_t *id,
				       uint64_t *t_lo, uint64_t *t_hi)
{
	size_t k = upper_bound(m, pid, ip);
	bool found = false, later = false;
	size_t best = 0;
	uint64_t next_load = UINT64_MAX;

	while (k-- > 0) {
		const struct codemap_entry *e = &m->ents[m->order[k]];

		if (e->pid != pid || m->maxend[k] <= ip)
			break;
		if (e->end <= ip)
			continue;
		if (time_aware && e->time > time) {
			later = true;
			if (e->time < next_load)
				next_load = e->time;
			continue;
		}
		const struct codemap_entry *b = &m->ents[best];

		if (!found || e->time > b->time || (e->time == b->time && m->order[k] > best))
			best = m->order[k];
		found = true;
	}
	*t_hi = next_load;
	if (found) {
		*id = best;
		*t_lo = time_aware ? m->ents[best].time : 0;
		return CODEMAP_HIT;
	}
	*t_lo = 0;
	return later ? CODEMAP_BEFORE_LOAD : CODEMAP_MISS;
}

enum codemap_result codemap__lookup(struct codemap *m, uint32_t pid, uint64_t ip, uint64_t time,
				    bool time_aware, size_t *id)
{
	struct cache_slot *s = &m->cache[(ip ^ (ip >> 12) ^ pid) % CACHE_SLOTS];

	if (s->valid && s->ip == ip && s->pid == pid && s->time_aware == time_aware &&
	    time >= s->t_lo && time < s->t_hi) {
		*id = s->id;
		return s->result;
	}
	if (ensure_sorted(m) < 0)
		return CODEMAP_MISS;

	uint64_t t_lo, t_hi;
	size_t best = 0;
	enum codemap_result r = full_lookup(m, pid, ip, time, time_aware, &best, &t_lo, &t_hi);

	*s = (struct cache_slot){ .ip = ip, .pid = pid, .t_lo = t_lo, .t_hi = t_hi, .id = best,
				  .valid = 1, .time_aware = time_aware, .result = r };
	*id = best;
	return r;
}

bool codemap__has_pid(const struct codemap *m, uint32_t pid)
{
	for (size_t i = 0; i < m->nr; i++)
		if (m->ents[i].pid == pid)
			return true;
	return false;
}

const struct codemap_entry *codemap__entry(const struct codemap *m, size_t id)
{
	return id < m->nr ? &m->ents[id] : NULL;
}

size_t codemap__nr(const struct codemap *m)
{
	return m->nr;
}

// SPDX-License-Identifier: MIT
/* Time-aware index of JIT code loads (see codemap.h). */
#define _GNU_SOURCE	/* qsort_r */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/bsearch.h"
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

/* A point of the (pid, address) line: loads of different pids never meet. */
struct coord {
	uint32_t pid;
	uint64_t addr;
};

/*
 * The index is a segment tree over the elementary intervals between all load
 * boundaries (starts and ends, per pid): each load is stored in the O(log n)
 * nodes that together cover exactly its range, every node's list sorted by
 * (time, id). It is the bottom-up kind (leaves at [n, 2n), parent p / 2),
 * which needs no padding to a power of two: for a range [l, r) the walk of
 * FOR_COVER picks nodes such that every leaf inside has exactly one of them
 * among its ancestors and no leaf outside has any. A point lookup visits the O(log n) nodes above its interval and
 * binary-searches each list, so however loads overlap (one big load over a
 * million small ones) it costs O(log^2 n), and the index O(n log n) memory.
 */
struct codemap {
	struct codemap_entry *ents;
	size_t nr, alloc;
	/* Rebuilt lazily after additions (built_nr != nr). */
	struct coord *coords;	/* sorted distinct boundaries; coords_nr - 1 elementary intervals */
	size_t coords_nr;
	size_t leaves;		/* coords_nr - 1, at least 1 */
	uint32_t *node_start;	/* 2 * leaves + 1 offsets into node_ids */
	uint32_t *node_ids;	/* entry ids, each node's sorted by (time, id) */
	size_t built_nr;
	struct cache_slot cache[CACHE_SLOTS];
};

struct codemap *codemap__new(void)
{
	return calloc(1, sizeof(struct codemap));
}

static void drop_index(struct codemap *m)
{
	free(m->coords);
	free(m->node_start);
	free(m->node_ids);
	m->coords = NULL;
	m->node_start = m->node_ids = NULL;
	m->coords_nr = m->leaves = m->built_nr = 0;
}

void codemap__free(struct codemap *m)
{
	if (!m)
		return;
	free(m->ents);
	drop_index(m);
	free(m);
}

long codemap__add(struct codemap *m, uint32_t pid, uint64_t start, uint64_t size, uint64_t time,
		  uint32_t owner, size_t owner_idx)
{
	/* Node lists hold 32-bit ids. */
	if (m->nr >= UINT32_MAX)
		return -ENOMEM;
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

static int cmp_coord(const void *a, const void *b)
{
	const struct coord *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Entry indexes by load time, then by index; ents is the map's entries. */
static int cmp_time_id(const void *a, const void *b, void *ents)
{
	uint32_t ia = *(const uint32_t *)a, ib = *(const uint32_t *)b;
	const struct codemap_entry *x = (const struct codemap_entry *)ents + ia;
	const struct codemap_entry *y = (const struct codemap_entry *)ents + ib;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return ia < ib ? -1 : ia > ib;
}

/* Index of the coordinate equal to c (it is there). */
static size_t coord_index(const struct codemap *m, struct coord c)
{
	return LOWER_BOUND(m->coords_nr, i, cmp_coord(&m->coords[i], &c) < 0);
}

/* The nodes covering elementary intervals [l, r): fn(node) for each (bottom-up). */
#define FOR_COVER(m, l, r, node, body)                                 \
	do {                                                           \
		size_t l_ = (l) + (m)->leaves, r_ = (r) + (m)->leaves; \
		for (; l_ < r_; l_ >>= 1, r_ >>= 1) {                  \
			if (l_ & 1) {                                  \
				size_t node = l_++;                    \
				body;                                  \
			}                                              \
			if (r_ & 1) {                                  \
				size_t node = --r_;                    \
				body;                                  \
			}                                              \
		}                                                      \
	} while (0)

static int build_index(struct codemap *m)
{
	uint32_t *order = NULL;
	size_t n = 0, total = 0;

	drop_index(m);
	m->coords = malloc((m->nr ? m->nr : 1) * 2 * sizeof(*m->coords));
	order = malloc((m->nr ? m->nr : 1) * sizeof(*order));
	if (!m->coords || !order)
		goto oom;
	for (size_t i = 0; i < m->nr; i++) {
		const struct codemap_entry *e = &m->ents[i];

		order[i] = (uint32_t)i;
		if (e->end <= e->start)
			continue;	/* size 0: never matches */
		m->coords[n++] = (struct coord){ e->pid, e->start };
		m->coords[n++] = (struct coord){ e->pid, e->end };
	}
	if (n)
		qsort(m->coords, n, sizeof(*m->coords), cmp_coord);
	m->coords_nr = 0;
	for (size_t i = 0; i < n; i++)
		if (!m->coords_nr || cmp_coord(&m->coords[m->coords_nr - 1], &m->coords[i]))
			m->coords[m->coords_nr++] = m->coords[i];
	if (m->coords_nr && m->coords_nr < n) {
		struct coord *c = realloc(m->coords, m->coords_nr * sizeof(*c));

		if (c)
			m->coords = c;
	}
	m->leaves = m->coords_nr > 1 ? m->coords_nr - 1 : 1;
	/* node_start[node + 1] counts node's loads first, then becomes its end. */
	m->node_start = calloc(2 * m->leaves + 1, sizeof(*m->node_start));
	if (!m->node_start)
		goto oom;
	qsort_r(order, m->nr, sizeof(*order), cmp_time_id, m->ents);
	for (size_t k = 0; k < m->nr; k++) {
		const struct codemap_entry *e = &m->ents[order[k]];

		if (e->end <= e->start)
			continue;
		size_t l = coord_index(m, (struct coord){ e->pid, e->start });
		size_t r = coord_index(m, (struct coord){ e->pid, e->end });

		FOR_COVER(m, l, r, node, m->node_start[node + 1]++);
	}
	for (size_t i = 1; i <= 2 * m->leaves; i++) {
		if (total > UINT32_MAX - m->node_start[i])
			goto oom;
		total += m->node_start[i];
		m->node_start[i] = (uint32_t)total;
	}
	m->node_ids = malloc((total ? total : 1) * sizeof(*m->node_ids));
	if (!m->node_ids)
		goto oom;
	/* Placed from the back in reverse (time, id) order, so that each node's
	 * list comes out sorted and node_start[node] ends at its first entry. */
	for (size_t k = m->nr; k-- > 0;) {
		const struct codemap_entry *e = &m->ents[order[k]];

		if (e->end <= e->start)
			continue;
		size_t l = coord_index(m, (struct coord){ e->pid, e->start });
		size_t r = coord_index(m, (struct coord){ e->pid, e->end });

		FOR_COVER(m, l, r, node, m->node_ids[--m->node_start[node + 1]] = order[k]);
	}
	/* node_start[node + 1] is now node's first entry: shift down by one. */
	memmove(m->node_start, m->node_start + 1, 2 * m->leaves * sizeof(*m->node_start));
	m->node_start[2 * m->leaves] = (uint32_t)total;
	free(order);
	m->built_nr = m->nr;
	return 0;
oom:
	free(order);
	drop_index(m);
	return -ENOMEM;
}

static int ensure_index(struct codemap *m)
{
	if (m->built_nr == m->nr && m->node_start)
		return 0;
	return build_index(m);
}

/* The elementary interval holding (pid, ip), or -1. */
static long find_interval(const struct codemap *m, uint32_t pid, uint64_t ip)
{
	struct coord c = { pid, ip };
	/* First coordinate greater than c. */
	size_t lo = LOWER_BOUND(m->coords_nr, i, cmp_coord(&m->coords[i], &c) <= 0);

	if (lo == 0 || lo == m->coords_nr || m->coords[lo - 1].pid != pid || m->coords[lo].pid != pid)
		return -1;
	return (long)(lo - 1);
}

static enum codemap_result full_lookup(const struct codemap *m, uint32_t pid, uint64_t ip,
				       uint64_t time, bool time_aware, size_t *id,
				       uint64_t *t_lo, uint64_t *t_hi)
{
	long leaf = find_interval(m, pid, ip);
	bool found = false, later = false;
	uint32_t best = 0;
	uint64_t next_load = UINT64_MAX;
	size_t covering = 0;

	for (size_t node = leaf < 0 ? 0 : (size_t)leaf + m->leaves; node >= 1; node >>= 1) {
		const uint32_t *ids = m->node_ids + m->node_start[node];
		size_t nr = m->node_start[node + 1] - m->node_start[node], lo;

		if (!nr)
			continue;
		covering += nr;
		/* Entries with time <= sample time come first. */
		lo = time_aware ? LOWER_BOUND(nr, i, m->ents[ids[i]].time <= time) : nr;
		if (lo < nr) {
			later = true;
			if (m->ents[ids[lo]].time < next_load)
				next_load = m->ents[ids[lo]].time;
		}
		if (lo) {
			uint32_t c = ids[lo - 1];
			const struct codemap_entry *e = &m->ents[c], *b = &m->ents[best];

			if (!found || e->time > b->time || (e->time == b->time && c > best))
				best = c;
			found = true;
		}
	}
	*t_hi = next_load;
	if (found) {
		*id = best;
		*t_lo = time_aware ? m->ents[best].time : 0;
		return time_aware || covering == 1 ? CODEMAP_HIT : CODEMAP_AMBIGUOUS;
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
	if (ensure_index(m) < 0)
		return CODEMAP_MISS;

	uint64_t t_lo, t_hi;
	size_t best = 0;
	enum codemap_result r = full_lookup(m, pid, ip, time, time_aware, &best, &t_lo, &t_hi);

	*s = (struct cache_slot){ .ip = ip, .pid = pid, .t_lo = t_lo, .t_hi = t_hi, .id = best,
				  .valid = 1, .time_aware = time_aware, .result = r };
	*id = best;
	return r;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

size_t codemap__covering(struct codemap *m, uint32_t pid, uint64_t ip, uint32_t *ids, size_t max)
{
	long leaf;
	size_t n = 0;

	if (ensure_index(m) < 0 || (leaf = find_interval(m, pid, ip)) < 0)
		return 0;
	/* Every load covering the leaf is in exactly one node above it. */
	for (size_t node = (size_t)leaf + m->leaves; node >= 1; node >>= 1)
		for (uint32_t k = m->node_start[node]; k < m->node_start[node + 1]; k++, n++)
			if (n < max)
				ids[n] = m->node_ids[k];
	qsort(ids, n < max ? n : max, sizeof(*ids), cmp_u32);
	return n;
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

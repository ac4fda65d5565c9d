/* SPDX-License-Identifier: MIT */
/* The graph to draw: nodes, merged typed edges, back edges (folding it is graph-collapse.c's). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/back-edges.h"
#include "graph.h"
#include "lib/html.h"

static const char *const kind_names[] = {
#define X(name, cls) cls,
	GRAPH_EDGE_KINDS(X)
#undef X
};

const char *graph_edge_kind__name(enum graph_edge_kind kind)
{
	return (unsigned)kind < ARRAY_SIZE(kind_names) ? kind_names[kind] : "?";
}

struct graph_edge_style graph_edge__style(enum graph_edge_kind kind, bool back)
{
	struct graph_edge_style st = { 0x555555, 1, false };

	if (kind == GRAPH_EDGE_TAKEN)
		st.colour = 0x1f5fbf;
	else if (kind == GRAPH_EDGE_CASE)
		st.colour = 0x7b3fa0, st.dashed = true;
	if (back)
		st.colour = 0xc62828, st.width = 2;
	return st;
}

static bool valid_id(const char *id)
{
	if (!id || !*id)
		return false;
	for (; *id; id++) {
		char c = *id;

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_' || c == '-'))
			return false;
	}
	return true;
}

int graph__init(struct graph *g, const char *id)
{
	memset(g, 0, sizeof(*g));
	if (!valid_id(id))
		return -EINVAL;
	g->id = strdup(id);
	return g->id ? 0 : -ENOMEM;
}

static void free_lines(struct graph_node *n)
{
	for (size_t i = 0; i < n->lines_nr; i++)
		free(n->lines[i]);
	FREE_AND_NULL(n->lines);
	n->lines_nr = 0;
}

void graph__release(struct graph *g)
{
	for (size_t i = 0; i < g->nodes_nr; i++) {
		struct graph_node *n = &g->nodes[i];

		free(n->id);
		free_lines(n);
		free(n->tooltip);
		free(n->href);
	}
	for (size_t i = 0; i < g->edges_nr; i++)
		free(g->edges[i].pts);
	free(g->edge_measured);
	free(g->edge_weight);
	free(g->nodes);
	free(g->edges);
	free(g->id);
	free(g->label);
	idx_table_release(&g->edge_index);
	idx_table_release(&g->id_index);
	memset(g, 0, sizeof(*g));
}

static char *safe_dup(const char *s)
{
	return s ? text_sanitize(s, strlen(s), false) : NULL;
}

static int copy_lines(struct graph_node *n, const char *const *lines, size_t nr)
{
	char **l = nr ? calloc(nr, sizeof(*l)) : NULL;

	if (nr && !l)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		l[i] = safe_dup(lines[i] ? lines[i] : "");
		if (!l[i]) {
			while (i--)
				free(l[i]);
			free(l);
			return -ENOMEM;
		}
	}
	free_lines(n);
	n->lines = l;
	n->lines_nr = nr;
	return 0;
}

static bool id_eq(uint32_t idx, const void *key, const void *ctx)
{
	return !strcmp(((const struct graph *)ctx)->nodes[idx].id, key);
}

long graph__add_node(struct graph *g, const struct graph_node_spec *spec)
{
	struct graph_node *n;
	uint32_t idx = g->nodes_nr;
	uint64_t h;

	if (!valid_id(spec->id))
		return -EINVAL;
	h = hash_bytes(HASH_SEED, spec->id, strlen(spec->id));
	if (idx_table_find(&g->id_index, h, id_eq, spec->id, g) >= 0)
		return -EEXIST;
	if (g->nodes_nr >= UINT32_MAX || VEC_GROW(g->nodes, g->nodes_nr + 1, g->nodes_alloc))
		return -ENOMEM;
	n = &g->nodes[idx];
	memset(n, 0, sizeof(*n));
	n->id = strdup(spec->id);
	n->tooltip = safe_dup(spec->tooltip);
	n->href = safe_dup(spec->href);
	if (!n->id || (spec->tooltip && !n->tooltip) || (spec->href && !n->href) ||
	    copy_lines(n, spec->lines, spec->lines_nr)) {
		free(n->id);
		free(n->tooltip);
		free(n->href);
		return -ENOMEM;
	}
	if (idx_table_add(&g->id_index, h, idx)) {
		free(n->id);
		free(n->tooltip);
		free(n->href);
		free_lines(n);
		return -ENOMEM;
	}
	n->fill = spec->fill & 0xffffff;
	n->ink = spec->ink & 0xffffff;
	n->cold = spec->cold;
	n->emphasis = spec->emphasis;
	n->marked = spec->marked;
	n->collapsed_into = idx;
	n->run_last = idx;
	n->members = 1;
	g->nodes_nr++;
	return idx;
}

int graph__set_label(struct graph *g, const char *label)
{
	char *copy = safe_dup(label);

	if (label && !copy)
		return -ENOMEM;
	free(g->label);
	g->label = copy;
	return 0;
}

int graph__set_lines(struct graph *g, uint32_t i, const char *const *lines, size_t lines_nr)
{
	if (i >= g->nodes_nr)
		return -EINVAL;
	return copy_lines(&g->nodes[i], lines, lines_nr);
}

struct edge_key {
	uint32_t from, to;
	enum graph_edge_kind kind;
};

static uint64_t edge_hash(const struct edge_key *k)
{
	return hash_u64(hash_u64(hash_u64(HASH_SEED, k->from), k->to), k->kind);
}

static bool edge_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct graph_edge *e = &((const struct graph *)ctx)->edges[idx];
	const struct edge_key *k = key;

	return e->from == k->from && e->to == k->to && e->kind == k->kind;
}

int graph__add_edge(struct graph *g, uint32_t from, uint32_t to, enum graph_edge_kind kind)
{
	struct edge_key k = { from, to, kind };
	uint64_t h;
	long found;
	struct graph_edge *e;

	if (from >= g->nodes_nr || to >= g->nodes_nr || (unsigned)kind >= GRAPH_EDGE_KINDS_NR)
		return -EINVAL;
	h = edge_hash(&k);
	found = idx_table_find(&g->edge_index, h, edge_eq, &k, g);
	if (found >= 0) {
		e = &g->edges[found];
		if (e->count < UINT32_MAX)
			e->count++;
		return 0;
	}
	if (g->edges_nr >= UINT32_MAX - 1 || VEC_GROW(g->edges, g->edges_nr + 1, g->edges_alloc))
		return -ENOMEM;
	if (idx_table_add(&g->edge_index, h, g->edges_nr))
		return -ENOMEM;
	e = &g->edges[g->edges_nr++];
	memset(e, 0, sizeof(*e));
	e->from = from;
	e->to = to;
	e->kind = kind;
	e->count = 1;
	return 0;
}

int graph__measure_edge(struct graph *g, uint32_t from, uint32_t to, enum graph_edge_kind kind, uint64_t n)
{
	struct edge_key k = { from, to, kind };
	long found = idx_table_find(&g->edge_index, edge_hash(&k), edge_eq, &k, g);

	if (found < 0)
		return -EINVAL;
	if (!g->edge_measured && !(g->edge_measured = calloc(g->edges_nr, sizeof(*g->edge_measured))))
		return -ENOMEM;
	g->edge_measured[found] = sat_add(g->edge_measured[found], n);
	return 0;
}

int graph__weigh_edges(struct graph *g)
{
	uint64_t max = 0;

	for (size_t i = 0; g->edge_measured && i < g->edges_nr; i++)
		if (g->edge_measured[i] > max)
			max = g->edge_measured[i];
	if (!max)
		return 0;
	if (!(g->edge_weight = calloc(g->edges_nr, sizeof(*g->edge_weight))))
		return -ENOMEM;
	for (size_t i = 0; i < g->edges_nr; i++)
		g->edge_weight[i] = (double)g->edge_measured[i] / (double)max;
	return 0;
}

struct graph_edge_style graph_edge__drawn_style(const struct graph *g, const struct graph_edge *e)
{
	struct graph_edge_style st = graph_edge__style(e->kind, e->back);

	if (g->edge_weight)
		st.width += 4 * g->edge_weight[e - g->edges];
	return st;
}

int graph__mark_back_edges(struct graph *g, uint32_t entry)
{
	/* Edges grouped by tail, in the order added (analysis/back-edges.h):
	 * slot k is edge out[k], to to[k]. */
	size_t *off, slots = g->edges_nr ? g->edges_nr : 1;
	uint32_t *out, *to;
	bool *back;
	int ret = -ENOMEM;

	if (!g->nodes_nr)
		return 0;
	off = calloc(g->nodes_nr + 1, sizeof(*off));
	out = malloc(slots * sizeof(*out));
	to = malloc(slots * sizeof(*to));
	back = calloc(slots, sizeof(*back));
	if (!off || !out || !to || !back)
		goto out;
	for (size_t i = 0; i < g->edges_nr; i++)
		off[g->edges[i].from + 1]++;
	for (size_t n = 0; n < g->nodes_nr; n++)
		off[n + 1] += off[n];
	for (size_t i = 0; i < g->edges_nr; i++) {
		size_t k = off[g->edges[i].from]++;

		out[k] = (uint32_t)i;
		to[k] = g->edges[i].to;
	}
	/* The fill moved each start to the next one's: shift back. */
	for (size_t n = g->nodes_nr; n > 0; n--)
		off[n] = off[n - 1];
	off[0] = 0;
	ret = back_edges__mark(g->nodes_nr, entry, off, to, back);
	for (size_t k = 0; !ret && k < g->edges_nr; k++)
		g->edges[out[k]].back = back[k];
out:
	free(off);
	free(out);
	free(to);
	free(back);
	return ret;
}

static bool drawn_edge_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct graph *g = ctx;
	const struct graph_edge *e = &g->edges[idx];
	const struct edge_key *k = key;

	return graph__shown(g, e->from) == k->from && graph__shown(g, e->to) == k->to &&
	       e->kind == k->kind;
}

int graph__merge_drawn_edges(struct graph *g)
{
	struct idx_table seen = { 0 };
	int ret = 0;

	for (size_t i = 0; i < g->edges_nr; i++) {
		struct graph_edge *e = &g->edges[i];
		struct edge_key k = { graph__shown(g, e->from), graph__shown(g, e->to), e->kind };
		uint64_t h = edge_hash(&k);
		long found;

		if (e->collapsed)
			continue;
		found = idx_table_find(&seen, h, drawn_edge_eq, &k, g);
		if (found >= 0) {
			struct graph_edge *keep = &g->edges[found];

			keep->count = keep->count > UINT32_MAX - e->count ? UINT32_MAX
									 : keep->count + e->count;
			keep->back |= e->back;
			e->collapsed = true;
		} else if (idx_table_add(&seen, h, i)) {
			ret = -ENOMEM;
			break;
		}
	}
	idx_table_release(&seen);
	return ret;
}

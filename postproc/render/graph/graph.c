/* SPDX-License-Identifier: MIT */
/* The graph to draw: nodes, merged typed edges, back edges, cold runs folded. */
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

/* Node i is a drawn cold node that may join a run. */
static bool foldable(const struct graph *g, uint32_t i)
{
	return g->nodes[i].cold && g->nodes[i].collapsed_into == i && g->nodes[i].members == 1;
}

long graph__collapse_cold_runs(struct graph *g, uint32_t min_run)
{
	uint32_t *in_nr, *out_nr, *out_edge, *in_edge;
	long folded = 0;

	if (min_run < 2)
		min_run = 2;
	in_nr = calloc(g->nodes_nr + 1, sizeof(*in_nr));
	out_nr = calloc(g->nodes_nr + 1, sizeof(*out_nr));
	out_edge = malloc((g->nodes_nr + 1) * sizeof(*out_edge));
	in_edge = malloc((g->nodes_nr + 1) * sizeof(*in_edge));
	if (!in_nr || !out_nr || !out_edge || !in_edge) {
		folded = -ENOMEM;
		goto out;
	}
	/* Degrees among drawn edges; for degree 1, the one edge. */
	for (size_t i = 0; i < g->edges_nr; i++) {
		const struct graph_edge *e = &g->edges[i];
		uint32_t f, t;

		if (e->collapsed)
			continue;
		f = graph__shown(g, e->from);
		t = graph__shown(g, e->to);
		out_nr[f]++;
		out_edge[f] = i;
		in_nr[t]++;
		in_edge[t] = i;
		if (f == t) {	/* a self-loop keeps its node out of any run */
			out_nr[f] = in_nr[f] = UINT32_MAX / 2;
		}
	}
	/* link(n): n's one edge out leads to a node whose one edge in it is. */
#define LINK_NEXT(n) (graph__shown(g, g->edges[out_edge[n]].to))
#define LINKED(n)                                                                      \
	(out_nr[n] == 1 && foldable(g, LINK_NEXT(n)) && in_nr[LINK_NEXT(n)] == 1 &&      \
	 in_edge[LINK_NEXT(n)] == out_edge[n] && LINK_NEXT(n) != (n))
	for (uint32_t i = 0; i < g->nodes_nr; i++) {
		uint32_t first = i, last, k = 1, n;
		const char *lines[3];
		char mid[64];

		if (!foldable(g, i))
			continue;
		/* Only start at a run's head: nothing foldable links into it. */
		if (in_nr[i] == 1) {
			uint32_t p = graph__shown(g, g->edges[in_edge[i]].from);

			if (p != i && foldable(g, p) && LINKED(p))
				continue;
		}
		last = first;
		while (LINKED(last) && LINK_NEXT(last) != first) {
			last = LINK_NEXT(last);
			k++;
		}
		if (k < min_run)
			continue;
		/* Fold: mark the links, point the members at the head. */
		n = first;
		while (n != last) {
			uint32_t nx = LINK_NEXT(n);

			g->edges[out_edge[n]].collapsed = true;
			if (n != first)
				g->nodes[n].collapsed_into = first;
			n = nx;
		}
		/* The edges out of the last one now leave the head: graph__shown. */
		g->nodes[last].collapsed_into = first;
		snprintf(mid, sizeof(mid), "... %u blocks ...", k);
		lines[0] = g->nodes[first].lines_nr ? g->nodes[first].lines[0] : "";
		lines[1] = mid;
		lines[2] = g->nodes[last].lines_nr ? g->nodes[last].lines[0] : "";
		{
			/* lines[] point into the head's own lines: copy before replacing. */
			char *l0 = strdup(lines[0]);

			if (!l0) {
				folded = -ENOMEM;
				goto out;
			}
			lines[0] = l0;
			if (copy_lines(&g->nodes[first], lines, 3)) {
				free(l0);
				folded = -ENOMEM;
				goto out;
			}
			free(l0);
		}
		g->nodes[first].members = k;
		g->nodes[first].run_last = last;
		folded += k - 1;
	}
#undef LINKED
#undef LINK_NEXT
out:
	free(in_nr);
	free(out_nr);
	free(out_edge);
	free(in_edge);
	return folded;
}

size_t graph__shown_nodes(const struct graph *g)
{
	size_t n = 0;

	for (size_t i = 0; i < g->nodes_nr; i++)
		n += g->nodes[i].collapsed_into == i;
	return n;
}

size_t graph__shown_edges(const struct graph *g)
{
	size_t n = 0;

	for (size_t i = 0; i < g->edges_nr; i++)
		n += !g->edges[i].collapsed;
	return n;
}

/* Union-find over node indexes, by size, with path halving. */
static uint32_t find(uint32_t *parent, uint32_t i)
{
	while (parent[i] != i) {
		parent[i] = parent[parent[i]];
		i = parent[i];
	}
	return i;
}

static void unite(uint32_t *parent, uint32_t *size, uint32_t a, uint32_t b)
{
	a = find(parent, a);
	b = find(parent, b);
	if (a == b)
		return;
	if (size[a] < size[b]) {
		uint32_t t = a;

		a = b;
		b = t;
	}
	parent[b] = a;
	size[a] += size[b];
}

static bool drawn_edge_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct graph *g = ctx;
	const struct graph_edge *e = &g->edges[idx];
	const struct edge_key *k = key;

	return graph__shown(g, e->from) == k->from && graph__shown(g, e->to) == k->to &&
	       e->kind == k->kind;
}

/* Of the drawn edges between the same two boxes with the same kind, draw one. */
static int merge_parallel(struct graph *g)
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

long graph__collapse_cold_regions(struct graph *g, uint32_t keep_hops)
{
	uint32_t *dist = NULL, *queue = NULL, *parent = NULL, *size = NULL, *off = NULL, *adj = NULL;
	uint32_t *head, *attach;
	size_t n = g->nodes_nr, qh = 0, qt = 0;
	enum { NONE = UINT32_MAX, MANY = UINT32_MAX - 1 };
	const uint32_t FIRST_SET = 1u << 31;
	long folded = -ENOMEM;

	if (!n)
		return 0;
	if (n >= (1u << 31))
		return -ENOMEM;	/* dist[] borrows the top bit below */
	dist = malloc(n * sizeof(*dist));
	queue = malloc(n * sizeof(*queue));
	parent = malloc(n * sizeof(*parent));
	size = malloc(n * sizeof(*size));
	off = calloc(n + 1, sizeof(*off));
	adj = malloc((2 * g->edges_nr + 1) * sizeof(*adj));
	if (!dist || !queue || !parent || !size || !off || !adj)
		goto out;
	/* Undirected adjacency between drawn boxes. */
	for (size_t i = 0; i < g->edges_nr; i++) {
		if (g->edges[i].collapsed)
			continue;
		off[graph__shown(g, g->edges[i].from) + 1]++;
		off[graph__shown(g, g->edges[i].to) + 1]++;
	}
	for (size_t i = 0; i < n; i++)
		off[i + 1] += off[i];
	for (size_t i = 0; i < g->edges_nr; i++) {
		uint32_t a, b;

		if (g->edges[i].collapsed)
			continue;
		a = graph__shown(g, g->edges[i].from);
		b = graph__shown(g, g->edges[i].to);
		adj[off[a]++] = b;
		adj[off[b]++] = a;
	}
	for (size_t i = n; i > 0; i--)
		off[i] = off[i - 1];
	off[0] = 0;
	/* Hops from the nearest box that is not cold: one search from all of them. */
	for (uint32_t i = 0; i < n; i++) {
		dist[i] = UINT32_MAX;
		parent[i] = i;
		size[i] = 1;
		if (g->nodes[i].collapsed_into == i && !g->nodes[i].cold) {
			dist[i] = 0;
			queue[qt++] = i;
		}
	}
	while (qh < qt) {
		uint32_t v = queue[qh++];

		if (dist[v] >= keep_hops)
			continue;
		for (uint32_t k = off[v]; k < off[v + 1]; k++) {
			if (dist[adj[k]] == UINT32_MAX) {
				dist[adj[k]] = dist[v] + 1;
				queue[qt++] = adj[k];
			}
		}
	}
	/* Group the far boxes along the edges between them. */
	for (size_t i = 0; i < g->edges_nr; i++) {
		uint32_t a, b;

		if (g->edges[i].collapsed)
			continue;
		a = graph__shown(g, g->edges[i].from);
		b = graph__shown(g, g->edges[i].to);
		if (dist[a] == UINT32_MAX && dist[b] == UINT32_MAX)
			unite(parent, size, a, b);
	}
	/*
	 * Groups that touch only one and the same box that stays are one group:
	 * the cases of a jump table that each end on their own would otherwise
	 * stay a box each. attach[root]: that box, NONE yet, or MANY.
	 */
	attach = queue;
	for (uint32_t i = 0; i < n; i++)
		attach[i] = NONE;
	for (uint32_t v = 0; v < n; v++) {
		uint32_t r;

		if (g->nodes[v].collapsed_into != v || dist[v] != UINT32_MAX)
			continue;
		r = find(parent, v);
		for (uint32_t k = off[v]; k < off[v + 1]; k++) {
			uint32_t u = adj[k];

			if (dist[u] == UINT32_MAX)
				continue;
			attach[r] = attach[r] == NONE || attach[r] == u ? u : MANY;
		}
	}
	/* first[u]: the first group touching only u; dist[] of kept boxes is free now. */
	for (uint32_t r = 0; r < n; r++) {
		uint32_t u = attach[r];

		if (u == NONE || u == MANY || find(parent, r) != r)
			continue;
		if (dist[u] & FIRST_SET)
			unite(parent, size, r, dist[u] & ~FIRST_SET);
		else
			dist[u] = FIRST_SET | r;
	}
	/* Each group of 2 or more is drawn as its lowest-indexed box (head[root]). */
	head = queue;
	for (uint32_t i = 0; i < n; i++)
		head[i] = UINT32_MAX;
	folded = 0;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t r;

		if (g->nodes[i].collapsed_into != i || dist[i] != UINT32_MAX)
			continue;
		r = find(parent, i);
		if (size[r] < 2)
			continue;
		if (head[r] == UINT32_MAX) {
			head[r] = i;
			continue;
		}
		g->nodes[head[r]].members += g->nodes[i].members;
		g->nodes[i].collapsed_into = head[r];
		folded++;
	}
	/* Nodes folded into a run before now go where their run's box went. */
	for (uint32_t i = 0; i < n; i++) {
		uint32_t b = g->nodes[i].collapsed_into;

		if (b != i && g->nodes[b].collapsed_into != b)
			g->nodes[i].collapsed_into = g->nodes[b].collapsed_into;
	}
	for (uint32_t r = 0; r < n; r++) {
		struct graph_node *h;
		char more[48], *l0;
		const char *lines[2];

		if (head[r] == UINT32_MAX)
			continue;
		h = &g->nodes[head[r]];
		h->region = true;
		h->run_last = head[r];
		snprintf(more, sizeof(more), "+ %u cold blocks", h->members - 1);
		l0 = strdup(h->lines_nr ? h->lines[0] : "");
		lines[0] = l0;
		lines[1] = more;
		if (!l0 || copy_lines(h, lines, 2)) {
			free(l0);
			folded = -ENOMEM;
			goto out;
		}
		free(l0);
	}
	/* Edges inside a region are not drawn; parallel ones are drawn once. */
	for (size_t i = 0; i < g->edges_nr; i++) {
		struct graph_edge *e = &g->edges[i];
		uint32_t b = graph__shown(g, e->from);

		if (!e->collapsed && b == graph__shown(g, e->to) && g->nodes[b].region)
			e->collapsed = true;
	}
	if (merge_parallel(g))
		folded = -ENOMEM;
out:
	free(dist);
	free(queue);
	free(parent);
	free(size);
	free(off);
	free(adj);
	return folded;
}

long graph__collapse_to_fit(struct graph *g, size_t max_boxes)
{
	size_t n = graph__shown_nodes(g);

	if (n > max_boxes && graph__collapse_cold_runs(g, 2) < 0)
		return -ENOMEM;
	for (int hops = 2; hops >= 0 && (n = graph__shown_nodes(g)) > max_boxes; hops--) {
		if (graph__collapse_cold_regions(g, hops) < 0)
			return -ENOMEM;
	}
	return (long)graph__shown_nodes(g);
}

/* SPDX-License-Identifier: MIT */
/* Folding a graph's cold nodes (graph.h): straight runs, regions far from the heat, until it fits. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"

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

/* ---- runs ---- */

/* Node i is a drawn cold node that may join a run. */
static bool foldable(const struct graph *g, uint32_t i)
{
	return g->nodes[i].cold && g->nodes[i].collapsed_into == i && g->nodes[i].members == 1;
}

/* The degrees of each drawn box among drawn edges; for degree 1, the one edge. */
struct links {
	uint32_t *in_nr, *out_nr, *out_edge, *in_edge;
};

static void links__release(struct links *l)
{
	free(l->in_nr);
	free(l->out_nr);
	free(l->out_edge);
	free(l->in_edge);
}

static int links__build(struct links *l, const struct graph *g)
{
	l->in_nr = calloc(g->nodes_nr + 1, sizeof(*l->in_nr));
	l->out_nr = calloc(g->nodes_nr + 1, sizeof(*l->out_nr));
	l->out_edge = malloc((g->nodes_nr + 1) * sizeof(*l->out_edge));
	l->in_edge = malloc((g->nodes_nr + 1) * sizeof(*l->in_edge));
	if (!l->in_nr || !l->out_nr || !l->out_edge || !l->in_edge)
		return -ENOMEM;
	for (size_t i = 0; i < g->edges_nr; i++) {
		const struct graph_edge *e = &g->edges[i];
		uint32_t f, t;

		if (e->collapsed)
			continue;
		f = graph__shown(g, e->from);
		t = graph__shown(g, e->to);
		l->out_nr[f]++;
		l->out_edge[f] = i;
		l->in_nr[t]++;
		l->in_edge[t] = i;
		if (f == t) {	/* a self-loop keeps its node out of any run */
			l->out_nr[f] = l->in_nr[f] = UINT32_MAX / 2;
		}
	}
	return 0;
}

/* Where n's one edge out leads. */
static uint32_t link_next(const struct graph *g, const struct links *l, uint32_t n)
{
	return graph__shown(g, g->edges[l->out_edge[n]].to);
}

/* n's one edge out leads to a foldable node whose one edge in it is. */
static bool linked(const struct graph *g, const struct links *l, uint32_t n)
{
	uint32_t next;

	if (l->out_nr[n] != 1)
		return false;
	next = link_next(g, l, n);
	return foldable(g, next) && l->in_nr[next] == 1 && l->in_edge[next] == l->out_edge[n] &&
	       next != n;
}

/* Fold the run of k nodes from first to last into first. Returns 0 or -ENOMEM. */
static int fold_run(struct graph *g, const struct links *l, uint32_t first, uint32_t last,
		    uint32_t k)
{
	uint32_t n = first;
	const char *lines[3];
	char mid[64], *l0;

	/* Mark the links, point the members at the head. */
	while (n != last) {
		uint32_t nx = link_next(g, l, n);

		g->edges[l->out_edge[n]].collapsed = true;
		if (n != first)
			g->nodes[n].collapsed_into = first;
		n = nx;
	}
	/* The edges out of the last one now leave the head: graph__shown. */
	g->nodes[last].collapsed_into = first;
	snprintf(mid, sizeof(mid), "... %u blocks ...", k);
	/* lines[0] would point into the head's own lines: copy before replacing. */
	l0 = strdup(g->nodes[first].lines_nr ? g->nodes[first].lines[0] : "");
	lines[0] = l0;
	lines[1] = mid;
	lines[2] = g->nodes[last].lines_nr ? g->nodes[last].lines[0] : "";
	if (!l0 || graph__set_lines(g, first, lines, 3)) {
		free(l0);
		return -ENOMEM;
	}
	free(l0);
	g->nodes[first].members = k;
	g->nodes[first].run_last = last;
	return 0;
}

long graph__collapse_cold_runs(struct graph *g, uint32_t min_run)
{
	struct links l;
	long folded = 0;

	if (min_run < 2)
		min_run = 2;
	if (links__build(&l, g)) {
		links__release(&l);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < g->nodes_nr; i++) {
		uint32_t last = i, k = 1;

		if (!foldable(g, i))
			continue;
		/* Only start at a run's head: nothing foldable links into it. */
		if (l.in_nr[i] == 1) {
			uint32_t p = graph__shown(g, g->edges[l.in_edge[i]].from);

			if (p != i && foldable(g, p) && linked(g, &l, p))
				continue;
		}
		while (linked(g, &l, last) && link_next(g, &l, last) != i) {
			last = link_next(g, &l, last);
			k++;
		}
		if (k < min_run)
			continue;
		if (fold_run(g, &l, i, last, k)) {
			folded = -ENOMEM;
			break;
		}
		folded += k - 1;
	}
	links__release(&l);
	return folded;
}

/* ---- regions ---- */

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

/* What graph__collapse_cold_regions works with, per node (drawn boxes only). */
struct regions {
	size_t n;
	uint32_t *dist;		/* hops from the nearest box that is not cold, up to
				 * keep_hops; UINT32_MAX: further (far) */
	uint32_t *queue;	/* the search's, then attach[], then head[] */
	uint32_t *parent, *size;	/* the far boxes' groups (find, unite) */
	uint32_t *off, *adj;	/* undirected adjacency: adj[off[v] .. off[v + 1]) */
};

static void regions__release(struct regions *rg)
{
	free(rg->dist);
	free(rg->queue);
	free(rg->parent);
	free(rg->size);
	free(rg->off);
	free(rg->adj);
}

/* Its arrays, the undirected adjacency between drawn boxes and every node a
 * group of its own. Returns 0 or -ENOMEM. */
static int regions__init(struct regions *rg, const struct graph *g)
{
	size_t n = g->nodes_nr;

	rg->n = n;
	rg->dist = malloc(n * sizeof(*rg->dist));
	rg->queue = malloc(n * sizeof(*rg->queue));
	rg->parent = malloc(n * sizeof(*rg->parent));
	rg->size = malloc(n * sizeof(*rg->size));
	rg->off = calloc(n + 1, sizeof(*rg->off));
	rg->adj = malloc((2 * g->edges_nr + 1) * sizeof(*rg->adj));
	if (!rg->dist || !rg->queue || !rg->parent || !rg->size || !rg->off || !rg->adj)
		return -ENOMEM;
	for (size_t i = 0; i < g->edges_nr; i++) {
		if (g->edges[i].collapsed)
			continue;
		rg->off[graph__shown(g, g->edges[i].from) + 1]++;
		rg->off[graph__shown(g, g->edges[i].to) + 1]++;
	}
	for (size_t i = 0; i < n; i++)
		rg->off[i + 1] += rg->off[i];
	for (size_t i = 0; i < g->edges_nr; i++) {
		uint32_t a, b;

		if (g->edges[i].collapsed)
			continue;
		a = graph__shown(g, g->edges[i].from);
		b = graph__shown(g, g->edges[i].to);
		rg->adj[rg->off[a]++] = b;
		rg->adj[rg->off[b]++] = a;
	}
	for (size_t i = n; i > 0; i--)
		rg->off[i] = rg->off[i - 1];
	rg->off[0] = 0;
	for (uint32_t i = 0; i < n; i++) {
		rg->parent[i] = i;
		rg->size[i] = 1;
	}
	return 0;
}

/* Hops from the nearest box that is not cold: one search from all of them. */
static void measure_hops(struct regions *rg, const struct graph *g, uint32_t keep_hops)
{
	uint32_t *dist = rg->dist, *queue = rg->queue;
	size_t qh = 0, qt = 0;

	for (uint32_t i = 0; i < rg->n; i++) {
		dist[i] = UINT32_MAX;
		if (g->nodes[i].collapsed_into == i && !g->nodes[i].cold) {
			dist[i] = 0;
			queue[qt++] = i;
		}
	}
	while (qh < qt) {
		uint32_t v = queue[qh++];

		if (dist[v] >= keep_hops)
			continue;
		for (uint32_t k = rg->off[v]; k < rg->off[v + 1]; k++) {
			if (dist[rg->adj[k]] == UINT32_MAX) {
				dist[rg->adj[k]] = dist[v] + 1;
				queue[qt++] = rg->adj[k];
			}
		}
	}
}

/* Group the far boxes along the edges between them. */
static void group_far(struct regions *rg, const struct graph *g)
{
	for (size_t i = 0; i < g->edges_nr; i++) {
		uint32_t a, b;

		if (g->edges[i].collapsed)
			continue;
		a = graph__shown(g, g->edges[i].from);
		b = graph__shown(g, g->edges[i].to);
		if (rg->dist[a] == UINT32_MAX && rg->dist[b] == UINT32_MAX)
			unite(rg->parent, rg->size, a, b);
	}
}

/*
 * Groups that touch only one and the same box that stays are one group:
 * the cases of a jump table that each end on their own would otherwise
 * stay a box each.
 */
static void join_attached(struct regions *rg, const struct graph *g)
{
	enum { NONE = UINT32_MAX, MANY = UINT32_MAX - 1 };
	const uint32_t FIRST_SET = 1u << 31;
	/* attach[root]: that box, NONE yet, or MANY */
	uint32_t *attach = rg->queue, *dist = rg->dist;

	for (uint32_t i = 0; i < rg->n; i++)
		attach[i] = NONE;
	for (uint32_t v = 0; v < rg->n; v++) {
		uint32_t r;

		if (g->nodes[v].collapsed_into != v || dist[v] != UINT32_MAX)
			continue;
		r = find(rg->parent, v);
		for (uint32_t k = rg->off[v]; k < rg->off[v + 1]; k++) {
			uint32_t u = rg->adj[k];

			if (dist[u] == UINT32_MAX)
				continue;
			attach[r] = attach[r] == NONE || attach[r] == u ? u : MANY;
		}
	}
	/* first[u]: the first group touching only u; dist[] of kept boxes is free now. */
	for (uint32_t r = 0; r < rg->n; r++) {
		uint32_t u = attach[r];

		if (u == NONE || u == MANY || find(rg->parent, r) != r)
			continue;
		if (dist[u] & FIRST_SET)
			unite(rg->parent, rg->size, r, dist[u] & ~FIRST_SET);
		else
			dist[u] = FIRST_SET | r;
	}
}

/* Each group of 2 or more is drawn as its lowest-indexed box (head[root], in
 * rg->queue from now on). Returns the number of nodes folded away. */
static long fold_groups(struct regions *rg, struct graph *g)
{
	uint32_t *head = rg->queue;
	long folded = 0;

	for (uint32_t i = 0; i < rg->n; i++)
		head[i] = UINT32_MAX;
	for (uint32_t i = 0; i < rg->n; i++) {
		uint32_t r;

		if (g->nodes[i].collapsed_into != i || rg->dist[i] != UINT32_MAX)
			continue;
		r = find(rg->parent, i);
		if (rg->size[r] < 2)
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
	for (uint32_t i = 0; i < rg->n; i++) {
		uint32_t b = g->nodes[i].collapsed_into;

		if (b != i && g->nodes[b].collapsed_into != b)
			g->nodes[i].collapsed_into = g->nodes[b].collapsed_into;
	}
	return folded;
}

/* A region's box says how many it stands for. Returns 0 or -ENOMEM. */
static int label_regions(const struct regions *rg, struct graph *g)
{
	for (uint32_t r = 0; r < rg->n; r++) {
		uint32_t hi = rg->queue[r];
		struct graph_node *h;
		char more[48], *l0;
		const char *lines[2];

		if (hi == UINT32_MAX)
			continue;
		h = &g->nodes[hi];
		h->region = true;
		h->run_last = hi;
		snprintf(more, sizeof(more), "+ %u cold blocks", h->members - 1);
		l0 = strdup(h->lines_nr ? h->lines[0] : "");
		lines[0] = l0;
		lines[1] = more;
		if (!l0 || graph__set_lines(g, hi, lines, 2)) {
			free(l0);
			return -ENOMEM;
		}
		free(l0);
	}
	return 0;
}

long graph__collapse_cold_regions(struct graph *g, uint32_t keep_hops)
{
	struct regions rg = { 0 };
	long folded;

	if (!g->nodes_nr)
		return 0;
	if (g->nodes_nr >= (1u << 31))
		return -ENOMEM;	/* dist[] borrows the top bit (join_attached) */
	if (regions__init(&rg, g)) {
		regions__release(&rg);
		return -ENOMEM;
	}
	measure_hops(&rg, g, keep_hops);
	group_far(&rg, g);
	join_attached(&rg, g);
	folded = fold_groups(&rg, g);
	if (label_regions(&rg, g)) {
		folded = -ENOMEM;
	} else {
		/* Edges inside a region are not drawn; parallel ones are drawn once. */
		for (size_t i = 0; i < g->edges_nr; i++) {
			struct graph_edge *e = &g->edges[i];
			uint32_t b = graph__shown(g, e->from);

			if (!e->collapsed && b == graph__shown(g, e->to) && g->nodes[b].region)
				e->collapsed = true;
		}
		if (graph__merge_drawn_edges(g))
			folded = -ENOMEM;
	}
	regions__release(&rg);
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

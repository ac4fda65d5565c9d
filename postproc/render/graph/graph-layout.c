/* SPDX-License-Identifier: MIT */
/*
 * Placing a graph with Graphviz's dot engine in-process (libgvc, libcgraph).
 * Only the dot layout plugin is loaded, linked in, not found through the
 * system's plugin configuration: without a text layout plugin Graphviz
 * estimates text widths from its own font metrics (Courier: 0.6 em per
 * character, as any monospace font), so no font files are read, nothing
 * depends on which fonts a machine has, and a report lays out the same
 * everywhere. graph-svg.c then draws from the coordinates read back here.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gvc.h>

#include "graph.h"

extern gvplugin_library_t gvplugin_dot_layout_LTX_library;

static lt_symlist_t builtin_plugins[] = {
	{ "gvplugin_dot_layout_LTX_library", &gvplugin_dot_layout_LTX_library },
	{ NULL, NULL },
};

/* Points per inch: Graphviz sizes nodes in inches and places them in points. */
#define PT 72.0
/* The margin around the drawing, in points. */
#define PAD 4.0

/* Graphviz reports errors through a callback taking the message alone. */
static char *gv_err;
static size_t gv_errlen;

static int collect_error(char *msg)
{
	size_t have;

	if (gv_err && gv_errlen) {
		have = strlen(gv_err);
		snprintf(gv_err + have, gv_errlen - have, "%s", msg);
	}
	return 0;
}

/* A label's text for sizing: lines left-justified ("\l" after each), with
 * the escString and entity rules of graph-dot.c so it is measured as shown. */
static char *label_text(const struct graph_node *n)
{
	size_t len = 1;
	char *s, *o;

	for (size_t l = 0; l < n->lines_nr; l++)
		len += 5 * strlen(n->lines[l]) + 2;
	s = o = malloc(len);
	if (!s)
		return NULL;
	for (size_t l = 0; l < n->lines_nr; l++) {
		for (const char *p = n->lines[l]; *p; p++) {
			if (*p == '\\') {
				*o++ = '\\';
				*o++ = '\\';
			} else if (*p == '&') {
				memcpy(o, "&amp;", 5);
				o += 5;
			} else {
				*o++ = *p;
			}
		}
		*o++ = '\\';
		*o++ = 'l';
	}
	*o = '\0';
	return s;
}

static int set_attr(void *obj, Agsym_t *sym, const char *value)
{
	/* cgraph copies the value (agstrdup) but is not const-correct. */
	return agxset(obj, sym, (char *)value);
}

/* Read edge e's route: the first Bézier of its spline, tail to head. */
static int read_route(struct graph_edge *e, Agedge_t *ge, double top, double left)
{
	const splines *spl = ED_spl(ge);
	const bezier *bz;
	size_t n;

	FREE_AND_NULL(e->pts);
	e->pts_nr = 0;
	if (!spl || spl->size < 1 || spl->list[0].size < 1)
		return 0;
	bz = &spl->list[0];
	n = bz->size;
	e->pts = malloc(n * sizeof(*e->pts));
	if (!e->pts)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		/* An arrow only at the start: the points run head to tail. */
		size_t k = !bz->eflag && bz->sflag ? n - 1 - i : i;

		e->pts[i].x = bz->list[k].x - left;
		e->pts[i].y = top - bz->list[k].y;
	}
	e->pts_nr = n;
	if (bz->eflag) {
		e->tip.x = bz->ep.x - left;
		e->tip.y = top - bz->ep.y;
	} else if (bz->sflag) {
		e->tip.x = bz->sp.x - left;
		e->tip.y = top - bz->sp.y;
	} else {
		e->tip = e->pts[n - 1];
	}
	return 0;
}

/* The attributes graph__layout sets per node or edge. */
struct syms {
	Agsym_t *label, *color, *pen, *style, *constraint;
};

/* An empty digraph with the defaults of every node and edge, and *sy. */
static Agraph_t *open_graph(struct syms *sy)
{
	Agraph_t *ag = agopen("g", Agdirected, NULL);

	if (!ag)
		return NULL;
	agattr(ag, AGNODE, "shape", "box");
	agattr(ag, AGNODE, "fontname", "Courier");
	agattr(ag, AGNODE, "fontsize", "10");
	agattr(ag, AGNODE, "margin", "0.08,0.04");
	agattr(ag, AGNODE, "width", "0.3");
	agattr(ag, AGNODE, "height", "0.2");
	agattr(ag, AGEDGE, "arrowsize", "0.7");
	sy->label = agattr(ag, AGNODE, "label", "");
	sy->color = agattr(ag, AGEDGE, "color", "black");
	sy->pen = agattr(ag, AGEDGE, "penwidth", "1");
	sy->style = agattr(ag, AGEDGE, "style", "");
	sy->constraint = agattr(ag, AGEDGE, "constraint", "true");
	return ag;
}

/* The drawn nodes (an[i]) and edges (ae[i]) into ag. Returns 0 or -ENOMEM. */
static int add_drawn(const struct graph *g, Agraph_t *ag, const struct syms *sy, Agnode_t **an,
		     Agedge_t **ae)
{
	for (size_t i = 0; i < g->nodes_nr; i++) {
		char *label;

		if (g->nodes[i].collapsed_into != i)
			continue;
		/* Anonymous: cgraph makes a named object's id the address of its
		 * interned name, and dot breaks some ties by id, so names would
		 * make the layout follow the heap's addresses (a struct grown
		 * anywhere in the program moved edges). An anonymous object's id
		 * is a counter: the layout follows the order objects are added. */
		an[i] = agnode(ag, NULL, 1);
		label = label_text(&g->nodes[i]);
		if (!an[i] || !label || set_attr(an[i], sy->label, label)) {
			free(label);
			return -ENOMEM;
		}
		free(label);
	}
	for (size_t i = 0; i < g->edges_nr; i++) {
		const struct graph_edge *e = &g->edges[i];
		struct graph_edge_style st = graph_edge__drawn_style(g, e);
		char colour[8], pen[16];

		if (e->collapsed)
			continue;
		/* Anonymous (see the nodes'), and in a graph that is not strict a
		 * new edge each: two kinds between the same nodes are two edges. */
		ae[i] = agedge(ag, an[graph__shown(g, e->from)], an[graph__shown(g, e->to)], NULL, 1);
		if (!ae[i])
			return -ENOMEM;
		snprintf(colour, sizeof(colour), "#%06x", (unsigned)st.colour);
		snprintf(pen, sizeof(pen), "%g", st.width);
		if (set_attr(ae[i], sy->color, colour) || set_attr(ae[i], sy->pen, pen) ||
		    (st.dashed && set_attr(ae[i], sy->style, "dashed")) ||
		    (e->back && set_attr(ae[i], sy->constraint, "false")))
			return -ENOMEM;
	}
	return 0;
}

/* The laid-out coordinates into g, y growing downwards. Returns 0 or -ENOMEM. */
static int read_layout(struct graph *g, Agraph_t *ag, Agnode_t **an, Agedge_t **ae)
{
	boxf bb = GD_bb(ag);
	double top = bb.UR.y + PAD, left = bb.LL.x - PAD;

	g->width = bb.UR.x - bb.LL.x + 2 * PAD;
	g->height = bb.UR.y - bb.LL.y + 2 * PAD;
	for (size_t i = 0; i < g->nodes_nr; i++) {
		struct graph_node *n = &g->nodes[i];

		if (!an[i])
			continue;
		n->x = ND_coord(an[i]).x - left;
		n->y = top - ND_coord(an[i]).y;
		n->w = ND_width(an[i]) * PT;
		n->h = ND_height(an[i]) * PT;
	}
	for (size_t i = 0; i < g->edges_nr; i++) {
		if (ae[i] && read_route(&g->edges[i], ae[i], top, left))
			return -ENOMEM;
	}
	return 0;
}

int graph__layout(struct graph *g, size_t max_nodes, char *err, size_t errlen)
{
	GVC_t *gvc = NULL;
	Agraph_t *ag = NULL;
	Agnode_t **an = NULL;
	Agedge_t **ae = NULL;
	struct syms sy;
	agusererrf old_errf;
	int ret = -ENOMEM;

	g->laid_out = false;
	if (err && errlen)
		err[0] = '\0';
	if (max_nodes && graph__shown_nodes(g) > max_nodes) {
		if (err && errlen)
			snprintf(err, errlen, "%zu nodes to draw, more than %zu", graph__shown_nodes(g),
				 max_nodes);
		return -E2BIG;
	}
	gv_err = err;
	gv_errlen = errlen;
	old_errf = agseterrf(collect_error);

	an = calloc(g->nodes_nr ? g->nodes_nr : 1, sizeof(*an));
	ae = calloc(g->edges_nr ? g->edges_nr : 1, sizeof(*ae));
	gvc = gvContextPlugins(builtin_plugins, 0);
	if (!an || !ae || !gvc)
		goto out;
	ag = open_graph(&sy);
	if (!ag || !sy.label || !sy.color || !sy.pen || !sy.style || !sy.constraint ||
	    add_drawn(g, ag, &sy, an, ae))
		goto out;
	if (gvLayout(gvc, ag, "dot") != 0) {
		ret = -EIO;
		if (err && errlen && !err[0])
			snprintf(err, errlen, "Graphviz could not lay out graph %s", g->id);
		goto out;
	}
	if (!read_layout(g, ag, an, ae)) {
		g->laid_out = true;
		ret = 0;
	}
	gvFreeLayout(gvc, ag);
out:
	if (ag)
		agclose(ag);
	if (gvc)
		gvFreeContext(gvc);
	free(an);
	free(ae);
	agseterrf(old_errf);
	gv_err = NULL;
	gv_errlen = 0;
	return ret;
}

/* SPDX-License-Identifier: MIT */
/*
 * A laid-out graph drawn as SVG, written here rather than by Graphviz's SVG
 * renderer: every text goes through one escaping rule (html_escape), the
 * element ids and classes are the ones a page's script addresses, nothing is
 * written that a page does not use (Graphviz adds a <title> and a comment
 * per node and edge), and the colours are attributes of the drawing itself,
 * so the same element also stands alone as an .svg file.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "graph.h"
#include "lib/html.h"
#include "lib/json-writer.h"

/* Points per text line: Graphviz's 1.2 line spacing of the 10-point font. */
#define LINE 12.0
#define MARGIN_X (0.08 * 72)
/* An arrowhead is as wide as this share of its length on each side. */
#define ARROW_HALF_WIDTH 0.35

static void put_node(const struct graph *g, const struct graph_node *n, FILE *out)
{
	double top = n->y - n->lines_nr * LINE / 2;

	fputs("<g class=\"node", out);
	if (n->region)
		fputs(" region", out);
	else if (n->members > 1)
		fputs(" run", out);
	else if (n->cold)
		fputs(" cold", out);
	if (n->emphasis)
		fputs(" em", out);
	if (n->marked)
		fputs(" mark", out);
	fprintf(out, "\" id=\"%s\"", n->id);
	if (n->members > 1)
		fprintf(out, " data-members=\"%u\"", n->members);
	fputs(">", out);
	if (n->href) {
		fputs("<a href=\"", out);
		html_puts(out, n->href);
		fputs("\">", out);
	}
	if (n->tooltip) {
		fputs("<title>", out);
		html_puts(out, n->tooltip);
		fputs("</title>", out);
	}
	fprintf(out, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"#%06x\"",
		n->x - n->w / 2, n->y - n->h / 2, n->w, n->h, (unsigned)n->fill);
	if (n->emphasis)
		fputs(" stroke=\"#000000\" stroke-width=\"2\"", out);
	else if (n->members > 1)
		fputs(" stroke=\"#777777\" stroke-dasharray=\"4 2\"", out);
	else
		fputs(n->cold ? " stroke=\"#999999\"" : " stroke=\"#333333\"", out);
	if (n->marked)
		fputs(" stroke-dasharray=\"6 3\"", out);
	fputs("/>", out);
	if (n->lines_nr) {
		fprintf(out, "<text fill=\"#%06x\">", (unsigned)n->ink);
		for (size_t l = 0; l < n->lines_nr; l++) {
			fprintf(out, "<tspan x=\"%.1f\" y=\"%.1f\">", n->x - n->w / 2 + MARGIN_X,
				top + (l + 0.5) * LINE);
			html_puts(out, n->lines[l]);
			fputs("</tspan>", out);
		}
		fputs("</text>", out);
	}
	if (n->href)
		fputs("</a>", out);
	fputs("</g>\n", out);
	(void)g;
}

static void put_edge(const struct graph *g, const struct graph_edge *e, FILE *out)
{
	struct graph_edge_style st = graph_edge__drawn_style(g, e);
	struct graph_point base, tip = e->tip;
	double dx, dy, len, hx, hy;

	if (!e->pts_nr)
		return;
	fprintf(out, "<g class=\"edge %s%s\" data-from=\"%s\" data-to=\"%s\" color=\"#%06x\">",
		graph_edge_kind__name(e->kind), e->back ? " back" : "",
		g->nodes[graph__shown(g, e->from)].id, g->nodes[graph__shown(g, e->to)].id,
		(unsigned)st.colour);
	if (e->count > 1)
		fprintf(out, "<title>%u edges</title>", e->count);
	fprintf(out, "<path fill=\"none\" stroke=\"currentColor\"");
	if (st.width != 1)
		fprintf(out, " stroke-width=\"%g\"", st.width);
	if (st.dashed)
		fputs(" stroke-dasharray=\"5 3\"", out);
	fprintf(out, " d=\"M%.1f,%.1f", e->pts[0].x, e->pts[0].y);
	/* Cubic segments: 3 points each after the first. */
	for (size_t i = 1; i + 2 < e->pts_nr; i += 3)
		fprintf(out, "C%.1f,%.1f %.1f,%.1f %.1f,%.1f", e->pts[i].x, e->pts[i].y,
			e->pts[i + 1].x, e->pts[i + 1].y, e->pts[i + 2].x, e->pts[i + 2].y);
	fputs("\"/>", out);
	/* The arrowhead: from the spline's end to the tip. */
	base = e->pts[e->pts_nr - 1];
	dx = tip.x - base.x;
	dy = tip.y - base.y;
	len = sqrt(dx * dx + dy * dy);
	if (len > 0.01) {
		hx = -dy * ARROW_HALF_WIDTH;
		hy = dx * ARROW_HALF_WIDTH;
		fprintf(out, "<path fill=\"currentColor\" d=\"M%.1f,%.1fL%.1f,%.1fL%.1f,%.1fz\"/>",
			tip.x, tip.y, base.x + hx, base.y + hy, base.x - hx, base.y - hy);
	}
	fputs("</g>\n", out);
}

int graph__write_svg(const struct graph *g, FILE *out)
{
	if (!g->laid_out)
		return -EINVAL;
	fprintf(out,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"%s\" class=\"cfg\" "
		"width=\"%.0f\" height=\"%.0f\" viewBox=\"0 0 %.1f %.1f\" "
		"font-family=\"monospace\" font-size=\"10\" dominant-baseline=\"central\" "
		"xml:space=\"preserve\">\n",
		g->id, ceil(g->width), ceil(g->height), g->width, g->height);
	/* Edges first, so boxes are drawn over their ends. */
	for (size_t i = 0; i < g->edges_nr; i++) {
		if (!g->edges[i].collapsed)
			put_edge(g, &g->edges[i], out);
	}
	for (size_t i = 0; i < g->nodes_nr; i++) {
		if (g->nodes[i].collapsed_into == i)
			put_node(g, &g->nodes[i], out);
	}
	fputs("</svg>\n", out);
	return ferror(out) ? -EIO : 0;
}

/* x with one decimal, as the SVG has it ("-0.0" as "0.0": the same number). */
static void put_num(struct json_writer *w, double x)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.1f", x);
	json_writer__raw(w, NULL, strcmp(buf, "-0.0") ? buf : "0.0");
}

/* A number with a fixed count of decimals (one the page reads as is). */
static void put_fixed(struct json_writer *w, const char *key, int decimals, double x)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.*f", decimals, x);
	json_writer__raw(w, key, buf);
}

/* A number in printf's shortest form (%g). */
static void put_short(struct json_writer *w, double x)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%g", x);
	json_writer__raw(w, NULL, buf);
}

/* A drawn node of graph__write_json. */
static void json_node(struct json_writer *w, const struct graph_node *n)
{
	unsigned flags = n->cold | n->emphasis << 1 | n->marked << 2 | (n->members > 1) << 3 |
			 n->region << 4;
	double top = n->y - n->lines_nr * LINE / 2;

	json_writer__array(w, NULL, JSON_INLINE);
	json_writer__str(w, NULL, n->id);
	json_writer__u64(w, NULL, flags);
	json_writer__u64(w, NULL, n->members);
	put_num(w, n->x - n->w / 2);
	put_num(w, n->y - n->h / 2);
	put_num(w, n->w);
	put_num(w, n->h);
	json_writer__u64(w, NULL, (unsigned)n->fill);
	json_writer__u64(w, NULL, (unsigned)n->ink);
	json_writer__str(w, NULL, n->href);
	json_writer__str(w, NULL, n->tooltip);
	json_writer__array(w, NULL, JSON_INLINE);
	for (size_t l = 0; l < n->lines_nr; l++) {
		put_num(w, n->x - n->w / 2 + MARGIN_X);
		put_num(w, top + (l + 0.5) * LINE);
		json_writer__str(w, NULL, n->lines[l]);
	}
	json_writer__end(w);
	json_writer__end(w);
}

/* A drawn edge of graph__write_json (one with a route). */
static void json_edge(struct json_writer *w, const struct graph *g, const struct graph_edge *e)
{
	struct graph_edge_style st = graph_edge__drawn_style(g, e);
	struct graph_point base = e->pts[e->pts_nr - 1];
	double dx = e->tip.x - base.x, dy = e->tip.y - base.y;

	json_writer__array(w, NULL, JSON_INLINE);
	json_writer__str(w, NULL, g->nodes[graph__shown(g, e->from)].id);
	json_writer__str(w, NULL, g->nodes[graph__shown(g, e->to)].id);
	json_writer__str(w, NULL, graph_edge_kind__name(e->kind));
	json_writer__i64(w, NULL, e->back);
	json_writer__u64(w, NULL, e->count);
	json_writer__u64(w, NULL, (unsigned)st.colour);
	put_short(w, st.width);
	json_writer__i64(w, NULL, st.dashed);
	json_writer__array(w, NULL, JSON_INLINE);
	for (size_t k = 0; k < e->pts_nr; k++) {
		put_num(w, e->pts[k].x);
		put_num(w, e->pts[k].y);
	}
	json_writer__end(w);
	/* the arrowhead, as put_edge draws it, or none */
	if (sqrt(dx * dx + dy * dy) > 0.01) {
		double hx = -dy * ARROW_HALF_WIDTH, hy = dx * ARROW_HALF_WIDTH;
		const double v[6] = { e->tip.x, e->tip.y, base.x + hx, base.y + hy, base.x - hx,
				      base.y - hy };

		json_writer__array(w, NULL, JSON_INLINE);
		for (int k = 0; k < 6; k++)
			put_num(w, v[k]);
		json_writer__end(w);
	} else {
		json_writer__null(w, NULL);
	}
	json_writer__end(w);
}

int graph__write_json(const struct graph *g, struct json_writer *w, const char *key)
{
	if (!g->laid_out)
		return -EINVAL;
	json_writer__object(w, key, JSON_INLINE);
	json_writer__str(w, "id", g->id);
	put_fixed(w, "w", 0, ceil(g->width));
	put_fixed(w, "h", 0, ceil(g->height));
	put_fixed(w, "vw", 1, g->width);
	put_fixed(w, "vh", 1, g->height);
	json_writer__array(w, "n", JSON_INLINE);
	for (size_t i = 0; i < g->nodes_nr; i++)
		if (g->nodes[i].collapsed_into == i)
			json_node(w, &g->nodes[i]);
	json_writer__end(w);
	json_writer__array(w, "e", JSON_INLINE);
	for (size_t i = 0; i < g->edges_nr; i++)
		if (!g->edges[i].collapsed && g->edges[i].pts_nr)
			json_edge(w, g, &g->edges[i]);
	json_writer__end(w);
	json_writer__end(w);
	return 0;
}

char *graph__svg(const struct graph *g, size_t *len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);
	int ret;

	if (!f)
		return NULL;
	ret = graph__write_svg(g, f);
	if (fclose(f) || ret) {
		free(buf);
		errno = ret == -EINVAL ? EINVAL : EIO;
		return NULL;
	}
	if (len)
		*len = n;
	return buf;
}

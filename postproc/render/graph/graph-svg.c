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
	struct graph_edge_style st = graph_edge__style(e->kind, e->back);
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
static void put_num(FILE *out, double x)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%.1f", x);
	fputs(strcmp(buf, "-0.0") ? buf : "0.0", out);
}

/* A drawn node of graph__write_json, after a comma unless first. */
static void json_node(FILE *out, const struct graph_node *n, bool first)
{
	unsigned flags = n->cold | n->emphasis << 1 | n->marked << 2 | (n->members > 1) << 3 |
			 n->region << 4;

	fprintf(out, "%s[\"%s\",%u,%u,", first ? "" : ",", n->id, flags, n->members);
	put_num(out, n->x - n->w / 2);
	fputc(',', out);
	put_num(out, n->y - n->h / 2);
	fputc(',', out);
	put_num(out, n->w);
	fputc(',', out);
	put_num(out, n->h);
	fprintf(out, ",%u,%u,", (unsigned)n->fill, (unsigned)n->ink);
	if (n->href)
		html_json_str(out, n->href);
	else
		fputs("null", out);
	fputc(',', out);
	if (n->tooltip)
		html_json_str(out, n->tooltip);
	else
		fputs("null", out);
	fputs(",[", out);
	for (size_t l = 0; l < n->lines_nr; l++) {
		double top = n->y - n->lines_nr * LINE / 2;

		if (l)
			fputc(',', out);
		put_num(out, n->x - n->w / 2 + MARGIN_X);
		fputc(',', out);
		put_num(out, top + (l + 0.5) * LINE);
		fputc(',', out);
		html_json_str(out, n->lines[l]);
	}
	fputs("]]", out);
}

/* A drawn edge of graph__write_json (one with a route), after a comma unless first. */
static void json_edge(FILE *out, const struct graph *g, const struct graph_edge *e, bool first)
{
	struct graph_edge_style st = graph_edge__style(e->kind, e->back);
	struct graph_point base;
	double dx, dy;

	fprintf(out, "%s[\"%s\",\"%s\",\"%s\",%d,%u,%u,%g,%d,[", first ? "" : ",",
		g->nodes[graph__shown(g, e->from)].id, g->nodes[graph__shown(g, e->to)].id,
		graph_edge_kind__name(e->kind), e->back, e->count, (unsigned)st.colour, st.width,
		st.dashed);
	for (size_t k = 0; k < e->pts_nr; k++) {
		if (k)
			fputc(',', out);
		put_num(out, e->pts[k].x);
		fputc(',', out);
		put_num(out, e->pts[k].y);
	}
	fputs("],", out);
	/* the arrowhead, as put_edge draws it, or none */
	base = e->pts[e->pts_nr - 1];
	dx = e->tip.x - base.x;
	dy = e->tip.y - base.y;
	if (sqrt(dx * dx + dy * dy) > 0.01) {
		double hx = -dy * ARROW_HALF_WIDTH, hy = dx * ARROW_HALF_WIDTH;
		const double v[6] = { e->tip.x, e->tip.y, base.x + hx, base.y + hy, base.x - hx,
				      base.y - hy };

		for (int k = 0; k < 6; k++) {
			fputc(k ? ',' : '[', out);
			put_num(out, v[k]);
		}
		fputs("]]", out);
	} else {
		fputs("null]", out);
	}
}

int graph__write_json(const struct graph *g, FILE *out)
{
	bool first = true;

	if (!g->laid_out)
		return -EINVAL;
	fprintf(out, "{\"id\":\"%s\",\"w\":%.0f,\"h\":%.0f,\"vw\":", g->id, ceil(g->width),
		ceil(g->height));
	put_num(out, g->width);
	fputs(",\"vh\":", out);
	put_num(out, g->height);
	fputs(",\"n\":[", out);
	for (size_t i = 0; i < g->nodes_nr; i++) {
		if (g->nodes[i].collapsed_into != i)
			continue;
		json_node(out, &g->nodes[i], first);
		first = false;
	}
	fputs("],\"e\":[", out);
	first = true;
	for (size_t i = 0; i < g->edges_nr; i++) {
		if (g->edges[i].collapsed || !g->edges[i].pts_nr)
			continue;
		json_edge(out, g, &g->edges[i], first);
		first = false;
	}
	fputs("]}", out);
	return ferror(out) ? -EIO : 0;
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

/* SPDX-License-Identifier: MIT */
/* A graph as Graphviz dot text, for people's own tooling. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "graph.h"

/*
 * A dot string, quoted. Inside quotes dot's parser only takes \" apart; then
 * Graphviz expands escString sequences (\N, \G, \l ...) in labels, tooltips
 * and links, and decodes HTML entities in labels and tooltips. So in a label
 * a backslash of the text is doubled and an ampersand is &amp;. A tooltip's
 * backslashes are taken apart twice (Graphviz 2.42: "\\G" shows the graph's
 * name; read back in test-graph.c): there a backslash is written as four.
 * Text is already free of line breaks and invalid UTF-8 (graph__add_node).
 */
enum quoting { PLAIN, LABEL, TOOLTIP };

static void put_text(FILE *out, const char *s, enum quoting q)
{
	for (; *s; s++) {
		if (*s == '"')
			fputs("\\\"", out);
		else if (*s == '\\')
			fputs(q == TOOLTIP ? "\\\\\\\\" : "\\\\", out);
		else if (*s == '&' && q != PLAIN)
			fputs("&amp;", out);
		else
			putc(*s, out);
	}
}

static void put_quoted(FILE *out, const char *s, enum quoting q)
{
	putc('"', out);
	put_text(out, s, q);
	putc('"', out);
}

static void put_colour(FILE *out, const char *attr, uint32_t rgb)
{
	fprintf(out, ", %s=\"#%06x\"", attr, (unsigned)rgb);
}

int graph__write_dot(const struct graph *g, FILE *out)
{
	fputs("digraph ", out);
	put_quoted(out, g->id, PLAIN);
	fputs(" {\n"
	      "\tnode [shape=box, style=filled, fontname=\"Courier\", fontsize=10, "
	      "margin=\"0.08,0.04\", width=0.3, height=0.2];\n"
	      "\tedge [arrowsize=0.7];\n", out);
	if (g->label) {
		/* over the drawing, left-aligned: where a reader looks for a title */
		fputs("\tlabelloc=t;\n\tlabeljust=l;\n\tlabel=\"", out);
		put_text(out, g->label, LABEL);
		fputs("\";\n", out);
	}
	for (size_t i = 0; i < g->nodes_nr; i++) {
		const struct graph_node *n = &g->nodes[i];
		const char *cls;

		if (n->collapsed_into != i)
			continue;
		putc('\t', out);
		put_quoted(out, n->id, PLAIN);
		fputs(" [id=", out);
		put_quoted(out, n->id, PLAIN);
		fputs(", label=\"", out);
		for (size_t l = 0; l < n->lines_nr; l++) {
			/* each line left-justified: "\l" ends it */
			put_text(out, n->lines[l], LABEL);
			fputs("\\l", out);
		}
		putc('"', out);
		put_colour(out, "fillcolor", n->fill);
		put_colour(out, "fontcolor", n->ink);
		cls = n->region ? "region" : n->members > 1 ? "run" : n->cold ? "cold" : NULL;
		if (cls || n->emphasis || n->marked)
			fprintf(out, ", class=\"%s%s%s%s%s\"", cls ? cls : "",
				cls && n->emphasis ? " " : "", n->emphasis ? "em" : "",
				(cls || n->emphasis) && n->marked ? " " : "", n->marked ? "mark" : "");
		if (n->emphasis)
			fputs(", penwidth=2", out);
		if (n->marked)
			fputs(", style=\"filled,dashed\"", out);
		if (n->tooltip) {
			fputs(", tooltip=", out);
			put_quoted(out, n->tooltip, TOOLTIP);
		}
		if (n->href) {
			fputs(", href=", out);
			put_quoted(out, n->href, PLAIN);
		}
		fputs("];\n", out);
	}
	for (size_t i = 0; i < g->edges_nr; i++) {
		const struct graph_edge *e = &g->edges[i];
		struct graph_edge_style st = graph_edge__drawn_style(g, e);

		if (e->collapsed)
			continue;
		putc('\t', out);
		put_quoted(out, g->nodes[graph__shown(g, e->from)].id, PLAIN);
		fputs(" -> ", out);
		put_quoted(out, g->nodes[graph__shown(g, e->to)].id, PLAIN);
		fprintf(out, " [class=\"%s%s\"", graph_edge_kind__name(e->kind), e->back ? " back" : "");
		put_colour(out, "color", st.colour);
		if (st.width != 1)
			fprintf(out, ", penwidth=%g", st.width);
		if (st.dashed)
			fputs(", style=dashed", out);
		/* Loops are drawn against the flow: rank by the forward edges only. */
		if (e->back)
			fputs(", constraint=false", out);
		if (e->count > 1)
			fprintf(out, ", tooltip=\"%u edges\"", e->count);
		fputs("];\n", out);
	}
	fputs("}\n", out);
	return ferror(out) ? -EIO : 0;
}

/* SPDX-License-Identifier: MIT */
/* A listed function's control-flow graph to draw (report-graph.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "report-graph.h"

const char *report_graph__id(char buf[REPORT_ID_MAX], const char *prefix, char what,
			     uint32_t start)
{
	snprintf(buf, REPORT_ID_MAX, "%.32s-%c%" PRIx32, prefix, what, start);
	return buf;
}

double report_graph__share(const struct report *rep, uint64_t n)
{
	return rep->total ? (double)n / (double)rep->total : 0;
}

void report_graph__heat(struct heat_scale *s, const struct report *rep)
{
	heat_scale__init(s, rep->heat_max);
}

static const enum graph_edge_kind edge_kind[] = {
	[REPORT_EDGE_FALLTHROUGH] = GRAPH_EDGE_FALLTHROUGH,
	[REPORT_EDGE_TAKEN] = GRAPH_EDGE_TAKEN,
	[REPORT_EDGE_CASE] = GRAPH_EDGE_CASE,
};

static int add_block(struct graph *g, const struct report *rep, const struct report_func *f,
		     size_t bi, const char *prefix, const struct heat_scale *heat,
		     const struct report_graph_paint *paint)
{
	const struct report_block *b = &f->blocks[bi];
	char id[REPORT_ID_MAX], href[REPORT_ID_MAX + 1], pct[64];
	char l1[REPORT_GRAPH_TEXT], l2[REPORT_GRAPH_TEXT], tip[REPORT_GRAPH_TEXT];
	const char *lines[2] = { l1, l2 };
	double share = report_graph__share(rep, b->samples);
	struct heat_colour c = heat_scale__colour(heat, share);
	struct graph_node_spec spec = {
		.id = report_graph__id(id, prefix, 'b', b->start),
		.lines = lines, .lines_nr = 2, .tooltip = tip, .href = href,
		.fill = c.fill, .ink = c.ink, .cold = !b->samples, .emphasis = b->shown,
	};
	long n;

	href[0] = '#';
	report_graph__id(href + 1, prefix, 'l', b->start);
	fmt_share(pct, sizeof(pct), b->samples, share * 100);
	if (b->samples)
		snprintf(l1, sizeof(l1), "0x%" PRIx32 "  %s%%", b->start, pct);
	else
		snprintf(l1, sizeof(l1), "0x%" PRIx32, b->start);
	if (b->rank)
		snprintf(l2, sizeof(l2), "%" PRIu32 " insn%s  #%" PRIu32, b->insns, plural(b->insns),
			 b->rank);
	else
		snprintf(l2, sizeof(l2), "%" PRIu32 " insn%s", b->insns, plural(b->insns));
	snprintf(tip, sizeof(tip),
		 "block 0x%" PRIx32 "..0x%" PRIx32 ": %" PRIu64 " sample%s (%s%%), %" PRIu32
		 " instruction%s%s", b->start, b->end, b->samples, plural(b->samples), pct, b->insns,
		 plural(b->insns), b->shown ? ", shown" : "");
	if (paint)
		paint->block(paint->ctx, bi, &spec, l1, l2, tip);
	n = graph__add_node(g, &spec);
	return n < 0 ? (int)n : 0;
}

int report_graph__build(struct graph *g, const struct report *rep, const struct report_func *f,
			const char *prefix, const char *label, const struct heat_scale *heat,
			size_t max_boxes)
{
	return report_graph__build_painted(g, rep, f, prefix, label, heat, max_boxes, NULL);
}

int report_graph__build_painted(struct graph *g, const struct report *rep,
				const struct report_func *f, const char *prefix, const char *label,
				const struct heat_scale *heat, size_t max_boxes,
				const struct report_graph_paint *paint)
{
	char id[REPORT_ID_MAX];
	int ret;

	if (strlen(prefix) > 32)
		return -EINVAL;
	snprintf(id, sizeof(id), "%s-cfg", prefix);
	if ((ret = graph__init(g, id)) || (ret = graph__set_label(g, label)))
		return ret;
	for (size_t b = 0; b < f->blocks_nr; b++)
		if ((ret = add_block(g, rep, f, b, prefix, heat, paint)))
			return ret;
	for (size_t e = 0; e < f->edges_nr; e++) {
		const struct report_edge *re = &f->edges[e];

		if ((unsigned)re->kind >= ARRAY_SIZE(edge_kind))
			return -EINVAL;
		if ((ret = graph__add_edge(g, re->from, re->to, edge_kind[re->kind])))
			return ret;
	}
	/* measured by branch stacks: the edges' widths */
	const struct report_func_branches *fb = report__func_branches(rep, (size_t)(f - rep->funcs));

	for (size_t e = 0; fb && fb->measured && e < f->edges_nr; e++) {
		const struct report_edge *re = &f->edges[e];
		uint64_t n = fb->measured->edges[e];

		if (n && (ret = graph__measure_edge(g, re->from, re->to, edge_kind[re->kind], n)))
			return ret;
	}
	if ((ret = graph__weigh_edges(g)))
		return ret;
	/* The same walk as the report's (entry first, then by address, edges
	 * by target): the same edges come out as back edges. */
	if ((ret = graph__mark_back_edges(g, 0)))
		return ret;
	if (max_boxes && graph__collapse_to_fit(g, max_boxes) < 0)
		return -ENOMEM;
	return 0;
}

int report_graph__fit(struct graph *g, size_t blocks_nr, struct report_graph_fit *fit)
{
	if (graph__collapse_to_fit(g, REPORT_GRAPH_BOXES) < 0)
		return -ENOMEM;
	fit->blocks = blocks_nr;
	fit->boxes = graph__shown_nodes(g);
	fit->drawn = fit->boxes <= REPORT_GRAPH_MAX_BOXES;
	return 0;
}

const char *report_graph__fit_text(char *buf, size_t len, const struct report_graph_fit *fit)
{
	if (!fit->drawn)
		snprintf(buf, len, "%zu boxes even with the cold blocks folded, too many to lay out",
			 fit->boxes);
	else if (fit->boxes != fit->blocks)
		snprintf(buf, len, "%zu block%s in %zu boxes: cold ones folded", fit->blocks,
			 plural(fit->blocks), fit->boxes);
	else
		snprintf(buf, len, "%zu block%s", fit->blocks, plural(fit->blocks));
	return buf;
}

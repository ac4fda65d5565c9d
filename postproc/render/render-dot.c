/* SPDX-License-Identifier: MIT */
/*
 * Graphviz dot: one digraph per listed function, the graph the HTML page
 * draws (report-graph.h), titled with the function's name and share, for
 * people's own tooling (dot -Tsvg, -Tpdf, ...). Folded, and declined when
 * too big to lay out, as the page decides (report_graph__fit); the title
 * says which: a declined graph is a digraph of its title alone. Functions
 * that were not disassembled have no graph and are left out; an empty
 * report writes nothing.
 */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "lib/util.h"
#include "render.h"
#include "render/graph/report-graph.h"

/* Write f's graph g, titled with what was folded, or in its place a
 * graph of its title saying why there is none. */
static int put_graph(FILE *out, struct graph *g, const struct report_func *f, const char *title,
		     const char *prefix)
{
	struct report_graph_fit fit;
	char what[128], *label;
	int ret = report_graph__fit(g, f->blocks_nr, &fit);

	if (ret)
		return ret;
	report_graph__fit_text(what, sizeof(what), &fit);
	if (fit.drawn && fit.boxes == fit.blocks)
		return graph__write_dot(g, out);
	if (asprintf(&label, "%s; %s%s", title, fit.drawn ? "" : "no graph: ", what) < 0)
		return -ENOMEM;
	if (!fit.drawn) {
		char id[REPORT_ID_MAX];

		graph__release(g);
		snprintf(id, sizeof(id), "%s-cfg", prefix);
		ret = graph__init(g, id);
	}
	if (!ret)
		ret = graph__set_label(g, label);
	if (!ret)
		ret = graph__write_dot(g, out);
	free(label);
	return ret;
}

int render_dot(FILE *out, const struct report *rep, const struct render_opts *o)
{
	struct heat_scale heat;
	char prefix[32], pct[64], *label;
	int ret = 0;

	report_graph__heat(&heat, rep);
	for (size_t i = 0; i < rep->funcs_nr && !ret; i++) {
		const struct report_func *f = &rep->funcs[i];
		struct graph g;

		if (!f->disassembled || !f->code_blocks_nr)
			continue;
		if ((ret = report__func_open(rep, i)))
			break;
		snprintf(prefix, sizeof(prefix), "f%zu", i);
		fmt_share(pct, sizeof(pct), f->samples, report_graph__share(rep, f->samples) * 100);
		if (asprintf(&label, "%s: %" PRIu64 " sample%s (%s%%)", f->display_name, f->samples,
			     plural(f->samples), pct) < 0) {
			report__func_close(rep, i);
			return -ENOMEM;
		}
		ret = report_graph__build(&g, rep, f, prefix, label, &heat, 0);
		if (!ret)
			ret = put_graph(out, &g, f, label, prefix);
		graph__release(&g);
		free(label);
		report__func_close(rep, i);
	}
	if (!ret && ferror(out))
		ret = -EIO;
	return ret;
}

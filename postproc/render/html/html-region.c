/* SPDX-License-Identifier: MIT */
/* A function too big for its page, cut to its hottest region (html-region.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "html-region.h"
#include "lib/html.h"
#include "lib/util.h"
#include "render/graph/report-graph.h"

static const struct report_func *sort_f;

static int hotter(const void *a, const void *b)
{
	const struct report_block *x = &sort_f->blocks[*(const uint32_t *)a];
	const struct report_block *y = &sort_f->blocks[*(const uint32_t *)b];

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return x->start < y->start ? -1 : x->start > y->start;
}

int html_region__order(const struct report_func *whole, uint32_t **order, size_t *nr)
{
	uint32_t *v = malloc((whole->blocks_nr ? whole->blocks_nr : 1) * sizeof(*v));
	size_t n = 0;

	if (!v)
		return -ENOMEM;
	for (size_t b = 0; b < whole->blocks_nr; b++)
		if (whole->blocks[b].samples)
			v[n++] = (uint32_t)b;
	sort_f = whole;
	qsort(v, n, sizeof(*v), hotter);
	sort_f = NULL;
	*order = v;
	*nr = n;
	return 0;
}

void html_region__release(struct html_region *r)
{
	free(r->f.blocks);
	free(r->f.rows);
	free(r->f.edges);
	free(r->orig);
	free(r->stub);
	memset(r, 0, sizeof(*r));
}

int html_region__build(struct html_region *r, const struct report *rep, size_t fi,
		       const uint32_t *order, size_t k, size_t rest_rows)
{
	const struct report_func *w = &rep->funcs[fi];
	/* each whole block: 0 not in, 1 region, 2 stub; then its new index */
	unsigned char *in = calloc(w->blocks_nr ? w->blocks_nr : 1, 1);
	uint32_t *to = malloc((w->blocks_nr ? w->blocks_nr : 1) * sizeof(*to));
	size_t nb = 0, nr = 0, ne = 0;

	memset(r, 0, sizeof(*r));
	r->whole = w;
	r->rest_rows = rest_rows;
	r->data_samples = report__func_data_samples(rep, fi);
	if (!in || !to)
		goto oom;
	for (size_t i = 0; i < k; i++) {
		in[order[i]] = 1;
		r->samples = sat_add(r->samples, w->blocks[order[i]].samples);
	}
	r->blocks = k;
	/* one step before or after: every edge with one end in the region */
	for (size_t e = 0; e < w->edges_nr; e++) {
		uint32_t a = w->edges[e].from, b = w->edges[e].to;

		if (in[a] == 1 && !in[b])
			in[b] = 2;
		else if (in[b] == 1 && !in[a])
			in[a] = 2;
	}
	for (size_t b = 0; b < w->blocks_nr; b++)
		if (in[b]) {
			to[b] = (uint32_t)nb++;
			if (in[b] == 1)
				nr += w->blocks[b].insns;
		}
	r->stubs = nb - k;
	for (size_t e = 0; e < w->edges_nr; e++)
		ne += in[w->edges[e].from] && in[w->edges[e].to];
	r->f = *w;
	r->f.blocks = malloc(nb * sizeof(*r->f.blocks));
	r->f.rows = malloc((nr ? nr : 1) * sizeof(*r->f.rows));
	r->f.edges = malloc((ne ? ne : 1) * sizeof(*r->f.edges));
	r->orig = malloc(nb * sizeof(*r->orig));
	r->stub = malloc(nb * sizeof(*r->stub));
	if (!r->f.blocks || !r->f.rows || !r->f.edges || !r->orig || !r->stub)
		goto oom;
	r->f.blocks_nr = nb;
	r->f.rows_nr = 0;
	r->f.edges_nr = 0;
	r->f.points = NULL;
	r->f.points_nr = 0;
	r->f.store = NULL;
	for (size_t b = 0; b < w->blocks_nr; b++) {
		struct report_block *nbk;

		if (!in[b])
			continue;
		nbk = &r->f.blocks[to[b]];
		*nbk = w->blocks[b];
		r->orig[to[b]] = b;
		r->stub[to[b]] = in[b] == 2;
		nbk->listed = in[b] == 1;
		nbk->first_row = r->f.rows_nr;
		nbk->first_edge = r->f.edges_nr;
		nbk->edges_nr = 0;
		if (in[b] == 1) {
			struct report_row *rows = &r->f.rows[r->f.rows_nr];
			int n = report__func_block_rows(rep, fi, b, rows);

			if (n < 0) {
				free(in);
				free(to);
				html_region__release(r);
				return n;
			}
			for (int i = 0; i < n; i++) {
				int32_t t = rows[i].target_block;

				rows[i].block = (int32_t)to[b];
				/* a branch into the region or a stub keeps its link */
				rows[i].target_block = t >= 0 && (size_t)t < w->blocks_nr && in[t] ?
						       (int32_t)to[t] : -1;
			}
			r->f.rows_nr += (size_t)n;
		}
		for (size_t e = w->blocks[b].first_edge; e < w->blocks[b].first_edge +
		     w->blocks[b].edges_nr && e < w->edges_nr; e++) {
			const struct report_edge *we = &w->edges[e];

			if (!in[we->to])
				continue;
			r->f.edges[r->f.edges_nr] = *we;
			r->f.edges[r->f.edges_nr].from = to[b];
			r->f.edges[r->f.edges_nr].to = to[we->to];
			r->f.edges_nr++;
			nbk->edges_nr++;
		}
	}
	free(in);
	free(to);
	return 0;
oom:
	free(in);
	free(to);
	html_region__release(r);
	return -ENOMEM;
}

/* Stubs are drawn as what they are: their tooltip says so. */
static void paint_stub(const void *ctx, size_t b, struct graph_node_spec *spec, char *line1,
		       char *line2, char *tooltip)
{
	const struct html_region *r = ctx;

	(void)spec;
	(void)line1;
	(void)line2;
	if (r->stub[b])
		snprintf(tooltip, REPORT_GRAPH_TEXT, "block 0x%" PRIx32 ": a neighbour of the region,"
			 " its rows are not in this page", r->f.blocks[b].start);
}

/* The sampled blocks whose rows are not shown: the hottest rest_rows of them. */
static void put_rest(FILE *out, const struct html_listing *l, const struct html_region *r,
		     const uint32_t *order, size_t order_nr)
{
	const struct report_func *w = r->whole;
	size_t rows = 0, more = 0;
	uint64_t more_samples = 0, samples = 0;
	char pct[64];

	for (size_t i = r->blocks; i < order_nr; i++)
		samples = sat_add(samples, w->blocks[order[i]].samples);
	fprintf(out, "<h3 class=\"rest\">The other %zu sampled blocks <small>%" PRIu64 " sample%s,"
		" %s%% of all; hottest first</small></h3>\n<table class=\"rest\" data-blocks=\"%zu\""
		" data-samples=\"%" PRIu64 "\"><thead><tr><th>block</th><th class=\"n\">samples</th>"
		"<th class=\"n\">share</th></tr></thead><tbody>\n", order_nr - r->blocks, samples,
		plural(samples), fmt_share(pct, sizeof(pct), samples,
					   report_graph__share(l->rep, samples) * 100),
		order_nr - r->blocks, samples);
	for (size_t i = r->blocks; i < order_nr; i++) {
		const struct report_block *b = &w->blocks[order[i]];

		if (rows >= r->rest_rows) {
			more++;
			more_samples = sat_add(more_samples, b->samples);
			continue;
		}
		rows++;
		fprintf(out, "<tr data-start=%" PRIu32 " data-samples=%" PRIu64 "><td>0x%" PRIx32
			"<td class=n>%" PRIu64 "<td class=n>%s%%</tr>\n", b->start, b->samples, b->start,
			b->samples, fmt_share(pct, sizeof(pct), b->samples,
					      report_graph__share(l->rep, b->samples) * 100));
	}
	if (more)
		fprintf(out, "<tr class=\"more\" data-blocks=%zu data-samples=%" PRIu64 "><td colspan=3>"
			"%zu more block%s, %" PRIu64 " sample%s: <code>hotblocks --json --all</code>"
			" lists every block</tr>\n", more, more_samples, more, plural(more),
			more_samples, plural(more_samples));
	/* samples in the data after the code are in no block: told too */
	samples = r->data_samples;
	if (samples)
		fprintf(out, "<tr class=\"trail\" data-samples=%" PRIu64 "><td colspan=3>%" PRIu64
			" sample%s in the data after the code</tr>\n", samples, samples, plural(samples));
	fputs("</tbody></table>\n", out);
}

int html_region__write(FILE *out, struct html_listing *l, const struct html_region *r,
		       const uint32_t *order, size_t order_nr, const char *whole_cmd)
{
	const struct report_func *w = r->whole;
	struct report_graph_paint paint = { paint_stub, r };
	char pct[64];
	int ret;

	fprintf(out, "<p class=\"region\" data-blocks=\"%zu\" data-stubs=\"%zu\" data-samples=\"%"
		PRIu64 "\">Its whole listing (%zu rows, %zu blocks) is more than this page's budget:"
		" shown, its hottest <b>%zu</b> block%s (%s%% of its samples) with the %zu block%s one"
		" step before or after them as stubs (their header and box, not their rows); the"
		" other sampled blocks are listed after it.", r->blocks, r->stubs, r->samples,
		w->code_rows_nr, w->blocks_nr, r->blocks, plural(r->blocks),
		fmt_pct(pct, sizeof(pct), w->samples ? (double)r->samples * 100.0 /
			(double)w->samples : 0), r->stubs, plural(r->stubs));
	if (whole_cmd) {
		fputs(" The whole function: <code class=\"cmd\">", out);
		html_puts(out, whole_cmd);
		fputs("</code>", out);
	}
	fputs("</p>\n", out);
	l->f = &r->f;
	l->stubs = r->stub;
	l->data = false;	/* markup: its rows are few, and stubs have none */
	ret = html_listing__function(out, l, &paint);
	l->stubs = NULL;
	if (!ret) {
		put_rest(out, l, r, order, order_nr);
		ret = ferror(out) ? -EIO : 0;
	}
	return ret;
}

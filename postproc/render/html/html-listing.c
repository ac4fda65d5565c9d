/* SPDX-License-Identifier: MIT */
/* A function's listing as an HTML table (html-listing.h). */
#define _GNU_SOURCE	/* strnlen */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "html-listing.h"
#include "html-page.h"
#include "lib/html.h"
#include "lib/json-writer.h"
#include "render/graph/report-graph.h"

static const char *const col_class[REPORT_COL__NR] = { "clif", "wasm", "src" };
static const char *const col_head[REPORT_COL__NR] = { "CLIF", "Wasm", "Source" };

/* A cell: absent, a continuation of the one above (ditto), or its text. */
static void put_cell(FILE *out, int c, const struct report_cell *cell)
{
	if (!cell->text) {
		fprintf(out, "<td class=\"%s none\">", col_class[c]);
		return;
	}
	if (cell->ditto) {
		fprintf(out, "<td class=\"%s same\">", col_class[c]);
		return;
	}
	fprintf(out, "<td class=%s>", col_class[c]);
	html_puts(out, cell->text);
}

/*
 * The assembly cell; a branch, call or table entry that goes to a block of
 * the function links to it: the target in the text ("jbe 0xf9") becomes the
 * link, or a link follows the text when it does not end in the target.
 */
static void put_asm(FILE *out, const struct html_listing *l, const struct report_row *row)
{
	const char *text = row->text;
	size_t n = strlen(text), tn;
	char target[24], id[REPORT_ID_MAX];
	uint32_t to;

	fputs("<td>", out);
	/* Out of the function, into one the page has: its name links to it. */
	if (row->target_func >= 0 && (size_t)row->target_func < l->rep->funcs_nr && row->target_name &&
	    (tn = strlen(row->target_name)) < n) {
		/* the cell ends in the name, or in "<name>" (report.h) */
		const char *at = text + n - tn;

		if (strcmp(at, row->target_name))
			at = n > tn + 1 && text[n - 1] == '>' && !strncmp(at - 1, row->target_name, tn) ?
			     at - 1 : text + n;
		html_escape(out, text, (size_t)(at - text));
		if (at < text + n) {
			fprintf(out, "<a href=\"#f%" PRId32 "\">", row->target_func);
			html_escape(out, at, tn);
			fputs("</a>", out);
			html_escape(out, at + tn, n - (size_t)(at - text) - tn);
		}
		return;
	}
	if (row->target_block < 0 || (size_t)row->target_block >= l->f->blocks_nr) {
		html_escape(out, text, n);
		return;
	}
	to = l->f->blocks[row->target_block].start;
	tn = (size_t)snprintf(target, sizeof(target), "0x%" PRIx32, to);
	report_graph__id(id, l->prefix, 'l', to);
	if (n > tn && !strcmp(text + n - tn, target) && (text[n - tn - 1] == ' ' ||
							 text[n - tn - 1] == ',')) {
		html_escape(out, text, n - tn);
		fprintf(out, "<a href=\"#%s\">%s</a>", id, target);
	} else {
		html_escape(out, text, n);
		fprintf(out, " <a class=to href=\"#%s\">&rarr;&nbsp;%s</a>", id, target);
	}
}

/*
 * A row. A whole function's listing can be hundreds of thousands of rows
 * (--all), so a row is lean: the cells' end tags, which HTML lets go, are
 * left out, the cells of the four first columns have no class (the style
 * sheet places them by position), and only a sampled row has data-samples.
 */
static void put_row(FILE *out, const struct html_listing *l, const struct report_row *row,
		    const bool *cols, size_t ncols)
{
	double share = report_graph__share(l->rep, row->samples);
	char pct[64];

	if (row->line_text) {
		const char *base = strrchr(row->source_file, '/');

		fprintf(out, "<tr class=line><td colspan=3><td colspan=%zu>", ncols - 3);
		html_puts(out, base ? base + 1 : row->source_file);
		fprintf(out, ":%" PRIu32 ": <code>", row->source_line);
		html_escape(out, row->line_text, row->line_len);
		fputs("</code></tr>\n", out);
	}
	fputs(row->flags & INSN_DATA ? "<tr class=data" : "<tr", out);
	if (row->samples) {
		fprintf(out, " data-samples=%" PRIu64 ">", row->samples);
		html_page__bar(out, l->bar_max ? (double)row->samples / (double)l->bar_max : 0,
			       l->plain_bars ? HTML_BAR_PLAIN : heat_scale__colour(l->heat, share).fill);
		fprintf(out, "<td title=\"%" PRIu64 " sample%s\">%s%%", row->samples,
			plural(row->samples), fmt_share(pct, sizeof(pct), row->samples, share * 100));
	} else {
		fputs("><td><td>", out);
	}
	fprintf(out, "<td>%" PRIx32, row->off);
	put_asm(out, l, row);
	for (int c = 0; c < REPORT_COL__NR; c++)
		if (cols[c])
			put_cell(out, c, &row->cells[c]);
	/* The row's end: its last cell's text ends there, without the line feed. */
	fputs("</tr>\n", out);
}

static void block_head(FILE *out, const struct html_listing *l, size_t b, size_t ncols)
{
	const struct report_block *blk = &l->f->blocks[b];
	const struct html_listing_hooks *h = l->hooks;
	char id[REPORT_ID_MAX], box[REPORT_ID_MAX], pct[64];
	uint32_t drawn = l->g ? graph__shown(l->g, (uint32_t)b) : (uint32_t)b;
	uint32_t rank = blk->rank;
	bool shown = blk->shown, stub = l->stubs && l->stubs[b];

	if (h && h->block)
		h->block(h->ctx, b, &rank, &shown);
	/* ids and numbers need no quotes */
	report_graph__id(id, l->prefix, 'l', blk->start);
	report_graph__id(box, l->prefix, 'b', l->f->blocks[drawn].start);
	fprintf(out, "<tbody class=\"blk%s%s\" id=%s data-box=%s data-start=%" PRIu32 " data-end=%"
		PRIu32 " data-samples=%" PRIu64, shown ? " shown" : "", stub ? " stub" : "", id, box, blk->start,
		blk->end, blk->samples);
	if (rank)
		fprintf(out, " data-rank=%" PRIu32, rank);
	if (h && h->attrs)
		h->attrs(out, h->ctx, b);
	fprintf(out, ">\n<tr class=bh><th colspan=%zu>", ncols);
	if (l->g)
		fprintf(out, "<a href=\"#%s\">block 0x%" PRIx32 "</a>", box, blk->start);
	else
		fprintf(out, "block 0x%" PRIx32, blk->start);
	fputs(" <span class=facts>", out);
	if (blk->samples)
		fprintf(out, "%" PRIu64 " sample%s &middot; %s%% &middot; ", blk->samples,
			plural(blk->samples),
			fmt_share(pct, sizeof(pct), blk->samples,
				  report_graph__share(l->rep, blk->samples) * 100));
	fprintf(out, "%" PRIu32 " insn%s", blk->insns, plural(blk->insns));
	if (rank)
		fprintf(out, " &middot; #%" PRIu32, rank);
	if (shown)
		fputs(" &middot; shown", out);
	if (l->g && drawn != b)
		fprintf(out, " &middot; in the box of 0x%" PRIx32 " (%" PRIu32 " blocks)",
			l->f->blocks[drawn].start, l->g->nodes[drawn].members);
	if (stub)
		fputs(" &middot; a neighbour of the region: its rows are not in this page", out);
	if (h && h->facts)
		h->facts(out, h->ctx, b);
	fputs("</span></tr>\n", out);
}

/* Block b when it is a stub: its header alone. */
static void put_stub(FILE *out, const struct html_listing *l, size_t b, size_t ncols)
{
	if (!l->stubs || !l->stubs[b])
		return;
	block_head(out, l, b, ncols);
	fputs("</tbody>\n", out);
}

void html_listing__meta(FILE *out, const struct report_func *f)
{
	const struct report_code *code = &f->code;

	fprintf(out, "<p class=\"meta\">%s &middot; pid %" PRIu64 " &middot; 0x%" PRIx64 ", %" PRIu64
		" bytes", f->kind, code->pid, code->address, code->size);
	if (code->jit)
		fprintf(out, " &middot; code load %" PRIu64, code->code_index);
	if (code->path) {
		fputs(" &middot; <span class=\"path\">", out);
		html_puts(out, code->path);
		fputs("</span>", out);
	}
	if (strcmp(code->name, f->display_name)) {
		fputs(" &middot; symbol <code>", out);
		html_puts(out, code->name);
		fputs("</code>", out);
	}
	if (f->wasm.matched && f->wasm.module >= 0)
		fprintf(out, " &middot; wasm module %d function %d", f->wasm.module, f->wasm.index);
	if (f->wasm.stale)
		fputs(" &middot; <b>stale</b>: the .cwasm's code differs from what ran", out);
	if (f->unaligned || f->outside)
		fprintf(out, " &middot; %" PRIu64 " sample%s inside instructions, %" PRIu64 " past the code",
			f->unaligned, plural(f->unaligned), f->outside);
	fputs("</p>\n", out);
}

/* The table's opening and its head; *ncols (may be NULL) its columns. */
static int listing_head(FILE *out, const bool *cols, size_t *ncols)
{
	size_t n = 4;

	fputs("<table class=\"listing\">\n<thead><tr><th></th><th>Samples</th><th>Offset</th>"
	      "<th>Assembly</th>", out);
	for (int c = 0; c < REPORT_COL__NR; c++)
		if (cols[c]) {
			fprintf(out, "<th class=\"%s\">%s</th>", col_class[c], col_head[c]);
			n++;
		}
	fputs("</tr></thead>\n", out);
	if (ncols)
		*ncols = n;
	return ferror(out) ? -1 : 0;
}

int html_listing__write(FILE *out, const struct html_listing *l)
{
	const struct report_func *f = l->f;
	const bool *cols = f->show;
	size_t ncols = 4, next = 0;
	int32_t cur = -2;

	listing_head(out, cols, &ncols);
	for (size_t i = 0; i < f->rows_nr; i++) {
		const struct report_row *row = &f->rows[i];

		if (row->block != cur) {
			if (cur != -2)
				fputs("</tbody>\n", out);
			cur = row->block;
			/* the stubs before it (all that are left before the trail) */
			for (; next < (cur >= 0 ? (size_t)cur : f->blocks_nr); next++)
				put_stub(out, l, next, ncols);
			next = cur >= 0 ? (size_t)cur + 1 : next;
			if (cur >= 0 && (size_t)cur < f->blocks_nr)
				block_head(out, l, (size_t)cur, ncols);
			else
				fprintf(out, "<tbody class=trail>\n<tr class=bh><th colspan=%zu>"
					"data after the code</tr>\n", ncols);
		}
		put_row(out, l, row, cols, ncols);
	}
	if (cur != -2)
		fputs("</tbody>\n", out);
	for (; next < f->blocks_nr; next++)
		put_stub(out, l, next, ncols);
	fputs("</table>\n", out);
	return ferror(out) ? -EIO : 0;
}

/* A row's bar and share, as put_row writes them. */
static void row_heat(const struct html_listing *l, const struct report_row *row, char pct[64],
		     unsigned *width, uint32_t *colour)
{
	double share = report_graph__share(l->rep, row->samples);
	double t = l->bar_max ? (double)row->samples / (double)l->bar_max : 0;
	char w[32];

	fmt_share(pct, 64, row->samples, share * 100);
	*colour = l->plain_bars ? HTML_BAR_PLAIN : heat_scale__colour(l->heat, share).fill;
	/* html_page__bar's width */
	if (!(t > 0)) {
		*width = 0;
		return;
	}
	snprintf(w, sizeof(w), "%.0f", t > 1 ? 100.0 : t < 0.02 ? 2.0 : t * 100);
	*width = (unsigned)strtoul(w, NULL, 10);
}

static void data_cells(struct json_writer *w, const struct report_row *row, const bool *cols)
{
	json_writer__array(w, NULL, JSON_INLINE);
	for (int c = 0; c < REPORT_COL__NR; c++) {
		const struct report_cell *cell = &row->cells[c];

		if (!cols[c])
			continue;
		if (!cell->text)
			json_writer__null(w, NULL);
		else if (cell->ditto)
			json_writer__u64(w, NULL, 0);
		else
			json_writer__str(w, NULL, cell->text);
	}
	json_writer__end(w);
}

static void data_row(struct json_writer *w, const struct html_listing *l,
		     const struct report_row *row, const bool *cols)
{
	const struct report_func *f = l->f;
	unsigned what = 0, width = 0;
	bool cells = false;
	uint32_t colour = 0;
	char pct[64];

	for (int c = 0; c < REPORT_COL__NR; c++)
		cells |= cols[c];
	what |= row->flags & INSN_DATA ? 1 : 0;
	what |= row->target_block >= 0 && (size_t)row->target_block < f->blocks_nr ? 2 : 0;
	what |= row->samples ? 4 : 0;
	what |= cells ? 8 : 0;
	what |= row->line_text ? 16 : 0;
	json_writer__array(w, NULL, JSON_INLINE);
	json_writer__u64(w, NULL, row->size);
	json_writer__str(w, NULL, row->text);
	if (what)
		json_writer__u64(w, NULL, what);
	if (what & 2)
		json_writer__u64(w, NULL, f->blocks[row->target_block].start);
	if (what & 4) {
		row_heat(l, row, pct, &width, &colour);
		json_writer__u64(w, NULL, row->samples);
		json_writer__str(w, NULL, pct);
		json_writer__u64(w, NULL, width);
		json_writer__u64(w, NULL, colour);
	}
	if (what & 8)
		data_cells(w, row, cols);
	if (what & 16) {
		const char *base = strrchr(row->source_file, '/');

		json_writer__array(w, NULL, JSON_INLINE);
		json_writer__str(w, NULL, base ? base + 1 : row->source_file);
		json_writer__u64(w, NULL, row->source_line);
		/* the line up to a NUL in it, if any */
		json_writer__strn(w, NULL, row->line_text, strnlen(row->line_text, row->line_len));
		json_writer__end(w);
	}
	json_writer__end(w);
}

/* Block b, and its rows from *i on (those in it), *i past them. */
static void data_block(struct json_writer *w, const struct html_listing *l, int32_t b, size_t *i)
{
	const struct report_func *f = l->f;
	const struct report_block *blk = &f->blocks[b];
	uint32_t drawn = l->g ? graph__shown(l->g, (uint32_t)b) : (uint32_t)b;
	char pct[64];

	json_writer__break(w);
	json_writer__array(w, NULL, JSON_INLINE);
	json_writer__u64(w, NULL, blk->start);
	json_writer__u64(w, NULL, blk->end);
	json_writer__u64(w, NULL, blk->samples);
	json_writer__str(w, NULL, blk->samples ? fmt_share(pct, sizeof(pct), blk->samples,
			 report_graph__share(l->rep, blk->samples) * 100) : "");
	json_writer__u64(w, NULL, blk->rank);
	json_writer__u64(w, NULL, blk->shown);
	if (l->g) {
		json_writer__u64(w, NULL, f->blocks[drawn].start);
		json_writer__u64(w, NULL, drawn != (uint32_t)b ? l->g->nodes[drawn].members : 0);
	} else {
		json_writer__i64(w, NULL, -1);
		json_writer__u64(w, NULL, 0);
	}
	json_writer__array(w, NULL, JSON_INLINE);
	for (; *i < f->rows_nr && f->rows[*i].block == b; ++*i)
		data_row(w, l, &f->rows[*i], f->show);
	json_writer__end(w);
	json_writer__end(w);
}

int html_listing__data(FILE *out, const struct html_listing *l)
{
	const struct report_func *f = l->f;
	struct json_writer w;
	size_t ncols = 4, i = 0;

	json_writer__init(&w, out, JSON_SCRIPT);
	json_writer__object(&w, NULL, JSON_INLINE);
	json_writer__str(&w, "p", l->prefix);
	json_writer__array(&w, "c", JSON_INLINE);
	for (int c = 0; c < REPORT_COL__NR; c++)
		if (f->show[c]) {
			json_writer__str(&w, NULL, col_class[c]);
			ncols++;
		}
	json_writer__end(&w);
	json_writer__u64(&w, "n", ncols);
	json_writer__array(&w, "b", JSON_INLINE);
	while (i < f->rows_nr && f->rows[i].block >= 0 && (size_t)f->rows[i].block < f->blocks_nr)
		data_block(&w, l, f->rows[i].block, &i);
	json_writer__end(&w);
	/* the rows after the code */
	json_writer__break(&w);
	if (i < f->rows_nr) {
		json_writer__array(&w, "t", JSON_INLINE);
		for (; i < f->rows_nr; i++)
			data_row(&w, l, &f->rows[i], f->show);
		json_writer__end(&w);
	} else {
		json_writer__null(&w, "t");
	}
	json_writer__break(&w);
	if (!l->g || graph__write_json(l->g, &w, "g"))
		json_writer__null(&w, "g");
	json_writer__end(&w);
	return json_writer__finish(&w);
}

/* A function without code bytes (a perf map's): why it has no instructions,
 * then its samples by offset, each at the name perf gives it (NAME+0xOFF). */
static int no_code(FILE *out, const struct html_listing *l)
{
	const struct report_func *f = l->f;
	char pct[64];

	fputs("<p class=\"nocode\">", out);
	html_puts(out, f->no_code);
	fputs(".</p>\n<table class=\"listing\">\n<thead><tr><th></th><th>Samples</th><th>Count</th>"
	      "<th>Offset</th></tr></thead>\n<tbody>\n", out);
	for (size_t i = 0; i < f->offsets_nr; i++) {
		const struct report_point *o = &f->offsets[i];
		double share = report_graph__share(l->rep, o->samples);

		fprintf(out, "<tr data-samples=%" PRIu64 ">", o->samples);
		html_page__bar(out, l->bar_max ? (double)o->samples / (double)l->bar_max : 0,
			       l->plain_bars ? HTML_BAR_PLAIN : heat_scale__colour(l->heat, share).fill);
		fprintf(out, "<td>%s%%<td>%" PRIu64 "<td>", fmt_share(pct, sizeof(pct), o->samples,
								      share * 100), o->samples);
		html_puts(out, o->name);
		fprintf(out, "+0x%" PRIx64 "</tr>\n", o->name_off);
	}
	fputs("</tbody></table>\n", out);
	return ferror(out) ? -EIO : 0;
}

int html_listing__function(FILE *out, struct html_listing *l, const struct report_graph_paint *paint)
{
	const struct report_func *f = l->f;
	struct report_graph_fit fit;
	struct graph g;
	bool drawn;
	int ret;

	html_listing__meta(out, f);
	if (f->offsets)
		return no_code(out, l);
	if (!f->disassembled) {
		fputs("<p class=\"nocode\">Not disassembled: ", out);
		html_puts(out, f->error ? f->error : "no code");
		fputs(".</p>\n", out);
		return ferror(out) ? -EIO : 0;
	}
	fprintf(out, "<div class=\"panes%s\">\n", f->rows_nr > HTML_LISTING_TALL ? " tall" : "");
	/* folded after painting: what the paint leaves warm stays drawn */
	ret = report_graph__build_painted(&g, l->rep, f, l->prefix, NULL, l->heat, 0, paint);
	if (!ret)
		ret = report_graph__fit(&g, f->blocks_nr, &fit);
	if (!ret)
		ret = html_page__graph(out, &g, &fit, !l->data, &drawn);
	if (!ret) {
		l->g = drawn ? &g : NULL;
		fputs("<div class=\"listing-pane\">", out);
		if (l->data)
			ret = listing_head(out, f->show, NULL) < 0 ? -EIO : 0;
		else
			ret = html_listing__write(out, l);
		fputs(l->data ? "</table>\n</div>\n</div>\n" : "</div>\n</div>\n", out);
		if (!ret && l->data) {
			fprintf(out, "<script type=\"application/json\" class=\"fdata\" id=\"%s-data\">",
				l->prefix);
			ret = html_listing__data(out, l);
			fputs("</script>\n", out);
		}
		l->g = NULL;
	}
	graph__release(&g);
	return ret;
}

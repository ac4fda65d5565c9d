/* SPDX-License-Identifier: MIT */
/*
 * `hotblocks diff --html`: the comparison as one self-contained page
 * (html-page.h), built from the report page's pieces. The header facts of
 * both sides, the table of functions and the ranked table of block pairs
 * the text output prints, then each function that holds a shown pair: its
 * control-flow graph of each side (report-graph.h) painted by the change of
 * the pair each block is in (change-scale.h: red more share in NEW,
 * green less, white no change, grey no samples on either side; a block one
 * side lacks has a dashed outline), beside that side's listing
 * (html-listing.h), NEW's first. The listings' bars are one plain colour:
 * a heat-coloured (red) bar beside boxes whose red means "more in NEW"
 * would read as a change.
 *
 * The numbers are the comparison's, as JSON gives them: each pair's row
 * carries them in data- attributes in JSON's own format, and the cells print
 * them as the text output does. A block's listing names its partner on the
 * other side (data-pair), so selecting one marks both.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "render/graph/change-scale.h"
#include "lib/util.h"
#include "diff/diff.h"
#include "render/html/html-listing.h"
#include "render/html/html-page.h"
#include "lib/html.h"
#include "render.h"
#include "stream/stream.h"
#include "render/graph/report-graph.h"

static const char *const side_name[DIFF__SIDES] = { "BASE", "NEW" };
static const char side_letter[DIFF__SIDES] = { 'b', 'n' };

/* What a drawn side of a function needs to paint and annotate its blocks. */
struct side_view {
	const struct diff *d;
	const struct diff_func *f;
	int s;
	const struct report_func *rf;
	int32_t *pair_of;		/* [rf->blocks_nr]: index in d->pairs, or -1 */
	const struct heat_scale *change;
	char prefix[32];		/* this side's ids (report-graph.h) */
};

/* A delta coloured by its change when beyond noise (mark), in element tag
 * (a table cell, or a span in a heading): class "up" (red), "down" (green),
 * "ns" (a change within noise: neutral, dim), or none; "*" after it when
 * beyond noise, as the text output marks it. */
static void put_delta(FILE *out, const char *tag, const struct diff *d, const struct heat_scale *cs,
		      int sign, int mark, double change, double delta, double delta_per_run)
{
	struct heat_colour c = change_scale__colour(cs, mark, change);
	char text[80];

	fprintf(out, "<%s class=\"n delta%s\" style=\"background:#%06x;color:#%06x\">%s%s</%s>", tag,
		mark > 0 ? " up" : mark < 0 ? " down" : sign ? " ns" : "", (unsigned)c.fill,
		(unsigned)(mark || !sign ? c.ink : CHANGE_WITHIN_NOISE_INK),
		render_diff_text__delta(text, sizeof(text), d, sign, delta, delta_per_run),
		mark ? "*" : "", tag);
}

/* The test of a change, for a tooltip: "95% [+13.74, +18.06], p 9.8e-44: beyond noise". */
static const char *test_text(char *buf, size_t len, const struct diff *d, const struct diff_test *t)
{
	char range[80];

	render_diff_text__interval(range, sizeof(range), d, t);
	if (t->tested)
		snprintf(buf, len, "95%% %s, p %.2g: %s", range, t->p,
			 t->significant ? "beyond noise" : "within noise");
	else
		snprintf(buf, len, "95%% %s: too few samples to tell from noise", range);
	return buf;
}

static void put_names(FILE *out, const char *const names[DIFF__SIDES])
{
	const char *b = names[DIFF_BASE], *n = names[DIFF_NEW];

	fputs("<code>", out);
	html_puts(out, b ? b : n);
	fputs("</code>", out);
	if (b && n && strcmp(b, n)) {
		fputs(" &rarr; <code>", out);
		html_puts(out, n);
		fputs("</code>", out);
	}
}

static uint32_t block_start(const struct diff *d, const struct diff_func *f,
			    const struct diff_pair *p, int s)
{
	(void)d;
	(void)f;
	return p->start[s];
}

/* --- the header ------------------------------------------------------------ */

static void put_notes(FILE *out, const struct diff *d)
{
	static const char *const note_class[] = {
		[REPORT_NOTE_INPUT] = "input", [REPORT_NOTE_LOSS] = "loss",
		[REPORT_NOTE_SELECTION] = "selection", [REPORT_NOTE_ANNOTATION] = "annotation",
	};
	size_t n = d->function_unmatched;

	for (int s = 0; s < DIFF__SIDES; s++)
		n += d->side[s].report.notes_nr;
	if (!n)
		return;
	fputs("<ul class=\"notes\">\n", out);
	for (int s = 0; s < DIFF__SIDES; s++)
		for (size_t i = 0; i < d->side[s].report.notes_nr; i++) {
			const struct report_note *note = &d->side[s].report.notes[i];
			unsigned k = note->kind;

			fprintf(out, "<li class=\"%s\">%s: ", k < ARRAY_SIZE(note_class) ?
				note_class[k] : "", side_name[s]);
			html_puts(out, note->text);
			fputs("</li>\n", out);
		}
	if (d->function_unmatched) {
		fputs("<li class=\"selection\">no sampled function of either side matches <code>", out);
		html_puts(out, d->opts.function);
		fputs("</code> (as a name, a glob or a substring)</li>\n", out);
	}
	fputs("</ul>\n", out);
}

/* The noise line: how large it is, where it comes from, what is beyond it. */
static void put_noise(FILE *out, const struct diff *d)
{
	const struct diff_noise *n = &d->noise;
	char spread[256];

	fputs("<p class=\"noise\" id=\"noise\">Noise (95%): ", out);
	if (d->opts.counts)
		fprintf(out, "&plusmn;%.1f samples a run at 100, &plusmn;%.1f at 1000", n->half_width[0],
			n->half_width[1]);
	else
		fprintf(out, "&plusmn;%.2f points at a share of 1%%, &plusmn;%.2f at 10%%", n->half_width[0],
			n->half_width[1]);
	fprintf(out, "; %s. Beyond noise (Benjamini-Hochberg, %.0f%% false discoveries; red and green, "
		"marked *; the rest white): <b>%zu</b> of %zu function pair%s, <b>%zu</b> of %zu block "
		"pair%s", render_diff_text__spread(spread, sizeof(spread), d), n->model.fdr * 100.0,
		n->significant_funcs, n->tests_funcs, plural(n->tests_funcs), n->significant_blocks,
		n->tests_blocks, plural(n->tests_blocks));
	if (isfinite(n->min_delta))
		fprintf(out, "; no change under %.3g %s can be.</p>\n", n->min_delta,
			d->opts.counts ? "samples a run" : "points");
	else
		fputs("; no change can be (a side has no samples).</p>\n", out);
}

static void put_summary(FILE *out, const struct diff *d, const struct heat_scale *cs)
{
	char pct[64];

	fputs("<section id=\"summary\">\n<h1>Hot blocks compared</h1>\n", out);
	for (int s = 0; s < DIFF__SIDES; s++) {
		const struct diff_side *side = &d->side[s];

		fprintf(out, "<p class=\"totals side\" id=\"side-%s\" data-total=\"%" PRIu64 "\" "
			"data-jit=\"%" PRIu64 "\"><b class=\"tag\">%s</b> <span class=\"path\">",
			s == DIFF_BASE ? "base" : "new", d->total[s], d->jit[s], side_name[s]);
		html_puts(out, side->files);
		if (side->report.kinds) {
			const struct report *rep = &side->report;
			char kinds[32];

			/* T is of the kinds kept: of how many it is */
			stream__kinds_text(rep->kinds, kinds, sizeof(kinds));
			fprintf(out, "</span>: <b>%" PRIu64 "</b> total samples; <b class=\"kinds\""
				" data-collected=\"%" PRIu64 "\" data-kinds=\"%s\">%" PRIu64 "</b> (%s%%) in"
				" %s code (<code>--kind %s</code>)", rep->collected, rep->collected, kinds,
				d->total[s], fmt_pct(pct, sizeof(pct), rep->collected ? (double)d->total[s] /
				(double)rep->collected * 100.0 : 0.0), kinds, kinds);
		} else {
			fprintf(out, "</span>: <b>%" PRIu64 "</b> total samples; <b>%" PRIu64 "</b> (%s%%) JIT"
				" samples", d->total[s], d->jit[s], fmt_pct(pct, sizeof(pct), d->total[s] ?
				(double)d->jit[s] / (double)d->total[s] * 100.0 : 0.0));
		}
		if (side->report.runs_nr > 1)
			fprintf(out, " in %zu runs", side->report.runs_nr);
		fputs(".</p>\n", out);
	}
	fputs("<p class=\"selection\">", out);
	if (d->event) {
		fputs("Samples of <code>", out);
		html_puts(out, d->event);
		fputs("</code>; ", out);
	}
	fputs(d->opts.counts ? "samples of each side" : d->side[DIFF_BASE].report.kinds ?
	      "shares of each side's samples in that code" : "shares of each side's total samples", out);
	fprintf(out, "; delta = NEW &minus; BASE. Shown: <b>%zu</b> block pair%s", d->shown_nr,
		plural(d->shown_nr));
	if (d->opts.all)
		fputs(" (every pair with samples)", out);
	else if (d->by_noise)
		fputs(" beyond noise, in the functions that changed beyond noise", out);
	else
		fprintf(out, " changed by at least %g %s", d->min_delta,
			d->opts.counts ? "samples" : "points");
	if (d->opts.top != SIZE_MAX && !d->opts.all)
		fprintf(out, ", at most %zu", d->opts.top);
	fprintf(out, "; %zu function%s compared block by block. Blocks paired by key: code %zu, "
		"wasm %zu, source %zu, asm %zu.</p>\n", d->compared_nr, plural(d->compared_nr),
		d->keys[DIFF_KEY_CODE], d->keys[DIFF_KEY_WASM], d->keys[DIFF_KEY_SOURCE],
		d->keys[DIFF_KEY_ASM]);
	put_noise(out, d);
	put_notes(out, d);
	html_page__change_legend(out, cs, d->opts.counts ?
				 "change beyond noise, % of the larger side's samples" :
				 "change beyond noise, percentage points");
	html_page__plain_bar_key(out, "bar: an instruction's samples on its side, full width at "
				 "that side's hottest instruction on the page; one colour, as colour "
				 "here means change");
	html_page__edge_keys(out);
	fputs("<span class=\"ek\"><span class=\"box em\"></span> shown pair</span>"
	      "<span class=\"ek\"><span class=\"box mark\"></span> on one side only</span>"
	      "<span class=\"ek\"><span class=\"box fold\"></span> folded cold blocks</span></div>\n"
	      "</section>\n", out);
}

/* --- the tables ------------------------------------------------------------ */

static void put_func_table(FILE *out, const struct diff *d, const struct heat_scale *cs)
{
	char a[64], b[64], m[32], t[192];

	fprintf(out, "<section id=\"functions\">\n<h2>Functions <small>%zu of %zu, most changed "
		"first</small></h2>\n<table id=\"ftable\"><thead><tr><th class=\"n\">#</th>"
		"<th class=\"n\">BASE</th><th class=\"n\">NEW</th><th class=\"n\">delta</th>"
		"<th>match</th><th>function</th></tr></thead><tbody>\n", d->funcs_shown_nr, d->funcs_nr);
	for (size_t i = 0; i < d->funcs_shown_nr; i++) {
		const struct diff_func *f = &d->funcs[i];

		fprintf(out, "<tr data-func=\"d%zu\" data-match=\"%s\" data-significant=\"%s\" "
			"title=\"%s\"><td class=\"n\">%zu</td><td class=\"n\">%s</td><td class=\"n\">%s"
			"</td>", i, render_diff_text__func_match(m, sizeof(m), f),
			f->test.significant ? "true" : "false", test_text(t, sizeof(t), d, &f->test), i + 1,
			render_diff_text__side(a, sizeof(a), d, DIFF_BASE, f->obj[DIFF_BASE] != UINT32_MAX,
					       f->share[DIFF_BASE], f->samples[DIFF_BASE]),
			render_diff_text__side(b, sizeof(b), d, DIFF_NEW, f->obj[DIFF_NEW] != UINT32_MAX,
					       f->share[DIFF_NEW], f->samples[DIFF_NEW]));
		put_delta(out, "td", d, cs, f->sign, f->mark, f->change, f->delta, f->delta_per_run);
		fprintf(out, "<td>%s</td><td>", m);
		if (f->drawn)
			fprintf(out, "<a href=\"#d%zu\">", i);
		put_names(out, f->name);
		fputs(f->drawn ? "</a></td></tr>\n" : "</td></tr>\n", out);
	}
	fputs("</tbody></table>\n</section>\n", out);
}

/* The listing id of a pair's block on side s ("" when it has none there). */
static const char *pair_block_id(char buf[REPORT_ID_MAX], const struct diff *d,
				 const struct diff_pair *p, int s)
{
	char prefix[32];

	if (p->b[s] < 0)
		return strcpy(buf, "");
	snprintf(prefix, sizeof(prefix), "d%" PRIu32 "%c", p->func, side_letter[s]);
	return report_graph__id(buf, prefix, 'l', block_start(d, &d->funcs[p->func], p, s));
}

static void put_pair_side_attrs(FILE *out, const struct diff *d, const struct diff_pair *p, int s)
{
	const char *w = s == DIFF_BASE ? "base" : "new";

	if (p->b[s] < 0)
		return;
	fprintf(out, " data-%s-start=\"%" PRIu32 "\" data-%s-samples=\"%" PRIu64 "\" data-%s-share"
		"=\"%.4f\"", w, block_start(d, &d->funcs[p->func], p, s), w, p->samples[s], w,
		p->share[s]);
}

static void put_pair_table(FILE *out, const struct diff *d, const struct heat_scale *cs)
{
	char a[64], b[64], m[64], t[192], id[REPORT_ID_MAX];

	fprintf(out, "<section id=\"pairs\">\n<h2>Block pairs <small>%zu of %zu, most changed first"
		"</small></h2>\n<table id=\"ptable\"><thead><tr><th class=\"n\">#</th>"
		"<th class=\"n\">BASE</th><th class=\"n\">NEW</th><th class=\"n\">delta</th>"
		"<th>match</th><th>function :: block</th></tr></thead><tbody>\n", d->shown_nr,
		d->pairs_nr);
	for (size_t i = 0; i < d->shown_nr; i++) {
		const struct diff_pair *p = &d->pairs[d->ranked[i]];
		const struct diff_func *f = &d->funcs[p->func];
		bool has[DIFF__SIDES] = { p->b[DIFF_BASE] >= 0, p->b[DIFF_NEW] >= 0 };
		int go = has[DIFF_NEW] ? DIFF_NEW : DIFF_BASE;

		fprintf(out, "<tr class=\"pair%s\" data-rank=\"%" PRIu32 "\" data-func=\"d%" PRIu32
			"\" data-goto=\"%s\" data-key=\"%s\" data-delta=\"%.4f\" data-delta-samples=\"%"
			PRId64 "\" data-significant=\"%s\" title=\"%s\"", has[DIFF_BASE] && has[DIFF_NEW] ?
			"" : " only", p->rank, p->func, pair_block_id(id, d, p, go),
			diff__key_name(p->key) ? diff__key_name(p->key) : "", p->delta, p->delta_samples,
			p->test.significant ? "true" : "false", test_text(t, sizeof(t), d, &p->test));
		put_pair_side_attrs(out, d, p, DIFF_BASE);
		put_pair_side_attrs(out, d, p, DIFF_NEW);
		fprintf(out, "><td class=\"n\">%zu</td><td class=\"n\">%s</td><td class=\"n\">%s</td>",
			i + 1, render_diff_text__side(a, sizeof(a), d, DIFF_BASE, has[DIFF_BASE],
						      p->share[DIFF_BASE], p->samples[DIFF_BASE]),
			render_diff_text__side(b, sizeof(b), d, DIFF_NEW, has[DIFF_NEW], p->share[DIFF_NEW],
					       p->samples[DIFF_NEW]));
		put_delta(out, "td", d, cs, p->sign, p->mark, p->change, p->delta, p->delta_per_run);
		fprintf(out, "<td class=\"match\">%s</td><td>", render_diff_text__pair_match(m, sizeof(m), p));
		put_names(out, f->block_name);
		fprintf(out, " :: <a href=\"#%s\">block", id);
		for (int s = 0; s < DIFF__SIDES; s++)
			if (has[s])
				fprintf(out, "%s0x%" PRIx32, s == DIFF_NEW && has[DIFF_BASE] ? " &rarr; " :
					" ", block_start(d, f, p, s));
		fputs("</a></td></tr>\n", out);
	}
	if (!d->shown_nr && d->by_noise && !d->compared_nr)
		fputs("<tr><td colspan=\"6\" class=\"empty\">no function changed beyond noise: none "
		      "compared block by block (--all compares them)</td></tr>\n", out);
	else if (!d->shown_nr && d->by_noise)
		fputs("<tr><td colspan=\"6\" class=\"empty\">no block changed beyond noise (--all "
		      "shows every pair)</td></tr>\n", out);
	else if (!d->shown_nr)
		fprintf(out, "<tr><td colspan=\"6\" class=\"empty\">no block changed by %g %s or more"
			"</td></tr>\n", d->min_delta, d->opts.counts ? "samples" : "points");
	fputs("</tbody></table>\n</section>\n", out);
}

/* The groups of blocks of the same wasm offsets (diff_group), when any formed. */
static void put_group_table(FILE *out, const struct diff *d, const struct heat_scale *cs)
{
	char a[64], b[64];

	if (!d->groups_nr)
		return;
	fprintf(out, "<section id=\"groups\">\n<h2>Block groups <small>%zu: blocks of the same wasm "
		"offsets, each side's summed (not tested)</small></h2>\n<table id=\"gtable\"><thead><tr>"
		"<th class=\"n\">BASE</th><th class=\"n\">NEW</th><th class=\"n\">delta</th>"
		"<th>function :: blocks</th></tr></thead><tbody>\n", d->groups_nr);
	for (size_t i = 0; i < d->groups_nr; i++) {
		const struct diff_group *g = &d->groups[i];
		const struct diff_func *f = &d->funcs[g->func];
		const struct diff_group_block *gb = &d->group_blocks[g->first_block];

		fprintf(out, "<tr class=\"group\" data-func=\"d%" PRIu32 "\" data-delta=\"%.4f\" "
			"data-samples-base=\"%" PRIu64 "\" data-samples-new=\"%" PRIu64 "\"><td class=\"n\">%s"
			"</td><td class=\"n\">%s</td>", g->func, g->delta, g->samples[DIFF_BASE],
			g->samples[DIFF_NEW],
			render_diff_text__side(a, sizeof(a), d, DIFF_BASE, true, g->share[DIFF_BASE],
					       g->samples[DIFF_BASE]),
			render_diff_text__side(b, sizeof(b), d, DIFF_NEW, true, g->share[DIFF_NEW],
					       g->samples[DIFF_NEW]));
		put_delta(out, "td", d, cs, g->sign, 0, 0.0, g->delta, g->delta_per_run);
		fputs("<td>", out);
		put_names(out, f->block_name);
		fputs(" :: blocks", out);
		for (int s = 0; s < DIFF__SIDES; s++) {
			if (s == DIFF_NEW)
				fputs(" &rarr;", out);
			for (size_t k = 0; k < g->blocks_nr[s]; k++, gb++)
				fprintf(out, " 0x%" PRIx32, gb->start);
		}
		fputs("</td></tr>\n", out);
	}
	fputs("</tbody></table>\n</section>\n", out);
}

/* --- a function: each side's graph and listing -------------------------------- */

static void paint_block(const void *ctx, size_t b, struct graph_node_spec *spec, char *line1,
			char *line2, char *tooltip)
{
	const struct side_view *v = ctx;
	const struct report_block *blk = &v->rf->blocks[b];
	const struct diff *d = v->d;
	const struct diff_pair *p;
	char delta[80], a[64], n[64], m[64], t[192];
	int other = !v->s;

	if (v->pair_of[b] < 0) {
		/* no samples on either side */
		spec->fill = HEAT_NONE_FILL;
		spec->ink = HEAT_NONE_INK;
		spec->cold = true;
		spec->emphasis = false;
		snprintf(line1, REPORT_GRAPH_TEXT, "0x%" PRIx32, blk->start);
		snprintf(line2, REPORT_GRAPH_TEXT, "%" PRIu32 " insn%s", blk->insns, plural(blk->insns));
		snprintf(tooltip, REPORT_GRAPH_TEXT, "block 0x%" PRIx32 "..0x%" PRIx32 ": no samples "
			 "in BASE or NEW, %" PRIu32 " instruction%s", blk->start, blk->end, blk->insns,
			 plural(blk->insns));
		return;
	}
	p = &d->pairs[v->pair_of[b]];
	{
		struct heat_colour c = change_scale__colour(v->change, p->mark, p->change);

		spec->fill = c.fill;
		spec->ink = p->mark || !p->sign ? c.ink : CHANGE_WITHIN_NOISE_INK;
	}
	spec->cold = false;
	spec->emphasis = p->shown;
	spec->marked = p->b[other] < 0;
	render_diff_text__delta(delta, sizeof(delta), d, p->sign, p->delta, p->delta_per_run);
	snprintf(line1, REPORT_GRAPH_TEXT, "0x%" PRIx32 "  %s%s", blk->start, delta, p->mark ? "*" : "");
	if (spec->marked)
		snprintf(line2, REPORT_GRAPH_TEXT, "%s only", side_name[v->s]);
	else if (p->shown)
		snprintf(line2, REPORT_GRAPH_TEXT, "%" PRIu32 " insn%s  #%" PRIu32, blk->insns,
			 plural(blk->insns), p->rank);
	else
		snprintf(line2, REPORT_GRAPH_TEXT, "%" PRIu32 " insn%s", blk->insns, plural(blk->insns));
	snprintf(tooltip, REPORT_GRAPH_TEXT, "block 0x%" PRIx32 "..0x%" PRIx32 ": BASE %s, NEW %s, "
		 "delta %s (%s); %s%s", blk->start, blk->end,
		 render_diff_text__side(a, sizeof(a), d, DIFF_BASE, p->b[DIFF_BASE] >= 0,
					p->share[DIFF_BASE], p->samples[DIFF_BASE]),
		 render_diff_text__side(n, sizeof(n), d, DIFF_NEW, p->b[DIFF_NEW] >= 0,
					p->share[DIFF_NEW], p->samples[DIFF_NEW]), delta,
		 test_text(t, sizeof(t), d, &p->test), render_diff_text__pair_match(m, sizeof(m), p),
		 p->shown ? ", shown" : "");
}

/* A pair's rank leads n / p to it once: on its NEW block, or its BASE one
 * when NEW has none. */
static void listing_block(const void *ctx, size_t b, uint32_t *rank, bool *shown)
{
	const struct side_view *v = ctx;
	const struct diff_pair *p = v->pair_of[b] >= 0 ? &v->d->pairs[v->pair_of[b]] : NULL;

	*shown = p && p->shown;
	*rank = p && p->shown && (v->s == DIFF_NEW || p->b[DIFF_NEW] < 0) ? p->rank : 0;
}

static void listing_attrs(FILE *out, const void *ctx, size_t b)
{
	const struct side_view *v = ctx;
	const struct diff_pair *p;
	char id[REPORT_ID_MAX];

	if (v->pair_of[b] < 0)
		return;
	p = &v->d->pairs[v->pair_of[b]];
	fprintf(out, " data-delta=%.4f data-pair-rank=%" PRIu32, p->delta, p->rank);
	if (p->b[!v->s] >= 0)
		fprintf(out, " data-pair=%s", pair_block_id(id, v->d, p, !v->s));
	else
		fprintf(out, " data-only=%s", side_name[v->s]);
}

static void listing_facts(FILE *out, const void *ctx, size_t b)
{
	const struct side_view *v = ctx;
	const struct diff *d = v->d;
	const struct diff_pair *p;
	char a[64], n[64], delta[80], m[64], t[192], id[REPORT_ID_MAX];
	int other = !v->s;

	if (v->pair_of[b] < 0)
		return;
	p = &d->pairs[v->pair_of[b]];
	fprintf(out, " &middot; <span class=\"chg%s\" title=\"%s\">BASE %s &rarr; NEW %s (%s%s)</span> "
		"&middot; ", p->mark > 0 ? " up" : p->mark < 0 ? " down" : p->sign ? " ns" : "",
		test_text(t, sizeof(t), d, &p->test),
		render_diff_text__side(a, sizeof(a), d, DIFF_BASE, p->b[DIFF_BASE] >= 0,
				       p->share[DIFF_BASE], p->samples[DIFF_BASE]),
		render_diff_text__side(n, sizeof(n), d, DIFF_NEW, p->b[DIFF_NEW] >= 0,
				       p->share[DIFF_NEW], p->samples[DIFF_NEW]),
		render_diff_text__delta(delta, sizeof(delta), d, p->sign, p->delta, p->delta_per_run),
		p->mark ? "*" : "");
	if (p->b[other] >= 0)
		fprintf(out, "%s with <a href=\"#%s\">%s 0x%" PRIx32 "</a>",
			render_diff_text__pair_match(m, sizeof(m), p), pair_block_id(id, d, p, other),
			side_name[other], block_start(d, v->f, p, other));
	else
		fprintf(out, "<b class=\"only\">%s only</b>", side_name[v->s]);
}

static int put_side(FILE *out, struct side_view *v, const struct heat_scale *heat,
		    uint64_t bar_max)
{
	const struct diff *d = v->d;
	const struct diff_side *side = &d->side[v->s];
	const struct report_graph_paint paint = { paint_block, v };
	const struct html_listing_hooks hooks = { listing_block, listing_attrs, listing_facts, v };
	struct html_listing l = { &side->report, v->rf, v->prefix, heat, bar_max, NULL, &hooks, true,
				  false, NULL };
	char pct[64];
	int ret;

	fprintf(out, "<div class=\"side %s\" id=\"%s\">\n<h3><b class=\"tag\">%s</b> <code>",
		v->s == DIFF_BASE ? "base" : "new", v->prefix, side_name[v->s]);
	html_puts(out, v->f->block_name[v->s]);
	fprintf(out, "</code> <span class=\"pct\">%s%%</span> <small>%" PRIu64 " sample%s",
		fmt_share(pct, sizeof(pct), v->f->samples[v->s], v->f->share[v->s]), v->f->samples[v->s],
		plural(v->f->samples[v->s]));
	/* a V8 wasm function's tiers together: the split, whose blocks these are first */
	for (size_t t = 0; t < v->f->tiers_nr[v->s]; t++) {
		const struct diff_tier *dt = &d->tiers[v->f->first_tier[v->s] + t];

		fprintf(out, "%s%s %" PRIu64, t ? ", " : " of its tiers: ", dt->tier, dt->samples);
	}
	fputs("</small></h3>\n", out);
	ret = html_listing__function(out, &l, &paint);
	fputs("</div>\n", out);
	return ret;
}

static int put_func(FILE *out, const struct diff *d, size_t i, const struct heat_scale *cs,
		    const struct heat_scale heat[DIFF__SIDES], const uint64_t bar_max[DIFF__SIDES])
{
	const struct diff_func *f = &d->funcs[i];
	char m[32];
	int ret = 0;

	fprintf(out, "<section class=\"func diff\" id=\"d%zu\" data-name=\"", i);
	html_puts(out, f->name[DIFF_NEW] ? f->name[DIFF_NEW] : f->name[DIFF_BASE]);
	fprintf(out, "\">\n<h2><span class=\"rank\">%zu</span> <a class=\"self\" href=\"#d%zu\">",
		i + 1, i);
	put_names(out, f->name);
	fputs("</a> ", out);
	put_delta(out, "span", d, cs, f->sign, f->mark, f->change, f->delta, f->delta_per_run);
	fprintf(out, " <small>%s</small></h2>\n", render_diff_text__func_match(m, sizeof(m), f));
	/* NEW first: what the change made */
	for (int k = 0; k < DIFF__SIDES && !ret; k++) {
		int s = k ? DIFF_BASE : DIFF_NEW;
		struct side_view v = { d, f, s, NULL, NULL, cs, "" };

		if (f->f[s] < 0)
			continue;
		v.rf = &d->side[s].report.funcs[f->f[s]];
		if ((ret = report__func_open(&d->side[s].report, (size_t)f->f[s])))
			return ret;
		snprintf(v.prefix, sizeof(v.prefix), "d%zu%c", i, side_letter[s]);
		v.pair_of = malloc((v.rf->blocks_nr ? v.rf->blocks_nr : 1) * sizeof(*v.pair_of));
		if (!v.pair_of)
			return -ENOMEM;
		for (size_t b = 0; b < v.rf->blocks_nr; b++)
			v.pair_of[b] = -1;
		for (size_t j = 0; j < f->pairs_nr; j++) {
			const struct diff_pair *p = &d->pairs[f->first_pair + j];

			if (p->b[s] >= 0 && (size_t)p->b[s] < v.rf->blocks_nr)
				v.pair_of[p->b[s]] = (int32_t)(f->first_pair + j);
		}
		ret = put_side(out, &v, &heat[s], bar_max[s]);
		free(v.pair_of);
		report__func_close(&d->side[s].report, (size_t)f->f[s]);
	}
	fputs("</section>\n", out);
	return ret;
}

int render_diff_html(FILE *out, const struct diff *d, const struct render_opts *o)
{
	struct heat_scale cs, heat[DIFF__SIDES];
	char title[192], base[80], new_[80];
	int ret = 0;

	/* One change scale for the page; each side's listing keeps the heat
	 * of its own report. */
	heat_scale__init(&cs, d->change_max);
	for (int s = 0; s < DIFF__SIDES; s++)
		report_graph__heat(&heat[s], &d->side[s].report);
	snprintf(title, sizeof(title), "hotblocks diff: %s vs %s",
		 html_page__short(base, sizeof(base), d->side[DIFF_BASE].files, 70),
		 html_page__short(new_, sizeof(new_), d->side[DIFF_NEW].files, 70));
	html_page__begin(out, title);
	put_summary(out, d, &cs);
	put_func_table(out, d, &cs);
	put_pair_table(out, d, &cs);
	put_group_table(out, d, &cs);
	for (size_t i = 0; i < d->funcs_nr && !ret; i++)
		if (d->funcs[i].drawn)
			ret = put_func(out, d, i, &cs, heat, d->row_max);
	if (ret)
		return ret;
	(void)o;
	return html_page__end(out);
}

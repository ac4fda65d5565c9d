/* SPDX-License-Identifier: MIT */
/*
 * The HTML report: one self-contained page (html-page.h) with the report's
 * header facts and notes, a table ranking every sampled function, and for
 * each listed function its control-flow graph (report-graph.h, laid out by
 * Graphviz and drawn as SVG) beside its listing (html-listing.h). The
 * numbers are the report's, as JSON gives them: every count is in a data-
 * attribute, every share is count / total as the text table prints it.
 *
 * A page has a size budget (render_opts.page_budget): the listed functions
 * go in, hottest first, while they fit; one that does not is left out of
 * the page, never cut, and its row in the table of functions says so with
 * the command that shows it; the page says how many were left out and why.
 * A function too big for a page of its own goes in by its hottest region
 * (html-region.h) in its share of the page; one whose region would not fit
 * a page of its own either gets the command that shows it with no budget,
 * so no command writes the page it is in again. A table that alone would
 * pass the budget has fewer rows; a budget no page fits is -E2BIG.
 * A page of every function (--all), and a page whose functions would not
 * all fit its budget as markup, carries each listing and graph as data
 * (html_listing__data), built in the browser when the function first comes
 * into view: about three times as much fits, and the page opens as fast as
 * a small one (a browser parses data it does not build yet quickly).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"
#include "lib/util.h"
#include "render/html/html-listing.h"
#include "render/html/html-page.h"
#include "render/html/html-region.h"
#include "lib/html.h"
#include "render.h"
#include "render/graph/report-graph.h"
#include "stream/stream.h"

static const char *pct_of(char buf[64], const struct report *rep, uint64_t n)
{
	return fmt_share(buf, 64, n, report_graph__share(rep, n) * 100);
}

static void put_selection(FILE *out, const struct report *rep)
{
	fputs("<p class=\"selection\">Shown: ", out);
	if (rep->selection.threshold)
		fprintf(out, "the hottest blocks up to %.15g%% of all samples", rep->selection.percent);
	else
		fputs("every sampled block", out);
	if (rep->selection.top != SIZE_MAX)
		fprintf(out, ", at most %zu", rep->selection.top);
	if (rep->selection.function) {
		fputs(", of the functions <code>", out);
		html_puts(out, rep->selection.function);
		fputs("</code> selects", out);
	}
	fprintf(out, ": <b>%zu</b> block%s in %zu function%s.", rep->shown_nr, plural(rep->shown_nr),
		rep->shown_funcs_nr, plural(rep->shown_funcs_nr));
	if (rep->selection.all)
		fprintf(out, " Every sampled function is listed (%zu).", rep->funcs_nr);
	fputs("</p>\n", out);
}

static void class_row(FILE *out, const struct report *rep, const char *key, const char *name,
		      uint64_t n, const char *cls)
{
	char pct[64];

	fprintf(out, "<tr class=\"%s\" data-class=\"%s\" data-samples=\"%" PRIu64 "\"><td>%s</td>"
		"<td class=\"n\">%" PRIu64 "</td><td class=\"n\">%s%%</td></tr>\n", cls, key, n, name,
		n, pct_of(pct, rep, n));
}

/* Where the samples are: the classes, then what is in no block. */
static void put_classes(FILE *out, const struct report *rep)
{
	static const struct {
		const char *key, *name;
		size_t off;
	} lost[] = {
		{ "no_code", "in no block: no code", offsetof(struct report, no_code) },
		{ "not_disassembled", "in no block: not disassembled",
		  offsetof(struct report, not_disassembled) },
		{ "unaligned", "in no block: inside an instruction", offsetof(struct report, unaligned) },
		{ "outside_code", "in no block: past the code", offsetof(struct report, outside_code) },
	};
	char name[96];

	fputs("<table class=\"classes\" id=\"classes\"><thead><tr><th>samples in</th>"
	      "<th class=\"n\">samples</th><th class=\"n\">share</th></tr></thead><tbody>\n", out);
	for (size_t i = 0; i < rep->classes_nr; i++) {
		const struct report_class *c = &rep->classes[i];
		char key[96];

		if (!c->samples)
			continue;
		snprintf(key, sizeof(key), "%s%s", c->unattributed ? "unattributed." : "", c->name);
		snprintf(name, sizeof(name), "%s%s", c->unattributed ? "unattributed: " : "", c->name);
		class_row(out, rep, key, name, c->samples, c->unattributed ? "lost" : "");
	}
	for (size_t i = 0; i < ARRAY_SIZE(lost); i++) {
		uint64_t n = *(const uint64_t *)((const char *)rep + lost[i].off);

		if (n)
			class_row(out, rep, lost[i].key, lost[i].name, n, "lost");
	}
	fputs("</tbody></table>\n", out);
}

/* The page as it is decided: which listed functions are in it. */
struct page {
	const struct report *rep;
	const struct render_opts *o;
	struct heat_scale heat;
	bool data;			/* listings and graphs as data (--all) */
	/* [funcs_nr]: IN, and BIG_* shifted by BIG_AT (one array, as before
	 * regions: the heap Graphviz lays out from stays as it was) */
	unsigned char *in_page;
	size_t regions;
	/* the table's rows: the first, whatever they are, and the most of the
	 * functions left out (fewer when the table alone would pass the budget) */
	size_t table_head, table_left_out;
	size_t *rank;			/* [funcs_nr]: 1-based place among every sampled function */
	size_t in_page_nr;
	size_t left_out;		/* listed functions not in the page */
	uint64_t left_out_samples;
};

/* A function's state in the page: IN it, and how it is big: BIG_REGION, too
 * big for a page of its own, in by its hottest region (html-region.h);
 * BIG_OUT, that region did not fit in what was left, but would alone;
 * BIG_HUGE, not even alone. */
enum { IN = 1, BIG_AT = 1, BIG_REGION = 1, BIG_OUT, BIG_HUGE };
#define IN_PAGE(pg, i) ((pg)->in_page[i] & IN)
#define BIG(pg, i) ((pg)->in_page[i] >> BIG_AT)
#define SET_IN(pg, i, yes) ((pg)->in_page[i] = (unsigned char)(((pg)->in_page[i] & ~IN) | ((yes) ? IN : 0)))
#define SET_BIG(pg, i, b) ((pg)->in_page[i] = (unsigned char)(((pg)->in_page[i] & IN) | (b) << BIG_AT))

/* What the budget left out, and why (nothing when it left out nothing). */
static void put_budget(FILE *out, const struct page *pg)
{
	const struct report *rep = pg->rep;
	char size[32], pct[64];

	if (pg->regions)
		fprintf(out, "<p class=\"budget\" id=\"regions\" data-regions=\"%zu\">%zu function%s"
			" of this page %s more than its budget alone: %s its hottest region, the"
			" rest of %s sampled blocks listed after it.</p>\n", pg->regions, pg->regions,
			plural(pg->regions), pg->regions > 1 ? "are" : "is",
			pg->regions > 1 ? "each is shown by" : "it is shown by",
			pg->regions > 1 ? "their" : "its");
	if (!pg->left_out)
		return;
	if (pg->o->page_budget % (1 << 20) == 0)
		snprintf(size, sizeof(size), "%zu MiB", pg->o->page_budget >> 20);
	else if (pg->o->page_budget % (1 << 10) == 0)
		snprintf(size, sizeof(size), "%zu KiB", pg->o->page_budget >> 10);
	else
		snprintf(size, sizeof(size), "%zu bytes", pg->o->page_budget);
	fprintf(out, "<p class=\"budget\" id=\"budget\" data-left-out=\"%zu\">This page holds <b>%zu</b> of"
		" the %zu functions it lists: the other <b>%zu</b> (%s%% of all samples) would take it"
		" past its budget of %s (<code>--page-budget</code> changes it; 0: no limit). Each is"
		" in the table of functions below with the command that shows it.</p>\n",
		pg->left_out, pg->in_page_nr, rep->funcs_nr, pg->left_out,
		pct_of(pct, rep, pg->left_out_samples), size);
}

static void put_summary(FILE *out, const struct page *pg)
{
	const struct report *rep = pg->rep;
	static const char *const note_class[] = {
		[REPORT_NOTE_INPUT] = "input", [REPORT_NOTE_LOSS] = "loss",
		[REPORT_NOTE_SELECTION] = "selection", [REPORT_NOTE_ANNOTATION] = "annotation",
	};
	char pct[64];

	fputs("<section id=\"summary\">\n<h1>Hot blocks</h1>\n", out);
	fprintf(out, "<p class=\"totals\" id=\"totals\" data-total=\"%" PRIu64 "\" data-jit=\"%" PRIu64
		"\">Collected <b>%" PRIu64 "</b> total samples", rep->total, rep->jit, rep->collected);
	if (rep->event) {
		fputs(" of <code>", out);
		html_puts(out, rep->event);
		fputs("</code>", out);
	}
	if (rep->kinds) {
		char kinds[32];
		double of = rep->collected ? (double)rep->total / (double)rep->collected * 100.0 : 0.0;

		/* T is of the kinds kept: the share of the collected is not of T */
		stream__kinds_text(rep->kinds, kinds, sizeof(kinds));
		fprintf(out, "; <b class=\"kinds\" data-collected=\"%" PRIu64 "\" data-kinds=\"%s\">%"
			PRIu64 "</b> (%s%%) in %s code (<code>--kind %s</code>): every share is of these.",
			rep->collected, kinds, rep->total, fmt_pct(pct, sizeof(pct), of), kinds, kinds);
	} else {
		fprintf(out, "; <b>%" PRIu64 "</b> (%s%%) JIT samples.", rep->jit, pct_of(pct, rep, rep->jit));
	}
	if (rep->events_nr > 1) {
		fputs(" Events recorded:", out);
		for (size_t i = 0; i < rep->events_nr; i++) {
			fputs(i ? ", <code>" : " <code>", out);
			html_puts(out, rep->events[i]);
			fputs("</code>", out);
		}
		fputc('.', out);
	}
	if (rep->skipped_records)
		fprintf(out, " %" PRIu64 " input record%s of unknown kinds skipped.", rep->skipped_records,
			plural(rep->skipped_records));
	fputs("</p>\n", out);
	put_selection(out, rep);
	put_budget(out, pg);
	put_classes(out, rep);
	if (rep->notes_nr) {
		fputs("<ul class=\"notes\">\n", out);
		for (size_t i = 0; i < rep->notes_nr; i++) {
			unsigned k = rep->notes[i].kind;

			fprintf(out, "<li class=\"%s\">", k < ARRAY_SIZE(note_class) ? note_class[k] : "");
			html_puts(out, rep->notes[i].text);
			fputs("</li>\n", out);
		}
		fputs("</ul>\n", out);
	}
	html_page__legend(out, &pg->heat);
	html_page__edge_keys(out);
	fputs("<span class=\"ek\"><span class=\"box em\"></span> shown block</span>"
	      "<span class=\"ek\"><span class=\"box fold\"></span> folded cold blocks</span></div>\n"
	      "</section>\n", out);
}

/* The first rows of the table of functions, whatever they are; past them, a
 * function has a row when it is in the page or left out of it (at most
 * TABLE_LEFT_OUT of those), and the others are told by the count. */
#define TABLE_HEAD 100
#define TABLE_LEFT_OUT 500

/* "N more functions (P% of all samples)..." for ranked[from .. to) without rows. */
static void put_more(FILE *out, const struct page *pg, size_t from, size_t to)
{
	const struct report *rep = pg->rep;
	uint64_t samples = 0;
	size_t shown = 0, left = 0;
	char pct[64];

	for (size_t k = from; k < to; k++) {
		const struct report_ranked *r = &rep->ranked[k];

		samples = sat_add(samples, r->samples);
		shown += r->shown_blocks != 0;
		left += r->func >= 0;
	}
	fprintf(out, "<tr class=\"more\" data-functions=\"%zu\"><td class=\"n\">%zu&ndash;%zu</td>"
		"<td colspan=\"6\">%zu more function%s, %s%% of all samples", to - from, from + 1, to,
		to - from, plural(to - from), pct_of(pct, rep, samples));
	if (left)
		fprintf(out, "; %zu of them listed (%zu with shown blocks) but not in this page", left,
			shown);
	fputs(": <code>hotblocks --json --all</code> lists every sampled function</td></tr>\n", out);
}

/* The command that shows funcs[i] alone, for a shell, into sb; whole: with
 * no budget, so that it has every row whatever its size. */
static void func_command(struct strbuf *sb, const struct page *pg, size_t rank, const char *name,
			 bool whole)
{
	char budget[48] = "";

	/* at this page's budget, which decided what the command shows */
	if (whole)
		snprintf(budget, sizeof(budget), " --page-budget 0");
	else if (pg->o->page_budget != RENDER_PAGE_BUDGET)
		/* as --page-budget takes it: k and M where they are exact */
		snprintf(budget, sizeof(budget), " --page-budget %zu%s",
			 pg->o->page_budget % (1 << 20) == 0 ? pg->o->page_budget >> 20 :
			 pg->o->page_budget % (1 << 10) == 0 ? pg->o->page_budget >> 10 :
			 pg->o->page_budget, pg->o->page_budget % (1 << 20) == 0 ? "M" :
			 pg->o->page_budget % (1 << 10) == 0 ? "k" : "");
	strbuf_addf(sb, "hotblocks --html=f%zu.html%s --function '", rank, budget);
	for (const char *c = name; *c; c++)
		if (*c == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *c);
	strbuf_addch(sb, '\'');
	/* the rest of the command line: after "hotblocks" */
	if (pg->o->command && !strncmp(pg->o->command, "hotblocks", 9))
		strbuf_addstr(sb, pg->o->command + 9);
}

/* A function whose hottest region does not fit even a page of its own: the
 * command shows it whole, else it would write a page without it again. */
static bool too_big(const struct page *pg, size_t i)
{
	return BIG(pg, i) == BIG_HUGE;
}

/* The command that shows funcs[i] alone, for a shell, then escaped for the page. */
static void put_command(FILE *out, const struct page *pg, size_t rank, const char *name)
{
	struct strbuf sb = { 0 };

	func_command(&sb, pg, rank, name, too_big(pg, (size_t)pg->rep->ranked[rank - 1].func));
	fputs("<code class=\"cmd\">", out);
	html_puts(out, sb.oom ? "hotblocks --function NAME" : sb.buf);
	fputs("</code>", out);
	strbuf_release(&sb);
}

static void put_func_row(FILE *out, const struct page *pg, size_t k)
{
	const struct report *rep = pg->rep;
	const struct report_ranked *r = &rep->ranked[k];
	const struct report_func *f = r->func >= 0 ? &rep->funcs[r->func] : NULL;
	bool in = f && IN_PAGE(pg, r->func);
	char pct[64];

	if (in)
		fprintf(out, "<tr data-func=\"f%" PRId32 "\"><td class=\"n\">%zu</td><td><a href=\"#f%" PRId32
			"\">", r->func, k + 1, r->func);
	else
		fprintf(out, "<tr class=\"%s\"><td class=\"n\">%zu</td><td>",
			f ? "out" : r->selected ? "noshow" : "unsel", k + 1);
	html_puts(out, r->display_name);
	fputs(in ? "</a>" : "", out);
	if (in && BIG(pg, r->func) == BIG_REGION)
		fputs(" <small class=\"region\">its hottest region</small>", out);
	if (f && !in) {
		fputs("<div class=\"left\">not in this page (its budget): ", out);
		put_command(out, pg, k + 1, r->display_name);
		fputs("</div>", out);
	}
	fprintf(out, "</td><td>%s</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%s%%</td>",
		r->kind, r->samples, pct_of(pct, rep, r->samples));
	if (f && f->disassembled)
		fprintf(out, "<td class=\"n\">%zu of %zu</td><td class=\"n\">%zu</td></tr>\n",
			f->sampled_blocks_nr, f->code_blocks_nr, f->shown_blocks_nr);
	else if (f && f->offsets)
		/* no code: the whole function is its one entry */
		fprintf(out, "<td class=\"n\">whole</td><td class=\"n\">%zu</td></tr>\n",
			f->shown_blocks_nr);
	else if (f)
		fputs("<td class=\"n\">-</td><td class=\"n\">-</td></tr>\n", out);
	else
		fprintf(out, "<td class=\"n\">-</td><td class=\"n\">%s</td></tr>\n",
			r->selected ? "none" : "-");
}

/*
 * V8 wasm functions with their tiers together, when the input has any:
 * each one's share, the sum of its tiers', and the split, each tier's code
 * linked to its section when the page has one (its blocks are per tier).
 */
static void put_tiered_table(FILE *out, const struct page *pg)
{
	const struct report *rep = pg->rep;
	size_t n = 0, rows = 0;
	uint64_t rest = 0;
	char pct[64];

	if (!rep->tiered)
		return;
	for (size_t i = 0; i < rep->functions_nr; i++)
		n += rep->functions[i].tiered;
	fprintf(out, "<section id=\"tiers\">\n<h2>Wasm functions, their tiers together <small>%zu,"
		" hottest first: Liftoff's and TurboFan's code of one function summed</small></h2>\n"
		"<table class=\"classes\" id=\"wtable\"><thead><tr><th>function</th><th class=\"n\">"
		"samples</th><th class=\"n\">share</th><th>tiers</th></tr></thead><tbody>\n", n);
	for (size_t i = 0; i < rep->functions_nr; i++) {
		const struct report_function *f = &rep->functions[i];

		if (!f->tiered)
			continue;
		if (rows++ >= TABLE_HEAD) {
			rest = sat_add(rest, f->samples);
			continue;
		}
		fputs("<tr><td><code>", out);
		html_puts(out, f->display_name);
		fprintf(out, "</code></td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%s%%</td><td>",
			f->samples, pct_of(pct, rep, f->samples));
		for (size_t t = 0; t < f->tiers_nr; t++) {
			const struct report_function_tier *ft = &rep->function_tiers[f->first_tier + t];
			const struct report_ranked *r = &rep->ranked[ft->ranked];
			bool in = r->func >= 0 && pg->in_page[r->func];

			fputs(t ? ", " : "", out);
			if (in)
				fprintf(out, "<a href=\"#f%" PRId32 "\">", r->func);
			html_puts(out, ft->tier);
			fprintf(out, "%s %" PRIu64 " (%s%%)", in ? "</a>" : "", r->samples,
				pct_of(pct, rep, r->samples));
		}
		fputs("</td></tr>\n", out);
	}
	if (rows > TABLE_HEAD)
		fprintf(out, "<tr><td colspan=\"4\">%zu more, %s%% of all samples: <code>hotblocks"
			" --json</code> lists them all (<code>tiered_functions</code>)</td></tr>\n",
			rows - TABLE_HEAD, pct_of(pct, rep, rest));
	fputs("</tbody></table>\n</section>\n", out);
}

/*
 * Every sampled function, ranked; those with a section link to it, the
 * others say why they have none: no shown block, not selected, or the
 * page's budget (with the command that shows it). Long tails are told by
 * their count and share.
 */
static void put_func_table(FILE *out, const struct page *pg)
{
	const struct report *rep = pg->rep;
	size_t more_from = SIZE_MAX, left_rows = 0;

	fprintf(out, "<section id=\"functions\">\n<h2>Functions <small>%zu sampled, hottest first; %zu"
		" listed, %zu in this page</small></h2>\n"
		"<table id=\"ftable\"><thead><tr><th class=\"n\">#</th><th>function</th><th>kind</th>"
		"<th class=\"n\">samples</th><th class=\"n\">share</th><th class=\"n\">blocks sampled"
		"</th><th class=\"n\">shown</th></tr></thead><tbody>\n", rep->ranked_nr, rep->funcs_nr,
		pg->in_page_nr);
	/* (what a row without a link is: the key after the table) */
	for (size_t k = 0; k < rep->ranked_nr; k++) {
		const struct report_ranked *r = &rep->ranked[k];
		bool in = r->func >= 0 && IN_PAGE(pg, r->func);
		bool left = r->func >= 0 && !in && left_rows < pg->table_left_out;

		if (k >= pg->table_head && !in && !left) {
			if (more_from == SIZE_MAX)
				more_from = k;
			continue;
		}
		if (more_from != SIZE_MAX)
			put_more(out, pg, more_from, k);
		more_from = SIZE_MAX;
		left_rows += r->func >= 0 && !in;
		put_func_row(out, pg, k);
	}
	if (more_from != SIZE_MAX)
		put_more(out, pg, more_from, rep->ranked_nr);
	fputs("</tbody></table>\n", out);
	if (rep->ranked_nr > pg->in_page_nr)
		fputs("<p class=\"tkey\">A function without a link has no section here: <i>none</i>,"
		      " no block of it is among the shown blocks; in grey with <i>-</i>, --function"
		      " does not select it; in brown, the page's budget left it out (the command"
		      " shows it).</p>\n", out);
	fputs("</section>\n", out);
}


/* The region of a function too big for the page, as put_func writes it. */
struct region_of {
	const struct html_region *r;
	const uint32_t *order;
	size_t order_nr;
};

static int put_func(FILE *out, const struct page *pg, size_t i, size_t rank,
		    const struct region_of *ro)
{
	const struct report *rep = pg->rep;
	const struct report_func *f = &rep->funcs[i];
	struct html_listing l = { rep, f, NULL, &pg->heat, rep->row_max, NULL, NULL, false, pg->data, NULL };
	char prefix[32], pct[64], id[REPORT_ID_MAX];
	int ret;

	snprintf(prefix, sizeof(prefix), "f%zu", i);
	l.prefix = prefix;
	fprintf(out, "<section class=\"func\" id=\"%s\" data-samples=\"%" PRIu64 "\" data-address=\""
		"%" PRIu64 "\" data-pid=\"%" PRIu64 "\"", prefix, f->samples, f->code.address, f->code.pid);
	/* where it opens: its hottest block */
	if (f->disassembled && f->has_hottest)
		fprintf(out, " data-hot=\"%s\"", report_graph__id(id, prefix, 'l', f->hottest));
	fputs(" data-name=\"", out);
	html_puts(out, f->display_name);
	fprintf(out, "\">\n<h2><span class=\"rank\">%zu</span> <a class=\"self\" href=\"#%s\">", rank,
		prefix);
	html_puts(out, f->display_name);
	fprintf(out, "</a> <span class=\"pct\">%s%%</span> <small>%" PRIu64 " sample%s</small></h2>\n",
		pct_of(pct, rep, f->samples), f->samples, plural(f->samples));
	if (ro) {
		struct strbuf cmd = { 0 };

		func_command(&cmd, pg, rank, f->display_name, true);
		ret = html_region__write(out, &l, ro->r, ro->order, ro->order_nr,
					 cmd.oom ? NULL : cmd.buf);
		strbuf_release(&cmd);
	} else {
		ret = html_listing__function(out, &l, NULL);
	}
	fputs("</section>\n", out);
	return ret;
}

/* Function i's section, written into memory: its size decides whether it goes in. */
static int func_section(const struct page *pg, size_t i, size_t rank, char **buf, size_t *len)
{
	FILE *m = open_memstream(buf, len);
	int ret;

	if (!m)
		return -ENOMEM;
	ret = report__func_open(pg->rep, i);
	if (!ret)
		ret = put_func(m, pg, i, rank, NULL);
	report__func_close(pg->rep, i);
	if (fclose(m) && !ret)
		ret = -ENOMEM;
	if (ret) {
		free(*buf);
		*buf = NULL;
	}
	return ret;
}

/* Rows of the list of the rest a region tries first, then fewer. */
static const size_t rest_tries[] = { 200, 20, 0 };

/* Function i's hottest region (html-region.h) written into memory: as many
 * of its hottest blocks as keep it within room. *buf NULL: not even its
 * hottest block fits. */
static int region_section(const struct page *pg, size_t i, size_t rank, size_t room, char **buf,
			  size_t *len, size_t *least)
{
	const struct report_func *f = &pg->rep->funcs[i];
	uint32_t *order = NULL;
	size_t order_nr = 0;
	int ret;

	*buf = NULL;
	*len = 0;
	*least = SIZE_MAX;
	if ((ret = report__func_open_blocks(pg->rep, i)))
		goto out;
	if ((ret = html_region__order(f, &order, &order_nr)) || !order_nr)
		goto out;
	for (size_t t = 0; t < ARRAY_SIZE(rest_tries) && !*buf && !ret; t++) {
		/* the most blocks that fit: doubling, then halving the gap */
		size_t lo = 0, hi = 0, k = 1;
		char *best = NULL;
		size_t best_len = 0;

		for (;;) {
			struct html_region r;
			struct region_of ro;
			char *b = NULL;
			size_t n = 0;
			FILE *m;

			if ((ret = html_region__build(&r, pg->rep, i, order, k, rest_tries[t])))
				break;
			ro = (struct region_of){ &r, order, order_nr };
			if (!(m = open_memstream(&b, &n))) {
				html_region__release(&r);
				ret = -ENOMEM;
				break;
			}
			ret = put_func(m, pg, i, rank, &ro);
			if (fclose(m) && !ret)
				ret = -ENOMEM;
			html_region__release(&r);
			if (ret) {
				free(b);
				break;
			}
			*least = n < *least ? n : *least;
			if (n <= room) {
				free(best);
				best = b;
				best_len = n;
				lo = k;
			} else {
				free(b);
				hi = k;
			}
			if (!lo || k == order_nr || (hi && hi - lo <= 1))
				break;
			k = hi ? lo + (hi - lo) / 2 : k * 2 < order_nr ? k * 2 : order_nr;
		}
		if (ret)
			free(best);
		else
			*buf = best, *len = best_len;
	}
out:
	free(order);
	report__func_close(pg->rep, i);
	return ret;
}

/* What f's section takes at least: a row of its listing is a few bytes
 * even as data. A function that cannot fit is not even written. */
static size_t least_size(const struct page *pg, const struct report_func *f)
{
	return f->code_rows_nr * (pg->data ? 8 : 20);
}

/* The page before its functions: the head, the summary, the table. */
static int page_top(FILE *out, const struct page *pg, const char *title)
{
	html_page__begin(out, title);
	put_summary(out, pg);
	put_func_table(out, pg);
	put_tiered_table(out, pg);
	if (!pg->rep->funcs_nr)
		fputs(pg->rep->total ? "<p class=\"empty\">No block to show.</p>\n" :
				       "<p class=\"empty\">No samples.</p>\n", out);
	return ferror(out) ? -EIO : 0;
}

/* The bytes page_top and html_page__end write for pg. */
static int fixed_size(const struct page *pg, const char *title, size_t *size)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	int ret;

	if (!m)
		return -ENOMEM;
	ret = page_top(m, pg, title);
	if (!ret)
		ret = html_page__end(m);
	if (fclose(m) && !ret)
		ret = -ENOMEM;
	free(buf);
	*size = len;
	return ret;
}

/* A function's section in the page, written before the page is. */
struct section {
	size_t func;
	char *buf;
	size_t len;
};

/*
 * Which functions fit in the budget: in rank order, each written into
 * memory and kept while the page stays within it (the table's row for each
 * counted with it), until little is left; then the page is measured whole
 * and the last ones given back until it fits.
 */
static int fit_budget(struct page *pg, const char *title, bool probe, struct section **out,
		      size_t *out_nr)
{
	const struct report *rep = pg->rep;
	/* Past this many in a row that do not fit, no other is tried: each
	 * costs its disassembly and layout. */
	enum { MISFITS = 64, ROW = 600 };
	struct section *v = malloc((rep->funcs_nr ? rep->funcs_nr : 1) * sizeof(*v));
	size_t nr = 0, used = 0, base, misfits = 0;
	uint64_t listed = 0;
	int ret = -ENOMEM;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < rep->funcs_nr; i++)
		listed = sat_add(listed, rep->funcs[i].samples);
	/* the room the page takes without sections, as if all were left out */
	for (size_t i = 0; i < rep->funcs_nr; i++) {
		pg->in_page[i] = 0;
	}
	pg->left_out = rep->funcs_nr;
	pg->regions = 0;
	if ((ret = fixed_size(pg, title, &base)))
		goto out;
	/* a table that alone passes the budget: fewer rows, the rest told by count */
	while (base > pg->o->page_budget && (pg->table_head || pg->table_left_out)) {
		pg->table_head /= 2;
		pg->table_left_out /= 2;
		if ((ret = fixed_size(pg, title, &base)))
			goto out;
	}
	if (base > pg->o->page_budget) {
		ret = -E2BIG;	/* no page fits: not even its script, style and summary */
		goto out;
	}
	for (size_t i = 0; i < rep->funcs_nr; i++) {
		const struct report_func *f = &rep->funcs[i];
		size_t room = pg->o->page_budget > base + used ? pg->o->page_budget - base - used : 0;
		char *buf;
		size_t len;

		/* the room it would have in a page of its own, about */
		size_t alone = pg->o->page_budget > base ? pg->o->page_budget - base : 0;
		bool big = least_size(pg, f) + ROW > alone;

		if (!big && (misfits >= MISFITS || least_size(pg, f) + ROW > room)) {
			misfits += misfits < MISFITS;
			if (probe)
				break;
			continue;
		}
		if (!big && (ret = func_section(pg, i, pg->rank[i], &buf, &len)))
			goto out;
		if (!big && len + ROW > room) {
			free(buf);
			big = len + ROW > alone;
			if (!big) {
				misfits++;
				if (probe)
					break;
				continue;
			}
		}
		if (big && probe)
			break;	/* as data, with more room, then its region */
		if (big) {
			/* no page holds it whole: its hottest region, if that fits,
			 * in its share of the page (by its samples among the listed
			 * functions', an eighth at least), the rest left to the others */
			size_t least, share = listed ? (size_t)((double)pg->o->page_budget *
					      (double)f->samples / (double)listed) : room;

			share = share > pg->o->page_budget / 8 ? share : pg->o->page_budget / 8;
			share = share < room ? share : room;
			if ((ret = region_section(pg, i, pg->rank[i], share > ROW ? share - ROW : 0,
						  &buf, &len, &least)))
				goto out;
			/* (a page of its own has ids a few bytes longer, at most) */
			SET_BIG(pg, i, buf ? BIG_REGION : least != SIZE_MAX && least + ROW + 1024 <= alone ?
				     BIG_OUT : BIG_HUGE);
			if (!buf) {
				misfits++;
				continue;
			}
		}
		misfits = 0;
		v[nr++] = (struct section){ i, buf, len };
		used += len + ROW;
		SET_IN(pg, i, true);
	}
	/* measured whole: the ones last in given back until it fits */
	for (;;) {
		size_t sum = 0;

		pg->in_page_nr = nr;
		pg->left_out = rep->funcs_nr - nr;
		pg->regions = 0;
		for (size_t k = 0; k < nr; k++)
			pg->regions += BIG(pg, v[k].func) == BIG_REGION;
		pg->left_out_samples = 0;
		for (size_t i = 0; i < rep->funcs_nr; i++)
			if (!IN_PAGE(pg, i))
				pg->left_out_samples = sat_add(pg->left_out_samples, rep->funcs[i].samples);
		if ((ret = fixed_size(pg, title, &base)))
			goto out;
		for (size_t k = 0; k < nr; k++)
			sum += v[k].len;
		if (!nr || base + sum <= pg->o->page_budget)
			break;
		nr--;
		SET_IN(pg, v[nr].func, false);
		if (BIG(pg, v[nr].func) == BIG_REGION)
			SET_BIG(pg, v[nr].func, BIG_OUT);
		free(v[nr].buf);
	}
	*out = v;
	*out_nr = nr;
	return 0;
out:
	for (size_t k = 0; k < nr; k++)
		free(v[k].buf);
	free(v);
	return ret;
}

int render_html(FILE *out, const struct report *rep, const struct render_opts *o)
{
	struct page pg = { .rep = rep, .o = o, .data = rep->selection.all, .table_head = TABLE_HEAD,
			   .table_left_out = TABLE_LEFT_OUT };
	struct section *sections = NULL;
	char title[160], name[96];
	size_t sections_nr = 0;
	int ret = 0;

	report_graph__heat(&pg.heat, rep);
	if (rep->funcs_nr)
		html_page__short(name, sizeof(name), rep->funcs[0].display_name, 80);
	if (rep->funcs_nr > 1)
		snprintf(title, sizeof(title), "hotblocks: %s and %zu more", name, rep->funcs_nr - 1);
	else if (rep->funcs_nr)
		snprintf(title, sizeof(title), "hotblocks: %s", name);
	else
		snprintf(title, sizeof(title), "hotblocks: no blocks");
	pg.in_page = calloc(rep->funcs_nr ? rep->funcs_nr : 1, sizeof(*pg.in_page));
	pg.rank = malloc((rep->funcs_nr ? rep->funcs_nr : 1) * sizeof(*pg.rank));
	if (!pg.in_page || !pg.rank) {
		free(pg.in_page);
		free(pg.rank);
		return -ENOMEM;
	}
	for (size_t k = 0; k < rep->ranked_nr; k++)
		if (rep->ranked[k].func >= 0)
			pg.rank[rep->ranked[k].func] = k + 1;
	if (o->page_budget) {
		/* as markup while every function fits; past that, as data */
		ret = fit_budget(&pg, title, !pg.data, &sections, &sections_nr);
		if (!ret && !pg.data && pg.left_out) {
			for (size_t k = 0; k < sections_nr; k++)
				free(sections[k].buf);
			free(sections);
			sections = NULL;
			pg.data = true;
			ret = fit_budget(&pg, title, false, &sections, &sections_nr);
		}
	} else {
		/* no budget: every function, written as it goes */
		for (size_t i = 0; i < rep->funcs_nr; i++)
			pg.in_page[i] = IN;
		pg.in_page_nr = rep->funcs_nr;
	}
	if (!ret)
		ret = page_top(out, &pg, title);
	for (size_t k = 0; k < sections_nr && !ret; k++)
		if (fwrite(sections[k].buf, 1, sections[k].len, out) != sections[k].len)
			ret = -EIO;
	for (size_t i = 0; !o->page_budget && i < rep->funcs_nr && !ret; i++) {
		ret = report__func_open(rep, i);
		if (!ret)
			ret = put_func(out, &pg, i, pg.rank[i], NULL);
		report__func_close(rep, i);
	}
	for (size_t k = 0; k < sections_nr; k++)
		free(sections[k].buf);
	free(sections);
	free(pg.in_page);
	free(pg.rank);
	if (ret)
		return ret;
	return html_page__end(out);
}

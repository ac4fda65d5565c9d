/* SPDX-License-Identifier: MIT */
/*
 * The HTML report: one self-contained page (html-page.h) with the report's
 * header facts and notes, a ranked table of the listed functions, and for
 * each its control-flow graph (report-graph.h, laid out by Graphviz and
 * drawn as SVG) beside its listing (html-listing.h). The numbers are the
 * report's, as JSON gives them: every count is in a data- attribute, every
 * share is count / total as the text table prints it.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
#include "render/html/html-listing.h"
#include "render/html/html-page.h"
#include "lib/html.h"
#include "render.h"
#include "render/graph/report-graph.h"

static const char *pct_of(char buf[64], const struct report *rep, uint64_t n)
{
	return fmt_pct(buf, 64, report_graph__share(rep, n) * 100);
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

static void put_summary(FILE *out, const struct report *rep, const struct heat_scale *heat)
{
	static const char *const note_class[] = {
		[REPORT_NOTE_INPUT] = "input", [REPORT_NOTE_LOSS] = "loss",
		[REPORT_NOTE_SELECTION] = "selection", [REPORT_NOTE_ANNOTATION] = "annotation",
	};
	char pct[64];

	fputs("<section id=\"summary\">\n<h1>Hot blocks</h1>\n", out);
	fprintf(out, "<p class=\"totals\" id=\"totals\" data-total=\"%" PRIu64 "\" data-jit=\"%" PRIu64
		"\">Collected <b>%" PRIu64 "</b> total samples", rep->total, rep->jit, rep->total);
	if (rep->event) {
		fputs(" of <code>", out);
		html_puts(out, rep->event);
		fputs("</code>", out);
	}
	fprintf(out, "; <b>%" PRIu64 "</b> (%s%%) JIT samples.", rep->jit, pct_of(pct, rep, rep->jit));
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
	html_page__legend(out, heat);
	html_page__edge_keys(out);
	fputs("<span class=\"ek\"><span class=\"box em\"></span> shown block</span>"
	      "<span class=\"ek\"><span class=\"box fold\"></span> folded cold blocks</span></div>\n"
	      "</section>\n", out);
}

static void put_func_table(FILE *out, const struct report *rep)
{
	char pct[64];

	fprintf(out, "<section id=\"functions\">\n<h2>Functions <small>%zu, hottest first</small></h2>\n"
		"<table id=\"ftable\"><thead><tr><th class=\"n\">#</th><th>function</th><th>kind</th>"
		"<th class=\"n\">samples</th><th class=\"n\">share</th><th class=\"n\">blocks sampled"
		"</th><th class=\"n\">shown</th></tr></thead><tbody>\n", rep->funcs_nr);
	for (size_t i = 0; i < rep->funcs_nr; i++) {
		const struct report_func *f = &rep->funcs[i];

		fprintf(out, "<tr data-func=\"f%zu\"><td class=\"n\">%zu</td><td><a href=\"#f%zu\">",
			i, i + 1, i);
		html_puts(out, f->display_name);
		fprintf(out, "</a></td><td>%s</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%s%%"
			"</td>", f->kind, f->samples, pct_of(pct, rep, f->samples));
		if (f->disassembled)
			fprintf(out, "<td class=\"n\">%zu of %zu</td><td class=\"n\">%zu</td></tr>\n",
				f->sampled_blocks_nr, f->code_blocks_nr, f->shown_blocks_nr);
		else
			fputs("<td class=\"n\">-</td><td class=\"n\">-</td></tr>\n", out);
	}
	fputs("</tbody></table>\n</section>\n", out);
}

static int put_func(FILE *out, const struct report *rep, size_t i, const struct heat_scale *heat,
		    uint64_t bar_max)
{
	const struct report_func *f = &rep->funcs[i];
	struct html_listing l = { rep, f, NULL, heat, bar_max, NULL, NULL, false };
	char prefix[32], pct[64];
	int ret;

	snprintf(prefix, sizeof(prefix), "f%zu", i);
	l.prefix = prefix;
	fprintf(out, "<section class=\"func\" id=\"%s\" data-samples=\"%" PRIu64 "\" data-address=\""
		"%" PRIu64 "\" data-pid=\"%" PRIu64 "\" data-name=\"", prefix, f->samples,
		f->code.address, f->code.pid);
	html_puts(out, f->display_name);
	fprintf(out, "\">\n<h2><span class=\"rank\">%zu</span> <a class=\"self\" href=\"#%s\">", i + 1,
		prefix);
	html_puts(out, f->display_name);
	fprintf(out, "</a> <span class=\"pct\">%s%%</span> <small>%" PRIu64 " sample%s</small></h2>\n",
		pct_of(pct, rep, f->samples), f->samples, plural(f->samples));
	ret = html_listing__function(out, &l, NULL);
	fputs("</section>\n", out);
	return ret;
}

int render_html(FILE *out, const struct report *rep, const struct render_opts *o)
{
	struct heat_scale heat;
	char title[160], name[96];
	int ret = 0;

	report_graph__heat(&heat, rep);
	if (rep->funcs_nr)
		html_page__short(name, sizeof(name), rep->funcs[0].display_name, 80);
	if (rep->funcs_nr > 1)
		snprintf(title, sizeof(title), "hotblocks: %s and %zu more", name, rep->funcs_nr - 1);
	else if (rep->funcs_nr)
		snprintf(title, sizeof(title), "hotblocks: %s", name);
	else
		snprintf(title, sizeof(title), "hotblocks: no blocks");
	html_page__begin(out, title);
	put_summary(out, rep, &heat);
	put_func_table(out, rep);
	if (!rep->funcs_nr)
		fputs(rep->total ? "<p class=\"empty\">No block to show.</p>\n" :
				   "<p class=\"empty\">No samples.</p>\n", out);
	for (size_t i = 0; i < rep->funcs_nr && !ret; i++) {
		ret = report__func_open(rep, i);
		if (!ret)
			ret = put_func(out, rep, i, &heat, rep->row_max);
		report__func_close(rep, i);
	}
	if (ret)
		return ret;
	(void)o;
	return html_page__end(out);
}

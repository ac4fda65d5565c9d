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

#include "html-listing.h"
#include "html-page.h"
#include "html.h"
#include "render.h"
#include "report-graph.h"

/* More boxes than this, even folded, are not laid out: dot's time grows
 * faster than linearly (scripts/bench-graph), and the listing still has
 * every block. */
#define LAYOUT_MAX_BOXES 400

static const char *pct_of(char buf[64], const struct report *rep, uint64_t n)
{
	return fmt_pct(buf, 64, report_graph__share(rep, n) * 100);
}

static void put_selection(FILE *out, const struct report *rep)
{
	size_t funcs = 0;

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
	for (size_t i = 0; i < rep->funcs_nr; i++)
		for (size_t b = 0; b < rep->funcs[i].blocks_nr; b++)
			if (rep->funcs[i].blocks[b].shown) {
				funcs++;
				break;
			}
	fprintf(out, ": <b>%zu</b> block%s in %zu function%s.", rep->shown_nr, plural(rep->shown_nr),
		funcs, plural(funcs));
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

static void put_edge_key(FILE *out, enum graph_edge_kind kind, bool back, const char *what)
{
	struct graph_edge_style st = graph_edge__style(kind, back);

	fprintf(out, "<span class=\"ek\"><svg width=\"28\" height=\"8\" aria-hidden=\"true\">"
		"<line x1=\"0\" y1=\"4\" x2=\"28\" y2=\"4\" stroke=\"#%06x\" stroke-width=\"%g\"%s/>"
		"</svg> %s</span>", (unsigned)st.colour, st.width,
		st.dashed ? " stroke-dasharray=\"5 3\"" : "", what);
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
	fputs("<div class=\"legend edges\"><span class=\"what\">edges</span>", out);
	put_edge_key(out, GRAPH_EDGE_FALLTHROUGH, false, "fall-through");
	put_edge_key(out, GRAPH_EDGE_TAKEN, false, "branch taken");
	put_edge_key(out, GRAPH_EDGE_CASE, false, "jump table case");
	put_edge_key(out, GRAPH_EDGE_TAKEN, true, "back edge (loop)");
	fputs("<span class=\"ek\"><span class=\"box em\"></span> shown block</span>"
	      "<span class=\"ek\"><span class=\"box fold\"></span> folded cold blocks</span></div>\n"
	      "</section>\n", out);
}

static void block_counts(const struct report_func *f, size_t *sampled, size_t *shown)
{
	*sampled = *shown = 0;
	for (size_t b = 0; b < f->blocks_nr; b++) {
		*sampled += f->blocks[b].samples != 0;
		*shown += f->blocks[b].shown;
	}
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
		size_t sampled, shown;

		block_counts(f, &sampled, &shown);
		fprintf(out, "<tr data-func=\"f%zu\"><td class=\"n\">%zu</td><td><a href=\"#f%zu\">",
			i, i + 1, i);
		html_puts(out, f->display_name);
		fprintf(out, "</a></td><td>%s</td><td class=\"n\">%" PRIu64 "</td><td class=\"n\">%s%%"
			"</td>", f->kind, f->samples, pct_of(pct, rep, f->samples));
		if (f->status == RANK_DISASSEMBLED)
			fprintf(out, "<td class=\"n\">%zu of %zu</td><td class=\"n\">%zu</td></tr>\n",
				sampled, f->blocks_nr, shown);
		else
			fputs("<td class=\"n\">-</td><td class=\"n\">-</td></tr>\n", out);
	}
	fputs("</tbody></table>\n</section>\n", out);
}

static void put_meta(FILE *out, const struct report_func *f)
{
	const struct stream_object *obj = f->object;

	fprintf(out, "<p class=\"meta\">%s &middot; pid %" PRIu64 " &middot; 0x%" PRIx64 ", %" PRIu64
		" bytes", f->kind, (uint64_t)obj->pid, (uint64_t)obj->addr, (uint64_t)obj->size);
	if (obj->kind == HB_KIND_JIT)
		fprintf(out, " &middot; code load %" PRIu64, (uint64_t)obj->code_index);
	if (obj->path) {
		fputs(" &middot; <span class=\"path\">", out);
		html_puts(out, obj->path);
		fputs("</span>", out);
	}
	if (strcmp(obj->name, f->display_name)) {
		fputs(" &middot; symbol <code>", out);
		html_puts(out, obj->name);
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

/* The graph pane: the drawing, or why there is none. */
static int put_graph(FILE *out, const struct report *rep, const struct report_func *f,
		     struct graph *g, bool *drawn)
{
	char err[256];
	size_t boxes = graph__shown_nodes(g);
	int ret;

	*drawn = false;
	fprintf(out, "<div class=\"cfg-pane\" data-boxes=\"%zu\">", boxes);
	ret = graph__layout(g, LAYOUT_MAX_BOXES, err, sizeof(err));
	if (ret == -ENOMEM)
		return ret;
	if (ret) {
		fputs("<p class=\"nograph\">No graph: ", out);
		if (ret == -E2BIG)
			fprintf(out, "%zu boxes even with the cold blocks folded, too many to lay out; "
				"the listing has every block.", boxes);
		else
			html_puts(out, err[0] ? err : "Graphviz could not lay it out.");
		fputs("</p></div>\n", out);
		return 0;
	}
	fprintf(out, "<div class=\"cfg-tools\"><button data-zoom=\"out\" title=\"zoom out\">&minus;"
		"</button><button data-zoom=\"in\" title=\"zoom in\">+</button><button data-zoom=\"fit\""
		" title=\"fit the pane\">fit</button><span>%zu block%s", f->blocks_nr,
		plural(f->blocks_nr));
	if (boxes != f->blocks_nr)
		fprintf(out, " in %zu boxes: cold ones folded", boxes);
	fputs("</span></div>\n<div class=\"cfg-box\">", out);
	ret = graph__write_svg(g, out);
	fputs("</div></div>\n", out);
	*drawn = !ret;
	(void)rep;
	return ret;
}

static int put_func(FILE *out, const struct report *rep, size_t i, const struct heat_scale *heat,
		    uint64_t bar_max)
{
	const struct report_func *f = &rep->funcs[i];
	struct html_listing l = { rep, f, NULL, heat, bar_max, NULL };
	char prefix[32], pct[64];
	struct graph g;
	bool drawn;
	int ret;

	snprintf(prefix, sizeof(prefix), "f%zu", i);
	l.prefix = prefix;
	fprintf(out, "<section class=\"func\" id=\"%s\" data-samples=\"%" PRIu64 "\" data-address=\""
		"%" PRIu64 "\" data-pid=\"%" PRIu64 "\" data-name=\"", prefix, f->samples,
		(uint64_t)f->object->addr, (uint64_t)f->object->pid);
	html_puts(out, f->display_name);
	fprintf(out, "\">\n<h2><span class=\"rank\">%zu</span> <a class=\"self\" href=\"#%s\">", i + 1,
		prefix);
	html_puts(out, f->display_name);
	fprintf(out, "</a> <span class=\"pct\">%s%%</span> <small>%" PRIu64 " sample%s</small></h2>\n",
		pct_of(pct, rep, f->samples), f->samples, plural(f->samples));
	put_meta(out, f);
	if (f->status != RANK_DISASSEMBLED) {
		fputs("<p class=\"nocode\">Not disassembled: ", out);
		html_puts(out, f->error ? f->error : "no code");
		fputs(".</p>\n</section>\n", out);
		return ferror(out) ? -EIO : 0;
	}
	fputs("<div class=\"panes\">\n", out);
	ret = report_graph__build(&g, rep, f, prefix, NULL, heat, REPORT_GRAPH_BOXES);
	if (!ret)
		ret = put_graph(out, rep, f, &g, &drawn);
	if (!ret) {
		l.g = drawn ? &g : NULL;
		fputs("<div class=\"listing-pane\">", out);
		ret = html_listing__write(out, &l);
		fputs("</div>\n</div>\n</section>\n", out);
	}
	graph__release(&g);
	return ret;
}

static int render(FILE *out, const struct report *rep, const struct render_opts *o)
{
	struct heat_scale heat;
	uint64_t bar_max = 0;
	char title[128];
	int ret = 0;

	report_graph__heat(&heat, rep);
	for (size_t i = 0; i < rep->funcs_nr; i++)
		for (size_t r = 0; r < rep->funcs[i].rows_nr; r++)
			if (rep->funcs[i].rows[r].samples > bar_max)
				bar_max = rep->funcs[i].rows[r].samples;
	if (rep->funcs_nr)
		snprintf(title, sizeof(title), "hotblocks: %.80s and %zu more", rep->funcs[0].display_name,
			 rep->funcs_nr - 1);
	else
		snprintf(title, sizeof(title), "hotblocks: no blocks");
	if (rep->funcs_nr == 1)
		snprintf(title, sizeof(title), "hotblocks: %.80s", rep->funcs[0].display_name);
	html_page__begin(out, title);
	put_summary(out, rep, &heat);
	put_func_table(out, rep);
	if (!rep->funcs_nr)
		fputs(rep->total ? "<p class=\"empty\">No block to show.</p>\n" :
				   "<p class=\"empty\">No samples.</p>\n", out);
	for (size_t i = 0; i < rep->funcs_nr && !ret; i++)
		ret = put_func(out, rep, i, &heat, bar_max);
	if (ret)
		return ret;
	(void)o;
	return html_page__end(out);
}

const struct render_ops render_html = {
	.name = "html",
	.render = render,
};

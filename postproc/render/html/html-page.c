/* SPDX-License-Identifier: MIT */
/* The page shell: head, style sheet, bar, script (html-page.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render/graph/change-scale.h"
#include "html-page.h"
#include "lib/html.h"
#include "../plugin/lib/utf8.h"

/* html_css, html_js: assets/page.css and page.js, built in by
 * scripts/embed-text. */
#include "html-assets.h"

/*
 * Nothing but the page itself: no fetch, no image, font or frame from
 * anywhere; inline style attributes (the bars) and the one inline script
 * are allowed. A browser enforces it even if a report's text were to slip
 * through as markup.
 */
#define CSP "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; " \
	    "img-src data:; base-uri 'none'; form-action 'none'"

const char *html_page__short(char *buf, size_t len, const char *s, size_t max)
{
	size_t n = strlen(s), k = utf8_cut(s, n, max);

	snprintf(buf, len, "%.*s%s", (int)k, s, k < n ? "\u2026" : "");
	return buf;
}

int html_page__begin(FILE *out, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta http-equiv=\"Content-Security-Policy\" content=\"" CSP "\">\n"
	      "<meta name=\"generator\" content=\"hotblocks\">\n<title>", out);
	html_puts(out, title);
	fputs("</title>\n<style>\n", out);
	fputs(html_css, out);
	fputs("</style>\n</head>\n<body>\n"
	      "<header id=\"bar\"><span class=\"brand\">hotblocks</span>"
	      "<input id=\"filter\" type=\"search\" placeholder=\"filter functions\" "
	      "aria-label=\"filter functions by name\" autocomplete=\"off\" spellcheck=\"false\">"
	      "<span id=\"matches\" aria-live=\"polite\"></span>"
	      "<span class=\"keys\"><kbd>/</kbd> filter &middot; <kbd>n</kbd> <kbd>p</kbd> "
	      "next, previous hot block &middot; <kbd>Esc</kbd> clear</span></header>\n"
	      "<main>\n", out);
	return ferror(out) ? -EIO : 0;
}

int html_page__end(FILE *out)
{
	fputs("</main>\n<script>\n", out);
	fputs(html_js, out);
	fputs("</script>\n</body>\n</html>\n", out);
	return ferror(out) ? -EIO : 0;
}

static void swatch(FILE *out, struct heat_colour c, const char *text)
{
	fprintf(out, "<span class=\"sw\" style=\"background:#%06x;color:#%06x\">%s</span>",
		(unsigned)c.fill, (unsigned)c.ink, text);
}

void html_page__legend(FILE *out, const struct heat_scale *s)
{
	char text[64];

	fputs("<div class=\"legend\"><span class=\"what\">share of all samples</span>", out);
	/* One swatch per decade, hottest first, as the scale places them. */
	for (int d = 0; d <= HEAT_DECADES; d++) {
		double share = s->hi / pow(10, d);

		snprintf(text, sizeof(text), "%s%.3g%%", d == HEAT_DECADES ? "&le; " : "",
			 share * 100);
		swatch(out, heat_scale__colour(s, share), text);
	}
	swatch(out, (struct heat_colour){ HEAT_NONE_FILL, HEAT_NONE_INK }, "no samples");
	fputs("</div>\n", out);
}

void html_page__plain_bar_key(FILE *out, const char *what)
{
	fprintf(out, "<div class=\"legend bars\"><span class=\"what\">listings</span><span class=\"ek\">"
		"<i class=\"bar\" style=\"width:28px;background:#%06x\"></i> ", (unsigned)HTML_BAR_PLAIN);
	html_puts(out, what);
	fputs("</span></div>\n", out);
}

void html_page__change_legend(FILE *out, const struct heat_scale *s, const char *what)
{
	char text[64];

	fputs("<div class=\"legend change\"><span class=\"what\">", out);
	html_puts(out, what);
	fputs("</span>", out);
	/* more share, largest first; then no change; then less, smallest first */
	for (int sign = 1; sign >= -1; sign -= 2) {
		for (int i = 0; i <= HEAT_DECADES; i++) {
			int d = sign > 0 ? i : HEAT_DECADES - i;
			double m = s->hi / pow(10, d);

			snprintf(text, sizeof(text), "%s%s%.3g", sign > 0 ? "+" : "&minus;",
				 d == HEAT_DECADES ? "&le;" : "", m * 100);
			swatch(out, change_scale__colour(s, sign, m), text);
		}
		if (sign > 0)
			swatch(out, (struct heat_colour){ CHANGE_SAME_FILL, 0x000000 }, "no change");
	}
	swatch(out, (struct heat_colour){ HEAT_NONE_FILL, HEAT_NONE_INK }, "no samples");
	fputs("</div>\n", out);
}

static void edge_key(FILE *out, enum graph_edge_kind kind, bool back, const char *what)
{
	struct graph_edge_style st = graph_edge__style(kind, back);

	fprintf(out, "<span class=\"ek\"><svg width=\"28\" height=\"8\" aria-hidden=\"true\">"
		"<line x1=\"0\" y1=\"4\" x2=\"28\" y2=\"4\" stroke=\"#%06x\" stroke-width=\"%g\"%s/>"
		"</svg> %s</span>", (unsigned)st.colour, st.width,
		st.dashed ? " stroke-dasharray=\"5 3\"" : "", what);
}

void html_page__edge_keys(FILE *out)
{
	fputs("<div class=\"legend edges\"><span class=\"what\">edges</span>", out);
	edge_key(out, GRAPH_EDGE_FALLTHROUGH, false, "fall-through");
	edge_key(out, GRAPH_EDGE_TAKEN, false, "branch taken");
	edge_key(out, GRAPH_EDGE_CASE, false, "jump table case");
	edge_key(out, GRAPH_EDGE_TAKEN, true, "back edge (loop)");
}

int html_page__graph(FILE *out, struct graph *g, const struct report_graph_fit *fit, bool svg,
		     bool *drawn)
{
	char err[256], what[128];
	int ret = -E2BIG;

	*drawn = false;
	report_graph__fit_text(what, sizeof(what), fit);
	fprintf(out, "<div class=\"cfg-pane\" data-boxes=\"%zu\">", fit->boxes);
	err[0] = '\0';
	if (fit->drawn)
		ret = graph__layout(g, REPORT_GRAPH_MAX_BOXES, err, sizeof(err));
	if (ret == -ENOMEM)
		return ret;
	if (ret) {
		fputs("<p class=\"nograph\">No graph: ", out);
		if (ret == -E2BIG) {
			html_puts(out, what);
			fputs("; the listing has every block.", out);
		} else {
			html_puts(out, err[0] ? err : "Graphviz could not lay it out.");
		}
		fputs("</p></div>\n", out);
		return 0;
	}
	fputs("<div class=\"cfg-tools\"><button data-zoom=\"out\" title=\"zoom out\">&minus;"
	      "</button><button data-zoom=\"in\" title=\"zoom in\">+</button><button data-zoom=\"fit\""
	      " title=\"fit the pane\">fit</button><span>", out);
	html_puts(out, what);
	fputs("</span></div>\n<div class=\"cfg-box\">", out);
	ret = svg ? graph__write_svg(g, out) : 0;
	fputs("</div></div>\n", out);
	*drawn = !ret;
	return ret;
}

void html_page__bar(FILE *out, double t, uint32_t rgb)
{
	if (!(t > 0)) {
		fputs("<td>", out);
		return;
	}
	if (t > 1)
		t = 1;
	/* At least a sliver: a sampled row never looks like an empty one. */
	fprintf(out, "<td><i class=bar style=\"width:%.0f%%;background:#%06x\"></i>",
		t < 0.02 ? 2.0 : t * 100, (unsigned)(rgb & 0xffffff));
}

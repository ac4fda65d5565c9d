/* SPDX-License-Identifier: MIT */
/* The page shell: head, style sheet, bar, script (html-page.h). */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "html-page.h"
#include "html.h"

/* html_css, html_js: html-assets/page.css and page.js, built in by
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

/* SPDX-License-Identifier: MIT */
/*
 * The shell of a self-contained HTML page of hotblocks: the document head
 * with the style sheet, a bar with the function filter and the keys, and
 * the script at the end, all inside the page (assets/), so it opens
 * from disk, offline, in any current browser and asks the network for
 * nothing (its Content-Security-Policy forbids it). What goes between
 * html_page__begin and html_page__end is the caller's; the script works on
 * these parts of it (report-graph.h names the ids):
 *
 *   <section class="func" id=PREFIX data-name=NAME>  one per function; the
 *       filter hides those whose name does not hold its text, and the row
 *       <tr data-func=PREFIX> of a table of functions with them
 *   <svg class="cfg"> inside <div class="cfg-box">, with buttons
 *       <button data-zoom="in|out|fit"> in the same <div class="cfg-pane">
 *   <tbody class="blk" id=PREFIX-lOFF data-box=BOX [data-rank=N]>  a block's
 *       listing; BOX the id of the box it is drawn in. Clicking a box marks
 *       it and its blocks (class "hl"), clicking a block or a link to one
 *       marks it and its box; n / p walk the blocks by data-rank.
 *       [data-pair=ID]: the listing of its partner (a comparison's other
 *       side), marked with it, with its box
 *   <tr data-goto=ID>  a table row standing for the block listed at ID:
 *       clicking it selects that block; selecting a block marks its rows
 */
#ifndef POSTPROC_HTML_PAGE_H
#define POSTPROC_HTML_PAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "render/graph/graph.h"
#include "render/graph/heat.h"
#include "render/graph/report-graph.h"

/*
 * s for a title: at most max bytes of it, cut at a character boundary
 * (utf8_cut), with "…" after it when something was cut, in buf (of len
 * bytes, at least max + 4). Returns buf.
 */
const char *html_page__short(char *buf, size_t len, const char *s, size_t max);

/* From the doctype to the opening of <main>; title is escaped here. */
int html_page__begin(FILE *out, const char *title);

/* The closing of <main>, the script, the end of the document. Returns 0 or
 * -EIO when out has an error. */
int html_page__end(FILE *out);

/* A legend of s: the ramp from its faintest to its hottest share, and the
 * grey of no samples. */
void html_page__legend(FILE *out, const struct heat_scale *s);

/* A legend of changes on s (heat_scale__change): the reds from the largest
 * magnitude down, no change, the greens up, and the grey of no samples; what
 * says what a magnitude is ("change in share of all samples"). */
void html_page__change_legend(FILE *out, const struct heat_scale *s, const char *what);

/* The opening of the legend of edges (<div class="legend edges">) and its
 * keys; the caller adds its keys of boxes and closes the div. */
void html_page__edge_keys(FILE *out);

/*
 * A graph pane (<div class="cfg-pane">) of a function: g, folded as fit
 * says (report_graph__fit), laid out and drawn with the zoom buttons (or,
 * without svg, laid out with its box left empty, for the page's script to
 * draw from graph__write_json), or a line saying why there is no drawing.
 * *drawn says which. Returns 0, -ENOMEM, or -EIO on a write error.
 */
int html_page__graph(FILE *out, struct graph *g, const struct report_graph_fit *fit, bool svg,
		     bool *drawn);

/* A table cell (its end tag left out) with a bar t (0..1) of its width in
 * colour rgb: <td><i class=bar ...></i>; an empty cell when t is not > 0. */
void html_page__bar(FILE *out, double t, uint32_t rgb);

/* The one colour of a listing's bars where colour means something else (a
 * comparison: red more, green less): a grey-blue on neither heat ramp (heat.c:
 * yellow to red, whose red is never below its blue; the reds and greens of
 * change), so a long bar reads as "many samples", never as "got slower". */
#define HTML_BAR_PLAIN 0x8098b4u

/* The key of plain bars (<div class="legend bars">): what their length is. */
void html_page__plain_bar_key(FILE *out, const char *what);

#endif

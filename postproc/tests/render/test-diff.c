/* SPDX-License-Identifier: MIT */
/* Unit tests of the comparison of two streams (postproc/diff/diff.c) and its page (render-diff-html.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <math.h>

#include <cmocka.h>

#include "diff/diff-build.h"
#include "diff/diff-match.h"
#include "diff/diff.h"
#include "render/graph/change-scale.h"
#include "render/graph/heat.h"
#include "render/render.h"
#include "render-fixture.h"

static void read_into(struct stream *s, const char *text)
{
	char err[512];
	FILE *f = tmpfile();

	assert_non_null(f);
	fputs(text, f);
	rewind(f);
	if (stream__read(s, f, "t.hbs", err, sizeof(err)))
		fail_msg("%s", err);
	fclose(f);
	assert_int_equal(stream__finish(s), 0);
}

/* The streams of the comparison being made: they outlive it. */
static struct stream streams[DIFF__SIDES];

static int compare(struct diff *d, const char *base, const char *nw, const struct diff_opts *o)
{
	struct diff_input in[DIFF__SIDES];

	for (int s = 0; s < DIFF__SIDES; s++) {
		stream__init(&streams[s]);
		read_into(&streams[s], s == DIFF_BASE ? base : nw);
		in[s] = (struct diff_input){ s == DIFF_BASE ? "BASE" : "NEW", "t.hbs", &streams[s], NULL };
	}
	return diff__build(d, in, o);
}

static void release(struct diff *d)
{
	diff__release(d);
	for (int s = 0; s < DIFF__SIDES; s++)
		stream__release(&streams[s]);
}

#define STREAM(ev, total, body) \
	"hotblocks-stream 1\nevent 0 " ev "\ntotal 0 all " #total " " #total "\n" body "end\n"
#define LOOP(id, addr, name) \
	"object " #id " jit pid=1 e_machine=62 addr=" addr " size=11 code-index=" #id \
	" load-time=1 dump=/d name=" name "\ncode " #id " 0x0 31c089f901c8ffc975fac3\n"

/* Other code (xor eax, eax; ret): not folded with a LOOP of the same name. */
#define RET(id, addr, name) \
	"object " #id " jit pid=1 e_machine=62 addr=" addr " size=3 code-index=" #id \
	" load-time=1 dump=/d name=" name "\ncode " #id " 0x0 31c0c3\n"

static const struct diff_opts defaults = { .min_delta = -1, .top = SIZE_MAX };

/*
 * f: 40% -> 20%; g: 0.05% -> 0.06%. The default threshold is the least
 * change the test can tell: 0 samples of 10000 against 3 of 5000, 0.06
 * points (by hand: the Wilson bounds 0 .. 0.000384 of 0/10000 and
 * 0.000204 .. of 3/5000 combine (Newcombe) into an interval that leaves
 * out 0; for 2 of 5000 it does not). g is within noise and its code is
 * the same: compared by its totals.
 */
static const char shares_base[] = STREAM("cpu-clock", 10000,
	LOOP(0, "0x1000", "f") LOOP(1, "0x2000", "g")
	"sample 0 0 0x4 4000 1\nsample 1 0 0x4 5 1\n");
static const char shares_new[] = STREAM("cpu-clock", 5000,
	LOOP(0, "0x9000", "f") LOOP(1, "0xa000", "g")
	"sample 0 0 0x4 1000 1\nsample 1 0 0x4 3 1\n");

static void shares_deltas_and_the_default_threshold(void **state)
{
	struct diff d;

	assert_int_equal(compare(&d, shares_base, shares_new, &defaults), 0);
	assert_true(fabs(d.min_delta - 0.06) < 1e-9);
	assert_true(d.min_delta == d.noise.min_delta);
	assert_int_equal(d.noise.min_samples, 3);
	assert_int_equal(d.funcs_nr, 2);
	assert_string_equal(d.funcs[0].name[DIFF_BASE], "f");
	assert_true(d.funcs[0].delta == -20.0);
	assert_int_equal(d.funcs[0].delta_samples, -3000);
	assert_true(d.funcs[0].compared);
	assert_true(d.funcs[0].test.significant);
	assert_int_equal(d.funcs[0].mark, -1);
	assert_false(d.funcs[1].compared);
	assert_false(d.funcs[1].test.significant);
	assert_int_equal(d.funcs[1].mark, 0);
	assert_int_equal(d.funcs[1].pairs_nr, 0);
	assert_int_equal(d.compared_nr, 1);
	/* f's loop block, the same code: key code */
	assert_int_equal(d.pairs_nr, 1);
	assert_int_equal(d.pairs[0].key, DIFF_KEY_CODE);
	assert_int_equal(d.shown_nr, 1);
	assert_true(d.pairs[0].shown);
	/* the function table: f passes the threshold, g does not */
	assert_int_equal(d.funcs_shown_nr, 1);
	release(&d);
}

/*
 * A perf map's function (no code bytes) on both sides: compared by its
 * shares, its one whole block with no rows to read (clang's UBSan, in the
 * fuzz build, found the rows of NULL being offset).
 */
static const char nocode_base[] = STREAM("cpu-clock", 100,
	"object 0 native pid=1 e_machine=62 addr=0x1000 size=64 dso=/tmp/perf-1.map"
	" sym-start=0x1000 source=perf-map name=h\n"
	"sample 0 0 0x4 40 40\nsample 0 0 0x8 20 20\n");
static const char nocode_new[] = STREAM("cpu-clock", 100,
	"object 0 native pid=2 e_machine=62 addr=0x2000 size=64 dso=/tmp/perf-2.map"
	" sym-start=0x2000 source=perf-map name=h\n"
	"sample 0 0 0x4 10 10\n");

static void functions_without_code_are_compared(void **state)
{
	struct diff_opts all = defaults;
	struct diff d;

	all.all = true;
	assert_int_equal(compare(&d, nocode_base, nocode_new, &all), 0);
	assert_int_equal(d.funcs_nr, 1);
	assert_string_equal(d.funcs[0].name[DIFF_BASE], "h");
	assert_true(d.funcs[0].delta == -50.0);
	assert_true(d.funcs[0].test.significant);
	release(&d);
}

/* What the options change in the comparison of the same two streams. */
static void options_change_what_is_compared(void **state)
{
	struct diff d;

	/* --min-delta 0.05: every function that can hold a pair of 0.05 points */
	struct diff_opts low = defaults;

	low.min_delta = 0.05;
	assert_int_equal(compare(&d, shares_base, shares_new, &low), 0);
	assert_true(d.funcs[1].compared);
	assert_int_equal(d.compared_nr, 2);
	release(&d);

	/* --all compares every function, and shows every pair and function */
	struct diff_opts all = defaults;

	all.all = true;
	assert_int_equal(compare(&d, shares_base, shares_new, &all), 0);
	assert_int_equal(d.compared_nr, 2);
	assert_int_equal(d.shown_nr, 2);
	assert_int_equal(d.funcs_shown_nr, 2);
	release(&d);

	/* --counts: the least change of samples a run the test can tell */
	struct diff_opts counts = defaults;

	counts.counts = true;
	assert_int_equal(compare(&d, shares_base, shares_new, &counts), 0);
	assert_true(d.min_delta == d.noise.min_delta);
	assert_true(d.min_delta > 1.0 && d.min_delta < 10.0);
	assert_false(d.per_run);
	assert_true(d.funcs[0].delta_per_run == -3000.0);
	assert_true(d.funcs[0].compared);
	assert_false(d.funcs[1].compared);
	release(&d);

	/* --top 0 shows nothing, but still compares */
	struct diff_opts top = defaults;

	top.top = 0;
	assert_int_equal(compare(&d, shares_base, shares_new, &top), 0);
	assert_int_equal(d.shown_nr, 0);
	assert_int_equal(d.pairs_nr, 1);
	assert_int_equal(d.pairs[0].rank, 1);
	release(&d);
}

static void events_by_name(void **state)
{
	static const char base[] = STREAM("cpu-clock", 10, LOOP(0, "0x1000", "f") "sample 0 0 0x4 10 1\n");
	static const char nw[] = STREAM("cycles", 10, LOOP(0, "0x1000", "f") "sample 0 0 0x4 10 1\n");
	static const char none[] = "hotblocks-stream 1\nend\n";
	struct diff d;
	struct diff_opts o = defaults;

	/* BASE's first event must be NEW's too */
	assert_int_equal(compare(&d, base, nw, &defaults), -ENOENT);
	release(&d);
	o.event = "cycles";
	assert_int_equal(compare(&d, base, nw, &o), -ENOENT);
	release(&d);
	o.event = "cpu-clock";
	assert_int_equal(compare(&d, base, base, &o), 0);
	release(&d);
	/* a side with no events at all has no samples of any */
	assert_int_equal(compare(&d, none, base, &defaults), 0);
	assert_int_equal(d.total[DIFF_BASE], 0);
	assert_int_equal(d.funcs_nr, 1);
	assert_int_equal(d.funcs[0].obj[DIFF_BASE], UINT32_MAX);
	assert_true(d.funcs[0].share[DIFF_NEW] == 100.0);
	release(&d);
	assert_int_equal(compare(&d, none, none, &defaults), 0);
	assert_int_equal(d.funcs_nr, 0);
	assert_int_equal(d.pairs_nr, 0);
	release(&d);
}

/* --function keeps pairs of which either side matches, by the best way it matches. */
static void function_selects_on_either_side(void **state)
{
	static const char base[] = STREAM("e", 100, LOOP(0, "0x1000", "JS:*work%20/a.js:1:1")
		LOOP(1, "0x2000", "other") "sample 0 0 0x4 10 1\nsample 1 0 0x4 10 1\n");
	static const char nw[] = STREAM("e", 100, LOOP(0, "0x1000", "JS:*work%20/b/a.js:1:1")
		LOOP(1, "0x2000", "other") "sample 0 0 0x4 10 1\nsample 1 0 0x4 20 1\n");
	struct diff d;
	struct diff_opts o = defaults;

	o.function = "work";
	assert_int_equal(compare(&d, base, nw, &o), 0);
	assert_int_equal(d.funcs_nr, 1);
	assert_int_equal(d.funcs[0].match, DIFF_FUNC_NAME);
	release(&d);
	o.function = "nothing";
	assert_int_equal(compare(&d, base, nw, &o), 0);
	assert_int_equal(d.funcs_nr, 0);
	release(&d);
}

/* The sign every output shows, and the size the page paints. */
static void signs_and_changes(void **state)
{
	struct diff d = { .total = { 10000, 5000 } };

	assert_int_equal(diff__sign(&d, 0.0, 0), 0);
	/* what prints as 0.00 has no sign, whatever the samples */
	assert_int_equal(diff__sign(&d, 0.004, 3), 0);
	assert_int_equal(diff__sign(&d, -0.004, -3), 0);
	assert_int_equal(diff__sign(&d, 0.006, 0), 1);
	assert_int_equal(diff__sign(&d, -20.0, -3000), -1);
	assert_true(diff__change(&d, -20.0, -3000) == 0.2);
	assert_true(diff__change(&d, 0.0, 5) == 0.0);
	/* counts: the samples' sign, their share of the larger total */
	d.opts.counts = true;
	assert_int_equal(diff__sign(&d, 0.004, 3), 1);
	assert_int_equal(diff__sign(&d, 5.0, -1), -1);
	assert_int_equal(diff__sign(&d, 5.0, 0), 0);
	assert_true(diff__change(&d, -20.0, -3000) == 0.3);
	(void)state;
}

/* The drawn box of id in page: its <g> up to its end. */
static char *box_of(const char *page, const char *id)
{
	char key[64];
	const char *at, *end;

	snprintf(key, sizeof(key), "id=\"%s\">", id);
	at = strstr(page, key);
	if (!at)
		fail_msg("no box %s", id);
	while (at > page && strncmp(at, "<g ", 3))
		at--;
	end = strstr(at, "</g>");
	assert_non_null(end);
	return strndup(at, (size_t)(end - at));
}

/*
 * The page of a comparison: f 40% -> 20% (its loop block paired by code),
 * gone only in BASE (5%), fresh only in NEW (10%). Each pair's row holds
 * JSON's numbers; each box is painted by its pair's change, the largest
 * (f's -20 points) the darkest green; blocks of one side only are marked;
 * a block's listing names its partner.
 */
static const char page_base[] = STREAM("cpu-clock", 10000,
	LOOP(0, "0x1000", "f") LOOP(1, "0x2000", "gone")
	"sample 0 0 0x4 4000 1\nsample 1 0 0x4 500 1\n");
static const char page_new[] = STREAM("cpu-clock", 5000,
	LOOP(0, "0x9000", "f") LOOP(1, "0xa000", "fresh")
	"sample 0 0 0x4 1000 1\nsample 1 0 0x4 500 1\n");

/* The page of the comparison of page_base and page_new (d: the comparison). */
static char *diff_page(struct diff *d)
{
	struct render_opts ro = { 0 };
	char *page = NULL;
	size_t len = 0;
	FILE *f;

	assert_int_equal(compare(d, page_base, page_new, &defaults), 0);
	assert_int_equal(d->shown_nr, 3);
	f = open_memstream(&page, &len);
	assert_int_equal(render_diff_html(f, d, &ro), 0);
	assert_int_equal(fclose(f), 0);
	return page;
}

/* Its rows: one per pair, by change, with JSON's numbers and the text's cells. */
static void html_page_rows(void **state)
{
	struct diff d;
	char *page = diff_page(&d);

	assert_true(!strncmp(page, "<!DOCTYPE html>", 15));
	assert_non_null(strstr(page, "Content-Security-Policy"));
	/* by change: f (-20), fresh (+10), gone (-5) */
	assert_int_equal(count(page, "<tr class=\"pair"), 3);
	assert_non_null(strstr(page, "<tr class=\"pair\" data-rank=\"1\" data-func=\"d0\" "
			       "data-goto=\"d0n-l4\" data-key=\"code\" data-delta=\"-20.0000\" "
			       "data-delta-samples=\"-3000\" data-significant=\"true\" title=\"95% "
			       "[-23.16, -16.80], p 3.5e-34: beyond noise\" data-base-start=\"4\" "
			       "data-base-samples=\"4000\" data-base-share=\"40.0000\" "
			       "data-new-start=\"4\" data-new-samples=\"1000\" data-new-share=\"20.0000\">"));
	assert_non_null(strstr(page, "<tr class=\"pair only\" data-rank=\"2\" data-func=\"d1\" "
			       "data-goto=\"d1n-l4\" data-key=\"\""));
	assert_non_null(strstr(page, "<tr class=\"pair only\" data-rank=\"3\" data-func=\"d2\" "
			       "data-goto=\"d2b-l4\" data-key=\"\""));
	/* the cells as the text output prints them */
	assert_non_null(strstr(page, "<td class=\"n\">40.00%</td><td class=\"n\">20.00%</td>"
			       "<td class=\"n delta down\" style=\"background:#00441b;color:#ffffff\">"
			       "-20.00%*</td><td class=\"match\">code 100%</td>"));
	assert_non_null(strstr(page, "<td class=\"n\">-</td><td class=\"n\">10.00%</td>"));
	assert_non_null(strstr(page, "<td class=\"match\">NEW only</td>"));
	free(page);
	release(&d);
	(void)state;
}

/* Its drawings: a graph per side, boxes painted by their pair's change. */
static void html_page_boxes(void **state)
{
	struct heat_scale cs;
	struct diff d;
	char *page = diff_page(&d), *box, fill[32];

	/* a section per function, a graph per side it has */
	assert_int_equal(count(page, "<section class=\"func diff\""), 3);
	assert_int_equal(count(page, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"d"), 4);
	/* f: both sides' loop block the darkest green, emphasised; partners named */
	for (int s = 0; s < 2; s++) {
		box = box_of(page, s ? "d0b-b4" : "d0n-b4");
		assert_non_null(strstr(box, "<g class=\"node em\""));
		assert_non_null(strstr(box, "fill=\"#00441b\""));
		assert_non_null(strstr(box, "0x4  -20.00%*"));
		free(box);
	}
	assert_non_null(strstr(page, "id=d0n-l4 data-box=d0n-b4 data-start=4 data-end=10 "
			       "data-samples=1000 data-rank=1 data-delta=-20.0000 data-pair-rank=1 "
			       "data-pair=d0b-l4>"));
	/* BASE's block of the pair has no rank of its own: n / p go to NEW's */
	assert_non_null(strstr(page, "id=d0b-l4 data-box=d0b-b4 data-start=4 data-end=10 "
			       "data-samples=4000 data-delta=-20.0000 data-pair-rank=1 data-pair=d0n-l4>"));
	/* f's blocks without samples on either side: grey, cold */
	box = box_of(page, "d0n-b0");
	assert_non_null(strstr(box, "<g class=\"node cold\""));
	assert_non_null(strstr(box, "fill=\"#f2f2f2\""));
	free(box);
	/* fresh: NEW only, red on the page's scale, marked */
	heat_scale__init(&cs, 0.2);
	snprintf(fill, sizeof(fill), "fill=\"#%06x\"", (unsigned)change_scale__colour(&cs, 1, 0.1).fill);
	box = box_of(page, "d1n-b4");
	assert_non_null(strstr(box, "<g class=\"node em mark\""));
	assert_non_null(strstr(box, fill));
	assert_non_null(strstr(box, "NEW only"));
	free(box);
	assert_non_null(strstr(page, "data-rank=2 data-delta=10.0000 data-pair-rank=2 data-only=NEW>"));
	/* gone: BASE only, green, marked; its BASE block carries the rank */
	snprintf(fill, sizeof(fill), "fill=\"#%06x\"", (unsigned)change_scale__colour(&cs, -1, 0.05).fill);
	box = box_of(page, "d2b-b4");
	assert_non_null(strstr(box, "<g class=\"node em mark\""));
	assert_non_null(strstr(box, fill));
	assert_non_null(strstr(box, "BASE only"));
	free(box);
	assert_non_null(strstr(page, "data-rank=3 data-delta=-5.0000 data-pair-rank=3 data-only=BASE>"));
	assert_null(strstr(page, "d1b-"));
	assert_null(strstr(page, "d2n-"));
	free(page);
	release(&d);
	(void)state;
}

/* Among functions of one identity, the same tier pairs first, then by heat. */
static void tiers_pair_first(void **state)
{
	static const char base[] = STREAM("e", 100,
		LOOP(0, "0x1000", "JS:*work%20/a.js:5:1") LOOP(1, "0x2000", "JS:^work%20/a.js:5:1")
		"sample 0 0 0x4 50 1\nsample 1 0 0x4 5 1\n");
	/* NEW: a hot Sparkplug code and a cold TurboFan one */
	static const char nw[] = STREAM("e", 100,
		LOOP(0, "0x1000", "JS:^work%20/a.js:5:1") LOOP(1, "0x2000", "JS:*work%20/a.js:5:1")
		RET(2, "0x3000", "JS:*work%20/a.js:5:1")
		"sample 0 0 0x4 60 1\nsample 1 0 0x4 2 1\nsample 2 0 0x0 1 1\n");
	struct diff d;
	size_t seen = 0;

	assert_int_equal(compare(&d, base, nw, &defaults), 0);
	assert_int_equal(d.funcs_nr, 3);
	for (size_t i = 0; i < d.funcs_nr; i++) {
		const struct diff_func *f = &d.funcs[i];

		if (f->obj[DIFF_BASE] == UINT32_MAX) {
			/* the colder of NEW's two TurboFan codes is left alone */
			assert_int_equal(f->obj[DIFF_NEW], 2);
			assert_int_equal(f->match, DIFF_FUNC_NONE);
			seen++;
			continue;
		}
		assert_int_equal(f->match, DIFF_FUNC_IDENTITY);
		/* * with *, ^ with ^ */
		assert_int_equal(f->obj[DIFF_NEW], f->obj[DIFF_BASE] == 0 ? 1 : 0);
		seen++;
	}
	assert_int_equal(seen, 3);
	release(&d);
}

/* A wasmtime function: a .cwasm symbol (a sample in the mapped file). */
#define CWASM(id, addr, name) \
	"object " #id " cwasm pid=1 e_machine=62 addr=" addr " size=11 dso=/r/module.cwasm " \
	"sym-start=" addr " name=" name "\ncode " #id " 0x0 31c089f901c8ffc975fac3\n"

/*
 * One wasm module's functions across engines and ways of seeing them (the
 * names of test-data/diff and test-data/wasmtime-real): V8's
 * JS:hash-1-turbofan is wasmtime's wasm[0]::function[1]::hash by its index
 * (wasm 1), and with --tiers-apart its Liftoff code stays apart while
 * TurboFan's is paired; V8's unnamed JS:wasm-function[3]-3-liftoff is
 * wasm[0]::function[3]; V8's JS:mix-2-turbofan and a jit dump's bare mix
 * (no --cwasm: no index) pair by their name; a jit dump's interp and the
 * .cwasm symbol of interp by name too (with --cwasm, by identity:
 * scripts/tests/diff-engines.sh). A wasm function of another index and
 * another name pairs with nothing. By default V8's tiers of a function are
 * one function (report-tiers.h): JS:hash-1, its TurboFan and Liftoff
 * samples summed, paired as TurboFan's was, its blocks TurboFan's.
 */
static void wasm_functions_pair_across_engines(void **state)
{
	static const char v8[] = STREAM("e", 100,
		LOOP(0, "0x1000", "JS:hash-1-turbofan") LOOP(1, "0x2000", "JS:hash-1-liftoff")
		LOOP(2, "0x3000", "JS:wasm-function[3]-3-liftoff") LOOP(3, "0x4000", "JS:mix-2-turbofan")
		LOOP(4, "0x5000", "interp") LOOP(5, "0x6000", "JS:run-0-turbofan")
		"sample 0 0 0x4 50 1\nsample 1 0 0x4 2 1\nsample 2 0 0x4 3 1\nsample 3 0 0x4 20 1\n"
		"sample 4 0 0x4 4 1\nsample 5 0 0x4 1 1\n");
	static const char wt[] = STREAM("e", 100,
		CWASM(0, "0x1000", "wasm[0]::function[1]::hash") CWASM(1, "0x2000", "wasm[0]::function[3]")
		LOOP(2, "0x3000", "mix") CWASM(3, "0x4000", "wasm[0]::function[7]::interp")
		CWASM(4, "0x5000", "wasm[0]::function[0]::start")
		"sample 0 0 0x4 60 1\nsample 1 0 0x4 3 1\nsample 2 0 0x4 25 1\nsample 3 0 0x4 4 1\n"
		"sample 4 0 0x4 1 1\n");
	struct diff_opts apart = defaults;

	apart.tiers_apart = true;
	for (int together = 0; together < 2; together++) {
		/* the names of V8's functions: the code's, or without the tier */
		const char *hash = together ? "JS:hash-1" : "JS:hash-1-turbofan";
		const char *wf3 = together ? "JS:wasm-function[3]-3" : "JS:wasm-function[3]-3-liftoff";
		const char *mix = together ? "JS:mix-2" : "JS:mix-2-turbofan";
		const char *run = together ? "JS:run-0" : "JS:run-0-turbofan";
		struct diff d;
		size_t seen = 0;

		assert_int_equal(compare(&d, v8, wt, together ? &defaults : &apart), 0);
		for (size_t i = 0; i < d.funcs_nr; i++) {
			const struct diff_func *f = &d.funcs[i];
			const char *b = f->raw_name[DIFF_BASE], *n = f->raw_name[DIFF_NEW];

			if (b && !strcmp(b, hash)) {
				assert_string_equal(n, "wasm[0]::function[1]::hash");
				assert_int_equal(f->match, DIFF_FUNC_WASM);
				assert_int_equal(f->wasm_func, 1);
				assert_int_equal(f->samples[DIFF_BASE], together ? 52 : 50);
				assert_int_equal(f->tiers_nr[DIFF_BASE], together ? 2 : 0);
				assert_int_equal(f->obj[DIFF_BASE], 0);	/* TurboFan's blocks */
				if (together) {
					assert_string_equal(d.tiers[f->first_tier[DIFF_BASE]].tier, "turbofan");
					assert_int_equal(d.tiers[f->first_tier[DIFF_BASE]].samples, 50);
					assert_string_equal(d.tiers[f->first_tier[DIFF_BASE] + 1].tier, "liftoff");
					assert_int_equal(d.tiers[f->first_tier[DIFF_BASE] + 1].samples, 2);
					assert_string_equal(f->block_name[DIFF_BASE], "JS:hash-1-turbofan");
				}
				seen++;
			} else if (b && !strcmp(b, wf3)) {
				assert_string_equal(n, "wasm[0]::function[3]");
				assert_int_equal(f->match, DIFF_FUNC_WASM);
				assert_int_equal(f->wasm_func, 3);
				seen++;
			} else if (b && !strcmp(b, mix)) {
				assert_string_equal(n, "mix");
				assert_int_equal(f->match, DIFF_FUNC_NAME);
				assert_int_equal(f->wasm_func, -1);
				seen++;
			} else if (b && !strcmp(b, "interp")) {
				assert_string_equal(n, "wasm[0]::function[7]::interp");
				assert_int_equal(f->match, DIFF_FUNC_NAME);
				seen++;
			} else {
				/* (apart: Liftoff's hash), run (index 0) and start (index 0,
				 * another name) */
				assert_int_equal(f->match, DIFF_FUNC_NONE);
				assert_true(!b || (!together && !strcmp(b, "JS:hash-1-liftoff")) || !strcmp(b, run));
				assert_true(!n || !strcmp(n, "wasm[0]::function[0]::start"));
				seen += 10;
			}
		}
		assert_int_equal(seen, together ? 24 : 34);
		release(&d);
	}
}

/*
 * --counts with several runs a side compares samples per run: 3 runs of
 * 100, 110 and 120 samples in f against one of 100 is +10 a run less.
 */
static void counts_are_per_run(void **state)
{
	static const char run1[] = STREAM("e", 200, LOOP(0, "0x1000", "f") "sample 0 0 0x4 100 1\n");
	static const char run2[] = STREAM("e", 200, LOOP(0, "0x2000", "f") "sample 0 0 0x4 110 1\n");
	static const char run3[] = STREAM("e", 200, LOOP(0, "0x3000", "f") "sample 0 0 0x4 120 1\n");
	char base[4096];
	struct diff_opts o = defaults;
	struct diff d;
	char *text = NULL;
	size_t len = 0;
	struct render_opts ro = { 0 };
	FILE *f;

	snprintf(base, sizeof(base), "%s%s%s", run1, run2, run3);
	o.counts = true;
	assert_int_equal(compare(&d, base, run1, &o), 0);
	assert_int_equal(d.runs[DIFF_BASE], 3);
	assert_int_equal(d.runs[DIFF_NEW], 1);
	assert_true(d.per_run);
	assert_int_equal(d.funcs_nr, 1);
	assert_int_equal(d.funcs[0].delta_samples, -230);
	assert_true(d.funcs[0].delta_per_run == -10.0);
	assert_int_equal(d.funcs[0].sign, -1);
	assert_true(d.noise.model.df > 0);	/* three runs: the spread measured */
	assert_false(d.funcs[0].test.significant);
	f = open_memstream(&text, &len);
	assert_int_equal(render_diff_text(f, &d, &ro), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(text, "Samples per run of each side"));
	assert_non_null(strstr(text, "      110.0      100.0      -10.0   identity    `f`"));
	free(text);
	release(&d);
	(void)state;
}

static void wire_names(void **state)
{
	assert_string_equal(diff__key_name(DIFF_KEY_CODE), "code");
	assert_string_equal(diff__key_name(DIFF_KEY_WASM), "wasm");
	assert_string_equal(diff__key_name(DIFF_KEY_SOURCE), "source");
	assert_string_equal(diff__key_name(DIFF_KEY_ASM), "asm");
	assert_null(diff__key_name(DIFF_KEY_NONE));
	assert_null(diff__key_name((enum diff_key)99));
	assert_string_equal(diff__func_match_name(DIFF_FUNC_IDENTITY), "identity");
	assert_string_equal(diff__func_match_name(DIFF_FUNC_NAME), "name");
	assert_string_equal(diff__func_match_name(DIFF_FUNC_WASM), "wasm");
	assert_null(diff__func_match_name(DIFF_FUNC_NONE));
}

/*
 * A change within noise is neutral: f 40% -> 40.5% of 10000 and 5000
 * samples (p 0.79 by the test with the spread assumed, interval [-3.22,
 * +4.22] points; sampling alone, the two-proportion z-test gives z 0.59,
 * p 0.56, by hand) is not marked; its box and cell are white (no change), its number dimmed, and
 * the text prints no '*'; f's own test says the same.
 */
static void within_noise_is_neutral(void **state)
{
	static const char base[] = STREAM("cpu-clock", 10000, LOOP(0, "0x1000", "f")
					  "sample 0 0 0x4 4000 1\n");
	static const char nw[] = STREAM("cpu-clock", 5000, LOOP(0, "0x9000", "f")
					"sample 0 0 0x4 2025 1\n");
	struct render_opts ro = { 0 };
	struct diff_opts o = defaults;
	struct diff d;
	char *page = NULL, *box;
	size_t len = 0;
	FILE *f;

	o.min_delta = 0;
	assert_int_equal(compare(&d, base, nw, &o), 0);
	assert_int_equal(d.shown_nr, 1);
	assert_int_equal(d.pairs[0].sign, 1);
	assert_true(d.pairs[0].test.tested);
	assert_false(d.pairs[0].test.significant);
	assert_int_equal(d.pairs[0].mark, 0);
	assert_true(d.pairs[0].test.lo < 0 && d.pairs[0].test.hi > 0);
	assert_true(d.pairs[0].test.p > 0.05 && d.pairs[0].test.q >= d.pairs[0].test.p);
	assert_false(d.funcs[0].test.significant);
	assert_int_equal(d.noise.significant_blocks, 0);
	f = open_memstream(&page, &len);
	assert_int_equal(render_diff_html(f, &d, &ro), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(page, "<td class=\"n delta ns\" style=\"background:#ffffff;color:#767676\">"
			       "+0.50%</td>"));
	box = box_of(page, "d0n-b4");
	assert_non_null(strstr(box, "fill=\"#ffffff\""));
	assert_non_null(strstr(box, "0x4  +0.50%<"));
	free(box);
	free(page);
	page = NULL;
	f = open_memstream(&page, &len);
	assert_int_equal(render_diff_text(f, &d, &ro), 0);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(page, "     40.00%     40.50%     +0.50%   code 100%"));
	assert_null(strstr(page, "%*"));
	free(page);
	release(&d);
	(void)state;
}
int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(shares_deltas_and_the_default_threshold),
		cmocka_unit_test(functions_without_code_are_compared),
		cmocka_unit_test(options_change_what_is_compared),
		cmocka_unit_test(events_by_name),
		cmocka_unit_test(function_selects_on_either_side),
		cmocka_unit_test(tiers_pair_first),
		cmocka_unit_test(wire_names),
		cmocka_unit_test(signs_and_changes),
		cmocka_unit_test(within_noise_is_neutral),
		cmocka_unit_test(wasm_functions_pair_across_engines),
		cmocka_unit_test(counts_are_per_run),
		cmocka_unit_test(html_page_rows),
		cmocka_unit_test(html_page_boxes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

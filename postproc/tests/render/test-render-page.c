// SPDX-License-Identifier: MIT
/*
 * Unit tests of the HTML page (render-html.c): self-contained, the profiled
 * program's text escaped, within its budget. The real recordings' pages are
 * checked in a browser by scripts/tests/html-report.sh.
 */
#define _GNU_SOURCE	/* open_memstream */
#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render-fixture.h"

/*
 * The page: self-contained (nothing it would fetch: no src, no link, no
 * url(), no http(s) but the SVG namespace), the profiled program's text
 * escaped (a function named like a script tag stays text), the header facts.
 */
static void page_is_self_contained_and_escaped(void **state)
{
	struct fixture x;
	char *page;

	fixture__build(&x, loops, 50.0, false);
	page = render_to_string(render_html, &x.rep);
	assert_true(!strncmp(page, "<!DOCTYPE html>\n", 16));
	assert_non_null(strstr(page, "</html>\n"));
	assert_int_equal(count(page, "<script"), 1);
	assert_int_equal(count(page, "</script>"), 1);
	assert_non_null(strstr(page, "&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;"));
	assert_null(strstr(page, " src="));
	assert_null(strstr(page, "<link"));
	assert_null(strstr(page, "url("));
	assert_null(strstr(page, "@import"));
	/* (the script names the namespaces of the drawings it builds) */
	assert_int_equal(count(page, "http"), count(page, "http://www.w3.org/2000/svg") +
						   count(page, "'http://www.w3.org/XML/1998/namespace'") +
						   count(page, "http-equiv=\"Content-Security-Policy\""));
	assert_non_null(strstr(page, "default-src 'none'"));
	/* the header: total, JIT samples, the functions hottest first */
	assert_non_null(strstr(page, "id=\"totals\" data-total=\"100\" data-jit=\"83\""));
	assert_int_equal(count(page, "<section class=\"func\""), 2);
	assert_non_null(strstr(page, "<section class=\"func\" id=\"f0\" data-samples=\"42\" "
				     "data-address=\"4096\" data-pid=\"7\" data-hot=\"f0-l5\" "
				     "data-name=\"&lt;script&gt;"));
	assert_true(strstr(page, "id=\"f0\" data-samples=\"42\"") <
		    strstr(page, "id=\"f1\" data-samples=\"41\""));
	assert_non_null(strstr(page, "<tr data-func=\"f0\">"));
	assert_int_equal(count(page, "<svg xmlns="), 2);
	/* each opens at its hottest block: the loop's at 0x5 */
	assert_non_null(strstr(page, "data-hot=\"f0-l5\" "
				     "data-name=\"&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;\">"));
	/* no budget: nothing said to be left out */
	assert_null(strstr(page, "id=\"budget\""));
	free(page);
	fixture__release(&x);
}

/* Whether rep's page at budget fits (less: -E2BIG, no page fits) and holds needle. */
static bool fits_with(const struct report *rep, struct render_opts *o, size_t budget,
		      const char *needle)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int ret;
	bool yes;

	o->page_budget = budget;
	assert_non_null(f = open_memstream(&buf, &len));
	ret = render_html(f, rep, o);
	assert_int_equal(fclose(f), 0);
	if (ret)
		assert_int_equal(ret, -E2BIG);
	yes = !ret && strstr(buf, needle);
	free(buf);
	return yes;
}

/* The least budget at which rep's page holds needle, past the least that
 * any page fits (a table shrinks to fit a small budget: its rows of the
 * functions left out go first; a little more room and they are in the
 * page), its page into *page. */
static void least_budget(const struct report *rep, struct render_opts *o, const char *needle,
			   char **page)
{
	size_t lo = 0, hi = 1, len = 0;	/* lo does not fit, hi does */
	FILE *f;

	while (!fits_with(rep, o, hi, ""))
		lo = hi, hi *= 2;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (fits_with(rep, o, mid, ""))
			hi = mid;
		else
			lo = mid;
	}
	/* then up, in small steps: a little more room and it is in the page */
	for (lo = hi + (1 << 16); hi < lo && !fits_with(rep, o, hi, needle); hi += 32)
		;
	assert_true(hi < lo);
	o->page_budget = hi;
	assert_non_null(f = open_memstream(page, &len));
	assert_int_equal(render_html(f, rep, o), 0);
	assert_int_equal(fclose(f), 0);
	assert_true(len <= hi);
}

/*
 * Budgets. One byte less than the whole page: as markup it does not
 * fit, so the page carries the listings and graphs as data, and both
 * functions go in. One byte: no page fits (-E2BIG). The least budget
 * that holds the page without its functions: both go, and says so, and
 * the loop's command has its name shell-quoted, then escaped for the page;
 * as the loop does not fit even a page of its own, the command shows it
 * with no budget (--page-budget 0), not this same page again.
 */
static void page_budget_takes_data_then_leaves_out(void **state)
{
	struct fixture x;
	struct render_opts o = { .command = "hotblocks --cwasm 'a b' s.hbs" };
	char *buf = NULL, *full;
	size_t len = 0;
	FILE *f;

	fixture__build(&x, loops, 50.0, false);
	full = render_to_string(render_html, &x.rep);
	assert_int_equal(count(full, "class=\"fdata\""), 0);
	o.page_budget = strlen(full) - 1;
	assert_non_null(f = open_memstream(&buf, &len));
	assert_int_equal(render_html(f, &x.rep, &o), 0);
	assert_int_equal(fclose(f), 0);
	assert_true(len <= o.page_budget);
	assert_int_equal(count(buf, "<section class=\"func\""), 2);
	assert_int_equal(count(buf, "<script type=\"application/json\" class=\"fdata\" id=\"f0-data\">"), 1);
	assert_int_equal(count(buf, "class=\"fdata\""), 2);
	assert_null(strstr(buf, "id=\"budget\""));
	free(buf);

	o.page_budget = 1;
	assert_non_null(f = open_memstream(&buf, &len));
	assert_int_equal(render_html(f, &x.rep, &o), -E2BIG);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(len, 0);
	free(buf);
	buf = NULL;
	least_budget(&x.rep, &o, "<tr class=\"out\"><td class=\"n\">2</td>", &buf);
	assert_int_equal(count(buf, "<section class=\"func\""), 0);
	assert_non_null(strstr(buf, "data-left-out=\"2\">This page holds <b>0</b> of the 2"));
	assert_non_null(strstr(buf, "<tr class=\"out\"><td class=\"n\">1</td><td>&lt;script&gt;"));
	assert_non_null(strstr(buf, "<code class=\"cmd\">hotblocks --html=f1.html --page-budget 0 --function "
				    "&#39;&lt;script&gt;alert(1)&lt;/script&gt;&amp;amp;&#39; --cwasm "
				    "&#39;a b&#39; s.hbs</code>"));
	free(buf);
	free(full);
	fixture__release(&x);
}

/* A name with a quote: closed, escaped, opened again ('\''). */
static void left_out_command_quotes_a_quote(void **state)
{
	struct fixture x;
	struct render_opts o = { .command = "hotblocks s.hbs" };
	char *buf = NULL;

	fixture__build(&x, "hotblocks-stream 1\nevent 0 e\ntotal 0 all 3 3\n"
	      "object 0 jit pid=1 e_machine=62 addr=0x1000 size=16 code-index=0 load-time=1 "
	      "dump=d name=it's\ncode 0 0x0 " LOOP_CODE "\nsample 0 0 0x5 3 3\nend\n", 50.0, false);
	least_budget(&x.rep, &o, "<tr class=\"out\">", &buf);
	assert_non_null(strstr(buf, "--function &#39;it&#39;\\&#39;&#39;s&#39; s.hbs</code>"));
	free(buf);
	fixture__release(&x);
}

/*
 * A function too big for a page of its own: its hottest region. A function
 * of 400 blocks "test eax, eax; je +1; nop" (0x85c0 7401 90, each a block
 * of the test and je, and one of the nop), then ret; samples on the test of
 * blocks 0, 100, 200 and 300 (40, 30, 20, 10) and on a nop (5). At the least
 * budget that shows a region: at most that, the region its hottest blocks,
 * the blocks one step away as stubs (a header, no rows), the rest listed:
 * every sample of the function in the region or the rest.
 */
static void region_of_a_function_too_big(void **state)
{
	struct fixture x;
	struct render_opts o = { .command = "hotblocks s.hbs" };
	char *stream = NULL, *buf = NULL;
	size_t slen = 0;
	const char *p, *r;
	unsigned long blocks, stubs, samples, rest_blocks, rest_samples;
	FILE *f;

	assert_non_null(f = open_memstream(&stream, &slen));
	fputs("hotblocks-stream 1\nevent 0 cycles\ntotal 0 all 105 105\n"
	      "object 0 jit pid=7 e_machine=62 addr=0x1000 size=2001 code-index=0 load-time=1 dump=d"
	      " name=big\ncode 0 0x0 ", f);
	for (int i = 0; i < 400; i++)
		fputs("85c0740190", f);
	fputs("c3\nsample 0 0 0x0 40 40\nsample 0 0 0x1f4 30 30\nsample 0 0 0x3e8 20 20\n"
	      "sample 0 0 0x5dc 10 10\nsample 0 0 0x9 5 5\nend\n", f);
	assert_int_equal(fclose(f), 0);
	fixture__build(&x, stream, 100.0, false);
	least_budget(&x.rep, &o, "<p class=\"region\"", &buf);
	assert_true(strlen(buf) <= o.page_budget);
	assert_non_null(p = strstr(buf, "<p class=\"region\""));
	assert_int_equal(sscanf(p, "<p class=\"region\" data-blocks=\"%lu\" data-stubs=\"%lu\" "
				"data-samples=\"%lu\"", &blocks, &stubs, &samples), 3);
	assert_non_null(r = strstr(buf, "<table class=\"rest\""));
	assert_int_equal(sscanf(r, "<table class=\"rest\" data-blocks=\"%lu\" data-samples=\"%lu\"",
				&rest_blocks, &rest_samples), 2);
	/* the hottest first: block 0's 40 samples */
	assert_true(blocks >= 1 && samples >= 40);
	assert_int_equal(blocks + rest_blocks, 5);
	assert_int_equal(samples + rest_samples, 105);
	assert_true(stubs >= 1);
	assert_int_equal(count(buf, " stub\" id="), stubs);
	/* a stub: its header row, then its end */
	for (const char *t = buf; (t = strstr(t, " stub\" id=")); t++)
		assert_ptr_equal(strstr(t, "</tr>\n"), strstr(t, "</tr>\n</tbody>"));
	assert_non_null(strstr(p, "<code class=\"cmd\">hotblocks --html=f1.html --page-budget 0"
				  " --function &#39;big&#39; s.hbs</code>"));
	free(buf);
	free(stream);
	fixture__release(&x);
}

/* --all with a function that has no code: listed, without a graph, with
 * why and its samples by offset */
static void all_lists_a_function_without_code(void **state)
{
	struct fixture x;
	char *page;

	fixture__build(&x, "hotblocks-stream 1\nevent 0 e\ntotal 0 all 3 3\n"
	      "object 0 cwasm pid=1 e_machine=62 addr=0x3000 size=16 dso=m.cwasm sym-start=0x0 name=g\n"
	      "sample 0 0 0x4 3 3\nend\n", 50.0, true);
	page = render_to_string(render_html, &x.rep);
	assert_int_equal(count(page, "<section class=\"func\""), 1);
	assert_non_null(strstr(page, "<p class=\"nocode\">no instructions: the stream has no code"
				     " bytes for it (the plugin could not read m.cwasm).</p>"));
	assert_int_equal(count(page, "<td>100.00%<td>3<td>g+0x4</tr>"), 1);
	assert_int_equal(count(page, "<svg xmlns="), 0);
	free(page);
	fixture__release(&x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(page_is_self_contained_and_escaped),
		cmocka_unit_test(page_budget_takes_data_then_leaves_out),
		cmocka_unit_test(left_out_command_quotes_a_quote),
		cmocka_unit_test(all_lists_a_function_without_code),
		cmocka_unit_test(region_of_a_function_too_big),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* Unit tests of the heat colour scale (postproc/render/graph/heat.c) and the HTML escaping (postproc/lib/html.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render/graph/change-scale.h"
#include "render/graph/heat.h"
#include "render/html/html-page.h"
#include "lib/html.h"

/* Relative luminance, computed here from the WCAG 2 definition, not heat.c's. */
static double lum(uint32_t rgb)
{
	double c[3];

	for (int i = 0; i < 3; i++) {
		double v = ((rgb >> (16 - 8 * i)) & 0xff) / 255.0;

		c[i] = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
	}
	return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

static void contrast_values(void **state)
{
	/* Known WCAG figures: black on white 21:1, #777777 on white 4.48:1. */
	assert_true(fabs(heat__contrast(0x000000, 0xffffff) - 21.0) < 1e-9);
	assert_true(fabs(heat__contrast(0xffffff, 0x000000) - 21.0) < 1e-9);
	assert_true(fabs(heat__contrast(0x777777, 0xffffff) - 4.48) < 0.01);
	assert_true(fabs(heat__contrast(0x123456, 0x123456) - 1.0) < 1e-9);
}

static void scale_positions(void **state)
{
	struct heat_scale s;

	heat_scale__init(&s, 0.2);
	assert_true(fabs(s.hi - 0.2) < 1e-12);
	assert_true(fabs(s.lo - 0.0002) < 1e-12);
	assert_true(heat_scale__position(&s, 0.2) == 1);
	assert_true(heat_scale__position(&s, 0.9) == 1);	/* above the hottest shown */
	assert_true(heat_scale__position(&s, 0.0002) == 0);
	assert_true(heat_scale__position(&s, 1e-9) == 0);	/* sampled, but faint */
	/* One decade of three: a third of the way per decade. */
	assert_true(fabs(heat_scale__position(&s, 0.002) - 1.0 / 3) < 1e-9);
	assert_true(fabs(heat_scale__position(&s, 0.02) - 2.0 / 3) < 1e-9);
	assert_true(heat_scale__position(&s, 0) == -1);
	assert_true(heat_scale__position(&s, -0.5) == -1);
	assert_true(heat_scale__position(&s, NAN) == -1);
	/* Nothing sampled, or nonsense: the scale is 0..1. */
	heat_scale__init(&s, 0);
	assert_true(s.hi == 1);
	heat_scale__init(&s, NAN);
	assert_true(s.hi == 1);
	heat_scale__init(&s, 7);
	assert_true(s.hi == 1);
}

static void colours(void **state)
{
	struct heat_scale s;
	struct heat_colour c, prev;
	char buf[8];

	heat_scale__init(&s, 0.5);
	/* No sample: the neutral grey, whatever the scale. */
	c = heat_scale__colour(&s, 0);
	assert_int_equal(c.fill, HEAT_NONE_FILL);
	assert_int_equal(c.ink, HEAT_NONE_INK);
	/* The ends are ColorBrewer YlOrRd's first and last colours. */
	assert_int_equal(heat_scale__colour(&s, 1e-7).fill, 0xffffcc);
	assert_int_equal(heat_scale__colour(&s, 0.5).fill, 0x800026);
	assert_int_equal(heat__ramp(0.5).fill, 0xfd8d3c);	/* the middle class */
	/* Hotter is darker, all along: strictly from step to step of 1/20; in
	 * steps of 1/1000 the 8-bit rounding of one channel may add at most
	 * one level of blue (0.0722 * 0.01 of luminance). */
	for (int i = 1; i <= 20; i++)
		assert_true(lum(heat__ramp(i / 20.0).fill) < lum(heat__ramp((i - 1) / 20.0).fill));
	prev = heat__ramp(0);
	assert_int_not_equal(prev.fill, HEAT_NONE_FILL);
	for (int i = 1; i <= 1000; i++) {
		c = heat__ramp(i / 1000.0);
		assert_true(lum(c.fill) <= lum(prev.fill) + 0.001);
		/* The text colour is the better of black and white, and reads (AA: 4.5). */
		assert_true(heat__contrast(c.fill, c.ink) >= 4.5);
		assert_true(heat__contrast(c.fill, c.ink) >=
			    heat__contrast(c.fill, c.ink == 0 ? 0xffffff : 0x000000));
		prev = c;
	}
	assert_true(heat__contrast(HEAT_NONE_FILL, HEAT_NONE_INK) >= 4.5);
	/* Black text on the faint end, white on the hot end. */
	assert_int_equal(heat__ramp(0).ink, 0x000000);
	assert_int_equal(heat__ramp(1).ink, 0xffffff);
	assert_string_equal(heat__css(buf, 0x0a0b0c), "#0a0b0c");
	assert_string_equal(heat__css(buf, 0xff123456), "#123456");
}

static char *escaped(const char *s, size_t n)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(html_escape(f, s, n), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* The change scale: reds for more, greens for less, white for none; darker
 * the larger, on the heat scale's decades. */
static void change_colours(void **state)
{
	struct heat_scale s;
	double prev_r = 1, prev_g = 1;

	heat_scale__init(&s, 0.2);
	assert_int_equal(change_scale__colour(&s, 0, 0.2).fill, CHANGE_SAME_FILL);
	assert_int_equal(change_scale__colour(&s, 0, 0).fill, CHANGE_SAME_FILL);
	/* the ends: ColorBrewer's darkest Reds and Greens; the faintest at and below lo */
	assert_int_equal(change_scale__colour(&s, 1, 0.2).fill, 0x67000d);
	assert_int_equal(change_scale__colour(&s, -1, 0.5).fill, 0x00441b);
	assert_int_equal(change_scale__colour(&s, 1, 0.0002).fill, 0xfee0d2);
	assert_int_equal(change_scale__colour(&s, -1, 1e-9).fill, 0xe5f5e0);
	assert_int_equal(change_scale__colour(&s, -1, 0).fill, 0xe5f5e0);
	/* red is red and green green all the way, each darker as the change grows */
	for (double m = 0.0002; m <= 0.2; m *= 1.5) {
		struct heat_colour r = change_scale__colour(&s, 1, m), g = change_scale__colour(&s, -1, m);
		double lr = 1 / heat__contrast(r.fill, 0xffffff), lg = 1 / heat__contrast(g.fill, 0xffffff);

		assert_true((r.fill >> 16) > ((r.fill >> 8) & 0xff));
		assert_true(((g.fill >> 8) & 0xff) > (g.fill >> 16));
		assert_true(lr <= prev_r && lg <= prev_g);
		prev_r = lr;
		prev_g = lg;
		/* the ink reads on it */
		assert_true(heat__contrast(r.fill, r.ink) >= 4.5);
		assert_true(heat__contrast(g.fill, g.ink) >= 4.5);
	}
	(void)state;
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static void change_legend(void **state)
{
	struct heat_scale s;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	heat_scale__init(&s, 0.2);
	html_page__change_legend(f, &s, "change <pts>");
	assert_int_equal(fclose(f), 0);
	/* 4 decades each way, no change, no samples */
	assert_int_equal(count(buf, "class=\"sw\""), 10);
	assert_non_null(strstr(buf, "<span class=\"what\">change &lt;pts&gt;</span>"));
	assert_non_null(strstr(buf, "background:#67000d;color:#ffffff\">+20</span>"));
	assert_non_null(strstr(buf, ">+&le;0.02</span>"));
	assert_non_null(strstr(buf, "background:#ffffff;color:#000000\">no change</span>"));
	assert_non_null(strstr(buf, "background:#00441b;color:#ffffff\">&minus;20</span>"));
	/* more first: the reds before no change before the greens */
	assert_true(strstr(buf, "+20") < strstr(buf, "no change"));
	assert_true(strstr(buf, "no change") < strstr(buf, "&minus;&le;0.02"));
	assert_true(strstr(buf, "&minus;&le;0.02") < strstr(buf, "&minus;20"));
	free(buf);
	(void)state;
}

static void escaping(void **state)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "", "" },
		{ "plain text", "plain text" },
		{ "<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;" },
		{ "a&b \"q\" 'a'", "a&amp;b &quot;q&quot; &#39;a&#39;" },
		/* an entity in a name stays text: */
		{ "&lt;", "&amp;lt;" },
		/* C++ and V8 names as profiles have them */
		{ "std::vector<int>::push_back(int&&)", "std::vector&lt;int&gt;::push_back(int&amp;&amp;)" },
		{ "JS:*work /srv/app/hot.js:5:14", "JS:*work /srv/app/hot.js:5:14" },
		/* valid UTF-8 passes, tab and line feed too */
		{ "caf\xc3\xa9 \xe2\x82\xac\t\n", "caf\xc3\xa9 \xe2\x82\xac\t\n" },
		/* not UTF-8, controls: U+FFFD each */
		{ "a\xff" "b", "a\xef\xbf\xbd" "b" },
		{ "\xc3(", "\xef\xbf\xbd(" },
		{ "x\x01y\x1b[0m\r\x7f", "x\xef\xbf\xbdy\xef\xbf\xbd[0m\xef\xbf\xbd\xef\xbf\xbd" },
		{ "\xc2\x85", "\xef\xbf\xbd" },	/* C1 NEL */
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = escaped(cases[i].in, strlen(cases[i].in));

		assert_string_equal(got, cases[i].out);
		free(got);
	}
	/* A NUL inside the given length is a control character too. */
	{
		char *got = escaped("a\0b", 3);

		assert_string_equal(got, "a\xef\xbf\xbd" "b");
		free(got);
	}
}

static void sanitizing(void **state)
{
	char *s;

	s = text_sanitize("ok \xe2\x82\xac", 6, false);
	assert_string_equal(s, "ok \xe2\x82\xac");
	free(s);
	s = text_sanitize("a\nb\tc\x01\xfe", 7, false);
	assert_string_equal(s, "a b c \xef\xbf\xbd");
	free(s);
	s = text_sanitize("a\nb", 3, true);
	assert_string_equal(s, "a\nb");
	free(s);
	/* Every byte bad: three times as long, and still terminated. */
	s = text_sanitize("\x80\x80\x80", 3, false);
	assert_string_equal(s, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
	free(s);
	s = text_sanitize("", 0, false);
	assert_string_equal(s, "");
	free(s);
}

/* html_page__short: at most max bytes, never half a character, "..." (U+2026) when cut. */
static void short_titles(void **state)
{
	char buf[32];

	(void)state;
	assert_string_equal(html_page__short(buf, sizeof(buf), "abcdef", 6), "abcdef");
	assert_string_equal(html_page__short(buf, sizeof(buf), "abcdefg", 6), "abcdef\xe2\x80\xa6");
	/* "ab" + U+20AC (3 bytes): a cut at 4 leaves the euro sign out whole */
	assert_string_equal(html_page__short(buf, sizeof(buf), "ab\xe2\x82\xac", 4), "ab\xe2\x80\xa6");
	assert_string_equal(html_page__short(buf, sizeof(buf), "ab\xe2\x82\xac", 5), "ab\xe2\x82\xac");
	assert_string_equal(html_page__short(buf, sizeof(buf), "", 6), "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(contrast_values),
		cmocka_unit_test(scale_positions),
		cmocka_unit_test(colours),
		cmocka_unit_test(change_colours),
		cmocka_unit_test(change_legend),
		cmocka_unit_test(escaping),
		cmocka_unit_test(sanitizing),
		cmocka_unit_test(short_titles),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

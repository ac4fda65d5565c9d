/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of postproc/lib/json-writer.c. Every expected text is written
 * out by hand from the rules of json-writer.h; each one was also given to
 * node's JSON.parse, which took them all, and gave back the characters
 * written in where no byte was replaced (the controls, valid UTF-8, the
 * C1 and bidi controls, U+2028, the markup of a page).
 */
#define _GNU_SOURCE	/* open_memstream, fmemopen */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/json-writer.h"

/* A writer into memory. */
struct doc {
	char *buf;
	size_t len;
	FILE *f;
	struct json_writer w;
};

static void doc_open(struct doc *d, enum json_style style)
{
	d->buf = NULL;
	d->len = 0;
	d->f = open_memstream(&d->buf, &d->len);
	assert_non_null(d->f);
	json_writer__init(&d->w, d->f, style);
}

/* json_writer__finish's result; d->buf holds what was written. */
static int doc_close(struct doc *d)
{
	int ret = json_writer__finish(&d->w);

	assert_int_equal(fclose(d->f), 0);
	return ret;
}

/* s[0..n) as json_write_string writes it in style. */
static char *string_of(const char *s, size_t n, enum json_style style)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(json_write_string(f, s, n, style), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void check_string(const char *s, size_t n, enum json_style style, const char *want)
{
	char *got = string_of(s, n, style);

	assert_string_equal(got, want);
	free(got);
}

/* Lines and inline containers, commas, an empty container, the line feed at the end. */
static void documents_nest_and_lay_out(void **state)
{
	struct doc d;

	(void)state;
	doc_open(&d, JSON_DOCUMENT);
	json_writer__object(&d.w, NULL, JSON_LINES);
	json_writer__str(&d.w, "format", "hotblocks");
	json_writer__u64(&d.w, "version", 1);
	json_writer__array(&d.w, "events", JSON_INLINE);
	json_writer__str(&d.w, NULL, "cycles");
	json_writer__str(&d.w, NULL, "instructions");
	json_writer__end(&d.w);
	json_writer__array(&d.w, "runs", JSON_LINES);
	json_writer__object(&d.w, NULL, JSON_INLINE);
	json_writer__u64(&d.w, "run", 0);
	json_writer__null(&d.w, "input");
	json_writer__end(&d.w);
	json_writer__object(&d.w, NULL, JSON_INLINE);
	json_writer__end(&d.w);
	json_writer__end(&d.w);
	json_writer__array(&d.w, "none", JSON_LINES);
	json_writer__end(&d.w);
	json_writer__object(&d.w, "f", JSON_LINES);
	json_writer__bool(&d.w, "a", true);
	json_writer__array(&d.w, "b", JSON_LINES);
	json_writer__array(&d.w, NULL, JSON_INLINE);
	json_writer__end(&d.w);
	json_writer__end(&d.w);
	json_writer__end(&d.w);
	json_writer__end(&d.w);
	assert_int_equal(doc_close(&d), 0);
	assert_string_equal(d.buf,
			    "{\n"
			    "  \"format\": \"hotblocks\",\n"
			    "  \"version\": 1,\n"
			    "  \"events\": [\"cycles\", \"instructions\"],\n"
			    "  \"runs\": [\n"
			    "    {\"run\": 0, \"input\": null},\n"
			    "    {}\n"
			    "  ],\n"
			    "  \"none\": [],\n"
			    "  \"f\": {\n"
			    "    \"a\": true,\n"
			    "    \"b\": [\n"
			    "      []\n"
			    "    ]\n"
			    "  }\n"
			    "}\n");
	free(d.buf);
}

/* A break starts the next member on a line at its depth; a layout changes
 * the members after it and the end. */
static void breaks_and_layout_changes(void **state)
{
	struct doc d;

	(void)state;
	doc_open(&d, JSON_DOCUMENT);
	json_writer__object(&d.w, NULL, JSON_LINES);
	json_writer__object(&d.w, "noise", JSON_INLINE);
	json_writer__str(&d.w, "method", "newcombe");
	json_writer__break(&d.w);
	json_writer__object(&d.w, "spread", JSON_INLINE);
	json_writer__bool(&d.w, "measured", false);
	json_writer__break(&d.w);
	json_writer__u64(&d.w, "base", 1);
	json_writer__u64(&d.w, "new", 2);
	json_writer__end(&d.w);
	json_writer__end(&d.w);
	json_writer__object(&d.w, "func", JSON_LINES);
	json_writer__i64(&d.w, "delta_samples", -3);
	json_writer__layout(&d.w, JSON_INLINE);
	json_writer__bool(&d.w, "significant", false);
	json_writer__null(&d.w, "p");
	json_writer__layout(&d.w, JSON_LINES);
	json_writer__bool(&d.w, "compared", true);
	json_writer__end(&d.w);
	json_writer__end(&d.w);
	assert_int_equal(doc_close(&d), 0);
	assert_string_equal(d.buf,
			    "{\n"
			    "  \"noise\": {\"method\": \"newcombe\",\n"
			    "    \"spread\": {\"measured\": false,\n"
			    "      \"base\": 1, \"new\": 2}},\n"
			    "  \"func\": {\n"
			    "    \"delta_samples\": -3, \"significant\": false, \"p\": null,\n"
			    "    \"compared\": true\n"
			    "  }\n"
			    "}\n");
	free(d.buf);
}

/* A page's data: no spaces, breaks without indent, nothing after the end;
 * a value by the caller lands in its place. */
static void script_data_is_compact(void **state)
{
	struct doc d;
	FILE *g;

	(void)state;
	doc_open(&d, JSON_SCRIPT);
	json_writer__object(&d.w, NULL, JSON_INLINE);
	json_writer__str(&d.w, "p", "f0");
	json_writer__array(&d.w, "c", JSON_INLINE);
	json_writer__str(&d.w, NULL, "clif");
	json_writer__str(&d.w, NULL, "src");
	json_writer__end(&d.w);
	json_writer__u64(&d.w, "n", 6);
	json_writer__array(&d.w, "b", JSON_INLINE);
	for (int i = 0; i < 2; i++) {
		json_writer__break(&d.w);
		json_writer__array(&d.w, NULL, JSON_INLINE);
		json_writer__u64(&d.w, NULL, (uint64_t)i);
		json_writer__i64(&d.w, NULL, -1);
		json_writer__end(&d.w);
	}
	json_writer__end(&d.w);
	json_writer__break(&d.w);
	json_writer__null(&d.w, "t");
	json_writer__break(&d.w);
	g = json_writer__value_by_caller(&d.w, "g");
	assert_ptr_equal(g, d.f);
	fputs("{\"id\":\"f0\"}", g);
	json_writer__end(&d.w);
	assert_int_equal(doc_close(&d), 0);
	assert_string_equal(d.buf, "{\"p\":\"f0\",\"c\":[\"clif\",\"src\"],\"n\":6,\"b\":[\n[0,-1],\n[1,-1]],\n"
			    "\"t\":null,\n\"g\":{\"id\":\"f0\"}}");
	free(d.buf);
}

/* Every C0 control and DEL: by name or \u00XX in a document, U+FFFD in a
 * page (but tab and line feed, by name). */
static void every_control_byte_is_escaped(void **state)
{
	char in[34];
	size_t n = 0;

	(void)state;
	for (int c = 1; c < 0x20; c++)
		in[n++] = (char)c;
	in[n++] = 0x7f;
	in[n] = '\0';
	check_string(in, n, JSON_DOCUMENT,
		     "\"\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\u0008\\t\\n\\u000b\\u000c\\r"
		     "\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018"
		     "\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f\\u007f\"");
	check_string(in, n, JSON_SCRIPT,
		     "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
		     "\xef\xbf\xbd\xef\xbf\xbd\\t\\n\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
		     "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
		     "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd"
		     "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"");
	/* A NUL inside a given length is a control too; a NUL-terminated one ends there. */
	check_string("a\0b", 3, JSON_DOCUMENT, "\"a\\u0000b\"");
	check_string("a\0b", 3, JSON_SCRIPT, "\"a\xef\xbf\xbd" "b\"");
	/* Quote and backslash; the rest of printable ASCII as it is. */
	check_string("say \"C:\\dir\" ~{}", 16, JSON_DOCUMENT, "\"say \\\"C:\\\\dir\\\" ~{}\"");
	check_string("say \"C:\\dir\" ~{}", 16, JSON_SCRIPT, "\"say \\\"C:\\\\dir\\\" ~{}\"");
}

/* A byte that starts no valid sequence: \ufffd (document) or U+FFFD (page),
 * one each; valid UTF-8 as it is, but for the C1 and bidi controls. */
static void utf8_valid_and_not(void **state)
{
	static const struct {
		const char *in, *doc, *script;
	} cases[] = {
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"",
		  "\"caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80\"" },
		/* a stray continuation byte, a byte no sequence starts with */
		{ "a\x80" "b\xff", "\"a\\ufffdb\\ufffd\"", "\"a\xef\xbf\xbd" "b\xef\xbf\xbd\"" },
		/* cut short, at the end and before ASCII */
		{ "\xe2\x82", "\"\\ufffd\\ufffd\"", "\"\xef\xbf\xbd\xef\xbf\xbd\"" },
		{ "\xc3(", "\"\\ufffd(\"", "\"\xef\xbf\xbd(\"" },
		/* an overlong '/', a surrogate, past U+10FFFF */
		{ "\xc0\xaf", "\"\\ufffd\\ufffd\"", "\"\xef\xbf\xbd\xef\xbf\xbd\"" },
		{ "\xed\xa0\x80", "\"\\ufffd\\ufffd\\ufffd\"", "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"" },
		{ "\xf4\x90\x80\x80", "\"\\ufffd\\ufffd\\ufffd\\ufffd\"",
		  "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"" },
		/* C1 NEL and CSI, the bidi controls U+061C, U+202E, U+2066 */
		{ "\xc2\x85\xc2\x9b", "\"\\u0085\\u009b\"", "\"\xef\xbf\xbd\xef\xbf\xbd\"" },
		{ "\xd8\x9c\xe2\x80\xae\xe2\x81\xa6", "\"\\u061c\\u202e\\u2066\"",
		  "\"\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\"" },
		/* U+2028, U+2029: characters like any other to JSON.parse */
		{ "\xe2\x80\xa8\xe2\x80\xa9", "\"\xe2\x80\xa8\xe2\x80\xa9\"", "\"\xe2\x80\xa8\xe2\x80\xa9\"" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		check_string(cases[i].in, strlen(cases[i].in), JSON_DOCUMENT, cases[i].doc);
		check_string(cases[i].in, strlen(cases[i].in), JSON_SCRIPT, cases[i].script);
	}
}

/* In a page, nothing in a string ends the script element or reads as markup. */
static void script_strings_cannot_end_the_element(void **state)
{
	const char *in = "</script><!--x--><script>&amp;";

	(void)state;
	check_string(in, strlen(in), JSON_SCRIPT,
		     "\"\\u003c/script\\u003e\\u003c!--x--\\u003e\\u003cscript\\u003e\\u0026amp;\"");
	/* a document keeps them: it is no page */
	check_string(in, strlen(in), JSON_DOCUMENT, "\"</script><!--x--><script>&amp;\"");
	/* std::vector<int>::push_back(int&&), as C++ names are */
	check_string("v<int>(int&&)", 13, JSON_SCRIPT, "\"v\\u003cint\\u003e(int\\u0026\\u0026)\"");
}

/* Keys take the same escapes as values; a long one too. */
static void keys_are_escaped(void **state)
{
	char key[301], want[400];
	struct doc d;

	(void)state;
	memset(key, 'k', 300);
	key[300] = '\0';
	doc_open(&d, JSON_DOCUMENT);
	json_writer__object(&d.w, NULL, JSON_INLINE);
	json_writer__u64(&d.w, "a\"b", 1);
	json_writer__u64(&d.w, "\x1b[2J", 2);
	json_writer__u64(&d.w, key, 3);
	json_writer__end(&d.w);
	assert_int_equal(doc_close(&d), 0);
	snprintf(want, sizeof(want), "{\"a\\\"b\": 1, \"\\u001b[2J\": 2, \"%s\": 3}\n", key);
	assert_string_equal(d.buf, want);
	free(d.buf);
}

/* Integers in full; doubles as printf's %.Nf / %.Ng, null when not finite. */
static void numbers(void **state)
{
	struct doc d;

	(void)state;
	doc_open(&d, JSON_DOCUMENT);
	json_writer__array(&d.w, NULL, JSON_INLINE);
	json_writer__u64(&d.w, NULL, 0);
	json_writer__u64(&d.w, NULL, UINT64_MAX);
	json_writer__i64(&d.w, NULL, INT64_MIN);
	json_writer__i64(&d.w, NULL, -1);
	json_writer__i64(&d.w, NULL, INT64_MAX);
	json_writer__double(&d.w, NULL, 'f', 4, 1.23456);
	json_writer__double(&d.w, NULL, 'f', 4, -0.00004);
	json_writer__double(&d.w, NULL, 'f', 0, 2.5);
	json_writer__double(&d.w, NULL, 'f', 3, 1.0);
	json_writer__double(&d.w, NULL, 'g', 15, 0.1);
	json_writer__double(&d.w, NULL, 'g', 15, 50);
	json_writer__double(&d.w, NULL, 'g', 4, 1.5e-7);
	json_writer__double(&d.w, NULL, 'g', 6, 123456789.0);
	json_writer__double(&d.w, NULL, 'g', 4, NAN);
	json_writer__double(&d.w, NULL, 'f', 4, INFINITY);
	json_writer__double(&d.w, NULL, 'f', 4, -INFINITY);
	json_writer__raw(&d.w, NULL, "6.02e23");
	json_writer__bool(&d.w, NULL, false);
	json_writer__end(&d.w);
	assert_int_equal(doc_close(&d), 0);
	/* %.4f of -0.00004 is "-0.0000", as printf has it; JSON.parse takes it */
	assert_string_equal(d.buf, "[0, 18446744073709551615, -9223372036854775808, -1, "
			    "9223372036854775807, 1.2346, -0.0000, 2, 1.000, 0.1, 50, 1.5e-07, "
			    "1.23457e+08, null, null, null, 6.02e23, false]\n");
	free(d.buf);
}

/* A top value alone, of any kind; a document's ends with a line feed, a page's not. */
static void top_values(void **state)
{
	struct doc d;

	(void)state;
	doc_open(&d, JSON_DOCUMENT);
	json_writer__str(&d.w, NULL, NULL);
	assert_int_equal(doc_close(&d), 0);
	assert_string_equal(d.buf, "null\n");
	free(d.buf);
	doc_open(&d, JSON_SCRIPT);
	json_writer__strn(&d.w, NULL, "<b>", 3);
	assert_int_equal(doc_close(&d), 0);
	assert_string_equal(d.buf, "\"\\u003cb\\u003e\"");
	free(d.buf);
}

/* Each misuse is caught: nothing is written from it on, finish says -EINVAL. */
static void misuses_are_caught(void **state)
{
	static const struct {
		const char *written, *bug;
	} want[] = {
		{ "{", "a value without a key in an object" },
		{ "[", "a key in an array" },
		{ "[]\n", "an end with nothing open" },
		{ "1\n", "a second top value" },
		{ "", "a key outside an object" },
		{ "{\"a\": [", "a container left open" },
		{ "", "no value written" },
		{ "[[[[[[[[[[[[[[[[", "nesting deeper than JSON_WRITER_DEPTH" },
		{ "", "a value by the caller at the top" },
		{ "", "a line break outside a container" },
		{ "[", "a number's conversion is neither 'f' nor 'g'" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct doc d;

		doc_open(&d, JSON_DOCUMENT);
		switch (i) {
		case 0:
			json_writer__object(&d.w, NULL, JSON_INLINE);
			json_writer__u64(&d.w, NULL, 1);
			break;
		case 1:
			json_writer__array(&d.w, NULL, JSON_INLINE);
			json_writer__u64(&d.w, "a", 1);
			break;
		case 2:
			json_writer__array(&d.w, NULL, JSON_INLINE);
			json_writer__end(&d.w);
			json_writer__end(&d.w);
			break;
		case 3:
			json_writer__u64(&d.w, NULL, 1);
			json_writer__u64(&d.w, NULL, 2);
			break;
		case 4:
			json_writer__u64(&d.w, "a", 1);
			break;
		case 5:
			json_writer__object(&d.w, NULL, JSON_INLINE);
			json_writer__array(&d.w, "a", JSON_INLINE);
			break;
		case 6:
			break;
		case 7:
			for (int k = 0; k <= JSON_WRITER_DEPTH; k++)
				json_writer__array(&d.w, NULL, JSON_INLINE);
			break;
		case 8:
			assert_null(json_writer__value_by_caller(&d.w, NULL));
			break;
		case 9:
			json_writer__break(&d.w);
			break;
		case 10:
			json_writer__array(&d.w, NULL, JSON_INLINE);
			json_writer__double(&d.w, NULL, 'e', 4, 1.0);
			break;
		}
		/* and nothing after it (5 and 6 are caught at the finish) */
		if (i != 5 && i != 6) {
			json_writer__u64(&d.w, NULL, 7);
			json_writer__end(&d.w);
		}
		assert_int_equal(doc_close(&d), -EINVAL);
		assert_non_null(d.w.bug);
		assert_string_equal(d.w.bug, want[i].bug);
		assert_string_equal(d.buf, want[i].written);
		free(d.buf);
	}
}

/* What is written goes out as it comes, a buffer at a time: memory stays
 * bounded however long the document. */
static void long_documents_stream(void **state)
{
	struct doc d;
	size_t n = 100000, sent;

	(void)state;
	doc_open(&d, JSON_DOCUMENT);
	json_writer__array(&d.w, NULL, JSON_LINES);
	for (size_t i = 0; i < n; i++)
		json_writer__u64(&d.w, NULL, 1000000 + i);
	assert_int_equal(fflush(d.f), 0);
	sent = d.len;
	/* all but less than a buffer is out before the end */
	assert_true(sent > 0);
	assert_true(sent + JSON_WRITER_BUF > 1 + n * strlen("\n  1000000,"));
	json_writer__end(&d.w);
	assert_int_equal(doc_close(&d), 0);
	assert_int_equal(d.len, 1 + n * strlen("\n  1000000,") - 1 + strlen("\n]\n"));
	assert_int_equal(strncmp(d.buf, "[\n  1000000,\n  1000001,\n", 24), 0);
	assert_string_equal(d.buf + d.len - 13, "\n  1099999\n]\n");
	free(d.buf);
}

/* A string longer than the buffer, with escapes where it is cut. */
static void long_strings(void **state)
{
	size_t n = 3 * JSON_WRITER_BUF + 5;
	char *in = malloc(n + 1), *got;

	(void)state;
	assert_non_null(in);
	for (size_t i = 0; i < n; i++)
		in[i] = i % 1000 == 999 ? '"' : 'x';
	in[n] = '\0';
	got = string_of(in, n, JSON_DOCUMENT);
	assert_int_equal(strlen(got), n + 2 + n / 1000);
	for (size_t i = 0, k = 1; i < n; i++, k++) {
		if (in[i] == '"')
			assert_int_equal(got[k++], '\\');
		assert_int_equal(got[k], in[i]);
	}
	free(got);
	free(in);
}

/* A write error is told: -EIO. */
static void write_errors(void **state)
{
	char buf[16] = "";
	struct json_writer w;
	FILE *f = fmemopen(buf, sizeof(buf), "r");

	(void)state;
	assert_non_null(f);
	assert_int_equal(json_write_string(f, "x", 1, JSON_DOCUMENT), -EIO);
	clearerr(f);
	json_writer__init(&w, f, JSON_DOCUMENT);
	json_writer__u64(&w, NULL, 1);
	assert_int_equal(json_writer__finish(&w), -EIO);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(documents_nest_and_lay_out),
		cmocka_unit_test(breaks_and_layout_changes),
		cmocka_unit_test(script_data_is_compact),
		cmocka_unit_test(every_control_byte_is_escaped),
		cmocka_unit_test(utf8_valid_and_not),
		cmocka_unit_test(script_strings_cannot_end_the_element),
		cmocka_unit_test(keys_are_escaped),
		cmocka_unit_test(numbers),
		cmocka_unit_test(top_values),
		cmocka_unit_test(misuses_are_caught),
		cmocka_unit_test(long_documents_stream),
		cmocka_unit_test(long_strings),
		cmocka_unit_test(write_errors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

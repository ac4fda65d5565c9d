/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the wasm decoder's names (postproc/annotate/wasm/wasm-names.c): every
 * subsection kind of the name section, shadowed labels, and malformed name
 * sections, which wasmprinter and wasmtime survive with the names read so
 * far. The expected texts were written from wasmprinter's rules
 * (postproc/FORMATS.md) and checked with `jco print` where a real module
 * could be made (test-data/wasm/names.wat).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/util.h"
#include "wasm-builder.h"
#include "annotate/wasm/wasm.h"

/* A name section with a subsection of every kind, oddities included. */
static void every_subsection_kind(struct mb *names)
{
	struct mb s = { 0 };

	/* module name */
	mb_str(&s, "mod");
	mb_section(names, 0, &s);
	mb_free(&s);
	/* functions: 0 imported, 1 and 2 defined; 9 beyond the count */
	mb_uleb(&s, 4);
	mb_uleb(&s, 0), mb_str(&s, "imp");
	mb_uleb(&s, 1), mb_str(&s, "a b");
	mb_uleb(&s, 2), mb_str(&s, "imp");	/* a duplicate: synthetic */
	mb_uleb(&s, 9), mb_str(&s, "nine");
	mb_section(names, 1, &s);
	mb_free(&s);
	/* locals of function 2: empty, '#', duplicate, non-ASCII */
	mb_uleb(&s, 1);
	mb_uleb(&s, 2);
	mb_uleb(&s, 5);
	mb_uleb(&s, 1), mb_str(&s, "");
	mb_uleb(&s, 2), mb_str(&s, "#h");
	mb_uleb(&s, 3), mb_str(&s, "x");
	mb_uleb(&s, 4), mb_str(&s, "x");
	mb_uleb(&s, 5), mb_str(&s, "\xc3\xa9\"\\");
	mb_section(names, 2, &s);
	mb_free(&s);
	/* labels of function 1 */
	mb_uleb(&s, 1);
	mb_uleb(&s, 1);
	mb_uleb(&s, 1);
	mb_uleb(&s, 0), mb_str(&s, "out");
	mb_section(names, 3, &s);
	mb_free(&s);
	/* an unknown subsection, skipped */
	mb_str(&s, "whatever");
	mb_section(names, 99, &s);
	mb_free(&s);
	/* types, memories, globals */
	mb_uleb(&s, 1), mb_uleb(&s, 0), mb_str(&s, "t0");
	mb_section(names, 4, &s);
	mb_free(&s);
	mb_uleb(&s, 1), mb_uleb(&s, 1), mb_str(&s, "mem1");
	mb_section(names, 6, &s);
	mb_free(&s);
	mb_uleb(&s, 1), mb_uleb(&s, 1), mb_str(&s, "g");
	mb_section(names, 7, &s);
	mb_free(&s);
	/* fields of type 0: duplicates within one type */
	mb_uleb(&s, 1);
	mb_uleb(&s, 0);
	mb_uleb(&s, 2);
	mb_uleb(&s, 0), mb_str(&s, "f");
	mb_uleb(&s, 1), mb_str(&s, "f");
	mb_section(names, 10, &s);
	mb_free(&s);
}

static void names_from_every_subsection_kind(void **state)
{
	struct mb names = { 0 }, bodies[2] = { { 0 } }, m;
	struct wasm_module *w;
	char *got;
	static const uint8_t b0[] = { 0x20, 0x00, 0x10, 0x02, 0x02, 0x40, 0x0c, 0x00, 0x0b,
				      0x23, 0x01, 0x1a, 0x10, 0x01 };
	static const uint8_t b1[] = { 0x20, 0x01, 0x20, 0x02, 0x20, 0x03, 0x20, 0x04, 0x20, 0x05,
				      0xfb, 0x02, 0x00, 0x00, 0xfb, 0x02, 0x00, 0x01, 0xfb, 0x02,
				      0x00, 0x02, 0x3f, 0x01, 0x2d, 0x40, 0x01, 0x00 };

	(void)state;
	every_subsection_kind(&names);
	mb_bytes(&bodies[0], b0, sizeof(b0));
	mb_bytes(&bodies[1], b1, sizeof(b1));
	m = make_module(1, bodies, 2, &names);
	w = parse_ok(&m);
	got = joined(w);
	assert_string_equal(got,
		"local.get 0|call $\"#func2 imp\"|block $out|br $out|end|global.get $g|drop|"
		"call $\"a b\"|-|"
		"local.get $\"#local1 \"|local.get $\"#local2 #h\"|local.get $x|"
		"local.get $\"#local4 x\"|local.get $\"\\u{e9}\\u{22}\\u{5c}\"|"
		"struct.get $t0 $f|struct.get $t0 $\"#field1 f\"|struct.get $t0 2|"
		"memory.size $mem1|i32.load8_u $mem1|-");
	free(got);
	/* wasmtime's view: raw names, last wins, only existing functions. */
	assert_int_equal(wasm_module__imported_funcs(w), 1);
	assert_string_equal(wasm_module__func_name(w, 0), "imp");
	assert_string_equal(wasm_module__func_name(w, 1), "a b");
	assert_string_equal(wasm_module__func_name(w, 2), "imp");
	assert_null(wasm_module__func_name(w, 3));
	assert_null(wasm_module__func_name(w, 9));
	assert_int_equal(wasm_module__name_errors(w), 0);
	wasm_module__free(w);
	mb_free(&m);
	mb_free(&names);
	mb_free(&bodies[0]);
	mb_free(&bodies[1]);
}

static void a_label_name_is_not_used_when_a_deeper_label_shadows_it(void **state)
{
	struct mb names = { 0 }, s = { 0 };
	static const uint8_t code[] = {
		0x02, 0x40,		/* block $l */
		0x02, 0x40,		/*   block $l */
		0x02, 0x40,		/*     block (label 2, unnamed) */
		0x0c, 0x02,		/*       br 2 -> outer $l, shadowed */
		0x0c, 0x01,		/*       br 1 -> inner $l */
		0x0b, 0x0b, 0x0b,
	};

	(void)state;
	mb_uleb(&s, 1);
	mb_uleb(&s, 0);
	mb_uleb(&s, 2);
	mb_uleb(&s, 0), mb_str(&s, "l");
	mb_uleb(&s, 1), mb_str(&s, "l");
	mb_section(&names, 3, &s);
	mb_free(&s);
	expect_body(code, sizeof(code), &names,
		    "block $l|block $l|block ;; label = @3|br 2|br $l|end|end|end|-");
	mb_free(&names);
}

/* A truncated or invalid name section keeps the names read before the fault. */
static void a_malformed_name_section_is_a_counted_warning(void **state)
{
	struct mb names = { 0 }, s = { 0 }, body = { 0 }, m;
	static const uint8_t code[] = { 0x10, 0x00, 0x10, 0x01, 0x20, 0x00 };
	struct wasm_module *w;
	char *got;

	(void)state;
	mb_uleb(&s, 3);
	mb_uleb(&s, 0), mb_str(&s, "good");
	mb_uleb(&s, 1);
	mb_uleb(&s, 2);
	mb_bytes(&s, "\xff\xfe", 2);	/* invalid UTF-8: stops here */
	mb_uleb(&s, 2), mb_str(&s, "never");
	mb_section(&names, 1, &s);
	mb_free(&s);
	mb_uleb(&s, 1), mb_uleb(&s, 0), mb_uleb(&s, 1), mb_uleb(&s, 0), mb_str(&s, "loc");
	mb_section(&names, 2, &s);		/* after the fault: ignored */
	mb_free(&s);
	mb_bytes(&body, code, sizeof(code));
	m = make_module(0, &body, 1, &names);
	w = parse_ok(&m);
	got = joined(w);
	assert_string_equal(got, "call $good|call 1|local.get 0|-");
	free(got);
	assert_int_equal(wasm_module__name_errors(w), 1);
	assert_non_null(strstr(wasm_module__name_error(w), "t.wasm+0x"));
	assert_non_null(strstr(wasm_module__name_error(w), "UTF-8"));
	wasm_module__free(w);
	mb_free(&m);

	/* A subsection whose size runs past the section. */
	mb_free(&names);
	mb_u8(&names, 1);
	mb_uleb(&names, 100);
	mb_uleb(&names, 1);
	m = make_module(0, &body, 1, &names);
	w = parse_ok(&m);
	assert_int_equal(wasm_module__name_errors(w), 1);
	assert_null(wasm_module__func_name(w, 0));
	wasm_module__free(w);
	mb_free(&m);

	/* Trailing bytes after a name map: its names stay, the rest goes. */
	mb_free(&names);
	mb_uleb(&s, 1), mb_uleb(&s, 0), mb_str(&s, "f"), mb_u8(&s, 0);
	mb_section(&names, 1, &s);
	mb_free(&s);
	mb_uleb(&s, 1), mb_uleb(&s, 0), mb_uleb(&s, 1), mb_uleb(&s, 0), mb_str(&s, "loc");
	mb_section(&names, 2, &s);
	mb_free(&s);
	m = make_module(0, &body, 1, &names);
	w = parse_ok(&m);
	got = joined(w);
	assert_string_equal(got, "call $f|call 1|local.get 0|-");
	free(got);
	assert_int_equal(wasm_module__name_errors(w), 1);
	wasm_module__free(w);
	mb_free(&m);
	mb_free(&names);
	mb_free(&body);
}

/*
 * wasmparser reads a name subsection id as a 7-bit value: 0x80 and above fail,
 * and wasmprinter ignores the rest of the section, while ids 12..0x7f are
 * unknown subsections it skips. Checked against `jco print` of
 * test-data/wasm/names-bad-id.wasm, which has both.
 */
static void name_subsection_ids_of_0x80_and_above_end_the_names(void **state)
{
	static const uint8_t ids[] = { 0x0c, 0x7f, 0x80, 0xff };
	static const uint8_t code[] = { 0x10, 0x00, 0x20, 0x00 };
	struct mb body = { 0 };

	(void)state;
	mb_bytes(&body, code, sizeof(code));
	for (size_t i = 0; i < ARRAY_SIZE(ids); i++) {
		bool bad = ids[i] >= 0x80;
		struct mb names = { 0 }, s = { 0 }, m;
		struct wasm_module *w;
		char *got, want[64];
		size_t bad_at;

		mb_uleb(&s, 1), mb_uleb(&s, 0), mb_str(&s, "f");
		mb_section(&names, 1, &s);
		mb_free(&s);
		bad_at = names.len;
		mb_uleb(&s, 0);
		mb_section(&names, ids[i], &s);
		mb_free(&s);
		mb_uleb(&s, 1), mb_uleb(&s, 0), mb_uleb(&s, 1), mb_uleb(&s, 0), mb_str(&s, "loc");
		mb_section(&names, 2, &s);
		mb_free(&s);
		m = make_module(0, &body, 1, &names);
		w = parse_ok(&m);
		got = joined(w);
		assert_string_equal(got, bad ? "call $f|local.get 0|-" : "call $f|local.get $loc|-");
		free(got);
		assert_int_equal(wasm_module__name_errors(w), bad);
		if (bad) {
			/* the name section is the module's last bytes */
			snprintf(want, sizeof(want), "t.wasm+0x%zx: invalid name subsection id 0x%02x",
				 m.len - names.len + bad_at, ids[i]);
			assert_string_equal(wasm_module__name_error(w), want);
		}
		wasm_module__free(w);
		mb_free(&m);
		mb_free(&names);
	}
	mb_free(&body);
}

/*
 * wabt 1.0.32 writes tag names as a plain name map in subsection 10, which the
 * extended name section (and wasmprinter) reads as field names: it fails
 * there, and the message says why. Other garbage in subsection 10 keeps the
 * plain message. Checked against `jco print` of test-data/wasm/tags-wabt.wasm.
 */
static void wabt_tag_names_in_subsection_10_are_explained(void **state)
{
	static const uint8_t code[] = { 0x10, 0x00 };
	struct mb body = { 0 };

	(void)state;
	mb_bytes(&body, code, sizeof(code));
	for (int garbage = 0; garbage < 2; garbage++) {
		struct mb names = { 0 }, s = { 0 }, m;
		struct wasm_module *w;
		const char *err;
		char *got;

		mb_uleb(&s, 1), mb_uleb(&s, 0), mb_str(&s, "f");
		mb_section(&names, 1, &s);
		mb_free(&s);
		mb_uleb(&s, 2);
		mb_uleb(&s, 0), mb_str(&s, "oops");
		mb_uleb(&s, 1), mb_str(&s, "boom");
		if (garbage)
			mb_u8(&s, 0x80);	/* a truncated LEB after the map */
		mb_section(&names, 10, &s);
		mb_free(&s);
		m = make_module(0, &body, 1, &names);
		w = parse_ok(&m);
		got = joined(w);
		assert_string_equal(got, "call $f|-");
		free(got);
		assert_int_equal(wasm_module__name_errors(w), 1);
		err = wasm_module__name_error(w);
		if (garbage) {
			assert_null(strstr(err, "wabt"));
		} else {
			assert_non_null(strstr(err, "name subsection 10 holds tag names in wabt "
						    "1.0.32's numbering"));
		}
		wasm_module__free(w);
		mb_free(&m);
		mb_free(&names);
	}
	mb_free(&body);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_from_every_subsection_kind),
		cmocka_unit_test(a_label_name_is_not_used_when_a_deeper_label_shadows_it),
		cmocka_unit_test(a_malformed_name_section_is_a_counted_warning),
		cmocka_unit_test(name_subsection_ids_of_0x80_and_above_end_the_names),
		cmocka_unit_test(wabt_tag_names_in_subsection_10_are_explained),
	};

	return cmocka_run_group_tests_name("wasm-names", tests, NULL, NULL);
}

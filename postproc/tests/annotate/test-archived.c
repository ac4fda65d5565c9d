/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of postproc/annotate/archived.c, the answers an archive keeps:
 * a string field of every byte (0..255, spaces, '%', a lone "-") comes back
 * as it was; kept answers, written and read again, give the same values and
 * none for other keys; the first answer of a key stays; nothing is kept or
 * given outside its mode; and the reader's errors name the member and line
 * (the lines written by hand, from postproc/FORMATS.md "The archive").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "annotate/archived.h"

static void a_string_of_every_byte_comes_back(void **state)
{
	char all[256], *out;
	struct strbuf sb = { 0 };
	size_t len;
	uint64_t v;

	(void)state;
	for (int i = 0; i < 256; i++)
		all[i] = (char)i;
	archived__str(&sb, all, sizeof(all));
	archived__str(&sb, "-", 1);
	archived__str(&sb, NULL, 0);
	strbuf_addstr(&sb, " 0x2a");
	assert_false(sb.oom);
	/* fields are words: no byte <= 0x20 or >= 0x7f is left as it is */
	for (size_t i = 0; i < sb.len; i++)
		assert_true((unsigned char)sb.buf[i] > 0x20 ? (unsigned char)sb.buf[i] < 0x7f :
			    sb.buf[i] == ' ');
	assert_true(archived__get_str(sb.buf, 0, &out, &len));
	assert_int_equal(len, 256);
	assert_memory_equal(out, all, 256);
	free(out);
	assert_true(archived__get_str(sb.buf, 1, &out, &len));
	assert_string_equal(out, "-");
	free(out);
	assert_true(archived__get_str(sb.buf, 2, &out, &len));
	assert_null(out);
	assert_true(archived__get_u64(sb.buf, 3, &v));
	assert_int_equal(v, 42);
	assert_false(archived__get_str(sb.buf, 3, &out, &len));
	assert_false(archived__get_str(sb.buf, 4, &out, &len));
	assert_false(archived__get_u64(sb.buf, 0, &v));
	/* a cut escape is no string */
	assert_false(archived__get_str("sab%4", 0, &out, &len));
	strbuf_release(&sb);
}

static void kept_answers_come_back_after_writing(void **state)
{
	struct strbuf out = { 0 };
	char err[256];

	(void)state;
	archived__set_mode(ARCHIVED_OFF);
	archived__put("func 1", "ignored");
	archived__set_mode(ARCHIVED_KEEP);
	assert_null(archived__get("func 1"));
	archived__put("func 2", "sb 1 0");
	archived__put("func 2", "sother");
	archived__put("wasm-inputs", "");
	archived__put("cells 2 0x1a", "sv1%20=%20iadd 7 - 0 si32.add 7 - 0");
	assert_int_equal(archived__write(&out), 0);
	assert_string_equal(out.buf, "3 cells 2 0x1a sv1%20=%20iadd 7 - 0 si32.add 7 - 0\n"
				     "2 func 2 sb 1 0\n"
				     "1 wasm-inputs\n");
	archived__release();
	archived__set_mode(ARCHIVED_REPLAY);
	assert_int_equal(archived__read(out.buf, out.len, "answers", err, sizeof(err)), 0);
	assert_string_equal(archived__get("func 2"), "sb 1 0");
	assert_string_equal(archived__get("wasm-inputs"), "");
	assert_string_equal(archived__get("cells 2 0x1a"), "sv1%20=%20iadd 7 - 0 si32.add 7 - 0");
	assert_null(archived__get("func 1"));
	assert_null(archived__get("cells 2"));
	archived__put("func 1", "x");
	assert_null(archived__get("func 1"));
	archived__release();
	archived__set_mode(ARCHIVED_OFF);
	strbuf_release(&out);
}

static void bad_lines_are_named(void **state)
{
	static const struct {
		const char *text, *err;
	} cases[] = {
		{ "1 a\n2 b\n", "answers:2: the line has fewer fields than its count (2)" },
		{ "x a\n", "answers:1: not a count of key fields, then the fields" },
		{ "0 a\n", "answers:1: not a count of key fields, then the fields" },
		{ "1 a\n1 a b\n", "answers:2: a key given twice" },
		{ "1 a", "answers:1: the last line has no newline (cut short?)" },
	};
	char err[256];

	(void)state;
	archived__set_mode(ARCHIVED_REPLAY);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = 0;
		assert_int_equal(archived__read(cases[i].text, strlen(cases[i].text), "answers", err,
						 sizeof(err)), -22);
		assert_string_equal(err, cases[i].err);
		archived__release();
	}
	assert_int_equal(archived__read("1 a\0b\n", 6, "answers", err, sizeof(err)), -22);
	assert_string_equal(err, "answers:1: a NUL byte in the line");
	archived__release();
	archived__set_mode(ARCHIVED_OFF);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_string_of_every_byte_comes_back),
		cmocka_unit_test(kept_answers_come_back_after_writing),
		cmocka_unit_test(bad_lines_are_named),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* Unit tests of postproc/lib/util.c: interned strings, the readers' error messages, vec_grow,
 * shares. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/util.h"

static void interned_strings_are_stored_once(void **state)
{
	struct strset s = { 0 };
	const char *a, *b, *c;
	char name[32];

	(void)state;
	a = strset_add(&s, "fib.c:12");
	b = strset_add(&s, "fib.c:13");
	c = strset_add_owned(&s, strdup("fib.c:12"));	/* freed: the text is there */
	assert_non_null(a);
	assert_ptr_equal(a, c);
	assert_ptr_not_equal(a, b);
	assert_string_equal(b, "fib.c:13");
	/* Many texts: the table grows, and every earlier pointer stays good. */
	for (int i = 0; i < 10000; i++) {
		snprintf(name, sizeof(name), "t%d", i);
		assert_string_equal(strset_add(&s, name), name);
	}
	assert_int_equal(s.nr, 10002);
	assert_ptr_equal(strset_add(&s, "fib.c:12"), a);
	assert_null(strset_add_owned(&s, NULL));
	strset_release(&s);
	assert_int_equal(s.nr, 0);
}

static void error_messages_name_file_and_offset(void **state)
{
	char err[32];

	(void)state;
	assert_int_equal(errf_at(err, sizeof(err), -EINVAL, "m.wasm", 0x2a, "bad %s", "thing"),
			 -EINVAL);
	assert_string_equal(err, "m.wasm+0x2a: bad thing");
	assert_int_equal(errf(err, sizeof(err), -ENOENT, "%s: gone", "x"), -ENOENT);
	assert_string_equal(err, "x: gone");
	/* Cut to the buffer, always terminated; no buffer at all is fine. */
	errf_at(err, sizeof(err), -EINVAL, "a-long-file-name.cwasm", 0x123456, "message");
	assert_int_equal(strlen(err), sizeof(err) - 1);
	assert_int_equal(strncmp(err, "a-long-file-name.cwasm+0x123456:", sizeof(err) - 1), 0);
	assert_int_equal(errf_at(NULL, 0, -EIO, "f", 0, "x"), -EIO);
	assert_int_equal(errf(err, 0, -EIO, "x"), -EIO);
}

static void vectors_grow_geometrically(void **state)
{
	uint32_t *v = NULL;
	size_t alloc = 0, moves = 0;

	(void)state;
	for (size_t i = 0; i < 100000; i++) {
		uint32_t *was = v;

		assert_int_equal(VEC_GROW(v, i + 1, alloc), 0);
		moves += v != was;
		v[i] = (uint32_t)i;
	}
	assert_true(alloc >= 100000);
	assert_true(moves <= 20);
	assert_int_equal(v[99999], 99999);
	assert_int_equal(VEC_GROW(v, SIZE_MAX / 2, alloc), -ENOMEM);
	assert_int_equal(v[12345], 12345);
	free(v);
}

/*
 * hexval() as its callers use it: any char, signed or not (clif.c passes a
 * plain char, the stream reader an unsigned one). Checked against strchr()
 * over the digits, an independent spelling of the same rule.
 */
static void hex_digits_of_every_char(void **state)
{
	static const char lower[] = "0123456789abcdef", upper[] = "0123456789ABCDEF";

	(void)state;
	for (int c = -128; c < 256; c++) {
		unsigned char u = (unsigned char)c;
		const char *l = u ? strchr(lower, u) : NULL, *h = u ? strchr(upper, u) : NULL;
		int want = l ? (int)(l - lower) : h ? (int)(h - upper) : -1;

		assert_int_equal(hexval(c), want);
		assert_int_equal(hexval((char)c), want);
	}
	assert_int_equal(hexval('0'), 0);
	assert_int_equal(hexval('F'), 15);
	assert_int_equal(hexval('g'), -1);
	assert_int_equal(hexval('\0'), -1);
	assert_int_equal(hexval(-1), -1);	/* EOF */
}

/* A share of samples never prints as none: 1 of 100000 is "<0.01", not "0.00". */
static void shares_with_samples_never_print_zero(void **state)
{
	char buf[64];

	(void)state;
	assert_string_equal(fmt_share(buf, sizeof(buf), 1, 100.0 / 100000), "<0.01");
	assert_string_equal(fmt_share(buf, sizeof(buf), 3, 0.0049), "<0.01");
	/* 0.005 rounds up to 0.01 itself, as fmt_pct prints it */
	assert_string_equal(fmt_share(buf, sizeof(buf), 1, 0.0051), "0.01");
	assert_string_equal(fmt_share(buf, sizeof(buf), 0, 0.0), "0.00");
	assert_string_equal(fmt_share(buf, sizeof(buf), 395, 32.43), "32.43");
	/* the reference's NaN (T = 0) stays */
	assert_string_equal(fmt_share(buf, sizeof(buf), 1, 0.0 / 0.0), "NaN");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(interned_strings_are_stored_once),
		cmocka_unit_test(error_messages_name_file_and_offset),
		cmocka_unit_test(vectors_grow_geometrically),
		cmocka_unit_test(hex_digits_of_every_char),
		cmocka_unit_test(shares_with_samples_never_print_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

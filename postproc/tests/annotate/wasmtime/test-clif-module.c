/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the stubbed module for --emit-clif (postproc/annotate/wasmtime/clif-module.c),
 * on modules written here byte by byte (each section's bytes spelled out beside it, as the
 * binary format of the WebAssembly core and component specifications lays them out).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "annotate/wasmtime/clif-module.h"
#include "lib/util.h"

#define N47 "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstu"	/* 47 bytes: its length is 0x2f, '/' */

/* One import (function 0), three bodies (functions 1..3), names with '/'. */
#define CORE_BODY                                                                                 \
	0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00,                                                \
	0x01, 0x04, 0x01, 0x60, 0x00, 0x00,		/* type 0: [] -> [] */                      \
	0x02, 0x07, 0x01, 0x01, 'm', 0x01, 'f', 0x00, 0x00,	/* import m.f: func of type 0 */    \
	0x03, 0x04, 0x03, 0x00, 0x00, 0x00,		/* functions 1..3: type 0 */                \
	0x0a, 0x11, 0x03,				/* code: 3 bodies */                        \
	0x05, 0x00, 0x01, 0x01, 0x01, 0x0b,		/* 1: no locals, nop nop nop end */         \
	0x02, 0x00, 0x0b,				/* 2: no locals, end (too small to stub) */ \
	0x06, 0x01, 0x01, 0x7f, 0x01, 0x01, 0x0b,	/* 3: one i32 local, nop nop end */         \
	0x00, 0x44, 0x04, 'n', 'a', 'm', 'e',		/* custom section "name" */                 \
	0x01, 0x3d, 0x03,				/* function names: 3 */                     \
	0x01, 0x03, 'a', '/', 'b',			/* 1 "a/b" */                               \
	0x02, 0x2f, N47_BYTES,				/* 2: a 47-byte name */                     \
	0x03, 0x04, 'c', '/', '/', 'd'			/* 3 "c//d" */

#define N47_BYTES 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', \
	'q', 'r', 's', 't', 'u', 'v', 'w', 'x', 'y', 'z', 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', \
	'i', 'j', 'k', 'l', 'm', 'n', 'o', 'p', 'q', 'r', 's', 't', 'u'

static const uint8_t core[] = { CORE_BODY };
#define CORE_LEN 118	/* sizeof(core), for the component's section sizes */

static char err[256];

/* The offset of the first byte of needle in hay (it must be there). */
static size_t at(const uint8_t *hay, size_t len, const uint8_t *needle, size_t n)
{
	for (size_t i = 0; i + n <= len; i++)
		if (!memcmp(hay + i, needle, n))
			return i;
	fail_msg("bytes not found");
	return 0;
}

static void a_kept_function_stays_and_the_others_become_unreachable(void **state)
{
	static const struct clif_keep keep[] = { { 0, 3 } };
	static const uint8_t stub1[] = { 0x05, 0x00, 0x00, 0x01, 0x01, 0x0b };
	static const uint8_t body2[] = { 0x02, 0x00, 0x0b };
	static const uint8_t body3[] = { 0x06, 0x01, 0x01, 0x7f, 0x01, 0x01, 0x0b };
	uint8_t m[sizeof(core)];
	struct clif_module_stats st;

	(void)state;
	assert_int_equal(sizeof(core), CORE_LEN);
	memcpy(m, core, sizeof(m));
	assert_int_equal(clif_module__make(m, sizeof(m), keep, 1, &st, err, sizeof(err)), 0);
	assert_int_equal(st.modules, 1);
	assert_int_equal(st.stubbed, 1);
	assert_int_equal(st.kept, 2);
	assert_int_equal(st.slashes, 3);
	/* every byte where it was: only bodies and names changed, in place */
	assert_int_equal(at(m, sizeof(m), stub1, sizeof(stub1)), at(core, sizeof(core), (const uint8_t[]){ 0x05, 0x00, 0x01 }, 3));
	assert_int_equal(at(m, sizeof(m), body2, sizeof(body2)), at(core, sizeof(core), body2, sizeof(body2)));
	assert_int_equal(at(m, sizeof(m), body3, sizeof(body3)), at(core, sizeof(core), body3, sizeof(body3)));
	assert_int_equal(at(m, sizeof(m), (const uint8_t *)"a_b", 3), at(core, sizeof(core), (const uint8_t *)"a/b", 3));
	assert_int_equal(at(m, sizeof(m), (const uint8_t *)"c__d", 4), at(core, sizeof(core), (const uint8_t *)"c//d", 4));
	/* the 47-byte name's length, 0x2f like '/', is a length: it stays */
	assert_int_equal(at(m, sizeof(m), (const uint8_t[]){ 0x02, 0x2f, 'a' }, 3),
			 at(core, sizeof(core), (const uint8_t[]){ 0x02, 0x2f, 'a' }, 3));
	assert_int_equal(at(m, sizeof(m), (const uint8_t *)N47, 47), at(core, sizeof(core), (const uint8_t *)N47, 47));
}

static void nothing_kept_stubs_every_body_big_enough(void **state)
{
	uint8_t m[sizeof(core)];
	struct clif_module_stats st;

	(void)state;
	memcpy(m, core, sizeof(m));
	assert_int_equal(clif_module__make(m, sizeof(m), NULL, 0, &st, err, sizeof(err)), 0);
	assert_int_equal(st.stubbed, 2);
	assert_int_equal(st.kept, 1);
	at(m, sizeof(m), (const uint8_t[]){ 0x06, 0x00, 0x00, 0x01, 0x01, 0x01, 0x0b }, 7);
}

/* Core modules count in the order of their bytes, a nested component's too (wasm[M]). */
static void a_components_modules_count_in_byte_order(void **state)
{
	static const struct clif_keep keep[] = { { 0, 1 }, { 1, 3 } };
	uint8_t c[] = {
		0x00, 'a', 's', 'm', 0x0d, 0x00, 0x01, 0x00,
		0x01, CORE_LEN, CORE_BODY,			/* core module 0 */
		0x04, 0x80, 0x01,				/* a nested component, 128 bytes */
		0x00, 'a', 's', 'm', 0x0d, 0x00, 0x01, 0x00,
		0x01, CORE_LEN, CORE_BODY,			/* core module 1 */
	};
	struct clif_module_stats st;
	size_t m0 = 10, m1 = 10 + CORE_LEN + 13;

	(void)state;
	assert_int_equal(clif_module__make(c, sizeof(c), keep, 2, &st, err, sizeof(err)), 0);
	assert_int_equal(st.modules, 2);
	assert_int_equal(st.stubbed, 2);
	assert_int_equal(st.slashes, 6);
	/* module 0: function 1 kept, 3 stubbed; module 1: the other way round */
	at(c + m0, CORE_LEN, (const uint8_t[]){ 0x05, 0x00, 0x01, 0x01, 0x01, 0x0b }, 6);
	at(c + m0, CORE_LEN, (const uint8_t[]){ 0x06, 0x00, 0x00, 0x01, 0x01, 0x01, 0x0b }, 7);
	at(c + m1, CORE_LEN, (const uint8_t[]){ 0x05, 0x00, 0x00, 0x01, 0x01, 0x0b }, 6);
	at(c + m1, CORE_LEN, (const uint8_t[]){ 0x06, 0x01, 0x01, 0x7f, 0x01, 0x01, 0x0b }, 7);
}

static void a_truncated_module_is_refused_with_its_offset(void **state)
{
	uint8_t m[sizeof(core)];
	struct clif_module_stats st;

	(void)state;
	memcpy(m, core, sizeof(m));
	/* the code section cut inside its second body */
	assert_int_equal(clif_module__make(m, 38, NULL, 0, &st, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "offset 0x"));
	assert_int_equal(clif_module__make((uint8_t[]){ 0x00, 'a', 's', 'm', 0x02, 0, 0, 0 }, 8, NULL, 0,
					   &st, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "not a core module"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_kept_function_stays_and_the_others_become_unreachable),
		cmocka_unit_test(nothing_kept_stubs_every_body_big_enough),
		cmocka_unit_test(a_components_modules_count_in_byte_order),
		cmocka_unit_test(a_truncated_module_is_refused_with_its_offset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

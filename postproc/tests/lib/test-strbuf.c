/* SPDX-License-Identifier: MIT */
/* Unit tests of postproc/lib/strbuf.c; expected texts are printf's, or written out by hand. */
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "lib/strbuf.h"

static void appends_build_one_nul_terminated_text(void **state)
{
	struct strbuf sb = { 0 };

	(void)state;
	strbuf_addstr(&sb, "i32.const");
	strbuf_addch(&sb, ' ');
	strbuf_addi(&sb, INT64_MIN);
	strbuf_addch(&sb, ' ');
	strbuf_addu(&sb, UINT64_MAX);
	strbuf_addch(&sb, ' ');
	strbuf_addu(&sb, 0);
	strbuf_add(&sb, " x", 2);
	assert_string_equal(sb.buf, "i32.const -9223372036854775808 18446744073709551615 0 x");
	assert_int_equal(sb.len, strlen(sb.buf));
	assert_false(sb.oom);
	strbuf_reset(&sb);
	assert_int_equal(sb.len, 0);
	assert_string_equal(sb.buf, "");
	strbuf_release(&sb);
	assert_null(sb.buf);
}

static void formatted_appends_of_any_length(void **state)
{
	struct strbuf sb = { 0 };
	char want[1200];
	char word[1000];

	(void)state;
	memset(word, 'w', sizeof(word) - 1);
	word[sizeof(word) - 1] = '\0';
	/* Short texts are formatted on the stack, long ones in place. */
	strbuf_addf(&sb, "%d:%s", 7, "short");
	strbuf_addf(&sb, " %s %" PRIu64, word, (uint64_t)42);
	snprintf(want, sizeof(want), "7:short %s 42", word);
	assert_string_equal(sb.buf, want);
	assert_int_equal(sb.len, strlen(want));
	strbuf_release(&sb);
}

static void room_made_ahead_is_kept(void **state)
{
	struct strbuf sb = { 0 };
	const char *at;

	(void)state;
	assert_true(strbuf_grow(&sb, 100));
	at = sb.buf;
	for (int i = 0; i < 100; i++)
		strbuf_addch(&sb, 'a');
	assert_ptr_equal(sb.buf, at);
	assert_false(strbuf_grow(&sb, SIZE_MAX));
	assert_true(sb.oom);
	/* Once out of memory, appends are dropped and the text stays whole. */
	strbuf_addstr(&sb, "more");
	assert_int_equal(sb.len, 100);
	assert_int_equal(strlen(sb.buf), 100);
	strbuf_release(&sb);
	assert_false(sb.oom);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(appends_build_one_nul_terminated_text),
		cmocka_unit_test(formatted_appends_of_any_length),
		cmocka_unit_test(room_made_ahead_is_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

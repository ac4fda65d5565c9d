// SPDX-License-Identifier: MIT
/*
 * Unit tests of a file's symbols as perf finds them (plugin/symbols/elfsyms*.c), on
 * this machine's libc: what the dynamic linker says of one of its functions
 * (dladdr: the file and the symbol's address) must be what the index finds.
 * The full check, every sample of real recordings against perf script, is
 * scripts/tests/plugin-vs-perf.sh.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <gelf.h>

#include "symbols/elfsyms.h"

static const struct elfsyms_config cfg = { .buildid_dir = NULL, .debug_dir = "/usr/lib/debug" };

static void a_missing_file_has_no_symbols(void **state)
{
	struct elfsyms *es = elfsyms__open("/nonexistent/libgone.so.1", NULL, 0, &cfg);
	struct elfsyms_hit h;

	assert_non_null(es);
	assert_int_equal(elfsyms__status(es), ELFSYMS_NO_FILE);
	assert_false(elfsyms__find(es, 0x1000, &h));
	elfsyms__free(es);
}

/* The libc this test runs with, and the file offset of getpid in it. */
static const char *libc_path(uint64_t *getpid_off)
{
	Dl_info info;

	if (!dladdr((void *)getpid, &info) || !info.dli_fname || !info.dli_saddr)
		return NULL;
	/* libc's text is mapped at the file offsets it has in the file */
	*getpid_off = (uint64_t)((uintptr_t)info.dli_saddr - (uintptr_t)info.dli_fbase);
	return info.dli_fname;
}

/* perf refuses every file whose build-id is not the one recorded. */
static void another_build_is_refused(void **state)
{
	uint64_t off = 0;
	const char *libc = libc_path(&off);
	uint8_t wrong[20];
	struct elfsyms *es;
	struct elfsyms_hit h;

	assert_non_null(libc);
	memset(wrong, 0x5a, sizeof(wrong));
	es = elfsyms__open(libc, wrong, sizeof(wrong), &cfg);
	assert_non_null(es);
	assert_int_equal(elfsyms__status(es), ELFSYMS_MISMATCH);
	assert_false(elfsyms__find(es, off, &h));
	elfsyms__free(es);
}

static void finds_a_libc_function_where_the_dynamic_linker_has_it(void **state)
{
	uint64_t off = 0;
	const char *libc = libc_path(&off);
	struct elfsyms *es;
	struct elfsyms_hit h;
	uint8_t code[4];

	assert_non_null(libc);
	es = elfsyms__open(libc, NULL, 0, &cfg);
	assert_non_null(es);
	assert_int_equal(elfsyms__status(es), ELFSYMS_OK);
	assert_true(elfsyms__nr(es) > 100);
	assert_int_equal(elfsyms__e_machine(es), EM_X86_64);
	assert_true(elfsyms__find(es, off + 1, &h));
	assert_int_equal(h.start, off);
	assert_non_null(h.name);
	/* getpid or one of its aliases (__getpid): perf keeps one */
	assert_non_null(strstr(h.name, "getpid"));
	/* the bytes are the ones the process runs */
	assert_int_equal(elfsyms__read(es, off, code, sizeof(code)), sizeof(code));
	assert_memory_equal(code, (const void *)getpid, sizeof(code));
	elfsyms__free(es);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_missing_file_has_no_symbols),
		cmocka_unit_test(another_build_is_refused),
		cmocka_unit_test(finds_a_libc_function_where_the_dynamic_linker_has_it),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

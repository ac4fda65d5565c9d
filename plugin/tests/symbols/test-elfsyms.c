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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <gelf.h>

#include "symbols/elfsyms.h"
#include "symbols/elfsyms-files.h"
#include "tests/scratch-dir.h"

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

/* A copy of the file at from into to (0, or -1). */
static int copy_file(const char *from, const char *to)
{
	FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
	char buf[65536];
	size_t n;
	int ret = in && out ? 0 : -1;

	while (!ret && (n = fread(buf, 1, sizeof(buf), in)) > 0)
		ret = fwrite(buf, 1, n, out) == n ? 0 : -1;
	if (in)
		fclose(in);
	if (out && fclose(out))
		ret = -1;
	return ret;
}

/* The build-id of the ELF file at path into id: its size, or 0. */
static size_t build_id_of(const char *path, uint8_t id[20])
{
	struct symsrc ss;
	size_t n = 0;

	if (symsrc__open(&ss, path, NULL, 0) == OPEN_OK) {
		n = elfsyms__read_build_id(ss.elf, &ss.ehdr, id);
		symsrc__release(&ss);
	}
	return n;
}

/* perf script --symfs ROOT: the file is read under ROOT, as perf reads it. */
static void a_file_under_the_symfs_root_is_read_there(void **state)
{
	uint64_t off = 0;
	const char *libc = libc_path(&off);
	struct scratch_dir d;
	char root[200], dir[256], path[512];
	struct elfsyms_config c = cfg;
	struct elfsyms *es;
	struct elfsyms_hit h;

	assert_non_null(libc);
	assert_int_equal(scratch_dir__make(&d, "elfsyms-symfs"), 0);
	snprintf(root, sizeof(root), "%s/root/", d.path);
	snprintf(dir, sizeof(dir), "%s/root", d.path);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(dir, sizeof(dir), "%s/root/gone", d.path);
	assert_int_equal(mkdir(dir, 0700), 0);
	snprintf(path, sizeof(path), "%s/libgone.so.6", dir);
	assert_int_equal(copy_file(libc, path), 0);
	/* without the root: not there */
	es = elfsyms__open("/gone/libgone.so.6", NULL, 0, &c);
	assert_int_equal(elfsyms__status(es), ELFSYMS_NO_FILE);
	elfsyms__free(es);
	/* with it (a trailing slash or not): found, and not "elsewhere" */
	c.symfs = root;
	es = elfsyms__open("/gone/libgone.so.6", NULL, 0, &c);
	assert_int_equal(elfsyms__status(es), ELFSYMS_OK);
	assert_true(elfsyms__find(es, off + 1, &h));
	assert_int_equal(h.start, off);
	assert_null(elfsyms__found_elsewhere(es));
	elfsyms__free(es);
	assert_int_equal(scratch_dir__remove(&d), 0);
}

/* A file gone from its path is looked for in the search directories by its
 * name (its build-id checked), then by its build-id under any name. */
static void a_moved_file_is_found_by_name_and_by_build_id(void **state)
{
	uint64_t off = 0;
	const char *libc = libc_path(&off);
	struct scratch_dir d;
	char wrong_dir[200], right_dir[200], path[512];
	const char *dirs[2];
	struct elfsyms_config c = cfg;
	struct elfsyms *es;
	struct elfsyms_hit h;
	uint8_t wrong[20], bid[20];
	size_t bid_size;

	assert_non_null(libc);
	assert_int_equal(scratch_dir__make(&d, "elfsyms-search"), 0);
	snprintf(wrong_dir, sizeof(wrong_dir), "%s/a", d.path);
	snprintf(right_dir, sizeof(right_dir), "%s/b", d.path);
	assert_int_equal(mkdir(wrong_dir, 0700), 0);
	assert_int_equal(mkdir(right_dir, 0700), 0);
	dirs[0] = wrong_dir;
	dirs[1] = right_dir;
	c.search = dirs;
	c.search_nr = 2;
	/* by name: the first directory with the name */
	snprintf(path, sizeof(path), "%s/libgone.so.6", wrong_dir);
	assert_int_equal(copy_file(libc, path), 0);
	es = elfsyms__open("/gone/libgone.so.6", NULL, 0, &c);
	assert_int_equal(elfsyms__status(es), ELFSYMS_OK);
	assert_string_equal(elfsyms__found_elsewhere(es), path);
	assert_true(elfsyms__find(es, off + 1, &h));
	assert_int_equal(h.start, off);
	elfsyms__free(es);
	/* the recorded build-id is checked: another build of the name is refused, said as such */
	memset(wrong, 0x5a, sizeof(wrong));
	es = elfsyms__open("/gone/libgone.so.6", wrong, sizeof(wrong), &c);
	assert_int_equal(elfsyms__status(es), ELFSYMS_MISMATCH);
	assert_null(elfsyms__found_elsewhere(es));
	assert_string_equal(elfsyms__refused_elsewhere(es), path);
	elfsyms__free(es);
	/* by build-id, under another name, in the second directory */
	assert_int_equal(unlink(path), 0);
	bid_size = build_id_of(libc, bid);
	assert_true(bid_size >= 4);
	snprintf(path, sizeof(path), "%s/renamed", right_dir);
	assert_int_equal(copy_file(libc, path), 0);
	es = elfsyms__open("/gone/libgone.so.6", bid, bid_size, &c);
	assert_int_equal(elfsyms__status(es), ELFSYMS_OK);
	assert_string_equal(elfsyms__found_elsewhere(es), path);
	assert_null(elfsyms__refused_elsewhere(es));
	elfsyms__free(es);
	assert_int_equal(scratch_dir__remove(&d), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_missing_file_has_no_symbols),
		cmocka_unit_test(another_build_is_refused),
		cmocka_unit_test(finds_a_libc_function_where_the_dynamic_linker_has_it),
		cmocka_unit_test(a_file_under_the_symfs_root_is_read_there),
		cmocka_unit_test(a_moved_file_is_found_by_name_and_by_build_id),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* Unit tests of the --emit-clif directory reader (postproc/annotate/wasmtime/clif.c) on test-data/clif/. */
#include <errno.h>
#include <fcntl.h>
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

#include "annotate/wasmtime/clif.h"
#include "lib/util.h"

#define HDR(sym) ";; Intermediate Representation of function <" sym ">:\n"

static char err[1024];
static char dir[] = "/tmp/hotblocks-test-clif-XXXXXX";

static struct clif_set *load_ok(const char *d)
{
	struct clif_set *s = NULL;

	err[0] = '\0';
	if (clif_set__load(&s, d, err, sizeof(err)))
		fail_msg("%s", err);
	return s;
}

static const struct clif_func *find_ok(const struct clif_set *s, const char *symbol)
{
	const struct clif_func *f = clif_set__find(s, symbol);

	if (!f)
		fail_msg("no CLIF for %s", symbol);
	return f;
}

/* Expect the joined text at off to be want (NULL: none). */
static void text_is(const struct clif_func *f, uint32_t off, const char *want)
{
	const char *got = clif_func__text(f, off);

	if (!want && got)
		fail_msg("%s @%x: got '%s', want none", clif_func__symbol(f), off, got);
	if (want && (!got || strcmp(got, want)))
		fail_msg("%s @%x: got '%s', want '%s'", clif_func__symbol(f), off, got ? got : "(none)",
			 want);
}

static void write_file(const char *name, const char *text)
{
	char p[256];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	f = fopen(p, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static int setup(void **state)
{
	return mkdtemp(dir) ? 0 : -1;
}

/* Empty the scratch directory after each test that used it. */
static int clean_dir(void **state)
{
	static const char *const names[] = {
		"a.clif", "b.clif", "fifo", "dangling", "huge.clif", "f.clif", "c.clif",
	};
	char p[256];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		snprintf(p, sizeof(p), "%s/%s", dir, names[i]);
		unlink(p);
	}
	return 0;
}

static int teardown(void **state)
{
	clean_dir(state);
	return rmdir(dir);
}

/*
 * test-data/clif/fib: the emit directory of test-data/cwasm/fib-x86_64.cwasm.
 * Expectations read off the files by eye: @ lines grouped by offset in file order.
 */
static void the_fib_directory_yields_every_function_by_its_symbol(void **state)
{
	struct clif_set *s = load_ok("test-data/clif/fib");
	const struct clif_stats *st = clif_set__stats(s);
	const struct clif_func *f;

	assert_int_equal(clif_set__nr(s), 3);
	assert_int_equal(st->files, 3);
	assert_int_equal(st->unidentified, 0);
	assert_int_equal(st->duplicates, 0);
	assert_int_equal(st->bad_lines, 0);
	assert_null(clif_set__first_warning(s));

	f = find_ok(s, "wasm[0]::function[0]::fib");
	assert_string_equal(clif_func__path(f), "test-data/clif/fib/wasm[0]--function[0]--fib.clif");
	assert_int_equal(clif_func__nr_offsets(f), 9);
	text_is(f, 0x2b, "v4 = iconst.i32 1");
	/* Constant annotations stay in the text. */
	text_is(f, 0x39, "jump block3(v6, v4, v4)  ; v6 = 0, v4 = 1");
	/* Two lines at one offset are joined with "; " in file order. */
	text_is(f, 0x3f, "v10 = icmp uge v9, v2; v11 = uextend.i32 v10");
	/* The srcloc-less iconst between them is not kept anywhere. */
	text_is(f, 0x4e, "v14 = iadd.i32 v13, v12");
	text_is(f, 0x55, "v18 = iadd v9, v20  ; v20 = 1");
	text_is(f, 0x5e, "return v21");
	text_is(f, 0x2c, NULL);
	text_is(f, 0, NULL);

	f = find_ok(s, "wasm[0]::function[1]");
	text_is(f, 0x71, "v6 = icmp uge v4, v5  ; v5 = 0x0001_86a0; v7 = uextend.i32 v6");
	text_is(f, 0x76, "v8 = call fn0(v0, v0, v4)");

	/* A trampoline has no srclocs at all. */
	f = find_ok(s, "wasm[0]::array_to_wasm_trampoline[1]");
	assert_int_equal(clif_func__nr_offsets(f), 0);
	text_is(f, 0, NULL);

	/* File names are not symbols. */
	assert_null(clif_set__find(s, "wasm[0]--function[0]--fib"));
	assert_null(clif_set__find(s, "fib"));
	clif_set__free(s);
}

/* wasmtime's tests/disas/fibonacci.wat expectation verbatim, plus the header line. */
static void the_reference_example_joins_lines_of_one_offset(void **state)
{
	struct clif_set *s = load_ok("test-data/clif/cases");
	const struct clif_func *f = find_ok(s, "wasm[0]::function[0]::main");

	text_is(f, 0x1f, "v2 = iconst.i32 0");
	text_is(f, 0x33, "jump block3(v3, v5, v4)  ; v3 = 0, v5 = 1, v4 = 1");
	text_is(f, 0x39, "v9 = icmp sgt v7, v8  ; v8 = 5; v10 = uextend.i32 v9");
	text_is(f, 0x5a, "v17 = uextend.i64 v16  ; v16 = 0; "
		"v18 = load.i64 notrap aligned readonly can_move region2 v0+56; "
		"v19 = iadd v18, v17; store.i32 little region4 v11, v19");
	/* Across blocks too: block2's jump and block1's return share the final end. */
	text_is(f, 0x5d, "jump block1; return");
	assert_int_equal(clif_func__nr_offsets(f), 16);
	clif_set__free(s);
}

/*
 * Regression test for the reference's 4-digit srcloc parse (FORMATS.md, "CLIF dumps"):
 * "@1a2b3" is 0x1a2b3, not 0x1a2b followed by a stray "3".
 */
static void srclocs_past_64_kib_keep_all_their_digits(void **state)
{
	struct clif_set *s = load_ok("test-data/clif/cases");
	const struct clif_func *f = find_ok(s, "wasm[0]::function[7]::big");

	text_is(f, 0xffff, "v3 = iconst.i32 7");
	text_is(f, 0x10000, "v4 = iadd v2, v3  ; v3 = 7");
	text_is(f, 0x1a2b, "v5 = imul v4, v4");
	text_is(f, 0x1a2b3, "v6 = iadd v5, v2; v7 = ishl_imm v6, 1");
	text_is(f, 0xabcdef, "v8 = bor v7, v2");
	/* Zero padding beyond 4 digits is not what wasmtime writes, but reads the same. */
	text_is(f, 0x1a2b4, "v9 = band_imm v8, 255");
	text_is(f, 0xfffffffe, "return v9");
	text_is(f, 0x1000, NULL);
	clif_set__free(s);
}

static void garbage_srclocs_are_skipped_and_counted(void **state)
{
	struct clif_set *s = load_ok("test-data/clif/cases");
	const struct clif_stats *st = clif_set__stats(s);
	const struct clif_func *f = find_ok(s, "wasm[0]::function[8]::odd");

	/* "@", "@zz12", "@123456789", "@12g4", "@ffffffff", "@0044" alone, "@-", "<ss0 @0046" */
	assert_int_equal(st->bad_lines, 8);
	/* main, big, odd; nested/ is a directory and not descended into */
	assert_int_equal(clif_set__nr(s), 3);
	assert_int_equal(st->files, 3);
	/* wasm[0]--function[9].clif is from before the header line existed */
	assert_int_equal(st->unidentified, 1);
	assert_null(clif_set__find(s, "wasm[0]::function[10]"));
	/* Files are read in name order, so the first warning is odd.clif's line 9. */
	assert_string_equal(clif_set__first_warning(s),
			    "test-data/clif/cases/wasm[0]--function[8]--odd.clif:9: "
			    "srcloc is not '@' and hex digits");

	/* A debug-tag prefix is dropped and its srcloc used; the reference sees no srcloc there. */
	text_is(f, 0x40, "sequence_point");
	text_is(f, 0x42, "v3 = iadd_imm v2, 1; v11 = iadd_imm v3, 2");
	text_is(f, 0x46, "return");
	text_is(f, 0x44, NULL);
	text_is(f, 0x12, NULL);
	assert_int_equal(clif_func__nr_offsets(f), 3);
	clif_set__free(s);
}

static void a_missing_directory_is_an_error_naming_it(void **state)
{
	struct clif_set *s = NULL;

	assert_int_equal(clif_set__load(&s, "test-data/clif/no-such-dir", err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "test-data/clif/no-such-dir: No such file or directory");
	assert_null(s);
}

static void a_later_file_with_the_same_symbol_wins_and_is_counted(void **state)
{
	struct clif_set *s;
	const struct clif_func *f;

	write_file("b.clif", HDR("wasm[0]::function[3]") "@0010    v1 = iconst.i32 2\n");
	write_file("a.clif", HDR("wasm[0]::function[3]") "@0010    v1 = iconst.i32 1\n");
	s = load_ok(dir);
	assert_int_equal(clif_set__nr(s), 1);
	assert_int_equal(clif_set__stats(s)->files, 2);
	assert_int_equal(clif_set__stats(s)->duplicates, 1);
	f = find_ok(s, "wasm[0]::function[3]");
	/* strcmp order: a.clif, then b.clif, which wins whatever order readdir gives. */
	text_is(f, 0x10, "v1 = iconst.i32 2");
	assert_non_null(strstr(clif_set__first_warning(s), "b.clif: function wasm[0]::function[3] again"));
	clif_set__free(s);
}

/*
 * wasmtime 50 names some functions' CLIF "SYMBOL_wasm_call" (an ABI left in a
 * reused context; seen on test-data/wasmtime-real/50.0.1/component, e.g.
 * wasm[1]--function[49]_wasm_call.clif for the symbol wasm[1]::function[49]):
 * such a file is the symbol's when no file names the symbol exactly.
 */
static void a_stale_abi_suffix_is_the_symbols_when_nothing_names_it_exactly(void **state)
{
	struct clif_set *s;

	write_file("a.clif", HDR("wasm[1]::function[49]_wasm_call") "@0010    v1 = iconst.i32 1\n");
	write_file("b.clif", HDR("wasm[0]::function[3]::f_array_call") "@0010    v1 = iconst.i32 2\n");
	write_file("c.clif", HDR("wasm[0]::function[3]::f") "@0010    v1 = iconst.i32 3\n");
	s = load_ok(dir);
	assert_int_equal(clif_set__nr(s), 3);
	text_is(find_ok(s, "wasm[1]::function[49]"), 0x10, "v1 = iconst.i32 1");
	text_is(find_ok(s, "wasm[1]::function[49]_wasm_call"), 0x10, "v1 = iconst.i32 1");
	/* the exact name first */
	text_is(find_ok(s, "wasm[0]::function[3]::f"), 0x10, "v1 = iconst.i32 3");
	text_is(find_ok(s, "wasm[0]::function[3]::f_array_call"), 0x10, "v1 = iconst.i32 2");
	/* a suffix only after the whole symbol, never in place of part of it */
	assert_null(clif_set__find(s, "wasm[1]::function[4]"));
	assert_null(clif_set__find(s, "wasm[1]::function[49]_wasm"));
	clif_set__free(s);
}

static void fifos_dangling_links_and_huge_files_are_passed_over(void **state)
{
	struct clif_set *s;
	char p[256];
	int fd;

	/* Opening a FIFO would block forever: it must not even be opened. */
	snprintf(p, sizeof(p), "%s/fifo", dir);
	assert_int_equal(mkfifo(p, 0600), 0);
	snprintf(p, sizeof(p), "%s/dangling", dir);
	assert_int_equal(symlink("/nonexistent/hotblocks", p), 0);
	/* Sparse: costs no disk, but is over the limit. */
	snprintf(p, sizeof(p), "%s/huge.clif", dir);
	fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, (off_t)CLIF_MAX_FILE_SIZE + 1), 0);
	close(fd);
	write_file("f.clif", HDR("wasm[0]::function[4]") "@0010    return\n");

	s = load_ok(dir);
	assert_int_equal(clif_set__nr(s), 1);
	assert_int_equal(clif_set__stats(s)->unidentified, 2);
	/* "dangling" sorts first. */
	assert_non_null(strstr(clif_set__first_warning(s), "/dangling: No such file or directory"));
	text_is(find_ok(s, "wasm[0]::function[4]"), 0x10, "return");
	clif_set__free(s);
}

static struct clif_func *parse_ok(const char *text, size_t len, size_t want_bad)
{
	struct clif_func *f = NULL;
	size_t bad = 99;

	if (clif_func__parse(&f, text, len, "t", &bad, err, sizeof(err)))
		fail_msg("refused '%.40s...'", text);
	if (bad != want_bad)
		fail_msg("%zu bad lines, want %zu (first: %s)", bad, want_bad, err);
	return f;
}

static void only_the_exact_header_line_identifies_a_file(void **state)
{
	static const char crlf[] = ";; Intermediate Representation of function <x>y>:\r\n@0001 a\r\n";
	static const char *const not_headers[] = {
		"",
		"\n",
		"function u0:0(i64 vmctx, i64) tail {\n",
		";; Intermediate Representation of function wasm[0]::function[0]:\n",
		";; Intermediate Representation of function <>:\n",
		";; Intermediate Representation of function <wasm[0]::function[0]>\n",
		" ;; Intermediate Representation of function <wasm[0]::function[0]>:\n",
		"\n;; Intermediate Representation of function <wasm[0]::function[0]>:\n",
	};
	struct clif_func *f = NULL;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(not_headers); i++)
		assert_int_equal(clif_func__parse(&f, not_headers[i], strlen(not_headers[i]), "t",
						  NULL, NULL, 0), -ENOENT);
	assert_null(f);

	/* No newline at all, CRLF, a '>' inside the symbol: all fine. */
	f = parse_ok(HDR("a"), strlen(HDR("a")) - 1, 0);
	assert_string_equal(clif_func__symbol(f), "a");
	assert_int_equal(clif_func__nr_offsets(f), 0);
	clif_func__free(f);
	f = parse_ok(crlf, sizeof(crlf) - 1, 0);
	assert_string_equal(clif_func__symbol(f), "x>y");
	text_is(f, 1, "a");
	clif_func__free(f);
	/* A NUL in the header is not a header. */
	assert_int_equal(clif_func__parse(&f, HDR("a\0b"), sizeof(HDR("a\0b")) - 1, "t", NULL,
					  NULL, 0), -ENOENT);
}

static void line_forms_are_read_as_documented(void **state)
{
	static const char text[] =
		HDR("s")
		"\t@00AB\tv1 = iconst.i32 1   \t\n"		/* tabs, upper case, trailing blanks */
		"@000000042 v2 = iconst.i32 2\n"		/* 9 digits, value fits */
		"@100000000 v3 = iconst.i32 3\n"		/* 33 bits: bad */
		"@+12 v4 = iconst.i32 4\n"			/* from_str_radix takes '+', we do not */
		"@0042   \n"					/* no instruction: bad */
		"@0042 v5 = iconst.i32 5\r\n"			/* CRLF */
		"@0043\0 v6\n"					/* NUL: bad */
		"@0047 v9\rv10\n"				/* a lone CR: bad */
		"    v7 -> v5\n"				/* alias: no srcloc */
		"<1, 2> @0044 sequence_point\n"
		"<unclosed @0045 v8\n"				/* bad */
		"@0046";					/* last line, no newline, no text: bad */
	struct clif_func *f = parse_ok(text, sizeof(text) - 1, 7);

	assert_string_equal(err, "t:4: srcloc beyond 32 bits");
	text_is(f, 0xab, "v1 = iconst.i32 1");
	text_is(f, 0x42, "v2 = iconst.i32 2; v5 = iconst.i32 5");
	text_is(f, 0x44, "sequence_point");
	text_is(f, 0x43, NULL);
	text_is(f, 0x45, NULL);
	text_is(f, 0x46, NULL);
	text_is(f, 0x47, NULL);
	text_is(f, 0x12, NULL);
	assert_int_equal(clif_func__nr_offsets(f), 3);
	clif_func__free(f);
}

/* Random bytes after a header: never a crash or a read past the buffer (valgrind, ASan). */
static void random_lines_never_crash(void **state)
{
	static const char alphabet[] = "@@@<>  \t\n\r0123456789abcdefABCDEFxyz;=-\0\xff";
	uint64_t r = 0x853c49e6748fea9bULL;
	size_t round, i;

	for (round = 0; round < 3000; round++) {
		size_t len = strlen(HDR("r")) + round % 200;
		char *buf = malloc(len);
		struct clif_func *f = NULL;
		size_t bad;

		assert_non_null(buf);
		memcpy(buf, HDR("r"), strlen(HDR("r")));
		for (i = strlen(HDR("r")); i < len; i++) {
			r ^= r << 13;
			r ^= r >> 7;
			r ^= r << 17;
			buf[i] = alphabet[r % (sizeof(alphabet) - 1)];
		}
		assert_int_equal(clif_func__parse(&f, buf, len, "r", &bad, err, sizeof(err)), 0);
		/* Every kept text is non-empty and free of line breaks. */
		for (i = 0; i < 0x100; i++) {
			const char *t = clif_func__text(f, i);

			assert_true(!t || (*t && !strpbrk(t, "\r\n")));
		}
		clif_func__free(f);
		free(buf);
	}
}

static void an_empty_directory_loads_nothing(void **state)
{
	struct clif_set *s = load_ok(dir);

	assert_int_equal(clif_set__nr(s), 0);
	assert_int_equal(clif_set__stats(s)->files, 0);
	assert_null(clif_set__first_warning(s));
	assert_null(clif_set__find(s, "anything"));
	clif_set__free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_fib_directory_yields_every_function_by_its_symbol),
		cmocka_unit_test(the_reference_example_joins_lines_of_one_offset),
		cmocka_unit_test(srclocs_past_64_kib_keep_all_their_digits),
		cmocka_unit_test(garbage_srclocs_are_skipped_and_counted),
		cmocka_unit_test(a_missing_directory_is_an_error_naming_it),
		cmocka_unit_test_teardown(a_later_file_with_the_same_symbol_wins_and_is_counted, clean_dir),
		cmocka_unit_test_teardown(a_stale_abi_suffix_is_the_symbols_when_nothing_names_it_exactly, clean_dir),
		cmocka_unit_test_teardown(fifos_dangling_links_and_huge_files_are_passed_over, clean_dir),
		cmocka_unit_test(only_the_exact_header_line_identifies_a_file),
		cmocka_unit_test(line_forms_are_read_as_documented),
		cmocka_unit_test(random_lines_never_crash),
		cmocka_unit_test(an_empty_directory_loads_nothing),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

/* SPDX-License-Identifier: MIT */
/* Unit tests of postproc/lib/map-file.c, on files and a FIFO made in a fresh directory. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/map-file.h"
#include "lib/read-file.h"

static char dir[] = "/tmp/hotblocks-map-file.XXXXXX";
static char path[256], err[512];

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	static const char *const names[] = { "f", "empty", "big", "fifo", "stderr" };

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	return rmdir(dir);
}

static const char *put(const char *name, const char *text, size_t len)
{
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
	return path;
}

/*
 * Forgetting a range drops its whole pages alone: a byte written in a page
 * the range only begins in stays written, and every byte reads as before
 * (the forgotten pages come back from the file).
 */
static void a_forgotten_range_keeps_the_bytes_and_the_pages_around_it(void **state)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), n = 4 * page;
	char *text = malloc(n);
	struct mapped_file f;

	(void)state;
	assert_non_null(text);
	for (size_t i = 0; i < n; i++)
		text[i] = (char)('a' + i % 23);
	put("big", text, n);
	assert_int_equal(map_file(path, 1 << 20, "1 MiB", MAP_FILE_WRITABLE, &f, err, sizeof(err)), 0);
	assert_true(f.mapped);
	f.buf[page - 1] = '!';		/* written: in the page the range begins in */
	f.buf[3 * page + 60] = '?';	/* and in the one it ends in */
	map_file__forget_range(&f, f.buf + page - 10, 2 * page + 100);
	assert_int_equal(f.buf[page - 1], '!');
	assert_int_equal(f.buf[3 * page + 60], '?');
	text[page - 1] = '!';
	text[3 * page + 60] = '?';
	assert_memory_equal(f.buf, text, n);
	/* out of the file: nothing */
	map_file__forget_range(&f, f.buf + n - 10, 100);
	assert_memory_equal(f.buf, text, n);
	unmap_file(&f);
	free(text);
}

static void regular_files_are_mapped_and_others_read(void **state)
{
	struct mapped_file f;

	(void)state;
	assert_int_equal(map_file(put("f", "(module)\n", 9), 100, "100 bytes", 0, &f, err, sizeof(err)), 0);
	assert_true(f.mapped);
	assert_int_equal(f.len, 9);
	assert_memory_equal(f.buf, "(module)\n", 9);
	unmap_file(&f);
	assert_null(f.buf);
	/* Writable on request: copy-on-write, the file keeps its bytes. */
	assert_int_equal(map_file(path, 100, "100 bytes", MAP_FILE_WRITABLE, &f, err, sizeof(err)), 0);
	f.buf[0] = ')';
	unmap_file(&f);
	assert_int_equal(map_file(path, 100, "100 bytes", 0, &f, err, sizeof(err)), 0);
	assert_int_equal(f.buf[0], '(');
	unmap_file(&f);
	/* An empty file cannot be mapped: read, as read_file does. */
	assert_int_equal(map_file(put("empty", "", 0), 100, "100 bytes", 0, &f, err, sizeof(err)), 0);
	assert_false(f.mapped);
	assert_int_equal(f.len, 0);
	unmap_file(&f);
}

static void refusals_are_read_files(void **state)
{
	struct mapped_file f;
	char want[400];

	(void)state;
	put("f", "0123456789", 10);
	assert_int_equal(map_file(path, 9, "9 bytes", 0, &f, err, sizeof(err)), -EFBIG);
	snprintf(want, sizeof(want), "%s: 10 bytes, larger than 9 bytes", path);
	assert_string_equal(err, want);
	assert_null(f.buf);
	assert_int_equal(map_file(dir, 9, "9 bytes", READ_FILE_PIPES, &f, err, sizeof(err)), -EISDIR);
	snprintf(path, sizeof(path), "%s/none", dir);
	assert_int_equal(map_file(path, 9, "9 bytes", 0, &f, err, sizeof(err)), -ENOENT);
	/* A FIFO nobody writes to: refused at once, not waited on. */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(map_file(path, 9, "9 bytes", 0, &f, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: not a regular file", path);
	assert_string_equal(err, want);
}

/*
 * A mapped file cut short under its reader: reading a lost page ends the
 * program with status 1 and the file's name, not with SIGBUS. In a child,
 * whose stderr goes to a file.
 */
static void a_file_cut_short_is_an_error_naming_it(void **state)
{
	size_t n = 3 * 65536;
	char *big = malloc(n), errpath[300], msg[600] = "";
	int status, fd;
	pid_t pid;
	FILE *e;

	(void)state;
	assert_non_null(big);
	memset(big, 'x', n);
	put("big", big, n);
	free(big);
	snprintf(errpath, sizeof(errpath), "%s/stderr", dir);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct mapped_file f;
		volatile uint8_t sum = 0;

		fd = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (fd < 0 || dup2(fd, STDERR_FILENO) < 0)
			_exit(3);
		if (map_file(path, n, "the size", 0, &f, err, sizeof(err)) || !f.mapped)
			_exit(4);
		if (truncate(path, 0))
			_exit(5);
		for (size_t i = 0; i < f.len; i += 4096)
			sum += f.buf[i];
		_exit(6);	/* read it all: the cut went unseen */
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 1);
	e = fopen(errpath, "r");
	assert_non_null(e);
	assert_non_null(fgets(msg, sizeof(msg), e));
	fclose(e);
	assert_non_null(strstr(msg, "error: "));
	assert_non_null(strstr(msg, path));
	assert_non_null(strstr(msg, "cut short"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(regular_files_are_mapped_and_others_read),
		cmocka_unit_test(a_forgotten_range_keeps_the_bytes_and_the_pages_around_it),
		cmocka_unit_test(refusals_are_read_files),
		cmocka_unit_test(a_file_cut_short_is_an_error_naming_it),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

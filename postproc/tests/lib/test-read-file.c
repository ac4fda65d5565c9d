/* SPDX-License-Identifier: MIT */
/* Unit tests of postproc/lib/read-file.c, on files, a directory and FIFOs made in a fresh directory. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
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

#include "lib/read-file.h"

static char dir[] = "/tmp/hotblocks-read-file.XXXXXX";
static char path[256], err[512];

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	static const char *const names[] = { "f", "empty", "fifo", "pipe" };

	(void)state;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		unlink(path);
	}
	return rmdir(dir);
}

static const char *put(const char *name, const char *text)
{
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
	return path;
}

static void regular_files_are_read_whole_and_nul_terminated(void **state)
{
	uint8_t *buf;
	size_t len;

	(void)state;
	assert_int_equal(read_file(put("f", "(module)\n"), 100, "100 bytes", 0, &buf, &len, err,
				   sizeof(err)), 0);
	assert_int_equal(len, 9);
	assert_string_equal((char *)buf, "(module)\n");
	free(buf);
	assert_int_equal(read_file(put("empty", ""), 100, "100 bytes", 0, &buf, &len, err,
				   sizeof(err)), 0);
	assert_int_equal(len, 0);
	assert_string_equal((char *)buf, "");
	free(buf);
}

static void refusals_name_the_file_and_why(void **state)
{
	uint8_t *buf = (uint8_t *)"x";
	size_t len = 7;
	char want[400];

	(void)state;
	put("f", "0123456789");
	assert_int_equal(read_file(path, 9, "9 bytes", 0, &buf, &len, err, sizeof(err)), -EFBIG);
	snprintf(want, sizeof(want), "%s: 10 bytes, larger than 9 bytes", path);
	assert_string_equal(err, want);
	assert_null(buf);
	assert_int_equal(len, 0);
	assert_int_equal(read_file(dir, 9, "9 bytes", READ_FILE_PIPES, &buf, &len, err, sizeof(err)),
			 -EISDIR);
	snprintf(want, sizeof(want), "%s: is a directory", dir);
	assert_string_equal(err, want);
	snprintf(path, sizeof(path), "%s/none", dir);
	assert_int_equal(read_file(path, 9, "9 bytes", 0, &buf, &len, err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "%s: %s", path, strerror(ENOENT));
	assert_string_equal(err, want);
	/* A FIFO nobody writes to: refused at once, not waited on. */
	snprintf(path, sizeof(path), "%s/fifo", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	assert_int_equal(read_file(path, 9, "9 bytes", 0, &buf, &len, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: not a regular file", path);
	assert_string_equal(err, want);
	/* No message buffer: just the error. */
	assert_int_equal(read_file(path, 9, "9 bytes", 0, &buf, &len, NULL, 0), -EINVAL);
	/* A device is no pipe: refused at once, not read until the limit
	 * (/dev/zero never ends). */
	assert_int_equal(read_file("/dev/zero", 9, "9 bytes", READ_FILE_PIPES, &buf, &len, err,
				   sizeof(err)), -EINVAL);
	assert_string_equal(err, "/dev/zero: a character device, not a regular file or a pipe");
	assert_null(buf);
}

/* A FIFO fed n bytes of 'x' by a child; returns the child's pid. */
static pid_t feed(const char *fifo, size_t n)
{
	pid_t pid;

	unlink(fifo);
	assert_int_equal(mkfifo(fifo, 0600), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		int fd = open(fifo, O_WRONLY);
		char chunk[4096];

		memset(chunk, 'x', sizeof(chunk));
		while (fd >= 0 && n) {
			ssize_t w = write(fd, chunk, n < sizeof(chunk) ? n : sizeof(chunk));

			if (w <= 0)
				break;
			n -= (size_t)w;
		}
		_exit(0);
	}
	return pid;
}

static void pipes_are_read_to_their_end_when_asked(void **state)
{
	uint8_t *buf;
	size_t len;
	int status;
	pid_t pid;

	(void)state;
	snprintf(path, sizeof(path), "%s/pipe", dir);
	/* Larger than one read of the pipe, and than the first buffer. */
	pid = feed(path, 200000);
	assert_int_equal(read_file(path, 1 << 20, "1 MiB", READ_FILE_PIPES, &buf, &len, err,
				   sizeof(err)), 0);
	assert_int_equal(len, 200000);
	assert_int_equal(buf[0], 'x');
	assert_int_equal(buf[len - 1], 'x');
	assert_int_equal(buf[len], '\0');
	free(buf);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	/* Past max: refused, without a size to name. */
	pid = feed(path, 300000);
	assert_int_equal(read_file(path, 100000, "100000 bytes", READ_FILE_PIPES, &buf, &len, err,
				   sizeof(err)), -EFBIG);
	assert_non_null(strstr(err, "pipe: larger than 100000 bytes"));
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	/* Exactly max bytes: read, in a buffer of about max bytes, not the next
	 * power of two past max + 64 KiB (2 MiB here: a 1 GiB limit once took
	 * 2 GiB); malloc rounds a large block up to whole pages. */
	pid = feed(path, 1000000);
	assert_int_equal(read_file(path, 1000000, "1000000 bytes", READ_FILE_PIPES, &buf, &len, err,
				   sizeof(err)), 0);
	assert_int_equal(len, 1000000);
	assert_true(malloc_usable_size(buf) <= 1000000 + 2 + 8192);
	free(buf);
	assert_int_equal(waitpid(pid, &status, 0), pid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(regular_files_are_read_whole_and_nul_terminated),
		cmocka_unit_test(refusals_name_the_file_and_why),
		cmocka_unit_test(pipes_are_read_to_their_end_when_asked),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

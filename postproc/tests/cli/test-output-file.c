/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of postproc/cli/output-file.c, on files, links and a directory
 * made in a fresh directory: an output that is an input by any name is
 * refused and left as it was, at the open and at the commit; a failed
 * render replaces nothing. How the file is written beside its target and
 * renamed is the writer's (plugin/tests/lib/test-atomic-file.c).
 */
#define _GNU_SOURCE
#include <dirent.h>
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

#include "cli/output-file.h"
#include "lib/inputs.h"

static char dir[] = "/tmp/hotblocks-output-file.XXXXXX";

static char *in_dir(const char *name)
{
	char *p;

	assert_true(asprintf(&p, "%s/%s", dir, name) > 0);
	return p;
}

static void put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The file's text (up to 255 bytes). */
static const char *get(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n;

	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int not_dots(const struct dirent *de)
{
	return strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
}

/* How many names the directory holds besides . and .. (no temporary file left behind). */
static int entries(void)
{
	struct dirent **names;
	int n = scandir(dir, &names, not_dots, NULL);

	assert_true(n >= 0);
	for (int i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return n;
}

static int setup(void **state)
{
	(void)state;
	return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
	char *cmd;
	int ret;

	(void)state;
	inputs_forget();
	if (asprintf(&cmd, "rm -rf '%s'", dir) < 0)
		return -1;
	ret = system(cmd);
	free(cmd);
	strcpy(dir + strlen(dir) - 6, "XXXXXX");
	return ret;
}

static void an_input_is_refused_by_every_name(void **state)
{
	char *in = in_dir("a.hbs"), *hard = in_dir("hard"), *soft = in_dir("soft"), *other = in_dir("b");
	struct output_file of;

	(void)state;
	put(in, "the stream\n");
	assert_int_equal(link(in, hard), 0);
	assert_int_equal(symlink("a.hbs", soft), 0);
	put(other, "another file\n");
	assert_int_equal(inputs_note_path(in, "the input stream a.hbs"), 0);
	assert_int_equal(output_file__check(in), -EEXIST);
	assert_int_equal(output_file__check(hard), -EEXIST);
	assert_int_equal(output_file__check(soft), -EEXIST);
	assert_int_equal(output_file__open(&of, soft), -EEXIST);
	assert_null(of.f);
	assert_int_equal(output_file__check(other), 0);
	/* Not there yet: nothing to lose. */
	free(other);
	other = in_dir("new");
	assert_int_equal(output_file__check(other), 0);
	assert_string_equal(get(in), "the stream\n");
	assert_int_equal(entries(), 4);
	free(in), free(hard), free(soft), free(other);
}

static void an_open_file_is_an_input_and_a_pipe_is_not(void **state)
{
	char *in = in_dir("m.wasm");
	int fd, pipefd[2];

	(void)state;
	put(in, "\0asm");
	fd = open(in, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(pipe(pipefd), 0);
	assert_int_equal(inputs_note_fd(pipefd[0], "<stdin>"), 0);
	assert_int_equal(inputs_note_fd(fd, in), 0);
	close(fd);
	close(pipefd[0]);
	close(pipefd[1]);
	assert_int_equal(output_file__check(in), -EEXIST);
	free(in);
}

static void a_directory_input_holds_its_files(void **state)
{
	char *clif = in_dir("clif"), *f = in_dir("clif/wasm_func_0.clif"), *fresh = in_dir("clif/new");
	char *beside = in_dir("report.txt");

	(void)state;
	assert_int_equal(mkdir(clif, 0755), 0);
	put(f, "function u0:0() {\n");
	put(beside, "old report\n");
	assert_int_equal(inputs_note_path(clif, "a file of the --clif directory clif"), 0);
	assert_int_equal(output_file__check(f), -EEXIST);
	assert_int_equal(output_file__check(clif), -EEXIST);
	assert_int_equal(output_file__check(fresh), 0);
	assert_int_equal(output_file__check(beside), 0);
	free(clif), free(f), free(fresh), free(beside);
}

static void a_failed_render_leaves_the_earlier_file(void **state)
{
	char *out = in_dir("report.txt");
	struct output_file of;

	(void)state;
	put(out, "the earlier report\n");
	assert_int_equal(output_file__open(&of, out), 0);
	fputs("half a rep", of.f);
	assert_int_equal(output_file__commit(&of, -ENOMEM), -1);
	assert_null(of.f);
	assert_string_equal(get(out), "the earlier report\n");
	assert_int_equal(entries(), 1);
	free(out);
}

/* A file the render read (a source file) is an input too: the rename is refused. */
static void an_input_read_while_rendering_is_not_replaced(void **state)
{
	char *out = in_dir("hot.js");
	struct output_file of;
	int fd;

	(void)state;
	put(out, "function work() {}\n");
	assert_int_equal(output_file__open(&of, out), 0);
	fputs("a report\n", of.f);
	fd = open(out, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(inputs_note_fd(fd, out), 0);
	close(fd);
	assert_int_equal(output_file__commit(&of, 0), -EEXIST);
	assert_string_equal(get(out), "function work() {}\n");
	assert_int_equal(entries(), 1);
	free(out);
}

static void a_missing_directory_fails_at_open(void **state)
{
	char *out = in_dir("no/such/dir/report.txt");
	struct output_file of;

	(void)state;
	assert_int_equal(output_file__open(&of, out), -1);
	assert_null(of.f);
	assert_int_equal(entries(), 0);
	free(out);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(an_input_is_refused_by_every_name),
		T(an_open_file_is_an_input_and_a_pipe_is_not),
		T(a_directory_input_holds_its_files),
		T(a_failed_render_leaves_the_earlier_file),
		T(an_input_read_while_rendering_is_not_replaced),
		T(a_missing_directory_fails_at_open),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: MIT
/*
 * Unit tests of plugin/lib/atomic-file.c, the writer of both programs'
 * outputs, on files, links, a FIFO and directories made in a fresh
 * directory: an output is written beside its target with the target's mode
 * and owner and renamed into place only by a commit (a read-only file is
 * not replaced); a symlink is written through, a FIFO in place; the guard
 * is asked at every step and its refusal leaves the target as it was; a
 * fatal signal leaves no new file behind.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "lib/atomic-file.h"
#include "tests/scratch-dir.h"

static struct scratch_dir dir;

static char *in_dir(const char *name)
{
	return scratch_dir__file(&dir, name);
}

#define put scratch_dir__put

/* The file's text (its first 255 bytes), kept until the next call. */
static const char *get(const char *path)
{
	static char buf[256];
	char *text = scratch_dir__get(path);

	snprintf(buf, sizeof(buf), "%s", text);
	free(text);
	return buf;
}

static int entries(void)
{
	return scratch_dir__entries(&dir);
}

static int setup(void **state)
{
	(void)state;
	return scratch_dir__make(&dir, "atomic-file");
}

static int teardown(void **state)
{
	(void)state;
	return scratch_dir__remove(&dir);
}

static void a_file_is_renamed_into_place_with_its_mode(void **state)
{
	char *out = in_dir("report.html");
	struct atomic_file af;
	struct stat st;

	(void)state;
	put(out, "the earlier report\n");
	assert_int_equal(chmod(out, 0640), 0);
	assert_int_equal(atomic_file__open(&af, out, NULL, 0), 0);
	assert_non_null(af.tmp);
	/* Beside it, not in it: the earlier file is whole until the rename. */
	assert_int_equal(entries(), 2);
	fputs("the new report\n", af.f);
	assert_int_equal(atomic_file__close(&af), 0);
	assert_string_equal(get(out), "the earlier report\n");
	assert_int_equal(atomic_file__commit(&af), 0);
	atomic_file__release(&af);
	assert_string_equal(get(out), "the new report\n");
	assert_int_equal(stat(out, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_int_equal(entries(), 1);
	free(out);
}

static void a_new_file_gets_the_umask_mode(void **state)
{
	char *out = in_dir("new.json");
	struct atomic_file af;
	struct stat st;
	mode_t old = umask(027);

	(void)state;
	assert_int_equal(atomic_file__open(&af, out, NULL, 0), 0);
	assert_int_equal(access(out, F_OK), -1);
	fputs("{}\n", af.f);
	assert_int_equal(atomic_file__close(&af), 0);
	assert_int_equal(atomic_file__commit(&af), 0);
	atomic_file__release(&af);
	umask(old);
	assert_int_equal(stat(out, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0640);
	assert_string_equal(get(out), "{}\n");
	free(out);
}

/* Root keeps the owner of the file it replaces (and its set-user-ID bit,
 * which a change of owner after the mode would clear); anyone else can
 * replace only a file of their own. */
static void the_owner_is_kept(void **state)
{
	char *out = in_dir("owned.txt");
	uid_t uid = geteuid() ? geteuid() : 1234;
	gid_t gid = geteuid() ? getegid() : 5678;
	struct atomic_file af;
	struct stat st;

	(void)state;
	put(out, "someone's\n");
	assert_int_equal(chown(out, uid, gid), 0);
	assert_int_equal(chmod(out, 04750), 0);
	assert_int_equal(atomic_file__open(&af, out, NULL, 0), 0);
	assert_int_equal(atomic_file__close(&af), 0);
	assert_int_equal(atomic_file__commit(&af), 0);
	atomic_file__release(&af);
	assert_int_equal(stat(out, &st), 0);
	assert_int_equal(st.st_uid, uid);
	assert_int_equal(st.st_gid, gid);
	assert_int_equal(st.st_mode & 07777, 04750);
	free(out);
}

/* atomic_file__open(path)'s result and whether it left a file open, as
 * someone who is not root (root may write any file): its exit status. */
static int open_as_user(const char *path)
{
	struct atomic_file af;
	int status, ret;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		if (!geteuid() && (setgid(65534) || setuid(65534)))
			_exit(99);
		ret = atomic_file__open(&af, path, NULL, 0);
		_exit(ret == -EACCES && !af.f ? 0 : 1);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* A file its owner made read-only is not replaced behind their back. */
static void a_read_only_file_fails_at_open(void **state)
{
	char *out = in_dir("kept.txt");

	(void)state;
	assert_int_equal(chmod(dir.path, 0777), 0);
	put(out, "keep me\n");
	assert_int_equal(chmod(out, 0444), 0);
	assert_int_equal(open_as_user(out), 0);
	assert_string_equal(get(out), "keep me\n");
	assert_int_equal(entries(), 1);
	free(out);
}

static void a_release_without_commit_leaves_the_earlier_file(void **state)
{
	char *out = in_dir("report.txt");
	struct atomic_file af;

	(void)state;
	put(out, "the earlier report\n");
	assert_int_equal(atomic_file__open(&af, out, NULL, 0), 0);
	fputs("half a rep", af.f);
	atomic_file__release(&af);
	assert_null(af.f);
	assert_null(af.tmp);
	assert_string_equal(get(out), "the earlier report\n");
	assert_int_equal(entries(), 1);
	free(out);
}

static void a_symlink_is_written_through(void **state)
{
	char *file = in_dir("real.txt"), *link_path = in_dir("latest.txt"), *real;
	struct atomic_file af;
	struct stat st;

	(void)state;
	put(file, "old\n");
	assert_int_equal(symlink("real.txt", link_path), 0);
	assert_int_equal(atomic_file__open(&af, link_path, NULL, 0), 0);
	assert_non_null(real = realpath(file, NULL));
	assert_string_equal(af.target, real);
	free(real);
	fputs("new\n", af.f);
	assert_int_equal(atomic_file__close(&af), 0);
	assert_int_equal(atomic_file__commit(&af), 0);
	atomic_file__release(&af);
	assert_int_equal(lstat(link_path, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_string_equal(get(file), "new\n");
	assert_int_equal(entries(), 2);
	free(file), free(link_path);
}

/* A FIFO (or /dev/null, a terminal) is written as it is, never replaced by a file. */
static void a_fifo_is_written_in_place(void **state)
{
	char *fifo = in_dir("fifo"), buf[64] = { 0 };
	struct atomic_file af;
	struct stat st;
	int rd;

	(void)state;
	assert_int_equal(mkfifo(fifo, 0600), 0);
	rd = open(fifo, O_RDONLY | O_NONBLOCK);
	assert_true(rd >= 0);
	assert_int_equal(atomic_file__open(&af, fifo, NULL, 0), 0);
	assert_null(af.tmp);
	fputs("through the fifo\n", af.f);
	assert_int_equal(atomic_file__close(&af), 0);
	assert_int_equal(atomic_file__commit(&af), 0);
	atomic_file__release(&af);
	assert_int_equal(read(rd, buf, sizeof(buf) - 1), 17);
	assert_string_equal(buf, "through the fifo\n");
	close(rd);
	assert_int_equal(stat(fifo, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	free(fifo);
}

static void a_missing_directory_fails_at_open(void **state)
{
	char *out = in_dir("no/such/dir/report.txt");
	struct atomic_file af;

	(void)state;
	assert_int_equal(atomic_file__open(&af, out, NULL, 0), -ENOENT);
	assert_null(af.f);
	assert_int_equal(entries(), 0);
	free(out);
}

/* A guard that refuses when its step comes (the calls counted from 1), and
 * keeps the file it was shown. */
struct step_guard {
	int calls, refuse_at;
	struct stat seen;
};

static int refuse_at_step(const char *path, const struct stat *st, void *ctx)
{
	struct step_guard *g = ctx;

	assert_non_null(path);
	g->seen = *st;
	return ++g->calls == g->refuse_at ? 7 : 0;
}

static void the_guard_stops_the_writer_at_each_step(void **state)
{
	char *out = in_dir("out.hbs"), *fifo = in_dir("fifo");
	struct step_guard g = { 0 };
	struct atomic_file_guard guard = { refuse_at_step, &g };
	struct atomic_file af;
	struct stat st;
	int rd;

	(void)state;
	put(out, "the earlier stream\n");
	/* Before the open: nothing made. */
	g.refuse_at = 1;
	assert_int_equal(atomic_file__open(&af, out, &guard, 0), 7);
	assert_null(af.f);
	assert_int_equal(entries(), 1);
	/* Before the rename: the earlier file stays, the new one goes. */
	g = (struct step_guard){ .refuse_at = 2 };
	assert_int_equal(atomic_file__open(&af, out, &guard, 0), 0);
	fputs("a new stream\n", af.f);
	assert_int_equal(atomic_file__close(&af), 0);
	assert_int_equal(atomic_file__commit(&af), 7);
	atomic_file__release(&af);
	assert_string_equal(get(out), "the earlier stream\n");
	assert_int_equal(entries(), 1);
	/* Written in place: asked about the file opened. */
	assert_int_equal(mkfifo(fifo, 0600), 0);
	rd = open(fifo, O_RDONLY | O_NONBLOCK);
	assert_true(rd >= 0);
	g = (struct step_guard){ .refuse_at = 2 };
	assert_int_equal(atomic_file__open(&af, fifo, &guard, 0), 7);
	assert_null(af.f);
	assert_int_equal(stat(fifo, &st), 0);
	assert_true(atomic_file__same(&g.seen, &st));
	close(rd);
	/* Nothing there yet is nobody's input: not asked. */
	free(out);
	out = in_dir("new.hbs");
	g = (struct step_guard){ .refuse_at = 1 };
	assert_int_equal(atomic_file__open(&af, out, &guard, 0), 0);
	assert_int_equal(g.calls, 0);
	atomic_file__release(&af);
	free(out), free(fifo);
}

/* ATOMIC_FILE_SIGNALS: a run ended by SIGTERM while it writes leaves the
 * earlier file and nothing beside it. */
static void a_fatal_signal_removes_the_new_file(void **state)
{
	char *out = in_dir("report.txt");
	int status;
	pid_t pid;

	(void)state;
	put(out, "the earlier report\n");
	fflush(NULL);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		struct atomic_file af;

		signal(SIGTERM, SIG_DFL);
		if (atomic_file__open(&af, out, NULL, ATOMIC_FILE_SIGNALS) || access(af.tmp, F_OK))
			_exit(1);
		fputs("half a rep", af.f);
		raise(SIGTERM);
		_exit(2);
	}
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFSIGNALED(status));
	assert_int_equal(WTERMSIG(status), SIGTERM);
	assert_string_equal(get(out), "the earlier report\n");
	assert_int_equal(entries(), 1);
	free(out);
}

static void one_file_by_every_name(void **state)
{
	char *file = in_dir("perf.data"), *hard = in_dir("hard"), *soft = in_dir("soft");
	char *other = in_dir("other"), *threads = in_dir("threads.data");
	char *threads_data = in_dir("threads.data/data"), *beside = in_dir("threads.data/beside");
	struct stat a, b, st;

	(void)state;
	put(file, "PERFILE2\n");
	put(other, "PERFILE2\n");
	assert_int_equal(link(file, hard), 0);
	assert_int_equal(symlink("perf.data", soft), 0);
	assert_int_equal(stat(file, &a), 0);
	assert_int_equal(stat(hard, &b), 0);
	assert_true(atomic_file__same(&a, &b));
	assert_int_equal(stat(soft, &b), 0);
	assert_true(atomic_file__same(&a, &b));
	assert_int_equal(stat(other, &b), 0);
	assert_false(atomic_file__same(&a, &b));
	assert_true(atomic_file__is_recording(&a, soft));
	assert_false(atomic_file__is_recording(&b, file));
	/* perf record --threads: the recording is the directory's data file. */
	assert_int_equal(mkdir(threads, 0755), 0);
	put(threads_data, "PERFILE2\n");
	put(beside, "a note\n");
	assert_int_equal(stat(threads_data, &st), 0);
	assert_true(atomic_file__is_recording(&st, threads));
	assert_int_equal(stat(beside, &st), 0);
	assert_false(atomic_file__is_recording(&st, threads));
	assert_false(atomic_file__is_recording(&st, "no-such-recording"));
	free(file), free(hard), free(soft), free(other), free(threads), free(threads_data), free(beside);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(a_file_is_renamed_into_place_with_its_mode),
		T(a_new_file_gets_the_umask_mode),
		T(the_owner_is_kept),
		T(a_read_only_file_fails_at_open),
		T(a_release_without_commit_leaves_the_earlier_file),
		T(a_symlink_is_written_through),
		T(a_fifo_is_written_in_place),
		T(a_missing_directory_fails_at_open),
		T(the_guard_stops_the_writer_at_each_step),
		T(a_fatal_signal_removes_the_new_file),
		T(one_file_by_every_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

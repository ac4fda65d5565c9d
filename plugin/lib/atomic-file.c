// SPDX-License-Identifier: MIT
/* Outputs written beside their target and renamed into place, never over an input (atomic-file.h). */
#define _GNU_SOURCE	/* mkostemp, asprintf */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic-file.h"

/*
 * ATOMIC_FILE_SIGNALS: a signal that ends the run while the new file exists
 * removes it first.
 */
static const int fatal_signals[] = { SIGHUP, SIGINT, SIGTERM, SIGXFSZ };
#define FATAL_NR (sizeof(fatal_signals) / sizeof(fatal_signals[0]))
static struct sigaction saved_actions[FATAL_NR];
static char *volatile pending_tmp;

static void on_fatal_signal(int sig)
{
	if (pending_tmp)
		unlink(pending_tmp);
	/* Blocked until the handler returns, then the default action ends the run. */
	signal(sig, SIG_DFL);
	raise(sig);
}

static void arm_cleanup(char *tmp)
{
	struct sigaction sa = { .sa_handler = on_fatal_signal };

	sigemptyset(&sa.sa_mask);
	pending_tmp = tmp;
	for (size_t i = 0; i < FATAL_NR; i++) {
		sigaction(fatal_signals[i], NULL, &saved_actions[i]);
		/* nohup's SIGHUP stays ignored. */
		if (saved_actions[i].sa_handler != SIG_IGN)
			sigaction(fatal_signals[i], &sa, NULL);
	}
}

static void disarm_cleanup(void)
{
	for (size_t i = 0; i < FATAL_NR; i++)
		sigaction(fatal_signals[i], &saved_actions[i], NULL);
	pending_tmp = NULL;
}

/* The guard's word on st, the file the output's path names (NULL: what it
 * names now; nothing there yet is nobody's input). */
static int guarded(const struct atomic_file *af, const struct stat *st)
{
	struct stat now;

	if (!af->guard)
		return 0;
	if (!st) {
		if (stat(af->path, &now))
			return 0;
		st = &now;
	}
	return af->guard->check(af->path, st, af->guard->ctx);
}

/* The file writing path replaces: a symlink's target (the link stays), else path. */
static char *target_of(const char *path)
{
	struct stat st;
	char *real;

	if (!lstat(path, &st) && S_ISLNK(st.st_mode) && (real = realpath(path, NULL)))
		return real;
	return strdup(path);
}

/* "DIR/.NAME.XXXXXX" beside target, for mkostemp; NAME cut so that it stays a valid name. */
static char *tmp_beside(const char *target)
{
	const char *slash = strrchr(target, '/'), *base = slash ? slash + 1 : target;
	char *tmp;

	if (asprintf(&tmp, "%.*s.%.200s.XXXXXX", (int)(base - target), target, base) < 0)
		return NULL;
	return tmp;
}

/* /dev/null, a FIFO, a terminal: written as it is, never replaced by a file. */
static int open_in_place(struct atomic_file *af)
{
	struct stat st;
	int fd = open(af->path, O_WRONLY | O_CLOEXEC | O_NOCTTY), err;

	if (fd >= 0 && !fstat(fd, &st) && (af->f = fdopen(fd, "w")))
		return guarded(af, &st);
	err = errno ? errno : ENOMEM;
	if (fd >= 0)
		close(fd);
	return -err;
}

/* The new file tmp (a mkostemp template) beside af->target, with the mode
 * (and, for root, the owner) of the file it replaces. */
static int create_beside(struct atomic_file *af, char *tmp, unsigned flags)
{
	struct stat st;
	mode_t mode;
	int fd = mkostemp(tmp, O_CLOEXEC), err;

	if (fd < 0) {
		err = errno;
		/* Not ours to remove, whatever name the template holds now. */
		free(tmp);
		return -err;
	}
	af->tmp = tmp;
	if (flags & ATOMIC_FILE_SIGNALS) {
		arm_cleanup(tmp);
		af->armed = true;
	}
	if (!stat(af->target, &st)) {
		mode = st.st_mode & 07777;
		/* The owner first: a change of owner clears the set-user-ID bits. */
		if (!geteuid() && (st.st_uid || st.st_gid) && fchown(fd, st.st_uid, st.st_gid))
			goto fail;
	} else {
		mode = umask(0);
		umask(mode);
		mode = 0666 & ~mode;
	}
	if (!fchmod(fd, mode) && (af->f = fdopen(fd, "w")))
		return 0;
fail:
	err = errno ? errno : ENOMEM;
	close(fd);
	return -err;
}

int atomic_file__open(struct atomic_file *af, const char *path, const struct atomic_file_guard *guard,
		      unsigned flags)
{
	struct stat st;
	char *tmp;
	int ret;

	*af = (struct atomic_file){ .path = path, .guard = guard };
	if ((ret = guarded(af, NULL)))
		return ret;
	if (!stat(path, &st) && !S_ISREG(st.st_mode))
		ret = open_in_place(af);
	else if (!(af->target = target_of(path)))
		ret = -ENOMEM;
	else if (!stat(af->target, &st) && access(af->target, W_OK))
		ret = -errno;	/* a file its owner made read-only is not replaced behind their back */
	else if (!(tmp = tmp_beside(af->target)))
		ret = -ENOMEM;
	else
		ret = create_beside(af, tmp, flags);
	if (ret)
		atomic_file__release(af);
	return ret;
}

int atomic_file__close(struct atomic_file *af)
{
	int ret = 0;

	if (af->f && fclose(af->f))
		ret = errno ? -errno : -EIO;
	af->f = NULL;
	return ret;
}

int atomic_file__commit(struct atomic_file *af)
{
	int ret;

	if (!af->tmp)
		return 0;
	if ((ret = guarded(af, NULL)))
		return ret;
	if (rename(af->tmp, af->target))
		return -errno;
	if (af->armed)
		disarm_cleanup();
	af->armed = false;
	free(af->tmp);
	af->tmp = NULL;	/* renamed: nothing to remove */
	return 0;
}

void atomic_file__release(struct atomic_file *af)
{
	if (af->f)
		fclose(af->f);
	if (af->tmp)
		unlink(af->tmp);
	/* Only now: a signal before the unlink still removes it. */
	if (af->armed)
		disarm_cleanup();
	free(af->tmp);
	free(af->target);
	*af = (struct atomic_file){ 0 };
}

bool atomic_file__same(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

bool atomic_file__is_recording(const struct stat *st, const char *path)
{
	struct stat in;
	char *data;
	bool is;

	if (stat(path, &in))
		return false;
	if (atomic_file__same(&in, st))
		return true;
	if (!S_ISDIR(in.st_mode) || asprintf(&data, "%s/data", path) < 0)
		return false;
	is = !stat(data, &in) && atomic_file__same(&in, st);
	free(data);
	return is;
}

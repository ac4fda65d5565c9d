/* SPDX-License-Identifier: MIT */
/* Outputs that never replace an input, written beside their target and renamed (output-file.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/inputs.h"
#include "lib/util.h"
#include "message.h"
#include "output-file.h"

int output_file__check(const char *path)
{
	char *what;
	int ret = inputs_which(path, &what);

	if (ret < 0)
		return message__error("out of memory");
	if (!ret)
		return 0;
	message__error("the output %s is %s: refusing to overwrite it", path, what);
	free(what);
	return -EEXIST;
}

/*
 * A signal that ends the run while the temporary file exists removes it
 * first. One output is open at a time.
 */
static const int fatal_signals[] = { SIGHUP, SIGINT, SIGTERM, SIGXFSZ };
static struct sigaction saved_actions[ARRAY_SIZE(fatal_signals)];
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
	for (size_t i = 0; i < ARRAY_SIZE(fatal_signals); i++) {
		sigaction(fatal_signals[i], NULL, &saved_actions[i]);
		/* nohup's SIGHUP stays ignored. */
		if (saved_actions[i].sa_handler != SIG_IGN)
			sigaction(fatal_signals[i], &sa, NULL);
	}
}

static void disarm_cleanup(void)
{
	if (!pending_tmp)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(fatal_signals); i++)
		sigaction(fatal_signals[i], &saved_actions[i], NULL);
	pending_tmp = NULL;
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

/* "DIR/.NAME.XXXXXX" beside target, for mkstemp; NAME cut so that it stays a valid name. */
static char *tmp_beside(const char *target)
{
	const char *slash = strrchr(target, '/'), *base = slash ? slash + 1 : target;
	size_t base_len = strlen(base);
	char *tmp;

	if (base_len > 200)
		base_len = 200;
	if (asprintf(&tmp, "%.*s.%.*s.XXXXXX", (int)(base - target), target, (int)base_len, base) < 0)
		return NULL;
	return tmp;
}

static void release(struct output_file *of)
{
	disarm_cleanup();
	if (of->f && of->f != stdout)
		fclose(of->f);
	if (of->tmp)
		unlink(of->tmp);
	free(of->tmp);
	free(of->target);
	*of = (struct output_file){ 0 };
}

/* The temporary file beside of->target, with the mode (and, for root, the owner) of the file it replaces. */
static int open_tmp(struct output_file *of)
{
	struct stat st;
	mode_t mask;
	int fd;

	fd = mkostemp(of->tmp, O_CLOEXEC);
	if (fd < 0) {
		fd = -errno;
		/* Not ours to remove, whatever name the template holds now. */
		FREE_AND_NULL(of->tmp);
		return fd;
	}
	arm_cleanup(of->tmp);
	if (!stat(of->target, &st)) {
		if (fchmod(fd, st.st_mode & 07777) ||
		    (!geteuid() && (st.st_uid || st.st_gid) && fchown(fd, st.st_uid, st.st_gid)))
			goto fail;
	} else {
		mask = umask(0);
		umask(mask);
		if (fchmod(fd, 0666 & ~mask))
			goto fail;
	}
	of->f = fdopen(fd, "w");
	if (of->f)
		return 0;
fail:
	close(fd);
	return -errno;
}

int output_file__open(struct output_file *of, const char *path)
{
	struct stat st;
	int ret;

	*of = (struct output_file){ .path = path, .f = stdout };
	if (!path)
		return 0;
	ret = output_file__check(path);
	if (ret) {
		of->f = NULL;
		return ret;
	}
	if (!stat(path, &st) && !S_ISREG(st.st_mode)) {
		of->f = fopen(path, "w");
		ret = of->f ? 0 : -errno;
	} else if (!stat(path, &st) && access(path, W_OK)) {
		/* A file its owner made read-only is not replaced behind their back. */
		ret = -errno;
	} else if (!(of->target = target_of(path)) || !(of->tmp = tmp_beside(of->target))) {
		ret = -ENOMEM;
	} else {
		ret = open_tmp(of);
	}
	if (!ret)
		return 0;
	message__error("%s: %s", path, strerror(-ret));
	of->f = NULL;
	release(of);
	return -1;
}

int output_file__commit(struct output_file *of, int written)
{
	const char *name = of->path ? of->path : "<stdout>";
	int ret = 0;

	if (written == -ENOMEM)
		ret = message__error("out of memory");
	else if (written || fflush(of->f) || ferror(of->f))
		ret = message__error("%s: write error", name);
	if (of->f != stdout && fclose(of->f) && !ret)
		ret = message__error("%s: write error", name);
	of->f = NULL;
	if (!ret && of->tmp) {
		ret = output_file__check(of->path);
		if (!ret && rename(of->tmp, of->target))
			ret = message__error("%s: %s", name, strerror(errno));
		if (!ret)
			FREE_AND_NULL(of->tmp);	/* renamed: nothing to remove */
	}
	release(of);
	return ret;
}

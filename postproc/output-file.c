/* SPDX-License-Identifier: MIT */
/* Outputs that never replace an input, written beside their target and renamed (output-file.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "output-file.h"
#include "util.h"

/* One input: a file, or a directory whose every file is one. */
struct input {
	dev_t dev;
	ino_t ino;
	bool dir;
	char *what;		/* owned: how messages name it */
};

/*
 * Each file once (a fuzzer or a long run opens the same ones again and
 * again), looked up by device and inode. Several threads read streams at
 * once (hotblocks diff): the list is locked.
 */
static pthread_mutex_t inputs_lock = PTHREAD_MUTEX_INITIALIZER;
static struct input *inputs;
static size_t inputs_nr, inputs_alloc;
static struct idx_table inputs_index;

static uint64_t input_hash(dev_t dev, ino_t ino)
{
	return hash_u64(hash_u64(HASH_SEED, (uint64_t)dev), (uint64_t)ino);
}

static bool input_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct stat *st = key;

	(void)ctx;
	return inputs[idx].dev == st->st_dev && inputs[idx].ino == st->st_ino;
}

static int add_input(const struct stat *st, char *what)
{
	uint64_t h = input_hash(st->st_dev, st->st_ino);
	int ret = 0;

	if (!what)
		return -ENOMEM;
	pthread_mutex_lock(&inputs_lock);
	if (idx_table__find(&inputs_index, h, input_eq, st, NULL) >= 0) {
		free(what);
	} else if (inputs_nr >= UINT32_MAX - 1 || VEC_GROW(inputs, inputs_nr + 1, inputs_alloc) ||
		   idx_table__add(&inputs_index, h, (uint32_t)inputs_nr)) {
		free(what);
		ret = -ENOMEM;
	} else {
		inputs[inputs_nr++] = (struct input){ st->st_dev, st->st_ino, S_ISDIR(st->st_mode), what };
	}
	pthread_mutex_unlock(&inputs_lock);
	return ret;
}

int output_file__input_fd(int fd, const char *path)
{
	struct stat st;
	char *what;

	/* A pipe or a terminal is nothing an output could replace. */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		return 0;
	return add_input(&st, asprintf(&what, "the input %s", path) < 0 ? NULL : what);
}

int output_file__input_path(const char *path, const char *what)
{
	struct stat st;

	if (stat(path, &st) || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
		return 0;
	return add_input(&st, strdup(what));
}

void output_file__forget_inputs(void)
{
	pthread_mutex_lock(&inputs_lock);
	for (size_t i = 0; i < inputs_nr; i++)
		free(inputs[i].what);
	FREE_AND_NULL(inputs);
	inputs_nr = inputs_alloc = 0;
	idx_table__release(&inputs_index);
	pthread_mutex_unlock(&inputs_lock);
}

/* The directory holding the file path names, symlinks followed; false if there is none. */
static bool containing_dir(const char *path, struct stat *dir)
{
	char *real = realpath(path, NULL), *slash;
	bool ok;

	if (!real)
		return false;
	slash = strrchr(real, '/');
	if (slash == real)
		slash++;	/* a file in / */
	*slash = '\0';
	ok = !stat(real, dir);
	free(real);
	return ok;
}

int output_file__check(const char *path)
{
	struct stat st, dir;
	bool have_dir;
	long hit;

	/* What is not there yet is nobody's input. */
	if (!path || stat(path, &st))
		return 0;
	have_dir = containing_dir(path, &dir);
	pthread_mutex_lock(&inputs_lock);
	hit = idx_table__find(&inputs_index, input_hash(st.st_dev, st.st_ino), input_eq, &st, NULL);
	if (hit < 0 && have_dir) {
		hit = idx_table__find(&inputs_index, input_hash(dir.st_dev, dir.st_ino), input_eq, &dir,
				      NULL);
		if (hit >= 0 && !inputs[hit].dir)
			hit = -1;
	}
	if (hit >= 0)
		cli__error("the output %s is %s: refusing to overwrite it", path, inputs[hit].what);
	pthread_mutex_unlock(&inputs_lock);
	return hit >= 0 ? -EEXIST : 0;
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
	cli__error("%s: %s", path, strerror(-ret));
	of->f = NULL;
	release(of);
	return -1;
}

int output_file__commit(struct output_file *of, int written)
{
	const char *name = of->path ? of->path : "<stdout>";
	int ret = 0;

	if (written == -ENOMEM)
		ret = cli__error("out of memory");
	else if (written || fflush(of->f) || ferror(of->f))
		ret = cli__error("%s: write error", name);
	if (of->f != stdout && fclose(of->f) && !ret)
		ret = cli__error("%s: write error", name);
	of->f = NULL;
	if (!ret && of->tmp) {
		ret = output_file__check(of->path);
		if (!ret && rename(of->tmp, of->target))
			ret = cli__error("%s: %s", name, strerror(errno));
		if (!ret)
			FREE_AND_NULL(of->tmp);	/* renamed: nothing to remove */
	}
	release(of);
	return ret;
}

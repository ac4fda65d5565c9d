/* SPDX-License-Identifier: MIT */
/* The files the command reads, noted as they are opened or named (inputs.h). */
#define _GNU_SOURCE	/* asprintf */
#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "inputs.h"
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
	if (idx_table_find(&inputs_index, h, input_eq, st, NULL) >= 0) {
		free(what);
	} else if (inputs_nr >= UINT32_MAX - 1 || VEC_GROW(inputs, inputs_nr + 1, inputs_alloc) ||
		   idx_table_add(&inputs_index, h, (uint32_t)inputs_nr)) {
		free(what);
		ret = -ENOMEM;
	} else {
		inputs[inputs_nr++] = (struct input){ st->st_dev, st->st_ino, S_ISDIR(st->st_mode), what };
	}
	pthread_mutex_unlock(&inputs_lock);
	return ret;
}

int inputs_note_fd(int fd, const char *path)
{
	struct stat st;
	char *what;

	/* A pipe or a terminal is nothing an output could replace. */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode))
		return 0;
	return add_input(&st, asprintf(&what, "the input %s", path) < 0 ? NULL : what);
}

int inputs_note_path(const char *path, const char *what)
{
	struct stat st;

	if (stat(path, &st) || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
		return 0;
	return add_input(&st, strdup(what));
}

void inputs_forget(void)
{
	pthread_mutex_lock(&inputs_lock);
	for (size_t i = 0; i < inputs_nr; i++)
		free(inputs[i].what);
	FREE_AND_NULL(inputs);
	inputs_nr = inputs_alloc = 0;
	idx_table_release(&inputs_index);
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

int inputs_which(const char *path, char **what)
{
	struct stat st, dir;
	bool have_dir;
	long hit;

	*what = NULL;
	/* What is not there yet is nobody's input. */
	if (!path || stat(path, &st))
		return 0;
	have_dir = containing_dir(path, &dir);
	pthread_mutex_lock(&inputs_lock);
	hit = idx_table_find(&inputs_index, input_hash(st.st_dev, st.st_ino), input_eq, &st, NULL);
	if (hit < 0 && have_dir) {
		hit = idx_table_find(&inputs_index, input_hash(dir.st_dev, dir.st_ino), input_eq, &dir,
				      NULL);
		if (hit >= 0 && !inputs[hit].dir)
			hit = -1;
	}
	if (hit >= 0 && !(*what = strdup(inputs[hit].what)))
		hit = -ENOMEM;
	pthread_mutex_unlock(&inputs_lock);
	return hit >= 0 ? 1 : hit == -ENOMEM ? -ENOMEM : 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * For the fuzz targets whose readers open files by path (the symbol readers,
 * perf maps): one directory of the process's own, made on first use and
 * removed at exit, and the input written into it under a name.
 */
#ifndef PLUGIN_TESTS_FUZZ_FILES_H
#define PLUGIN_TESTS_FUZZ_FILES_H

/* the includer defines _GNU_SOURCE first (nftw, mkdtemp) */
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);

/*
 * The readers' notes (a warning per refused file: nearly every input here)
 * go to our stderr, which is pointed at /dev/null: they would fill the log.
 * libFuzzer keeps the stderr it started with for its own output, and the
 * sanitizers write to descriptor 2, so a crash is still reported.
 */
int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	FILE *null = fopen("/dev/null", "w");

	if (null)
		stderr = null;
	return 0;
}

static char fuzz_dir_path[64];

static int fuzz_dir_unlink(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void fuzz_dir_remove(void)
{
	nftw(fuzz_dir_path, fuzz_dir_unlink, 16, FTW_DEPTH | FTW_PHYS);
}

/* The directory: /tmp/hotblocks-fuzz.XXXXXX (or $TMPDIR's). */
static const char *fuzz_dir(void)
{
	if (!fuzz_dir_path[0]) {
		const char *t = getenv("TMPDIR");

		snprintf(fuzz_dir_path, sizeof(fuzz_dir_path), "%s/hotblocks-fuzz.XXXXXX", t && *t ? t : "/tmp");
		if (!mkdtemp(fuzz_dir_path))
			abort();
		atexit(fuzz_dir_remove);
	}
	return fuzz_dir_path;
}

/* DIR/name, with len bytes of data (replaced); the path (static). */
static const char *fuzz_put(const char *name, const void *data, size_t len)
{
	static char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", fuzz_dir(), name);
	unlink(path);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || (len && write(fd, data, len) != (ssize_t)len))
		abort();
	close(fd);
	return path;
}

#endif

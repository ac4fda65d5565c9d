// SPDX-License-Identifier: MIT
/* Test support: a fresh directory for a test's files (scratch-dir.h). */
#define _GNU_SOURCE	/* asprintf */
#include <dirent.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "scratch-dir.h"

int scratch_dir__make(struct scratch_dir *d, const char *name)
{
	if (snprintf(d->path, sizeof(d->path), "/tmp/hotblocks-%s.XXXXXX", name) >= (int)sizeof(d->path))
		return -1;
	return mkdtemp(d->path) ? 0 : -1;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st, (void)type, (void)ftw;
	return remove(path);
}

int scratch_dir__remove(struct scratch_dir *d)
{
	return nftw(d->path, remove_one, 16, FTW_DEPTH | FTW_PHYS) ? -1 : 0;
}

char *scratch_dir__file(const struct scratch_dir *d, const char *name)
{
	char *p;

	assert_true(asprintf(&p, "%s/%s", d->path, name) > 0);
	return p;
}

int scratch_dir__entries(const struct scratch_dir *d)
{
	DIR *dir = opendir(d->path);
	struct dirent *de;
	int n = 0;

	assert_non_null(dir);
	while ((de = readdir(dir)))
		n += strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(dir);
	return n;
}

void scratch_dir__put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

char *scratch_dir__get(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = calloc(1, 1 << 16);

	assert_non_null(f);
	assert_non_null(buf);
	fread(buf, 1, (1 << 16) - 1, f);
	fclose(f);
	return buf;
}

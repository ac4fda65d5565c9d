/* SPDX-License-Identifier: MIT */
/* Test support shared by the jitdump reader's tests (test-jitdump*.c): a
 * directory of dumps per test group, and checks of what jitdump__open says. */
#ifndef PLUGIN_TESTS_JITDUMP_CHECK_H
#define PLUGIN_TESTS_JITDUMP_CHECK_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jit/jitdump.h"
#include "tests/jitdump-writer.h"

struct fixture {
	char dir[64];
	char path[128];
	unsigned int files;
};

#define assert_contains(hay, needle)                                            \
	do {                                                                    \
		const char *h_ = (hay), *n_ = (needle);                         \
		if (!strstr(h_, n_))                                            \
			fail_msg("\"%s\" does not contain \"%s\"", h_, n_);     \
	} while (0)

static inline int group_setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	/*
	 * In memory where there is a tmpfs: the growth tests rewrite a dump
	 * thousands of times, and a disk flushes each file truncated to 0 when
	 * it is closed (ext4's auto_da_alloc), which made them take seconds
	 * when the disk is busy. /tmp otherwise (a chroot without /dev/shm).
	 */
	snprintf(f->dir, sizeof(f->dir), "/dev/shm/hotblocks-test-jitdump-XXXXXX");
	if (!mkdtemp(f->dir)) {
		snprintf(f->dir, sizeof(f->dir), "/tmp/hotblocks-test-jitdump-XXXXXX");
		if (!mkdtemp(f->dir)) {
			free(f);
			return -1;
		}
	}
	*state = f;
	return 0;
}

static inline int group_teardown(void **state)
{
	struct fixture *f = *state;
	struct dirent *de;
	char p[512];
	DIR *d;

	d = opendir(f->dir);
	if (d) {
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/%s", f->dir, de->d_name);
			unlink(p);
		}
		closedir(d);
	}
	rmdir(f->dir);
	free(f);
	return 0;
}

/* A fresh file name for each test, so a failed test leaves nothing behind for the next. */
static inline const char *new_path(void **state)
{
	struct fixture *f = *state;

	snprintf(f->path, sizeof(f->path), "%s/jit-%u.dump", f->dir, ++f->files);
	return f->path;
}

static inline void save(const struct jitdump_writer *w, const char *path)
{
	assert_int_equal(jitdump_writer__save(w, path, w->len), 0);
}

static inline struct jitdump *open_ok(const char *path)
{
	char err[512] = "";
	struct jitdump *jd = NULL;
	int ret = jitdump__open(&jd, path, err, sizeof(err));

	if (ret)
		fail_msg("jitdump__open: %d %s", ret, err);
	assert_non_null(jd);
	return jd;
}

/* Opening fails with code, and the message is "<path>+0x<off>: ...needle...". */
static inline void expect_open_error(const char *path, int code, uint64_t off, const char *needle)
{
	char err[512] = "", where[256];
	struct jitdump *jd = (struct jitdump *)&jd;

	int ret = jitdump__open(&jd, path, err, sizeof(err));

	/* A bad record keeps the dump open with the error recorded, a bad header fails the open. */
	if (code == -EINVAL && ret == 0) {
		assert_non_null(jd);
		assert_int_equal(jd->error, code);
		assert_string_equal(jd->error_msg, err);
		jitdump__close(jd);
	} else {
		assert_int_equal(ret, code);
		assert_null(jd);
	}
	snprintf(where, sizeof(where), "%s+0x%" PRIx64 ": ", path, off);
	if (strncmp(err, where, strlen(where)))
		fail_msg("\"%s\" does not start with \"%s\"", err, where);
	assert_contains(err, needle);
	assert_true(err[strlen(err) - 1] != '.');
}

static inline void write_header(struct jitdump_writer *w, uint32_t pid)
{
	struct jitdump_writer_header h = jitdump_writer__default_header(pid);

	jitdump_writer__header(w, &h);
}

static inline size_t write_load(struct jitdump_writer *w, const char *name, uint64_t addr,
			 uint64_t index, const void *code, uint64_t code_size)
{
	return jitdump_writer__code_load(w, &(struct jitdump_writer_load){
		.timestamp = 100 + index, .pid = 7, .tid = 8, .code_addr = addr,
		.code_index = index, .name = name, .code = code, .code_size = code_size,
	});
}


#endif

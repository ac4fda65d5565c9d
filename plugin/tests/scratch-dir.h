/* SPDX-License-Identifier: MIT */
/* Test support: a fresh directory for a test's files, and the few things its cases do with them. */
#ifndef PLUGIN_TESTS_SCRATCH_DIR_H
#define PLUGIN_TESTS_SCRATCH_DIR_H

/* /tmp/hotblocks-NAME.XXXXXX, made by scratch_dir__make. */
struct scratch_dir {
	char path[128];
};

/* A new empty directory for name's files: 0, or -1. */
int scratch_dir__make(struct scratch_dir *d, const char *name);

/* The directory and all in it removed: 0, or -1. */
int scratch_dir__remove(struct scratch_dir *d);

/* DIR/name (malloc()ed). */
char *scratch_dir__file(const struct scratch_dir *d, const char *name);

/* How many names the directory holds besides . and .. (no temporary file left behind). */
int scratch_dir__entries(const struct scratch_dir *d);

/* A file of text written, or read whole (its first 64 KiB, the caller frees it). */
void scratch_dir__put(const char *path, const char *text);
char *scratch_dir__get(const char *path);

#endif

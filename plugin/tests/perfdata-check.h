/* SPDX-License-Identifier: MIT */
/* Test support shared by the perf.data scanner's tests (test-perfdata*.c):
 * what the callback saw, scanning a writer's bytes, a typical record mix. */
#ifndef PLUGIN_TESTS_PERFDATA_CHECK_H
#define PLUGIN_TESTS_PERFDATA_CHECK_H

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "perf/perfdata.h"
#include "tests/perfdata-writer.h"

#define MARKER "/tmp/run/jit-4242.dump"
#define MAX_FOUND 8

struct found {
	int nr;
	uint32_t pid[MAX_FOUND];
	char path[MAX_FOUND][256];
	int stop_at;		/* return stop_val from the stop_at'th call (1-based); 0 = never */
	int stop_val;
};

static inline int collect(void *arg, uint32_t pid, const char *path)
{
	struct found *f = arg;

	if (f->nr < MAX_FOUND) {
		f->pid[f->nr] = pid;
		snprintf(f->path[f->nr], sizeof(f->path[0]), "%s", path);
	}
	f->nr++;
	return f->nr == f->stop_at ? f->stop_val : 0;
}

/*
 * Scan w's bytes from an exact-size copy, so that valgrind catches any read
 * past the end (the writer's own buffer has slack).
 */
static inline int scan(struct perfdata_writer *w, struct found *f, struct perfdata_scan_stats *st,
		char *err, size_t errlen)
{
	uint8_t *copy;
	int ret;

	perfdata_writer__finish(w);
	assert_false(w->oom);
	copy = malloc(w->len ? w->len : 1);
	assert_non_null(copy);
	if (w->len)
		memcpy(copy, w->buf, w->len);
	ret = perfdata__scan_buf(copy, w->len, "t.data", collect, f, st, err, errlen);
	free(copy);
	return ret;
}

/* A file with some ordinary records around one marker. */
static inline void typical_records(struct perfdata_writer *w, bool mmap1)
{
	perfdata_writer__mmap(w, (uint32_t)-1, 0, 0xffffffff81000000, 0x1000000, "[kernel.kallsyms]_text");
	perfdata_writer__mmap2(w, 4242, 4242, 0x400000, 0x1000, "/usr/bin/node");
	perfdata_writer__filler(w, 40);
	if (mmap1)
		perfdata_writer__mmap(w, 4242, 4243, 0x7f0000000000, 0x1000, MARKER);
	else
		perfdata_writer__mmap2(w, 4242, 4243, 0x7f0000000000, 0x1000, MARKER);
	perfdata_writer__filler(w, 40);
	perfdata_writer__mmap2(w, 4242, 4242, 0x7f0000100000, 0x1000, "/tmp/run/jit-4242.dump.bak");
}

static inline void expect_one_marker(struct perfdata_writer *w, uint64_t records)
{
	struct perfdata_scan_stats st;
	struct found f = { 0 };
	char err[256];

	assert_int_equal(scan(w, &f, &st, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	assert_int_equal(f.nr, 1);
	assert_int_equal(f.pid[0], 4242);
	assert_string_equal(f.path[0], MARKER);
	assert_int_equal(st.markers, 1);
	assert_int_equal(st.records, records);
	assert_int_equal(st.malformed, 0);
	assert_int_equal(st.truncated, 0);
}

/* The records of typical_records() in a raw (header-less) buffer. */
static inline void raw_typical(struct perfdata_writer *raw, bool swapped)
{
	perfdata_writer__init(raw, PERFDATA_WRITER_RAW, swapped);
	typical_records(raw, false);
	assert_false(raw->oom);
}

#endif

// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: the dlfilter's callbacks (start, filter_event_early,
 * filter_event, stop) driven as perf drives them, through a fake
 * perf_dlfilter_fns whose answers come from the input. The input is:
 *   byte 0        flags: bit 0 the events were recorded with -k mono,
 *                 bit 1 --dlarg jit-only, bit 2 live (pipe) input
 *   bytes 1-2     n, little-endian; then n bytes: a jitdump (--dlarg jitdump=)
 *   the rest      16-byte samples: which load (or none) and offset, pid,
 *                 cpu mode, what resolve_ip says (no map, anonymous memory,
 *                 a perf map, a file with or without a symbol, kernel), event,
 *                 time step and period
 * The stream the plugin writes must count every sample in exactly one
 * class: for each event the classes sum to `all`; a miscount, or no stream,
 * aborts. It is written to a file in a directory of the harness's own (under
 * $TMPDIR): the plugin writes out=FILE to a new file beside FILE and renames
 * it, which a /proc/self/fd/N path (a memfd) cannot take, as for a user. It links the whole plugin, its entry points (hotblocks-dlfilter.c,
 * declared by perf_dlfilter.h) included.
 */
#define _GNU_SOURCE
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <perf/perf_dlfilter.h>

#include "jit/jitdump.h"
#include "sample/events.h"	/* MAX_EVENTS */

/* The table perf fills in (hotblocks-dlfilter.c); here the fake one. */
extern struct perf_dlfilter_fns perf_dlfilter_fns;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { SAMPLE_SIZE = 16 };

static struct perf_event_attr attr;
static struct perf_dlfilter_al al;
static char *fake_argv[8];
static int fake_argc;
static const uint8_t *code_bytes;
static size_t code_len;

static char **fake_args(void *ctx, int *argc)
{
	*argc = fake_argc;
	return fake_argv;
}

static struct perf_event_attr *fake_attr(void *ctx)
{
	return &attr;
}

static const struct perf_dlfilter_al *fake_resolve_ip(void *ctx)
{
	return ctx ? &al : NULL;
}

static __s32 fake_object_code(void *ctx, __u64 ip, void *buf, __u32 len)
{
	if (!code_len)
		return -1;
	if (len > code_len)
		len = (__u32)code_len;
	memcpy(buf, code_bytes, len);
	return (__s32)len;
}

/* The directory the stream goes to, made once, removed at exit. */
static char out_dir[PATH_MAX], out_path[PATH_MAX];

static void remove_out_dir(void)
{
	unlink(out_path);
	rmdir(out_dir);
}

static const char *stream_path(void)
{
	const char *tmp = getenv("TMPDIR");

	if (!out_path[0]) {
		snprintf(out_dir, sizeof(out_dir), "%s/fuzz-dlfilter.XXXXXX", tmp && *tmp ? tmp : "/tmp");
		if (!mkdtemp(out_dir)) {
			perror("fuzz-dlfilter: mkdtemp");
			abort();
		}
		snprintf(out_path, sizeof(out_path), "%s/out.hbs", out_dir);
		atexit(remove_out_dir);
	}
	return out_path;
}

/* Every event's classes sum to its `all` in the stream at path, which must be there. */
static void check_totals(const char *path)
{
	uint64_t all[MAX_EVENTS] = { 0 }, parts[MAX_EVENTS] = { 0 };
	char line[4096], cls[128];
	FILE *f = fopen(path, "r");

	if (!f)
		abort();
	while (fgets(line, sizeof(line), f)) {
		unsigned ev;
		unsigned long long n, p;

		if (sscanf(line, "total %u %127s %llu %llu", &ev, cls, &n, &p) != 4 || ev >= MAX_EVENTS)
			continue;
		if (!strcmp(cls, "all"))
			all[ev] += n;
		else
			parts[ev] += n;
	}
	fclose(f);
	for (size_t e = 0; e < MAX_EVENTS; e++)
		if (all[e] != parts[e])
			abort();
}

static const char *const dsos[] = { "//anon", "/tmp/perf-7.map", "/usr/lib/libc.so.6",
				    "[kernel.kallsyms]", "/memfd:jit (deleted)" };

/* perf as the input's first byte says: its --dlarg list, the event's attr,
 * its callbacks. */
static void fake_perf(uint8_t how, char *dump_arg, char *out_arg)
{
	fake_argc = 0;
	fake_argv[fake_argc++] = dump_arg;
	fake_argv[fake_argc++] = out_arg;
	fake_argv[fake_argc++] = (char *)(how & 4 ? "perf-data=-" : "perf-data=/nonexistent/perf.data");
	if (how & 2)
		fake_argv[fake_argc++] = (char *)"jit-only";
	memset(&attr, 0, sizeof(attr));
	if (how & 1) {
		attr.use_clockid = 1;
		attr.clockid = CLOCK_MONOTONIC;
		attr.sample_type = PERF_SAMPLE_TIME;
	}
	memset(&perf_dlfilter_fns, 0, sizeof(perf_dlfilter_fns));
	perf_dlfilter_fns.args = fake_args;
	perf_dlfilter_fns.attr = fake_attr;
	perf_dlfilter_fns.resolve_ip = fake_resolve_ip;
	perf_dlfilter_fns.object_code = fake_object_code;
}

/* The sample of the SAMPLE_SIZE bytes at p (aimed at jd's loads when there
 * are some), with what perf's resolve_ip and object_code say of it; *time
 * moves on. Returns its selector: 7 for a sample perf gives no context. */
static uint32_t fake_sample(const uint8_t *p, const struct jitdump *jd, uint64_t *time,
			    struct perf_dlfilter_sample *s)
{
	static const char *const syms[] = { "f", "g", NULL };
	static const char *const events[] = { "cpu-clock", "cycles", "task-clock" };
	const struct jitdump_load *l = jd && jd->nr ? &jd->loads[p[0] % jd->nr] : NULL;
	uint32_t sel = p[3] % 8;

	*s = (struct perf_dlfilter_sample){ .size = sizeof(*s) };
	s->ip = l && p[0] < 200 ? l->code_addr + p[1] % (l->code_size + 2) :
				  (uint64_t)p[1] << 40 | (uint64_t)p[2] << 8;
	s->pid = p[4] % 4 ? (jd ? (int)jd->pid : 1) : p[5];
	s->tid = s->pid;
	s->cpumode = p[6] % 5 == 0 ? PERF_RECORD_MISC_KERNEL : PERF_RECORD_MISC_USER;
	*time += p[7];
	s->time = p[8] & 1 ? *time : *time - (p[8] >> 1);	/* now and then out of order */
	s->period = (uint64_t)p[9] | (uint64_t)p[10] << 8;
	s->event = events[p[11] % 3];
	memset(&al, 0, sizeof(al));
	al.size = sizeof(al);
	al.dso = sel < 5 ? dsos[sel] : sel == 5 ? NULL : dsos[2];
	al.sym = syms[p[12] % 3];
	al.sym_start = (uint64_t)p[13] << 4;
	al.sym_end = al.sym_start + p[14];
	al.symoff = p[15];
	al.is_kernel_ip = sel == 3;
	code_bytes = p;
	code_len = p[14] % 17;
	return sel;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char dump_arg[64], out_arg[PATH_MAX + 8], *dump_path = dump_arg + 8;
	const char *out = stream_path();
	struct jitdump *jd = NULL;
	int dump_fd;
	void *hb_data = NULL;
	uint64_t time = 1000;
	size_t n, pos;

	if (size < 3)
		return 0;
	n = (size_t)data[1] | (size_t)data[2] << 8;
	if (n > size - 3)
		n = size - 3;
	/* The jitdump is only read: a memfd does. */
	dump_fd = memfd_create("fuzz-dump", 0);
	if (dump_fd < 0 || write(dump_fd, data + 3, n) != (ssize_t)n)
		goto out;
	snprintf(dump_arg, sizeof(dump_arg), "jitdump=/proc/self/fd/%d", dump_fd);
	snprintf(out_arg, sizeof(out_arg), "out=%s", out);
	unlink(out);	/* the last input's */
	/* The same loads as the plugin reads, to aim samples at them. */
	char err[512];

	if (jitdump__open(&jd, dump_path, err, sizeof(err)))
		jd = NULL;
	fake_perf(data[0], dump_arg, out_arg);
	if (start(&hb_data, NULL) < 0)
		goto stop;
	for (pos = 3 + n; pos + SAMPLE_SIZE <= size; pos += SAMPLE_SIZE) {
		struct perf_dlfilter_sample s;
		uint32_t sel = fake_sample(data + pos, jd, &time, &s);

		/* perf calls filter_event only when filter_event_early kept the sample. */
		if (!filter_event_early(hb_data, &s, sel == 7 ? NULL : (void *)1))
			filter_event(hb_data, &s, sel == 7 ? NULL : (void *)1);
	}
stop:
	stop(hb_data, NULL);
	check_totals(out);
	unlink(out);
out:
	jitdump__close(jd);
	if (dump_fd >= 0)
		close(dump_fd);
	return 0;
}

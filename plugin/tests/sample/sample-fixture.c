/* SPDX-License-Identifier: MIT */
/* The sample tests' jitdump and rooms, behind a fake perf (sample-fixture.h). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "sample-fixture.h"
#include "tests/jitdump-writer.h"

static struct perf_event_attr attr;
static int resolve_calls;

static struct perf_event_attr *fake_attr(void *ctx)
{
	return &attr;
}

/* perf knows one function, main at 0x401000 (0x40 bytes) of /bin/prog. */
static __s32 fake_resolve_address(void *ctx, __u64 address, struct perf_dlfilter_al *al)
{
	resolve_calls++;
	if (address < 0x401000 || address >= 0x401040)
		return -1;
	al->dso = "/bin/prog";
	al->sym = "main";
	al->sym_start = 0x1000;
	al->sym_end = 0x1040;
	al->symoff = (__u32)(address - 0x401000);
	return 0;
}

static const struct perf_dlfilter_fns fns = { .attr = fake_attr, .resolve_address = fake_resolve_address };

void sample_fixture__dump(char path[64], const char *test, bool again, struct dumps *dumps)
{
	struct jitdump_writer w;
	struct jitdump_writer_header h = jitdump_writer__default_header(42);
	struct jitdump_writer_load first = { .timestamp = 100, .pid = 42, .tid = 42, .code_addr = 0x7000,
					     .name = "hot", .code_size = 32 };
	struct jitdump_writer_load second = { .timestamp = 200, .pid = 42, .tid = 42, .code_addr = 0x7000,
					      .name = "again", .code_size = 16, .code_index = 1 };
	int fd;

	snprintf(path, 64, "/tmp/hotblocks-test-%s-XXXXXX", test);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	jitdump_writer__init(&w, false);
	jitdump_writer__header(&w, &h);
	jitdump_writer__code_load(&w, &first);
	if (again)
		jitdump_writer__code_load(&w, &second);
	assert_int_equal(jitdump_writer__save(&w, path, w.len), 0);
	jitdump_writer__release(&w);
	assert_int_equal(dumps__add(dumps, path, 42), 0);
}

void sample_rooms__init(struct sample_rooms *r, const struct perf_dlfilter_fns *perf)
{
	events__init(&r->events, perf, &r->warnings);
	natives__init(&r->natives);
	resolve__init(&r->resolve, &r->warnings);
	assert_int_equal(dumps__init(&r->dumps, &r->warnings), 0);
	classify__init(&r->classify, perf, &r->dumps, &r->natives, &r->resolve, false);
}

void sample_rooms__release(struct sample_rooms *r)
{
	classify__release(&r->classify);
	resolve__release(&r->resolve);
	natives__release(&r->natives);
	dumps__release(&r->dumps);
	events__release(&r->events);
	warnings__release(&r->warnings);
}

const struct perf_dlfilter_fns *sample_fixture__perf(void)
{
	memset(&attr, 0, sizeof(attr));
	attr.use_clockid = 1;
	attr.clockid = CLOCK_MONOTONIC;
	attr.sample_type = PERF_SAMPLE_TIME;
	resolve_calls = 0;
	return &fns;
}

int sample_fixture__resolve_calls(void)
{
	return resolve_calls;
}

void sample_fixture__open(struct sample_rooms *r, char dump[64], const char *test)
{
	sample_rooms__init(r, sample_fixture__perf());
	sample_fixture__dump(dump, test, true, &r->dumps);
}

void sample_fixture__close(struct sample_rooms *r, const char *dump)
{
	sample_rooms__release(r);
	unlink(dump);
}

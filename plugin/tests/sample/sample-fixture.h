/* SPDX-License-Identifier: MIT */
/*
 * What the tests of a sample's way share (plugin/tests/sample/): a jitdump of
 * two loads at one address (JITDUMP.md "Time"), the rooms that classify a
 * sample, and a fake of perf's callbacks that knows one native function.
 */
#ifndef PLUGIN_TESTS_SAMPLE_FIXTURE_H
#define PLUGIN_TESTS_SAMPLE_FIXTURE_H

#include <stdbool.h>

#include "lib/warnings.h"
#include "sample/classify.h"
#include "sample/events.h"

/*
 * Writes path (64 bytes: /tmp/hotblocks-test-TEST-XXXXXX, made here) as the
 * jitdump of pid 42 with one 32-byte load "hot" at 0x7000 at time 100 (code
 * map id 0); again: then a 16-byte load "again" at 0x7000 at time 200 (id 1).
 * dumps takes it as pid 42's.
 */
void sample_fixture__dump(char path[64], const char *test, bool again, struct dumps *dumps);

/* The rooms that classify a sample, wired as plugin/hotblocks-dlfilter.c
 * wires them. */
struct sample_rooms {
	struct warnings warnings;
	struct events events;
	struct dumps dumps;
	struct natives natives;
	struct resolve resolve;
	struct classify classify;
};

/* r behind perf's callbacks perf (borrowed), with no dump yet. */
void sample_rooms__init(struct sample_rooms *r, const struct perf_dlfilter_fns *perf);
void sample_rooms__release(struct sample_rooms *r);

/*
 * A fake perf that knows one native function: its events on the monotonic
 * clock with sample times, its resolve_address placing main at 0x401000
 * (0x40 bytes) of /bin/prog and nothing else. Each call starts it afresh.
 */
const struct perf_dlfilter_fns *sample_fixture__perf(void);

/* How often the fake's resolve_address was called since sample_fixture__perf. */
int sample_fixture__resolve_calls(void);

/* r behind the fake perf, with both loads of sample_fixture__dump in dump. */
void sample_fixture__open(struct sample_rooms *r, char dump[64], const char *test);
/* r released, its dump removed. */
void sample_fixture__close(struct sample_rooms *r, const char *dump);

#endif

// SPDX-License-Identifier: MIT
/*
 * Unit tests of sample classification (plugin/sample/classify.c), the
 * live-mode pending samples (plugin/sample/pending.c), the run's accounting of
 * its verdicts (plugin/sample/account.c) and what is explained at the end
 * (plugin/sample/explain.c), driven through a fake of perf's callbacks the way
 * the entry points drive them. The expected class of each sample follows from STREAM.md "total
 * classes" and JITDUMP.md "Time"; every test also checks that each event's
 * classes sum to its `all`.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "sample-fixture.h"
#include "sample/classify.h"
#include "sample/pending.h"
#include "lib/warnings.h"
#include "sample/account.h"
#include "sample/events.h"
#include "sample/explain.h"

/* What the fake perf answers. */
static struct perf_event_attr attr;
static struct perf_dlfilter_al al;
static bool have_al;
static int object_code_calls;
static int resolve_ip_calls;

static struct perf_event_attr *fake_attr(void *ctx)
{
	return &attr;
}

static const struct perf_dlfilter_al *fake_resolve_ip(void *ctx)
{
	resolve_ip_calls++;
	return have_al ? &al : NULL;
}

static __s32 fake_object_code(void *ctx, __u64 ip, void *buf, __u32 len)
{
	static const uint8_t code[] = { 0x55, 0x48, 0x89, 0xe5, 0xc3 };

	object_code_calls++;
	if (len > sizeof(code))
		len = sizeof(code);
	memcpy(buf, code, len);
	return (__s32)len;
}

static struct perf_dlfilter_fns fns = {
	.attr = fake_attr, .resolve_ip = fake_resolve_ip, .object_code = fake_object_code,
};

/* The rooms one sample passes, and the run's accounting of its verdicts. */
struct session {
	char *perf_data;
	struct sample_rooms rooms;
	struct account account;
};

static void session__free(struct session *session)
{
	account__release(&session->account);
	sample_rooms__release(&session->rooms);
	free(session->perf_data);
	free(session);
}

static struct session *session__new(const struct perf_dlfilter_fns *perf)
{
	struct session *session = calloc(1, sizeof(*session));

	assert_non_null(session);
	sample_rooms__init(&session->rooms, perf);
	assert_int_equal(account__init(&session->account, &session->rooms.events, &session->rooms.warnings), 0);
	return session;
}

static void session__explain_unresolved(struct session *session)
{
	explain__unresolved(&session->account, &session->rooms.dumps, session->perf_data, session->rooms.classify.live,
			    &session->rooms.warnings);
}

struct fixture {
	struct session *session;
	char dump[64];
};

/* The event's clock as perf record leaves it in perf_event_attr. */
enum clock { MONO, NOT_MONO, NO_TIMES };

static void clock_of_events(enum clock c)
{
	memset(&attr, 0, sizeof(attr));
	/* perf record -k mono: the clock, and sample times unless --per-thread without -T. */
	attr.use_clockid = c != NOT_MONO;
	attr.clockid = c != NOT_MONO ? CLOCK_MONOTONIC : 0;
	attr.sample_type = c != NO_TIMES ? PERF_SAMPLE_TIME : 0;
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f || !(f->session = session__new(&fns)))
		return -1;
	f->session->perf_data = strdup("perf.data");
	clock_of_events(MONO);
	have_al = false;
	object_code_calls = 0;
	resolve_ip_calls = 0;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	session__free(f->session);
	if (f->dump[0])
		unlink(f->dump);
	free(f);
	return 0;
}

/* The dump of sample_fixture__dump ("hot"; reused: "again" too). */
static void with_loads(void **state, bool reused)
{
	struct fixture *f = *state;

	sample_fixture__dump(f->dump, "classify", reused, &f->session->rooms.dumps);
}

static void with_dump(void **state)
{
	with_loads(state, false);
}

/* One sample through the calls filter_event_early and filter_event make. */
static void feed(struct session *session, const char *event, uint8_t cpumode, uint32_t pid, uint64_t ip,
		 uint64_t time, uint64_t period)
{
	struct perf_dlfilter_sample s = {
		.size = sizeof(s), .ip = ip, .pid = (int)pid, .tid = (int)pid, .time = time,
		.period = period, .cpumode = cpumode, .event = event,
	};
	uint32_t ev = events__id(&session->rooms.events, s.event, NULL);
	struct classify_verdict v;

	account__count(&session->account, ev, HB_CLASS_ALL, s.period);
	if (!classify__early(&session->rooms.classify, &s, session->rooms.events.v[ev].time_aware, &v))
		v = classify__resolved(&session->rooms.classify, &s, NULL);
	account__settle(&session->account, ev, &s, &v);
}

static void resolve_as(const char *dso, const char *sym, uint64_t sym_start, uint64_t symoff)
{
	memset(&al, 0, sizeof(al));
	al.size = sizeof(al);
	al.dso = dso;
	al.sym = sym;
	al.sym_start = sym_start;
	al.sym_end = sym ? sym_start + 0x40 : 0;
	al.symoff = symoff;
	have_al = true;
}

static uint64_t total(const struct session *session, uint32_t ev, enum hb_sample_class c)
{
	return session->account.totals[ev][c][0];
}

/* The accounting promise: every sample in exactly one class. */
static void classes_sum_to_all(const struct session *session)
{
	for (size_t e = 0; e < session->rooms.events.nr; e++) {
		uint64_t n = 0, p = 0;

		for (int c = 1; c < HB_CLASS__NR; c++) {
			n += session->account.totals[e][c][0];
			p += session->account.totals[e][c][1];
		}
		assert_int_equal(n, session->account.totals[e][HB_CLASS_ALL][0]);
		assert_int_equal(p, session->account.totals[e][HB_CLASS_ALL][1]);
	}
}

/* The count recorded for (obj, ev, off), 0 if none. */
static uint64_t counted(const struct session *session, uint32_t obj, uint32_t ev, uint64_t off)
{
	size_t nr;
	uint64_t n = 0;
	struct tally_entry *e = tally__sorted(&session->account.counts, &nr);

	assert_non_null(e);
	for (size_t i = 0; i < nr; i++)
		if (e[i].obj == obj && e[i].ev == ev && e[i].off == off)
			n = e[i].samples;
	free(e);
	return n;
}

static void kernel_and_jit_samples_need_nothing_from_perf(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;

	with_dump(state);
	feed(session, "cpu-clock", PERF_RECORD_MISC_KERNEL, 42, 0xffffffff81000000, 150, 10);
	feed(session, "cpu-clock", PERF_RECORD_MISC_HYPERVISOR, 42, 0x1, 150, 10);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, 0x7010, 150, 10);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, 0x7010, 160, 10);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, 0x701f, 170, 10);
	/* perf was never asked. */
	assert_false(have_al);
	assert_int_equal(total(session, 0, HB_CLASS_KERNEL), 2);
	assert_int_equal(total(session, 0, HB_CLASS_JIT), 3);
	/* Code map id 0, at offsets from the load's start. */
	assert_int_equal(counted(session, 0, 0, 0x10), 2);
	assert_int_equal(counted(session, 0, 0, 0x1f), 1);
	classes_sum_to_all(session);
}

static void a_sample_before_the_load_is_not_the_load(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;

	with_dump(state);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, 0x7010, 99, 10);
	assert_int_equal(total(session, 0, HB_CLASS_BEFORE_LOAD), 1);
	assert_int_equal(total(session, 0, HB_CLASS_JIT), 0);
	session__explain_unresolved(session);
	assert_int_equal(session->rooms.warnings.nr, 1);
	assert_non_null(strstr(session->rooms.warnings.kept[0], "1 sample hit JIT code before its load record's time"));
	classes_sum_to_all(session);
}

static void without_mono_time_is_not_used_and_that_is_said(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;

	with_dump(state);
	clock_of_events(NOT_MONO);
	/* Before the load by time, but times are not comparable: the one load covering it. */
	feed(session, "task-clock", PERF_RECORD_MISC_USER, 42, 0x7010, 99, 10);
	feed(session, "task-clock", PERF_RECORD_MISC_USER, 42, 0x7011, 99, 10);
	assert_int_equal(total(session, 0, HB_CLASS_JIT), 2);
	assert_false(events__time_aware(&session->rooms.events));
	assert_int_equal(session->rooms.warnings.nr, 1);
	assert_non_null(strstr(session->rooms.warnings.kept[0], "event task-clock was not recorded with `perf record -k mono`"));
	classes_sum_to_all(session);
}

/* Regression: perf record -k mono --per-thread without -T
 * records no sample times; re-recording with -k mono, as the old warning
 * advised, changes nothing. The warning names the real cause. */
static void without_sample_times_the_warning_names_per_thread(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;

	with_dump(state);
	clock_of_events(NO_TIMES);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, 0x7010, 0, 10);
	assert_int_equal(total(session, 0, HB_CLASS_JIT), 1);
	assert_false(events__time_aware(&session->rooms.events));
	assert_int_equal(session->rooms.warnings.nr, 1);
	assert_non_null(strstr(session->rooms.warnings.kept[0], "event cpu-clock has no sample times (`perf record --per-thread`"
				" without `-T`/`--timestamp`)"));
	assert_null(strstr(session->rooms.warnings.kept[0], "not recorded with `perf record -k mono`"));
	classes_sum_to_all(session);
}

/*
 * Regression: without times, a sample where two loads were
 * ("hot" [0x7000, 0x7020) at t=100, then "again" [0x7000, 0x7010) at t=200)
 * went silently to the newest. It is ambiguous, counted apart, and the
 * warning names both loads; where one load alone was, it is that one's.
 * With times the same sample is placed (t=150: hot).
 */
static void without_times_a_reused_address_is_ambiguous_and_its_loads_named(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;

	with_loads(state, true);
	clock_of_events(NO_TIMES);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, 0x7008, 0, 10);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, 0x7008, 0, 10);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, 0x7018, 0, 10);
	clock_of_events(MONO);
	feed(session, "cycles", PERF_RECORD_MISC_USER, 42, 0x7008, 150, 10);
	assert_int_equal(total(session, 0, HB_CLASS_AMBIGUOUS), 2);
	assert_int_equal(total(session, 0, HB_CLASS_JIT), 1);
	assert_int_equal(counted(session, 0, 0, 0x18), 1);
	assert_int_equal(counted(session, 1, 0, 0x8), 0);
	assert_int_equal(total(session, 1, HB_CLASS_JIT), 1);
	assert_int_equal(counted(session, 0, 1, 0x8), 1);
	session__explain_unresolved(session);
	assert_int_equal(session->rooms.warnings.nr, 2);
	assert_string_equal(session->rooms.warnings.kept[1], "2 JIT samples hit addresses that several code loads covered, with no"
			    " time to tell which ran (counted as unattributed.ambiguous): hot or again (pid 42, 2)");
	classes_sum_to_all(session);
}

static void perf_resolves_the_rest(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;

	have_al = false;
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 7, 0x1234, 1, 1);
	resolve_as(NULL, NULL, 0, 0);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 7, 0x1234, 1, 1);
	resolve_as("[kernel.kallsyms]", "schedule", 0xffffffff81000000, 4);
	al.is_kernel_ip = 1;
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 7, 0x1234, 1, 1);
	resolve_as("//anon", NULL, 0, 0);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 7, 0x1234, 1, 1);
	resolve_as("/tmp/perf-7.map", NULL, 0, 0);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 7, 0x1234, 1, 1);
	resolve_as("/memfd:jit (deleted)", NULL, 0, 0);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 7, 0x1234, 1, 1);
	resolve_as("/usr/bin/prog", NULL, 0, 0);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 7, 0x1234, 1, 1);
	assert_int_equal(total(session, 0, HB_CLASS_NO_MAP), 2);
	assert_int_equal(total(session, 0, HB_CLASS_KERNEL), 1);
	assert_int_equal(total(session, 0, HB_CLASS_JIT_NO_LOAD), 3);
	assert_int_equal(total(session, 0, HB_CLASS_NO_SYMBOL), 1);
	classes_sum_to_all(session);
}

static void a_native_symbol_is_one_object_with_its_code_read_once(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;
	static const char dso[] = "/no/such/libfoo.so", sym[] = "foo";

	resolve_as(dso, sym, 0x1000, 0x4);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 7, 0x7f0000001004, 1, 5);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 7, 0x7f0000001004, 2, 5);
	/* The same symbol through other strings with the same text: the table, not the cache. */
	char dso2[sizeof(dso)], sym2[sizeof(sym)];

	memcpy(dso2, dso, sizeof(dso));
	memcpy(sym2, sym, sizeof(sym));
	resolve_as(dso2, sym2, 0x1000, 0x3);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 7, 0x7f0000001003, 3, 5);
	assert_int_equal(total(session, 0, HB_CLASS_NATIVE), 3);
	assert_int_equal(session->rooms.natives.nr, 1);
	assert_int_equal(object_code_calls, 1);
	const struct native_obj *o = &session->rooms.natives.objs[0];

	assert_int_equal(o->addr, 0x7f0000001000);
	assert_int_equal(o->size, 0x40);
	assert_int_equal(o->pid, 7);
	assert_int_equal(o->code_len, 5);
	assert_int_equal(counted(session, NATIVE_ID_BIT | 0, 0, 0x4), 2);
	assert_int_equal(counted(session, NATIVE_ID_BIT | 0, 0, 0x3), 1);
	classes_sum_to_all(session);
}

/* A function of this test's own file, for the plugin's own resolution to find. */
__attribute__((noinline, used)) int hb_native_target(int x);
__attribute__((noinline, used)) int hb_native_target(int x)
{
	return x * 3 + 1;
}

/* The recording's mmap record of the file mapping code address ip in this
 * process, as pid 42 at time 10, handed to the resolver as perf.data's walk
 * would; then the walk ends (why: the reason it cannot be used, or NULL). */
static void with_own_map(struct session *session, uintptr_t ip, const char *why)
{
	struct perfdata_visitor v;
	struct perfdata_scan_stats st = { .timed = 1 };
	char line[4096], path[4096];
	unsigned long start, end, pgoff;
	bool found = false;
	FILE *maps = fopen("/proc/self/maps", "r");

	assert_non_null(maps);
	while (!found && fgets(line, sizeof(line), maps))
		found = sscanf(line, "%lx-%lx %*s %lx %*s %*s %4095s", &start, &end, &pgoff, path) == 4 &&
			start <= ip && ip < end;
	fclose(maps);
	assert_true(found);
	struct perfdata_mmap m = {
		.pid = 42, .tid = 42, .start = start, .len = end - start, .pgoff = pgoff, .time = 10,
		.has_time = true, .mmap2 = true, .misc = PERF_RECORD_MISC_USER,
		.prot = PROT_READ | PROT_EXEC, .flags = MAP_PRIVATE, .filename = path,
	};

	resolve__visitor(&session->rooms.resolve, &v);
	assert_int_equal(v.mmap(v.arg, &m), 0);
	resolve__ready(&session->rooms.resolve, 0, &st, why);
}

static void native_samples_are_decided_without_perf(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;
	uintptr_t fn = (uintptr_t)hb_native_target;

	with_own_map(session, fn, NULL);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, fn + 1, 150, 1);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, fn + 1, 160, 1);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, fn, 170, 1);
	/* perf's symbols were never asked for */
	assert_int_equal(resolve_ip_calls, 0);
	assert_int_equal(object_code_calls, 0);
	assert_int_equal(total(session, 0, HB_CLASS_NATIVE), 3);
	assert_int_equal(session->rooms.natives.nr, 1);
	const struct native_obj *o = &session->rooms.natives.objs[0];

	assert_string_equal(o->name, "hb_native_target");
	assert_int_equal(o->addr, fn);
	assert_int_equal(o->pid, 42);
	assert_int_equal(o->source, NATIVE_FROM_SYMTAB);
	/* its bytes, from the file */
	assert_true(o->code_len > 1 && o->code_len == o->size);
	assert_memory_equal(o->code, (const void *)fn, o->code_len);
	assert_int_equal(counted(session, NATIVE_ID_BIT | 0, 0, 1), 2);
	assert_int_equal(counted(session, NATIVE_ID_BIT | 0, 0, 0), 1);
	/* an address of no map of that process: no-map, still without perf */
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, 0x10, 180, 1);
	assert_int_equal(total(session, 0, HB_CLASS_NO_MAP), 1);
	assert_int_equal(resolve_ip_calls, 0);
	assert_int_equal(session->rooms.resolve.deferred, 0);
	classes_sum_to_all(session);
}

static void guest_samples_and_unusable_maps_go_to_perf(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;
	uintptr_t fn = (uintptr_t)hb_native_target;

	with_own_map(session, fn, NULL);
	resolve_as("/usr/bin/prog", "main", 0x1000, 0);
	feed(session, "cpu-clock", PERF_RECORD_MISC_GUEST_USER, 42, fn, 150, 1);
	assert_int_equal(resolve_ip_calls, 1);
	assert_int_equal(session->rooms.resolve.deferred, 1);
	assert_int_equal(total(session, 0, HB_CLASS_NATIVE), 1);
	assert_string_equal(session->rooms.natives.objs[0].name, "main");
	assert_int_equal(session->rooms.natives.objs[0].source, NATIVE_FROM_PERF);
	classes_sum_to_all(session);
}

static void a_pipe_leaves_natives_to_perf(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;
	uintptr_t fn = (uintptr_t)hb_native_target;

	with_own_map(session, fn, "perf script reads a pipe");
	resolve_as("/usr/bin/prog", "main", 0x1000, 0);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, fn, 150, 1);
	assert_int_equal(resolve_ip_calls, 1);
	assert_int_equal(session->rooms.resolve.deferred, 1);
	assert_false(session->rooms.resolve.usable);
	assert_string_equal(session->rooms.resolve.why_not, "perf script reads a pipe");
	assert_int_equal(total(session, 0, HB_CLASS_NATIVE), 1);
	classes_sum_to_all(session);
}

/* perf maps: the line's function, counted in class perfmap, no code bytes. */
static void a_perf_map_line_is_a_function_without_code(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;

	resolve_as("/tmp/perf-7.map", "LazyCompile:*hot /x.js:1", 0x7f0000002000, 0x10);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 7, 0x7f0000002010, 1, 1);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 7, 0x7f0000002010, 2, 1);
	assert_int_equal(total(session, 0, HB_CLASS_PERFMAP), 2);
	assert_int_equal(session->rooms.natives.nr, 1);
	assert_int_equal(session->rooms.natives.objs[0].source, NATIVE_FROM_PERF_MAP);
	assert_int_equal(session->rooms.natives.objs[0].addr, 0x7f0000002000);
	assert_int_equal(object_code_calls, 0);
	assert_int_equal(counted(session, NATIVE_ID_BIT | 0, 0, 0x10), 2);
	classes_sum_to_all(session);
}

static void jit_only_leaves_the_rest_unresolved(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;

	with_dump(state);
	session->rooms.classify.jit_only = true;
	resolve_as("/usr/bin/prog", "main", 0x1000, 0);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, 0x401000, 150, 1);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, 0x7000, 150, 1);
	assert_int_equal(total(session, 0, HB_CLASS_NOT_RESOLVED), 1);
	assert_int_equal(total(session, 0, HB_CLASS_JIT), 1);
	assert_int_equal(session->rooms.natives.nr, 0);
	classes_sum_to_all(session);
}

static void live_mode_holds_samples_until_the_dump_catches_up(void **state)
{
	struct fixture *f = *state;
	struct session *session = f->session;

	with_dump(state);
	session->rooms.classify.live = true;
	/* Before the load by time, and in anonymous memory no load covers yet. */
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, 0x7008, 90, 3);
	resolve_as("//anon", NULL, 0, 0);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, 0x9010, 200, 3);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, 0xa000, 200, 3);
	assert_int_equal(session->account.pending.nr, 3);
	assert_int_equal(total(session, 0, HB_CLASS_ALL), 3);
	/* The JIT's later load of 0x9000, read at the end: as if appended to the dump. */
	assert_true(codemap__add(session->rooms.dumps.map, 42, 0x9000, 0x100, 150, 0, 0) >= 0);
	account__place_held(&session->account, &session->rooms.classify);
	assert_int_equal(session->account.pending.nr, 0);
	assert_int_equal(total(session, 0, HB_CLASS_BEFORE_LOAD), 1);
	assert_int_equal(total(session, 0, HB_CLASS_JIT), 1);
	assert_int_equal(total(session, 0, HB_CLASS_JIT_NO_LOAD), 1);
	classes_sum_to_all(session);
}

static void events_are_told_apart_and_bounded(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;
	char names[MAX_EVENTS + 2][16];

	for (int i = 0; i < MAX_EVENTS + 2; i++) {
		snprintf(names[i], sizeof(names[i]), "ev%d", i);
		feed(session, names[i], PERF_RECORD_MISC_KERNEL, 1, 1, 1, 1);
	}
	/* The same name through another pointer is the same event. */
	char again[16] = "ev3";

	assert_int_equal(events__id(&session->rooms.events, again, NULL), 3);
	assert_int_equal(events__id(&session->rooms.events, NULL, NULL), MAX_EVENTS - 1);
	assert_int_equal(session->rooms.events.nr, MAX_EVENTS);
	/* The 33rd and 34th event were counted as the last one, with one warning. */
	assert_int_equal(total(session, MAX_EVENTS - 1, HB_CLASS_ALL), 3);
	assert_int_equal(session->rooms.warnings.nr, 1);
	assert_non_null(strstr(session->rooms.warnings.kept[0], "more than 32 events"));
	classes_sum_to_all(session);
}

static void a_warning_is_kept_once(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;

	/* Every warning is printed too; not needed here. */
	int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);

	assert_true(saved >= 0 && null >= 0);
	dup2(null, STDERR_FILENO);
	for (int i = 0; i < 3; i++)
		warnings__add(&session->rooms.warnings, "the same %s", "thing");
	for (int i = 0; i < WARNINGS_KEPT + 5; i++)
		warnings__add(&session->rooms.warnings, "warning %d", i);
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(null);
	assert_string_equal(session->rooms.warnings.kept[0], "the same thing");
	assert_int_equal(session->rooms.warnings.nr, WARNINGS_KEPT);
}

static void a_note_is_kept_once_as_a_note(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;
	int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);

	assert_true(saved >= 0 && null >= 0);
	dup2(null, STDERR_FILENO);
	for (int i = 0; i < 3; i++)
		warnings__note(&session->rooms.warnings, "the same %s", "thing");
	/* the same text as a warning is another message */
	warnings__add(&session->rooms.warnings, "the same thing");
	dup2(saved, STDERR_FILENO);
	close(saved);
	close(null);
	assert_int_equal(session->rooms.warnings.nr, 2);
	assert_string_equal(session->rooms.warnings.kept[0], "note: the same thing");
	assert_string_equal(session->rooms.warnings.kept[1], "the same thing");
}

static void few_strays_are_one_line(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;

	with_dump(state);
	for (int i = 0; i < 200; i++)
		feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, 0x7000, 150, 1);
	resolve_as("//anon", NULL, 0, 0);
	feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, 0x9000, 150, 1);
	session__explain_unresolved(session);
	/* 1 in 201 (< 1%): a stub the JIT did not log, said in one line, as a
	 * note: nothing is wrong for the user. */
	assert_int_equal(session->rooms.warnings.nr, 1);
	assert_string_equal(session->rooms.warnings.kept[0], "note: 1 sample in JIT-looking memory matched no jitdump code load "
			    "(1 jitdump read: code its JIT did not log, e.g. a stub or V8's wasm jump table;"
			    " counted as unattributed.jit-no-load)");
	classes_sum_to_all(session);
}

/* 10 in 210 (>= 1%) beside 200 the dump placed: the dump was enabled and
 * read, so a note without advice to enable it (V8's wasm jump table: 167
 * beside 13032 in test-data/v8-wasm-gofmt/run1). */
static void strays_beside_placed_are_a_note(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;

	with_dump(state);
	for (int i = 0; i < 200; i++)
		feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, 0x7000, 150, 1);
	resolve_as("//anon", NULL, 0, 0);
	for (int i = 0; i < 10; i++)
		feed(session, "cpu-clock", PERF_RECORD_MISC_USER, 42, 0x9000, 150, 1);
	session__explain_unresolved(session);
	assert_int_equal(session->rooms.warnings.nr, 1);
	assert_string_equal(session->rooms.warnings.kept[0], "note: 10 samples in JIT-looking memory matched no jitdump code load,"
			    " beside the 200 the 1 jitdump read placed: code its JIT did not log (V8's wasm jump"
			    " table, which its wasm calls go through, or a stub; counted as unattributed.jit-no-load)");
	classes_sum_to_all(session);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(kernel_and_jit_samples_need_nothing_from_perf),
		T(a_sample_before_the_load_is_not_the_load),
		T(without_mono_time_is_not_used_and_that_is_said),
		T(without_sample_times_the_warning_names_per_thread),
		T(without_times_a_reused_address_is_ambiguous_and_its_loads_named),
		T(perf_resolves_the_rest),
		T(a_native_symbol_is_one_object_with_its_code_read_once),
		T(native_samples_are_decided_without_perf),
		T(guest_samples_and_unusable_maps_go_to_perf),
		T(a_pipe_leaves_natives_to_perf),
		T(a_perf_map_line_is_a_function_without_code),
		T(jit_only_leaves_the_rest_unresolved),
		T(live_mode_holds_samples_until_the_dump_catches_up),
		T(events_are_told_apart_and_bounded),
		T(a_warning_is_kept_once),
		T(a_note_is_kept_once_as_a_note),
		T(few_strays_are_one_line),
		T(strays_beside_placed_are_a_note),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

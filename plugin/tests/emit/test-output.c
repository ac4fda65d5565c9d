// SPDX-License-Identifier: MIT
/*
 * Unit tests of where the stream goes (plugin/emit/output.c) and of the section
 * a run assembles for it (plugin/emit/stream-section.c): out=FILE never names an
 * input (the run's perf.data, its jitdumps) and is replaced only by a complete
 * stream, checked at the start and written at the end; the section carries one
 * object per counted id, the dumps with their status and the run's header
 * facts. Expected values are the run's own inputs.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "emit/output.h"
#include "emit/stream-section.h"
#include "perf/options.h"
#include "tests/jitdump-writer.h"
#include "tests/scratch-dir.h"

static struct perf_dlfilter_fns no_perf;

/* What a run hands the stream's destination and section, wired as
 * plugin/hotblocks-dlfilter.c wires it. */
struct session {
	struct options opts;	/* out_path */
	char *perf_data;
	struct warnings warnings;
	struct events events;
	struct dumps dumps;
	struct natives natives;
	struct account account;
	struct output out;
};

static struct session *session__new(const struct perf_dlfilter_fns *perf)
{
	struct session *session = calloc(1, sizeof(*session));

	if (!session)
		return NULL;
	events__init(&session->events, perf, &session->warnings);
	natives__init(&session->natives);
	output__init(&session->out, NULL, "-", NULL);
	if (dumps__init(&session->dumps, &session->warnings) < 0 ||
	    account__init(&session->account, &session->events, &session->warnings) < 0)
		return NULL;
	return session;
}

static void session__free(struct session *session)
{
	output__release(&session->out);
	account__release(&session->account);
	natives__release(&session->natives);
	dumps__release(&session->dumps);
	events__release(&session->events);
	warnings__release(&session->warnings);
	options__release(&session->opts);
	free(session->perf_data);
	free(session);
}

/* output__open for the run's out= as it stands now. */
static int open_output(struct session *session)
{
	output__release(&session->out);
	output__init(&session->out, session->opts.out_path, session->perf_data, &session->dumps);
	return output__open(&session->out);
}

static struct stream_section_inputs section_of(struct session *session)
{
	return (struct stream_section_inputs){
		.account = &session->account, .events = &session->events, .dumps = &session->dumps,
		.natives = &session->natives, .warnings = &session->warnings, .perf_data = session->perf_data,
	};
}

/* output__write of everything the run has. */
static int write_output(struct session *session)
{
	struct stream_section_inputs in = section_of(session);

	session->out.path = session->opts.out_path;
	return output__write(&session->out, &in);
}

struct fixture {
	struct scratch_dir dir;
	struct session *session;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	if (scratch_dir__make(&f->dir, "test-output") || !(f->session = session__new(&no_perf))) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	session__free(f->session);
	scratch_dir__remove(&f->dir);
	free(f);
	return 0;
}

static char *in_dir(void **state, const char *name)
{
	return scratch_dir__file(&((struct fixture *)*state)->dir, name);
}

/* A dump of pid 42: one load "hot" of 4 bytes at 0x7000, at time 100. */
static char *with_dump(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;
	char *path = in_dir(state, "jit-42.dump");
	struct jitdump_writer w;
	struct jitdump_writer_header h = jitdump_writer__default_header(42);
	struct jitdump_writer_load l = { .timestamp = 100, .pid = 42, .tid = 42, .code_addr = 0x7000,
					 .name = "hot", .code = "\x90\x90\x90\xc3", .code_size = 4 };

	jitdump_writer__init(&w, false);
	jitdump_writer__header(&w, &h);
	jitdump_writer__code_load(&w, &l);
	assert_int_equal(jitdump_writer__save(&w, path, w.len), 0);
	jitdump_writer__release(&w);
	assert_int_equal(dumps__add(&session->dumps, path, 42), 0);
	return path;
}

static void an_input_is_never_the_output(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;
	char *perf_data = in_dir(state, "perf.data"), *dump = with_dump(state);
	char *alias = in_dir(state, "alias"), *threads = in_dir(state, "threads.data");
	char *threads_data = in_dir(state, "threads.data/data");

	scratch_dir__put(perf_data, "PERFILE2 and more");
	assert_int_equal(link(perf_data, alias), 0);
	assert_int_equal(mkdir(threads, 0755), 0);
	scratch_dir__put(threads_data, "PERFILE2 and more");
	session->perf_data = strdup(perf_data);

	session->opts.out_path = strdup(perf_data);
	assert_int_equal(open_output(session), -1);
	/* Through another name of the same file. */
	free(session->opts.out_path);
	session->opts.out_path = strdup(alias);
	assert_int_equal(open_output(session), -1);
	free(session->opts.out_path);
	session->opts.out_path = strdup(dump);
	assert_int_equal(open_output(session), -1);
	assert_null(session->out.file.f);
	/* perf record --threads: the recording is the directory's data file. */
	free(session->perf_data);
	session->perf_data = strdup(threads);
	free(session->opts.out_path);
	session->opts.out_path = strdup(threads_data);
	assert_int_equal(open_output(session), -1);
	/* Nothing refused was touched. */
	char *text = scratch_dir__get(perf_data);

	assert_string_equal(text, "PERFILE2 and more");
	free(text);
	free(perf_data), free(dump), free(alias), free(threads), free(threads_data);
}

/* How many names the fixture's directory holds (no temporary file left behind). */
static int entries(void **state)
{
	return scratch_dir__entries(&((struct fixture *)*state)->dir);
}

static const char empty_stream[] = "hotblocks-stream 1\n"
				   "producer hotblocks.so/1\n"
				   "input -\n"
				   "time-aware no\n"
				   "end\n";

static void the_output_is_checked_early_and_replaced_late(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;
	char *out = in_dir(state, "out.hbs"), *nodir = in_dir(state, "no/such/dir/out.hbs");

	session->perf_data = strdup("-");
	session->opts.out_path = strdup(nodir);
	assert_int_equal(open_output(session), -1);
	free(session->opts.out_path);
	/* An old, longer file: kept as it is until the stream replaces it. */
	scratch_dir__put(out, "an old file, longer than the stream that replaces it ......................"
		      "......................................................................\n");
	session->opts.out_path = strdup(out);
	assert_int_equal(open_output(session), 0);
	/* Only what is written in place stays open until the end. */
	assert_null(session->out.file.f);
	char *text = scratch_dir__get(out);

	assert_non_null(strstr(text, "an old file"));
	free(text);
	assert_int_equal(entries(state), 1);
	assert_int_equal(write_output(session), 0);
	text = scratch_dir__get(out);
	assert_string_equal(text, empty_stream);
	free(text);
	/* Nothing else is left in its directory (lib/atomic-file.c's tests
	 * hold the rest of how the file is replaced). */
	assert_int_equal(entries(state), 1);
	free(out), free(nodir);
}

/* A write that fails (here: past the file size limit) leaves the earlier file whole. */
static void a_failed_write_leaves_the_earlier_file(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;
	char *out = in_dir(state, "out.hbs");
	struct rlimit old, small = { 16, 16 };
	void (*old_xfsz)(int);
	int ret;

	session->perf_data = strdup("-");
	scratch_dir__put(out, "the earlier stream\n");
	session->opts.out_path = strdup(out);
	assert_int_equal(open_output(session), 0);
	assert_int_equal(getrlimit(RLIMIT_FSIZE, &old), 0);
	small.rlim_max = old.rlim_max;
	old_xfsz = signal(SIGXFSZ, SIG_IGN);
	assert_int_equal(setrlimit(RLIMIT_FSIZE, &small), 0);
	ret = write_output(session);
	setrlimit(RLIMIT_FSIZE, &old);
	signal(SIGXFSZ, old_xfsz);
	assert_true(ret < 0);
	char *text = scratch_dir__get(out);

	assert_string_equal(text, "the earlier stream\n");
	free(text);
	assert_int_equal(entries(state), 1);
	free(out);
}

static void the_section_has_one_object_per_counted_id(void **state)
{
	struct session *session = ((struct fixture *)*state)->session;
	char *dump = with_dump(state);
	struct stream_section s;
	bool created;

	session->perf_data = strdup("rec/perf.data");
	session->events.nr = 1;
	session->events.v[0].name = strdup("cpu-clock");
	session->events.v[0].time_aware = true;
	assert_int_equal(natives__get(&session->natives, "/usr/lib/libc.so.6", "memcpy", 0x9000, &created), 0);
	session->natives.objs[0].addr = 0x7fff00009000;
	session->natives.objs[0].size = 0x100;
	session->natives.objs[0].pid = 42;
	session->account.totals[0][HB_CLASS_ALL][0] = 3;
	session->account.totals[0][HB_CLASS_JIT][0] = 2;
	session->account.totals[0][HB_CLASS_NATIVE][0] = 1;
	warnings__add(&session->warnings, "something to say");
	/* Code map id 0 (the dump's load) twice, the native object once. */
	assert_int_equal(tally__add(&session->account.counts, 0, 0, 0x1, 10), 0);
	assert_int_equal(tally__add(&session->account.counts, 0, 0, 0x3, 10), 0);
	assert_int_equal(tally__add(&session->account.counts, NATIVE_ID_BIT | 0, 0, 0x20, 10), 0);

	struct stream_section_inputs in = section_of(session);

	assert_int_equal(stream_section__assemble(&s, &in), 0);
	assert_int_equal(s.objs_nr, 2);
	assert_int_equal(s.counts_nr, 3);
	assert_int_equal(s.objs[0].kind, HB_KIND_JIT);
	assert_int_equal(s.objs[0].id, 0);
	assert_int_equal(s.objs[0].pid, 42);
	assert_int_equal(s.objs[0].e_machine, 62);
	assert_int_equal(s.objs[0].addr, 0x7000);
	assert_int_equal(s.objs[0].size, 4);
	assert_int_equal(s.objs[0].load_time, 100);
	assert_string_equal(s.objs[0].name, "hot");
	assert_string_equal(s.objs[0].dump, dump);
	assert_memory_equal(s.objs[0].code, "\x90\x90\x90\xc3", 4);
	assert_int_equal(s.objs[1].kind, HB_KIND_NATIVE);
	assert_int_equal(s.objs[1].id, NATIVE_ID_BIT);
	assert_string_equal(s.objs[1].dso, "/usr/lib/libc.so.6");
	assert_string_equal(s.objs[1].name, "memcpy");
	assert_int_equal(s.objs[1].sym_start, 0x9000);
	assert_int_equal(s.objs[1].addr, 0x7fff00009000);
	assert_string_equal(s.header.producer, HB_PRODUCER);
	assert_string_equal(s.header.input, "rec/perf.data");
	assert_true(s.header.time_aware);
	assert_int_equal(s.header.events_nr, 1);
	assert_string_equal(s.header.events[0], "cpu-clock");
	assert_int_equal(s.header.totals[0][HB_CLASS_JIT][0], 2);
	assert_int_equal(s.header.jitdumps_nr, 1);
	assert_string_equal(s.header.jitdumps[0].path, dump);
	assert_int_equal(s.header.jitdumps[0].pid, 42);
	assert_int_equal(s.header.jitdumps[0].loads, 1);
	assert_string_equal(s.header.jitdumps[0].status, "ok");
	assert_int_equal(s.header.warnings_nr, 1);
	assert_string_equal(s.header.warnings[0], "something to say");
	stream_section__release(&s);
	free(dump);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(an_input_is_never_the_output),
		T(the_output_is_checked_early_and_replaced_late),
		T(a_failed_write_leaves_the_earlier_file),
		T(the_section_has_one_object_per_counted_id),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

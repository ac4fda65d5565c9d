// SPDX-License-Identifier: MIT
/*
 * hotblocks.so: perf dlfilter entry points. Resolves every sample to a code
 * object and offset (JIT code through the process's jitdump, time-aware;
 * other code through perf's symbols) and writes the annotated stream
 * (plugin/STREAM.md) when perf is done. What each step relies on is in
 * plugin/JITDUMP.md and plugin/NATIVE.md. This file only wires the rooms
 * (plugin/layers.mk says what each holds), each of which owns its state: a
 * sample passes down one line, its event (sample/events), its verdict
 * (sample/classify, which asks jit/ and native/), its count
 * (sample/account), its branch stack's edges and ranges, if it has one
 * (sample/branches), its callchain's stack, if it has one (sample/callchains);
 * at the end the stream section goes out (emit/).
 *
 * perf owns the process: nothing here aborts or returns a negative value
 * from a filter callback. Every sample is dropped (return 1) so perf prints
 * nothing of its own. The one exception is how a run ends badly: perf turns a
 * failed start() into the exit status ret & 0xff and ignores stop()'s return,
 * so a bad --dlarg, an output that cannot be written and a failed write end
 * the process with the documented status (end_run()).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <perf/perf_dlfilter.h>

#include "emit/output.h"
#include "jit/dumps.h"
#include "lib/message.h"
#include "lib/warnings.h"
#include "native/natives.h"
#include "native/resolve.h"
#include "perf/options.h"
#include "perf/perf-cmdline.h"
#include "perf/perfdata-fanout.h"
#include "sample/account.h"
#include "sample/branches.h"
#include "sample/callchains.h"
#include "sample/classify.h"
#include "sample/events.h"
#include "sample/explain.h"

#define HB_EXPORT __attribute__((visibility("default")))

/* perf copies its function table in here; it must not be const (JITDUMP.md
 * "perf's dlfilter API as the plugin uses it"). */
HB_EXPORT struct perf_dlfilter_fns perf_dlfilter_fns;

/* perf's exit status when the plugin ends the run (also in options__usage). */
enum {
	EXIT_OUTPUT = 1,	/* the stream cannot be written */
	EXIT_USAGE = 2,		/* bad --dlarg */
};

/* One perf script run: each room's state, wired here. */
struct run {
	bool started;		/* start() succeeded: stop() writes the stream */
	struct options opts;
	char *perf_data;	/* the recording perf reads; "-" for a pipe */
	bool live;		/* ... a pipe: the dumps may still be growing */
	bool defer;		/* perf filters samples itself: classify only what it keeps */
	char *symfs;		/* perf script --symfs DIR (owned): the resolver reads files under it */
	struct warnings warnings;
	struct events events;
	struct dumps dumps;
	struct natives natives;
	struct resolve resolve;	/* native samples resolved without perf's symbols */
	struct classify classify;
	struct account account;
	struct branches branches;	/* branch-stack counts (perf record -b) */
	struct callchains callchains;	/* callchain stacks (perf record -g) */
	struct output out;
};

static void run__free(struct run *r)
{
	if (!r)
		return;
	output__release(&r->out);
	branches__release(&r->branches);
	callchains__release(&r->callchains);
	account__release(&r->account);
	classify__release(&r->classify);
	resolve__release(&r->resolve);
	natives__release(&r->natives);
	dumps__release(&r->dumps);
	events__release(&r->events);
	warnings__release(&r->warnings);
	options__release(&r->opts);
	free(r->perf_data);
	free(r->symfs);
	free(r);
}

static struct run *run__new(void)
{
	struct run *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	events__init(&r->events, &perf_dlfilter_fns, &r->warnings);
	natives__init(&r->natives);
	resolve__init(&r->resolve, &r->warnings);
	branches__init(&r->branches, &r->warnings);
	callchains__init(&r->callchains, &r->warnings);
	output__init(&r->out, NULL, "-", NULL);
	if (dumps__init(&r->dumps, &r->warnings) < 0 || account__init(&r->account, &r->events, &r->warnings) < 0) {
		run__free(r);
		return NULL;
	}
	return r;
}

/* End the run with status (see the top of this file). */
static void __attribute__((noreturn)) end_run(int status)
{
	fflush(stdout);
	exit(status);
}

/* The recording perf reads: --dlarg perf-data, else perf's -i, else what
 * perf script reads without one (a pipe on standard input, or perf.data).
 * Also learns whether perf filters samples itself. 0 or -ENOMEM. */
static int find_input(struct run *r)
{
	struct perf_cmdline cmd;
	const char *input;

	if (perf_cmdline__read(&cmd) < 0)
		return -ENOMEM;
	r->defer = cmd.filters;
	r->symfs = cmd.symfs;
	cmd.symfs = NULL;
	r->resolve.force = cmd.force;
	input = r->opts.perf_data ? r->opts.perf_data :
		cmd.input ? cmd.input : perf_cmdline__stdin_is_pipe() ? "-" : "perf.data";
	r->perf_data = strdup(input);
	perf_cmdline__release(&cmd);
	if (!r->perf_data)
		return -ENOMEM;
	r->live = !strcmp(r->perf_data, "-");
	return 0;
}

/* Find the jitdumps and the recording's maps in one walk of perf.data (not
 * of a pipe: perf reads it), and decide whether natives are resolved here. */
static void read_recording(struct run *r)
{
	struct perfdata_scan_stats st = { 0 };
	struct perfdata_visitor jit = { 0 }, maps = { 0 };
	struct perfdata_fanout readers = { 0 };
	int ret = 0;

	dumps__add_fallback_dirs(&r->dumps, r->opts.jitdir, r->perf_data);
	for (size_t i = 0; i < r->opts.search_nr; i++)
		dumps__add_dir(&r->dumps, r->opts.search[i]);
	if (resolve__places(&r->resolve, r->symfs, r->perf_data, r->opts.search, r->opts.search_nr) < 0)
		r->resolve.maps.oom = true;
	if (!r->live) {
		char err[512] = "";
		struct perfdata_visitor v;

		dumps__visitor(&r->dumps, &jit);
		resolve__visitor(&r->resolve, &maps);
		perfdata_fanout__add(&readers, &jit);
		perfdata_fanout__add(&readers, &maps);
		v = perfdata_fanout__visitor(&readers);
		ret = perfdata__walk(r->perf_data, &v, &st, err, sizeof(err));
		dumps__walked(&r->dumps, r->perf_data, ret, &st, err);
	}
	dumps__add_named(&r->dumps, r->opts.jitdumps, r->opts.jitdumps_nr);
	resolve__ready(&r->resolve, ret, &st,
		       r->live ? "perf script reads a pipe, which the plugin cannot read for its mmap records" : NULL);
}

HB_EXPORT int start(void **data, void *ctx)
{
	int argc = 0;
	char **argv = perf_dlfilter_fns.args ? perf_dlfilter_fns.args(ctx, &argc) : NULL;
	struct run *r = run__new();
	const char *bad;

	/* On failure perf still calls stop(), which frees r. */
	*data = r;
	if (!r)
		return -ENOMEM;
	switch (options__parse(&r->opts, argc, argv, &bad)) {
	case OPTIONS_OK:
		break;
	case OPTIONS_HELP:
		fputs(options__usage, stdout);
		end_run(fflush(stdout) || ferror(stdout) ? EXIT_OUTPUT : 0);
	case OPTIONS_UNKNOWN:
		message__say("hotblocks: error: unknown --dlarg '%s'\n", bad);
		fputs(options__usage, stderr);
		end_run(EXIT_USAGE);
	default:
		return -ENOMEM;
	}
	if (find_input(r) < 0)
		return -ENOMEM;
	r->account.progress = isatty(STDERR_FILENO);
	read_recording(r);
	classify__init(&r->classify, &perf_dlfilter_fns, &r->dumps, &r->natives, &r->resolve, r->opts.jit_only);
	r->classify.live = r->live;
	output__init(&r->out, r->opts.out_path, r->perf_data, &r->dumps);
	if (output__open(&r->out) < 0)
		end_run(EXIT_OUTPUT);
	r->started = true;
	return 0;
}

HB_EXPORT int filter_event_early(void *data, const struct perf_dlfilter_sample *sample, void *ctx)
{
	struct run *r = data;

	if (!r || r->defer)
		return 0;
	uint32_t ev = events__id(&r->events, sample->event, ctx);
	struct classify_verdict v;

	account__count(&r->account, ev, HB_CLASS_ALL, sample->period);
	/* Returning 0 asks perf to resolve symbols and call filter_event. */
	if (!classify__early(&r->classify, sample, r->events.v[ev].time_aware, &v))
		return 0;
	account__settle(&r->account, ev, sample, &v);
	branches__add(&r->branches, &r->classify, ev, sample, r->events.v[ev].time_aware, ctx);
	callchains__add(&r->callchains, &r->classify, ev, sample, &v, r->events.v[ev].time_aware, ctx);
	return 1;
}

HB_EXPORT int filter_event(void *data, const struct perf_dlfilter_sample *sample, void *ctx)
{
	struct run *r = data;

	if (!r)
		return 1;
	uint32_t ev = events__id(&r->events, sample->event, ctx);
	struct classify_verdict v;

	/* perf has applied its own filters: this sample is one the user asked for. */
	if (r->defer)
		account__count(&r->account, ev, HB_CLASS_ALL, sample->period);
	if (!r->defer || !classify__early(&r->classify, sample, r->events.v[ev].time_aware, &v))
		v = classify__resolved(&r->classify, sample, ctx);
	account__settle(&r->account, ev, sample, &v);
	branches__add(&r->branches, &r->classify, ev, sample, r->events.v[ev].time_aware, ctx);
	callchains__add(&r->callchains, &r->classify, ev, sample, &v, r->events.v[ev].time_aware, ctx);
	return 1;
}

/* The machine of a file process pid ran, for a jitdump that names none. */
static uint16_t process_machine(void *arg, uint32_t pid, const char **file)
{
	return natives__machine_of(arg, pid, file);
}

HB_EXPORT int stop(void *data, void *ctx)
{
	struct run *r = data;

	if (!r)
		return 0;
	/* start() failed: perf still calls stop; there is nothing to report. */
	if (!r->started) {
		run__free(r);
		return 0;
	}
	account__end_progress(&r->account);
	/* The dumps are as complete as they will get. */
	dumps__refresh(&r->dumps);
	account__place_held(&r->account, &r->classify);
	dumps__warn_unfinished(&r->dumps);
	dumps__settle_machines(&r->dumps, process_machine, &r->natives);
	explain__unresolved(&r->account, &r->dumps, r->perf_data, r->live, &r->warnings);
	explain__natives(&r->resolve, &r->account, r->dumps.osrelease, r->opts.stats, &r->warnings);
	int ret = output__write(&r->out, &(struct stream_section_inputs){
		.account = &r->account, .branches = &r->branches, .callchains = &r->callchains, .events = &r->events, .dumps = &r->dumps, .natives = &r->natives,
		.maps = r->resolve.usable ? &r->resolve.maps : NULL, .warnings = &r->warnings,
		.perf_data = r->perf_data, .code_refs = r->opts.code_refs,
		.places = { .symfs = r->symfs, .perf_data = r->perf_data, .search = r->opts.search,
			    .search_nr = r->opts.search_nr },
	});

	run__free(r);
	/* perf ignores stop()'s return value: a lost stream must still fail the run. */
	if (ret < 0)
		end_run(EXIT_OUTPUT);
	return 0;
}

HB_EXPORT const char *filter_description(const char **long_description)
{
	static const char long_desc[] =
		"Resolves samples to JIT code (jit-<pid>.dump, time-aware) and native symbols and writes\n"
		"the hotblocks annotated stream for the `hotblocks` post-processor.\n"
		"Use --dlarg help for the options.";

	if (long_description)
		*long_description = long_desc;
	return "hotblocks: hot basic blocks of JIT and native code (annotated stream)";
}

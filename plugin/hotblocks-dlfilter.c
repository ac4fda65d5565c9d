// SPDX-License-Identifier: MIT
/*
 * hotblocks.so: perf dlfilter entry points. Resolves every sample to a code
 * object and offset (JIT code through the process's jitdump, time-aware;
 * other code through perf's symbols) and writes the annotated stream
 * (plugin/STREAM.md) when perf is done. What each step relies on is in
 * plugin/JITDUMP.md; the steps themselves are in their own files:
 *   options.c        the --dlarg options
 *   perf-cmdline.c   what perf's own command line says (its input, its filters)
 *   dumps.c          finding and reading the jitdumps (jitdump.c, perfdata-scan.c)
 *   classify.c       which class, object and offset each sample counts for (a verdict)
 *   run.c            the run's state, events, accounting of verdicts and warnings
 *   pending.c        samples held back in live (pipe) mode
 *   output.c         out=FILE, and writing the stream (stream-assemble.c, stream-writer.c)
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

#include "classify.h"
#include "dumps.h"
#include "message.h"
#include "options.h"
#include "output.h"
#include "perf-cmdline.h"
#include "run.h"

#define HB_EXPORT __attribute__((visibility("default")))

/* perf copies its function table in here; it must not be const (JITDUMP.md
 * "perf's dlfilter API as the plugin uses it"). */
HB_EXPORT struct perf_dlfilter_fns perf_dlfilter_fns;

/* perf's exit status when the plugin ends the run (also in options__usage). */
enum {
	EXIT_OUTPUT = 1,	/* the stream cannot be written */
	EXIT_USAGE = 2,		/* bad --dlarg */
};

/* End the run with status (see the top of this file). */
static void __attribute__((noreturn)) end_run(int status)
{
	fflush(stdout);
	exit(status);
}

/* The recording perf reads: --dlarg perf-data, else perf's -i, else what
 * perf script reads without one (a pipe on standard input, or perf.data).
 * Also learns whether perf filters samples itself. 0 or -ENOMEM. */
static int find_input(struct run *run)
{
	struct perf_cmdline cmd;
	const char *input;

	if (perf_cmdline__read(&cmd) < 0)
		return -ENOMEM;
	run->defer = cmd.filters;
	run->symfs = cmd.symfs;
	input = run->opts.perf_data ? run->opts.perf_data :
		cmd.input ? cmd.input : perf_cmdline__stdin_is_pipe() ? "-" : "perf.data";
	run->perf_data = strdup(input);
	perf_cmdline__release(&cmd);
	if (!run->perf_data)
		return -ENOMEM;
	run->classify.live = !strcmp(run->perf_data, "-");
	return 0;
}

HB_EXPORT int start(void **data, void *ctx)
{
	int argc = 0;
	char **argv = perf_dlfilter_fns.args ? perf_dlfilter_fns.args(ctx, &argc) : NULL;
	struct run *run = run__new(&perf_dlfilter_fns);
	const char *bad;

	/* On failure perf still calls stop(), which frees run. */
	*data = run;
	if (!run)
		return -ENOMEM;
	switch (options__parse(&run->opts, argc, argv, &bad)) {
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
	if (find_input(run) < 0)
		return -ENOMEM;
	run->progress = isatty(STDERR_FILENO);
	/* One walk of perf.data: the jitdump markers, and the maps natives are resolved by. */
	struct perfdata_visitor maps_visitor;
	struct dumps_walk walk = { .also = &maps_visitor };

	resolve__visitor(&run->resolve, &maps_visitor);
	dumps__discover(&run->dumps, run->perf_data, run->classify.live, run->opts.jitdir,
			run->opts.jitdumps, run->opts.jitdumps_nr, &walk);
	resolve__ready(&run->resolve, walk.ret, &walk.st,
		       run->classify.live ? "perf script reads a pipe, which the plugin cannot read for its mmap records" :
		       run->symfs ? "perf script --symfs reads the files from another root" : NULL);
	if (output__open(run) < 0)
		end_run(EXIT_OUTPUT);
	run->started = true;
	return 0;
}

HB_EXPORT int filter_event_early(void *data, const struct perf_dlfilter_sample *sample, void *ctx)
{
	struct run *run = data;

	if (!run || run->defer)
		return 0;
	uint32_t ev = run__event(run, sample->event, ctx);
	struct classify_verdict v;

	run__account(run, ev, HB_CLASS_ALL, sample->period);
	/* Returning 0 asks perf to resolve symbols and call filter_event. */
	if (!classify__early(&run->classify, sample, run->events[ev].time_aware, &v))
		return 0;
	run__settle(run, ev, sample, &v);
	return 1;
}

HB_EXPORT int filter_event(void *data, const struct perf_dlfilter_sample *sample, void *ctx)
{
	struct run *run = data;

	if (!run)
		return 1;
	uint32_t ev = run__event(run, sample->event, ctx);
	struct classify_verdict v;

	/* perf has applied its own filters: this sample is one the user asked for. */
	if (run->defer)
		run__account(run, ev, HB_CLASS_ALL, sample->period);
	if (!run->defer || !classify__early(&run->classify, sample, run->events[ev].time_aware, &v))
		v = classify__resolved(&run->classify, sample, ctx);
	run__settle(run, ev, sample, &v);
	return 1;
}

/* A file with samples no symbol or FDE covers: say so, and why (the report's
 * notes name the files whose functions only FDEs named). */
static void warn_no_symbols(void *arg, const char *path, const char *why, const struct resolve_file_stats *st)
{
	if (st->no_symbol)
		run__warn(arg, "%s: %" PRIu64 " sample%s in code no symbol or .eh_frame entry covers (%s)", path,
			  st->no_symbol, st->no_symbol == 1 ? "" : "s", why);
}

/* What the plugin's own resolution of natives left to perf, and what it lacked. */
static void explain_natives(struct run *run)
{
	if (run->opts.stats)
		fprintf(stderr, "hotblocks: stats: %zu files mapped, %zu indexed, %zu symbols read, %zu KiB of symbol "
			"index; %zu perf maps read; %" PRIu64 " samples left to perf\n", run->resolve.maps.files_nr,
			run->resolve.files_indexed, run->resolve.symbols_indexed, resolve__memory(&run->resolve) / 1024,
			run->resolve.pmaps_nr, run->resolve.deferred);
	if (run->resolve.deferred)
		run__warn(run, "%" PRIu64 " sample%s resolved by perf's own symbol lookup%s%s", run->resolve.deferred,
			  run->resolve.deferred == 1 ? "" : "s", run->resolve.usable ? "" : ": ",
			  run->resolve.usable ? " (guest or unknown cpumode)" : run->resolve.why_not);
	resolve__files_without_symbols(&run->resolve, warn_no_symbols, run);
}

HB_EXPORT int stop(void *data, void *ctx)
{
	struct run *run = data;

	if (!run)
		return 0;
	/* start() failed: perf still calls stop; there is nothing to report. */
	if (!run->started) {
		run__free(run);
		return 0;
	}
	run__end_progress(run);
	/* The dumps are as complete as they will get. */
	dumps__refresh(&run->dumps);
	run__place_held(run);
	dumps__warn_unfinished(&run->dumps);
	run__explain_unresolved(run);
	explain_natives(run);
	int ret = output__write(run);

	run__free(run);
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

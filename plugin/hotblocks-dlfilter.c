// SPDX-License-Identifier: MIT
/*
 * hotblocks.so: perf dlfilter entry points. Resolves every sample to a code
 * object and offset (JIT code through the process's jitdump, time-aware;
 * other code through perf's symbols) and writes the annotated stream
 * (plugin/STREAM.md) when perf is done. What each step relies on is in
 * plugin/JITDUMP.md; the steps themselves are in their own files:
 *   options.c        the --dlarg options
 *   perf-cmdline.c   what perf's own command line says (its input, its filters)
 *   dumps.c          finding and reading the jitdumps (jitdump.c, perfdata.c)
 *   classify.c       which class, object and offset each sample counts for (a verdict)
 *   session.c            the run's state, events, accounting of verdicts and warnings
 *   pending.c        samples held back in live (pipe) mode
 *   output.c         out=FILE, and writing the stream (stream-section.c, stream-writer.c)
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

#include "sample/classify.h"
#include "jit/dumps.h"
#include "lib/message.h"
#include "perf/options.h"
#include "emit/output.h"
#include "perf/perf-cmdline.h"
#include "sample/session.h"

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
static int find_input(struct session *session)
{
	struct perf_cmdline cmd;
	const char *input;

	if (perf_cmdline__read(&cmd) < 0)
		return -ENOMEM;
	session->defer = cmd.filters;
	session->symfs = cmd.symfs;
	input = session->opts.perf_data ? session->opts.perf_data :
		cmd.input ? cmd.input : perf_cmdline__stdin_is_pipe() ? "-" : "perf.data";
	session->perf_data = strdup(input);
	perf_cmdline__release(&cmd);
	if (!session->perf_data)
		return -ENOMEM;
	session->classify.live = !strcmp(session->perf_data, "-");
	return 0;
}

HB_EXPORT int start(void **data, void *ctx)
{
	int argc = 0;
	char **argv = perf_dlfilter_fns.args ? perf_dlfilter_fns.args(ctx, &argc) : NULL;
	struct session *session = session__new(&perf_dlfilter_fns);
	const char *bad;

	/* On failure perf still calls stop(), which frees run. */
	*data = session;
	if (!session)
		return -ENOMEM;
	switch (options__parse(&session->opts, argc, argv, &bad)) {
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
	if (find_input(session) < 0)
		return -ENOMEM;
	session->progress = isatty(STDERR_FILENO);
	/* One walk of perf.data: the jitdump markers, and the maps natives are resolved by. */
	struct perfdata_visitor maps_visitor;
	struct dumps_walk walk = { .also = &maps_visitor };

	resolve__visitor(&session->resolve, &maps_visitor);
	dumps__discover(&session->dumps, session->perf_data, session->classify.live, session->opts.jitdir,
			session->opts.jitdumps, session->opts.jitdumps_nr, &walk);
	resolve__ready(&session->resolve, walk.ret, &walk.st,
		       session->classify.live ? "perf script reads a pipe, which the plugin cannot read for its mmap records" :
		       session->symfs ? "perf script --symfs reads the files from another root" : NULL);
	if (output__open(session) < 0)
		end_run(EXIT_OUTPUT);
	session->started = true;
	return 0;
}

HB_EXPORT int filter_event_early(void *data, const struct perf_dlfilter_sample *sample, void *ctx)
{
	struct session *session = data;

	if (!session || session->defer)
		return 0;
	uint32_t ev = session__event(session, sample->event, ctx);
	struct classify_verdict v;

	session__account(session, ev, HB_CLASS_ALL, sample->period);
	/* Returning 0 asks perf to resolve symbols and call filter_event. */
	if (!classify__early(&session->classify, sample, session->events[ev].time_aware, &v))
		return 0;
	session__settle(session, ev, sample, &v);
	return 1;
}

HB_EXPORT int filter_event(void *data, const struct perf_dlfilter_sample *sample, void *ctx)
{
	struct session *session = data;

	if (!session)
		return 1;
	uint32_t ev = session__event(session, sample->event, ctx);
	struct classify_verdict v;

	/* perf has applied its own filters: this sample is one the user asked for. */
	if (session->defer)
		session__account(session, ev, HB_CLASS_ALL, sample->period);
	if (!session->defer || !classify__early(&session->classify, sample, session->events[ev].time_aware, &v))
		v = classify__resolved(&session->classify, sample, ctx);
	session__settle(session, ev, sample, &v);
	return 1;
}

/* A file with samples no symbol or FDE covers: say so, and why (the report's
 * notes name the files whose functions only FDEs named). */
static void warn_no_symbols(void *arg, const char *path, const char *why, const struct resolve_file_stats *st)
{
	if (st->no_symbol)
		session__warn(arg, "%s: %" PRIu64 " sample%s in code no symbol or .eh_frame entry covers (%s)", path,
			  st->no_symbol, st->no_symbol == 1 ? "" : "s", why);
}

/* What the plugin's own resolution of natives left to perf, and what it lacked. */
static void explain_natives(struct session *session)
{
	if (session->opts.stats)
		fprintf(stderr, "hotblocks: stats: %zu files mapped, %zu indexed, %zu symbols read, %zu KiB of symbol "
			"index; %zu perf maps read; %" PRIu64 " samples left to perf\n", session->resolve.maps.files_nr,
			session->resolve.files_indexed, session->resolve.symbols_indexed, resolve__memory(&session->resolve) / 1024,
			session->resolve.pmaps_nr, session->resolve.deferred);
	if (session->resolve.deferred)
		session__warn(session, "%" PRIu64 " sample%s resolved by perf's own symbol lookup%s%s", session->resolve.deferred,
			  session->resolve.deferred == 1 ? "" : "s", session->resolve.usable ? "" : ": ",
			  session->resolve.usable ? " (guest or unknown cpumode)" : session->resolve.why_not);
	resolve__files_without_symbols(&session->resolve, warn_no_symbols, session);
}

HB_EXPORT int stop(void *data, void *ctx)
{
	struct session *session = data;

	if (!session)
		return 0;
	/* start() failed: perf still calls stop; there is nothing to report. */
	if (!session->started) {
		session__free(session);
		return 0;
	}
	session__end_progress(session);
	/* The dumps are as complete as they will get. */
	dumps__refresh(&session->dumps);
	session__place_held(session);
	dumps__warn_unfinished(&session->dumps);
	session__explain_unresolved(session);
	explain_natives(session);
	int ret = output__write(session);

	session__free(session);
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

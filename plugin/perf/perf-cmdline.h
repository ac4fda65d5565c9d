/* SPDX-License-Identifier: MIT */
/*
 * What perf script's own command line says that no dlfilter API tells: the
 * file perf reads, and whether perf filters samples itself (JITDUMP.md
 * "Which perf.data", "perf's dlfilter API as the plugin uses it").
 */
#ifndef PLUGIN_PERF_CMDLINE_H
#define PLUGIN_PERF_CMDLINE_H

#include <stdbool.h>
#include <stddef.h>

struct perf_cmdline {
	char *input;	/* perf script's -i in any spelling perf accepts (owned;
			 * the last one given); NULL when there is none */
	char *symfs;	/* --symfs DIR: perf reads every file under another root
			 * (owned; the last one given); NULL when there is none */
	bool force;	/* -f, --force: perf reads files other users own (a perf
			 * map perf would otherwise ignore) */
	bool filters;	/* a perf script option that drops samples after
			 * filter_event_early and before filter_event (--time,
			 * --pid, -C, ...), or a command line that cannot tell */
};

/*
 * Read args[0, len), the arguments NUL-separated as /proc/<pid>/cmdline holds
 * them (the last one may lack its NUL). c is zeroed first. 0 or -ENOMEM.
 */
int perf_cmdline__parse(struct perf_cmdline *c, const char *args, size_t len);

/* The same for this process, from /proc/self/cmdline (all of it). An
 * unreadable command line reads as an empty one. 0 or -ENOMEM. */
int perf_cmdline__read(struct perf_cmdline *c);

void perf_cmdline__release(struct perf_cmdline *c);

/* Whether standard input is a FIFO: perf script reads a pipe there when no
 * -i is given. */
bool perf_cmdline__stdin_is_pipe(void);

#endif

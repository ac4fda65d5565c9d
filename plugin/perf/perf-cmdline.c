// SPDX-License-Identifier: MIT
/* perf script's own command line, read from inside the plugin (see perf-cmdline.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "perf-cmdline.h"

enum { NO_VALUE, VALUE };	/* VALUE: attached (-C0, --cpu=0) or the next word */
enum { OTHER, INPUT, FILTER, SYMBOLS, FORCE };

/*
 * perf script's options (perf 6.1, `perf script -h`) that matter here, read
 * the way perf's option parser reads them. Every option that takes a value
 * is listed, so that a value (-F ip,sym, --dlarg X) is never taken for an
 * option. Options without a value, or whose value is optional and then only
 * follows '=' (--itrace[=opts], --xed[=...]), consume nothing and need no
 * entry. A FILTER drops samples after filter_event_early and before
 * filter_event, so that only filter_event sees just the samples perf keeps.
 */
static const struct perf_option {
	char short_name;
	const char *long_name;
	unsigned char value, role;
} options[] = {
	{ 'i', "input",		 VALUE,	   INPUT },
	{ 0,   "time",		 VALUE,	   FILTER },	/* outside the time ranges */
	{ 'C', "cpu",		 VALUE,	   FILTER },	/* on other CPUs */
	{ 'c', "comms",		 VALUE,	   FILTER },	/* threads of other names */
	{ 0,   "pid",		 VALUE,	   FILTER },	/* other processes */
	{ 0,   "tid",		 VALUE,	   FILTER },	/* other threads */
	{ 0,   "dsos",		 VALUE,	   FILTER },	/* in other objects */
	{ 'S', "symbols",	 VALUE,	   FILTER },	/* in other symbols */
	{ 0,   "graph-function", VALUE,	   FILTER },	/* outside these functions' calls */
	{ 0,   "switch-on",	 VALUE,	   FILTER },	/* before this event */
	{ 0,   "switch-off",	 VALUE,	   FILTER },	/* after this event */
	{ 'd', "debug-mode",	 NO_VALUE, FILTER },	/* every sample: only checks order */
	{ 'F', "fields",	 VALUE,	   OTHER },
	{ 'g', "gen-script",	 VALUE,	   OTHER },
	{ 'k', "vmlinux",	 VALUE,	   OTHER },
	{ 's', "script",	 VALUE,	   OTHER },
	{ 0,   "addr-range",	 VALUE,	   OTHER },	/* only widens -S */
	{ 0,   "dlarg",		 VALUE,	   OTHER },
	{ 0,   "dlfilter",	 VALUE,	   OTHER },
	{ 0,   "guestkallsyms",	 VALUE,	   OTHER },
	{ 0,   "guestmodules",	 VALUE,	   OTHER },
	{ 0,   "guestmount",	 VALUE,	   OTHER },	/* where guest code is, not which */
	{ 0,   "guestvmlinux",	 VALUE,	   OTHER },
	{ 0,   "kallsyms",	 VALUE,	   OTHER },
	{ 0,   "max-blocks",	 VALUE,	   OTHER },
	{ 0,   "max-stack",	 VALUE,	   OTHER },
	{ 0,   "stop-bt",	 VALUE,	   OTHER },
	{ 0,   "symfs",		 VALUE,	   SYMBOLS },	/* every file read under another root */
	{ 'f', "force",		 NO_VALUE, FORCE },	/* other users' files read too */
};
#define NR_OPTIONS (sizeof(options) / sizeof(options[0]))

static const struct perf_option *find_short(char c)
{
	for (size_t i = 0; i < NR_OPTIONS; i++)
		if (options[i].short_name == c)
			return &options[i];
	return NULL;
}

/*
 * The option a long name (after "--", before any '=') stands for, as perf
 * picks it: the exact name, else the option the name abbreviates; "no-" in
 * front negates. perf refuses an ambiguous abbreviation, so any match of an
 * accepted one is the match. An abbreviation of an option not listed here
 * cannot match a listed one, as perf would have found it ambiguous.
 */
static const struct perf_option *find_long(const char *name, size_t len, bool *negated)
{
	const struct perf_option *abbrev = NULL;
	bool abbrev_negated = false;

	for (size_t i = 0; i < NR_OPTIONS; i++) {
		const char *l = options[i].long_name;
		size_t n = strlen(l);

		for (int neg = 0; neg < 2; neg++) {
			const char *s = name + 3 * neg;
			size_t m = len - 3 * neg;

			if (neg && (len < 3 || strncmp(name, "no-", 3)))
				break;
			if (m == n && !strncmp(s, l, n)) {
				*negated = neg;
				return &options[i];
			}
			if (m && m < n && !strncmp(s, l, m)) {
				abbrev = &options[i];
				abbrev_negated = neg;
			}
		}
	}
	*negated = abbrev_negated;
	return abbrev;
}

/* Record what perf holds for option o after one more use: its value, or
 * nothing when negated (a value-less option holds "" when given). */
static void set(const char **held, const struct perf_option *o, const char *value, bool negated)
{
	held[o - options] = negated ? NULL : value ? value : "";
}

/*
 * Walk perf's own options up to the subcommand word, as perf's main does.
 * Returns the index of the first option of the subcommand, or -1 when the
 * subcommand is not spelt "script" (an alias from perfconfig, say), whose
 * options cannot be known from here.
 */
static int skip_to_script(char **argv, int argc)
{
	const char *base = strrchr(argv[0], '/');
	int i = 1;

	base = base ? base + 1 : argv[0];
	if (!strncmp(base, "perf-", 5))		/* run as perf-script */
		return strcmp(base, "perf-script") ? -1 : 1;
	for (; i < argc && argv[i][0] == '-'; i++)
		if (!strcmp(argv[i], "--debug") || !strcmp(argv[i], "--debugfs-dir") ||
		    !strcmp(argv[i], "--buildid-dir"))
			i++;
	return i < argc && !strcmp(argv[i], "script") ? i + 1 : -1;
}

/*
 * Walk perf script's options as its parser does: short options may be
 * bundled (-fC0), and one that takes a value takes the rest of the word or
 * else the next word; a long option may be abbreviated and negated; the
 * value of a long option follows '=' or is the next word. Option parsing
 * stops at "--" and at the first word that is not an option.
 */
static void walk_script_options(char **argv, int argc, const char **held)
{
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] != '-' || !a[1] || !strcmp(a, "--"))
			return;
		if (a[1] != '-') {
			for (const char *p = a + 1; *p; p++) {
				const struct perf_option *o = find_short(*p);

				if (!o)
					continue;
				/* a value-less one leaves the rest of the bundle to read (-fic.data) */
				if (o->value == NO_VALUE) {
					set(held, o, NULL, false);
					continue;
				}
				if (p[1]) {
					set(held, o, p + 1, false);
					break;
				} else if (i + 1 < argc)
					set(held, o, argv[++i], false);
				break;
			}
			continue;
		}
		const char *eq = strchr(a + 2, '=');
		size_t len = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
		bool negated;
		const struct perf_option *o = find_long(a + 2, len, &negated);

		if (!o)
			continue;
		if (negated || o->value == NO_VALUE)
			set(held, o, NULL, negated);
		else if (eq)
			set(held, o, eq + 1, false);
		else if (i + 1 < argc)
			set(held, o, argv[++i], false);
	}
}

int perf_cmdline__parse(struct perf_cmdline *c, const char *args, size_t len)
{
	/* A copy with a NUL after the last argument, whether it had one or not. */
	char *buf = malloc(len + 1);
	char **argv = calloc(len + 1, sizeof(*argv));
	const char *held[NR_OPTIONS] = { 0 };
	const char *input = NULL, *symfs = NULL;
	int argc = 0, first;

	memset(c, 0, sizeof(*c));
	if (!buf || !argv) {
		free(buf);
		free(argv);
		return -ENOMEM;
	}
	memcpy(buf, args, len);
	buf[len] = 0;
	for (char *a = buf; a < buf + len; a += strlen(a) + 1)
		argv[argc++] = a;
	first = argc ? skip_to_script(argv, argc) : -1;
	/* Not knowing perf's filters, assume some: classifying after them is
	 * right either way, only slower. */
	if (first < 0)
		c->filters = true;
	else
		walk_script_options(argv + first, argc - first, held);
	for (size_t i = 0; i < NR_OPTIONS; i++) {
		if (held[i] && options[i].role == FILTER)
			c->filters = true;
		if (held[i] && options[i].role == SYMBOLS)
			symfs = held[i];
		if (held[i] && options[i].role == FORCE)
			c->force = true;
		if (held[i] && options[i].role == INPUT)
			input = held[i];
	}
	if ((input && !(c->input = strdup(input))) || (symfs && !(c->symfs = strdup(symfs)))) {
		free(buf);
		free(argv);
		perf_cmdline__release(c);
		return -ENOMEM;
	}
	free(buf);
	free(argv);
	return 0;
}

int perf_cmdline__read(struct perf_cmdline *c)
{
	/* All of it: an option past any fixed size would go unseen. */
	size_t len = 0, size = 4096;
	char *buf = malloc(size);
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	int ret;

	while (buf && fd >= 0) {
		ssize_t n = read(fd, buf + len, size - len);

		if (n <= 0)
			break;
		len += (size_t)n;
		if (len == size) {
			char *bigger = realloc(buf, size *= 2);

			if (!bigger)
				free(buf);
			buf = bigger;
		}
	}
	if (fd >= 0)
		close(fd);
	if (!buf)
		return -ENOMEM;
	ret = perf_cmdline__parse(c, buf, len);
	free(buf);
	return ret;
}

void perf_cmdline__release(struct perf_cmdline *c)
{
	free(c->input);
	free(c->symfs);
	memset(c, 0, sizeof(*c));
}

bool perf_cmdline__stdin_is_pipe(void)
{
	struct stat st;

	return !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode);
}

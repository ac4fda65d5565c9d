// SPDX-License-Identifier: MIT
/*
 * hotblocks.so: perf dlfilter entry points. Resolves every sample to a code
 * object and offset (JIT code through the process's jitdump, time-aware;
 * other code through perf's symbols) and writes the annotated stream
 * (plugin/STREAM.md) when perf is done.
 *
 * perf owns the process: nothing here aborts or returns a negative value
 * from a filter callback. Every sample is dropped (return 1) so perf prints
 * nothing of its own. The one exception is how a run ends badly: perf turns a
 * failed start() into the exit status ret & 0xff and ignores stop()'s return,
 * so a bad --dlarg, an output that cannot be written and a failed write end
 * the process with the documented status (end_run()).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <perf/perf_dlfilter.h>

#include "counts.h"
#include "dumps.h"
#include "natives.h"
#include "perfdata-scan.h"
#include "stream-format.h"
#include "stream-writer.h"

#define HB_EXPORT __attribute__((visibility("default")))
#define PRODUCER "hotblocks.so/1"

/* perf fills this table in; it must not be const (a const table lands in
 * .rodata and perf's memcpy into it crashes, perf.md §1.1). */
HB_EXPORT struct perf_dlfilter_fns perf_dlfilter_fns;

#define MAX_EVENTS 32
#define MAX_WARNINGS 64
/* Object ids: JIT objects are code map ids, native objects have the top bit set. */
#define NATIVE_ID_BIT 0x80000000u
/* A native symbol's code is read once, up to this many bytes. */
#define MAX_NATIVE_CODE (1u << 20)
/* Count table bound: 16M distinct (object, event, offset) keys, ~512 MiB. */
#define MAX_COUNT_SLOTS (1u << 25)
/* Samples held back in live (pipe) mode until the dump catches up. */
#define MAX_PENDING (1u << 20)
/* Re-read growing dumps on a miss at most this often (ns). */
#define REFRESH_INTERVAL_NS 1000000ULL

struct pending {
	uint64_t ip, time, period;
	uint32_t pid, ev;
};

/*
 * perf hands out the same dso and symbol strings for the same dso and symbol
 * (they live in its long-lived dso/symbol objects), so their addresses key a
 * small cache in front of the string-hashed object table. The addresses are
 * only compared, never dereferenced after the callback returns.
 */
#define NATIVE_CACHE_SLOTS 256

struct native_cache_slot {
	const char *dso, *sym;
	uint64_t sym_start;
	long id;
};

struct event {
	const char *seen_ptr;	/* perf's string for this event, compared by address first */
	char *name;
	bool time_aware;
	bool clock_warned;
};

/* perf's exit status when the plugin ends the run (also in usage_text). */
enum {
	EXIT_OUTPUT = 1,	/* the stream cannot be written */
	EXIT_USAGE = 2,		/* bad --dlarg */
};

struct hb {
	/* options (--dlarg) */
	char *out_path;
	int out_fd;		/* out=FILE, opened and checked in start(); -1: stdout */
	char *perf_data;
	bool jit_only;
	bool live;		/* input is a pipe: dumps may still be growing */
	bool defer;		/* perf filters samples itself: classify only what it keeps */

	struct dumps dumps;
	struct natives natives;
	struct counts counts;

	struct event events[MAX_EVENTS];
	size_t events_nr;
	const char *last_event_ptr;
	uint32_t last_event;
	uint64_t totals[MAX_EVENTS][HB_CLASS__NR][2];

	struct pending *pending;
	size_t pending_nr, pending_alloc;

	struct native_cache_slot native_cache[NATIVE_CACHE_SLOTS];

	uint64_t last_refresh_ns;
	uint8_t *code_buf;	/* MAX_NATIVE_CODE bytes, for object_code() */

	/* Progress on a terminal: perf script can run for minutes on big files. */
	bool progress;
	bool progress_shown;
	uint64_t seen;

	char *warnings[MAX_WARNINGS];
	size_t warnings_nr;
	bool table_full_warned, pending_full_warned;
};

/* --- diagnostics --------------------------------------------------------- */

__attribute__((format(printf, 2, 3)))
static void warn(void *arg, const char *fmt, ...)
{
	struct hb *hb = arg;
	char msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	for (size_t i = 0; i < hb->warnings_nr; i++)
		if (!strcmp(hb->warnings[i], msg))
			return;
	fprintf(stderr, "hotblocks: warning: %s\n", msg);
	if (hb->warnings_nr < MAX_WARNINGS) {
		hb->warnings[hb->warnings_nr] = strdup(msg);
		if (hb->warnings[hb->warnings_nr])
			hb->warnings_nr++;
	}
}

static const char usage_text[] =
	"usage: perf script [-i perf.data] --dlfilter hotblocks.so [--dlarg OPTION]...\n"
	"Writes the hotblocks annotated stream (read it with the `hotblocks` command).\n"
	"options (each one --dlarg):\n"
	"  out=FILE        write the stream to FILE (default: standard output)\n"
	"  perf-data=FILE  the perf.data to scan for jitdump paths (default: perf's -i, else ./perf.data)\n"
	"  jitdump=FILE    also read this jit-<pid>.dump (repeatable)\n"
	"  jitdir=DIR      look for jit-<pid>.dump in DIR too\n"
	"  jit-only        count only JIT samples (much faster; native code is not resolved)\n"
	"  help            print this and stop\n"
	"Record with `perf record -k mono` so JIT samples can be matched by time.\n"
	"perf then exits with status 1 when the stream cannot be written (out=FILE is\n"
	"checked before any sample is read and may not be the input), 2 for a bad --dlarg.\n";

/* End the run with status (see the top of this file). */
static void __attribute__((noreturn)) end_run(int status)
{
	fflush(stdout);
	exit(status);
}

/* --- perf's command line -------------------------------------------------- */

/*
 * No dlfilter API tells the input file or perf's own filter options, so read
 * them from our own command line (perf.md §1.7).
 */
static void scan_perf_cmdline(struct hb *hb, char **input)
{
	static const char *const filters[] = {
		"--time", "--pid", "--tid", "-C", "--cpu", "-c", "--comms", "-S", "--symbols",
		"--dsos", "--guestmount", "--switch-on", "--switch-off",
	};
	char buf[8192];
	int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return;
	buf[n] = 0;
	for (char *a = buf; a < buf + n; a += strlen(a) + 1) {
		char *next = a + strlen(a) + 1;
		bool has_next = next < buf + n;

		if ((!strcmp(a, "-i") || !strcmp(a, "--input")) && has_next)
			*input = next;
		else if (!strncmp(a, "--input=", 8))
			*input = a + 8;
		else if (!strncmp(a, "-i", 2) && a[2] && a[1] != '-')
			*input = a + 2;
		for (size_t f = 0; f < sizeof(filters) / sizeof(filters[0]); f++) {
			size_t len = strlen(filters[f]);

			if (!strncmp(a, filters[f], len) && (a[len] == 0 || a[len] == '='))
				hb->defer = true;
		}
	}
	if (*input)
		*input = strdup(*input);
}

static bool stdin_is_pipe(void)
{
	struct stat st;

	return !fstat(0, &st) && S_ISFIFO(st.st_mode);
}

/* --- start ---------------------------------------------------------------- */

static int parse_args(struct hb *hb, void *ctx, char ***jitdumps, size_t *jitdumps_nr, char **jitdir)
{
	int argc = 0;
	char **argv = perf_dlfilter_fns.args ? perf_dlfilter_fns.args(ctx, &argc) : NULL;

	*jitdumps = calloc((size_t)argc + 1, sizeof(char *));
	if (!*jitdumps)
		return -ENOMEM;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (!strncmp(a, "out=", 4))
			hb->out_path = strdup(a + 4);
		else if (!strncmp(a, "perf-data=", 10))
			hb->perf_data = strdup(a + 10);
		else if (!strncmp(a, "jitdump=", 8))
			(*jitdumps)[(*jitdumps_nr)++] = (char *)a + 8;
		else if (!strncmp(a, "jitdir=", 7))
			*jitdir = (char *)a + 7;
		else if (!strcmp(a, "jit-only"))
			hb->jit_only = true;
		else if (!strcmp(a, "help")) {
			fputs(usage_text, stdout);
			end_run(fflush(stdout) || ferror(stdout) ? EXIT_OUTPUT : 0);
		} else {
			fprintf(stderr, "hotblocks: error: unknown --dlarg '%s'\n%s", a, usage_text);
			end_run(EXIT_USAGE);
		}
	}
	return 0;
}

static int on_marker(void *arg, uint32_t pid, const char *path)
{
	struct hb *hb = arg;

	dumps__add(&hb->dumps, path, pid);
	return 0;
}

static void find_dumps(struct hb *hb, char **jitdumps, size_t jitdumps_nr, const char *jitdir)
{
	char err[512];
	char cwd[PATH_MAX];

	/* Fallback directories, in search order (issue #2): --dlarg jitdir, next to
	 * perf.data, the current directory. */
	if (jitdir)
		dumps__add_dir(&hb->dumps, jitdir);
	if (hb->perf_data && strcmp(hb->perf_data, "-")) {
		char *copy = strdup(hb->perf_data);

		if (copy) {
			dumps__add_dir(&hb->dumps, dirname(copy));
			free(copy);
		}
	}
	if (getcwd(cwd, sizeof(cwd)))
		dumps__add_dir(&hb->dumps, cwd);

	if (!hb->live) {
		struct perfdata_scan_stats st = { 0 };

		if (perfdata__scan(hb->perf_data, on_marker, hb, &st, err, sizeof(err)) < 0)
			warn(hb, "%s (jitdump paths recorded in it are unknown; using fallbacks)", err);
		else if (st.compressed_failed)
			warn(hb, "%s: %" PRIu64 " compressed records could not be read; jitdump markers in them were missed",
			     hb->perf_data, st.compressed_failed);
		else
			/* Every dump of the recording is known: another pid's file is not one. */
			dumps__markers_known(&hb->dumps);
	}
	for (size_t i = 0; i < jitdumps_nr; i++) {
		int ret = dumps__add_explicit(&hb->dumps, jitdumps[i]);

		if (ret == -ENOENT)
			warn(hb, "--dlarg jitdump=%s: no such file", jitdumps[i]);
	}
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* Why out=FILE (whose stat is st) may not be written, or NULL. */
static const char *input_named(struct hb *hb, const struct stat *st)
{
	static char why[PATH_MAX + 64];
	struct stat in;

	if (strcmp(hb->perf_data, "-") && !stat(hb->perf_data, &in)) {
		if (same_file(&in, st))
			return "the input perf.data";
		/* perf record --threads writes a directory whose perf.data is DIR/data. */
		snprintf(why, sizeof(why), "%s/data", hb->perf_data);
		if (S_ISDIR(in.st_mode) && !stat(why, &in) && same_file(&in, st))
			return "the input perf.data";
	}
	if (!fstat(STDIN_FILENO, &in) && S_ISREG(in.st_mode) && same_file(&in, st))
		return "perf's standard input";
	for (size_t i = 0; i < hb->dumps.nr; i++) {
		if (!fstat(hb->dumps.files[i].jd->fd, &in) && same_file(&in, st)) {
			snprintf(why, sizeof(why), "the jitdump %s", hb->dumps.files[i].jd->path);
			return why;
		}
	}
	return NULL;
}

/*
 * out=FILE is opened before any sample is read, so that a missing directory
 * or a forbidden path fails the run at once, and it is never truncated here:
 * a file that is one of the inputs (through any symlink or hard link) is
 * refused, and the rest is cut to length only when the stream is written.
 */
static void open_output(struct hb *hb)
{
	const char *why;
	struct stat st;
	int fd;

	hb->out_fd = -1;
	if (!hb->out_path)
		return;
	if (!stat(hb->out_path, &st) && (why = input_named(hb, &st))) {
		fprintf(stderr, "hotblocks: error: out=%s is %s; refusing to overwrite it\n",
			hb->out_path, why);
		end_run(EXIT_OUTPUT);
	}
	fd = open(hb->out_path, O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY, 0666);
	if (fd < 0 || fstat(fd, &st) < 0) {
		fprintf(stderr, "hotblocks: error: cannot write %s: %s\n", hb->out_path, strerror(errno));
		end_run(EXIT_OUTPUT);
	}
	/* Created meanwhile as a link to an input: still refused. */
	if ((why = input_named(hb, &st))) {
		fprintf(stderr, "hotblocks: error: out=%s is %s; refusing to overwrite it\n",
			hb->out_path, why);
		end_run(EXIT_OUTPUT);
	}
	hb->out_fd = fd;
}

HB_EXPORT int start(void **data, void *ctx)
{
	struct hb *hb = calloc(1, sizeof(*hb));
	char **jitdumps = NULL, *jitdir = NULL, *input = NULL;
	size_t jitdumps_nr = 0;
	int ret = -ENOMEM;

	*data = hb;
	if (!hb)
		return -ENOMEM;
	hb->out_fd = -1;
	if (dumps__init(&hb->dumps, warn, hb) < 0 || counts__init(&hb->counts, MAX_COUNT_SLOTS) < 0)
		goto out;
	natives__init(&hb->natives);
	ret = parse_args(hb, ctx, &jitdumps, &jitdumps_nr, &jitdir);
	if (ret < 0)
		goto out;

	scan_perf_cmdline(hb, &input);
	if (!hb->perf_data)
		hb->perf_data = input ? input : strdup(stdin_is_pipe() ? "-" : "perf.data");
	else
		free(input);
	if (!hb->perf_data) {
		ret = -ENOMEM;
		goto out;
	}
	hb->live = !strcmp(hb->perf_data, "-");
	hb->progress = isatty(STDERR_FILENO);
	find_dumps(hb, jitdumps, jitdumps_nr, jitdir);
	open_output(hb);
	ret = 0;
out:
	free(jitdumps);
	/* On failure perf still calls stop(), which frees hb. */
	return ret;
}

/* --- per sample ----------------------------------------------------------- */

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static void check_clock(struct hb *hb, struct event *e, void *ctx)
{
	struct perf_event_attr *attr = perf_dlfilter_fns.attr ? perf_dlfilter_fns.attr(ctx) : NULL;

	e->time_aware = attr && attr->use_clockid && attr->clockid == CLOCK_MONOTONIC &&
			(attr->sample_type & PERF_SAMPLE_TIME);
}

/* Said once, when the first JIT sample shows that time would have mattered. */
static void warn_not_time_aware(struct hb *hb, struct event *e)
{
	if (e->time_aware || e->clock_warned)
		return;
	e->clock_warned = true;
	warn(hb, "event %s was not recorded with `perf record -k mono`: JIT samples are matched to the "
		 "newest code load covering them, not by time (address reuse can misattribute)", e->name);
}

static uint32_t event_id(struct hb *hb, const char *name, void *ctx)
{
	if (name && name == hb->last_event_ptr)
		return hb->last_event;
	if (!name)
		name = "unknown";
	for (size_t i = 0; i < hb->events_nr; i++) {
		if (hb->events[i].seen_ptr == name || !strcmp(hb->events[i].name, name)) {
			hb->events[i].seen_ptr = name;
			hb->last_event_ptr = name;
			return hb->last_event = (uint32_t)i;
		}
	}
	if (hb->events_nr == MAX_EVENTS) {
		warn(hb, "more than %d events: the rest are counted as %s", MAX_EVENTS,
		     hb->events[MAX_EVENTS - 1].name);
		return MAX_EVENTS - 1;
	}
	struct event *e = &hb->events[hb->events_nr];

	e->name = strdup(name);
	if (!e->name)
		return hb->events_nr ? (uint32_t)hb->events_nr - 1 : 0;
	e->seen_ptr = name;
	check_clock(hb, e, ctx);
	hb->last_event_ptr = name;
	return hb->last_event = (uint32_t)hb->events_nr++;
}

#define PROGRESS_EVERY (1u << 18)

static void account(struct hb *hb, uint32_t ev, enum hb_sample_class c, uint64_t period)
{
	hb->totals[ev][c][0]++;
	hb->totals[ev][c][1] += period;
	if (c == HB_CLASS_ALL && hb->progress && !(++hb->seen % PROGRESS_EVERY)) {
		fprintf(stderr, "\rhotblocks.so: %" PRIu64 " samples...", hb->seen);
		hb->progress_shown = true;
	}
}

static void add_count(struct hb *hb, uint32_t obj, uint32_t ev, uint64_t off, uint64_t period,
		      enum hb_sample_class c)
{
	if (counts__add(&hb->counts, obj, ev, off, period) < 0) {
		if (!hb->table_full_warned)
			warn(hb, "sample table full (%u distinct offsets); further new offsets are counted as %s",
			     MAX_COUNT_SLOTS / 2, "unattributed.table-full");
		hb->table_full_warned = true;
		c = HB_CLASS_TABLE_FULL;
	}
	account(hb, ev, c, period);
}

static void hold_back(struct hb *hb, uint32_t pid, uint64_t ip, uint64_t time, uint32_t ev,
		      uint64_t period, enum hb_sample_class if_full)
{
	if (hb->pending_nr == hb->pending_alloc) {
		size_t alloc = hb->pending_alloc ? hb->pending_alloc * 2 : 4096;
		struct pending *p = alloc <= MAX_PENDING ? reallocarray(hb->pending, alloc, sizeof(*p)) : NULL;

		if (!p) {
			if (!hb->pending_full_warned)
				warn(hb, "too many samples waiting for jitdump records; the rest are counted as unattributed");
			hb->pending_full_warned = true;
			account(hb, ev, if_full, period);
			return;
		}
		hb->pending = p;
		hb->pending_alloc = alloc;
	}
	hb->pending[hb->pending_nr++] = (struct pending){ ip, time, period, pid, ev };
}

/* Look the sample up in the jitdumps; re-read them (rate-limited) on a miss. */
static enum codemap_result jit_lookup(struct hb *hb, uint32_t pid, uint64_t ip, uint64_t time,
				      uint32_t ev, size_t *id)
{
	bool time_aware = hb->events[ev].time_aware;
	enum codemap_result r = codemap__lookup(hb->dumps.map, pid, ip, time, time_aware, id);

	if (r != CODEMAP_HIT && hb->dumps.nr) {
		uint64_t now = now_ns();

		if (now - hb->last_refresh_ns >= REFRESH_INTERVAL_NS) {
			hb->last_refresh_ns = now;
			if (dumps__refresh(&hb->dumps))
				r = codemap__lookup(hb->dumps.map, pid, ip, time, time_aware, id);
		}
	}
	return r;
}

static bool is_kernel_mode(uint8_t cpumode)
{
	return cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL ||
	       cpumode == PERF_RECORD_MISC_HYPERVISOR;
}

/* Kernel and JIT samples need no help from perf. Returns true when handled. */
static bool classify_fast(struct hb *hb, const struct perf_dlfilter_sample *s, uint32_t ev)
{
	uint32_t pid = (uint32_t)s->pid;
	size_t id;

	if (is_kernel_mode(s->cpumode)) {
		account(hb, ev, HB_CLASS_KERNEL, s->period);
		return true;
	}
	dumps__try_pid(&hb->dumps, pid);
	enum codemap_result res = jit_lookup(hb, pid, s->ip, s->time, ev, &id);

	if (res != CODEMAP_MISS)
		warn_not_time_aware(hb, &hb->events[ev]);
	switch (res) {
	case CODEMAP_HIT:
		add_count(hb, (uint32_t)id, ev, s->ip - codemap__entry(hb->dumps.map, id)->start,
			  s->period, HB_CLASS_JIT);
		return true;
	case CODEMAP_BEFORE_LOAD:
		if (hb->live)
			hold_back(hb, pid, s->ip, s->time, ev, s->period, HB_CLASS_BEFORE_LOAD);
		else
			account(hb, ev, HB_CLASS_BEFORE_LOAD, s->period);
		return true;
	case CODEMAP_MISS:
		break;
	}
	if (hb->jit_only) {
		account(hb, ev, HB_CLASS_NOT_RESOLVED, s->period);
		return true;
	}
	return false;
}

/* Memory perf knows no file for: where JITs put their code. */
static bool jit_looking(const char *dso)
{
	size_t n = strlen(dso);

	return !strncmp(dso, "//anon", 6) || !strncmp(dso, "[anon", 5) ||
	       !strncmp(dso, "/memfd:", 7) ||
	       (!strncmp(dso, "/tmp/perf-", 10) && n > 4 && !strcmp(dso + n - 4, ".map"));
}

static void read_native_code(struct hb *hb, struct native_obj *o, void *ctx)
{
	uint32_t want = o->size < MAX_NATIVE_CODE ? (uint32_t)o->size : MAX_NATIVE_CODE;
	int32_t got;

	if (!want || !perf_dlfilter_fns.object_code)
		return;
	if (!hb->code_buf && !(hb->code_buf = malloc(MAX_NATIVE_CODE)))
		return;
	got = perf_dlfilter_fns.object_code(ctx, o->addr, hb->code_buf, want);
	if (got <= 0)
		return;
	o->code = malloc((size_t)got);
	if (!o->code)
		return;
	memcpy(o->code, hb->code_buf, (size_t)got);
	o->code_len = (size_t)got;
}

/* Everything else goes through perf's symbol resolution. */
static void classify_native(struct hb *hb, const struct perf_dlfilter_sample *s, uint32_t ev, void *ctx)
{
	const struct perf_dlfilter_al *al = perf_dlfilter_fns.resolve_ip ? perf_dlfilter_fns.resolve_ip(ctx) : NULL;
	bool created;
	long id;

	if (!al || !al->dso) {
		account(hb, ev, HB_CLASS_NO_MAP, s->period);
		return;
	}
	if (al->is_kernel_ip) {
		account(hb, ev, HB_CLASS_KERNEL, s->period);
		return;
	}
	if (jit_looking(al->dso)) {
		if (hb->live)
			hold_back(hb, (uint32_t)s->pid, s->ip, s->time, ev, s->period, HB_CLASS_JIT_NO_LOAD);
		else
			account(hb, ev, HB_CLASS_JIT_NO_LOAD, s->period);
		return;
	}
	if (!al->sym) {
		account(hb, ev, HB_CLASS_NO_SYMBOL, s->period);
		return;
	}
	struct native_cache_slot *slot =
		&hb->native_cache[(((uintptr_t)al->sym >> 4) ^ al->sym_start) % NATIVE_CACHE_SLOTS];

	if (slot->sym == al->sym && slot->dso == al->dso && slot->sym_start == al->sym_start) {
		add_count(hb, NATIVE_ID_BIT | (uint32_t)slot->id, ev, al->symoff, s->period, HB_CLASS_NATIVE);
		return;
	}
	id = natives__get(&hb->natives, al->dso, al->sym, al->sym_start, &created);
	if (id < 0) {
		account(hb, ev, HB_CLASS_TABLE_FULL, s->period);
		return;
	}
	*slot = (struct native_cache_slot){ al->dso, al->sym, al->sym_start, id };
	if (created) {
		struct native_obj *o = &hb->natives.objs[id];

		o->addr = s->ip - al->symoff;
		o->size = al->sym_end > al->sym_start ? al->sym_end - al->sym_start : 0;
		o->pid = (uint32_t)s->pid;
		read_native_code(hb, o, ctx);
	}
	add_count(hb, NATIVE_ID_BIT | (uint32_t)id, ev, al->symoff, s->period, HB_CLASS_NATIVE);
}

HB_EXPORT int filter_event_early(void *data, const struct perf_dlfilter_sample *sample, void *ctx)
{
	struct hb *hb = data;

	if (!hb || hb->defer)
		return 0;
	uint32_t ev = event_id(hb, sample->event, ctx);

	account(hb, ev, HB_CLASS_ALL, sample->period);
	/* Returning 0 asks perf to resolve symbols and call filter_event. */
	return classify_fast(hb, sample, ev) ? 1 : 0;
}

HB_EXPORT int filter_event(void *data, const struct perf_dlfilter_sample *sample, void *ctx)
{
	struct hb *hb = data;

	if (!hb)
		return 1;
	uint32_t ev = event_id(hb, sample->event, ctx);

	if (hb->defer) {
		/* perf has applied its own filters: this sample is one the user asked for. */
		account(hb, ev, HB_CLASS_ALL, sample->period);
		if (classify_fast(hb, sample, ev))
			return 1;
	}
	classify_native(hb, sample, ev, ctx);
	return 1;
}

/* --- stop ----------------------------------------------------------------- */

/* Samples held back in live mode: the dumps are as complete as they will get. */
static void resolve_pending(struct hb *hb)
{
	for (size_t i = 0; i < hb->pending_nr; i++) {
		const struct pending *p = &hb->pending[i];
		size_t id;

		switch (codemap__lookup(hb->dumps.map, p->pid, p->ip, p->time,
					hb->events[p->ev].time_aware, &id)) {
		case CODEMAP_HIT:
			add_count(hb, (uint32_t)id, p->ev, p->ip - codemap__entry(hb->dumps.map, id)->start,
				  p->period, HB_CLASS_JIT);
			break;
		case CODEMAP_BEFORE_LOAD:
			account(hb, p->ev, HB_CLASS_BEFORE_LOAD, p->period);
			break;
		case CODEMAP_MISS:
			account(hb, p->ev, HB_CLASS_JIT_NO_LOAD, p->period);
			break;
		}
	}
	hb->pending_nr = 0;
}

static void explain_unresolved(struct hb *hb)
{
	uint64_t no_load = 0, before = 0, jit = 0;

	for (size_t e = 0; e < hb->events_nr; e++) {
		no_load += hb->totals[e][HB_CLASS_JIT_NO_LOAD][0];
		before += hb->totals[e][HB_CLASS_BEFORE_LOAD][0];
		jit += hb->totals[e][HB_CLASS_JIT][0];
	}
	/* A few strays (a stub perf did not see either) are worth a line; a
	 * missing or unreadable jitdump (>= 1% unresolved) is worth the full hint. */
	if (no_load && no_load * 100 < jit) {
		warn(hb, "%" PRIu64 " sample%s in JIT-looking memory matched no jitdump code load"
		     " (%zu jitdump%s read: code its JIT did not log, e.g. a stub)",
		     no_load, no_load == 1 ? "" : "s", hb->dumps.nr, hb->dumps.nr == 1 ? "" : "s");
	} else if (no_load) {
		fprintf(stderr,
			"hotblocks: warning: %" PRIu64 " sample%s in JIT-looking memory matched no jitdump code load.\n"
			"  perf.data scanned for jitdump markers: %s\n"
			"  jitdumps read: %zu; searched:\n%s"
			"  fix: run the JIT with its jitdump enabled (node --perf-prof, wasmtime --profile=jitdump),\n"
			"  keep jit-<pid>.dump next to perf.data, or pass --dlarg jitdump=FILE / --dlarg jitdir=DIR\n",
			no_load, no_load == 1 ? "" : "s", hb->live ? "(none: pipe input)" : hb->perf_data, hb->dumps.nr,
			hb->dumps.searched_len ? hb->dumps.searched : "  (nothing)\n");
	}
	if (before)
		warn(hb, "%" PRIu64 " sample%s hit JIT code before its load record's time (counted as unattributed.before-load)",
		     before, before == 1 ? "" : "s");
}

static const char *dump_status(const struct dump_file *f)
{
	if (f->failed)
		return "corrupt";
	if (f->jd->parsed_off < f->jd->header_size)
		return "header-past-end";
	return jitdump__tail_bytes(f->jd) ? "truncated" : "ok";
}

static int write_stream(struct hb *hb)
{
	size_t counts_nr = 0, objs_nr = 0, objs_alloc = 0;
	struct count_entry *counts = counts__sorted(&hb->counts, &counts_nr);
	struct stream_writer_object *objs = NULL;
	struct stream_writer_jitdump *jds = calloc(hb->dumps.nr + 1, sizeof(*jds));
	const char *events[MAX_EVENTS];
	FILE *f = stdout;
	int ret = -ENOMEM;

	if ((!counts && counts_nr) || !jds)
		goto out;
	/* One object per distinct id in the (sorted) counts. */
	for (size_t i = 0; i < counts_nr; i++)
		if (i == 0 || counts[i].obj != counts[i - 1].obj)
			objs_alloc++;
	objs = calloc(objs_alloc + 1, sizeof(*objs));
	if (!objs)
		goto out;
	for (size_t i = 0; i < counts_nr; i++) {
		if (i && counts[i].obj == counts[i - 1].obj)
			continue;
		struct stream_writer_object *so = &objs[objs_nr++];
		uint32_t id = counts[i].obj;

		so->id = id;
		if (id & NATIVE_ID_BIT) {
			const struct native_obj *o = &hb->natives.objs[id & ~NATIVE_ID_BIT];

			*so = (struct stream_writer_object){
				.kind = o->cwasm ? HB_KIND_CWASM : HB_KIND_NATIVE, .id = id, .pid = o->pid,
				.e_machine = o->e_machine, .addr = o->addr, .size = o->size, .name = o->name,
				.code = o->code, .code_len = o->code_len, .dso = o->dso, .sym_start = o->sym_start,
			};
		} else {
			const struct dump_file *df;
			const struct jitdump_load *l = dumps__load(&hb->dumps, id, &df);

			if (!l)
				continue;
			*so = (struct stream_writer_object){
				.kind = HB_KIND_JIT, .id = id, .pid = df->pid, .e_machine = (uint16_t)df->jd->elf_mach,
				.addr = l->code_addr, .size = l->code_size, .name = l->name, .code = l->code,
				.code_len = l->code_size, .code_index = l->code_index, .load_time = l->timestamp,
				.dump = df->jd->path, .debug = l->debug, .debug_nr = l->debug_nr,
			};
		}
	}
	for (size_t i = 0; i < hb->dumps.nr; i++) {
		const struct dump_file *df = &hb->dumps.files[i];

		jds[i] = (struct stream_writer_jitdump){ .path = df->jd->path, .pid = df->pid, .loads = df->jd->nr,
						  .status = dump_status(df) };
	}
	for (size_t e = 0; e < hb->events_nr; e++)
		events[e] = hb->events[e].name;

	bool time_aware = hb->events_nr > 0;

	for (size_t e = 0; e < hb->events_nr; e++)
		time_aware &= hb->events[e].time_aware;

	struct stream_writer_header h = {
		.producer = PRODUCER, .input = hb->perf_data, .time_aware = time_aware,
		.events = events, .events_nr = hb->events_nr,
		.totals = (const uint64_t(*)[HB_CLASS__NR][2])hb->totals,
		.jitdumps = jds, .jitdumps_nr = hb->dumps.nr,
		.warnings = (const char *const *)hb->warnings, .warnings_nr = hb->warnings_nr,
	};

	if (hb->out_fd >= 0) {
		struct stat st;

		/* A longer old file must not keep a tail of its own. */
		if ((!fstat(hb->out_fd, &st) && S_ISREG(st.st_mode) && ftruncate(hb->out_fd, 0) < 0) ||
		    !(f = fdopen(hb->out_fd, "w"))) {
			fprintf(stderr, "hotblocks: error: cannot write %s: %s\n", hb->out_path, strerror(errno));
			ret = -errno;
			goto out;
		}
		hb->out_fd = -1;	/* f owns it now */
	}
	ret = stream_writer__write(f, &h, objs, objs_nr, counts, counts_nr);
	if (!ret && fflush(f))
		ret = -EIO;
	if (ret < 0)
		fprintf(stderr, "hotblocks: error: writing the stream to %s failed: %s\n",
			hb->out_path ? hb->out_path : "standard output",
			ret == -ENOMEM ? "out of memory" : strerror(errno));
	if (f != stdout && fclose(f) && !ret) {
		fprintf(stderr, "hotblocks: error: writing %s failed: %s\n", hb->out_path, strerror(errno));
		ret = -EIO;
	}
out:
	free(counts);
	free(objs);
	free(jds);
	return ret;
}

static void hb_free(struct hb *hb)
{
	dumps__release(&hb->dumps);
	natives__release(&hb->natives);
	counts__release(&hb->counts);
	for (size_t i = 0; i < hb->events_nr; i++)
		free(hb->events[i].name);
	for (size_t i = 0; i < hb->warnings_nr; i++)
		free(hb->warnings[i]);
	free(hb->pending);
	free(hb->code_buf);
	if (hb->out_fd >= 0)
		close(hb->out_fd);
	free(hb->out_path);
	free(hb->perf_data);
	free(hb);
}

HB_EXPORT int stop(void *data, void *ctx)
{
	struct hb *hb = data;

	if (!hb)
		return 0;
	/* start() failed (bad --dlarg): perf still calls stop; there is nothing to report. */
	if (!hb->dumps.map || !hb->counts.slots || !hb->perf_data) {
		hb_free(hb);
		return 0;
	}
	if (hb->progress_shown)
		fputs("\r\033[K", stderr);	/* clear the progress line */
	dumps__refresh(&hb->dumps);
	resolve_pending(hb);
	for (size_t i = 0; i < hb->dumps.nr; i++) {
		const struct dump_file *df = &hb->dumps.files[i];
		uint64_t tail = jitdump__tail_bytes(df->jd);

		/* A header whose total_size runs past the file's end is no truncated record. */
		if (df->jd->parsed_off < df->jd->header_size && !df->failed)
			warn(hb, "%s+0x8: header total_size %" PRIu64 " runs past the end of the file (%" PRIu64
			     " bytes): no record was read", df->jd->path, df->jd->header_size, df->jd->file_size);
		/* A corrupt record was already reported; what follows it is not a truncation. */
		else if (tail && !df->failed)
			warn(hb, "%s+0x%" PRIx64 ": last record is incomplete (%" PRIu64 " bytes); the dump was truncated",
			     df->jd->path, df->jd->parsed_off, tail);
		if (df->jd->unknown_records)
			warn(hb, "%s: skipped %zu records of unknown type", df->jd->path, df->jd->unknown_records);
		if (df->jd->orphan_moves)
			warn(hb, "%s: skipped %zu CODE_MOVE records naming a code_index never loaded",
			     df->jd->path, df->jd->orphan_moves);
	}
	explain_unresolved(hb);
	int ret = write_stream(hb);

	hb_free(hb);
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

/* SPDX-License-Identifier: MIT */
/* hotblocks: read annotated streams, rank the hottest blocks of JIT code, print them. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/stat.h>

#include "annotate.h"
#include "rank.h"
#include "render.h"
#include "stream.h"

/* Exit codes (also in usage_text). */
enum {
	EXIT_OK = 0,
	EXIT_INPUT = 1,		/* bad or unreadable input, unwritable output */
	EXIT_USAGE = 2,		/* bad command line */
};

static const char usage_text[] =
	"usage: hotblocks [options] [STREAM...]\n"
	"\n"
	"Read hotblocks annotated streams (written by `perf script --dlfilter hotblocks.so`)\n"
	"from the files given, or from standard input when there is none or for '-', merge\n"
	"them, and print the hottest basic blocks of the sampled code.\n"
	"\n"
	"  -p, --percent P     print the hottest blocks until they cover P% of all samples\n"
	"                      (0..100, default 50; the block that crosses P is printed)\n"
	"      --top N         print at most N blocks\n"
	"      --function NAME only blocks of code objects called NAME, else whose names\n"
	"                      match NAME as a glob, else contain it (e.g. 'work')\n"
	"  -e, --event NAME    rank samples of event NAME (default: the first event)\n"
	"      --all           no --percent threshold; with --json, every sampled function\n"
	"                      with all its blocks and instructions\n"
	"      --json          one JSON document (schema: postproc/JSON.md)\n"
	"      --color[=WHEN]  colour the sample cells: auto (default: when stdout is a\n"
	"                      terminal and NO_COLOR is unset), always, never\n"
	"      --cwasm FILE    wasmtime's compiled module: map samples to wasm functions\n"
	"                      and instructions to wasm offsets (its address map)\n"
	"      --clif DIR      its --emit-clif directory: the [CLIF] column\n"
	"      --wasm FILE     the original .wasm: the [Wasm] column, names, and the\n"
	"                      [Source] column when it has DWARF\n"
	"      --no-source     no [Source] column\n"
	"      --source-lines  print each source line (when its file is readable) above\n"
	"                      the first instruction of a run that it produced\n"
	"  -o, --output FILE   write the report to FILE instead of standard output\n"
	"  -h, --help          show this help and exit\n"
	"\n"
	"Exit status: 0 success, 1 bad input (or an I/O error), 2 bad command line.\n";

/* Print "hotblocks: error: ..." and return -1 (git's error()): callers unwind, then exit 1. */
static int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static int error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("hotblocks: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

static void usage_error(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));

static void usage_error(const char *fmt, ...)
{
	va_list ap;

	fputs("hotblocks: error: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'hotblocks --help' for more information.\n", stderr);
	exit(EXIT_USAGE);
}

static void note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void note(const char *fmt, ...)
{
	va_list ap;

	fputs("hotblocks: note: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

enum color_mode { COLOR_AUTO, COLOR_ALWAYS, COLOR_NEVER };

struct options {
	struct rank_opts rank;
	const char *event;
	const char *output;
	bool json;
	bool all;
	enum color_mode color;
	struct annot_inputs annot;
	bool source_lines;
};

enum {
	OPT_TOP = 256,
	OPT_FUNCTION,
	OPT_JSON,
	OPT_ALL,
	OPT_COLOR,
	OPT_CWASM,
	OPT_CLIF,
	OPT_WASM,
	OPT_NO_SOURCE,
	OPT_SOURCE_LINES,
};

static const struct option long_options[] = {
	{ "percent", required_argument, NULL, 'p' },
	{ "event", required_argument, NULL, 'e' },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ "top", required_argument, NULL, OPT_TOP },
	{ "function", required_argument, NULL, OPT_FUNCTION },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "color", optional_argument, NULL, OPT_COLOR },
	{ "colour", optional_argument, NULL, OPT_COLOR },
	{ "cwasm", required_argument, NULL, OPT_CWASM },
	{ "clif", required_argument, NULL, OPT_CLIF },
	{ "wasm", required_argument, NULL, OPT_WASM },
	{ "no-source", no_argument, NULL, OPT_NO_SOURCE },
	{ "source-lines", no_argument, NULL, OPT_SOURCE_LINES },
	{ NULL, 0, NULL, 0 },
};

static const struct {
	const char *name;
	enum color_mode mode;
} color_modes[] = {
	{ "auto", COLOR_AUTO },
	{ "always", COLOR_ALWAYS },
	{ "never", COLOR_NEVER },
};

static double parse_percent(const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	/* !(v >= 0) also refuses NaN. */
	if (!*arg || *end || errno || !(v >= 0.0) || v > 100.0)
		usage_error("--percent must be a number between 0 and 100 inclusive, not '%s'",
			    arg);
	return v;
}

static size_t parse_count(const char *opt, const char *arg)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (*arg < '0' || *arg > '9' || *end || errno || v >= SIZE_MAX)
		usage_error("%s needs a non-negative integer, not '%s'", opt, arg);
	return (size_t)v;
}

#define SHORT_OPTIONS ":p:e:o:h"

/*
 * getopt_long's '?'. optopt is 0 for an unknown long option, the letter of an
 * unknown short one, and the val of a known long option given "=value" it does
 * not take (a letter of SHORT_OPTIONS for --help, else >= OPT_TOP).
 */
static void __attribute__((noreturn)) bad_option(const char *arg, int opt)
{
	const struct option *lo;

	if (!opt)
		usage_error("unknown option '%s'", arg);
	if (opt < OPT_TOP && !strchr(SHORT_OPTIONS, opt))
		usage_error("unknown option '-%c'", opt);
	for (lo = long_options; lo->name; lo++)
		if (lo->val == opt && lo->has_arg == no_argument)
			usage_error("option '--%s' takes no argument", lo->name);
	usage_error("bad option '%s'", arg);
}

static void parse_options(int argc, char **argv, struct options *o)
{
	int c;
	size_t i;

	o->rank.percent = 50.0;
	o->rank.top = SIZE_MAX;
	o->color = COLOR_AUTO;
	opterr = 0;	/* our own messages, without argv[0] */
	while ((c = getopt_long(argc, argv, SHORT_OPTIONS, long_options, NULL)) != -1) {
		switch (c) {
		case 'p':
			o->rank.percent = parse_percent(optarg);
			break;
		case 'e':
			o->event = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'h':
			fputs(usage_text, stdout);
			exit(fflush(stdout) || ferror(stdout) ? EXIT_INPUT : EXIT_OK);
		case OPT_TOP:
			o->rank.top = parse_count("--top", optarg);
			break;
		case OPT_FUNCTION:
			o->rank.function = optarg;
			break;
		case OPT_JSON:
			o->json = true;
			break;
		case OPT_ALL:
			o->all = true;
			o->rank.no_threshold = true;
			break;
		case OPT_COLOR:
			if (!optarg) {
				o->color = COLOR_ALWAYS;
				break;
			}
			for (i = 0; i < ARRAY_SIZE(color_modes); i++)
				if (!strcmp(optarg, color_modes[i].name))
					break;
			if (i == ARRAY_SIZE(color_modes))
				usage_error("--color takes auto, always or never, not '%s'", optarg);
			o->color = color_modes[i].mode;
			break;
		case OPT_CWASM:
			o->annot.cwasm = optarg;
			break;
		case OPT_CLIF:
			o->annot.clif_dir = optarg;
			break;
		case OPT_WASM:
			o->annot.wasm = optarg;
			break;
		case OPT_NO_SOURCE:
			o->annot.no_source = true;
			break;
		case OPT_SOURCE_LINES:
			o->source_lines = true;
			break;
		case ':':
			usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			bad_option(argv[optind - 1], optopt);
		}
	}
}

/*
 * What a file that failed to read as a stream is instead, judged by its first
 * bytes, for a message that says what to do: the usual slip is to give
 * hotblocks the recording itself.
 */
static const char *other_format(FILE *f, const char *path, char *buf, size_t len)
{
	unsigned char m[8];
	struct stat st;

	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode) || fseek(f, 0, SEEK_SET) ||
	    fread(m, 1, sizeof(m), f) != sizeof(m))
		return NULL;
	if (!memcmp(m, "PERFILE2", 8) || !memcmp(m, "2ELIFREP", 8) || !memcmp(m, "PERFFILE", 8))
		snprintf(buf, len, "%s is a perf.data recording, not a hotblocks stream: make the stream"
			 " with perf script -i %s --dlfilter hotblocks.so | hotblocks (or run perf"
			 " hotblocks report -i %s)", path, path, path);
	else if (!memcmp(m, "DTiJ", 4) || !memcmp(m, "JiTD", 4))
		snprintf(buf, len, "%s is a jitdump, not a hotblocks stream: the plugin reads it;"
			 " run perf script -i perf.data --dlfilter hotblocks.so | hotblocks", path);
	else if (!memcmp(m, "\177ELF", 4))
		snprintf(buf, len, "%s is an ELF file, not a hotblocks stream (a wasmtime .cwasm goes"
			 " with --cwasm; streams come from perf script --dlfilter hotblocks.so)", path);
	else if (!memcmp(m, "\0asm", 4))
		snprintf(buf, len, "%s is a WebAssembly module, not a hotblocks stream (it goes with"
			 " --wasm; streams come from perf script --dlfilter hotblocks.so)", path);
	else
		return NULL;
	return buf;
}

/* Standard input's name in messages. */
#define STDIN_NAME "<stdin>"

static int read_input(struct stream *s, const char *path)
{
	bool is_stdin = !strcmp(path, "-");
	const char *name = is_stdin ? STDIN_NAME : path;
	FILE *f = is_stdin ? stdin : fopen(path, "r");
	char err[1024];
	int ret;

	if (!f)
		return error("%s: %s", path, strerror(errno));
	ret = stream__read(s, f, name, err, sizeof(err));
	if (ret && ret != -ENOMEM && !is_stdin)
		other_format(f, path, err, sizeof(err));
	else if (ret && ret != -ENOMEM && !strncmp(err, "<stdin>:1: ", 11))
		/* Not a stream from its first line: perf script without the plugin? */
		snprintf(err + strlen(err), sizeof(err) - strlen(err),
			 "; hotblocks reads what perf script --dlfilter hotblocks.so writes");
	if (!is_stdin)
		fclose(f);
	if (ret == -ENOMEM)
		return error("out of memory reading %s", name);
	if (ret)
		return error("%s", err);
	return 0;
}

static bool use_color(const struct options *o, FILE *out)
{
	const char *no_color = getenv("NO_COLOR");

	if (o->json || o->color == COLOR_NEVER)
		return false;
	if (o->color == COLOR_ALWAYS)
		return true;
	/* https://no-color.org: set and not empty disables colour by default. */
	return out == stdout && isatty(STDOUT_FILENO) && !(no_color && *no_color);
}

/* The name --function should show for an object: its display name, else its name. */
static const char *shown_name(const struct rank *r, const struct options *o, size_t obj)
{
	const char *alt = o->rank.alt_name ? o->rank.alt_name(o->rank.alt_arg, obj) : NULL;

	return alt ? alt : r->stream->objects[obj].name;
}

/*
 * Say how --function selected, and when it selected nothing, the sampled names
 * nearest to it (name_distance), else the hottest: the full names of JIT code
 * are long and differ between JIT versions.
 */
static void report_function_match(const struct rank *r, const struct options *o)
{
	enum { SUGGEST = 5 };
	const char *pat = o->rank.function;
	size_t best[SUGGEST], dist[SUGGEST], nbest = 0, selected = 0;

	for (size_t i = 0; i < r->funcs_nr; i++)
		selected += r->funcs[i].selected;
	if (r->function_match == NAME_MATCH_GLOB || r->function_match == NAME_MATCH_SUBSTRING) {
		note("--function '%s' is no exact name: %zu sampled code object%s %s", pat, selected,
		     plural(selected), r->function_match == NAME_MATCH_GLOB ? "the glob matches" :
		     selected == 1 ? "whose name contains it" : "whose names contain it");
		return;
	}
	if (r->function_match != NAME_MATCH_NONE)
		return;
	for (size_t i = 0; i < r->funcs_nr; i++) {
		size_t obj = r->funcs[i].obj, d = name_distance(pat, r->stream->objects[obj].name);
		const char *alt = o->rank.alt_name ? o->rank.alt_name(o->rank.alt_arg, obj) : NULL;
		size_t k;

		if (alt) {
			size_t da = name_distance(pat, alt);

			d = da < d ? da : d;
		}
		if (d == NAME_FAR)
			continue;
		/* Insert by distance, then samples, keeping the SUGGEST best. */
		for (k = nbest; k > 0; k--) {
			const struct rank_func *b = &r->funcs[best[k - 1]];

			if (dist[k - 1] < d || (dist[k - 1] == d && b->samples >= r->funcs[i].samples))
				break;
			if (k < SUGGEST) {
				best[k] = best[k - 1];
				dist[k] = dist[k - 1];
			}
		}
		if (k < SUGGEST) {
			best[k] = i;
			dist[k] = d;
			if (nbest < SUGGEST)
				nbest++;
		}
	}
	if (nbest) {
		note("no sampled code object matches '%s' (as a name, a glob or a substring); the nearest:",
		     pat);
	} else {
		/* Nothing close: the hottest names show what names look like here. */
		for (size_t i = 0; i < r->funcs_nr; i++) {
			size_t k;

			for (k = nbest; k > 0 && r->funcs[best[k - 1]].samples < r->funcs[i].samples; k--)
				if (k < SUGGEST)
					best[k] = best[k - 1];
			if (k < SUGGEST) {
				best[k] = i;
				if (nbest < SUGGEST)
					nbest++;
			}
		}
		note("no sampled code object matches '%s' (as a name, a glob or a substring)%s", pat,
		     nbest ? "; the hottest are:" : "");
	}
	for (size_t k = 0; k < nbest; k++)
		note("  '%s' (%" PRIu64 " sample%s)", shown_name(r, o, r->funcs[best[k]].obj),
		     r->funcs[best[k]].samples, plural(r->funcs[best[k]].samples));
}

struct display_arg {
	struct annotator *annot;
	const struct stream *s;
};

static const char *display_name(void *arg, size_t obj)
{
	const struct display_arg *d = arg;

	return annotator__func(d->annot, d->s, obj)->display;
}

/* "name (n), name (n) and K more": the objects with the most samples lost, by which. */
static void lossy_functions(const struct rank *r, bool unaligned, struct display_arg *disp,
			    char *buf, size_t len)
{
	enum { SHOW = 3 };
	size_t top[SHOW], shown = 0, more = 0, at = 0;

#define LOST(i) (unaligned ? r->funcs[i].unaligned : r->funcs[i].outside)
	for (size_t i = 0; i < r->funcs_nr; i++) {
		size_t k;

		if (!LOST(i))
			continue;
		if (shown == SHOW && LOST(top[SHOW - 1]) >= LOST(i)) {
			more++;
			continue;
		}
		if (shown == SHOW)
			more++;
		else
			shown++;
		for (k = shown - 1; k && LOST(top[k - 1]) < LOST(i); k--)
			top[k] = top[k - 1];
		top[k] = i;
	}
	buf[0] = '\0';
	for (size_t k = 0; k < shown && at < len; k++) {
		const char *name = display_name(disp, r->funcs[top[k]].obj);

		at += (size_t)snprintf(buf + at, len - at, "%s", k ? ", " : "");
		/* names come from the profiled program: no control byte reaches the terminal */
		for (; *name && at < len; name++) {
			unsigned char c = (unsigned char)*name;

			if (c < 0x20 || c == 0x7f)
				at += (size_t)snprintf(buf + at, len - at, "\\x%02x", c);
			else
				buf[at++] = (char)c;
		}
		if (at < len)
			at += (size_t)snprintf(buf + at, len - at, " (%" PRIu64 ")", LOST(top[k]));
	}
	if (at >= len)
		at = len - 1;
	buf[at] = '\0';
	if (more && at < len)
		snprintf(buf + at, len - at, " and %zu more", more);
#undef LOST
}

/*
 * The plugin's warnings, carried by the stream: a report of a saved stream
 * must still tell them. Not for a stream piped in (perf script | hotblocks):
 * the plugin has just printed them on the same terminal.
 */
static void report_plugin_warnings(const struct stream *s)
{
	struct stat st;
	bool piped = !fstat(STDIN_FILENO, &st) && S_ISFIFO(st.st_mode);
	uint64_t shown = 0;

	for (size_t i = 0; i < s->warnings_nr; i++) {
		if (piped && !strcmp(s->warnings[i].origin, STDIN_NAME))
			continue;
		note("%s: the plugin warned: %s", s->warnings[i].origin, s->warnings[i].text);
		shown++;
	}
	if (s->warnings_dropped && shown)
		note("... and %" PRIu64 " more distinct plugin warning%s", s->warnings_dropped,
		     plural(s->warnings_dropped));
}

/* stderr summary of what the report cannot show: nothing is dropped silently. */
static void report_losses(const struct stream *s, const struct rank *r, const struct options *o,
			  struct display_arg *disp)
{
	char names[1024];
	uint64_t skipped = sat_add(s->skipped_objects, s->skipped_object_lines);

	report_plugin_warnings(s);

	if (s->skipped_kinds)
		note("skipped %" PRIu64 " record%s of unknown kinds", s->skipped_kinds,
		     plural(s->skipped_kinds));
	if (s->skipped_classes)
		note("skipped %" PRIu64 " total%s of unknown sample classes", s->skipped_classes,
		     plural(s->skipped_classes));
	if (skipped)
		note("skipped %" PRIu64 " object%s of unknown kinds and their %" PRIu64
		     " code/debug/sample line%s", s->skipped_objects, plural(s->skipped_objects),
		     s->skipped_object_lines, plural(s->skipped_object_lines));
	if (r->event >= 0) {
		/* The plugin's own losses: in the total (the denominator), in no function. */
		static const struct { enum hb_sample_class c; const char *what; } lost[] = {
			{ HB_CLASS_BEFORE_LOAD, "before their code's load record" },
			{ HB_CLASS_JIT_NO_LOAD, "in JIT memory no jitdump load covers" },
			{ HB_CLASS_NO_SYMBOL, "in files without a symbol there" },
			{ HB_CLASS_NO_MAP, "outside every mapping" },
			{ HB_CLASS_NOT_RESOLVED, "not resolved (jit-only)" },
			{ HB_CLASS_TABLE_FULL, "beyond the plugin's table" },
		};
		const uint64_t *n = s->events[r->event].samples;
		char why[512];
		size_t len = 0;
		uint64_t sum = 0;

		why[0] = '\0';
		for (size_t k = 0; k < ARRAY_SIZE(lost); k++) {
			if (!n[lost[k].c])
				continue;
			sum = sat_add(sum, n[lost[k].c]);
			len += (size_t)snprintf(why + len, len < sizeof(why) ? sizeof(why) - len : 0,
						"%s%" PRIu64 " %s", len ? ", " : "", n[lost[k].c], lost[k].what);
		}
		if (sum)
			note("%" PRIu64 " sample%s unattributed (%s): counted in the total, in no function",
			     sum, plural(sum), why);
	}
	if (r->nocode_objects)
		note("%" PRIu64 " sample%s in %" PRIu64 " object%s without code bytes: counted,"
		     " in no block", r->nocode_samples, plural(r->nocode_samples),
		     r->nocode_objects, plural(r->nocode_objects));
	if (r->failed_objects)
		note("%" PRIu64 " sample%s in %" PRIu64 " object%s not disassembled (%s): counted,"
		     " in no block", r->failed_samples, plural(r->failed_samples),
		     r->failed_objects, plural(r->failed_objects), r->failed_error);
	if (r->unaligned_samples) {
		lossy_functions(r, true, disp, names, sizeof(names));
		note("%" PRIu64 " sample%s inside an instruction that is sampled more (the code"
		     " bytes are not those that ran): counted, in no block: %s",
		     r->unaligned_samples, plural(r->unaligned_samples), names);
	}
	if (r->outside_samples) {
		lossy_functions(r, false, disp, names, sizeof(names));
		note("%" PRIu64 " sample%s past the code bytes the input has: counted, in no"
		     " block: %s", r->outside_samples, plural(r->outside_samples), names);
	}
	if (r->percent_capped)
		note("only %" PRIu64 " of the %" PRIu64 " samples (%.1f%%) are in objects that"
		     " can have blocks: --percent %g counts against those %" PRIu64,
		     r->blockable, r->total, r->total ? 100.0 * r->blockable / r->total : 0.0,
		     o->rank.percent, r->blockable);
	if (r->attributed > r->total)
		note("the stream's total of %" PRIu64 " sample%s is less than the %" PRIu64
		     " it attributes to code objects", r->total, plural(r->total), r->attributed);
	if (o->rank.function)
		report_function_match(r, o);
}

static void summary_note(void *arg, const char *line)
{
	note("%s", line);
}

/* Everything after option parsing; returns the exit status, having freed what it took. */
static int run(struct options *o, int nfiles, char **files)
{
	struct render_opts ro = { .all = o->all, .rank = &o->rank };
	struct annotator *annot = NULL;
	struct display_arg disp;
	char err[1024];
	struct stream s;
	struct rank r;
	FILE *out = stdout;
	int i, ret = EXIT_INPUT;
	long ev = -1;

	stream__init(&s);
	if (!nfiles && read_input(&s, "-"))
		goto out_stream;
	for (i = 0; i < nfiles; i++)
		if (read_input(&s, files[i]))
			goto out_stream;
	if ((i = stream__finish(&s))) {
		error(i == -ERANGE ? "the samples of one offset, summed over all inputs, overflow 64 bits" :
				     "out of memory");
		goto out_stream;
	}

	if (o->event) {
		ev = stream__find_event(&s, o->event);
		if (ev < 0) {
			error("the input has no event called '%s'", o->event);
			goto out_stream;
		}
	} else if (s.events_nr) {
		ev = 0;
	}
	if (annotator__open(&annot, &o->annot, err, sizeof(err))) {
		error("%s", err);
		memset(&r, 0, sizeof(r));
		goto out_rank;
	}
	if (annotator__bind(annot, &s)) {
		error("out of memory");
		memset(&r, 0, sizeof(r));
		goto out_rank;
	}
	disp = (struct display_arg){ annot, &s };
	o->rank.alt_name = display_name;
	o->rank.alt_arg = &disp;
	ro.annot = annot;
	if (o->source_lines && !o->json && !(ro.source_lines = source_text__new())) {
		error("out of memory");
		goto out_rank_early;
	}
	if (rank__build(&r, &s, ev, &o->rank)) {
		error("out of memory");
		goto out_rank;
	}
	report_losses(&s, &r, o, &disp);

	/* Opened only now, so that bad input does not clobber an earlier report. */
	if (o->output && !(out = fopen(o->output, "w"))) {
		error("%s: %s", o->output, strerror(errno));
		goto out_rank;
	}
	ro.color = use_color(o, out);
	i = (o->json ? &render_json : &render_text)->render(out, &r, &ro);
	annotator__summary(annot, summary_note, NULL);
	if (i == -ENOMEM)
		error("out of memory");
	else if (i || fflush(out) || ferror(out))
		error("%s: write error", o->output ? o->output : "<stdout>");
	else
		ret = EXIT_OK;
	if (out != stdout && fclose(out) && ret == EXIT_OK) {
		error("%s: write error", o->output);
		ret = EXIT_INPUT;
	}
out_rank:
	rank__release(&r);
out_rank_early:
	annotator__close(annot);
	source_text__free(ro.source_lines);
out_stream:
	stream__release(&s);
	return ret;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };

	parse_options(argc, argv, &o);
	return run(&o, argc - optind, argv + optind);
}

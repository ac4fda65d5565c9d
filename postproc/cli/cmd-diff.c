/* SPDX-License-Identifier: MIT */
/* `hotblocks diff [options] BASE NEW`: the command line of the comparison (diff.h). */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "diff/diff-build.h"
#include "output-file.h"
#include "render/formats.h"


static const char usage_text[] =
	"usage: hotblocks diff [options] BASE NEW\n"
	"\n"
	"Compare two profiles block by block. BASE and NEW are hotblocks annotated\n"
	"streams (a file, or '-' for standard input for one of them); for several runs\n"
	"of one side, concatenate their streams (cat a.hbs b.hbs >base.hbs): the same\n"
	"code from several runs is merged. Functions are paired by identity (the name\n"
	"without a JIT's tier marks), blocks by the best key both have: wasm offsets,\n"
	"source lines, else their instructions. Block pairs are ranked by the change in\n"
	"their share of all samples; a delta is NEW - BASE.\n"
	"\n"
	"      --top N          show at most N block pairs (default 20)\n"
	"      --min-delta D    show those whose share changed by at least D percentage\n"
	"                       points (default 0.1; with --counts, D samples, default\n"
	"                       0.1% of the larger side's samples)\n"
	"      --all            every block pair with samples, every function\n"
	"      --counts         rank and show by samples, not shares\n"
	"      --listing        text output: after the tables, each shown pair's two\n"
	"                       blocks, their instructions as the report shows them\n"
	"                       (the --html page always has the listings)\n"
	"      --function NAME  only functions called NAME on either side (else whose\n"
	"                       names match NAME as a glob, else contain it)\n"
	"  -e, --event NAME     compare samples of event NAME (default: BASE's first)\n"
	"      --json           one JSON document (schema: postproc/JSON.md)\n"
	"      --html[=FILE]    one self-contained HTML page: the tables, and each\n"
	"                       function's control-flow graphs painted by the change,\n"
	"                       beside the listings (to FILE: as -o)\n"
	"      --color[=WHEN]   colour the deltas, red more share, green less: auto\n"
	"                       (default: when stdout is a terminal and NO_COLOR is\n"
	"                       unset), always, never\n"
	"      --cwasm FILE, --clif DIR, --wasm FILE\n"
	"                       wasmtime's inputs (as for hotblocks), for both sides\n"
	"      --base-cwasm FILE, --base-clif DIR, --base-wasm FILE\n"
	"      --new-cwasm FILE, --new-clif DIR, --new-wasm FILE\n"
	"                       the same for one side (two compilations of a module)\n"
	"      --no-source      no source lines (neither shown nor used to pair blocks)\n"
	"      --base-label TEXT, --new-label TEXT\n"
	"                       how the header names a side (default: its file)\n"
	"  -o, --output FILE    write the comparison to FILE instead of standard output\n"
	"  -h, --help           show this help and exit\n"
	"\n"
	"Exit status: 0 success, 1 bad input (or an I/O error), 2 bad command line.\n";

static void print_usage(FILE *out)
{
	fputs(usage_text, out);
}

struct options {
	struct diff_opts diff;
	const char *output;
	const struct format *format;	/* NULL: the default */
	const char *format_file;	/* --html=FILE */
	enum cli_color color;
	struct annot_inputs annot[DIFF__SIDES];
	const char *label[DIFF__SIDES];
};

enum {
	OPT_TOP = CLI_OPT_LONG,
	OPT_MIN_DELTA,
	OPT_ALL,
	OPT_COUNTS,
	OPT_FUNCTION,
	OPT_JSON,
	OPT_HTML,
	OPT_COLOR,
	OPT_NO_SOURCE,
	OPT_LISTING,
	OPT_BASE_LABEL,
	OPT_NEW_LABEL,
	/* per side: both, then BASE, then NEW */
	OPT_CWASM, OPT_CLIF, OPT_WASM,
	OPT_BASE_CWASM, OPT_BASE_CLIF, OPT_BASE_WASM,
	OPT_NEW_CWASM, OPT_NEW_CLIF, OPT_NEW_WASM,
};

static const struct option long_options[] = {
	{ "top", required_argument, NULL, OPT_TOP },
	{ "min-delta", required_argument, NULL, OPT_MIN_DELTA },
	{ "all", no_argument, NULL, OPT_ALL },
	{ "counts", no_argument, NULL, OPT_COUNTS },
	{ "function", required_argument, NULL, OPT_FUNCTION },
	{ "event", required_argument, NULL, 'e' },
	{ "json", no_argument, NULL, OPT_JSON },
	{ "html", optional_argument, NULL, OPT_HTML },
	{ "color", optional_argument, NULL, OPT_COLOR },
	{ "colour", optional_argument, NULL, OPT_COLOR },
	{ "no-source", no_argument, NULL, OPT_NO_SOURCE },
	{ "listing", no_argument, NULL, OPT_LISTING },
	{ "base-label", required_argument, NULL, OPT_BASE_LABEL },
	{ "new-label", required_argument, NULL, OPT_NEW_LABEL },
	{ "cwasm", required_argument, NULL, OPT_CWASM },
	{ "clif", required_argument, NULL, OPT_CLIF },
	{ "wasm", required_argument, NULL, OPT_WASM },
	{ "base-cwasm", required_argument, NULL, OPT_BASE_CWASM },
	{ "base-clif", required_argument, NULL, OPT_BASE_CLIF },
	{ "base-wasm", required_argument, NULL, OPT_BASE_WASM },
	{ "new-cwasm", required_argument, NULL, OPT_NEW_CWASM },
	{ "new-clif", required_argument, NULL, OPT_NEW_CLIF },
	{ "new-wasm", required_argument, NULL, OPT_NEW_WASM },
	{ "output", required_argument, NULL, 'o' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

#define SHORT_OPTIONS ":e:o:h"

static double parse_delta(const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	/* !(v >= 0) also refuses NaN */
	if (!*arg || *end || errno || !(v >= 0.0) || v > 1e18)
		message__usage_error("--min-delta needs a non-negative number, not '%s'", arg);
	return v;
}

/* Set one annotation input of one side, or of both (side < 0). */
static void set_input(struct options *o, int side, int which, const char *arg)
{
	for (int s = 0; s < DIFF__SIDES; s++) {
		if (side >= 0 && s != side)
			continue;
		if (which == 0)
			o->annot[s].cwasm = arg;
		else if (which == 1)
			o->annot[s].clif_dir = arg;
		else
			o->annot[s].wasm = arg;
	}
}

static void parse_options(int argc, char **argv, struct options *o)
{
	int c;

	o->diff.top = 20;
	o->diff.min_delta = -1.0;
	o->color = CLI_COLOR_AUTO;
	opterr = 0;
	while ((c = getopt_long(argc, argv, SHORT_OPTIONS, long_options, NULL)) != -1) {
		switch (c) {
		case 'e':
			o->diff.event = optarg;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'h':
			message__help(print_usage);
		case OPT_TOP:
			o->diff.top = cli__parse_count("--top", optarg);
			break;
		case OPT_MIN_DELTA:
			o->diff.min_delta = parse_delta(optarg);
			break;
		case OPT_ALL:
			o->diff.all = true;
			break;
		case OPT_COUNTS:
			o->diff.counts = true;
			break;
		case OPT_FUNCTION:
			o->diff.function = optarg;
			break;
		case OPT_JSON:
			cli__set_format(&o->format, &formats[FORMAT_json], NULL, &o->format_file);
			break;
		case OPT_HTML:
			cli__set_format(&o->format, &formats[FORMAT_html], optarg, &o->format_file);
			break;
		case OPT_COLOR:
			o->color = (enum cli_color)cli__parse_color(optarg);
			break;
		case OPT_NO_SOURCE:
			o->annot[DIFF_BASE].no_source = o->annot[DIFF_NEW].no_source = true;
			break;
		case OPT_LISTING:
			o->diff.listing = true;
			break;
		case OPT_BASE_LABEL:
		case OPT_NEW_LABEL:
			o->label[c - OPT_BASE_LABEL] = optarg;
			break;
		case OPT_CWASM: case OPT_CLIF: case OPT_WASM:
			set_input(o, -1, c - OPT_CWASM, optarg);
			break;
		case OPT_BASE_CWASM: case OPT_BASE_CLIF: case OPT_BASE_WASM:
			set_input(o, DIFF_BASE, c - OPT_BASE_CWASM, optarg);
			break;
		case OPT_NEW_CWASM: case OPT_NEW_CLIF: case OPT_NEW_WASM:
			set_input(o, DIFF_NEW, c - OPT_NEW_CWASM, optarg);
			break;
		case ':':
			message__usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			cli__bad_option(argv[optind - 1], optopt, SHORT_OPTIONS, long_options);
		}
	}
	cli__output_file(&o->output, o->format_file);
	if (!o->format)
		o->format = &formats[FORMAT_text];
	if (o->diff.all && o->diff.top == 20)
		o->diff.top = SIZE_MAX;
}

/* The notes of one side's report, prefixed with the side (annotation ones or the others). */
static void print_notes(const struct diff_side *side, bool annotation)
{
	for (size_t i = 0; i < side->report.notes_nr; i++)
		if ((side->report.notes[i].kind == REPORT_NOTE_ANNOTATION) == annotation)
			message__note("%s: %s", side->label, side->report.notes[i].text);
}

/* Notes of the comparison itself. */
static void print_diff_notes(const struct diff *d)
{
	if (d->function_unmatched)
		message__note("no sampled function of either side matches '%s'"
			  " (as a name, a glob or a substring)", d->opts.function);
}

/* Reading one side: the stream, finished. */
struct side_read {
	struct stream *stream;
	const char *path;
	int ret;
	char err[1024];
};

static void *read_side(void *arg)
{
	struct side_read *r = arg;

	r->ret = cli__read_stream(r->stream, r->path, r->err, sizeof(r->err));
	if (!r->ret && (r->ret = stream__finish(r->stream)))
		snprintf(r->err, sizeof(r->err), r->ret == -ERANGE ?
			 "%s: the samples of one offset, summed over all inputs, overflow 64 bits" :
			 "%s: out of memory", r->path);
	return NULL;
}

/*
 * Both sides: reading is most of a comparison's time, and the two streams
 * are independent, so BASE is read on a thread of its own while NEW is read
 * here (one after the other if no thread can be had). Returns 0 or -1 after
 * an error message.
 */
static int read_sides(struct stream streams[DIFF__SIDES], char **files)
{
	struct side_read r[DIFF__SIDES];
	pthread_t thread;
	bool threaded;

	for (int s = 0; s < DIFF__SIDES; s++)
		r[s] = (struct side_read){ .stream = &streams[s], .path = files[s] };
	threaded = !pthread_create(&thread, NULL, read_side, &r[DIFF_BASE]);
	if (!threaded)
		read_side(&r[DIFF_BASE]);
	read_side(&r[DIFF_NEW]);
	if (threaded)
		pthread_join(thread, NULL);
	for (int s = 0; s < DIFF__SIDES; s++)
		if (r[s].ret)
			return message__error("%s", r[s].err);
	return 0;
}

static int run(struct options *o, char **files)
{
	static const char *const labels[DIFF__SIDES] = { "BASE", "NEW" };
	struct stream streams[DIFF__SIDES];
	struct diff_input in[DIFF__SIDES] = { { 0 } };
	struct diff d = { 0 };
	struct render_opts ro = { 0 };
	char err[1024];
	struct output_file out;
	int ret = EXIT_INPUT, i;

	for (int s = 0; s < DIFF__SIDES; s++) {
		in[s] = (struct diff_input){ labels[s], o->label[s] ? o->label[s] : files[s],
					     &streams[s], NULL };
		stream__init(&streams[s]);
	}
	if (read_sides(streams, files))
		goto out;
	for (int s = 0; s < DIFF__SIDES; s++) {
		if (cli__stream_inputs(&streams[s])) {
			message__error("out of memory");
			goto out;
		}
	}
	for (int s = 0; s < DIFF__SIDES; s++) {
		if (annotator__open(&in[s].annot, &o->annot[s], err, sizeof(err))) {
			message__error("%s: %s", labels[s], err);
			goto out;
		}
		if (annotator__bind(in[s].annot, &streams[s])) {
			message__error("out of memory");
			goto out;
		}
	}
	i = diff__build(&d, in, &o->diff);
	if (i == -ENOENT) {
		message__error("%s has no event called '%s'",
		      d.side[DIFF_BASE].event < 0 && streams[DIFF_BASE].events_nr ?
		      files[DIFF_BASE] : files[DIFF_NEW], d.event);
		goto out;
	}
	if (i) {
		message__error("out of memory");
		goto out;
	}
	for (int s = 0; s < DIFF__SIDES; s++)
		print_notes(&d.side[s], false);
	print_diff_notes(&d);
	/* Opened only now, so that bad input does not clobber an earlier comparison. */
	if ((i = output_file__open(&out, o->output))) {
		ret = i == -EEXIST ? EXIT_USAGE : EXIT_INPUT;
		goto out;
	}
	ro.color = (o->format->needs & FORMAT_COLOR) && cli__use_color(o->color, out.f);
	i = o->format->diff_render(out.f, &d, &ro);
	for (int s = 0; s < DIFF__SIDES; s++)
		print_notes(&d.side[s], true);
	i = output_file__commit(&out, i);
	ret = !i ? EXIT_OK : i == -EEXIST ? EXIT_USAGE : EXIT_INPUT;
out:
	diff__release(&d);
	for (int s = 0; s < DIFF__SIDES; s++) {
		annotator__close(in[s].annot);
		stream__release(&streams[s]);
	}
	return ret;
}

int cmd_diff(int argc, char **argv)
{
	struct options o = { 0 };
	int n;

	message_command = "hotblocks diff";
	parse_options(argc, argv, &o);
	n = argc - optind;
	if (n != 2)
		message__usage_error(n < 2 ? "diff needs two streams, BASE and NEW (%d given)" :
			    "diff compares two streams, BASE and NEW, not %d: for several runs of"
			    " one side, cat their streams into one", n);
	if (!strcmp(argv[optind], "-") && !strcmp(argv[optind + 1], "-"))
		message__usage_error("BASE and NEW cannot both be standard input");
	cli__check_output(o.output, argv + optind, 2, o.annot, DIFF__SIDES);
	return run(&o, argv + optind);
}

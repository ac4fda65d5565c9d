/* SPDX-License-Identifier: MIT */
/* hotblocks: read annotated streams, rank the hottest blocks of JIT code, print them. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "cli.h"
#include "output-file.h"
#include "analysis/rank.h"
#include "render/formats.h"
#include "report/report-build.h"
#include "stream/stream.h"

static const char usage_text[] =
	"usage: hotblocks [options] [STREAM...]\n"
	"       hotblocks diff [options] BASE NEW    (hotblocks diff --help)\n"
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
	"      --all           no --percent threshold; with --json, --html or --dot, every\n"
	"                      sampled function with all its blocks and instructions\n"
	"      --json          one JSON document (schema: postproc/JSON.md)\n"
	"      --html[=FILE]   one self-contained HTML page: each function's control-flow\n"
	"                      graph painted by heat, beside its listing (to FILE: as -o)\n"
	"      --dot[=FILE]    each function's control-flow graph as Graphviz dot\n"
	"      --color[=WHEN]  colour the sample cells: auto (default: when stdout is a\n"
	"                      terminal and NO_COLOR is unset), always, never;\n"
	"                      also spelled --colour\n"
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

static void print_usage(FILE *out)
{
	fputs(usage_text, out);
}

struct options {
	struct rank_opts rank;
	const char *event;
	const char *output;
	const struct format *format;	/* NULL: the default */
	const char *format_file;	/* --html=FILE, --dot=FILE */
	bool all;
	enum cli_color color;
	struct annot_inputs annot;
	bool source_lines;
};

enum {
	OPT_TOP = CLI_OPT_LONG,
	OPT_FUNCTION,
	OPT_JSON,
	OPT_HTML,
	OPT_DOT,
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
	{ "html", optional_argument, NULL, OPT_HTML },
	{ "dot", optional_argument, NULL, OPT_DOT },
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

static double parse_percent(const char *arg)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	/* !(v >= 0) also refuses NaN. */
	if (!*arg || *end || errno || !(v >= 0.0) || v > 100.0)
		message__usage_error("--percent must be a number between 0 and 100 inclusive, not '%s'",
			    arg);
	return v;
}

#define SHORT_OPTIONS ":p:e:o:h"

static void parse_options(int argc, char **argv, struct options *o)
{
	int c;

	o->rank.percent = 50.0;
	o->rank.top = SIZE_MAX;
	o->color = CLI_COLOR_AUTO;
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
			message__help(print_usage);
		case OPT_TOP:
			o->rank.top = cli__parse_count("--top", optarg);
			break;
		case OPT_FUNCTION:
			o->rank.function = optarg;
			break;
		case OPT_JSON:
			cli__set_format(&o->format, &formats[FORMAT_json], NULL, &o->format_file);
			break;
		case OPT_HTML:
			cli__set_format(&o->format, &formats[FORMAT_html], optarg, &o->format_file);
			break;
		case OPT_DOT:
			cli__set_format(&o->format, &formats[FORMAT_dot], optarg, &o->format_file);
			break;
		case OPT_ALL:
			o->all = true;
			o->rank.no_threshold = true;
			break;
		case OPT_COLOR:
			o->color = (enum cli_color)cli__parse_color(optarg);
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
			message__usage_error("option '%s' needs an argument", argv[optind - 1]);
		default:
			cli__bad_option(argv[optind - 1], optopt, SHORT_OPTIONS, long_options);
		}
	}
	cli__output_file(&o->output, o->format_file);
	if (!o->format)
		o->format = &formats[FORMAT_text];
}

static int read_input(struct stream *s, const char *path)
{
	char err[1024];

	return cli__read_stream(s, path, err, sizeof(err)) ? message__error("%s", err) : 0;
}

/* Print the notes of rep, those about the annotation inputs (annotation) or the others. */
static void print_notes(const struct report *rep, bool annotation)
{
	for (size_t i = 0; i < rep->notes_nr; i++)
		if ((rep->notes[i].kind == REPORT_NOTE_ANNOTATION) == annotation)
			message__note("%s", rep->notes[i].text);
}

/* Everything after option parsing; returns the exit status, having freed what it took. */
static int run(struct options *o, int nfiles, char **files)
{
	unsigned needs = o->format->needs;
	struct report_opts repo = {
		/* JSON --all lists every selected function in full; a graph needs
		 * every block of the functions it draws. */
		.every_function = o->all && (needs & FORMAT_LIST_SELECTED),
		.whole_functions = (o->all && (needs & FORMAT_WHOLE_WITH_ALL)) || (needs & FORMAT_WHOLE),
		.source_lines = o->source_lines && (needs & FORMAT_SOURCE_LINES),
		/* perf script --dlfilter hotblocks.so | hotblocks: the plugin has
		 * just printed its warnings on the same terminal, so the report
		 * does not repeat those read from standard input. */
		.live_origin = cli__stdin_is_piped() ? CLI_STDIN_NAME : NULL,
	};
	struct render_opts ro = { 0 };
	struct annotator *annot = NULL;
	struct report_names names;
	struct report rep = { 0 };
	char err[1024];
	struct stream s;
	struct rank r = { 0 };
	struct output_file out;
	int i, ret = EXIT_INPUT;
	long ev = -1;

	stream__init(&s);
	if (!nfiles && read_input(&s, "-"))
		goto out;
	for (i = 0; i < nfiles; i++)
		if (read_input(&s, files[i]))
			goto out;
	if ((i = stream__finish(&s))) {
		message__error(i == -ERANGE ? "the samples of one offset, summed over all inputs, overflow 64 bits" :
				     "out of memory");
		goto out;
	}
	if (cli__stream_inputs(&s)) {
		message__error("out of memory");
		goto out;
	}

	if (o->event) {
		ev = stream__find_event(&s, o->event);
		if (ev < 0) {
			message__error("the input has no event called '%s'", o->event);
			goto out;
		}
	} else if (s.events_nr) {
		ev = 0;
	}
	if (annotator__open(&annot, &o->annot, err, sizeof(err))) {
		message__error("%s", err);
		goto out;
	}
	if (annotator__bind(annot, &s)) {
		message__error("out of memory");
		goto out;
	}
	names = (struct report_names){ annot, &s };
	o->rank.alt_name = report__display_name;
	o->rank.alt_arg = &names;
	if (rank__build(&r, &s, ev, &o->rank) || report__build(&rep, &r, &o->rank, annot, &repo)) {
		message__error("out of memory");
		goto out;
	}
	print_notes(&rep, false);

	/* Opened only now, so that bad input does not clobber an earlier report. */
	if ((i = output_file__open(&out, o->output))) {
		ret = i == -EEXIST ? EXIT_USAGE : EXIT_INPUT;
		goto out;
	}
	ro.color = (needs & FORMAT_COLOR) && cli__use_color(o->color, out.f);
	i = o->format->render(out.f, &rep, &ro);
	/* After the report: they speak of its columns. */
	print_notes(&rep, true);
	i = output_file__commit(&out, i);
	ret = !i ? EXIT_OK : i == -EEXIST ? EXIT_USAGE : EXIT_INPUT;
out:
	report__release(&rep);
	rank__release(&r);
	annotator__close(annot);
	stream__release(&s);
	return ret;
}

int main(int argc, char **argv)
{
	struct options o = { 0 };

	if (argc > 1 && !strcmp(argv[1], "diff"))
		return cmd_diff(argc - 1, argv + 1);

	parse_options(argc, argv, &o);
	cli__check_output(o.output, argv + optind, argc - optind, &o.annot, 1);
	return run(&o, argc - optind, argv + optind);
}

/* SPDX-License-Identifier: MIT */
/* `hotblocks [options] [STREAM...]`: read annotated streams, rank the hottest blocks, print them. */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "cli.h"
#include "cmd.h"
#include "options.h"
#include "pipeline.h"
#include "lib/strbuf.h"
#include "report/report-build.h"

static const char usage_head[] =
	"usage: hotblocks [options] [STREAM...]\n"
	"       hotblocks diff [options] BASE NEW    (hotblocks diff --help)\n"
	"\n"
	"Read hotblocks annotated streams (written by `perf script --dlfilter hotblocks.so`)\n"
	"from the files given, or from standard input when there is none or for '-', merge\n"
	"them, and print the hottest basic blocks of the sampled code.\n"
	"\n";

static void print_usage(FILE *out)
{
	options__help(out, C_REPORT, usage_head);
}

/* --usage-of=COMMAND: the option list of another command (perf hotblocks prints it). */
static enum options_cmd usage_of;

static void print_usage_of(FILE *out)
{
	options__usage(out, usage_of);
}

struct options {
	struct rank_opts rank;
	const char *event;
	const char *output;
	const struct output_format *format;	/* NULL: the default */
	const char *format_file;	/* --html=FILE, --dot=FILE */
	bool all;
	unsigned kinds;			/* --kind: STREAM_KIND_*, 0 = every sample */
	enum cli_color color;
	struct annot_inputs annot;
	bool source_lines;
	bool by_executions;
	size_t page_budget;
	/* What shows one function as the command line shows the rest: its
	 * event and column inputs, then the streams (render_opts.command). */
	struct strbuf command;
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

/* SIZE of --page-budget: bytes, or with k, M or G (1024s); 0: no limit. */
static size_t parse_size(const char *opt, const char *arg)
{
	unsigned long long v, unit = 1;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (*end && !end[1])
		unit = *end == 'k' || *end == 'K' ? 1ull << 10 : *end == 'M' ? 1ull << 20 :
		       *end == 'G' ? 1ull << 30 : 0;
	if (*arg < '0' || *arg > '9' || errno || !unit || (*end && end[1]) || v > SIZE_MAX / unit)
		message__usage_error("%s takes a size in bytes, or with k, M or G (8M), not '%s'", opt,
				     arg);
	return (size_t)(v * unit);
}

/* 'arg' for a shell: in single quotes, each ' as '\''. */
static void add_quoted(struct strbuf *sb, const char *arg)
{
	strbuf_addstr(sb, " '");
	for (; *arg; arg++)
		if (*arg == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *arg);
	strbuf_addch(sb, '\'');
}

/* --OPTION 'ARG' (or --OPTION) for the command that shows one function. */
static void add_option(struct strbuf *sb, const char *option, const char *arg)
{
	strbuf_addf(sb, " --%s", option);
	if (arg)
		add_quoted(sb, arg);
}

/* One switch over every option of hotblocks (options.def). */
static void parse_options(int argc, char **argv, struct options *o)
{
	struct options_parser p;
	const struct output_format *format;
	const char *arg;
	enum option_id id;

	o->rank.percent = 50.0;
	o->rank.top = SIZE_MAX;
	o->color = CLI_COLOR_AUTO;
	o->page_budget = RENDER_PAGE_BUDGET;
	strbuf_addstr(&o->command, "hotblocks");
	options__init(&p, C_REPORT, argc, argv);
	while ((id = options__next(&p, &arg, &format))) {
		switch (id) {
		case OPT_PERCENT:
			o->rank.percent = parse_percent(arg);
			break;
		case OPT_EVENT:
			o->event = arg;
			add_option(&o->command, "event", arg);
			break;
		case OPT_OUTPUT:
			o->output = arg;
			break;
		case OPT_HELP:
			message__help(print_usage);
		case OPT_TOP:
			o->rank.top = cli__parse_count("--top", arg);
			break;
		case OPT_FUNCTION:
			o->rank.function = arg;
			break;
		case OPT_KIND:
			cli__parse_kinds(arg, &o->kinds);
			add_option(&o->command, "kind", arg);
			break;
		case OPT_FORMAT:
			cli__set_format(&o->format, format, arg, &o->format_file);
			break;
		case OPT_ALL:
			o->all = true;
			o->rank.no_threshold = true;
			break;
		case OPT_COLOR:
			o->color = (enum cli_color)cli__parse_color(arg);
			break;
		case OPT_CWASM:
			o->annot.cwasm = arg;
			add_option(&o->command, "cwasm", arg);
			break;
		case OPT_CLIF:
			o->annot.clif_dir = arg;
			add_option(&o->command, "clif", arg);
			break;
		case OPT_WASM:
			o->annot.wasm = arg;
			add_option(&o->command, "wasm", arg);
			break;
		case OPT_NO_SOURCE:
			o->annot.no_source = true;
			add_option(&o->command, "no-source", NULL);
			break;
		case OPT_RAW_NAMES:
			o->annot.raw_names = true;
			add_option(&o->command, "raw-names", NULL);
			break;
		case OPT_PAGE_BUDGET:
			o->page_budget = parse_size("--page-budget", arg);
			break;
		case OPT_SOURCE_LINES:
			o->source_lines = true;
			break;
		case OPT_BY_EXECUTIONS:
			o->by_executions = true;
			break;
		case OPT_LIST_OPTIONS:
			message__help(options__list);
		case OPT_USAGE_OF:
			if (!(usage_of = options__cmd(arg)))
				message__usage_error("--usage-of takes a command (hotblocks, diff, perf,"
						     " perf-record, perf-report, perf-wasm, perf-diff),"
						     " not '%s'", arg);
			message__help(print_usage_of);
		default:
			break;
		}
	}
	cli__output_file(&o->output, o->format_file);
	if (!o->format)
		o->format = &formats[FORMAT_text];
	for (int i = optind; i < argc; i++)
		add_quoted(&o->command, argv[i]);
}

/* The notes of the report, those about the annotation inputs (annotation) or the others. */
static void notes(const void *model, bool annotation)
{
	const struct report *rep = model;

	for (size_t i = 0; i < rep->notes_nr; i++)
		if ((rep->notes[i].kind == REPORT_NOTE_ANNOTATION) == annotation)
			message__note("%s", rep->notes[i].text);
}

static int render(FILE *out, const void *model, const struct output_format *f, const struct render_opts *o)
{
	return f->render(out, model, o);
}

/* Everything after option parsing; returns the exit status, having freed what it took. */
static int report(struct options *o, int nfiles, char **files)
{
	unsigned needs = o->format->needs;
	struct report_opts repo = {
		/* JSON --all lists every selected function in full; a graph needs
		 * every block of the functions it draws. */
		.list_selected = (o->all && (needs & FORMAT_LIST_SELECTED)) || (needs & FORMAT_EVERY_SAMPLE),
		.whole_functions = (o->all && (needs & FORMAT_WHOLE_WITH_ALL)) || (needs & FORMAT_WHOLE),
		.points = needs & FORMAT_EVERY_SAMPLE,
		.source_lines = o->source_lines && (needs & FORMAT_SOURCE_LINES),
		.by_executions = o->by_executions,
		/* perf script --dlfilter hotblocks.so | hotblocks: the plugin has
		 * just printed its warnings on the same terminal, so the report
		 * does not repeat those read from standard input. */
		.live_origin = cli__stdin_is_piped() ? CLI_STDIN_NAME : NULL,
	};
	struct annotator *annot = NULL;
	const char **names = NULL;
	struct report rep = { 0 };
	char err[1024];
	struct stream s;
	struct rank r = { 0 };
	int ret = EXIT_INPUT;
	long ev = -1;

	/* a profile of every sample: each function's rows name its lines */
	if (needs & FORMAT_EVERY_SAMPLE)
		o->rank.disassemble_all = true;
	stream__init(&s);
	if (pipeline__read(&s, files, nfiles) || cli__keep_kinds(&s, o->kinds))
		goto out;
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
	/* --function NAME matches display names too: known before ranking */
	if (o->rank.function && !(names = annotator__display_names(annot, &s, ev))) {
		message__error("out of memory");
		goto out;
	}
	o->rank.alt_names = names;
	if (rank__build(&r, &s, ev, &o->rank) || report__build(&rep, &r, &o->rank, annot, &repo)) {
		message__error("out of memory");
		goto out;
	}
	if (o->command.oom) {
		message__error("out of memory");
		goto out;
	}
	ret = pipeline__write(&(struct pipeline){ o->format, o->output, o->color, &rep, notes, render,
						  o->page_budget, o->command.buf });
out:
	report__release(&rep);
	rank__release(&r);
	free(names);
	annotator__close(annot);
	stream__release(&s);
	return ret;
}

int cmd_report(int argc, char **argv)
{
	struct options o = { 0 };

	int ret;

	parse_options(argc, argv, &o);
	cli__check_output(o.output, argv + optind, argc - optind, &o.annot, 1);
	ret = report(&o, argc - optind, argv + optind);
	strbuf_release(&o.command);
	return ret;
}

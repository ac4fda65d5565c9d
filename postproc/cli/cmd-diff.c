/* SPDX-License-Identifier: MIT */
/* `hotblocks diff [options] BASE NEW`: the command line of the comparison (diff.h). */
#include <errno.h>
#include <getopt.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "cmd.h"
#include "diff/diff-build.h"
#include "options.h"
#include "pipeline.h"


static const char usage_head[] =
	"usage: hotblocks diff [options] BASE NEW\n"
	"\n"
	"Compare two profiles block by block. BASE and NEW are hotblocks annotated\n"
	"streams (a file, or '-' for standard input for one of them); for several runs\n"
	"of one side, concatenate their streams (cat a.hbs b.hbs >base.hbs): the same\n"
	"code from several runs is merged. Functions are paired by identity (the name\n"
	"without a JIT's tier marks), as one function of a wasm module (its index in\n"
	"V8's and wasmtime's names), then by name; blocks by the best key both have:\n"
	"wasm offsets, source lines, else their instructions. Block pairs are ranked by the change in\n"
	"their share of all samples; a delta is NEW - BASE. A change beyond noise (the\n"
	"sampling error of its counts and the spread of the runs: README, \"Noise and\n"
	"significance\") is marked * and coloured.\n"
	"\n";

static void print_usage(FILE *out)
{
	options__help(out, C_DIFF, usage_head);
}

struct options {
	struct diff_opts diff;
	const char *output;
	const struct output_format *format;	/* NULL: the default */
	const char *format_file;	/* --html=FILE */
	enum cli_color color;
	struct annot_inputs annot[DIFF__SIDES];
	const char *label[DIFF__SIDES];
	const char *stream_name[DIFF__SIDES];	/* --base-stream-name ... */
	unsigned kinds;				/* --kind: STREAM_KIND_*, 0 = every sample */
};

static double parse_number(const char *opt, const char *arg, double most)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	/* !(v >= 0) also refuses NaN */
	if (!*arg || *end || errno || !(v >= 0.0) || v > most)
		message__usage_error("%s needs a non-negative number, not '%s'", opt, arg);
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

/* One switch over every option of hotblocks diff (options.def). */
static void parse_options(int argc, char **argv, struct options *o)
{
	struct options_parser p;
	const struct output_format *format;
	const char *arg;
	enum option_id id;

	o->diff.top = 20;
	o->diff.min_delta = -1.0;
	o->color = CLI_COLOR_AUTO;
	options__init(&p, C_DIFF, argc, argv);
	while ((id = options__next(&p, &arg, &format))) {
		switch (id) {
		case OPT_DIFF_EVENT:
			o->diff.event = arg;
			break;
		case OPT_DIFF_OUTPUT:
			o->output = arg;
			break;
		case OPT_HELP:
			message__help(print_usage);
		case OPT_TOP_PAIRS:
			o->diff.top = cli__parse_count("--top", arg);
			break;
		case OPT_MIN_DELTA:
			o->diff.min_delta = parse_number("--min-delta", arg, 1e18);
			break;
		case OPT_SPREAD:
			/* percent; 0 is sampling noise alone (diff_opts.spread < 0) */
			o->diff.spread = parse_number("--spread", arg, 1000.0) / 100.0;
			if (o->diff.spread == 0.0)
				o->diff.spread = -1.0;
			break;
		case OPT_ALL_PAIRS:
			o->diff.all = true;
			break;
		case OPT_COUNTS:
			o->diff.counts = true;
			break;
		case OPT_DIFF_FUNCTION:
			o->diff.function = arg;
			break;
		case OPT_DIFF_KIND:
			cli__parse_kinds(arg, &o->kinds);
			break;
		case OPT_FORMAT:
			cli__set_format(&o->format, format, arg, &o->format_file);
			break;
		case OPT_DIFF_COLOR:
			o->color = (enum cli_color)cli__parse_color(arg);
			break;
		case OPT_DIFF_NO_SOURCE:
			o->annot[DIFF_BASE].no_source = o->annot[DIFF_NEW].no_source = true;
			break;
		case OPT_DIFF_RAW_NAMES:
			o->annot[DIFF_BASE].raw_names = o->annot[DIFF_NEW].raw_names = true;
			break;
		case OPT_LISTING:
			o->diff.listing = true;
			break;
		case OPT_DIFF_TIERS_APART:
			o->diff.tiers_apart = true;
			break;
		case OPT_BASE_LABEL:
			o->label[DIFF_BASE] = arg;
			break;
		case OPT_NEW_LABEL:
			o->label[DIFF_NEW] = arg;
			break;
		case OPT_BASE_STREAM_NAME:
			o->stream_name[DIFF_BASE] = arg;
			break;
		case OPT_NEW_STREAM_NAME:
			o->stream_name[DIFF_NEW] = arg;
			break;
		case OPT_CWASM_BOTH: case OPT_CLIF_BOTH: case OPT_WASM_BOTH:
			set_input(o, -1, id - OPT_CWASM_BOTH, arg);
			break;
		case OPT_BASE_CWASM: case OPT_BASE_CLIF: case OPT_BASE_WASM:
			set_input(o, DIFF_BASE, id - OPT_BASE_CWASM, arg);
			break;
		case OPT_BASE_V8_CODE:
			o->annot[DIFF_BASE].v8_code = arg;
			break;
		case OPT_NEW_V8_CODE:
			o->annot[DIFF_NEW].v8_code = arg;
			break;
		case OPT_NEW_CWASM: case OPT_NEW_CLIF: case OPT_NEW_WASM:
			set_input(o, DIFF_NEW, id - OPT_NEW_CWASM, arg);
			break;
		default:
			break;
		}
	}
	cli__output_file(&o->output, o->format_file);
	if (!o->format)
		o->format = &formats[FORMAT_text];
	if (o->diff.all && o->diff.top == 20)
		o->diff.top = SIZE_MAX;
	o->diff.shown_only = !(o->format->needs & FORMAT_EVERY_PAIR);
}

/* The notes of each side's report, prefixed with the side, then the
 * comparison's own (annotation ones, or the others). */
static void notes(const void *model, bool annotation)
{
	const struct diff *d = model;

	for (int s = 0; s < DIFF__SIDES; s++) {
		const struct diff_side *side = &d->side[s];

		for (size_t i = 0; i < side->report.notes_nr; i++)
			if ((side->report.notes[i].kind == REPORT_NOTE_ANNOTATION) == annotation)
				message__note("%s: %s", side->label, side->report.notes[i].text);
	}
	if (!annotation && d->function_unmatched)
		message__note("no sampled function of either side matches '%s'"
			      " (as a name, a glob or a substring)", d->opts.function);
}

static int render(FILE *out, const void *model, const struct output_format *f, const struct render_opts *o)
{
	return f->diff_render(out, model, o);
}

/* Reading one side: the stream, finished. */
struct side_read {
	struct stream *stream;
	const char *path;
	const char *name;	/* as messages name it: NULL, the path */
	int ret;
	char err[1024];
};

static void *read_side(void *arg)
{
	struct side_read *r = arg;

	r->ret = cli__read_stream(r->stream, r->path, r->name, r->err, sizeof(r->err));
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
static int read_sides(struct stream streams[DIFF__SIDES], char **files,
		      const char *const names[DIFF__SIDES])
{
	struct side_read r[DIFF__SIDES];
	pthread_t thread;
	bool threaded;

	for (int s = 0; s < DIFF__SIDES; s++)
		r[s] = (struct side_read){ .stream = &streams[s], .path = files[s],
					   .name = names[s] };
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

static int compare(struct options *o, char **files)
{
	static const char *const labels[DIFF__SIDES] = { "BASE", "NEW" };
	struct stream streams[DIFF__SIDES];
	struct diff_input in[DIFF__SIDES] = { { 0 } };
	struct diff d = { 0 };
	char err[1024];
	int ret = EXIT_INPUT, i;
	size_t loads, listed;

	for (int s = 0; s < DIFF__SIDES; s++) {
		in[s] = (struct diff_input){ labels[s], o->label[s] ? o->label[s] : files[s],
					     &streams[s], NULL };
		stream__init(&streams[s]);
		/* the side's .cwasm: a copy of the one a `code-file` record names */
		streams[s].code_files_also = (const char *const *)&o->annot[s].cwasm;
		streams[s].code_files_also_nr = o->annot[s].cwasm != NULL;
	}
	if (read_sides(streams, files, o->stream_name))
		goto out;
	for (int s = 0; s < DIFF__SIDES; s++) {
		if (cli__stream_inputs(&streams[s])) {
			message__error("out of memory");
			goto out;
		}
		if (cli__keep_kinds(&streams[s], o->kinds))
			goto out;
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
		if (annotator__v8_listed(in[s].annot, &streams[s], &loads, &listed) && listed < loads)
			message__note("%s: %s lists %zu of the %zu V8 wasm code objects of the stream (the "
				      "others have no wasm offsets: not of this run, or given twice)",
				      labels[s], o->annot[s].v8_code, listed, loads);
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
	ret = pipeline__write(&(struct pipeline){ o->format, o->output, o->color, &d, notes, render, 0,
						  NULL });
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
	return compare(&o, argv + optind);
}

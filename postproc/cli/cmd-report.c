/* SPDX-License-Identifier: MIT */
/* `hotblocks [options] [STREAM...]`: read annotated streams, rank the hottest blocks, print them. */
#define _GNU_SOURCE	/* fmemopen, strdup */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/annotate.h"
#include "annotate/archived.h"
#include "annotate/wasmtime/clif-module.h"
#include "annotate/wasmtime/cwasm.h"
#include "archive-file.h"
#include "cli.h"
#include "cmd.h"
#include "options.h"
#include "output-file.h"
#include "pipeline.h"
#include "lib/read-file.h"
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
	bool tiers_apart;		/* --tiers-apart */
	bool by_executions;		/* --by-executions */
	size_t page_budget;
	const char *archive_out;	/* --archive FILE */
	const char *clif_module;	/* --clif-module FILE */
	const char *clif_known;		/* --clif-known FILE */
	bool from_archive;		/* the one input is an archive */
	struct archive_contents archive;	/* its contents, or what is written to one */
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
		case OPT_ARCHIVE:
			o->archive_out = arg;
			break;
		case OPT_TIERS_APART:
			o->tiers_apart = true;
			add_option(&o->command, "tiers-apart", NULL);
			break;
		case OPT_BY_EXECUTIONS:
			o->by_executions = true;
			break;
		case OPT_CLIF_MODULE:
			o->clif_module = arg;
			break;
		case OPT_CLIF_KNOWN:
			o->clif_known = arg;
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
	if (o->archive_out) {
		if (o->output)
			message__usage_error("--archive FILE writes no report: -o or an output's FILE"
					     " has nothing to write");
		o->output = o->archive_out;
	}
	for (int i = optind; i < argc; i++)
		if (archive_file__is(argv[i])) {
			if (argc - optind > 1 || o->archive_out)
				message__usage_error("%s is an archive: it is read alone, not with other"
						     " streams, and not into another archive", argv[i]);
			o->from_archive = true;
		}
	if (o->from_archive && (o->annot.cwasm || o->annot.clif_dir || o->annot.wasm))
		message__usage_error("an archive holds what --cwasm, --clif and --wasm gave when it"
				     " was made: give them to hotblocks --archive");
	if (o->clif_module && (!o->annot.cwasm || !o->annot.wasm || o->archive_out || o->from_archive))
		message__usage_error("--clif-module FILE needs --cwasm and --wasm, and streams");
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

/* The streams of the archive at path (archive-file.h) into s; the answers the
 * report would read from other files replace those files (archived.h). */
static int read_archive(struct options *o, struct stream *s, const char *path)
{
	char err[1024];
	int ret;

	if ((ret = archive_file__read(path, &o->archive, err, sizeof(err))))
		return message__error("%s", err);
	archived__set_mode(ARCHIVED_REPLAY);
	if ((ret = archived__read(o->archive.answers, o->archive.answers_len, "answers", err,
				  sizeof(err))))
		return message__error(ret == -ENOMEM ? "out of memory" : "%s: %s", path, err);
	for (size_t i = 0; i < o->archive.streams_nr; i++) {
		const struct archive_stream *as = &o->archive.streams[i];
		FILE *f = fmemopen(as->buf, as->len ? as->len : 1, "r");

		if (!f)
			return message__error("out of memory");
		if (!as->len)
			fgetc(f);
		ret = stream__read(s, f, as->name, err, sizeof(err));
		fclose(f);
		if (ret)
			return message__error("%s (in the archive %s)", err, path);
	}
	if ((ret = stream__finish(s)))
		return message__error(ret == -ERANGE ? "the samples of one offset, summed over all"
				      " inputs, overflow 64 bits" : "out of memory");
	/* the command that shows one function, as where it was made */
	strbuf_reset(&o->command);
	strbuf_addstr(&o->command, o->archive.command);
	return cli__stream_inputs(s) ? message__error("out of memory") : 0;
}

/* The streams files[0..n) (none: standard input), kept whole for the archive,
 * read into s; the annotator's answers are kept from now on (archived.h). */
static int read_for_archive(struct options *o, struct stream *s, char **files, int n)
{
	char err[1024];
	int ret;

	if (n > ARCHIVE_FILE_MAX_STREAMS)
		return message__error("an archive holds at most %d streams, not %d",
				      ARCHIVE_FILE_MAX_STREAMS, n);
	for (int i = 0; i < (n ? n : 1); i++) {
		struct archive_stream *as = &o->archive.streams[o->archive.streams_nr];
		const char *path = n && strcmp(files[i], "-") ? files[i] : "/dev/stdin";
		uint8_t *buf;
		FILE *f;

		if (read_file(path, 1u << 30, "the 1 GiB a stream may have in an archive",
			      READ_FILE_PIPES, &buf, &as->len, err, sizeof(err)))
			return message__error("%s", err);
		as->buf = (char *)buf;
		o->archive.streams_nr++;
		if (!(as->name = strdup(n && strcmp(files[i], "-") ? files[i] : CLI_STDIN_NAME)))
			return message__error("out of memory");
		/* the code files name, as code lines: an archive needs no file */
		struct strbuf ex = { 0 };

		ret = stream__expand_code_files(as->buf, as->len, &ex, s->code_files_also, s->code_files_also_nr,
						as->name, err, sizeof(err));
		if (ret < 0) {
			strbuf_release(&ex);
			return message__error(ret == -ENOMEM ? "out of memory" : "%s", err);
		}
		if (ret > 0) {
			free(as->buf);
			as->buf = ex.buf;
			as->len = ex.len;
		}
		if (!(f = fmemopen(as->buf, as->len ? as->len : 1, "r")))
			return message__error("out of memory");
		if (!as->len)
			fgetc(f);
		ret = stream__read(s, f, as->name, err, sizeof(err));
		fclose(f);
		if (ret)
			return message__error("%s", err);
	}
	archived__set_mode(ARCHIVED_KEEP);
	if ((ret = stream__finish(s)))
		return message__error(ret == -ERANGE ? "the samples of one offset, summed over all"
				      " inputs, overflow 64 bits" : "out of memory");
	return cli__stream_inputs(s) ? message__error("out of memory") : 0;
}

/* --archive: [Source] of every row, not only the sampled ones. */
static enum report_source every_row(void *arg, size_t obj)
{
	(void)arg, (void)obj;
	return REPORT_SOURCE_ALL;
}

/*
 * --archive: every function of the report opened whole, with its source
 * lines, so that each answer any report of the archive asks for is kept;
 * then the archive written (through output-file.h: never over an input).
 */
static int write_archive(struct options *o, struct report *rep, struct annotator *annot)
{
	struct strbuf answers = { 0 };
	struct output_file out;
	char err[1024];
	int ret = 0;

	/* each row's lookups are made as it is built: a window at a time */
	for (size_t i = 0; !ret && i < rep->funcs_nr; i++) {
		size_t next = 0;
		long n = 0;

		ret = report__func_open_rows(rep, i);
		while (!ret && (n = report__func_rows(rep, i, &next)) > 0)
			;
		if (!ret && n < 0)
			ret = (int)n;
		report__func_close(rep, i);
	}
	if (ret)
		return message__error(ret == -ENOMEM ? "out of memory" :
				      "a function disassembles otherwise than it ranked (a bug)"), EXIT_INPUT;
	annotator__keep(annot);
	if (archived__write(&answers) || o->command.oom) {
		strbuf_release(&answers);
		return message__error("out of memory"), EXIT_INPUT;
	}
	o->archive.answers = answers.buf ? answers.buf : strdup("");
	o->archive.answers_len = answers.len;
	o->archive.command = strdup(o->command.buf);
	if (!o->archive.answers || !o->archive.command)
		return message__error("out of memory"), EXIT_INPUT;
	if ((ret = output_file__open(&out, o->archive_out)))
		return ret == -EEXIST ? EXIT_USAGE : EXIT_INPUT;
	ret = archive_file__write(out.f, &o->archive, err, sizeof(err));
	if (ret)
		message__error("%s: %s", o->archive_out, err);
	ret = output_file__commit(&out, ret);
	return !ret ? EXIT_OK : ret == -EEXIST ? EXIT_USAGE : EXIT_INPUT;
}

static int cmp_keep(const void *a, const void *b)
{
	const struct clif_keep *x = a, *y = b;

	if (x->module != y->module)
		return x->module < y->module ? -1 : 1;
	return x->func < y->func ? -1 : x->func > y->func;
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The lines of --clif-known FILE, sorted, in *lines (and their text in *buf). */
static int read_known(const char *path, uint8_t **buf, char ***lines, size_t *nr)
{
	size_t len = 0, n = 0, i;
	char err[1024], *p;

	*lines = NULL;
	*nr = 0;
	if (!path)
		return 0;
	if (read_file(path, 1u << 30, "1 GiB", 0, buf, &len, err, sizeof(err)))
		return message__error("%s", err);
	for (i = 0; i < len; i++)
		n += (*buf)[i] == '\n';
	if (!(*lines = calloc(n + 2, sizeof(**lines))) || !(p = realloc(*buf, len + 1)))
		return message__error("out of memory");
	*buf = (uint8_t *)p;
	p[len] = '\0';
	for (char *line = p, *nl; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		if (nl)
			*nl = '\0';
		(*lines)[(*nr)++] = line;
		if (!nl)
			break;
	}
	qsort(*lines, *nr, sizeof(**lines), cmp_str);
	return 0;
}

/* A symbol that can name a CLIF file's function (clif.c reads no other). */
static bool printable(const char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			return false;
	return true;
}

/*
 * --clif-module FILE: the .cwasm symbol of each sampled function (matched
 * as the report matches it) on standard output, one a line, and FILE, the
 * --wasm module with every other function's code stubbed (clif-module.h),
 * and those --clif-known lists too (their CLIF is had already).
 */
static int clif_module(const struct options *o, const struct stream *s)
{
	struct clif_keep *keep = NULL;
	struct clif_module_stats st;
	struct output_file out;
	struct cwasm *c = NULL;
	const char **syms = NULL;
	char **known = NULL;
	size_t nr = 0, n = 0, len = 0, nknown = 0, i;
	uint8_t *buf = NULL, *known_buf = NULL;
	char err[1024];
	int ret = EXIT_INPUT;

	if (cwasm__open(&c, o->annot.cwasm, err, sizeof(err)) < 0) {
		message__error("%s", err);
		return EXIT_INPUT;
	}
	if (read_known(o->clif_known, &known_buf, &known, &nknown))
		goto out;
	keep = calloc(s->objects_nr + 1, sizeof(*keep));
	syms = calloc(s->objects_nr + 1, sizeof(*syms));
	if (!keep || !syms) {
		message__error("out of memory");
		goto out;
	}
	for (i = 0; i < s->objects_nr; i++) {
		const struct stream_object *obj = &s->objects[i];
		const struct cwasm_func *cf;
		bool stale;

		if (obj->kind == HB_KIND_NATIVE)
			continue;
		cf = cwasm__match(c, obj->name, obj->code, obj->code_nr, obj->size,
				  obj->kind == HB_KIND_JIT, &stale);
		if (!cf || !printable(cf->symbol))
			continue;
		syms[n++] = cf->symbol;
		if (nknown && bsearch(&cf->symbol, known, nknown, sizeof(*known), cmp_str))
			continue;
		if (cf->module >= 0 && cf->func_index >= 0)
			keep[nr++] = (struct clif_keep){ (uint32_t)cf->module, (uint32_t)cf->func_index };
	}
	qsort(keep, nr, sizeof(*keep), cmp_keep);
	for (i = 1, len = nr ? 1 : 0; i < nr; i++)
		if (cmp_keep(&keep[i], &keep[len - 1]))
			keep[len++] = keep[i];
	nr = len;
	if (read_file(o->annot.wasm, 1u << 30, "1 GiB", 0, &buf, &len, err, sizeof(err))) {
		message__error("%s", err);
		goto out;
	}
	if (clif_module__make(buf, len, keep, nr, &st, err, sizeof(err))) {
		message__error("%s: %s", o->annot.wasm, err);
		goto out;
	}
	if (output_file__open(&out, o->clif_module))
		goto out;
	if (output_file__commit(&out, fwrite(buf, 1, len, out.f) == len ? 0 : -EIO))
		goto out;
	for (i = 0; i < n; i++)
		printf("%s\n", syms[i]);
	ret = fflush(stdout) || ferror(stdout) ? message__error("standard output: write error"),
		EXIT_INPUT : EXIT_OK;
out:
	free(buf);
	free(keep);
	free(syms);
	free(known);
	free(known_buf);
	cwasm__close(c);
	return ret;
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
		.tiers_apart = o->tiers_apart,
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
	if (o->archive_out) {
		/* whatever a report of the archive shows, it was looked up */
		repo = (struct report_opts){ .list_selected = true, .whole_functions = true,
					     .points = true, .source_lines = true,
					     .source_rows = every_row, .tiers_apart = o->tiers_apart };
		o->rank.no_threshold = true;
		o->rank.disassemble_all = true;
		if (o->kinds || o->rank.function)
			message__usage_error("--archive keeps every function: --kind and --function"
					     " are for its reports");
	}
	stream__init(&s);
	/* the .cwasm given: a copy of the one a `code-file` record names */
	s.code_files_also = (const char *const *)&o->annot.cwasm;
	s.code_files_also_nr = o->annot.cwasm != NULL;
	if (o->from_archive ? read_archive(o, &s, files[0]) :
	    o->archive_out ? read_for_archive(o, &s, files, nfiles) : pipeline__read(&s, files, nfiles))
		goto out;
	if (o->clif_module) {
		ret = clif_module(o, &s);
		goto out;
	}
	if (cli__keep_kinds(&s, o->kinds))
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
	/* every listed function is built whole again: ranking keeps no rows */
	o->rank.whole_only = repo.whole_functions;
	if (rank__build(&r, &s, ev, &o->rank) || report__build(&rep, &r, &o->rank, annot, &repo)) {
		message__error("out of memory");
		goto out;
	}
	if (o->command.oom) {
		message__error("out of memory");
		goto out;
	}
	if (o->archive_out)
		ret = write_archive(o, &rep, annot);
	else
		ret = pipeline__write(&(struct pipeline){ o->format, o->output, o->color, &rep, notes,
							  render, o->page_budget, o->command.buf });
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
	archive_file__release(&o.archive);
	archived__release();
	return ret;
}

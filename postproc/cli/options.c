/* SPDX-License-Identifier: MIT */
/* The option table (options.h, options.def). */
#include <getopt.h>
#include <stdbool.h>
#include <string.h>

#include "lib/util.h"
#include "message.h"
#include "options.h"
#include "render/formats.h"

enum arg { A_NONE, A_REQUIRED, A_OPTIONAL };
enum route { R_HOTBLOCKS, R_PLUGIN, R_WRAPPER, R_WASMTIME, R_WASMTIME_COMPILE, R_WASMTIME_RUN };
enum row_kind { ROW_OPTION, ROW_ALIAS, ROW_DOC, ROW_TEXT, ROW_FORMATS };

struct row {
	enum row_kind kind;
	unsigned cmds;
	enum option_id id;
	char letter;
	const char *name;	/* long name; DOC: its term; TEXT: its line */
	enum arg arg;
	const char *meta;
	enum route route;
	const char *help;
};

static const struct row rows[] = {
#define OPTION(CMDS, ID, SHORT, LONG, ARG, META, ROUTE, HELP) \
	{ ROW_OPTION, CMDS, OPT_##ID, SHORT, LONG, ARG, META, ROUTE, HELP },
#define ALIAS(CMDS, ID, LONG) { ROW_ALIAS, CMDS, OPT_##ID, 0, LONG, A_NONE, NULL, R_HOTBLOCKS, NULL },
#define DOC(CMDS, TERM, HELP) { ROW_DOC, CMDS, OPT_NONE, 0, TERM, A_NONE, NULL, R_HOTBLOCKS, HELP },
#define TEXT(CMDS, LINE) { ROW_TEXT, CMDS, OPT_NONE, 0, LINE, A_NONE, NULL, R_HOTBLOCKS, NULL },
#define FORMATS(CMDS) { ROW_FORMATS, CMDS, OPT_FORMAT, 0, NULL, A_NONE, NULL, R_HOTBLOCKS, NULL },
#include "options.def"
};

static const char *const cmd_names[] = {
	"hotblocks", "diff", "perf", "perf-record", "perf-report", "perf-wasm", "perf-diff",
};

static const char *const route_names[] = {
	[R_HOTBLOCKS] = "hotblocks", [R_PLUGIN] = "plugin", [R_WRAPPER] = "wrapper",
	[R_WASMTIME] = "wasmtime", [R_WASMTIME_COMPILE] = "wasmtime-compile",
	[R_WASMTIME_RUN] = "wasmtime-run",
};

/* getopt_long's value of a row's long name, and of a format's option. */
#define VAL_ROW(i) (256 + (int)(i))
#define VAL_FORMAT(f) (256 + (int)ARRAY_SIZE(rows) + (int)(f))

/* The commands that take a format's option: those of the FORMATS row that
 * have a way to write it (hotblocks diff writes no dot). */
static unsigned format_cmds(const struct row *r, const struct output_format *f)
{
	unsigned diffs = C_DIFF | C_PDIFF;

	return f->option ? r->cmds & (f->diff_render ? C_ALL : ~diffs) : 0;
}

/* A format's argument: FILE, optional (--html[=FILE]) or required (--pprof FILE). */
static enum arg format_arg(const struct output_format *f)
{
	return !(f->needs & FORMAT_FILE) ? A_NONE : f->needs & FORMAT_BINARY ? A_REQUIRED : A_OPTIONAL;
}

static struct option longopts[ARRAY_SIZE(rows) + FORMAT__NR + 1];
static char shortopts[2 * ARRAY_SIZE(rows) + 2];

void options__init(struct options_parser *p, enum options_cmd cmd, int argc, char **argv)
{
	size_t nl = 0, ns = 0;

	*p = (struct options_parser){ cmd, argc, argv };
	shortopts[ns++] = ':';	/* our own message for a missing argument */
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct row *r = &rows[i];

		if (!(r->cmds & cmd))
			continue;
		if (r->kind == ROW_FORMATS) {
			for (size_t f = 0; f < FORMAT__NR; f++)
				if (format_cmds(r, &formats[f]) & cmd)
					longopts[nl++] = (struct option){
						formats[f].option,
						format_arg(&formats[f]) == A_REQUIRED ? required_argument :
						format_arg(&formats[f]) == A_OPTIONAL ? optional_argument :
						no_argument,
						NULL, VAL_FORMAT(f) };
			continue;
		}
		if (r->kind != ROW_OPTION && r->kind != ROW_ALIAS)
			continue;
		/* an alias answers as its option: getopt_long takes a shared prefix of both */
		size_t of = i;

		if (r->kind == ROW_ALIAS)
			while (of-- && !(rows[of].kind == ROW_OPTION && rows[of].id == r->id))
				;
		longopts[nl++] = (struct option){
			r->name, rows[of].arg == A_REQUIRED ? required_argument :
				 rows[of].arg == A_OPTIONAL ? optional_argument : no_argument,
			NULL, VAL_ROW(of) };
		if (r->letter) {
			shortopts[ns++] = r->letter;
			if (r->arg == A_REQUIRED)
				shortopts[ns++] = ':';
		}
	}
	longopts[nl] = (struct option){ NULL, 0, NULL, 0 };
	shortopts[ns] = '\0';
	opterr = 0;	/* our own messages, without argv[0] */
}

/* getopt_long's '?' for argument arg: unknown, or given "=value" it does not take. */
static void __attribute__((noreturn)) bad_option(const char *arg)
{
	const struct option *lo;

	if (!optopt)
		message__usage_error("unknown option '%s'", arg);
	if (optopt < 256 && !strchr(shortopts + 1, optopt))
		message__usage_error("unknown option '-%c'", optopt);
	for (lo = longopts; lo->name; lo++)
		if (lo->val == optopt && lo->has_arg == no_argument)
			message__usage_error("option '--%s' takes no argument", lo->name);
	message__usage_error("bad option '%s'", arg);
}

enum option_id options__next(struct options_parser *p, const char **arg,
			     const struct output_format **format)
{
	int c = getopt_long(p->argc, p->argv, shortopts, longopts, NULL);

	*arg = optarg;
	*format = NULL;
	if (c == -1)
		return OPT_NONE;
	if (c == ':')
		message__usage_error("option '%s' needs an argument", p->argv[optind - 1]);
	if (c == '?')
		bad_option(p->argv[optind - 1]);
	if (c >= VAL_FORMAT(0)) {
		*format = &formats[c - VAL_FORMAT(0)];
		return OPT_FORMAT;
	}
	if (c >= VAL_ROW(0))
		return rows[c - VAL_ROW(0)].id;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		if (rows[i].kind == ROW_OPTION && (rows[i].cmds & p->cmd) && rows[i].letter == c)
			return rows[i].id;
	message__usage_error("unknown option '-%c'", c);
}

/* Where help starts: the column of each command's usage text (the help
 * lines of a report's options are wrapped for 22, a comparison's for 23). */
static size_t column(enum options_cmd cmd)
{
	return cmd & (C_DIFF | C_PDIFF) ? 23 : 22;
}

/* One entry: the term's lines (the last followed by the help when it fits
 * before col), then the help's lines at col. */
static void put_entry(FILE *out, const char *term, size_t term_len, const char *help, size_t col)
{
	const char *line = term, *end = term + term_len, *nl;
	size_t at = 0;

	for (; (nl = memchr(line, '\n', (size_t)(end - line))); line = nl + 1)
		fprintf(out, "  %.*s\n", (int)(nl - line), line);
	fprintf(out, "  %.*s", (int)(end - line), line);
	at = 2 + (size_t)(end - line);
	if (!help) {
		fputc('\n', out);
		return;
	}
	/* a term as wide as the column, or wider, has its help below */
	if (at >= col) {
		fputc('\n', out);
		at = 0;
	}
	for (const char *h = help;; h = nl + 1) {
		nl = strchr(h, '\n');
		fprintf(out, "%*s%.*s\n", (int)(col - at), "", nl ? (int)(nl - h) : (int)strlen(h), h);
		at = 0;
		if (!nl)
			break;
	}
}

/* "-p, --percent P", "    --html[=FILE]": an option's term. */
static size_t option_term(char *buf, size_t len, char letter, const char *name, enum arg arg,
			  const char *meta)
{
	char lead[8] = "    ";
	int n;

	if (letter)
		snprintf(lead, sizeof(lead), "-%c, ", letter);
	n = snprintf(buf, len, "%s--%s%s%s%s", lead, name,
		     arg == A_REQUIRED ? " " : arg == A_OPTIONAL ? "[=" : "",
		     arg != A_NONE ? meta : "", arg == A_OPTIONAL ? "]" : "");

	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

void options__usage(FILE *out, enum options_cmd cmd)
{
	size_t col = column(cmd);
	char term[256];

	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct row *r = &rows[i];

		if (!(r->cmds & cmd))
			continue;
		switch (r->kind) {
		case ROW_TEXT:
			fprintf(out, "%s\n", r->name);
			break;
		case ROW_DOC:
			put_entry(out, r->name, strlen(r->name), r->help, col);
			break;
		case ROW_OPTION:
			if (r->help)
				put_entry(out, term, option_term(term, sizeof(term), r->letter, r->name,
								 r->arg, r->meta), r->help, col);
			break;
		case ROW_FORMATS:
			for (size_t f = 0; f < FORMAT__NR; f++) {
				const struct output_format *fm = &formats[f];

				if (!(format_cmds(r, fm) & cmd))
					continue;
				put_entry(out, term, option_term(term, sizeof(term), 0, fm->option,
								 format_arg(fm),
								 "FILE"),
					  cmd & (C_DIFF | C_PDIFF) ? fm->diff_help : fm->help, col);
			}
			break;
		case ROW_ALIAS:
			break;
		}
	}
}

void options__help(FILE *out, enum options_cmd cmd, const char *head)
{
	fputs(head, out);
	options__usage(out, cmd);
	fputs("\nExit status: 0 success, 1 bad input (or an I/O error), 2 bad command line.\n", out);
}

enum options_cmd options__cmd(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(cmd_names); i++)
		if (!strcmp(name, cmd_names[i]))
			return 1u << i;
	return 0;
}

static void put_cmds(FILE *out, unsigned cmds)
{
	bool first = true;

	for (size_t i = 0; i < ARRAY_SIZE(cmd_names); i++)
		if (cmds & (1u << i)) {
			fprintf(out, "%s%s", first ? "" : ",", cmd_names[i]);
			first = false;
		}
}

static void list_row(FILE *out, unsigned cmds, char letter, const char *name, enum arg arg,
		     const char *meta, enum route route)
{
	static const char *const args[] = { "none", "required", "optional" };

	put_cmds(out, cmds);
	fprintf(out, "\t%c\t%s\t%s\t%s\t%s\n", letter ? letter : '-', name, args[arg],
		arg != A_NONE && meta ? meta : "-", route_names[route]);
}

void options__list(FILE *out)
{
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		const struct row *r = &rows[i];
		const struct row *o = r;

		switch (r->kind) {
		case ROW_ALIAS:
			for (size_t k = 0; k < i; k++)
				if (rows[k].kind == ROW_OPTION && rows[k].id == r->id)
					o = &rows[k];
			list_row(out, r->cmds, 0, r->name, o->arg, o->meta, o->route);
			break;
		case ROW_OPTION:
			list_row(out, r->cmds, r->letter, r->name, r->arg, r->meta, r->route);
			break;
		case ROW_FORMATS:
			for (size_t f = 0; f < FORMAT__NR; f++) {
				unsigned cmds = format_cmds(r, &formats[f]);

				if (cmds)
					list_row(out, cmds, 0, formats[f].option,
						 format_arg(&formats[f]),
						 "FILE", R_HOTBLOCKS);
			}
			break;
		default:
			break;
		}
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * The option table (options.def): every command's options, parsed, listed
 * in usage texts and handed to scripts from the same rows.
 */
#ifndef POSTPROC_CLI_OPTIONS_H
#define POSTPROC_CLI_OPTIONS_H

#include <stdio.h>

struct output_format;

/* The commands, as sets. */
enum options_cmd {
	C_REPORT = 1 << 0,	/* hotblocks */
	C_DIFF = 1 << 1,	/* hotblocks diff */
	C_PRUN = 1 << 2,	/* perf hotblocks COMMAND */
	C_PRECORD = 1 << 3,	/* perf hotblocks record */
	C_PREPORT = 1 << 4,	/* perf hotblocks report */
	C_PWASM = 1 << 5,	/* perf hotblocks wasm */
	C_PDIFF = 1 << 6,	/* perf hotblocks diff */
	C_ALL = (1 << 7) - 1,
	/* every command that writes a report of a profile, of a comparison */
	C_REPORTS = C_REPORT | C_PRUN | C_PREPORT | C_PWASM,
	C_DIFFS = C_DIFF | C_PDIFF,
};

/* What a command's parser sees of each option. */
enum option_id {
	OPT_NONE,
#define OPTION(CMDS, ID, SHORT, LONG, ARG, META, ROUTE, HELP) OPT_##ID,
#define ALIAS(CMDS, ID, LONG)
#define DOC(CMDS, TERM, HELP)
#define TEXT(CMDS, LINE)
#define FORMATS(CMDS)
#include "options.def"
	OPT_FORMAT,		/* an output's option (render/formats.def) */
};

/* One command's parse of argv. */
struct options_parser {
	enum options_cmd cmd;
	int argc;
	char **argv;
};

/* Begin parsing argv (argv[0] the command) as cmd's options. */
void options__init(struct options_parser *p, enum options_cmd cmd, int argc, char **argv);

/*
 * The next option: its id, with its argument in *arg (NULL: none) and, for
 * OPT_FORMAT, the output it chooses in *format; 0 when no option is left
 * (optind is the first operand). An option the command does not know, or
 * given a wrong argument, is a usage error (message.h).
 */
enum option_id options__next(struct options_parser *p, const char **arg,
			     const struct output_format **format);

/*
 * cmd's option list, as its usage text shows it: two spaces, the option's
 * term padded to the command's column (or alone on its line when longer),
 * its help lines.
 */
void options__usage(FILE *out, enum options_cmd cmd);

/* cmd's usage text: its head, its option list, the exit statuses. */
void options__help(FILE *out, enum options_cmd cmd, const char *head);

/* The command called name ("hotblocks", "diff", "perf", "perf-record",
 * "perf-report", "perf-wasm", "perf-diff"), or 0. */
enum options_cmd options__cmd(const char *name);

/*
 * The table for scripts, one line per option name and command set, fields
 * separated by tabs: the commands (names as above, ',' between them), the
 * letter or '-', the long name, none|required|optional, the argument's
 * name or '-', and where perf hotblocks sends it: hotblocks|plugin|
 * wrapper|wasmtime|wasmtime-compile|wasmtime-run. An output that names
 * its file (FORMAT_FILE: --html[=FILE]) is optional with FILE, and no
 * other option is: perf hotblocks knows the report's file by it.
 */
void options__list(FILE *out);

#endif

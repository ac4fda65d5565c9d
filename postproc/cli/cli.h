/* SPDX-License-Identifier: MIT */
/* What the commands share: reading stream files with messages that say what to do, colour. */
#ifndef POSTPROC_CLI_H
#define POSTPROC_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "message.h"
#include "stream/stream.h"

struct annot_inputs;

/* The value of a count option opt (a decimal integer); a usage error if it is not one. */
size_t cli__parse_count(const char *opt, const char *arg);

/* --kind ARG (jit, native, kernel, or a comma list) or-ed into *kinds;
 * a usage error for anything else. */
void cli__parse_kinds(const char *arg, unsigned *kinds);

/* Keep only the samples of kinds in s (finished): stream__keep_kinds, unless
 * kinds is 0 or all of them. Returns 0, or -1 after an error message. */
int cli__keep_kinds(struct stream *s, unsigned kinds);

/* --color's argument; a usage error if it is not auto, always or never. */
int cli__parse_color(const char *arg);

struct output_format;

/*
 * An output chosen by its option (--json, --html[=FILE], --dot[=FILE];
 * render/formats.h): another one already chosen (*format not NULL) is a
 * usage error naming both; file (NULL: none given) becomes *format_file,
 * and an empty one is a usage error.
 */
void cli__set_format(const struct output_format **format, const struct output_format *f, const char *file,
		     const char **format_file);

/* -o FILE beside an output's FILE: the same one, or a usage error; *output
 * becomes the file to write (NULL: standard output). */
void cli__output_file(const char **output, const char *format_file);

enum cli_color { CLI_COLOR_AUTO, CLI_COLOR_ALWAYS, CLI_COLOR_NEVER };

/* --color's argument (NULL: plain --color, always); -1 if it is not auto, always or never. */
int cli__color_mode(const char *arg);

/* Whether to colour what goes to out: always, never, or auto: out is a
 * terminal on standard output and NO_COLOR is unset or empty. */
bool cli__use_color(enum cli_color mode, FILE *out);

/*
 * Read the stream at path ("-": standard input, named CLI_STDIN_NAME) into s,
 * naming it name in what it tells (NULL: path; perf hotblocks diff names a
 * temporary stream after the recording it was made from).
 * Returns 0; -ENOMEM; or another negative errno with the message in err
 * ("FILE:LINE: ..."; for a file of another kind, what it is and what to run
 * instead).
 */
int cli__read_stream(struct stream *s, const char *path, const char *name, char *err,
		     size_t errlen);

/*
 * Before anything is read: the inputs the command line names (the streams;
 * each of sides' --cwasm, --wasm, --clif) noted (output-file.h), and an
 * output that is one of them refused: the error names both, exit EXIT_USAGE.
 */
void cli__check_output(const char *output, char *const *streams, int nstreams,
		       const struct annot_inputs *annot, int sides);

/*
 * The files a stream was made from, as inputs no output may replace
 * (output-file.h): each section's perf.data, the jitdumps and the files of
 * its code objects. 0 or -ENOMEM.
 */
int cli__stream_inputs(const struct stream *s);

/* Standard input is a pipe (perf script ... | hotblocks): the plugin's
 * warnings were just printed on the same terminal. */
bool cli__stdin_is_piped(void);

#endif

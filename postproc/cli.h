/* SPDX-License-Identifier: MIT */
/* What the commands share: reading stream files with messages that say what to do, colour. */
#ifndef POSTPROC_CLI_H
#define POSTPROC_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "stream.h"

/* Standard input's name in messages. */
#define CLI_STDIN_NAME "<stdin>"

enum cli_color { CLI_COLOR_AUTO, CLI_COLOR_ALWAYS, CLI_COLOR_NEVER };

/* --color's argument (NULL: plain --color, always); -1 if it is not auto, always or never. */
int cli__color_mode(const char *arg);

/* Whether to colour what goes to out: always, never, or auto: out is a
 * terminal on standard output and NO_COLOR is unset or empty. */
bool cli__use_color(enum cli_color mode, FILE *out);

/*
 * Read the stream at path ("-": standard input, named CLI_STDIN_NAME) into s.
 * Returns 0; -ENOMEM; or another negative errno with the message in err
 * ("FILE:LINE: ..."; for a file of another kind, what it is and what to run
 * instead).
 */
int cli__read_stream(struct stream *s, const char *path, char *err, size_t errlen);

/* Standard input is a pipe (perf script ... | hotblocks): the plugin's
 * warnings were just printed on the same terminal. */
bool cli__stdin_is_piped(void);

#endif

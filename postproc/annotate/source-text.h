/* SPDX-License-Identifier: MIT */
/* Lines of source files, for printing them above the instructions they produced. */
#ifndef POSTPROC_SOURCE_TEXT_H
#define POSTPROC_SOURCE_TEXT_H

#include <stddef.h>

struct source_text;

/* An empty cache; NULL on allocation failure. */
struct source_text *source_text__new(void);
void source_text__free(struct source_text *st);

/*
 * Line `line` (1-based) of the file at path, without its newline: *len bytes
 * at *text (valid until source_text__free), or *text NULL when the file
 * cannot be read, is larger than 16 MiB, or is shorter. Each file is read
 * once; a file that failed is not tried again. Returns 0, or -ENOMEM (then
 * *text is NULL too).
 */
int source_text__line(struct source_text *st, const char *path, unsigned line, const char **text,
		      size_t *len);

#endif

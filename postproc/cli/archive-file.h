/* SPDX-License-Identifier: MIT */
/*
 * The archive a profile travels in (postproc/FORMATS.md, "The archive"): a
 * gzip-compressed POSIX tar, written and read with libarchive, of the
 * streams and the answers the report read from other files
 * (annotate/archived.h). Reading it extracts nothing: its members are read
 * into memory, and a member that is not one of the format's is refused.
 */
#ifndef POSTPROC_CLI_ARCHIVE_FILE_H
#define POSTPROC_CLI_ARCHIVE_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define ARCHIVE_FILE_VERSION 1
#define ARCHIVE_FILE_MAX_STREAMS 64

/* One stream: its text and the name the report gives it. */
struct archive_stream {
	char *name;	/* owned */
	char *buf;	/* owned, len bytes */
	size_t len;
};

struct archive_contents {
	struct archive_stream streams[ARCHIVE_FILE_MAX_STREAMS];
	size_t streams_nr;
	char *command;		/* owned: render_opts.command when it was made */
	char *answers;		/* owned: the member "answers" (archived__write) */
	size_t answers_len;
};

/* Whether the file at path starts as an archive can (gzip or tar), not a stream. */
bool archive_file__is(const char *path);

/* Write c to f; 0, or -EIO / -ENOMEM with the reason in err. */
int archive_file__write(FILE *f, const struct archive_contents *c, char *err, size_t errlen);

/* Read the archive at path into c; 0, or a negative errno with "PATH: ..."
 * (naming the member) in err. */
int archive_file__read(const char *path, struct archive_contents *c, char *err, size_t errlen);

void archive_file__release(struct archive_contents *c);

#endif

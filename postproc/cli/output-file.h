/* SPDX-License-Identifier: MIT */
/*
 * Writing a report without losing what the user had.
 *
 * Every file the command reads is an input (lib/inputs.h). An output that
 * is one of them -- the same device and inode, whatever name, symlink or
 * hard link leads to it -- is refused, and so is an existing file in a
 * directory that is an input (--clif DIR, perf record --threads' DIR).
 *
 * The output is written by the plugin's writer (plugin/lib/atomic-file.h):
 * a regular file, or none yet, goes to a new file beside it and is renamed
 * over it only once complete, so a run that fails, or is ended by SIGINT,
 * SIGTERM, SIGHUP or SIGXFSZ, leaves the earlier file as it was and no
 * temporary file. A symlink is written through; anything else (/dev/null,
 * a FIFO, a terminal) is written in place, as standard output is.
 */
#ifndef POSTPROC_OUTPUT_FILE_H
#define POSTPROC_OUTPUT_FILE_H

#include <stdio.h>

#include "../plugin/lib/atomic-file.h"

/*
 * Whether the file path may be written: -EEXIST after an error "the output
 * PATH is <what>: refusing to overwrite it" when it is an input, else 0.
 */
int output_file__check(const char *path);

struct output_file {
	const char *path;	/* as given; NULL: standard output */
	struct atomic_file file;	/* path's */
	FILE *f;		/* what to write to */
};

/*
 * Open the output path (NULL: standard output) into *of. Returns 0; -EEXIST
 * when it is an input; -1 after another error. On failure *of holds nothing.
 */
int output_file__open(struct output_file *of, const char *path);

/*
 * After the render (written: its result, -ENOMEM meaning out of memory):
 * flushed, checked, and renamed into place unless it became an input
 * meanwhile (a file the render read). Returns 0; -EEXIST; -1 after another
 * error, with the temporary file removed and the target untouched. *of holds
 * nothing afterwards.
 */
int output_file__commit(struct output_file *of, int written);

#endif

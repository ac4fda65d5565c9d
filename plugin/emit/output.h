/* SPDX-License-Identifier: MIT */
/*
 * Where the stream goes: standard output, or out=FILE. out=FILE is checked
 * before any sample is read, so that a missing directory or a forbidden path
 * fails the run at once; a file that is one of the run's inputs (through any
 * symlink or hard link) is refused. The stream is written at the end to a
 * new file beside FILE and renamed over it once complete (a symlink is
 * written through), so a run that fails leaves the earlier file as it was;
 * what is not a regular file (/dev/null, a FIFO) is written in place
 * (lib/atomic-file.h, the post-processor's writer too).
 */
#ifndef PLUGIN_EMIT_OUTPUT_H
#define PLUGIN_EMIT_OUTPUT_H

#include "../jit/dumps.h"
#include "../lib/atomic-file.h"
#include "stream-section.h"

struct output {
	const char *path;		/* borrowed: out=FILE; NULL: standard output */
	const char *perf_data;		/* borrowed: the recording, "-" for a pipe */
	const struct dumps *dumps;	/* borrowed: the jitdumps read, inputs too */
	struct atomic_file file;	/* out=FILE being written; one that is not a regular
					 * file is opened by output__open and kept open */
	struct atomic_file_guard guard;	/* the file's: refuses the inputs above */
};

/* The stream to path (NULL: standard output), never over perf_data or one
 * of dumps' files; all must outlive o. */
void output__init(struct output *o, const char *path, const char *perf_data, const struct dumps *dumps);
void output__release(struct output *o);

/* Check out=FILE, if one was given (one that is not a regular file is opened
 * into o->file). 0, or -1 after printing the error (the run must end: nothing
 * it produced could be kept). Call it once the dumps are open: they are
 * inputs too. */
int output__open(struct output *o);

/* Assemble the stream section of in and write it. 0, or a negative errno
 * after printing the error (out of memory while assembling the section is
 * not printed). */
int output__write(struct output *o, const struct stream_section_inputs *in);

#endif

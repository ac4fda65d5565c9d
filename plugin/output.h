/* SPDX-License-Identifier: MIT */
/*
 * Where the stream goes: standard output, or out=FILE. out=FILE is opened
 * before any sample is read, so that a missing directory or a forbidden path
 * fails the run at once, and it is never truncated then: a file that is one
 * of the run's inputs (through any symlink or hard link) is refused, and the
 * rest is cut to length only when the stream is written.
 */
#ifndef PLUGIN_OUTPUT_H
#define PLUGIN_OUTPUT_H

struct run;

/* Open out=FILE, if one was given, into run->out_fd. 0, or -1 after printing
 * the error (the run must end: nothing it produced could be kept). Call it
 * once the dumps are open: they are inputs too. */
int output__open(struct run *run);

/* Write the run's stream section. 0, or a negative errno after printing the
 * error (out of memory while assembling the section is not printed). */
int output__write(struct run *run);

#endif

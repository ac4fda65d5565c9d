/* SPDX-License-Identifier: MIT */
/*
 * Where the stream goes: standard output, or out=FILE. out=FILE is checked
 * before any sample is read, so that a missing directory or a forbidden path
 * fails the run at once; a file that is one of the run's inputs (through any
 * symlink or hard link) is refused. The stream is written at the end to a
 * new file beside FILE and renamed over it once complete (a symlink is
 * written through), so a run that fails leaves the earlier file as it was;
 * what is not a regular file (/dev/null, a FIFO) is written in place.
 */
#ifndef PLUGIN_OUTPUT_H
#define PLUGIN_OUTPUT_H

struct session;

/* Check out=FILE, if one was given (one that is not a regular file is opened
 * into session->out_fd). 0, or -1 after printing the error (the run must end:
 * nothing it produced could be kept). Call it once the dumps are open: they
 * are inputs too. */
int output__open(struct session *session);

/* Write the run's stream section. 0, or a negative errno after printing the
 * error (out of memory while assembling the section is not printed). */
int output__write(struct session *session);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The files the command reads: noted here when one is opened (a stream, a
 * .cwasm, a module, a CLIF file, a source file, an ELF file read for its
 * DWARF) or named (the files of the command line before they are read; the
 * perf.data and the jitdumps a stream was made from), by device and inode,
 * so that no output replaces one of them (cli/output-file.h).
 */
#ifndef POSTPROC_LIB_INPUTS_H
#define POSTPROC_LIB_INPUTS_H

/*
 * Note the regular file open on fd, named path, as an input ("the input
 * PATH" in messages). Safe from several threads. 0 or -ENOMEM.
 */
int inputs_note_fd(int fd, const char *path);

/*
 * Note what is at path now, if anything, as an input called what in
 * messages ("the --cwasm file m.cwasm"); a directory makes every file in it
 * one. 0 or -ENOMEM.
 */
int inputs_note_path(const char *path, const char *what);

/* Forget every input noted (a test's fresh start). */
void inputs_forget(void);

/*
 * Whether path is an input, or an existing file in an input directory:
 * then 1, with how messages name that input in *what (malloc()ed, the
 * caller's); 0 when it is not; -ENOMEM.
 */
int inputs_which(const char *path, char **what);

#endif

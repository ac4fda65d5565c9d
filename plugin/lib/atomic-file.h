/* SPDX-License-Identifier: MIT */
/*
 * Writing an output without losing what the user had: the one writer of
 * both programs' files (the plugin's out=, the post-processor's reports).
 *
 * An output that is a regular file, or none yet, is written to a new file
 * beside it (".NAME.XXXXXX", with the replaced file's mode and, for root,
 * owner; else 0666 less the umask) and renamed over it only once complete:
 * a run that fails leaves the earlier file as it was. A symlink is written
 * through: the file it names is replaced, the link stays. Anything else
 * (/dev/null, a FIFO, a terminal) is written in place.
 *
 * An output may not be one of the run's inputs: the writer asks the
 * caller's guard (which knows the inputs) at every step where the output's
 * file could be one, and the same-file tests below are what a guard is
 * made of.
 */
#ifndef PLUGIN_LIB_ATOMIC_FILE_H
#define PLUGIN_LIB_ATOMIC_FILE_H

#include <stdbool.h>
#include <stdio.h>
#include <sys/stat.h>

/*
 * What an output may not replace, asked before the output is opened, once
 * a file written in place is open (it may have become a link to an input
 * meanwhile) and before the rename (an input read since, a link made
 * since); st is the file the output's path names then. 0 lets the writer
 * go on; a positive value (after the guard said why) stops it, and the
 * writer returns that value.
 */
struct atomic_file_guard {
	int (*check)(const char *path, const struct stat *st, void *ctx);
	void *ctx;
};

/* Flags of atomic_file__open. */
enum {
	/* SIGHUP, SIGINT, SIGTERM or SIGXFSZ while the new file exists
	 * removes it before the signal ends the run (one such file at a time;
	 * an ignored signal stays ignored). Not for a plugin: perf owns its
	 * signals. */
	ATOMIC_FILE_SIGNALS = 1 << 0,
};

struct atomic_file {
	const char *path;	/* borrowed: as given */
	char *target;		/* owned: the file the rename replaces (a symlink's target) */
	char *tmp;		/* owned: the new file beside target; NULL: written in place */
	FILE *f;		/* what to write to */
	const struct atomic_file_guard *guard;	/* borrowed; NULL: none */
	bool armed;		/* ATOMIC_FILE_SIGNALS for tmp */
};

/*
 * Open path for writing into *af; the guard (NULL: none) must outlive it.
 * A missing directory or a file its owner made read-only fails now.
 * Returns 0, the guard's refusal (> 0), or a negative errno; on failure
 * *af holds nothing.
 */
int atomic_file__open(struct atomic_file *af, const char *path, const struct atomic_file_guard *guard,
		      unsigned flags);

/* Close af->f: 0, or a negative errno (the write failed). */
int atomic_file__close(struct atomic_file *af);

/*
 * Once closed: the new file renamed over the target, unless the guard
 * refuses it now; nothing to do for a file written in place. Returns 0,
 * the guard's refusal or a negative errno (the new file is still there
 * for atomic_file__release to remove).
 */
int atomic_file__commit(struct atomic_file *af);

/* Close what is open and remove the new file unless renamed: the target
 * stays as it was. *af holds nothing afterwards. */
void atomic_file__release(struct atomic_file *af);

/* Whether a and b are one file: the same device and inode, whatever name,
 * symlink or hard link leads to each. */
bool atomic_file__same(const struct stat *a, const struct stat *b);

/* Whether st is the recording perf reads at path: that file, or DIR/data
 * when path is a directory (perf record --threads writes its perf.data so). */
bool atomic_file__is_recording(const struct stat *st, const char *path);

#endif

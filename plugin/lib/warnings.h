/* SPDX-License-Identifier: MIT */
/*
 * The plugin's warnings: each distinct one printed once on standard error
 * ("hotblocks: warning: ...", shown printable: message.h) and kept for the
 * stream, which repeats them for the post-processor (STREAM.md `warning`);
 * and its notes, kept the same way with "note: " in front.
 * Every room that finds something wrong for the user is handed the run's
 * one collector.
 */
#ifndef PLUGIN_LIB_WARNINGS_H
#define PLUGIN_LIB_WARNINGS_H

#include <stddef.h>

/* Distinct warnings kept for the stream; all are printed. */
#define WARNINGS_KEPT 64

struct warnings {
	char *kept[WARNINGS_KEPT];	/* owned, in the order first said */
	size_t nr;
};

/* Say a warning (printf-style, one line, no trailing newline) unless the same
 * text was said before; keep it while there is room. */
__attribute__((format(printf, 2, 3)))
void warnings__add(struct warnings *w, const char *fmt, ...);

/* The same for what the user may like to know but is not wrong: said as
 * "hotblocks: note: ..." and kept as "note: ..." (STREAM.md `warning`). */
__attribute__((format(printf, 2, 3)))
void warnings__note(struct warnings *w, const char *fmt, ...);

/* Free what is kept; w is empty after it. */
void warnings__release(struct warnings *w);

#endif

/* SPDX-License-Identifier: MIT */
/* The parts of report__build, one file each (report.h is the contract). */
#ifndef POSTPROC_REPORT_BUILD_H
#define POSTPROC_REPORT_BUILD_H

#include "report.h"

/* Append a note (printf-style). Returns 0 or -ENOMEM. */
int report__note(struct report *rep, enum report_note_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* report-notes.c: what the report cannot show (plugin warnings, skipped
 * records, losses, the selection), in the order to tell it. */
int report_notes__input(struct report *rep, const struct rank *r, const struct rank_opts *ro,
			struct annotator *annot, const struct report_opts *o);
/* report-notes.c: names that more than one listed function has (different
 * code under one name, from several runs or recompiled), once funcs are built. */
int report_notes__names(struct report *rep);
/* report-notes.c: the annotator's notes, once every cell is made. */
int report_notes__annotation(struct report *rep, const struct annotator *annot);

/* report-edges.c: f->edges, and each block's first_edge / edges_nr, from its
 * disassembly. Returns 0 or -ENOMEM. */
int report_edges__build(struct report_func *f, const struct cfg_func *cfg);
/* report-edges.c: the block of cfg that starts at target, or -1 (outside the
 * code, or inside a block: not a leader). */
long report__block_at_start(const struct cfg_func *cfg, uint64_t target);

#endif

/* SPDX-License-Identifier: MIT */
/* The report's notes (report-notes.c): what it cannot show, said once. */
#ifndef POSTPROC_REPORT_NOTES_H
#define POSTPROC_REPORT_NOTES_H

#include "analysis/rank.h"
#include "annotate/annotate.h"
#include "annotate/targets.h"
#include "report.h"

/* Append a note (printf-style). Returns 0 or -ENOMEM. */
int report_notes__add(struct report *rep, enum report_note_kind kind, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* What the report cannot show (plugin warnings but those read from the input
 * called live_origin, skipped records, losses, the selection), in the order
 * to tell it. */
int report_notes__input(struct report *rep, const struct rank *r, const struct rank_opts *ro,
			struct annotator *annot, const char *live_origin);
/* Names that more than one listed function has (different code under one
 * name, from several runs or recompiled), once funcs are built. */
int report_notes__names(struct report *rep);
/* The annotator's notes, once every cell is made. */
int report_notes__annotation(struct report *rep, const struct annotator *annot);
/* What the targets of calls could not name (V8's wasm jump tables left raw, and why). */
int report_notes__targets(struct report *rep, const struct targets *t);

#endif

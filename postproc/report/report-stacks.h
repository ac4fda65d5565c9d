/* SPDX-License-Identifier: MIT */
/*
 * The ranked event's callchain stacks (STREAM.md `stack`) with their
 * frames named as the report names functions (report.stacks), for the
 * renderers that show stacks (pprof).
 */
#ifndef POSTPROC_REPORT_STACKS_H
#define POSTPROC_REPORT_STACKS_H

#include <stdint.h>

#include "analysis/rank.h"
#include "annotate/annotate.h"
#include "report.h"

/* rep->stacks from r's stream (none: NULL); obj_func maps a stream object
 * to its index in rep->funcs (UINT32_MAX: not listed). 0 or -ENOMEM. */
int report_stacks__build(struct report *rep, const struct rank *r, struct annotator *annot,
			 const uint32_t *obj_func);
void report_stacks__release(struct report *rep);

#endif

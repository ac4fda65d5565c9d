/* SPDX-License-Identifier: MIT */
/* The listed functions' measured edges and ranges (report_func.branches,
 * .ranges), from the stream's branch-stack counts of the ranked event. */
#ifndef POSTPROC_REPORT_BRANCHES_H
#define POSTPROC_REPORT_BRANCHES_H

#include <stdint.h>

#include "analysis/rank.h"
#include "report.h"

/* obj_func: stream object -> index in rep->funcs (UINT32_MAX: not listed);
 * rank_of: rep->funcs index -> r->funcs index (for the code of each, decoded
 * again to tell the ranges that cannot have run). 0 or -ENOMEM. */
int report_branches__build(struct report *rep, const struct rank *r, const uint32_t *obj_func,
			   const size_t *rank_of);

/* The open function f's block executions, its rows' taken and not-taken
 * counts and its edges' counts, from its ranges and taken edges
 * (report_func.measured). 0 or -ENOMEM. */
int report_branches__measure(struct report_func *f);
/* ... freed when f's blocks are. */
void report_branches__drop(struct report_func *f);

#endif

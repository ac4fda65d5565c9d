/* SPDX-License-Identifier: MIT */
/* What branch stacks measured (report.branch_stack): the counts of the
 * ranked event, the listed functions' taken edges and ranges, and, while a
 * function is open, its blocks', rows' and edges' counts. */
#ifndef POSTPROC_REPORT_BRANCHES_H
#define POSTPROC_REPORT_BRANCHES_H

#include <stdint.h>

#include "analysis/rank.h"
#include "report.h"

/* rep->branch_stack, when r's stream has branch stacks (else nothing):
 * obj_func maps a stream object to its index in rep->funcs (UINT32_MAX: not
 * listed), rank_of an index in rep->funcs to r->funcs (for the code of each,
 * decoded again to tell the ranges that cannot have run). 0 or -ENOMEM. */
int report_branches__build(struct report *rep, const struct rank *r, const uint32_t *obj_func,
			   const size_t *rank_of);
void report_branches__release(struct report *rep);

/* The open function rep->funcs[fi]'s block executions, its rows' taken and
 * not-taken counts and its edges' counts, from its ranges and taken edges
 * (report_func_branches.measured); nothing without branch stacks. 0 or
 * -ENOMEM. */
int report_branches__measure(const struct report *rep, size_t fi);
/* How often each of n ascending function-relative offsets off[k] of f ran
 * (the possible ranges of f that hold it, as a block's executions), into
 * out[k]. 0 or -ENOMEM. */
int report_branches__runs(const struct report_func_branches *f, const uint64_t *off, size_t n, uint64_t *out);

/* ... freed when its blocks are. */
void report_branches__drop(const struct report *rep, size_t fi);

#endif

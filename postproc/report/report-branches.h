/* SPDX-License-Identifier: MIT */
/* The listed functions' measured edges and ranges (report_func.branches,
 * .ranges), from the stream's branch-stack counts of the ranked event. */
#ifndef POSTPROC_REPORT_BRANCHES_H
#define POSTPROC_REPORT_BRANCHES_H

#include <stdint.h>

#include "analysis/rank.h"
#include "report.h"

/* obj_func: stream object -> index in rep->funcs (UINT32_MAX: not listed).
 * 0 or -ENOMEM. */
int report_branches__build(struct report *rep, const struct rank *r, const uint32_t *obj_func);

#endif

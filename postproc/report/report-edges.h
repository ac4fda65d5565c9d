/* SPDX-License-Identifier: MIT */
/* A listed function's control-flow edges (report-edges.c). */
#ifndef POSTPROC_REPORT_EDGES_H
#define POSTPROC_REPORT_EDGES_H

#include "analysis/cfg.h"
#include "report.h"

/* f->edges, and each block's first_edge / edges_nr, from its disassembly.
 * Returns 0 or -ENOMEM. */
int report_edges__build(struct report_func *f, const struct cfg_func *cfg);
/* The block of cfg that starts at target, or -1 (outside the code, or inside
 * a block: not a leader). */
long report__block_at_start(const struct cfg_func *cfg, uint64_t target);

#endif

/* SPDX-License-Identifier: MIT */
/* Skid and the cost by block (report-cost.c). */
#ifndef POSTPROC_REPORT_COST_H
#define POSTPROC_REPORT_COST_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/rank.h"
#include "report.h"

/*
 * Once rep's functions and branch stacks are built (rank_of: each listed
 * function's index in r->funcs). With branch stacks and by_executions, the
 * cost of every block of the listed functions (report_branch_stack.costs);
 * without them, a note for each place of the shown blocks, when they are
 * listed from the start (not whole), that shows the skid of a long-latency
 * instruction (a divide or square root with few samples, the instruction
 * after it in its block with many), and with by_executions a note that it
 * needs them. 0 or -ENOMEM.
 */
int report_cost__build(struct report *rep, const struct rank *r, const size_t *rank_of, bool by_executions);

#endif

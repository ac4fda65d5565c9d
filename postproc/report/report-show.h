/* SPDX-License-Identifier: MIT */
/* What every output shows of a built report (report-show.c). */
#ifndef POSTPROC_REPORT_SHOW_H
#define POSTPROC_REPORT_SHOW_H

#include "report.h"

/*
 * Once every function is built: the ditto marks of the cells, the columns
 * of each block and function (show[]), each function's block counts, the
 * listed functions with a shown block, the top of the heat scale and of the
 * bars. Decided here once, for every output alike.
 */
void report_show__decide(struct report *rep);

#endif

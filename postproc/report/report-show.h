/* SPDX-License-Identifier: MIT */
/* What every output shows of a built report (report-show.c). */
#ifndef POSTPROC_REPORT_SHOW_H
#define POSTPROC_REPORT_SHOW_H

#include "report.h"

/*
 * Once a function's rows are built (a whole one's when it is opened): the
 * ditto marks of its cells, the columns of each block and of the function
 * (show[]), and (not whole) the most samples of one of its rows.
 */
void report_show__func(struct report_func *f);

/* Its parts, for rows built a part at a time: the ditto marks of rows
 * (whole blocks of them, or the trailing data); and the columns, rows
 * after rows, first for the first of them. */
void report_show__ditto(struct report_row *rows, size_t nr);
void report_show__columns(struct report_func *f, const struct report_row *rows, size_t nr,
			  bool first);

/*
 * Once every function is built: the listed functions with a shown block, the
 * top of the heat scale and of the bars. Decided here once, for every output
 * alike.
 */
void report_show__decide(struct report *rep);

#endif

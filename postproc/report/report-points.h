/* SPDX-License-Identifier: MIT */
/*
 * What a profile of addresses needs of a listed function beyond its rows
 * (pprof): where its file was mapped and with which build-id, the tier its
 * JIT compiled it in, and every sampled offset with its samples and periods:
 * the one count of a function's samples by offset, which a function without
 * code bytes shows instead of its rows too (report_func.offsets).
 */
#ifndef POSTPROC_REPORT_POINTS_H
#define POSTPROC_REPORT_POINTS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/rank.h"
#include "report.h"

/* f (built from r->funcs[fi]): its code's mapping and tier, and with points
 * its points. Returns 0 or -ENOMEM (f->points is freed by the report). */
int report_points__func(struct report_func *f, const struct rank *r, size_t fi, bool points);

/* The offsets of r->funcs[fi] with samples of the ranked event, in offset
 * order, into *points (owned, allocated even for none) and *nr. Returns 0 or
 * -ENOMEM. */
int report_points__sampled(const struct rank *r, size_t fi, struct report_point **points, size_t *nr);

#endif

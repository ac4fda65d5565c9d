/* SPDX-License-Identifier: MIT */
/*
 * One walk of perf.data for several readers: each reader gives its own
 * visitor (perfdata.h), and the walk calls every one of them for every
 * record, in the order they were added, so that the file is read once.
 */
#ifndef PLUGIN_PERF_PERFDATA_FANOUT_H
#define PLUGIN_PERF_PERFDATA_FANOUT_H

#include <stddef.h>

#include "perfdata.h"

#define PERFDATA_FANOUT_MAX 4

struct perfdata_fanout {
	struct perfdata_visitor readers[PERFDATA_FANOUT_MAX];	/* copies */
	size_t nr;
};

/* Add a reader's visitor (copied); false when PERFDATA_FANOUT_MAX are added. */
bool perfdata_fanout__add(struct perfdata_fanout *f, const struct perfdata_visitor *v);

/* The visitor that calls each reader's callbacks in turn (the first non-zero
 * return stops the walk); f must outlive the walk. */
struct perfdata_visitor perfdata_fanout__visitor(struct perfdata_fanout *f);

#endif

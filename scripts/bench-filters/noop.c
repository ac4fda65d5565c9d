// SPDX-License-Identifier: MIT
/* Benchmark floor: a dlfilter that drops every sample after perf resolved it. */
#include <perf/perf_dlfilter.h>

struct perf_dlfilter_fns perf_dlfilter_fns;

int filter_event(void *data, const struct perf_dlfilter_sample *sample, void *ctx);

int filter_event(void *data, const struct perf_dlfilter_sample *sample, void *ctx)
{
	return 1;
}

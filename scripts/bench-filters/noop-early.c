// SPDX-License-Identifier: MIT
/* Benchmark floor: a dlfilter that drops every sample before perf resolves it. */
#include <perf/perf_dlfilter.h>

struct perf_dlfilter_fns perf_dlfilter_fns;

int filter_event_early(void *data, const struct perf_dlfilter_sample *sample, void *ctx);

int filter_event_early(void *data, const struct perf_dlfilter_sample *sample, void *ctx)
{
	return 1;
}

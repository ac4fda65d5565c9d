/* SPDX-License-Identifier: MIT */
/*
 * After the last sample: what the user should know about the samples the
 * plugin could not place, said as warnings (kept for the stream).
 */
#ifndef PLUGIN_SAMPLE_EXPLAIN_H
#define PLUGIN_SAMPLE_EXPLAIN_H

#include <stdbool.h>

#include "../jit/dumps.h"
#include "../lib/warnings.h"
#include "../native/resolve.h"
#include "account.h"

/* Why JIT samples matched no load, if any did not (perf_data: what was
 * scanned for jitdump markers; live: it was a pipe), and which loads
 * ambiguous ones could have been. */
void explain__unresolved(const struct account *a, const struct dumps *dumps, const char *perf_data, bool live,
			 struct warnings *w);

/* What the plugin's own resolution of natives left to perf, and files with
 * samples no symbol covered (a warning each from 1% of a's samples, else one
 * note for all; up to a tenth for the files missing or of another build of
 * a recording made under another kernel than this one's, recorded_release:
 * perf.data's uname -r, "" unknown); stats: --dlarg stats, its cost on
 * standard error. */
void explain__natives(const struct resolve *r, const struct account *a, const char *recorded_release, bool stats,
		      struct warnings *w);

#endif

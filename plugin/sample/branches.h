/* SPDX-License-Identifier: MIT */
/*
 * Branch stacks (perf record -b, -j any,u: Intel LBR, AMD BRS, Arm BRBE):
 * each sample's entries, both ends resolved as a sample's ip is
 * (classify__address), tallied per taken edge (from, to, flags) and per
 * fall-through range (an older entry's target to the next newer entry's
 * source: the straight run between two taken branches), so that the stream
 * carries counts, not entries (STREAM.md `branch`, `range`, `branch-total`).
 * Every entry and every range is counted in one class per event, as samples
 * are: an end that is in no object puts it in that end's class.
 */
#ifndef PLUGIN_SAMPLE_BRANCHES_H
#define PLUGIN_SAMPLE_BRANCHES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perf/perf_dlfilter.h>

#include "../lib/hash.h"
#include "../lib/stream-format.h"
#include "../lib/warnings.h"
#include "classify.h"
#include "events.h"

/* The flags of a taken edge, as perf's brstack prints them (M, P, X, A). */
enum branch_flag {
	BRANCH_MISPRED = 1u << 0,
	BRANCH_PREDICTED = 1u << 1,
	BRANCH_IN_TX = 1u << 2,
	BRANCH_ABORT = 1u << 3,
};

enum branch_kind {
	BRANCH_TAKEN,	/* from -> to, a taken branch */
	BRANCH_RANGE,	/* from .. to, the code run straight through between two */
};

/* Distinct (kind, event, ends, flags) kept; entries past it are counted as
 * unattributed.table-full. */
#define MAX_BRANCH_KEYS (1u << 22)

struct branch_count {
	uint32_t from_obj, to_obj;	/* object ids as the sample counts have them */
	uint64_t from_off, to_off;	/* offsets in them */
	uint32_t ev;
	uint8_t kind;			/* enum branch_kind */
	uint8_t flags;			/* enum branch_flag; 0 for a range */
	uint64_t count;
	/* entries with a cycle count (non-zero), and their sum: for a taken
	 * edge its entries', for a range its newer entry's (the cycles since
	 * the older one: the range's own) */
	uint64_t cycles_nr, cycles_sum;
};

struct branches {
	struct branch_count *v;		/* in the order of their first entries */
	size_t nr, alloc;
	struct idx_table index;
	/* [event][class] = {taken entries, ranges}; HB_CLASS_ALL: all of them */
	uint64_t totals[MAX_EVENTS][HB_CLASS__NR][2];
	bool any;			/* a sample had a branch stack */
	struct classify_verdict *ends;	/* one sample's resolved ends, from and to per entry */
	size_t ends_alloc;
	struct warnings *warnings;	/* borrowed */
	bool full_warned;
};

void branches__init(struct branches *b, struct warnings *warnings);
void branches__release(struct branches *b);

/* Count sample s's branch stack (none: nothing), of event ev; time_aware as
 * for its ip. c resolves the addresses (through perf's ctx where it must). */
void branches__add(struct branches *b, struct classify *c, uint32_t ev, const struct perf_dlfilter_sample *s,
		   bool time_aware, void *ctx);

#endif

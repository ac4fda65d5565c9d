/* SPDX-License-Identifier: MIT */
/*
 * Callchains (perf record -g, --call-graph): each sample's stack, leaf
 * first, every frame resolved as a sample's ip is (classify__address: the
 * JIT code load live at the sample's time, the native function, the perf
 * map's line), identical stacks of one event counted once (STREAM.md
 * `stack`), so that the stream carries counts, not chains. A frame in no
 * object is its class (kernel, unattributed.*), a run of kernel frames one
 * frame. A caller frame is a return address: its function is the one of the
 * byte before it (the call's last), as perf resolves it, its offset the
 * return address's.
 */
#ifndef PLUGIN_SAMPLE_CALLCHAINS_H
#define PLUGIN_SAMPLE_CALLCHAINS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perf/perf_dlfilter.h>

#include "../lib/hash.h"
#include "../lib/warnings.h"
#include "classify.h"
#include "events.h"

/* Distinct stacks kept; samples of further new ones are not in a stack (the
 * plugin warns). */
#define MAX_STACKS (1u << 20)
/* Frames kept of one stack, the leaf's side: a `stack` line stays within
 * the stream's line limit (STREAM.md "Lines"). */
#define MAX_STACK_FRAMES 1024u

/* One frame: a placed one's object and offset, or a class (obj = UINT32_MAX,
 * off = the enum hb_sample_class). */
struct stack_frame {
	uint32_t obj;
	uint64_t off;
};

#define STACK_FRAME_CLASS UINT32_MAX

struct stack_count {
	uint32_t ev;
	uint32_t frames_nr;
	size_t first;			/* in callchains.frames */
	uint64_t samples, period;
};

struct callchains {
	struct stack_count *v;		/* in the order of their first samples */
	size_t nr, alloc;
	struct stack_frame *frames;	/* every kept stack's, one after another */
	size_t frames_nr, frames_alloc;
	struct idx_table index;
	bool any;			/* a sample had a callchain */
	bool full_warned, cut_warned;
	struct warnings *warnings;	/* borrowed */
};

void callchains__init(struct callchains *cc, struct warnings *warnings);
void callchains__release(struct callchains *cc);

/* Count sample s's callchain (none: nothing), of event ev, its leaf placed
 * as leaf says (the sample's own verdict); time_aware as for its ip. */
void callchains__add(struct callchains *cc, struct classify *c, uint32_t ev, const struct perf_dlfilter_sample *s,
		     const struct classify_verdict *leaf, bool time_aware, void *ctx);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * Live mode (perf reads a pipe): samples that may belong to JIT code whose
 * load record is not in the dump yet are held back, and placed once perf is
 * done and the dumps are as complete as they will get (JITDUMP.md "Live mode").
 */
#ifndef PLUGIN_PENDING_H
#define PLUGIN_PENDING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stream-format.h"

/* At most this many samples are held back; the rest are counted at once. */
#define MAX_PENDING (1u << 20)

struct pending_sample {
	uint64_t ip, time, period;
	uint32_t pid, ev;
};

struct pending {
	struct pending_sample *v;
	size_t nr, alloc;
	bool full_warned;
};

struct run;

/* Hold a sample back. When MAX_PENDING are held (or memory is short) it is
 * counted in class if_full instead, with one warning for the run. */
void pending__hold(struct run *run, uint32_t pid, uint64_t ip, uint64_t time, uint32_t ev,
		   uint64_t period, enum hb_sample_class if_full);

/* Place every held sample by the code map as it is now: a JIT load, or
 * before-load, or jit-no-load. Nothing is held afterwards. */
void pending__resolve(struct run *run);

void pending__release(struct pending *p);

#endif

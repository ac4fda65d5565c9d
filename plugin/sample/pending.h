/* SPDX-License-Identifier: MIT */
/*
 * Live mode (perf reads a pipe): samples that may belong to JIT code whose
 * load record is not in the dump yet are held back here, to be classified
 * again once perf is done and the dumps are as complete as they will get
 * (JITDUMP.md "Live mode"). Only a store: the run decides what is held and
 * places what was.
 */
#ifndef PLUGIN_PENDING_H
#define PLUGIN_PENDING_H

#include <stddef.h>
#include <stdint.h>

/* At most this many samples are held back; the rest are counted at once. */
#define MAX_PENDING (1u << 20)

struct pending_sample {
	uint64_t ip, time, period;
	uint32_t pid, ev;
};

struct pending {
	struct pending_sample *v;	/* the held samples, in arrival order */
	size_t nr, alloc;
};

/* Hold a sample back: 0, or -ENOSPC when MAX_PENDING are held (or memory is
 * short): the caller then counts it at once. */
int pending__hold(struct pending *p, const struct pending_sample *s);

/* Forget the held samples (after they were placed); memory is kept. */
void pending__clear(struct pending *p);

void pending__release(struct pending *p);

#endif

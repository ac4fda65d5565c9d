/* SPDX-License-Identifier: MIT */
/*
 * Sample classification: which class, and for attributed samples which object
 * and offset, each sample counts for (STREAM.md "total classes"). Kernel and
 * JIT samples are settled from what perf's sample carries, native ones by the
 * plugin's own resolution (resolve.h); only what that cannot decide goes
 * through perf's symbol resolution (NATIVE.md "Where perf still resolves").
 * Classification only decides: it returns a verdict, and the accounting
 * (account.h) counts it, holds it back or warns.
 */
#ifndef PLUGIN_CLASSIFY_H
#define PLUGIN_CLASSIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <perf/perf_dlfilter.h>

#include "../jit/dumps.h"
#include "../native/natives.h"
#include "../native/resolve.h"
#include "../lib/stream-format.h"

/* Object ids in the counts: JIT objects are code map ids, native objects have the top bit set. */
#define NATIVE_ID_BIT 0x80000000u

/* What classification decided about one sample. */
struct classify_verdict {
	enum hb_sample_class cls;	/* the class it counts in */
	/* HB_CLASS_JIT, HB_CLASS_NATIVE and HB_CLASS_PERFMAP: the object (a code
	 * map id, or a natives id | NATIVE_ID_BIT) and the offset in it the
	 * sample is counted at */
	uint32_t obj;
	uint64_t off;
	/* A jitdump code load covers the address: which one depends on the
	 * event's clock (events__check_time_aware says when it was not usable). */
	bool in_jit_code;
	/* Live mode: a load may still be written for it. Hold it back and ask
	 * again (classify__held) when the dumps are complete; cls if it cannot be held. */
	bool hold;
	/* HB_CLASS_AMBIGUOUS: how many loads covered the address, and the code
	 * map ids of the first AMBIGUOUS_NAMED of them (to name them). */
	size_t covering_nr;
	uint32_t covering[AMBIGUOUS_NAMED];
};

/*
 * perf hands out the same dso and symbol strings for the same dso and symbol
 * (they live in its long-lived dso/symbol objects), so their addresses key a
 * small cache in front of the string-hashed object table. The addresses are
 * only compared, never dereferenced after the callback returns.
 */
#define NATIVE_CACHE_SLOTS 256

struct native_cache_slot {
	const char *dso, *sym;
	uint64_t sym_start;
	long id;
};

struct classify {
	const struct perf_dlfilter_fns *perf;	/* borrowed: perf's callbacks */
	struct dumps *dumps;			/* borrowed: the jitdumps and their code map */
	struct natives *natives;		/* borrowed: native objects, added to here */
	struct resolve *resolve;		/* borrowed: the plugin's own native resolution */
	bool jit_only;				/* --dlarg jit-only: nothing is sent to perf */
	bool live;				/* perf reads a pipe: dumps may still grow */
	struct native_cache_slot native[NATIVE_CACHE_SLOTS];
	uint8_t *code_buf;		/* for perf's object_code(), allocated on first use */
};

/* A classifier over dumps, natives and the native resolver (all must outlive
 * it); jit_only: --dlarg jit-only. Not live until set so. */
void classify__init(struct classify *c, const struct perf_dlfilter_fns *perf, struct dumps *dumps,
		    struct natives *natives, struct resolve *resolve, bool jit_only);
void classify__release(struct classify *c);

/* Kernel samples, samples in a jitdump's code (time_aware: the sample's
 * event has times comparable with the dumps') and native ones the plugin
 * resolves: true with *v filled. false: the sample needs perf's symbols
 * (classify__resolved). */
bool classify__early(struct classify *c, const struct perf_dlfilter_sample *s, bool time_aware,
		     struct classify_verdict *v);

/* The rest, through perf's resolve_ip(ctx): native symbols (a new one's code
 * read once through object_code, its name the one the plugin's index gives
 * the same function), perf maps' functions, JIT-looking memory no load
 * covers, no symbol, no map. */
struct classify_verdict classify__resolved(struct classify *c, const struct perf_dlfilter_sample *s,
					   void *ctx);

/* Another address of sample s (a branch-stack entry's source or target),
 * resolved as a sample's ip is: a JIT
 * load (time-aware), a native function or perf map line (the plugin's own
 * resolution, else perf's resolve_address), or the class of what it is
 * not; never held, and counted in no sample statistic. */
struct classify_verdict classify__address(struct classify *c, const struct perf_dlfilter_sample *s, uint64_t addr,
					  bool time_aware, void *ctx);

/* A held sample, once the dumps are complete: a JIT load, or before-load, or
 * jit-no-load (never held again). */
struct classify_verdict classify__held(struct classify *c, uint32_t pid, uint64_t ip, uint64_t time,
				       bool time_aware);

#endif

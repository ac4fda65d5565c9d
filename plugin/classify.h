/* SPDX-License-Identifier: MIT */
/*
 * Sample classification: the class, and for attributed samples the object
 * and offset, each sample counts for (STREAM.md "total classes"). Kernel and
 * JIT samples are settled from what perf's sample carries, native ones by the
 * plugin's own resolution (resolve.h); only what that cannot decide goes
 * through perf's symbol resolution (NATIVE.md "Where perf still resolves").
 */
#ifndef PLUGIN_CLASSIFY_H
#define PLUGIN_CLASSIFY_H

#include <stdbool.h>
#include <stdint.h>

#include <perf/perf_dlfilter.h>

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

struct classify_cache {
	struct native_cache_slot native[NATIVE_CACHE_SLOTS];
	uint64_t last_refresh_ns;	/* when the dumps were last re-read on a miss */
	uint8_t *code_buf;		/* for perf's object_code(), allocated on first use */
};

struct run;

/* Kernel samples, samples in a jitdump's code, and native ones the plugin
 * resolves: counted here, returns true. false: the sample needs perf's
 * symbols (classify__resolved). */
bool classify__early(struct run *run, const struct perf_dlfilter_sample *s, uint32_t ev);

/* The rest, through perf's resolve_ip(ctx): native symbols (their code read
 * once through object_code), JIT-looking memory no load covers, no symbol, no
 * map. Counts the sample. */
void classify__resolved(struct run *run, const struct perf_dlfilter_sample *s, uint32_t ev, void *ctx);

/* After the last sample: say why JIT samples matched no load, if any did not. */
void classify__explain_unresolved(struct run *run);

void classify__release(struct classify_cache *c);

#endif

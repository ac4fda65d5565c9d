// SPDX-License-Identifier: MIT
/* Sample classification (see classify.h). */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "classify.h"
#include "pending.h"
#include "run.h"

/* A native symbol's code is read once, up to this many bytes. */
#define MAX_NATIVE_CODE (1u << 20)
/* Re-read growing dumps on a miss at most this often (ns). */
#define REFRESH_INTERVAL_NS 1000000ULL

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

/* Look the sample up in the jitdumps; re-read them (rate-limited) on a miss. */
static enum codemap_result jit_lookup(struct run *run, uint32_t pid, uint64_t ip, uint64_t time,
				      uint32_t ev, size_t *id)
{
	bool time_aware = run->events[ev].time_aware;
	enum codemap_result r = codemap__lookup(run->dumps.map, pid, ip, time, time_aware, id);

	if (r != CODEMAP_HIT && run->dumps.nr) {
		uint64_t now = now_ns();

		if (now - run->classify.last_refresh_ns >= REFRESH_INTERVAL_NS) {
			run->classify.last_refresh_ns = now;
			if (dumps__refresh(&run->dumps))
				r = codemap__lookup(run->dumps.map, pid, ip, time, time_aware, id);
		}
	}
	return r;
}

static bool is_kernel_mode(uint8_t cpumode)
{
	return cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL ||
	       cpumode == PERF_RECORD_MISC_HYPERVISOR;
}

/* A user-space sample the JIT code did not take: the plugin's own resolution
 * (resolve.h), or perf's when the plugin cannot decide (false). */
static bool native_early(struct run *run, const struct perf_dlfilter_sample *s, uint32_t ev)
{
	struct resolve_hit h;

	/* guest samples: perf's answer depends on its --guest* options */
	if (s->cpumode != PERF_RECORD_MISC_USER) {
		run->resolve.deferred++;
		return false;
	}
	resolve__sample(&run->resolve, &run->natives, (uint32_t)s->pid, s->ip, s->time, &h);
	switch (h.kind) {
	case RESOLVE_SYMBOL:
		run__count(run, NATIVE_ID_BIT | h.native, ev, h.off, s->period, HB_CLASS_NATIVE);
		return true;
	case RESOLVE_PERFMAP:
		run__count(run, NATIVE_ID_BIT | h.native, ev, h.off, s->period, HB_CLASS_PERFMAP);
		return true;
	case RESOLVE_NO_SYMBOL:
		run__account(run, ev, HB_CLASS_NO_SYMBOL, s->period);
		return true;
	case RESOLVE_JIT_NO_LOAD:
		run__account(run, ev, HB_CLASS_JIT_NO_LOAD, s->period);
		return true;
	case RESOLVE_NO_MAP:
		run__account(run, ev, HB_CLASS_NO_MAP, s->period);
		return true;
	case RESOLVE_DEFER:
	default:
		return false;
	}
}

bool classify__early(struct run *run, const struct perf_dlfilter_sample *s, uint32_t ev)
{
	uint32_t pid = (uint32_t)s->pid;
	size_t id;

	if (is_kernel_mode(s->cpumode)) {
		run__account(run, ev, HB_CLASS_KERNEL, s->period);
		return true;
	}
	dumps__try_pid(&run->dumps, pid);
	enum codemap_result res = jit_lookup(run, pid, s->ip, s->time, ev, &id);

	if (res != CODEMAP_MISS)
		run__check_time_aware(run, ev);
	switch (res) {
	case CODEMAP_HIT:
		run__count(run, (uint32_t)id, ev, s->ip - codemap__entry(run->dumps.map, id)->start,
			   s->period, HB_CLASS_JIT);
		return true;
	case CODEMAP_BEFORE_LOAD:
		if (run->live)
			pending__hold(run, pid, s->ip, s->time, ev, s->period, HB_CLASS_BEFORE_LOAD);
		else
			run__account(run, ev, HB_CLASS_BEFORE_LOAD, s->period);
		return true;
	case CODEMAP_MISS:
		break;
	}
	if (run->opts.jit_only) {
		run__account(run, ev, HB_CLASS_NOT_RESOLVED, s->period);
		return true;
	}
	return native_early(run, s, ev);
}

/* perf's dso of anonymous executable memory: its process's perf map. */
static bool perf_map_dso(const char *dso)
{
	size_t n = strlen(dso);

	return !strncmp(dso, "/tmp/perf-", 10) && n > 4 && !strcmp(dso + n - 4, ".map");
}

/* Memory perf knows no file for: where JITs put their code. */
static bool jit_looking(const char *dso)
{
	return !strncmp(dso, "//anon", 6) || !strncmp(dso, "[anon", 5) ||
	       !strncmp(dso, "/memfd:", 7) || perf_map_dso(dso);
}

static void read_native_code(struct run *run, struct native_obj *o, void *ctx)
{
	uint32_t want = o->size < MAX_NATIVE_CODE ? (uint32_t)o->size : MAX_NATIVE_CODE;
	struct classify_cache *c = &run->classify;
	int32_t got;

	if (!want || !run->perf->object_code)
		return;
	if (!c->code_buf && !(c->code_buf = malloc(MAX_NATIVE_CODE)))
		return;
	got = run->perf->object_code(ctx, o->addr, c->code_buf, want);
	if (got <= 0)
		return;
	o->code = malloc((size_t)got);
	if (!o->code)
		return;
	memcpy(o->code, c->code_buf, (size_t)got);
	o->code_len = (size_t)got;
}

void classify__resolved(struct run *run, const struct perf_dlfilter_sample *s, uint32_t ev, void *ctx)
{
	const struct perf_dlfilter_al *al = run->perf->resolve_ip ? run->perf->resolve_ip(ctx) : NULL;
	bool created;
	long id;

	if (!al || !al->dso) {
		run__account(run, ev, HB_CLASS_NO_MAP, s->period);
		return;
	}
	if (al->is_kernel_ip) {
		run__account(run, ev, HB_CLASS_KERNEL, s->period);
		return;
	}
	/* a perf map's line: the function is named, its bytes are not known */
	if (perf_map_dso(al->dso) && al->sym) {
		id = natives__get(&run->natives, al->dso, al->sym, al->sym_start, &created);
		if (id < 0) {
			run__account(run, ev, HB_CLASS_TABLE_FULL, s->period);
			return;
		}
		if (created) {
			struct native_obj *o = &run->natives.objs[id];

			o->addr = al->sym_start;
			o->size = al->sym_end > al->sym_start ? al->sym_end - al->sym_start : 0;
			o->pid = (uint32_t)s->pid;
			o->source = NATIVE_FROM_PERF_MAP;
		}
		run__count(run, NATIVE_ID_BIT | (uint32_t)id, ev, al->symoff, s->period, HB_CLASS_PERFMAP);
		return;
	}
	if (jit_looking(al->dso)) {
		if (run->live)
			pending__hold(run, (uint32_t)s->pid, s->ip, s->time, ev, s->period, HB_CLASS_JIT_NO_LOAD);
		else
			run__account(run, ev, HB_CLASS_JIT_NO_LOAD, s->period);
		return;
	}
	if (!al->sym) {
		run__account(run, ev, HB_CLASS_NO_SYMBOL, s->period);
		return;
	}
	struct native_cache_slot *slot =
		&run->classify.native[(((uintptr_t)al->sym >> 4) ^ al->sym_start) % NATIVE_CACHE_SLOTS];

	if (slot->sym == al->sym && slot->dso == al->dso && slot->sym_start == al->sym_start) {
		run__count(run, NATIVE_ID_BIT | (uint32_t)slot->id, ev, al->symoff, s->period, HB_CLASS_NATIVE);
		return;
	}
	/* the function under the name the plugin's own resolution gives it */
	enum native_source source = NATIVE_FROM_PERF;
	const char *name = resolve__name(&run->resolve, al->dso, al->buildid, al->buildid_size, al->addr,
					 al->sym_start, &source);

	id = natives__get(&run->natives, al->dso, name ? name : al->sym, al->sym_start, &created);
	if (id < 0) {
		run__account(run, ev, HB_CLASS_TABLE_FULL, s->period);
		return;
	}
	*slot = (struct native_cache_slot){ al->dso, al->sym, al->sym_start, id };
	if (created) {
		struct native_obj *o = &run->natives.objs[id];

		o->source = (uint8_t)source;
		o->addr = s->ip - al->symoff;
		o->size = al->sym_end > al->sym_start ? al->sym_end - al->sym_start : 0;
		o->pid = (uint32_t)s->pid;
		read_native_code(run, o, ctx);
	}
	run__count(run, NATIVE_ID_BIT | (uint32_t)id, ev, al->symoff, s->period, HB_CLASS_NATIVE);
}

void classify__explain_unresolved(struct run *run)
{
	uint64_t no_load = 0, before = 0, jit = 0;

	for (size_t e = 0; e < run->events_nr; e++) {
		no_load += run->totals[e][HB_CLASS_JIT_NO_LOAD][0];
		before += run->totals[e][HB_CLASS_BEFORE_LOAD][0];
		jit += run->totals[e][HB_CLASS_JIT][0];
	}
	/* A few strays (a stub perf did not see either) are worth a line; a
	 * missing or unreadable jitdump (>= 1% unresolved) is worth the full hint. */
	if (no_load && no_load * 100 < jit) {
		run__warn(run, "%" PRIu64 " sample%s in JIT-looking memory matched no jitdump code load"
			  " (%zu jitdump%s read: code its JIT did not log, e.g. a stub)",
			  no_load, no_load == 1 ? "" : "s", run->dumps.nr, run->dumps.nr == 1 ? "" : "s");
	} else if (no_load) {
		fprintf(stderr,
			"hotblocks: warning: %" PRIu64 " sample%s in JIT-looking memory matched no jitdump code load.\n"
			"  perf.data scanned for jitdump markers: %s\n"
			"  jitdumps read: %zu; searched:\n%s"
			"  fix: run the JIT with its jitdump enabled (node --perf-prof, wasmtime --profile=jitdump),\n"
			"  keep jit-<pid>.dump next to perf.data, or pass --dlarg jitdump=FILE / --dlarg jitdir=DIR\n",
			no_load, no_load == 1 ? "" : "s", run->live ? "(none: pipe input)" : run->perf_data,
			run->dumps.nr, run->dumps.searched_len ? run->dumps.searched : "  (nothing)\n");
	}
	if (before)
		run__warn(run, "%" PRIu64 " sample%s hit JIT code before its load record's time"
			  " (counted as unattributed.before-load)", before, before == 1 ? "" : "s");
}

void classify__release(struct classify_cache *c)
{
	free(c->code_buf);
	memset(c, 0, sizeof(*c));
}

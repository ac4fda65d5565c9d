// SPDX-License-Identifier: MIT
/* Sample classification (see classify.h). */
#include <stdlib.h>
#include <string.h>

#include "classify.h"

/* A native symbol's code is read once, up to this many bytes. */
#define MAX_NATIVE_CODE (1u << 20)

void classify__init(struct classify *c, const struct perf_dlfilter_fns *perf, struct dumps *dumps,
		    struct natives *natives, struct resolve *resolve, bool jit_only)
{
	memset(c, 0, sizeof(*c));
	c->perf = perf;
	c->dumps = dumps;
	c->natives = natives;
	c->resolve = resolve;
	c->jit_only = jit_only;
}

void classify__release(struct classify *c)
{
	free(c->code_buf);
	c->code_buf = NULL;
}

static struct classify_verdict in_class(enum hb_sample_class cls)
{
	return (struct classify_verdict){ .cls = cls };
}

/* What a lookup in the dumps decided; false on a miss (no load covers the
 * address). hold: a load may still be written for it (live mode). */
static bool jit_verdict(const struct dumps_hit *h, bool hold, struct classify_verdict *v)
{
	switch (h->result) {
	case CODEMAP_HIT:
		*v = (struct classify_verdict){ .cls = HB_CLASS_JIT, .obj = (uint32_t)h->id, .off = h->off,
						.in_jit_code = true };
		return true;
	case CODEMAP_BEFORE_LOAD:
		*v = (struct classify_verdict){ .cls = HB_CLASS_BEFORE_LOAD, .in_jit_code = true, .hold = hold };
		return true;
	case CODEMAP_AMBIGUOUS:
		*v = (struct classify_verdict){ .cls = HB_CLASS_AMBIGUOUS, .in_jit_code = true,
						.covering_nr = h->covering_nr };
		memcpy(v->covering, h->covering, sizeof(v->covering));
		return true;
	case CODEMAP_MISS:
	default:
		return false;
	}
}

static bool is_kernel_mode(uint8_t cpumode)
{
	return cpumode == PERF_RECORD_MISC_KERNEL || cpumode == PERF_RECORD_MISC_GUEST_KERNEL ||
	       cpumode == PERF_RECORD_MISC_HYPERVISOR;
}

/* The verdict of the plugin's own resolution h; false when perf's must decide. */
static bool resolved(const struct resolve_hit *h, struct classify_verdict *v)
{
	switch (h->kind) {
	case RESOLVE_SYMBOL:
		*v = (struct classify_verdict){ .cls = HB_CLASS_NATIVE, .obj = NATIVE_ID_BIT | h->native, .off = h->off };
		return true;
	case RESOLVE_PERFMAP:
		*v = (struct classify_verdict){ .cls = HB_CLASS_PERFMAP, .obj = NATIVE_ID_BIT | h->native, .off = h->off };
		return true;
	case RESOLVE_NO_SYMBOL:
		*v = in_class(HB_CLASS_NO_SYMBOL);
		return true;
	case RESOLVE_JIT_NO_LOAD:
		*v = in_class(HB_CLASS_JIT_NO_LOAD);
		return true;
	case RESOLVE_NO_MAP:
		*v = in_class(HB_CLASS_NO_MAP);
		return true;
	case RESOLVE_DEFER:
	default:
		return false;
	}
}

/* A user-space sample the JIT code did not take: the plugin's own resolution
 * (resolve.h), or perf's when the plugin cannot decide (false). */
static bool native_early(struct classify *c, const struct perf_dlfilter_sample *s, struct classify_verdict *v)
{
	struct resolve_hit h;

	/* guest samples: perf's answer depends on its --guest* options */
	if (s->cpumode != PERF_RECORD_MISC_USER) {
		c->resolve->deferred++;
		return false;
	}
	resolve__sample(c->resolve, c->natives, (uint32_t)s->pid, s->ip, s->time, &h);
	return resolved(&h, v);
}

bool classify__early(struct classify *c, const struct perf_dlfilter_sample *s, bool time_aware,
		     struct classify_verdict *v)
{
	struct dumps_hit h;

	if (is_kernel_mode(s->cpumode)) {
		*v = in_class(HB_CLASS_KERNEL);
		return true;
	}
	dumps__find(c->dumps, (uint32_t)s->pid, s->ip, s->time, time_aware, true, &h);
	if (jit_verdict(&h, c->live, v))
		return true;
	if (c->jit_only) {
		*v = in_class(HB_CLASS_NOT_RESOLVED);
		return true;
	}
	return native_early(c, s, v);
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

static void read_native_code(struct classify *c, struct native_obj *o, void *ctx)
{
	uint32_t want = o->size < MAX_NATIVE_CODE ? (uint32_t)o->size : MAX_NATIVE_CODE;
	int32_t got;

	if (!want || !c->perf->object_code)
		return;
	if (!c->code_buf && !(c->code_buf = malloc(MAX_NATIVE_CODE)))
		return;
	got = c->perf->object_code(ctx, o->addr, c->code_buf, want);
	if (got <= 0)
		return;
	o->code = malloc((size_t)got);
	if (!o->code)
		return;
	memcpy(o->code, c->code_buf, (size_t)got);
	o->code_len = (size_t)got;
}

static struct classify_verdict native(long id, uint64_t off)
{
	return (struct classify_verdict){ .cls = HB_CLASS_NATIVE, .obj = NATIVE_ID_BIT | (uint32_t)id,
					  .off = off };
}

/* What perf's resolution (al) of address ip of sample s says. */
static struct classify_verdict perf_verdict(struct classify *c, const struct perf_dlfilter_sample *s,
					    const struct perf_dlfilter_al *al, uint64_t ip, void *ctx)
{
	bool created;
	long id;

	if (!al || !al->dso)
		return in_class(HB_CLASS_NO_MAP);
	if (al->is_kernel_ip)
		return in_class(HB_CLASS_KERNEL);
	/* a perf map's line: the function is named, its bytes are not known */
	if (perf_map_dso(al->dso) && al->sym) {
		id = natives__get(c->natives, al->dso, al->sym, al->sym_start, &created);
		if (id < 0)
			return in_class(HB_CLASS_TABLE_FULL);
		if (created) {
			struct native_obj *o = &c->natives->objs[id];

			o->addr = al->sym_start;
			o->size = al->sym_end > al->sym_start ? al->sym_end - al->sym_start : 0;
			o->pid = (uint32_t)s->pid;
			o->source = NATIVE_FROM_PERF_MAP;
		}
		return (struct classify_verdict){ .cls = HB_CLASS_PERFMAP, .obj = NATIVE_ID_BIT | (uint32_t)id,
						  .off = al->symoff };
	}
	if (jit_looking(al->dso))
		return (struct classify_verdict){ .cls = HB_CLASS_JIT_NO_LOAD, .hold = c->live };
	if (!al->sym)
		return in_class(HB_CLASS_NO_SYMBOL);
	struct native_cache_slot *slot =
		&c->native[(((uintptr_t)al->sym >> 4) ^ al->sym_start) % NATIVE_CACHE_SLOTS];

	if (slot->sym == al->sym && slot->dso == al->dso && slot->sym_start == al->sym_start)
		return native(slot->id, al->symoff);
	/* the function under the name the plugin's own resolution gives it */
	enum native_source source = NATIVE_FROM_PERF;
	const char *name = resolve__name(c->resolve, al->dso, al->buildid, al->buildid_size, al->addr,
					 al->sym_start, &source);

	id = natives__get(c->natives, al->dso, name ? name : al->sym, al->sym_start, &created);
	if (id < 0)
		return in_class(HB_CLASS_TABLE_FULL);
	*slot = (struct native_cache_slot){ al->dso, al->sym, al->sym_start, id };
	if (created) {
		struct native_obj *o = &c->natives->objs[id];

		o->source = (uint8_t)source;
		o->addr = ip - al->symoff;
		o->size = al->sym_end > al->sym_start ? al->sym_end - al->sym_start : 0;
		o->pid = (uint32_t)s->pid;
		read_native_code(c, o, ctx);
	}
	return native(id, al->symoff);
}

struct classify_verdict classify__resolved(struct classify *c, const struct perf_dlfilter_sample *s,
					   void *ctx)
{
	return perf_verdict(c, s, c->perf->resolve_ip ? c->perf->resolve_ip(ctx) : NULL, s->ip, ctx);
}

/* The plugin's own resolution of addr, a user-mode address of s's process;
 * false when perf's must decide. */
static bool native_address(struct classify *c, const struct perf_dlfilter_sample *s, uint64_t addr,
			   struct classify_verdict *v)
{
	struct resolve_hit h;

	if (s->cpumode != PERF_RECORD_MISC_USER && s->cpumode != PERF_RECORD_MISC_KERNEL)
		return false;
	resolve__address(c->resolve, c->natives, (uint32_t)s->pid, addr, s->time, &h);
	return resolved(&h, v);
}

/* A kernel address: in the top half of a 64-bit address space, where user
 * space never is on the architectures perf records branch stacks on (x86-64,
 * arm64). (An entry's priv, where the hardware gives it, is the branch's
 * level, not each end's: a return from an interrupt has one end in each.) */
static bool kernel_address(uint64_t addr)
{
	return addr >> 63;
}

struct classify_verdict classify__address(struct classify *c, const struct perf_dlfilter_sample *s, uint64_t addr,
					  bool time_aware, void *ctx)
{
	struct classify_verdict v;
	struct dumps_hit h;

	if (kernel_address(addr))
		return in_class(HB_CLASS_KERNEL);
	dumps__find(c->dumps, (uint32_t)s->pid, addr, s->time, time_aware, true, &h);
	/* never held: a branch's load is written before the sample that ran it */
	if (jit_verdict(&h, false, &v))
		return v;
	if (c->jit_only)
		return in_class(HB_CLASS_NOT_RESOLVED);
	if (native_address(c, s, addr, &v))
		return v;
	if (!c->perf->resolve_address)
		return in_class(HB_CLASS_NO_MAP);
	struct perf_dlfilter_al al = { .size = sizeof(al) };

	if (c->perf->resolve_address(ctx, addr, &al) < 0)
		return in_class(HB_CLASS_NO_MAP);
	v = perf_verdict(c, s, &al, addr, ctx);
	v.hold = false;
	return v;
}

struct classify_verdict classify__held(struct classify *c, uint32_t pid, uint64_t ip, uint64_t time,
				       bool time_aware)
{
	struct classify_verdict v;
	struct dumps_hit h;

	dumps__find(c->dumps, pid, ip, time, time_aware, false, &h);
	return jit_verdict(&h, false, &v) ? v : in_class(HB_CLASS_JIT_NO_LOAD);
}

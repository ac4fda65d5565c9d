/* SPDX-License-Identifier: MIT */
/* V8's wasm jump tables, solved from the calls into them (v8-jump-table.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/lib/bsearch.h"
#include "../plugin/lib/vec.h"
#include "analysis/cfg.h"
#include "analysis/insn.h"
#include "lib/util.h"
#include "v8-jump-table.h"
#include "v8-name.h"

/*
 * The geometry of V8's x64 tables, checked against V8's
 * src/wasm/jump-table-assembler.h (v8/v8, and node's deps/v8):
 * kJumpTableLineSize 64, kJumpTableSlotSize 5 (a `jmp rel32`), so 12 slots
 * a line and 4 bytes of padding (SlotOffsetToIndex); kFarJumpTableSlotSize
 * 16, the runtime stubs' slots first (GenerateFarJumpTable); slot k of the
 * main table is function k + num_imported_functions
 * (GenerateLazyCompileTable). The main table is the first thing of a code
 * space, the far table right after it. A V8 whose slots differ (later ones
 * put a 4-byte CodeEntry in front of each) makes calls that fall off this
 * grid or agree with no count of imports: nothing is derived then.
 */
enum { LINE = 64, SLOT = 5, SLOTS_PER_LINE = LINE / SLOT, FAR_SLOT = 16, PAGE = 4096 };

/* A V8 wasm code load (or object), by function index. */
struct wcode {
	uint32_t pid;
	uint64_t addr;
	int index;
	const char *name;
};

/* Code something names: a jitdump load, a sampled object, a file mapping. */
struct span {
	uint32_t pid;
	uint64_t addr, size;
};

/* A call of wasm code to an address nothing covers (no load, object or file). */
struct call {
	uint32_t pid;
	uint64_t addr;
	bool returned;		/* the instruction after it has samples (returned()) */
};

struct table {
	uint32_t pid;
	uint64_t base, far, end;	/* main [base, far), far table [far, end) */
	int imports;
	bool ok;
	char why[200];		/* !ok and evidence there: why it was left raw */
};

struct v8_jump_tables {
	struct wcode *by_addr, *by_index;
	size_t code_nr;
	struct table *t;
	size_t t_nr, t_alloc;
};

static int wcode_addr_cmp(const void *a, const void *b)
{
	const struct wcode *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int wcode_index_cmp(const void *a, const void *b)
{
	const struct wcode *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	return wcode_addr_cmp(a, b);
}

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int call_cmp(const void *a, const void *b)
{
	const struct call *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* A code load of function index in pid, or NULL. */
static const struct wcode *loaded(const struct v8_jump_tables *j, uint32_t pid, long index)
{
	size_t lo = LOWER_BOUND(j->code_nr, i, j->by_index[i].pid < pid ||
				       (j->by_index[i].pid == pid && j->by_index[i].index < index));

	return lo < j->code_nr && j->by_index[lo].pid == pid && j->by_index[lo].index == index ? &j->by_index[lo]
											     : NULL;
}

/* Whether a span of sp (sorted, max_size the largest) covers addr. */
static bool covered(const struct span *sp, size_t nr, uint64_t max_size, uint32_t pid, uint64_t addr)
{
	size_t lo = LOWER_BOUND(nr, i, sp[i].pid < pid || (sp[i].pid == pid && sp[i].addr <= addr));

	while (lo--) {
		if (sp[lo].pid != pid || addr - sp[lo].addr >= max_size)
			break;
		if (addr - sp[lo].addr < sp[lo].size)
			return true;
	}
	return false;
}

static bool on_grid(uint64_t off)
{
	return off % LINE % SLOT == 0 && off % LINE / SLOT < SLOTS_PER_LINE;
}

/* Whether the call insns[k] of f returned: the instruction after it has
 * samples and nothing but the call leads there (it starts no block: a jump to
 * it, as a once-only initialisation's `je` over the call, would have the
 * samples without the call). */
static bool returned(const struct cfg_func *f, const bool *sampled, size_t k)
{
	long b;

	if (k + 1 >= f->insns_nr || !sampled[k + 1])
		return false;
	b = cfg_func__block_at(f, f->insns[k + 1].off);
	return b >= 0 && f->blocks[b].start != f->insns[k + 1].off;
}

/* The calls of object o out of itself (its direct calls), appended to *calls. */
static int object_calls(const struct stream_object *o, const struct span *sp, size_t sp_nr, uint64_t max_size,
			struct call **calls, size_t *nr, size_t *alloc)
{
	struct cfg_func f;
	bool *sampled;
	int ret = 0;

	if (cfg_func__build(&f, (int)o->e_machine, o->code, o->code_nr, CFG_TRAILING_DATA | CFG_NO_TEXT, NULL, 0))
		return 0;	/* not decodable: no evidence */
	if (!(sampled = calloc(f.insns_nr ? f.insns_nr : 1, sizeof(*sampled)))) {
		cfg_func__release(&f);
		return -ENOMEM;
	}
	for (size_t k = 0; k < o->samples_nr; k++) {
		long at = o->samples[k].samples ? cfg_func__insn_at(&f, (uint32_t)o->samples[k].off) : -1;

		if (at >= 0)
			sampled[at] = true;
	}
	for (size_t k = 0; k < f.insns_nr && !ret; k++) {
		const struct cfg_insn *in = &f.insns[k];
		uint64_t addr = o->addr + in->target;

		if ((in->flags & (INSN_CALL | INSN_HAS_TARGET | INSN_INDIRECT)) != (INSN_CALL | INSN_HAS_TARGET) ||
		    in->target < o->code_nr || covered(sp, sp_nr, max_size, o->pid, addr))
			continue;
		if (VEC_GROW(*calls, *nr + 1, *alloc))
			ret = -ENOMEM;
		else
			(*calls)[(*nr)++] = (struct call){ o->pid, addr, returned(&f, sampled, k) };
	}
	free(sampled);
	cfg_func__release(&f);
	return ret;
}

/* The first wasm code of pid above addr, or UINT64_MAX. */
static uint64_t next_code(const struct v8_jump_tables *j, uint32_t pid, uint64_t addr)
{
	size_t lo = LOWER_BOUND(j->code_nr, i, j->by_addr[i].pid < pid ||
				       (j->by_addr[i].pid == pid && j->by_addr[i].addr <= addr));

	return lo < j->code_nr && j->by_addr[lo].pid == pid ? j->by_addr[lo].addr : UINT64_MAX;
}

/* At most how far a code space's tables reach from its start: a slot for
 * every function index V8 named in pid, in the main table and the far
 * table, and the far table's runtime stubs (about 80 in V8 11; 256 here).
 * Calls beyond are another code space's or no table's. */
static uint64_t span_bound(const struct v8_jump_tables *j, uint32_t pid)
{
	uint64_t funcs = 1;

	for (size_t i = 0; i < j->code_nr; i++)
		if (j->by_index[i].pid == pid && (uint64_t)j->by_index[i].index + 1 > funcs)
			funcs = (uint64_t)j->by_index[i].index + 1;
	return (funcs + SLOTS_PER_LINE - 1) / SLOTS_PER_LINE * LINE + (256 + funcs) * FAR_SLOT;
}

/* Solve the table of the calls c[0..n) (one process, one code space). */
static void solve(const struct v8_jump_tables *j, struct table *t, const struct call *c, size_t n)
{
	size_t returned = 0, agree = 0;
	int max_index = -1;

	t->far = t->end;
	for (size_t i = 0; i < n; i++)
		if (!on_grid(c[i].addr - t->base)) {
			t->far = t->base + (c[i].addr - t->base) / LINE * LINE;
			break;
		}
	for (size_t i = 0; i < j->code_nr; i++)
		if (j->by_index[i].pid == t->pid && j->by_index[i].index > max_index)
			max_index = j->by_index[i].index;
	for (size_t i = 0; i < n; i++)
		returned += c[i].addr < t->far && c[i].returned;
	if (!returned)
		return;		/* no evidence: not known to be a table, nothing to say */
	for (size_t i = 0; i < n; i++)
		if (c[i].addr >= t->far && (c[i].addr - t->far) % FAR_SLOT) {
			snprintf(t->why, sizeof(t->why), "a call lands at +0x%" PRIx64 " of its far jump table,"
				 " between its %d-byte slots", c[i].addr - t->far, FAR_SLOT);
			return;
		}
	/* Lazy compilation: a call that returned reached compiled code, so its
	 * callee has a load; one count of imports must say so of them all. */
	for (int k = 0; k <= max_index; k++) {
		bool all = true;

		for (size_t i = 0; i < n && all; i++) {
			uint64_t off = c[i].addr - t->base;

			if (c[i].addr < t->far && c[i].returned)
				all = loaded(j, t->pid, (long)(off / LINE * SLOTS_PER_LINE + off % LINE / SLOT) + k);
		}
		if (all && !agree++)
			t->imports = k;
	}
	if (agree == 1) {
		t->ok = true;
		return;
	}
	if (!agree)
		snprintf(t->why, sizeof(t->why), "no count of imported functions makes each of the %zu calls"
			 " into it that returned reach a function V8 compiled", returned);
	else
		snprintf(t->why, sizeof(t->why), "%zu counts of imported functions agree with the %zu calls"
			 " into it that returned: too little evidence", agree, returned);
}

static int derive(struct v8_jump_tables *j, const struct stream *s, struct call **calls, size_t *calls_nr,
		  struct span **spans)
{
	size_t sp_nr = 0, n = 0, calls_alloc = 0;
	uint64_t max_size = 0;

	*spans = malloc((s->objects_nr + s->loads_nr + s->maps_nr + 1) * sizeof(**spans));
	j->by_addr = malloc((s->objects_nr + s->loads_nr + 1) * sizeof(*j->by_addr));
	if (!*spans || !j->by_addr)
		return -ENOMEM;
	for (size_t i = 0; i < s->objects_nr + s->loads_nr; i++) {
		bool obj = i < s->objects_nr;
		const struct stream_object *o = obj ? &s->objects[i] : NULL;
		const struct stream_load *l = obj ? NULL : &s->loads[i - s->objects_nr];
		const char *name = obj ? o->name : l->name, *func;
		size_t func_len;
		int index;

		(*spans)[sp_nr++] = (struct span){ obj ? o->pid : l->pid, obj ? o->addr : l->addr,
						   obj ? o->size : l->size };
		if (max_size < (*spans)[sp_nr - 1].size)
			max_size = (*spans)[sp_nr - 1].size;
		if (obj && o->kind != HB_KIND_JIT)
			continue;
		if (name && v8_name__wasm(name, &index, &func, &func_len) && index >= 0)
			j->by_addr[n++] = (struct wcode){ obj ? o->pid : l->pid, obj ? o->addr : l->addr, index, name };
	}
	/* a file's code (node's own builtins, called directly) is no table's */
	for (size_t i = 0; i < s->maps_nr; i++) {
		(*spans)[sp_nr++] = (struct span){ s->maps[i].pid, s->maps[i].addr, s->maps[i].size };
		if (max_size < s->maps[i].size)
			max_size = s->maps[i].size;
	}
	j->code_nr = n;
	if (!n)
		return 0;
	if (!(j->by_index = malloc(n * sizeof(*j->by_index))))
		return -ENOMEM;
	memcpy(j->by_index, j->by_addr, n * sizeof(*j->by_index));
	qsort(j->by_addr, n, sizeof(*j->by_addr), wcode_addr_cmp);
	qsort(j->by_index, n, sizeof(*j->by_index), wcode_index_cmp);
	qsort(*spans, sp_nr, sizeof(**spans), span_cmp);
	for (size_t i = 0; i < s->objects_nr; i++) {
		const struct stream_object *o = &s->objects[i];
		const char *func;
		size_t func_len;
		int index;

		/* the evidence is V8's x64 wasm code's (the geometry above is x64's) */
		if (o->kind == HB_KIND_JIT && o->e_machine == 62 && o->code_nr && o->moved_into == UINT32_MAX &&
		    o->folded_into == UINT32_MAX && v8_name__wasm(o->name, &index, &func, &func_len) &&
		    object_calls(o, *spans, sp_nr, max_size, calls, calls_nr, &calls_alloc))
			return -ENOMEM;
	}
	if (*calls_nr)
		qsort(*calls, *calls_nr, sizeof(**calls), call_cmp);
	/* one table a code space: from the page of its lowest call up to the
	 * first wasm code above it, or as far as its tables can reach */
	for (size_t i = 0; i < *calls_nr;) {
		struct table t = { .pid = (*calls)[i].pid, .base = (*calls)[i].addr / PAGE * PAGE, .imports = -1 };
		size_t k = i;

		t.end = next_code(j, t.pid, t.base);
		if (t.end - t.base > span_bound(j, t.pid))
			t.end = t.base + span_bound(j, t.pid);
		while (k < *calls_nr && (*calls)[k].pid == t.pid && (*calls)[k].addr < t.end)
			k++;
		if (t.end == UINT64_MAX)
			t.end = (*calls)[k - 1].addr + 1;
		solve(j, &t, *calls + i, k - i);
		if ((t.ok || t.why[0]) && VEC_GROW(j->t, j->t_nr + 1, j->t_alloc))
			return -ENOMEM;
		if (t.ok || t.why[0])
			j->t[j->t_nr++] = t;
		i = k;
	}
	return 0;
}

static bool has_v8_wasm(const struct stream *s)
{
	const char *func;
	size_t func_len;
	int index;

	for (size_t i = 0; i < s->objects_nr; i++)
		if (s->objects[i].kind == HB_KIND_JIT && s->objects[i].e_machine == 62 &&
		    v8_name__wasm(s->objects[i].name, &index, &func, &func_len))
			return true;
	return false;
}

int v8_jump_tables__derive(struct v8_jump_tables **out, const struct stream *s)
{
	struct v8_jump_tables *j;
	struct call *calls = NULL;
	struct span *spans = NULL;
	size_t calls_nr = 0;
	int ret;

	*out = NULL;
	/* nothing allocated for a stream without V8 wasm code (the heap Graphviz
	 * lays pages out on stays as it was: its routing follows addresses) */
	if (!has_v8_wasm(s))
		return 0;
	if (!(j = calloc(1, sizeof(*j))))
		return -ENOMEM;
	ret = derive(j, s, &calls, &calls_nr, &spans);
	free(calls);
	free(spans);
	if (ret || !j->t_nr) {
		v8_jump_tables__free(j);
		return ret;
	}
	*out = j;
	return 0;
}

void v8_jump_tables__free(struct v8_jump_tables *j)
{
	if (!j)
		return;
	free(j->by_addr);
	free(j->by_index);
	free(j->t);
	free(j);
}

bool v8_jump_tables__find(const struct v8_jump_tables *j, uint32_t pid, uint64_t addr, struct v8_slot *out)
{
	memset(out, 0, sizeof(*out));
	out->func_index = -1;
	for (size_t i = 0; j && i < j->t_nr; i++) {
		const struct table *t = &j->t[i];
		const struct wcode *w;
		uint64_t off = addr - t->base;

		if (!t->ok || t->pid != pid || addr < t->base || addr >= t->end)
			continue;
		if (addr >= t->far) {
			if ((addr - t->far) % FAR_SLOT)
				return false;
			out->far = true;
			out->off = addr - t->far;
			return true;
		}
		if (!on_grid(off))
			return false;
		out->func_index = (int)(off / LINE * SLOTS_PER_LINE + off % LINE / SLOT) + t->imports;
		w = loaded(j, pid, out->func_index);
		out->name = w ? w->name : NULL;
		return true;
	}
	return false;
}

void v8_jump_tables__summary(const struct v8_jump_tables *j, void (*note)(void *arg, const char *line),
			     void *arg)
{
	char line[400];

	for (size_t i = 0; j && i < j->t_nr; i++) {
		if (j->t[i].ok)
			continue;
		snprintf(line, sizeof(line), "calls into V8's wasm jump table at 0x%" PRIx64 " (pid %" PRIu32
			 ") left as addresses: %s", j->t[i].base, j->t[i].pid, j->t[i].why);
		note(arg, line);
	}
}

/* SPDX-License-Identifier: MIT */
/*
 * hotblocks --pprof FILE: every sample of the selected functions as a pprof
 * profile (google/pprof's profile.proto, render/pprof/profile.proto),
 * gzip-compressed as pprof stores it, for go tool pprof and the fleet tools
 * that read it (postproc/FORMATS.md, "pprof").
 *
 * One Location per sampled address, one Line on it: the function as the
 * report names it and the [Source] file:line of the instruction when known.
 * One Mapping per file mapping (the stream's `map`, with its build-id) or
 * JIT code load. A recording without callchains gives sampled addresses
 * alone: each Sample is one Location. One with callchains (perf record -g,
 * the stream's `stack`) gives each stack as a Sample's Locations, leaf
 * first, a caller's Location at its return address, named as the report
 * names its function; samples of a Location no stack holds (none, or
 * beyond a selection) stay a Sample of that Location alone, so that the
 * totals are the same either way. What pprof has no field for goes in labels:
 * kind, tier, block (the run-time address of the block's start),
 * wasm_offset, and pid. Samples in no function (kernel, the unattributed
 * classes) are Locations of their own, named [kernel], [unattributed.NAME],
 * so that the profile's total is the report's.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "profile.pb-c.h"

#include "../plugin/lib/bsearch.h"
#include "../plugin/lib/hash.h"
#include "../plugin/lib/utf8.h"
#include "lib/strbuf.h"
#include "render.h"

/* A Location as gathered, before the messages are made: string ids are
 * indexes in the string table (0: none). */
struct pp_loc {
	uint64_t address;
	uint32_t mapping;		/* index + 1 in pp.maps; 0: none */
	uint32_t func;			/* index in pp.funcs */
	int64_t line;
	uint64_t samples, period;
	int64_t kind, tier, block, wasm_offset;
	uint64_t pid;
	bool has_pid;
	/* what finds it (loc_idx): a listed function's index and the address,
	 * a class's (UINT32_MAX) name, a function not listed (its pp_func |
	 * 1 << 31) and the address */
	uint32_t key_f;
	uint64_t key_a;
	uint64_t left_samples, left_period;	/* those no stack's Sample holds */
};

/* A Sample: its Locations (indexes in pp.locs, leaf first) at
 * pp.ids[first ..], the labels of its leaf's. */
struct pp_smp {
	size_t first;
	uint32_t nr;
	uint32_t leaf;
	uint64_t samples, period;
};

struct pp_func {
	int64_t name, system_name, filename;
};

struct pp_map {
	uint64_t start, limit, offset;
	int64_t filename, build_id;
	bool lines;			/* a Location of it has a source line */
};

struct pp {
	char **strings;
	size_t strings_nr, strings_alloc;
	struct idx_table string_idx;
	struct pp_func *funcs;
	size_t funcs_nr, funcs_alloc;
	struct idx_table func_idx;
	struct pp_map *maps;
	size_t maps_nr, maps_alloc;
	struct idx_table map_idx;
	struct pp_loc *locs;
	size_t locs_nr, locs_alloc;
	struct idx_table loc_idx;
	struct pp_smp *smps;
	size_t smps_nr, smps_alloc;
	uint64_t *ids;
	size_t ids_nr, ids_alloc;
	int64_t *func_file;		/* [report.funcs_nr]: the file its Lines name, 0: none */
	bool oom;
	/* the label keys, interned first */
	int64_t k_kind, k_tier, k_block, k_wasm_offset, k_pid;
};

/* Room for one more in *v (nr, alloc): false (and oom) when there is none. */
static bool grow(struct pp *p, void **v, size_t size, size_t nr, size_t *alloc)
{
	void *n;
	size_t cap;

	if (nr < *alloc)
		return true;
	cap = *alloc ? *alloc * 2 : 64;
	if (!(n = realloc(*v, cap * size))) {
		p->oom = true;
		return false;
	}
	*v = n;
	*alloc = cap;
	return true;
}
#define GROW(p, arr, what) grow((p), (void **)&(p)->arr, sizeof(*(p)->arr), (p)->what##_nr, &(p)->what##_alloc)

static bool string_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct pp *p = ctx;

	return !strcmp(p->strings[idx], key);
}

/* s's index in the string table, added when new; s is copied. */
static int64_t str_id(struct pp *p, const char *s)
{
	uint64_t h = hash_bytes(HASH_SEED, s, strlen(s));
	long i = idx_table_find(&p->string_idx, h, string_eq, s, p);
	char *copy;

	if (i >= 0)
		return i;
	if (p->oom || !GROW(p, strings, strings) || !(copy = strdup(s))) {
		p->oom = true;
		return 0;
	}
	if (idx_table_add(&p->string_idx, h, (uint32_t)p->strings_nr)) {
		free(copy);
		p->oom = true;
		return 0;
	}
	p->strings[p->strings_nr] = copy;
	return (int64_t)p->strings_nr++;
}

/*
 * Text from the profiled program, interned as the text report shows it
 * (utf8.h's rule): valid UTF-8, as proto3 strings must be, and nothing in it
 * can drive the terminal that go tool pprof prints it on.
 */
static int64_t shown_id(struct pp *p, const char *s)
{
	struct strbuf sb = { 0 };
	size_t n = s ? strlen(s) : 0, len;
	char esc[UTF8_ESCAPE_MAX];
	uint32_t cp;
	int64_t id;

	if (!n)
		return 0;
	for (size_t i = 0; i < n; i += len) {
		if (utf8_escape(s + i, n - i, &len, &cp, esc))
			strbuf_addstr(&sb, esc);
		else
			strbuf_add(&sb, s + i, len);
	}
	if (sb.oom) {
		p->oom = true;
		return 0;
	}
	id = str_id(p, sb.buf);
	strbuf_release(&sb);
	return id;
}

static int64_t hex_id(struct pp *p, uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return str_id(p, buf);
}

static bool func_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct pp *p = ctx;

	return !memcmp(&p->funcs[idx], key, sizeof(struct pp_func));
}

static uint32_t func_id(struct pp *p, const struct pp_func *f)
{
	uint64_t h = hash_u64(hash_u64(hash_u64(HASH_SEED, (uint64_t)f->name), (uint64_t)f->system_name),
			      (uint64_t)f->filename);
	long i = idx_table_find(&p->func_idx, h, func_eq, f, p);

	if (i >= 0)
		return (uint32_t)i;
	if (p->oom || !GROW(p, funcs, funcs) || idx_table_add(&p->func_idx, h, (uint32_t)p->funcs_nr)) {
		p->oom = true;
		return 0;
	}
	p->funcs[p->funcs_nr] = *f;
	return (uint32_t)p->funcs_nr++;
}

static bool map_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct pp *p = ctx;
	const struct pp_map *a = &p->maps[idx], *b = key;

	return a->start == b->start && a->limit == b->limit && a->offset == b->offset &&
	       a->filename == b->filename && a->build_id == b->build_id;
}

/* m's index + 1 among the mappings, added when new. */
static uint32_t map_id(struct pp *p, const struct pp_map *m)
{
	uint64_t h = hash_u64(hash_u64(hash_u64(hash_u64(hash_u64(HASH_SEED, m->start), m->limit),
						m->offset), (uint64_t)m->filename), (uint64_t)m->build_id);
	long i = idx_table_find(&p->map_idx, h, map_eq, m, p);

	if (i >= 0)
		return (uint32_t)i + 1;
	if (p->oom || !GROW(p, maps, maps) || idx_table_add(&p->map_idx, h, (uint32_t)p->maps_nr)) {
		p->oom = true;
		return 0;
	}
	p->maps[p->maps_nr] = *m;
	return (uint32_t)++p->maps_nr;
}

/* f's mapping: its file as mapped (with its build-id), else its code's own
 * range: a JIT code load, or code the stream has no mapping of. */
static uint32_t func_mapping(struct pp *p, const struct report_func *f)
{
	const struct report_code *c = &f->code;
	struct pp_map m = { .filename = shown_id(p, c->path) };
	char hex[2 * 255 + 1];

	if (c->mapped) {
		m.start = c->map_start;
		m.limit = c->map_start + c->map_size;
		m.offset = c->map_pgoff;
		for (size_t i = 0; i < c->build_id_size; i++)
			snprintf(hex + 2 * i, 3, "%02x", c->build_id[i]);
		m.build_id = c->build_id_size ? str_id(p, hex) : 0;
	} else {
		m.start = c->address;
		m.limit = c->address + (c->size ? c->size : 1);
		/* A file's code: where in the file it starts. A JIT's code is in
		 * no file: its address stands for the offset, or pprof, which
		 * takes mappings of one file, offset and size (rounded to 4 KiB)
		 * for one, would fold the loads of a dump into one and move
		 * their addresses. */
		m.offset = c->jit || (c->source && !strcmp(c->source, "perf-map")) ? c->address :
			   c->sym_start;
	}
	return map_id(p, &m);
}

static uint64_t loc_hash(uint32_t key_f, uint64_t key_a)
{
	return hash_u64(hash_u64(HASH_SEED, key_f), key_a);
}

static bool loc_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct pp_loc *a = &((const struct pp *)ctx)->locs[idx], *b = key;

	return a->key_f == b->key_f && a->key_a == b->key_a;
}

/* The Location of (key_f, key_a), or -1. */
static long find_loc(const struct pp *p, uint32_t key_f, uint64_t key_a)
{
	struct pp_loc key = { .key_f = key_f, .key_a = key_a };

	return idx_table_find(&p->loc_idx, loc_hash(key_f, key_a), loc_eq, &key, p);
}

static void add_loc(struct pp *p, const struct pp_loc *l)
{
	if (p->oom || !GROW(p, locs, locs) || idx_table_add(&p->loc_idx, loc_hash(l->key_f, l->key_a), (uint32_t)p->locs_nr)) {
		p->oom = true;
		return;
	}
	p->locs[p->locs_nr] = *l;
	p->locs[p->locs_nr].left_samples = l->samples;
	p->locs[p->locs_nr++].left_period = l->period;
}

/* The row of f at offset off (rows are in address order), or NULL. */
static const struct report_row *row_at(const struct report_func *f, uint64_t off)
{
	size_t lo = LOWER_BOUND(f->rows_nr, i, f->rows[i].off < off);

	return lo < f->rows_nr && f->rows[lo].off == off ? &f->rows[lo] : NULL;
}

/* Every sampled address of listed function i: a Location each. */
static int add_func(struct pp *p, const struct report *rep, size_t i, uint64_t *samples,
		    uint64_t *period)
{
	const struct report_func *f = &rep->funcs[i];
	struct pp_func fn = { .name = shown_id(p, f->display_name), .system_name = shown_id(p, f->code.name) };
	struct pp_loc base = {
		.mapping = func_mapping(p, f), .kind = str_id(p, f->kind),
		.tier = f->tier ? str_id(p, f->tier) : 0, .pid = f->code.pid, .has_pid = true,
	};
	int ret = report__func_open(rep, i);

	if (ret)
		return ret;
	for (size_t k = 0; k < f->points_nr && !p->oom; k++) {
		const struct report_point *pt = &f->points[k];
		const struct report_row *row = pt->off <= UINT32_MAX ? row_at(f, pt->off) : NULL;
		struct pp_loc l = base;

		fn.filename = 0;
		if (row && row->source_file) {
			fn.filename = shown_id(p, row->source_file);
			if (!p->func_file[i])
				p->func_file[i] = fn.filename;
			l.line = row->source_line;
			if (l.mapping)
				p->maps[l.mapping - 1].lines |= row->source_line != 0;
		}
		if (row && row->block >= 0)
			l.block = hex_id(p, f->code.address + f->blocks[row->block].start);
		if (row && row->has_wasm_offset)
			l.wasm_offset = hex_id(p, row->wasm_offset);
		l.func = func_id(p, &fn);
		l.address = f->code.address + pt->off;
		l.samples = pt->samples;
		l.period = pt->period;
		l.key_f = (uint32_t)i;
		l.key_a = l.address;
		*samples += pt->samples;
		*period += pt->period;
		add_loc(p, &l);
	}
	report__func_close(rep, i);
	return 0;
}

/* Samples in no function, a Location of their own named what they are. */
static void add_class(struct pp *p, const char *name, const char *kind, uint64_t samples,
		      uint64_t period)
{
	struct pp_func fn = { 0 };
	struct pp_loc l = { .kind = str_id(p, kind), .samples = samples, .period = period };

	if (!samples)
		return;
	fn.name = fn.system_name = str_id(p, name);
	l.func = func_id(p, &fn);
	l.key_f = UINT32_MAX;
	l.key_a = (uint64_t)fn.name;
	add_loc(p, &l);
}

/* The classes of samples in no object: when the selection leaves no
 * function out, every sample of the event is in the profile, as it is in
 * the report's total. */
static void add_classes(struct pp *p, const struct report *rep, uint64_t samples, uint64_t period)
{
	char name[64];

	for (size_t i = 0; i < rep->classes_nr; i++) {
		const struct report_class *c = &rep->classes[i];

		if (!c->unattributed && strcmp(c->name, "kernel"))
			continue;
		snprintf(name, sizeof(name), c->unattributed ? "[unattributed.%s]" : "[%s]", c->name);
		add_class(p, name, c->unattributed ? "unattributed" : "kernel", c->samples, c->period);
		samples += c->samples;
		period += c->period;
	}
	/* in an object the stream lost (a line over its limit, STREAM.md "Lines") */
	if (rep->total > samples)
		add_class(p, "[in no readable object]", "unattributed", rep->total - samples,
			  rep->total_period > period ? rep->total_period - period : 0);
}

/* The Location of a stack's leaf frame (one gathered: -1 when the selection left it out). */
static long leaf_loc(struct pp *p, const struct report_frame *fr)
{
	if (!fr->placed)
		return find_loc(p, UINT32_MAX, (uint64_t)str_id(p, fr->display_name));
	return fr->func < 0 ? -1 : find_loc(p, (uint32_t)fr->func, fr->address);
}

/* The Location of a caller frame, added when new: in its function's
 * mapping when it is listed, named as the report names it. */
static long caller_loc(struct pp *p, const struct report *rep, const struct report_frame *fr)
{
	struct pp_func fn = { .name = shown_id(p, fr->display_name), .system_name = shown_id(p, fr->name) };
	struct pp_loc l = { .address = fr->address };
	long i;

	if (!fr->placed) {
		/* a class's Location (kernel frames over a user stack), the one of its samples if it has some */
		bool kernel = !strcmp(fr->display_name, "[kernel]");

		fn.name = fn.system_name = str_id(p, fr->display_name);
		l.kind = str_id(p, kernel ? "kernel" : "unattributed");
		l.key_f = UINT32_MAX;
		l.key_a = (uint64_t)fn.name;
		if ((i = find_loc(p, l.key_f, l.key_a)) >= 0)
			return i;
		l.func = func_id(p, &fn);
		add_loc(p, &l);
		return p->oom ? -1 : (long)p->locs_nr - 1;
	}
	if (fr->func >= 0) {
		const struct report_func *f = &rep->funcs[fr->func];

		fn.filename = p->func_file[fr->func];
		l.key_f = (uint32_t)fr->func;
		l.mapping = func_mapping(p, f);
		l.kind = str_id(p, f->kind);
	} else {
		l.key_f = func_id(p, &fn) | 1u << 31;
	}
	l.key_a = fr->address;
	if ((i = find_loc(p, l.key_f, l.key_a)) >= 0)
		return i;
	l.func = func_id(p, &fn);
	add_loc(p, &l);
	return p->oom ? -1 : (long)p->locs_nr - 1;
}

static void add_sample(struct pp *p, uint32_t leaf, size_t first, uint32_t nr, uint64_t samples, uint64_t period)
{
	if (p->oom || !GROW(p, smps, smps))
		return;
	p->smps[p->smps_nr++] = (struct pp_smp){ first, nr, leaf, samples, period };
}

/* Each stack whose leaf is gathered: a Sample of its Locations, as many of
 * its samples as its leaf's Location has left (a selection may have kept
 * fewer); then what is left of each Location, a Sample of its own. */
static void add_stacks(struct pp *p, const struct report *rep)
{
	const struct report_stacks *st = rep->stacks;
	size_t gathered = p->locs_nr;

	for (size_t i = 0; st && i < st->nr && !p->oom; i++) {
		const struct report_stack *s = &st->v[i];
		const struct report_frame *fr = &st->frames[s->first];
		long leaf = s->frames_nr ? leaf_loc(p, fr) : -1;
		size_t first = p->ids_nr;

		if (leaf < 0)
			continue;
		struct pp_loc *l = &p->locs[leaf];
		uint64_t n = s->samples < l->left_samples ? s->samples : l->left_samples;
		uint64_t per = s->period < l->left_period ? s->period : l->left_period;

		if (!n)
			continue;
		l->left_samples -= n;
		l->left_period -= per;
		for (uint32_t k = 0; k < s->frames_nr && !p->oom; k++) {
			long at = k ? caller_loc(p, rep, &fr[k]) : leaf;

			if (at < 0 || !GROW(p, ids, ids)) {
				p->oom = true;
				break;
			}
			p->ids[p->ids_nr++] = (uint64_t)at;
		}
		add_sample(p, (uint32_t)leaf, first, (uint32_t)(p->ids_nr - first), n, per);
	}
	for (size_t i = 0; i < gathered && !p->oom; i++) {
		if (!p->locs[i].left_samples)
			continue;
		if (!GROW(p, ids, ids)) {
			p->oom = true;
			break;
		}
		p->ids[p->ids_nr] = i;
		add_sample(p, (uint32_t)i, p->ids_nr++, 1, p->locs[i].left_samples, p->locs[i].left_period);
	}
}

/* Whether the selection (--function, or any other) left no sampled function out. */
static bool every_function(const struct report *rep)
{
	for (size_t i = 0; i < rep->ranked_nr; i++)
		if (!rep->ranked[i].selected)
			return false;
	return true;
}

/* The period's value type: CPU time for the software clocks, else the event's count. */
static void period_type(struct pp *p, const char *event, int64_t *type, int64_t *unit)
{
	if (!strcmp(event, "cpu-clock") || !strcmp(event, "task-clock")) {
		*type = str_id(p, "cpu");
		*unit = str_id(p, "nanoseconds");
	} else {
		*type = shown_id(p, event);
		*unit = str_id(p, "count");
	}
}

/* Where the packed profile goes: through gzip into out. */
struct gz_sink {
	ProtobufCBuffer base;
	z_stream z;
	FILE *out;
	int err;
};

static int gz_put(struct gz_sink *g, const uint8_t *data, size_t len, int flush)
{
	uint8_t buf[1 << 15];
	int zr;

	g->z.next_in = (Bytef *)data;
	g->z.avail_in = (uInt)len;
	do {
		g->z.next_out = buf;
		g->z.avail_out = sizeof(buf);
		zr = deflate(&g->z, flush);
		if (zr == Z_STREAM_ERROR)
			return -EINVAL;
		if (fwrite(buf, 1, sizeof(buf) - g->z.avail_out, g->out) != sizeof(buf) - g->z.avail_out)
			return -EIO;
	} while (g->z.avail_out == 0 || (flush == Z_FINISH && zr != Z_STREAM_END));
	return 0;
}

static void gz_append(ProtobufCBuffer *b, size_t len, const uint8_t *data)
{
	struct gz_sink *g = (struct gz_sink *)b;

	/* zlib takes at most UINT_MAX bytes at a time */
	while (!g->err && len) {
		size_t n = len > (1u << 30) ? (1u << 30) : len;

		g->err = gz_put(g, data, n, Z_NO_FLUSH);
		data += n;
		len -= n;
	}
}

/* The distinct labels, one message each, which the samples share: a
 * profile's labels take few values (kinds, tiers, blocks, pids). */
struct label_set {
	Perftools__Profiles__Label **labels;	/* owned, each owned */
	size_t labels_nr, labels_alloc;
	struct idx_table idx;
	bool oom;
};

static bool label_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct label_set *ls = ctx;
	const Perftools__Profiles__Label *a = ls->labels[idx], *b = key;

	return a->key == b->key && a->str == b->str && a->num == b->num;
}

/* The label key=str (str 0: key=num), shared; NULL (and oom) without memory. */
static Perftools__Profiles__Label *label(struct label_set *ls, int64_t key, int64_t str, int64_t num)
{
	Perftools__Profiles__Label want = PERFTOOLS__PROFILES__LABEL__INIT, *l, **v;
	uint64_t h = hash_u64(hash_u64(hash_u64(HASH_SEED, (uint64_t)key), (uint64_t)str), (uint64_t)num);
	long i;

	want.key = key;
	want.str = str;
	want.num = num;
	if ((i = idx_table_find(&ls->idx, h, label_eq, &want, ls)) >= 0)
		return ls->labels[i];
	if (ls->labels_nr == ls->labels_alloc) {
		size_t cap = ls->labels_alloc ? 2 * ls->labels_alloc : 64;

		if (!(v = realloc(ls->labels, cap * sizeof(*v)))) {
			ls->oom = true;
			return NULL;
		}
		ls->labels = v;
		ls->labels_alloc = cap;
	}
	if (!(l = malloc(sizeof(*l))) || idx_table_add(&ls->idx, h, (uint32_t)ls->labels_nr)) {
		free(l);
		ls->oom = true;
		return NULL;
	}
	*l = want;
	return ls->labels[ls->labels_nr++] = l;
}

static void label_set__release(struct label_set *ls)
{
	for (size_t i = 0; i < ls->labels_nr; i++)
		free(ls->labels[i]);
	free(ls->labels);
	idx_table_release(&ls->idx);
}

/* The messages, made of what was gathered: arrays of each, and the arrays
 * of pointers to them that protobuf-c's repeated fields are. */
struct msgs {
	Perftools__Profiles__Location *locs, **locp;
	Perftools__Profiles__Line *lines, **linep;
	Perftools__Profiles__Sample *smp, **smpp;
	uint64_t *loc_ids;
	int64_t *values;
	Perftools__Profiles__Label **labelp;	/* at most 5 a sample */
	struct label_set ls;
	Perftools__Profiles__Function *fns, **fnp;
	Perftools__Profiles__Mapping *maps, **mapp;
};

static bool msgs__alloc(struct msgs *m, size_t n, size_t smps, size_t ids, size_t funcs, size_t maps)
{
	n += !n;
	smps += !smps;
	ids += !ids;
	funcs += !funcs;
	maps += !maps;
	m->locs = calloc(n, sizeof(*m->locs));
	m->locp = calloc(n, sizeof(*m->locp));
	m->lines = calloc(n, sizeof(*m->lines));
	m->linep = calloc(n, sizeof(*m->linep));
	m->smp = calloc(smps, sizeof(*m->smp));
	m->smpp = calloc(smps, sizeof(*m->smpp));
	m->loc_ids = calloc(ids, sizeof(*m->loc_ids));
	m->values = calloc(2 * smps, sizeof(*m->values));
	m->labelp = calloc(5 * smps, sizeof(*m->labelp));
	m->fns = calloc(funcs, sizeof(*m->fns));
	m->fnp = calloc(funcs, sizeof(*m->fnp));
	m->maps = calloc(maps, sizeof(*m->maps));
	m->mapp = calloc(maps, sizeof(*m->mapp));
	return m->locs && m->locp && m->lines && m->linep && m->smp && m->smpp && m->loc_ids &&
	       m->values && m->labelp && m->fns && m->fnp && m->maps && m->mapp;
}

static void msgs__free(struct msgs *m)
{
	free(m->locs);
	free(m->locp);
	free(m->lines);
	free(m->linep);
	free(m->smp);
	free(m->smpp);
	free(m->loc_ids);
	free(m->values);
	free(m->labelp);
	label_set__release(&m->ls);
	free(m->fns);
	free(m->fnp);
	free(m->maps);
	free(m->mapp);
}

static void make_functions(struct msgs *m, const struct pp *p)
{
	for (size_t i = 0; i < p->funcs_nr; i++) {
		perftools__profiles__function__init(&m->fns[i]);
		m->fns[i].id = i + 1;
		m->fns[i].name = p->funcs[i].name;
		m->fns[i].system_name = p->funcs[i].system_name;
		m->fns[i].filename = p->funcs[i].filename;
		m->fnp[i] = &m->fns[i];
	}
}

static void make_mappings(struct msgs *m, const struct pp *p)
{
	for (size_t i = 0; i < p->maps_nr; i++) {
		Perftools__Profiles__Mapping *mp = &m->maps[i];

		perftools__profiles__mapping__init(mp);
		mp->id = i + 1;
		mp->memory_start = p->maps[i].start;
		mp->memory_limit = p->maps[i].limit;
		mp->file_offset = p->maps[i].offset;
		mp->filename = p->maps[i].filename;
		mp->build_id = p->maps[i].build_id;
		/* names come from hotblocks: nothing for pprof to symbolize */
		mp->has_functions = true;
		mp->has_filenames = p->maps[i].lines;
		mp->has_line_numbers = p->maps[i].lines;
		m->mapp[i] = mp;
	}
}

/* Location and Line i of each gathered one, and each Sample (nv values a
 * sample). Returns 0 or -ENOMEM. */
static int make_samples(struct msgs *m, const struct pp *p, size_t nv)
{
	size_t nl = 0;

	for (size_t i = 0; i < p->locs_nr; i++) {
		const struct pp_loc *l = &p->locs[i];

		perftools__profiles__line__init(&m->lines[i]);
		m->lines[i].function_id = l->func + 1;
		m->lines[i].line = l->line;
		m->linep[i] = &m->lines[i];
		perftools__profiles__location__init(&m->locs[i]);
		m->locs[i].id = i + 1;
		m->locs[i].mapping_id = l->mapping;
		m->locs[i].address = l->address;
		m->locs[i].n_line = 1;
		m->locs[i].line = &m->linep[i];
		m->locp[i] = &m->locs[i];
	}
	for (size_t i = 0; i < p->ids_nr; i++)
		m->loc_ids[i] = p->ids[i] + 1;
	for (size_t i = 0; i < p->smps_nr; i++) {
		const struct pp_smp *ps = &p->smps[i];
		const struct pp_loc *l = &p->locs[ps->leaf];
		struct { int64_t key, str; } str_labels[] = {
			{ p->k_kind, l->kind }, { p->k_tier, l->tier }, { p->k_block, l->block },
			{ p->k_wasm_offset, l->wasm_offset },
		};
		Perftools__Profiles__Sample *smp = &m->smp[i];

		perftools__profiles__sample__init(smp);
		smp->n_location_id = ps->nr;
		smp->location_id = &m->loc_ids[ps->first];
		m->values[2 * i] = (int64_t)ps->samples;
		m->values[2 * i + 1] = (int64_t)ps->period;
		smp->n_value = nv;
		smp->value = &m->values[2 * i];
		smp->label = &m->labelp[nl];
		for (size_t k = 0; k < sizeof(str_labels) / sizeof(str_labels[0]); k++)
			if (str_labels[k].str)
				m->labelp[nl++] = label(&m->ls, str_labels[k].key, str_labels[k].str, 0);
		if (l->has_pid)
			m->labelp[nl++] = label(&m->ls, p->k_pid, 0, (int64_t)l->pid);
		smp->n_label = (size_t)(&m->labelp[nl] - smp->label);
		m->smpp[i] = smp;
	}
	return m->ls.oom ? -ENOMEM : 0;
}

/* prof packed, through gzip (windowBits 15 + 16), as pprof reads and
 * writes its files, to out. Returns 0, -EIO or -ENOMEM. */
static int pack_gzipped(const Perftools__Profiles__Profile *prof, FILE *out)
{
	struct gz_sink g = { .base = { gz_append }, .out = out };

	if (deflateInit2(&g.z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	perftools__profiles__profile__pack_to_buffer(prof, &g.base);
	if (!g.err)
		g.err = gz_put(&g, NULL, 0, Z_FINISH);
	deflateEnd(&g.z);
	return g.err ? g.err : ferror(out) ? -EIO : 0;
}

/* The profile of what was gathered, written to out. */
static int write_profile(struct pp *p, const struct report *rep, FILE *out)
{
	Perftools__Profiles__Profile prof = PERFTOOLS__PROFILES__PROFILE__INIT;
	Perftools__Profiles__ValueType vt[2] = { PERFTOOLS__PROFILES__VALUE_TYPE__INIT,
						 PERFTOOLS__PROFILES__VALUE_TYPE__INIT };
	Perftools__Profiles__ValueType *vtp[2] = { &vt[0], &vt[1] };
	size_t nv = rep->event ? 2 : 1;
	struct msgs m = { 0 };
	int64_t comment;
	int ret = -ENOMEM;

	vt[0].type = str_id(p, "samples");
	vt[0].unit = str_id(p, "count");
	if (rep->event)
		period_type(p, rep->event, &vt[1].type, &vt[1].unit);
	comment = str_id(p, rep->stacks ? "hotblocks: callchain stacks, leaf first (perf record -g)" :
					  "hotblocks: sampled addresses, no call stacks (the stream has none)");
	if (p->oom || !msgs__alloc(&m, p->locs_nr, p->smps_nr, p->ids_nr, p->funcs_nr, p->maps_nr))
		goto out;
	make_functions(&m, p);
	make_mappings(&m, p);
	if (make_samples(&m, p, nv))
		goto out;
	prof.n_sample_type = nv;
	prof.sample_type = vtp;
	prof.n_sample = p->smps_nr;
	prof.sample = m.smpp;
	prof.n_mapping = p->maps_nr;
	prof.mapping = m.mapp;
	prof.n_location = p->locs_nr;
	prof.location = m.locp;
	prof.n_function = p->funcs_nr;
	prof.function = m.fnp;
	prof.n_string_table = p->strings_nr;
	prof.string_table = p->strings;
	prof.n_comment = 1;
	prof.comment = &comment;
	if (rep->event) {
		prof.period_type = &vt[1];
		prof.period = rep->total ? (int64_t)(rep->total_period / rep->total) : 0;
	}
	ret = pack_gzipped(&prof, out);
out:
	msgs__free(&m);
	return ret;
}

int render_pprof(FILE *out, const struct report *rep, const struct render_opts *o)
{
	struct pp p = { 0 };
	uint64_t samples = 0, period = 0;
	int ret = 0;

	(void)o;
	str_id(&p, "");	/* string_table[0] is "" */
	p.k_kind = str_id(&p, "kind");
	p.k_tier = str_id(&p, "tier");
	p.k_block = str_id(&p, "block");
	p.k_wasm_offset = str_id(&p, "wasm_offset");
	p.k_pid = str_id(&p, "pid");
	if (!(p.func_file = calloc(rep->funcs_nr + 1, sizeof(*p.func_file))))
		return -ENOMEM;
	for (size_t i = 0; !ret && !p.oom && i < rep->funcs_nr; i++)
		ret = add_func(&p, rep, i, &samples, &period);
	if (!ret && every_function(rep))
		add_classes(&p, rep, samples, period);
	if (!ret)
		add_stacks(&p, rep);
	if (!ret)
		ret = p.oom ? -ENOMEM : write_profile(&p, rep, out);
	for (size_t i = 0; i < p.strings_nr; i++)
		free(p.strings[i]);
	free(p.strings);
	free(p.funcs);
	free(p.maps);
	free(p.locs);
	free(p.smps);
	free(p.ids);
	free(p.func_file);
	idx_table_release(&p.loc_idx);
	idx_table_release(&p.string_idx);
	idx_table_release(&p.func_idx);
	idx_table_release(&p.map_idx);
	return ret;
}

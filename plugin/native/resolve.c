// SPDX-License-Identifier: MIT
/* Native samples resolved by the plugin (see resolve.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../lib/hash.h"
#include "../lib/jit-beam.h"
#include "../lib/vec.h"
#include "../lib/warnings.h"
#include "resolve.h"

/* A native function's code is read once, up to this many bytes. */
#define MAX_NATIVE_CODE (1u << 20)
/* Owners in the object cache: a file's index, or a perf map's with this bit. */
#define PERFMAP_OWNER (1u << 31)

struct resolve_perfmap {
	char *path;
	struct perfmap map;
};

struct cache_entry {
	uint64_t key;		/* the symbol's or perf map line's, in its owner */
	uint32_t owner;
	uint32_t native;	/* natives id */
};

struct resolve_objcache {
	struct cache_entry *v;
	size_t nr, alloc;
	struct idx_table index;	/* (owner, key) -> v */
};

void resolve__init(struct resolve *r, struct warnings *warnings)
{
	memset(r, 0, sizeof(*r));
	r->warnings = warnings;
	mmaps__init(&r->maps);
	snprintf(r->why_not, sizeof(r->why_not), "perf.data was not read");
}

void resolve__release(struct resolve *r)
{
	for (size_t i = 0; i < r->maps.files_nr; i++)
		elfsyms__free(r->maps.files[i].priv);
	for (size_t i = 0; i < r->pmaps_nr; i++) {
		perfmap__release(&r->pmaps[i].map);
		free(r->pmaps[i].path);
	}
	free(r->pmaps);
	mmaps__release(&r->maps);
	if (r->cache) {
		free(r->cache->v);
		idx_table_release(&r->cache->index);
	}
	free(r->cache);
	free(r->code_buf);
	free(r->file_stats);
	free(r->buildid_dir);
	free(r->symfs);
	for (size_t i = 0; i < r->search_nr; i++)
		free(r->search[i]);
	free(r->search);
	memset(r, 0, sizeof(*r));
}

int resolve__places(struct resolve *r, const char *symfs, const char *perf_data, const char *const *dirs,
		    size_t dirs_nr)
{
	if (symfs && !(r->symfs = strdup(symfs)))
		return -ENOMEM;
	if (!(r->search = calloc(dirs_nr + 1, sizeof(*r->search))))
		return -ENOMEM;
	if (perf_data && strcmp(perf_data, "-")) {
		const char *slash = strrchr(perf_data, '/');

		if (!(r->search[r->search_nr] = slash ? strndup(perf_data, (size_t)(slash - perf_data + (slash == perf_data)))
						      : strdup(".")))
			return -ENOMEM;
		r->search_nr++;
	}
	for (size_t i = 0; i < dirs_nr; i++) {
		if (!(r->search[r->search_nr] = strdup(dirs[i])))
			return -ENOMEM;
		r->search_nr++;
	}
	return 0;
}

void resolve__visitor(struct resolve *r, struct perfdata_visitor *v)
{
	v->mmap = mmaps__on_mmap;
	v->task = mmaps__on_task;
	v->build_id = mmaps__on_build_id;
	v->arg = &r->maps;
}

void resolve__ready(struct resolve *r, int walk_ret, const struct perfdata_scan_stats *st, const char *why)
{
	const char *dir = getenv("PERF_BUILDID_DIR"), *home = getenv("HOME"), *urls = getenv("DEBUGINFOD_URLS");

	r->usable = false;
	if (why)
		snprintf(r->why_not, sizeof(r->why_not), "%s", why);
	else if (walk_ret)
		snprintf(r->why_not, sizeof(r->why_not), "perf.data could not be read for its mmap records");
	else if (st->compressed_failed)
		snprintf(r->why_not, sizeof(r->why_not), "%" PRIu64 " compressed records of perf.data could not be read",
			 st->compressed_failed);
	else if (r->maps.oom || mmaps__finish(&r->maps, st->timed) < 0)
		snprintf(r->why_not, sizeof(r->why_not), "out of memory for the mmap records");
	else
		r->usable = true;
	/* perf's build-id cache: perf puts the directory it uses in PERF_BUILDID_DIR */
	if (dir && *dir)
		r->buildid_dir = strdup(dir);
	else if (home && asprintf(&r->buildid_dir, "%s/.debug", home) < 0)
		r->buildid_dir = NULL;
	r->cfg = (struct elfsyms_config){
		.buildid_dir = r->buildid_dir, .debug_dir = "/usr/lib/debug", .debuginfod = urls && *urls,
		.symfs = r->symfs, .search = (const char *const *)r->search, .search_nr = r->search_nr,
		.warnings = r->warnings,
	};
	if (!r->usable)
		return;
	r->file_stats_nr = r->maps.files_nr;
	r->file_stats = calloc(r->file_stats_nr ? r->file_stats_nr : 1, sizeof(*r->file_stats));
	r->cache = calloc(1, sizeof(*r->cache));
	if (!r->file_stats || !r->cache) {
		r->usable = false;
		snprintf(r->why_not, sizeof(r->why_not), "out of memory");
	}
}

static uint64_t cache_hash(uint32_t owner, uint64_t key)
{
	return hash_u64(HASH_SEED, key ^ ((uint64_t)owner << 32 | owner));
}

static bool cache_eq(uint32_t idx, const void *key, const void *c)
{
	const struct cache_entry *e = &((const struct resolve_objcache *)c)->v[idx], *k = key;

	return e->key == k->key && e->owner == k->owner;
}

static long cache_get(struct resolve_objcache *c, uint32_t owner, uint64_t key)
{
	struct cache_entry k = { .key = key, .owner = owner };
	long i = idx_table_find(&c->index, cache_hash(owner, key), cache_eq, &k, c);

	return i < 0 ? -1 : (long)c->v[i].native;
}

static void cache_put(struct resolve_objcache *c, uint32_t owner, uint64_t key, uint32_t native)
{
	/* out of memory is only slower: the object is found by its strings again */
	if (c->nr >= UINT32_MAX - 1 || VEC_GROW(c->v, c->nr + 1, c->alloc) < 0 ||
	    idx_table_add(&c->index, cache_hash(owner, key), (uint32_t)c->nr) < 0)
		return;
	c->v[c->nr++] = (struct cache_entry){ key, owner, native };
}

static struct elfsyms *symbols_of(struct resolve *r, uint32_t file)
{
	struct mmaps_file *f = &r->maps.files[file];

	if (!f->priv) {
		f->priv = elfsyms__open(f->path, f->build_id, f->build_id_size, &r->cfg);
		if (f->priv) {
			r->files_indexed++;
			r->symbols_indexed += elfsyms__nr(f->priv);
			r->index_bytes += elfsyms__memory(f->priv);
		}
	}
	return f->priv;
}

static enum native_source source_of(const struct elfsyms *es, enum elfsyms_table t)
{
	switch (t) {
	case ELFSYMS_PLT:
		return NATIVE_FROM_PLT;
	case ELFSYMS_FDE:
		return NATIVE_FROM_EH_FRAME;
	case ELFSYMS_DYNSYM:
		return NATIVE_FROM_DYNSYM;
	case ELFSYMS_SYMTAB:
	default:
		return elfsyms__origin(es) == ELFSYMS_FROM_MINIDEBUG ? NATIVE_FROM_MINIDEBUG :
		       elfsyms__origin(es) == ELFSYMS_FROM_DEBUGINFOD ? NATIVE_FROM_DEBUGINFOD : NATIVE_FROM_SYMTAB;
	}
}

/* The object of a function that ip (in map mp) hit; -1 when out of memory. */
static long file_object(struct resolve *r, struct natives *n, const struct mmaps_map *mp, struct elfsyms *es,
			const struct elfsyms_hit *h, uint64_t ip, uint64_t off)
{
	const char *path = r->maps.files[mp->file].path;
	const char *base = strrchr(path, '/');
	char fde_name[512];
	const char *name = h->name;
	bool created;
	long id = cache_get(r->cache, mp->file, h->key);

	if (id >= 0)
		return id;
	/* perf names code without a symbol by its file and address */
	if (!name) {
		snprintf(fde_name, sizeof(fde_name), "%s+0x%" PRIx64, base ? base + 1 : path, h->start);
		name = fde_name;
	}
	id = natives__get(n, path, name, h->start, &created);
	if (id < 0)
		return id;
	cache_put(r->cache, mp->file, h->key, (uint32_t)id);
	if (created) {
		struct native_obj *o = &n->objs[id];
		uint64_t map_end = mp->start + mp->len, want;

		o->addr = ip - (off - h->start);
		o->size = h->end - h->start;
		o->source = (uint8_t)source_of(es, h->table);
		if (elfsyms__e_machine(es)) {
			o->e_machine = elfsyms__e_machine(es);
			o->machine_read = true;
		}
		o->cwasm = elfsyms__cwasm(es);
		/* perf's object_code: the file's bytes, no further than the mapping goes */
		want = o->size < MAX_NATIVE_CODE ? o->size : MAX_NATIVE_CODE;
		if (o->addr >= mp->start && o->addr < map_end && want > map_end - o->addr)
			want = map_end - o->addr;
		if (want && (r->code_buf || (r->code_buf = malloc(MAX_NATIVE_CODE)))) {
			size_t got = elfsyms__read(es, h->start, r->code_buf, (size_t)want);

			if (got && (o->code = malloc(got))) {
				memcpy(o->code, r->code_buf, got);
				o->code_len = got;
			}
		}
	}
	return id;
}

static struct perfmap *perfmap_of(struct resolve *r, uint32_t pid, uint32_t *idx)
{
	char path[64];

	snprintf(path, sizeof(path), "/tmp/perf-%" PRIu32 ".map", pid);
	for (size_t i = 0; i < r->pmaps_nr; i++) {
		if (!strcmp(r->pmaps[i].path, path)) {
			*idx = (uint32_t)i;
			return &r->pmaps[i].map;
		}
	}
	if (r->pmaps_nr == r->pmaps_alloc) {
		size_t alloc = r->pmaps_alloc ? r->pmaps_alloc * 2 : 8;
		struct resolve_perfmap *v = reallocarray(r->pmaps, alloc, sizeof(*v));

		if (!v)
			return NULL;
		r->pmaps = v;
		r->pmaps_alloc = alloc;
	}
	struct resolve_perfmap *p = &r->pmaps[r->pmaps_nr];

	if (!(p->path = strdup(path)))
		return NULL;
	/* a map that cannot be read has no symbols, as for perf; one refused is said */
	perfmap__load(&p->map, path, 0, r->force);
	if (p->map.note[0] && r->warnings)
		warnings__add(r->warnings, "%s: %s", path, p->map.note);
	*idx = (uint32_t)r->pmaps_nr++;
	return &p->map;
}

/* The object of perf map line s (of map idx, process pid): its id, made
 * when new (*created then); < 0 when out of memory. */
static long perfmap_obj(struct resolve *r, struct natives *n, uint32_t idx, uint32_t pid,
			const struct symset_sym *s, bool *created)
{
	long id = cache_get(r->cache, PERFMAP_OWNER | idx, s->seq);

	*created = false;
	if (id >= 0)
		return id;
	id = natives__get(n, r->pmaps[idx].path, s->name, s->start, created);
	if (id < 0)
		return id;
	cache_put(r->cache, PERFMAP_OWNER | idx, s->seq, (uint32_t)id);
	if (*created) {
		struct native_obj *o = &n->objs[id];

		o->addr = s->start;
		o->size = s->end - s->start;
		o->pid = pid;
		o->source = NATIVE_FROM_PERF_MAP;
	}
	return id;
}

/*
 * The other range of a BEAM function whose line s is (lib/jit-beam.h): the
 * line right after a prologue when it is its body, the one right before a
 * body when it is its prologue; made an object and tied to s's (id), so
 * that the stream has both to join, whichever had the samples.
 */
static void perfmap_beam_other(struct resolve *r, struct natives *n, struct perfmap *pm, uint32_t idx,
			       uint32_t pid, const struct symset_sym *s, long id)
{
	const struct symset_sym *o;
	size_t body_len;
	bool created;
	long oid;

	if (!jit_beam__map_name(s->name) || s->end <= s->start)
		return;
	if (jit_beam__is_prologue(s->name, &body_len)) {
		o = perfmap__find(pm, s->end);
		if (!o || o->start != s->end || strlen(o->name) != body_len ||
		    strncmp(o->name, s->name, body_len))
			return;
	} else {
		o = s->start ? perfmap__find(pm, s->start - 1) : NULL;
		if (!o || o->end != s->start || !jit_beam__prologue_of(o->name, s->name))
			return;
	}
	oid = perfmap_obj(r, n, idx, pid, o, &created);
	if (oid < 0)
		return;
	n->objs[id].other = (uint32_t)oid + 1;
	n->objs[oid].other = (uint32_t)id + 1;
}

static void perfmap_sample(struct resolve *r, struct natives *n, const struct mmaps_map *mp, uint64_t ip,
			   struct resolve_hit *hit)
{
	uint32_t idx;
	struct perfmap *pm = perfmap_of(r, mp->pid, &idx);
	const struct symset_sym *s = pm ? perfmap__find(pm, ip) : NULL;
	bool created;
	long id;

	if (!s) {
		hit->kind = pm ? RESOLVE_JIT_NO_LOAD : RESOLVE_DEFER;
		return;
	}
	id = perfmap_obj(r, n, idx, mp->pid, s, &created);
	if (id < 0) {
		hit->kind = RESOLVE_DEFER;
		return;
	}
	if (created && !n->objs[id].other)
		perfmap_beam_other(r, n, pm, idx, mp->pid, s, id);
	*hit = (struct resolve_hit){ RESOLVE_PERFMAP, (uint32_t)id, ip - s->start };
}

/* Memory perf knows no file for, by name: where JITs put their code. */
static bool jit_looking(const char *name)
{
	return !strncmp(name, "//anon", 6) || !strncmp(name, "[anon", 5) || !strncmp(name, "/memfd:", 7);
}

/* resolve__sample, and resolve__address when !count: the per-sample counts
 * (deferred, the files' no-symbol and FDE samples) are the samples' alone. */
static void resolve_at(struct resolve *r, struct natives *n, uint32_t pid, uint64_t ip, uint64_t time,
		       bool count, struct resolve_hit *hit)
{
	const struct mmaps_map *mp;
	struct elfsyms *es;
	struct elfsyms_hit h;
	uint64_t off;
	long id;

	*hit = (struct resolve_hit){ RESOLVE_DEFER, 0, 0 };
	if (!r->usable) {
		r->deferred += count;
		return;
	}
	if (!(mp = mmaps__find(&r->maps, pid, ip, time))) {
		hit->kind = RESOLVE_NO_MAP;
		return;
	}
	switch (mp->kind) {
	case MMAPS_PERFMAP:
		perfmap_sample(r, n, mp, ip, hit);
		if (hit->kind == RESOLVE_DEFER)
			r->deferred += count;
		return;
	case MMAPS_ANON:
		hit->kind = jit_looking(r->maps.files[mp->file].path) ? RESOLVE_JIT_NO_LOAD : RESOLVE_NO_SYMBOL;
		return;
	case MMAPS_FILE:
	case MMAPS_VDSO:
		break;
	}
	if (jit_looking(r->maps.files[mp->file].path)) {
		hit->kind = RESOLVE_JIT_NO_LOAD;
		return;
	}
	if (!(es = symbols_of(r, mp->file))) {
		r->deferred += count;
		return;
	}
	/* perf's map_ip: the file offset; the vdso is mapped from its start */
	off = ip - mp->start + (mp->kind == MMAPS_VDSO ? 0 : mp->pgoff);
	if (!elfsyms__find(es, off, &h)) {
		r->file_stats[mp->file].no_symbol += count;
		hit->kind = RESOLVE_NO_SYMBOL;
		return;
	}
	if (h.table == ELFSYMS_FDE)
		r->file_stats[mp->file].fde += count;
	if ((id = file_object(r, n, mp, es, &h, ip, off)) < 0) {
		r->deferred += count;
		return;
	}
	if (!n->objs[id].pid)
		n->objs[id].pid = pid;
	*hit = (struct resolve_hit){ RESOLVE_SYMBOL, (uint32_t)id, off - h.start };
}

void resolve__sample(struct resolve *r, struct natives *n, uint32_t pid, uint64_t ip, uint64_t time,
		     struct resolve_hit *hit)
{
	resolve_at(r, n, pid, ip, time, true, hit);
}

void resolve__address(struct resolve *r, struct natives *n, uint32_t pid, uint64_t addr, uint64_t time,
		      struct resolve_hit *hit)
{
	resolve_at(r, n, pid, addr, time, false, hit);
}

const char *resolve__name(struct resolve *r, const char *dso, const uint8_t *build_id, size_t build_id_size,
			  uint64_t off, uint64_t sym_start, enum native_source *source)
{
	long file = mmaps__file(&r->maps, dso);
	struct mmaps_file *f;
	struct elfsyms_hit h;
	struct elfsyms *es;

	if (file < 0 || !strcmp(dso, "[vdso]") || dso[0] == '[')
		return NULL;
	f = &r->maps.files[file];
	if (!f->build_id_size && build_id_size) {
		f->build_id_size = (uint8_t)(build_id_size < sizeof(f->build_id) ? build_id_size : sizeof(f->build_id));
		memcpy(f->build_id, build_id, f->build_id_size);
	}
	if (!(es = symbols_of(r, (uint32_t)file)) || !elfsyms__find(es, off, &h) || h.start != sym_start || !h.name)
		return NULL;
	*source = source_of(es, h.table);
	return h.name;
}

size_t resolve__memory(const struct resolve *r)
{
	size_t bytes = 0;

	for (size_t i = 0; i < r->maps.files_nr; i++)
		if (r->maps.files[i].priv)
			bytes += elfsyms__memory(r->maps.files[i].priv);
	for (size_t i = 0; i < r->pmaps_nr; i++)
		bytes += symset__memory(&r->pmaps[i].map.set);
	return bytes;
}

void resolve__files_without_symbols(const struct resolve *r,
				    void (*fn)(void *arg, const char *path, const char *why, bool not_here,
					       const struct resolve_file_stats *st),
				    void *arg)
{
	for (size_t i = 0; r->file_stats && i < r->file_stats_nr; i++) {
		const struct resolve_file_stats *st = &r->file_stats[i];
		const struct elfsyms *es = r->maps.files[i].priv;
		const char *why;

		if (!es || (!st->no_symbol && !st->fde))
			continue;
		switch (elfsyms__status(es)) {
		case ELFSYMS_NO_FILE:
			why = "not found: deleted, or on another machine";
			break;
		case ELFSYMS_UNREADABLE:
			why = "not an ELF file that can be read";
			break;
		case ELFSYMS_MISMATCH:
			why = "a different build than the one recorded: its build-id differs";
			break;
		default:
			why = elfsyms__origin(es) == ELFSYMS_FROM_NONE ? "no symbol table" :
			      elfsyms__origin(es) == ELFSYMS_FROM_DYNSYM ? "stripped: only its exported (.dynsym) symbols" :
									   "symbols that do not cover all of its code";
			break;
		}
		fn(arg, r->maps.files[i].path, why,
		   elfsyms__status(es) == ELFSYMS_NO_FILE || elfsyms__status(es) == ELFSYMS_MISMATCH, st);
	}
}

void resolve__files_elsewhere(const struct resolve *r,
			      void (*fn)(void *arg, const char *path, const char *found, bool refused), void *arg)
{
	for (size_t i = 0; i < r->maps.files_nr; i++) {
		const struct elfsyms *es = r->maps.files[i].priv;

		if (es && elfsyms__found_elsewhere(es))
			fn(arg, r->maps.files[i].path, elfsyms__found_elsewhere(es), false);
		else if (es && elfsyms__refused_elsewhere(es))
			fn(arg, r->maps.files[i].path, elfsyms__refused_elsewhere(es), true);
	}
}

// SPDX-License-Identifier: MIT
/* A run's stream section (see stream-section.h). */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../symbols/elfsyms.h"
#include "../lib/jit-beam.h"
#include "stream-section.h"

/* The object a count id names: a native symbol, or a jitdump load. false
 * when the id names no load (the code map only holds ids of loads read). */
static bool describe(struct stream_writer_object *so, const struct stream_section_inputs *in, uint32_t id)
{
	if (id & NATIVE_ID_BIT) {
		const struct native_obj *o = &in->natives->objs[id & ~NATIVE_ID_BIT];

		*so = (struct stream_writer_object){
			.kind = o->cwasm ? HB_KIND_CWASM : HB_KIND_NATIVE, .id = id, .pid = o->pid,
			.e_machine = o->e_machine, .addr = o->addr, .size = o->size, .name = o->name,
			.code = o->code, .code_len = o->code_len, .dso = o->dso, .sym_start = o->sym_start,
			.source = native_source_name(o->source),
		};
	} else {
		const struct dump_file *df;
		const struct jitdump_load *l = dumps__load(in->dumps, id, &df);

		if (!l)
			return false;
		*so = (struct stream_writer_object){
			.kind = HB_KIND_JIT, .id = id, .pid = df->pid, .e_machine = df->e_machine,
			.addr = l->code_addr, .size = l->code_size, .name = l->name, .code = l->code,
			.code_len = l->code_size, .code_index = l->code_index, .load_time = l->timestamp,
			.dump = dumps__name(df), .debug = l->debug, .debug_nr = l->debug_nr,
		};
	}
	return true;
}

static int cmp_pid(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

static int cmp_load(const void *a, const void *b)
{
	const struct stream_writer_load *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->load_time != y->load_time)
		return x->load_time < y->load_time ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

static int cmp_map(const void *a, const void *b)
{
	const struct stream_writer_map *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/*
 * Everything a branch or call of a sampled object may land in: every code
 * load of the dumps of the processes with objects, and the file mappings of
 * those processes (perf records the executable ones). pids: sorted.
 */
static int add_targets(struct stream_section *s, const struct stream_section_inputs *in, const uint32_t *pids,
		       size_t npids)
{
	const struct mmaps *mm = in->maps;
	size_t nl = 0, nm = 0;

	for (int pass = 0; pass < 2; pass++) {
		for (size_t i = 0; i < in->dumps->nr; i++) {
			const struct dump_file *df = &in->dumps->files[i];

			if (!bsearch(&df->pid, pids, npids, sizeof(*pids), cmp_pid))
				continue;
			for (size_t k = 0; k < df->jd->nr; k++) {
				const struct jitdump_load *l = &df->jd->loads[k];

				if (!l->code_size)
					continue;
				if (pass)
					s->loads[s->loads_nr++] = (struct stream_writer_load){
						df->pid, l->code_addr, l->code_size, l->timestamp, l->name };
				else
					nl++;
			}
		}
		for (size_t i = 0; mm && i < mm->maps_nr; i++) {
			const struct mmaps_map *m = &mm->maps[i];

			const char *path = mm->files[m->file].path;

			/* a JIT's dump is mapped executable as a marker, not code */
			if (m->kind != MMAPS_FILE || !bsearch(&m->pid, pids, npids, sizeof(*pids), cmp_pid) ||
			    perfdata__is_jitdump_name(path, strlen(path)))
				continue;
			if (pass)
				s->maps[s->maps_nr++] = (struct stream_writer_map){
					m->pid, m->start, m->len, m->pgoff, m->time, path,
					mm->files[m->file].build_id, mm->files[m->file].build_id_size,
					mm->files[m->file].priv ? elfsyms__read_from(mm->files[m->file].priv) : NULL };
			else
				nm++;
		}
		if (pass)
			break;
		s->loads = malloc((nl ? nl : 1) * sizeof(*s->loads));
		s->maps = malloc((nm ? nm : 1) * sizeof(*s->maps));
		if (!s->loads || !s->maps)
			return -ENOMEM;
	}
	if (s->loads_nr)
		qsort(s->loads, s->loads_nr, sizeof(*s->loads), cmp_load);
	if (s->maps_nr)
		qsort(s->maps, s->maps_nr, sizeof(*s->maps), cmp_map);
	return 0;
}

static int cmp_id(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The other load of a BEAM function whose load id is (plugin/lib/jit-beam.h):
 * the load right after a prologue in its dump when that is its body, the one
 * right before a body when that is its prologue, the two adjacent in memory;
 * -1 if none. So that the post-processor has both to join, whichever had
 * the samples.
 */
static long beam_other(const struct dumps *d, uint32_t id)
{
	const struct codemap_entry *e = codemap__entry(d->map, id), *oe;
	const struct jitdump_load *l = dumps__load(d, id, NULL), *o;
	size_t body_len = 0;
	bool prologue;
	long other;

	if (!e || !l)
		return -1;
	prologue = jit_beam__is_prologue(l->name, &body_len);
	other = prologue ? (long)id + 1 : (long)id - 1;
	if (other < 0 || !(oe = codemap__entry(d->map, (size_t)other)) || oe->owner != e->owner ||
	    oe->owner_idx != (prologue ? e->owner_idx + 1 : e->owner_idx - 1) ||
	    !(o = dumps__load(d, (size_t)other, NULL)))
		return -1;
	if (prologue)
		return o->code_addr == l->code_addr + l->code_size && strlen(o->name) == body_len &&
		       !strncmp(o->name, l->name, body_len) ? other : -1;
	return l->code_addr == o->code_addr + o->code_size && jit_beam__prologue_of(o->name, l->name) ?
	       other : -1;
}

/* The distinct object ids of the (sorted) counts and of the branch counts'
 * ends and of the stacks' frames, sorted (into *nr; NULL when out of
 * memory): a branch may land in a function no sample is in. */
static uint32_t *counted_ids(const struct stream_section *s, const struct stream_section_inputs *in, bool frames,
			     size_t *nr)
{
	size_t nb = in->branches ? in->branches->nr : 0, n = 0, own;
	size_t nf = frames && in->callchains ? in->callchains->frames_nr : 0;
	bool more = false;
	/* room for each sampled one's other load too */
	uint32_t *ids = malloc((2 * (s->counts_nr + 2 * nb) + nf + 1) * sizeof(*ids));

	*nr = 0;
	if (!ids)
		return NULL;
	for (size_t i = 0; i < s->counts_nr; i++)
		if (i == 0 || s->counts[i].obj != s->counts[i - 1].obj)
			ids[n++] = s->counts[i].obj;
	for (size_t i = 0; i < nb; i++) {
		ids[n++] = in->branches->v[i].from_obj;
		ids[n++] = in->branches->v[i].to_obj;
	}
	own = n;
	for (size_t i = 0; i < own; i++) {
		long o = ids[i] & NATIVE_ID_BIT ? -1 : beam_other(in->dumps, ids[i]);

		/* a perf map's range of it (the plugin tied them when it read the map) */
		if (ids[i] & NATIVE_ID_BIT && in->natives->objs[ids[i] & ~NATIVE_ID_BIT].other)
			o = (long)((in->natives->objs[ids[i] & ~NATIVE_ID_BIT].other - 1) | NATIVE_ID_BIT);
		if (o >= 0) {
			ids[n++] = (uint32_t)o;
			more = true;
		}
	}
	/* a caller frame may be in a function no sample is in */
	for (size_t i = 0; i < nf; i++)
		if (in->callchains->frames[i].obj != STACK_FRAME_CLASS)
			ids[n++] = in->callchains->frames[i].obj;
	if (nb || nf || more) {
		size_t u = 0;

		qsort(ids, n, sizeof(*ids), cmp_id);
		for (size_t i = 0; i < n; i++)
			if (i == 0 || ids[i] != ids[u - 1])
				ids[u++] = ids[i];
		n = u;
	}
	*nr = n;
	return ids;
}

int stream_section__assemble(struct stream_section *s, const struct stream_section_inputs *in)
{
	uint32_t *pids = NULL;
	size_t npids = 0;
	size_t objs_alloc = 0;

	memset(s, 0, sizeof(*s));
	code_refs__init(&s->refs, in->maps, &in->places);
	s->counts = tally__sorted(&in->account->counts, &s->counts_nr);
	s->jitdumps = calloc(in->dumps->nr + 1, sizeof(*s->jitdumps));
	if ((!s->counts && s->counts_nr) || !s->jitdumps)
		return -ENOMEM;
	uint32_t *ids = counted_ids(s, in, true, &objs_alloc);
	size_t core_nr = 0;
	/* the objects of samples and branches: the others only a caller frame is in */
	uint32_t *core = in->callchains && in->callchains->nr ? counted_ids(s, in, false, &core_nr) : NULL;

	if (!ids || (in->callchains && in->callchains->nr && !core)) {
		free(ids);
		free(core);
		return -ENOMEM;
	}
	s->objs = calloc(objs_alloc + 1, sizeof(*s->objs));
	if (!s->objs) {
		free(ids);
		free(core);
		return -ENOMEM;
	}
	/* The writer drops the samples and branches of an id that has no object. */
	for (size_t i = 0; i < objs_alloc; i++) {
		struct stream_writer_object *o = &s->objs[s->objs_nr];

		if (!describe(o, in, ids[i]))
			continue;
		/* A function only a caller frame is in is named, not disassembled:
		 * its code bytes would make the stream many times bigger. */
		if (core && !bsearch(&ids[i], core, core_nr, sizeof(*core), cmp_id)) {
			o->code = NULL;
			o->code_len = 0;
		}
		/* A JIT's code that is a file's bytes (a .cwasm): named, not copied. */
		if (in->code_refs && o->kind == HB_KIND_JIT && o->code && o->code_len == o->size) {
			int r = code_refs__find(&s->refs, o->pid, o->addr, o->load_time, o->code, o->code_len,
						&o->code_file, &o->code_file_off, &o->code_crc);

			if (r < 0) {
				free(ids);
				free(core);
				return r;
			}
		}
		s->objs_nr++;
	}
	free(ids);
	free(core);
	if (!(pids = malloc((s->objs_nr ? s->objs_nr : 1) * sizeof(*pids))))
		return -ENOMEM;
	for (size_t i = 0; i < s->objs_nr; i++)
		pids[npids++] = s->objs[i].pid;
	if (npids)
		qsort(pids, npids, sizeof(*pids), cmp_pid);
	if (add_targets(s, in, pids, npids)) {
		free(pids);
		return -ENOMEM;
	}
	free(pids);
	for (size_t i = 0; i < in->dumps->nr; i++) {
		const struct dump_file *df = &in->dumps->files[i];

		s->jitdumps[i] = (struct stream_writer_jitdump){
			.path = df->jd->path, .pid = df->pid, .loads = df->jd->nr, .status = dumps__status(df),
		};
	}
	for (size_t e = 0; e < in->events->nr; e++)
		s->events[e] = in->events->v[e].name;
	s->header = (struct stream_writer_header){
		.producer = HB_PRODUCER, .input = in->perf_data, .time_aware = events__time_aware(in->events),
		.events = s->events, .events_nr = in->events->nr,
		.totals = (const uint64_t(*)[HB_CLASS__NR][2])in->account->totals,
		.jitdumps = s->jitdumps, .jitdumps_nr = in->dumps->nr,
		.warnings = (const char *const *)in->warnings->kept, .warnings_nr = in->warnings->nr,
		.loads = s->loads, .loads_nr = s->loads_nr, .maps = s->maps, .maps_nr = s->maps_nr,
	};
	if (in->branches && in->branches->any) {
		s->header.branch_totals = (const uint64_t(*)[HB_CLASS__NR][2])in->branches->totals;
		s->header.branches = in->branches->v;
		s->header.branches_nr = in->branches->nr;
	}
	if (in->callchains && in->callchains->any)
		s->header.callchains = in->callchains;
	return 0;
}

void stream_section__release(struct stream_section *s)
{
	free(s->counts);
	free(s->objs);
	free(s->jitdumps);
	free(s->loads);
	free(s->maps);
	code_refs__release(&s->refs);
	memset(s, 0, sizeof(*s));
}

/* SPDX-License-Identifier: MIT */
/* The stream's records, section by section, merged into a struct stream (stream__read, stream.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "stream-parse.h"

static bool local_obj_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct parser *p = ctx;

	return p->objs[idx].id == *(const uint64_t *)key;
}

static bool local_ev_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct parser *p = ctx;

	return p->evs[idx].id == *(const uint64_t *)key;
}

static int find_obj(struct parser *p, const char *tok, struct local_obj **lo)
{
	uint64_t id;
	long i;
	int err = stream_lex__get_dec(p, tok, "object id", &id);

	if (err)
		return err;
	i = idx_table_find(&p->obj_ids, hash_u64(0, id), local_obj_eq, &id, p);
	if (i < 0)
		return stream_lex__bad(p, "object %s was not defined in this section", tok);
	*lo = &p->objs[i];
	return 0;
}

static int find_ev(struct parser *p, const char *tok, struct local_ev **le)
{
	uint64_t id;
	long i;
	int err = stream_lex__get_dec(p, tok, "event id", &id);

	if (err)
		return err;
	i = idx_table_find(&p->ev_ids, hash_u64(0, id), local_ev_eq, &id, p);
	if (i < 0)
		return stream_lex__bad(p, "event %s was not defined in this section", tok);
	*le = &p->evs[i];
	return 0;
}

/* A line that refers to a lost object or event (lost: its stream.lost index,
 * or UINT32_MAX) is skipped, and counted with the samples it had. */
static void skip_lost(struct parser *p, uint32_t lost, uint64_t samples)
{
	struct stream *s = p->s;

	s->lost_lines++;
	s->lost_samples = sat_add(s->lost_samples, samples);
	if (lost != UINT32_MAX) {
		s->lost[lost].lines++;
		s->lost[lost].samples = sat_add(s->lost[lost].samples, samples);
	}
}

/* Records. Each handler gets the split line; the kind is p->f[0]. */

static int rec_ignore(struct parser *p)
{
	return 0;
}

static int rec_event(struct parser *p)
{
	struct stream *s = p->s;
	uint64_t id;
	size_t i;
	int err;

	if ((err = stream_lex__check_fields(p, 3)) || (err = stream_lex__get_dec(p, p->f[1], "event id", &id)) ||
	    (err = stream_lex__get_str(p, p->f[2], "event name")))
		return err;
	if (idx_table_find(&p->ev_ids, hash_u64(0, id), local_ev_eq, &id, p) >= 0)
		return stream_lex__bad(p, "event %s defined twice in this section", p->f[1]);
	for (i = 0; i < s->events_nr; i++)
		if (!strcmp(s->events[i].name, p->f[2]))
			break;
	if (i == s->events_nr) {
		if (s->events_nr == MAX_EVENTS)
			return stream_lex__bad(p, "more than %d distinct events", MAX_EVENTS);
		if (VEC_GROW(s->events, s->events_nr + 1, s->events_alloc))
			return stream_lex__oom(p);
		memset(&s->events[i], 0, sizeof(s->events[i]));
		s->events[i].name = strdup(p->f[2]);
		if (!s->events[i].name)
			return stream_lex__oom(p);
		s->events_nr++;
	}
	if (VEC_GROW(p->evs, p->evs_nr + 1, p->evs_alloc) ||
	    idx_table_add(&p->ev_ids, hash_u64(0, id), (uint32_t)p->evs_nr))
		return stream_lex__oom(p);
	p->evs[p->evs_nr++] = (struct local_ev){ .id = id, .ev = (uint32_t)i, .lost = UINT32_MAX };
	return 0;
}

/* STREAM.md `input`: which recording the run read, for provenance. */
static int rec_input(struct parser *p)
{
	struct stream_run *run = &p->s->runs[p->s->runs_nr - 1];
	int err;

	if (p->nf < 2 || run->input)
		return 0;
	if ((err = stream_lex__get_str(p, p->f[1], "input")))
		return err;
	run->input = strdup(p->f[1]);
	return run->input ? 0 : stream_lex__oom(p);
}

/* STREAM.md `jitdump`: the dumps the run read, inputs no report may replace (output-file.h). */
static int rec_jitdump(struct parser *p)
{
	struct stream_run *run = &p->s->runs[p->s->runs_nr - 1];
	int err;

	if (p->nf < 2)
		return 0;
	if ((err = stream_lex__get_str(p, p->f[1], "jitdump path")))
		return err;
	if (VEC_GROW(run->jitdumps, run->jitdumps_nr + 1, run->jitdumps_alloc) ||
	    !(run->jitdumps[run->jitdumps_nr] = strdup(p->f[1])))
		return stream_lex__oom(p);
	run->jitdumps_nr++;
	return 0;
}

/* STREAM.md `warning`: kept once per distinct text, so a saved stream still tells them. */
static int rec_warning(struct parser *p)
{
	struct stream *s = p->s;
	char *text;
	size_t i;
	int err;

	if (p->nf < 2)
		return stream_lex__bad(p, "'warning' record without text");
	if ((err = stream_lex__get_str(p, p->f[1], "warning")))
		return err;
	for (i = 0; i < s->warnings_nr; i++)
		if (!strcmp(s->warnings[i].text, p->f[1]))
			return 0;
	if (s->warnings_nr == STREAM_WARNINGS_MAX) {
		s->warnings_dropped++;
		return 0;
	}
	if (VEC_GROW(s->warnings, s->warnings_nr + 1, s->warnings_alloc) || !(text = strdup(p->f[1])))
		return stream_lex__oom(p);
	s->warnings[s->warnings_nr++] = (struct stream_warning){ text, p->fname };
	return 0;
}

/* A record of key=value fields (`load`, `map`): each key in keys once, every
 * one given; unknown keys are ignored (STREAM.md). */
struct kv {
	const char *key;
	int type;		/* KV_DEC, KV_HEX, KV_STR; | KV_OPTIONAL */
	uint64_t num;
	char *str;		/* KV_STR; NULL: an optional one not given */
};

enum { KV_DEC, KV_HEX, KV_STR, KV_OPTIONAL = 8 };

static int get_kvs(struct parser *p, struct kv *kv, size_t n)
{
	unsigned seen = 0;
	size_t i, k;
	int err;

	for (i = 1; i < p->nf; i++) {
		char *eq = strchr(p->f[i], '=');

		if (!eq)
			return stream_lex__bad(p, "%s: field '%s' is not key=value", p->f[0], p->f[i]);
		*eq = '\0';
		for (k = 0; k < n && strcmp(p->f[i], kv[k].key); k++)
			;
		if (k == n)
			continue;
		if (seen & 1u << k)
			return stream_lex__bad(p, "%s: field '%s' given twice", p->f[0], p->f[i]);
		seen |= 1u << k;
		if ((kv[k].type & ~KV_OPTIONAL) == KV_DEC)
			err = stream_lex__get_dec(p, eq + 1, kv[k].key, &kv[k].num);
		else if ((kv[k].type & ~KV_OPTIONAL) == KV_HEX)
			err = stream_lex__get_hex(p, eq + 1, kv[k].key, &kv[k].num);
		else
			err = stream_lex__get_str(p, eq + 1, kv[k].key), kv[k].str = eq + 1;
		if (err)
			return err;
	}
	for (k = 0; k < n; k++)
		if (!(seen & 1u << k) && !(kv[k].type & KV_OPTIONAL))
			return stream_lex__bad(p, "%s: no '%s=' field", p->f[0], kv[k].key);
	if (kv[0].num > UINT32_MAX)	/* pid= comes first */
		return stream_lex__bad(p, "%s: pid %" PRIu64 " is out of range", p->f[0], kv[0].num);
	return 0;
}

/* STREAM.md `load`: a code load of a sampled process. */
static int rec_load(struct parser *p)
{
	struct kv kv[] = { { "pid", KV_DEC, 0, NULL }, { "addr", KV_HEX, 0, NULL },
			   { "size", KV_DEC, 0, NULL }, { "load-time", KV_DEC, 0, NULL },
			   { "name", KV_STR, 0, NULL } };
	struct stream *s = p->s;
	char *name;
	int err;

	if ((err = get_kvs(p, kv, ARRAY_SIZE(kv))))
		return err;
	if (VEC_GROW(s->loads, s->loads_nr + 1, s->loads_alloc) || !(name = strdup(kv[4].str)))
		return stream_lex__oom(p);
	s->loads[s->loads_nr++] = (struct stream_load){ (uint32_t)kv[0].num, kv[1].num, kv[2].num,
							kv[3].num, name };
	return 0;
}

/* STREAM.md `map`: an executable file mapping of a sampled process. */
static int rec_map(struct parser *p)
{
	struct kv kv[] = { { "pid", KV_DEC, 0, NULL }, { "addr", KV_HEX, 0, NULL },
			   { "size", KV_DEC, 0, NULL }, { "pgoff", KV_HEX, 0, NULL },
			   { "time", KV_DEC, 0, NULL }, { "dso", KV_STR, 0, NULL },
			   { "build-id", KV_STR | KV_OPTIONAL, 0, NULL } };
	struct stream *s = p->s;
	struct stream_map m = { 0 };
	const char *hex = NULL;
	char *path;
	int err;

	if ((err = get_kvs(p, kv, ARRAY_SIZE(kv))))
		return err;
	if ((hex = kv[6].str)) {
		size_t n = strlen(hex);

		if (n % 2 || n / 2 > sizeof(m.build_id) || strspn(hex, "0123456789abcdef") != n)
			return stream_lex__bad(p, "map: build-id '%s' is not up to %zu bytes of lowercase hex",
					       hex, sizeof(m.build_id));
		for (size_t i = 0; i < n / 2; i++)
			m.build_id[i] = (uint8_t)((hex[2 * i] <= '9' ? hex[2 * i] - '0' : hex[2 * i] - 'a' + 10) << 4 |
						  (hex[2 * i + 1] <= '9' ? hex[2 * i + 1] - '0' : hex[2 * i + 1] - 'a' + 10));
		m.build_id_size = (uint8_t)(n / 2);
	}
	if (VEC_GROW(s->maps, s->maps_nr + 1, s->maps_alloc) || !(path = strdup(kv[5].str)))
		return stream_lex__oom(p);
	m.pid = (uint32_t)kv[0].num;
	m.addr = kv[1].num;
	m.size = kv[2].num;
	m.pgoff = kv[3].num;
	m.time = kv[4].num;
	m.path = path;
	s->maps[s->maps_nr++] = m;
	return 0;
}

static int rec_total(struct parser *p)
{
	struct stream_event *e;
	struct local_ev *le = NULL;
	uint64_t samples = 0, period = 0;
	uint32_t ev;
	size_t cls;
	int err;

	if ((err = stream_lex__check_fields(p, 5)) || (err = find_ev(p, p->f[1], &le)) ||
	    (err = stream_lex__get_dec(p, p->f[3], "samples", &samples)) ||
	    (err = stream_lex__get_dec(p, p->f[4], "period", &period)))
		return err;
	if (le->ev == LOST) {
		skip_lost(p, le->lost, 0);
		return 0;
	}
	ev = le->ev;
	for (cls = 0; cls < HB_CLASS__NR; cls++)
		if (!strcmp(p->f[2], hb_class_name(cls)))
			break;
	if (cls == HB_CLASS__NR) {
		/* A newer writer's class: still a sample of `all`, which is given on its own. */
		p->s->skipped_classes++;
		return 0;
	}
	e = &p->s->events[ev];
	if (!add_u64(&e->samples[cls], samples) || !add_u64(&e->period[cls], period))
		return stream_lex__bad(p, "sample total overflows 64 bits");
	if (cls == HB_CLASS_ALL) {
		struct stream_run *run = &p->s->runs[p->s->runs_nr - 1];

		if (stream__tally_add(&run->totals, &run->totals_nr, &run->totals_alloc,
				       (uint32_t)(p->s->runs_nr - 1), ev, samples))
			return stream_lex__oom(p);
	}
	return 0;
}

/* The key=value fields of an `object` record. */
struct obj_fields {
	enum hb_object_kind kind;
	uint64_t pid, e_machine, addr, size, code_index, load_time, sym_start;
	uint64_t name_length, dump_length, dso_length;
	char *name, *dump, *dso, *source;
};

enum { F_DEC, F_HEX, F_STR };
#define K_JIT (1u << HB_KIND_JIT)
#define K_FILE (1u << HB_KIND_NATIVE | 1u << HB_KIND_CWASM)
#define K_ALL (K_JIT | K_FILE)

/* STREAM.md `object`: key, value type, where it goes, kinds that have it,
 * whether they must. */
static const struct obj_key {
	const char *key;
	int type;
	size_t off;
	unsigned kinds;
	bool optional;
} obj_keys[] = {
	{ "pid", F_DEC, offsetof(struct obj_fields, pid), K_ALL, false },
	{ "e_machine", F_DEC, offsetof(struct obj_fields, e_machine), K_ALL, false },
	{ "addr", F_HEX, offsetof(struct obj_fields, addr), K_ALL, false },
	{ "size", F_DEC, offsetof(struct obj_fields, size), K_ALL, false },
	{ "code-index", F_DEC, offsetof(struct obj_fields, code_index), K_JIT, false },
	{ "load-time", F_DEC, offsetof(struct obj_fields, load_time), K_JIT, false },
	{ "dump", F_STR, offsetof(struct obj_fields, dump), K_JIT, false },
	{ "dso", F_STR, offsetof(struct obj_fields, dso), K_FILE, false },
	{ "sym-start", F_HEX, offsetof(struct obj_fields, sym_start), K_FILE, false },
	{ "name", F_STR, offsetof(struct obj_fields, name), K_ALL, false },
	/* STREAM.md "Lines": the full lengths of strings the writer shortened */
	{ "name-length", F_DEC, offsetof(struct obj_fields, name_length), K_ALL, true },
	{ "dump-length", F_DEC, offsetof(struct obj_fields, dump_length), K_JIT, true },
	{ "dso-length", F_DEC, offsetof(struct obj_fields, dso_length), K_FILE, true },
	/* how the plugin found a native function (STREAM.md `object`) */
	{ "source", F_STR, offsetof(struct obj_fields, source), K_FILE, true },
};

static uint64_t obj_hash(const struct obj_fields *o)
{
	uint64_t h = hash_u64(HASH_SEED, o->kind);

	/* STREAM.md identity: jit = (dump, code-index, load-time, addr),
	 * native/cwasm = (kind, dso, name, sym-start). */
	if (o->kind == HB_KIND_JIT) {
		h = hash_bytes(h, o->dump, strlen(o->dump));
		h = hash_u64(h, o->code_index);
		h = hash_u64(h, o->load_time);
		return hash_u64(h, o->addr);
	}
	h = hash_bytes(h, o->dso, strlen(o->dso));
	h = hash_bytes(h, o->name, strlen(o->name));
	return hash_u64(h, o->sym_start);
}

static bool obj_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct stream_object *a = &((const struct stream *)ctx)->objects[idx];
	const struct obj_fields *b = key;

	if (a->kind != b->kind)
		return false;
	if (b->kind == HB_KIND_JIT)
		return a->code_index == b->code_index && a->load_time == b->load_time &&
		       a->addr == b->addr && !strcmp(a->path, b->dump);
	return a->sym_start == b->sym_start && !strcmp(a->path, b->dso) &&
	       !strcmp(a->name, b->name);
}

static int new_object(struct parser *p, const struct obj_fields *o, uint64_t hash, uint32_t *idx)
{
	struct stream *s = p->s;
	struct stream_object *obj;

	if (s->objects_nr >= UINT32_MAX - 1)
		return stream_lex__bad(p, "too many objects");
	if (VEC_GROW(s->objects, s->objects_nr + 1, s->objects_alloc))
		return stream_lex__oom(p);
	obj = &s->objects[s->objects_nr];
	memset(obj, 0, sizeof(*obj));
	obj->kind = o->kind;
	obj->pid = (uint32_t)o->pid;
	obj->e_machine = (uint32_t)o->e_machine;
	obj->addr = o->addr;
	obj->size = o->size;
	obj->code_index = o->code_index;
	obj->load_time = o->load_time;
	obj->sym_start = o->sym_start;
	obj->name_length = o->name_length;
	obj->path_length = o->kind == HB_KIND_JIT ? o->dump_length : o->dso_length;
	if (o->source)
		snprintf(obj->source, sizeof(obj->source), "%s", o->source);
	obj->origin = p->fname;
	obj->origin_line = p->line;
	obj->name = strdup(o->name);
	obj->path = strdup(o->kind == HB_KIND_JIT ? o->dump : o->dso);
	if (!obj->name || !obj->path) {
		free(obj->name);
		free(obj->path);
		return stream_lex__oom(p);
	}
	if (idx_table_add(&s->obj_tab, hash, (uint32_t)s->objects_nr)) {
		free(obj->name);
		free(obj->path);
		return stream_lex__oom(p);
	}
	*idx = (uint32_t)s->objects_nr++;
	return 0;
}

/*
 * Another section's object of the same identity: everything that describes
 * the code must agree, or one of them would be shown with the other's
 * metadata (x86 bytes disassembled as aarch64, samples under another name).
 */
static int check_same_object(struct parser *p, const struct stream_object *a,
			     const struct obj_fields *o)
{
	char here[64], there[64];
	const char *what = NULL;

	if (a->e_machine != o->e_machine) {
		what = "e_machine";
		snprintf(here, sizeof(here), "%" PRIu64, o->e_machine);
		snprintf(there, sizeof(there), "%" PRIu32, a->e_machine);
	} else if (a->size != o->size) {
		what = "size";
		snprintf(here, sizeof(here), "%" PRIu64, o->size);
		snprintf(there, sizeof(there), "%" PRIu64, a->size);
	} else if (o->kind == HB_KIND_JIT && a->pid != o->pid) {
		what = "pid";
		snprintf(here, sizeof(here), "%" PRIu64, o->pid);
		snprintf(there, sizeof(there), "%" PRIu32, a->pid);
	} else if (o->kind == HB_KIND_JIT && strcmp(a->name, o->name)) {
		return stream_lex__bad(p, "object %s: name '%s' conflicts with '%s' of the same code load at %s:%lu",
			   p->f[1], o->name, a->name, a->origin, a->origin_line);
	}
	if (what)
		return stream_lex__bad(p, "object %s (%s): %s %s conflicts with %s %s of the same object at %s:%lu",
			   p->f[1], a->name, what, here, what, there, a->origin, a->origin_line);
	return 0;
}

static int rec_object(struct parser *p)
{
	struct obj_fields o = { 0 };
	unsigned seen = 0;
	struct local_obj *lo = NULL;
	uint64_t id, hash;
	uint32_t idx = SKIPPED;
	size_t i, k;
	long found;
	int err;

	if ((err = stream_lex__check_fields(p, 3)) || (err = stream_lex__get_dec(p, p->f[1], "object id", &id)))
		return err;
	if (idx_table_find(&p->obj_ids, hash_u64(0, id), local_obj_eq, &id, p) >= 0)
		return stream_lex__bad(p, "object %s defined twice in this section", p->f[1]);
	for (k = 0; k < HB_KIND__NR; k++)
		if (!strcmp(p->f[2], hb_kind_name(k)))
			break;
	if (k == HB_KIND__NR) {
		/* A newer writer's object kind: skip it and everything that refers to it. */
		p->s->skipped_objects++;
		goto add_local;
	}
	o.kind = (enum hb_object_kind)k;
	for (i = 3; i < p->nf; i++) {
		char *eq = strchr(p->f[i], '=');

		if (!eq)
			return stream_lex__bad(p, "object %s: field '%s' is not key=value", p->f[1], p->f[i]);
		*eq = '\0';
		for (k = 0; k < ARRAY_SIZE(obj_keys); k++)
			if ((obj_keys[k].kinds & 1u << o.kind) && !strcmp(p->f[i], obj_keys[k].key))
				break;
		if (k == ARRAY_SIZE(obj_keys))
			continue;	/* STREAM.md: unknown keys are ignored */
		if (seen & 1u << k)
			return stream_lex__bad(p, "object %s: field '%s' given twice", p->f[1], p->f[i]);
		seen |= 1u << k;
		switch (obj_keys[k].type) {
		case F_DEC:
			err = stream_lex__get_dec(p, eq + 1, obj_keys[k].key,
				      (uint64_t *)((char *)&o + obj_keys[k].off));
			break;
		case F_HEX:
			err = stream_lex__get_hex(p, eq + 1, obj_keys[k].key,
				      (uint64_t *)((char *)&o + obj_keys[k].off));
			break;
		default:
			err = stream_lex__get_str(p, eq + 1, obj_keys[k].key);
			*(char **)((char *)&o + obj_keys[k].off) = eq + 1;
			break;
		}
		if (err)
			return err;
	}
	for (k = 0; k < ARRAY_SIZE(obj_keys); k++)
		if ((obj_keys[k].kinds & 1u << o.kind) && !obj_keys[k].optional && !(seen & 1u << k))
			return stream_lex__bad(p, "object %s: no '%s=' field", p->f[1], obj_keys[k].key);
	if (o.pid > UINT32_MAX)
		return stream_lex__bad(p, "object %s: pid %" PRIu64 " is out of range", p->f[1], o.pid);
	if (o.e_machine > UINT16_MAX)
		return stream_lex__bad(p, "object %s: e_machine %" PRIu64 " is out of range", p->f[1],
			   o.e_machine);

	hash = obj_hash(&o);
	found = idx_table_find(&p->s->obj_tab, hash, obj_eq, &o, p->s);
	if (found >= 0) {
		idx = (uint32_t)found;
		if ((err = check_same_object(p, &p->s->objects[idx], &o)))
			return err;
	} else if ((err = new_object(p, &o, hash, &idx))) {
		return err;
	}
add_local:
	if (VEC_GROW(p->objs, p->objs_nr + 1, p->objs_alloc) ||
	    idx_table_add(&p->obj_ids, hash_u64(0, id), (uint32_t)p->objs_nr))
		return stream_lex__oom(p);
	lo = &p->objs[p->objs_nr++];
	*lo = (struct local_obj){ .id = id, .obj = idx, .lost = UINT32_MAX };
	return 0;
}

static int rec_code(struct parser *p)
{
	struct stream_object *obj;
	struct local_obj *lo = NULL;
	uint64_t off = 0, end;
	const char *hex;
	size_t n, i;
	int err;

	if ((err = stream_lex__check_fields(p, 4)) || (err = find_obj(p, p->f[1], &lo)) ||
	    (err = stream_lex__get_hex(p, p->f[2], "code offset", &off)))
		return err;
	hex = p->f[3];
	n = strlen(hex);
	if (n % 2)
		return stream_lex__bad(p, "code bytes: odd number of hex digits");
	for (i = 0; i < n; i++)
		if (hexval((unsigned char)hex[i]) < 0)
			return stream_lex__bad(p, "code bytes: '%c' is not a hex digit", hex[i]);
	if (lo->obj == LOST) {
		skip_lost(p, lo->lost, 0);
		return 0;
	}
	if (lo->obj == SKIPPED) {
		p->s->skipped_object_lines++;
		return 0;
	}
	n /= 2;
	/* Chunks come in ascending order without gaps; a gap would make us invent bytes. */
	if (off != lo->code_next)
		return stream_lex__bad(p, "code of object %s: chunk at 0x%" PRIx64 ", expected 0x%" PRIx64
			   " (%s)", p->f[1], off, lo->code_next,
			   off > lo->code_next ? "gap" : "overlap");
	obj = &p->s->objects[lo->obj];
	end = off + n;
	if (end > obj->size)
		return stream_lex__bad(p, "code of object %s runs past its size %" PRIu64, p->f[1], obj->size);
	if (end > obj->code_nr && VEC_GROW(obj->code, end, obj->code_alloc))
		return stream_lex__oom(p);
	for (i = 0; i < n; i++) {
		uint8_t b = (uint8_t)(hexval((unsigned char)hex[2 * i]) << 4 |
				      hexval((unsigned char)hex[2 * i + 1]));
		uint64_t at = off + i;

		/* An earlier section gave this byte: the same object must have the same code. */
		if (at < obj->code_nr) {
			if (obj->code[at] != b)
				return stream_lex__bad(p, "code of object %s at 0x%" PRIx64
					   " differs from an earlier section's", p->f[1], at);
		} else {
			obj->code[at] = b;
		}
	}
	if (end > obj->code_nr)
		obj->code_nr = end;
	lo->code_next = end;
	return 0;
}

static int rec_debug(struct parser *p)
{
	struct local_obj *lo = NULL;
	int err;

	uint64_t addr = 0, line = 0, discrim = 0;
	struct stream_object *obj;
	struct stream_debug *d;

	if ((err = stream_lex__check_fields(p, 6)) || (err = find_obj(p, p->f[1], &lo)) ||
	    (err = stream_lex__get_hex(p, p->f[2], "debug address", &addr)) ||
	    (err = stream_lex__get_dec(p, p->f[3], "debug line", &line)) ||
	    (err = stream_lex__get_dec(p, p->f[4], "debug discriminator", &discrim)) ||
	    (err = stream_lex__get_str(p, p->f[5], "debug file")))
		return err;

	if (lo->obj == LOST) {
		skip_lost(p, lo->lost, 0);
		return 0;
	}
	if (lo->obj == SKIPPED) {
		p->s->skipped_object_lines++;
		return 0;
	}
	if (line > UINT32_MAX || discrim > UINT32_MAX)
		return stream_lex__bad(p, "debug line or discriminator past 32 bits");
	obj = &p->s->objects[lo->obj];
	if (!lo->debug_state)
		lo->debug_state = obj->debug_nr ? 2 : 1;
	if (lo->debug_state == 2)
		return 0;
	if (VEC_GROW(obj->debug, obj->debug_nr + 1, obj->debug_alloc))
		return stream_lex__oom(p);
	d = &obj->debug[obj->debug_nr];
	d->file = strdup(p->f[5]);
	if (!d->file)
		return stream_lex__oom(p);
	d->addr = addr;
	d->line = (uint32_t)line;
	d->discrim = (uint32_t)discrim;
	obj->debug_nr++;
	return 0;
}

static int rec_sample(struct parser *p)
{
	struct stream *s = p->s;
	struct stream_object *obj;
	struct stream_sample *smp;
	struct local_obj *lo = NULL;
	struct local_ev *le = NULL;
	uint64_t off = 0, samples = 0, period = 0;
	uint32_t ev;
	int err;

	if ((err = stream_lex__check_fields(p, 6)) || (err = find_obj(p, p->f[1], &lo)) ||
	    (err = find_ev(p, p->f[2], &le)) ||
	    (err = stream_lex__get_hex(p, p->f[3], "sample offset", &off)) ||
	    (err = stream_lex__get_dec(p, p->f[4], "samples", &samples)) ||
	    (err = stream_lex__get_dec(p, p->f[5], "period", &period)))
		return err;
	if (lo->obj == LOST || le->ev == LOST) {
		skip_lost(p, lo->obj == LOST ? lo->lost : le->lost, samples);
		return 0;
	}
	if (lo->obj == SKIPPED) {
		s->skipped_object_lines++;
		return 0;
	}
	ev = le->ev;
	/*
	 * Appended as they come; when the array is full and has doubled since
	 * the last merge, equal (object, event, offset) keys of different
	 * sections are summed in place. Memory follows the distinct keys (about
	 * 32 bytes each), not the sections, at O(n log n) in all.
	 */
	if (s->samples_nr == s->samples_alloc && s->samples_nr >= 2 * s->samples_merged &&
	    s->samples_nr && stream__merge_samples(s, false))
		return stream_lex__bad(p, "sample count overflows 64 bits");
	if (VEC_GROW(s->samples, s->samples_nr + 1, s->samples_alloc))
		return stream_lex__oom(p);
	smp = &s->samples[s->samples_nr++];
	*smp = (struct stream_sample){ .obj = lo->obj, .ev = ev, .off = off,
				       .samples = samples, .period = period };
	/* Which run had them: what merging keeps of each run (provenance). */
	obj = &s->objects[lo->obj];
	if (stream__tally_add(&obj->tally, &obj->tally_nr, &obj->tally_alloc,
			       (uint32_t)(s->runs_nr - 1), ev, samples))
		return stream_lex__oom(p);
	return 0;
}

/* Record kinds this reader knows (STREAM.md "Records"). */
static const struct record {
	const char *kind;
	int (*parse)(struct parser *p);
} records[] = {
	{ "producer", rec_ignore },
	{ "input", rec_input },
	{ "time-aware", rec_ignore },
	{ "event", rec_event },
	{ "jitdump", rec_jitdump },
	{ "warning", rec_warning },
	{ "total", rec_total },
	{ "object", rec_object },
	{ "code", rec_code },
	{ "debug", rec_debug },
	{ "sample", rec_sample },
	{ "load", rec_load },
	{ "map", rec_map },
};

static void section_reset(struct parser *p)
{
	p->objs_nr = p->evs_nr = 0;
	idx_table_clear(&p->obj_ids);
	idx_table_clear(&p->ev_ids);
}

static int section_start(struct parser *p)
{
	uint64_t major = 0;
	int err;

	if (p->in_section)
		return stream_lex__bad(p, "new section before the end of the one started at line %lu"
			   " (truncated stream?)", p->section_line);
	if (p->nf < 2)
		return stream_lex__bad(p, "'%s' without a version", HB_STREAM_MAGIC);
	if ((err = stream_lex__get_dec(p, p->f[1], "stream version", &major)))
		return err;
	if (major != HB_STREAM_VERSION)
		return stream_lex__bad(p, "stream version %s is not supported (this hotblocks reads version %d)",
			   p->f[1], HB_STREAM_VERSION);
	if ((err = stream_lex__check_fields(p, 2)))
		return err;
	if (p->s->runs_nr >= UINT32_MAX - 1)
		return stream_lex__bad(p, "too many sections");
	if (VEC_GROW(p->s->runs, p->s->runs_nr + 1, p->s->runs_alloc))
		return stream_lex__oom(p);
	p->s->runs[p->s->runs_nr++] = (struct stream_run){ .origin = p->fname, .line = p->line };
	p->in_section = true;
	p->section_line = p->line;
	section_reset(p);
	return 0;
}

/* Whether tok is a whole unsigned decimal number (an id), into *v. */
static bool dec_id(const char *tok, uint64_t *v)
{
	uint64_t n = 0;

	if (!*tok)
		return false;
	for (; *tok; tok++) {
		if (*tok < '0' || *tok > '9' || n > (UINT64_MAX - (uint64_t)(*tok - '0')) / 10)
			return false;
		n = n * 10 + (uint64_t)(*tok - '0');
	}
	*v = n;
	return true;
}

/*
 * A line longer than HB_STREAM_LINE_MAX (head: its first bytes; bytes: its
 * length): its record alone is lost and told (stream.lost). An object or
 * event it defined is remembered as lost, so that the lines referring to it
 * are skipped and counted, not refused. The lines that make the sections
 * cannot be lost without losing more: there it is an error.
 */
static int lost_line(struct parser *p, char *head, uint64_t bytes)
{
	struct stream *s = p->s;
	uint32_t lost = UINT32_MAX;
	bool object, event;
	uint64_t id = 0;

	stream_lex__split(p, head);
	if (!p->in_section || !strcmp(p->f[0], HB_STREAM_MAGIC) || !strcmp(p->f[0], "end"))
		return stream_lex__bad(p, "line of %" PRIu64 " bytes, longer than a stream's lines can be (%u)%s",
			   bytes, HB_STREAM_LINE_MAX, p->in_section ? "" : " (not a hotblocks stream?)");
	object = !strcmp(p->f[0], "object");
	event = !strcmp(p->f[0], "event");
	/* The id is known when the head holds all of it (a field follows). */
	if ((object || event) && !(p->nf > 2 && dec_id(p->f[1], &id)))
		object = event = false;
	if (s->lost_nr < STREAM_LOST_MAX) {
		struct stream_lost *l;

		if (VEC_GROW(s->lost, s->lost_nr + 1, s->lost_alloc))
			return stream_lex__oom(p);
		l = &s->lost[s->lost_nr];
		*l = (struct stream_lost){ .origin = p->fname, .line = p->line, .bytes = bytes,
					   .has_id = object || event, .id = id };
		snprintf(l->kind, sizeof(l->kind), "%s", p->f[0]);
		lost = (uint32_t)s->lost_nr++;
	} else {
		s->lost_dropped++;
	}
	if (object) {
		if (idx_table_find(&p->obj_ids, hash_u64(0, id), local_obj_eq, &id, p) >= 0)
			return stream_lex__bad(p, "object %s defined twice in this section", p->f[1]);
		if (VEC_GROW(p->objs, p->objs_nr + 1, p->objs_alloc) ||
		    idx_table_add(&p->obj_ids, hash_u64(0, id), (uint32_t)p->objs_nr))
			return stream_lex__oom(p);
		p->objs[p->objs_nr++] = (struct local_obj){ .id = id, .obj = LOST, .lost = lost };
	} else if (event) {
		if (idx_table_find(&p->ev_ids, hash_u64(0, id), local_ev_eq, &id, p) >= 0)
			return stream_lex__bad(p, "event %s defined twice in this section", p->f[1]);
		if (VEC_GROW(p->evs, p->evs_nr + 1, p->evs_alloc) ||
		    idx_table_add(&p->ev_ids, hash_u64(0, id), (uint32_t)p->evs_nr))
			return stream_lex__oom(p);
		p->evs[p->evs_nr++] = (struct local_ev){ .id = id, .ev = LOST, .lost = lost };
	}
	return 0;
}

static int parse_line(struct parser *p, char *line)
{
	size_t i;

	if (!*line || *line == '#')
		return 0;
	stream_lex__split(p, line);
	if (!strcmp(p->f[0], HB_STREAM_MAGIC))
		return section_start(p);
	if (!p->in_section && !strcmp(p->f[0], "end"))
		return stream_lex__bad(p, "'end' outside a section");
	if (!p->in_section)
		return stream_lex__bad(p, "expected '%s %d' (not a hotblocks stream?)", HB_STREAM_MAGIC,
			   HB_STREAM_VERSION);
	if (!strcmp(p->f[0], "end")) {
		if (p->nf > 1)
			return stream_lex__bad(p, "'end' takes no fields");
		p->in_section = false;
		p->s->sections++;
		return 0;
	}
	for (i = 0; i < ARRAY_SIZE(records); i++)
		if (!strcmp(p->f[0], records[i].kind))
			return records[i].parse(p);
	/* STREAM.md: newer writers may add kinds without bumping the version. */
	p->s->skipped_kinds++;
	return 0;
}

int stream__read(struct stream *s, FILE *f, const char *fname, char *err, size_t errlen)
{
	struct reader r = { .f = f };
	struct parser p = { .s = s, .fname = fname, .err = err, .errlen = errlen };
	uint64_t sections = s->sections;
	char *line = NULL;
	int ret;

	if (s->finished) {
		snprintf(err, errlen, "%s: stream already finished", fname);
		return -EINVAL;
	}
	while ((ret = stream_lex__next_line(&r, &p, &line)) > 0) {
		ret = ret == 2 ? lost_line(&p, line, r.long_len) : parse_line(&p, line);
		if (ret)
			goto out;
	}
	if (ret)
		goto out;
	if (p.in_section)
		ret = stream_lex__bad(&p, "truncated stream: the section started at line %lu has no 'end'",
			  p.section_line);
	else if (s->sections == sections && !p.line) {
		snprintf(err, errlen, "%s+0x0: empty input: no '%s' section", fname, HB_STREAM_MAGIC);
		ret = -EINVAL;
	} else if (s->sections == sections) {
		snprintf(err, errlen, "%s:%lu: no '%s' section in its %lu line%s", fname, p.line,
			 HB_STREAM_MAGIC, p.line, p.line == 1 ? "" : "s");
		ret = -EINVAL;
	}
out:
	free(r.buf);
	free(p.objs);
	free(p.evs);
	idx_table_release(&p.obj_ids);
	idx_table_release(&p.ev_ids);
	return ret;
}

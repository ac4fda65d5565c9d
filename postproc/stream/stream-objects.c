/* SPDX-License-Identifier: MIT */
/* The code objects, merged over sections by their identity, with their code, debug entries and samples (stream-parse.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "stream-parse.h"

/* The key=value fields of an `object` record (stream-records.def). */
struct obj_fields {
	enum hb_object_kind kind;
	uint64_t pid, e_machine, addr, size, code_index, load_time, sym_start;
	uint64_t name_length, dump_length, dso_length;
	char *name, *dump, *dso, *source;
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

/* The object's fields as read (v: stream_lex__get_fields') into o. */
static int object_fields(struct parser *p, const struct stream_field *v, struct obj_fields *o)
{
	o->pid = v[HB_FIELD_OBJECT_PID].num;
	o->e_machine = v[HB_FIELD_OBJECT_E_MACHINE].num;
	o->addr = v[HB_FIELD_OBJECT_ADDR].num;
	o->size = v[HB_FIELD_OBJECT_SIZE].num;
	o->code_index = v[HB_FIELD_OBJECT_CODE_INDEX].num;
	o->load_time = v[HB_FIELD_OBJECT_LOAD_TIME].num;
	o->sym_start = v[HB_FIELD_OBJECT_SYM_START].num;
	o->name_length = v[HB_FIELD_OBJECT_NAME_LENGTH].num;
	o->dump_length = v[HB_FIELD_OBJECT_DUMP_LENGTH].num;
	o->dso_length = v[HB_FIELD_OBJECT_DSO_LENGTH].num;
	o->name = v[HB_FIELD_OBJECT_NAME].str;
	o->dump = v[HB_FIELD_OBJECT_DUMP].str;
	o->dso = v[HB_FIELD_OBJECT_DSO].str;
	o->source = v[HB_FIELD_OBJECT_SOURCE].str;
	if (o->pid > UINT32_MAX)
		return stream_lex__bad(p, "object %s: pid %" PRIu64 " is out of range", p->f[1], o->pid);
	if (o->e_machine > UINT16_MAX)
		return stream_lex__bad(p, "object %s: e_machine %" PRIu64 " is out of range", p->f[1],
			   o->e_machine);
	return 0;
}

int stream_objects__object(struct parser *p)
{
	struct stream_field v[HB_FIELD__NR];
	struct obj_fields o = { 0 };
	char what[512];
	uint64_t id, hash;
	uint32_t idx = SKIPPED;
	size_t k;
	long found;
	int err;

	if ((err = stream_lex__check_record(p, HB_REC_OBJECT)) ||
	    (err = stream_lex__get_dec(p, p->f[1], "object id", &id)))
		return err;
	if (stream_ids__has_obj(p, id))
		return stream_lex__bad(p, "object %s defined twice in this section", p->f[1]);
	for (k = 0; k < HB_KIND__NR; k++)
		if (!strcmp(p->f[2], hb_kind_name(k)))
			break;
	if (k == HB_KIND__NR) {
		/* A newer writer's object kind: skip it and everything that refers to it. */
		p->s->skipped_objects++;
		return stream_ids__add_obj(p, id, idx, UINT32_MAX);
	}
	o.kind = (enum hb_object_kind)k;
	/* stream_lex__bad keeps 511 bytes of a message too: a longer id reads the same. */
	snprintf(what, sizeof(what), "object %s", p->f[1]);
	if ((err = stream_lex__get_fields(p, HB_REC_OBJECT, 1u << o.kind, 3, what, v)) ||
	    (err = object_fields(p, v, &o)))
		return err;
	hash = obj_hash(&o);
	found = idx_table_find(&p->s->obj_tab, hash, obj_eq, &o, p->s);
	if (found >= 0) {
		idx = (uint32_t)found;
		if ((err = check_same_object(p, &p->s->objects[idx], &o)))
			return err;
	} else if ((err = new_object(p, &o, hash, &idx))) {
		return err;
	}
	return stream_ids__add_obj(p, id, idx, UINT32_MAX);
}

/* Whether a line of the object lo is skipped, and counted (with its
 * samples): the object was lost (its line too long) or of a kind this
 * reader does not know. */
static bool skipped(struct parser *p, const struct local_obj *lo, uint64_t samples)
{
	if (lo->obj == LOST)
		stream_ids__skip_lost(p, lo->lost, samples);
	else if (lo->obj == SKIPPED)
		p->s->skipped_object_lines++;
	else
		return false;
	return true;
}

/* Objects of up to this size get room for all of it with their first code line. */
#define CODE_AT_ONCE ((uint64_t)16 << 20)

int stream_objects__code(struct parser *p)
{
	struct stream_object *obj;
	struct local_obj *lo = NULL;
	uint64_t off = 0, end;
	const char *hex;
	size_t n, i;
	int err;

	if ((err = stream_lex__check_record(p, HB_REC_CODE)) || (err = stream_ids__find_obj(p, p->f[1], &lo)) ||
	    (err = stream_lex__get_hex(p, p->f[2], "code offset", &off)))
		return err;
	hex = p->f[3];
	n = strlen(hex);
	if (n % 2)
		return stream_lex__bad(p, "code bytes: odd number of hex digits");
	for (i = 0; i < n; i++)
		if (hexval((unsigned char)hex[i]) < 0)
			return stream_lex__bad(p, "code bytes: '%c' is not a hex digit", hex[i]);
	if (skipped(p, lo, 0))
		return 0;
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
	/* The object's size at once (all but a huge one's): its code comes in
	 * lines of a few dozen bytes, and growing by doubling would leave up
	 * to as much room unused again as a big profile has code. */
	if (!obj->code && obj->size <= CODE_AT_ONCE) {
		if (!(obj->code = malloc(obj->size ? obj->size : 1)))
			return stream_lex__oom(p);
		obj->code_alloc = obj->size;
	}
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

int stream_objects__debug(struct parser *p)
{
	struct local_obj *lo = NULL;
	int err;

	uint64_t addr = 0, line = 0, discrim = 0;
	struct stream_object *obj;
	struct stream_debug *d;

	if ((err = stream_lex__check_record(p, HB_REC_DEBUG)) || (err = stream_ids__find_obj(p, p->f[1], &lo)) ||
	    (err = stream_lex__get_hex(p, p->f[2], "debug address", &addr)) ||
	    (err = stream_lex__get_dec(p, p->f[3], "debug line", &line)) ||
	    (err = stream_lex__get_dec(p, p->f[4], "debug discriminator", &discrim)) ||
	    (err = stream_lex__get_str(p, p->f[5], "debug file")))
		return err;

	if (skipped(p, lo, 0))
		return 0;
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

int stream_objects__sample(struct parser *p)
{
	struct stream *s = p->s;
	struct stream_object *obj;
	struct stream_sample *smp;
	struct local_obj *lo = NULL;
	struct local_ev *le = NULL;
	uint64_t off = 0, samples = 0, period = 0;
	uint32_t ev;
	int err;

	if ((err = stream_lex__check_record(p, HB_REC_SAMPLE)) || (err = stream_ids__find_obj(p, p->f[1], &lo)) ||
	    (err = stream_ids__find_ev(p, p->f[2], &le)) ||
	    (err = stream_lex__get_hex(p, p->f[3], "sample offset", &off)) ||
	    (err = stream_lex__get_dec(p, p->f[4], "samples", &samples)) ||
	    (err = stream_lex__get_dec(p, p->f[5], "period", &period)))
		return err;
	if (lo->obj != LOST && le->ev == LOST) {
		stream_ids__skip_lost(p, le->lost, samples);
		return 0;
	}
	if (skipped(p, lo, samples))
		return 0;
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

/* code-file <id> <file-offset-hex> <length> <crc64-hex> <file>: the object's
 * code is the file's bytes, read by stream__finish (stream-code-files.c). */
int stream_objects__code_file(struct parser *p)
{
	struct stream_object *obj;
	struct local_obj *lo = NULL;
	uint64_t off = 0, len = 0, crc = 0;
	int err;

	if ((err = stream_lex__check_record(p, HB_REC_CODE_FILE)) || (err = stream_ids__find_obj(p, p->f[1], &lo)) ||
	    (err = stream_lex__get_hex(p, p->f[2], "code file offset", &off)) ||
	    (err = stream_lex__get_dec(p, p->f[3], "code length", &len)) ||
	    (err = stream_lex__get_hex(p, p->f[4], "code CRC-64", &crc)) ||
	    (err = stream_lex__get_str(p, p->f[5], "code file")))
		return err;
	if (skipped(p, lo, 0))
		return 0;
	obj = &p->s->objects[lo->obj];
	if (!*p->f[5])
		return stream_lex__bad(p, "code of object %s: no file named", p->f[1]);
	if (lo->code_next)
		return stream_lex__bad(p, "code of object %s: a file named after its code lines", p->f[1]);
	if (!len || len > obj->size)
		return stream_lex__bad(p, "code of object %s: %" PRIu64 " bytes in a file, its size is %" PRIu64,
				       p->f[1], len, obj->size);
	if (off > UINT64_MAX - len)
		return stream_lex__bad(p, "code of object %s: offset 0x%" PRIx64 " + %" PRIu64 " past 64 bits",
				       p->f[1], off, len);
	lo->code_next = len;
	/* An earlier section named the same object's code: the same bytes. */
	if (obj->code_file) {
		if (obj->code_file_len != len || obj->code_crc != crc)
			return stream_lex__bad(p, "code of object %s (%s) differs from an earlier section's",
					       p->f[1], obj->name);
		return 0;
	}
	if (!(obj->code_file = strdup(p->f[5])))
		return stream_lex__oom(p);
	obj->code_file_off = off;
	obj->code_file_len = len;
	obj->code_crc = crc;
	return 0;
}

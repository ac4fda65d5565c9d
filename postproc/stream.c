/* SPDX-License-Identifier: MIT */
/* Reader of the annotated stream (plugin/STREAM.md): every section of every input merged. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "stream-fold.h"
#include "stream.h"

/* Fields kept from one line; a longer line's extra fields are ignored unread. */
#define MAX_FIELDS 64
/* Distinct event names over all inputs: perf records a handful. */
#define MAX_EVENTS 4096
/* Section-local object id whose object kind was unknown: its lines are skipped. */
#define SKIPPED UINT32_MAX

const char *stream__kind_name(enum hb_object_kind kind)
{
	return hb_kind_name(kind);
}

const char *stream__class_name(enum hb_sample_class cls)
{
	return hb_class_name(cls);
}

/* Buffered line reader with a bounded line length. */
struct reader {
	FILE *f;
	char *buf;
	size_t pos, len, alloc;	/* unread bytes are buf[pos..len) */
};

/* A section-local object id and what it maps to. */
struct local_obj {
	uint64_t id;
	uint32_t obj;		/* index in stream.objects, or SKIPPED */
	uint64_t code_next;	/* offset the next `code` chunk of this section must start at */
	/* 0: no debug line yet in this section; 1: this section supplies the object's
	 * debug entries; 2: an earlier section did (the same load: keep those). */
	uint8_t debug_state;
};

struct local_ev {
	uint64_t id;
	uint32_t ev;		/* index in stream.events */
};

struct parser {
	struct stream *s;
	const char *fname;
	unsigned long line;
	char *err;
	size_t errlen;
	bool in_section;
	unsigned long section_line;
	char *f[MAX_FIELDS];	/* fields of the current line, NUL-terminated in place */
	size_t nf;
	struct local_obj *objs;
	size_t objs_nr, objs_alloc;
	struct idx_table obj_ids;
	struct local_ev *evs;
	size_t evs_nr, evs_alloc;
	struct idx_table ev_ids;
};

__attribute__((format(printf, 2, 3)))
static int bad(struct parser *p, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "%s:%lu: %s", p->fname, p->line, msg);
	return -EINVAL;
}

static int oom(struct parser *p)
{
	snprintf(p->err, p->errlen, "%s:%lu: out of memory", p->fname, p->line);
	return -ENOMEM;
}

/*
 * Next line into *line (NUL-terminated, newline removed). Returns 1, 0 at the
 * end of input, or a negative errno with the message in p->err.
 */
static int next_line(struct reader *r, struct parser *p, char **line)
{
	for (;;) {
		char *nl = r->len > r->pos ? memchr(r->buf + r->pos, '\n', r->len - r->pos) : NULL;
		size_t got;

		if (nl) {
			size_t len = (size_t)(nl - (r->buf + r->pos));

			*nl = '\0';
			*line = r->buf + r->pos;
			r->pos = nl + 1 - r->buf;
			p->line++;
			/* The stream is text: a NUL would silently cut the line short. */
			if (memchr(*line, '\0', len))
				return bad(p, "NUL byte in line at column %zu",
					   (size_t)((char *)memchr(*line, '\0', len) - *line) + 1);
			return 1;
		}
		if (r->pos) {
			memmove(r->buf, r->buf + r->pos, r->len - r->pos);
			r->len -= r->pos;
			r->pos = 0;
		}
		if (r->len > STREAM_LINE_MAX) {
			p->line++;
			return bad(p, "line longer than %u bytes", STREAM_LINE_MAX);
		}
		if (r->len == r->alloc) {
			size_t n = r->alloc ? r->alloc * 2 : 65536;
			char *b;

			if (n > STREAM_LINE_MAX + 1)
				n = STREAM_LINE_MAX + 1;
			b = realloc(r->buf, n);
			if (!b)
				return oom(p);
			r->buf = b;
			r->alloc = n;
		}
		got = fread(r->buf + r->len, 1, r->alloc - r->len, r->f);
		if (!got) {
			if (ferror(r->f)) {
				snprintf(p->err, p->errlen, "%s: read error: %s", p->fname,
					 strerror(errno));
				return -EIO;
			}
			if (r->len) {
				/* A stream ends with "end\n": a cut line is a cut stream. */
				p->line++;
				return bad(p, "last line has no newline (truncated stream?)");
			}
			return 0;
		}
		r->len += got;
	}
}

/* Split line at single spaces (STREAM.md: "fields are separated by one space"). */
static void split(struct parser *p, char *line)
{
	p->nf = 0;
	for (;;) {
		char *sp = strchr(line, ' ');

		if (p->nf < MAX_FIELDS)
			p->f[p->nf++] = line;
		if (!sp)
			break;
		*sp = '\0';
		line = sp + 1;
	}
}

static int get_dec(struct parser *p, const char *tok, const char *what, uint64_t *v)
{
	uint64_t n = 0;
	const char *c = tok;

	if (!*c)
		return bad(p, "%s: empty number", what);
	for (; *c; c++) {
		if (*c < '0' || *c > '9')
			return bad(p, "%s: '%s' is not an unsigned decimal number", what, tok);
		if (n > (UINT64_MAX - (uint64_t)(*c - '0')) / 10)
			return bad(p, "%s: %s is out of range", what, tok);
		n = n * 10 + (uint64_t)(*c - '0');
	}
	*v = n;
	return 0;
}

static int get_hex(struct parser *p, const char *tok, const char *what, uint64_t *v)
{
	uint64_t n = 0;
	const char *c;

	if (tok[0] != '0' || tok[1] != 'x' || !tok[2])
		return bad(p, "%s: '%s' is not a 0x-prefixed hex number", what, tok);
	for (c = tok + 2; *c; c++) {
		int d = hexval((unsigned char)*c);

		if (d < 0)
			return bad(p, "%s: '%s' is not a 0x-prefixed hex number", what, tok);
		if (n >> 60)
			return bad(p, "%s: %s is out of range", what, tok);
		n = n << 4 | (uint64_t)d;
	}
	*v = n;
	return 0;
}

/* Decode a STREAM.md string in place: %XX escapes. */
static int get_str(struct parser *p, char *tok, const char *what)
{
	char *in = tok, *out = tok;

	while (*in) {
		int hi, lo;

		if (*in != '%') {
			*out++ = *in++;
			continue;
		}
		hi = hexval((unsigned char)in[1]);
		lo = hi < 0 ? -1 : hexval((unsigned char)in[2]);
		if (lo < 0)
			return bad(p, "%s: bad %%-escape in '%s'", what, tok);
		/* Names and paths come from NUL-terminated sources. */
		if (!hi && !lo)
			return bad(p, "%s: NUL byte (%%00) in a string", what);
		*out++ = (char)(hi << 4 | lo);
		in += 3;
	}
	*out = '\0';
	return 0;
}

/* Fields past the n a record defines must be key=value (newer writers may add them). */
static int check_fields(struct parser *p, size_t n)
{
	size_t i;

	if (p->nf < n)
		return bad(p, "'%s' record: %zu fields, expected %zu", p->f[0], p->nf - 1, n - 1);
	for (i = n; i < p->nf; i++)
		if (!strchr(p->f[i], '='))
			return bad(p, "'%s' record: unexpected field '%s'", p->f[0], p->f[i]);
	return 0;
}

/* Section-local id tables. */

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
	int err = get_dec(p, tok, "object id", &id);

	if (err)
		return err;
	i = idx_table__find(&p->obj_ids, hash_u64(0, id), local_obj_eq, &id, p);
	if (i < 0)
		return bad(p, "object %s was not defined in this section", tok);
	*lo = &p->objs[i];
	return 0;
}

static int find_ev(struct parser *p, const char *tok, uint32_t *ev)
{
	uint64_t id;
	long i;
	int err = get_dec(p, tok, "event id", &id);

	if (err)
		return err;
	i = idx_table__find(&p->ev_ids, hash_u64(0, id), local_ev_eq, &id, p);
	if (i < 0)
		return bad(p, "event %s was not defined in this section", tok);
	*ev = p->evs[i].ev;
	return 0;
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

	if ((err = check_fields(p, 3)) || (err = get_dec(p, p->f[1], "event id", &id)) ||
	    (err = get_str(p, p->f[2], "event name")))
		return err;
	if (idx_table__find(&p->ev_ids, hash_u64(0, id), local_ev_eq, &id, p) >= 0)
		return bad(p, "event %s defined twice in this section", p->f[1]);
	for (i = 0; i < s->events_nr; i++)
		if (!strcmp(s->events[i].name, p->f[2]))
			break;
	if (i == s->events_nr) {
		if (s->events_nr == MAX_EVENTS)
			return bad(p, "more than %d distinct events", MAX_EVENTS);
		if (VEC_GROW(s->events, s->events_nr + 1, s->events_alloc))
			return oom(p);
		memset(&s->events[i], 0, sizeof(s->events[i]));
		s->events[i].name = strdup(p->f[2]);
		if (!s->events[i].name)
			return oom(p);
		s->events_nr++;
	}
	if (VEC_GROW(p->evs, p->evs_nr + 1, p->evs_alloc) ||
	    idx_table__add(&p->ev_ids, hash_u64(0, id), (uint32_t)p->evs_nr))
		return oom(p);
	p->evs[p->evs_nr].id = id;
	p->evs[p->evs_nr].ev = (uint32_t)i;
	p->evs_nr++;
	return 0;
}

/* STREAM.md `input`: which recording the run read, for provenance. */
static int rec_input(struct parser *p)
{
	struct stream_run *run = &p->s->runs[p->s->runs_nr - 1];
	int err;

	if (p->nf < 2 || run->input)
		return 0;
	if ((err = get_str(p, p->f[1], "input")))
		return err;
	run->input = strdup(p->f[1]);
	return run->input ? 0 : oom(p);
}

/* STREAM.md `jitdump`: the dumps the run read, inputs no report may replace (output-file.h). */
static int rec_jitdump(struct parser *p)
{
	struct stream_run *run = &p->s->runs[p->s->runs_nr - 1];
	int err;

	if (p->nf < 2)
		return 0;
	if ((err = get_str(p, p->f[1], "jitdump path")))
		return err;
	if (VEC_GROW(run->jitdumps, run->jitdumps_nr + 1, run->jitdumps_alloc) ||
	    !(run->jitdumps[run->jitdumps_nr] = strdup(p->f[1])))
		return oom(p);
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
		return bad(p, "'warning' record without text");
	if ((err = get_str(p, p->f[1], "warning")))
		return err;
	for (i = 0; i < s->warnings_nr; i++)
		if (!strcmp(s->warnings[i].text, p->f[1]))
			return 0;
	if (s->warnings_nr == STREAM_WARNINGS_MAX) {
		s->warnings_dropped++;
		return 0;
	}
	if (VEC_GROW(s->warnings, s->warnings_nr + 1, s->warnings_alloc) || !(text = strdup(p->f[1])))
		return oom(p);
	s->warnings[s->warnings_nr++] = (struct stream_warning){ text, p->fname };
	return 0;
}

static int rec_total(struct parser *p)
{
	struct stream_event *e;
	uint64_t samples = 0, period = 0;
	uint32_t ev = 0;
	size_t cls;
	int err;

	if ((err = check_fields(p, 5)) || (err = find_ev(p, p->f[1], &ev)) ||
	    (err = get_dec(p, p->f[3], "samples", &samples)) ||
	    (err = get_dec(p, p->f[4], "period", &period)))
		return err;
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
		return bad(p, "sample total overflows 64 bits");
	if (cls == HB_CLASS_ALL) {
		struct stream_run *run = &p->s->runs[p->s->runs_nr - 1];

		if (stream_fold__tally(&run->totals, &run->totals_nr, &run->totals_alloc,
				       (uint32_t)(p->s->runs_nr - 1), ev, samples))
			return oom(p);
	}
	return 0;
}

/* The key=value fields of an `object` record. */
struct obj_fields {
	enum hb_object_kind kind;
	uint64_t pid, e_machine, addr, size, code_index, load_time, sym_start;
	char *name, *dump, *dso;
};

enum { F_DEC, F_HEX, F_STR };
#define K_JIT (1u << HB_KIND_JIT)
#define K_FILE (1u << HB_KIND_NATIVE | 1u << HB_KIND_CWASM)
#define K_ALL (K_JIT | K_FILE)

/* STREAM.md `object`: key, value type, where it goes, kinds that must have it. */
static const struct obj_key {
	const char *key;
	int type;
	size_t off;
	unsigned kinds;
} obj_keys[] = {
	{ "pid", F_DEC, offsetof(struct obj_fields, pid), K_ALL },
	{ "e_machine", F_DEC, offsetof(struct obj_fields, e_machine), K_ALL },
	{ "addr", F_HEX, offsetof(struct obj_fields, addr), K_ALL },
	{ "size", F_DEC, offsetof(struct obj_fields, size), K_ALL },
	{ "code-index", F_DEC, offsetof(struct obj_fields, code_index), K_JIT },
	{ "load-time", F_DEC, offsetof(struct obj_fields, load_time), K_JIT },
	{ "dump", F_STR, offsetof(struct obj_fields, dump), K_JIT },
	{ "dso", F_STR, offsetof(struct obj_fields, dso), K_FILE },
	{ "sym-start", F_HEX, offsetof(struct obj_fields, sym_start), K_FILE },
	{ "name", F_STR, offsetof(struct obj_fields, name), K_ALL },
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
		return bad(p, "too many objects");
	if (VEC_GROW(s->objects, s->objects_nr + 1, s->objects_alloc))
		return oom(p);
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
	obj->origin = p->fname;
	obj->origin_line = p->line;
	obj->name = strdup(o->name);
	obj->path = strdup(o->kind == HB_KIND_JIT ? o->dump : o->dso);
	if (!obj->name || !obj->path) {
		free(obj->name);
		free(obj->path);
		return oom(p);
	}
	if (idx_table__add(&s->obj_tab, hash, (uint32_t)s->objects_nr)) {
		free(obj->name);
		free(obj->path);
		return oom(p);
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
		return bad(p, "object %s: name '%s' conflicts with '%s' of the same code load at %s:%lu",
			   p->f[1], o->name, a->name, a->origin, a->origin_line);
	}
	if (what)
		return bad(p, "object %s (%s): %s %s conflicts with %s %s of the same object at %s:%lu",
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

	if ((err = check_fields(p, 3)) || (err = get_dec(p, p->f[1], "object id", &id)))
		return err;
	if (idx_table__find(&p->obj_ids, hash_u64(0, id), local_obj_eq, &id, p) >= 0)
		return bad(p, "object %s defined twice in this section", p->f[1]);
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
			return bad(p, "object %s: field '%s' is not key=value", p->f[1], p->f[i]);
		*eq = '\0';
		for (k = 0; k < ARRAY_SIZE(obj_keys); k++)
			if ((obj_keys[k].kinds & 1u << o.kind) && !strcmp(p->f[i], obj_keys[k].key))
				break;
		if (k == ARRAY_SIZE(obj_keys))
			continue;	/* STREAM.md: unknown keys are ignored */
		if (seen & 1u << k)
			return bad(p, "object %s: field '%s' given twice", p->f[1], p->f[i]);
		seen |= 1u << k;
		switch (obj_keys[k].type) {
		case F_DEC:
			err = get_dec(p, eq + 1, obj_keys[k].key,
				      (uint64_t *)((char *)&o + obj_keys[k].off));
			break;
		case F_HEX:
			err = get_hex(p, eq + 1, obj_keys[k].key,
				      (uint64_t *)((char *)&o + obj_keys[k].off));
			break;
		default:
			err = get_str(p, eq + 1, obj_keys[k].key);
			*(char **)((char *)&o + obj_keys[k].off) = eq + 1;
			break;
		}
		if (err)
			return err;
	}
	for (k = 0; k < ARRAY_SIZE(obj_keys); k++)
		if ((obj_keys[k].kinds & 1u << o.kind) && !(seen & 1u << k))
			return bad(p, "object %s: no '%s=' field", p->f[1], obj_keys[k].key);
	if (o.pid > UINT32_MAX)
		return bad(p, "object %s: pid %" PRIu64 " is out of range", p->f[1], o.pid);
	if (o.e_machine > UINT16_MAX)
		return bad(p, "object %s: e_machine %" PRIu64 " is out of range", p->f[1],
			   o.e_machine);

	hash = obj_hash(&o);
	found = idx_table__find(&p->s->obj_tab, hash, obj_eq, &o, p->s);
	if (found >= 0) {
		idx = (uint32_t)found;
		if ((err = check_same_object(p, &p->s->objects[idx], &o)))
			return err;
	} else if ((err = new_object(p, &o, hash, &idx))) {
		return err;
	}
add_local:
	if (VEC_GROW(p->objs, p->objs_nr + 1, p->objs_alloc) ||
	    idx_table__add(&p->obj_ids, hash_u64(0, id), (uint32_t)p->objs_nr))
		return oom(p);
	lo = &p->objs[p->objs_nr++];
	*lo = (struct local_obj){ .id = id, .obj = idx };
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

	if ((err = check_fields(p, 4)) || (err = find_obj(p, p->f[1], &lo)) ||
	    (err = get_hex(p, p->f[2], "code offset", &off)))
		return err;
	hex = p->f[3];
	n = strlen(hex);
	if (n % 2)
		return bad(p, "code bytes: odd number of hex digits");
	for (i = 0; i < n; i++)
		if (hexval((unsigned char)hex[i]) < 0)
			return bad(p, "code bytes: '%c' is not a hex digit", hex[i]);
	if (lo->obj == SKIPPED) {
		p->s->skipped_object_lines++;
		return 0;
	}
	n /= 2;
	/* Chunks come in ascending order without gaps; a gap would make us invent bytes. */
	if (off != lo->code_next)
		return bad(p, "code of object %s: chunk at 0x%" PRIx64 ", expected 0x%" PRIx64
			   " (%s)", p->f[1], off, lo->code_next,
			   off > lo->code_next ? "gap" : "overlap");
	obj = &p->s->objects[lo->obj];
	end = off + n;
	if (end > obj->size)
		return bad(p, "code of object %s runs past its size %" PRIu64, p->f[1], obj->size);
	if (end > obj->code_nr && VEC_GROW(obj->code, end, obj->code_alloc))
		return oom(p);
	for (i = 0; i < n; i++) {
		uint8_t b = (uint8_t)(hexval((unsigned char)hex[2 * i]) << 4 |
				      hexval((unsigned char)hex[2 * i + 1]));
		uint64_t at = off + i;

		/* An earlier section gave this byte: the same object must have the same code. */
		if (at < obj->code_nr) {
			if (obj->code[at] != b)
				return bad(p, "code of object %s at 0x%" PRIx64
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

	if ((err = check_fields(p, 6)) || (err = find_obj(p, p->f[1], &lo)) ||
	    (err = get_hex(p, p->f[2], "debug address", &addr)) ||
	    (err = get_dec(p, p->f[3], "debug line", &line)) ||
	    (err = get_dec(p, p->f[4], "debug discriminator", &discrim)) ||
	    (err = get_str(p, p->f[5], "debug file")))
		return err;

	if (lo->obj == SKIPPED) {
		p->s->skipped_object_lines++;
		return 0;
	}
	if (line > UINT32_MAX || discrim > UINT32_MAX)
		return bad(p, "debug line or discriminator past 32 bits");
	obj = &p->s->objects[lo->obj];
	if (!lo->debug_state)
		lo->debug_state = obj->debug_nr ? 2 : 1;
	if (lo->debug_state == 2)
		return 0;
	if (VEC_GROW(obj->debug, obj->debug_nr + 1, obj->debug_alloc))
		return oom(p);
	d = &obj->debug[obj->debug_nr];
	d->file = strdup(p->f[5]);
	if (!d->file)
		return oom(p);
	d->addr = addr;
	d->line = (uint32_t)line;
	d->discrim = (uint32_t)discrim;
	obj->debug_nr++;
	return 0;
}

static int sample_cmp(const void *a, const void *b)
{
	const struct stream_sample *x = a, *y = b;

	if (x->obj != y->obj)
		return x->obj < y->obj ? -1 : 1;
	if (x->ev != y->ev)
		return x->ev < y->ev ? -1 : 1;
	if (x->off != y->off)
		return x->off < y->off ? -1 : 1;
	return 0;
}

/*
 * Sort the samples and sum those of one (object, event, offset). Returns 0,
 * or -ERANGE when a sum does not fit 64 bits (overflow sets nothing).
 * saturate: sums stick at UINT64_MAX instead (after folding moved code).
 */
static int merge_samples(struct stream *s, bool saturate)
{
	size_t n = 0;

	if (s->samples_nr)
		qsort(s->samples, s->samples_nr, sizeof(*s->samples), sample_cmp);
	for (size_t i = 0; i < s->samples_nr; i++) {
		struct stream_sample *last = n ? &s->samples[n - 1] : NULL;

		if (!last || sample_cmp(last, &s->samples[i])) {
			s->samples[n++] = s->samples[i];
		} else if (saturate) {
			last->samples = sat_add(last->samples, s->samples[i].samples);
			last->period = sat_add(last->period, s->samples[i].period);
		} else if (!add_u64(&last->samples, s->samples[i].samples) ||
			   !add_u64(&last->period, s->samples[i].period)) {
			return -ERANGE;
		}
	}
	s->samples_nr = n;
	s->samples_merged = n;
	return 0;
}

static int rec_sample(struct parser *p)
{
	struct stream *s = p->s;
	struct stream_object *obj;
	struct stream_sample *smp;
	struct local_obj *lo = NULL;
	uint64_t off = 0, samples = 0, period = 0;
	uint32_t ev = 0;
	int err;

	if ((err = check_fields(p, 6)) || (err = find_obj(p, p->f[1], &lo)) ||
	    (err = find_ev(p, p->f[2], &ev)) ||
	    (err = get_hex(p, p->f[3], "sample offset", &off)) ||
	    (err = get_dec(p, p->f[4], "samples", &samples)) ||
	    (err = get_dec(p, p->f[5], "period", &period)))
		return err;
	if (lo->obj == SKIPPED) {
		s->skipped_object_lines++;
		return 0;
	}
	/*
	 * Appended as they come; when the array is full and has doubled since
	 * the last merge, equal (object, event, offset) keys of different
	 * sections are summed in place. Memory follows the distinct keys (about
	 * 32 bytes each), not the sections, at O(n log n) in all.
	 */
	if (s->samples_nr == s->samples_alloc && s->samples_nr >= 2 * s->samples_merged &&
	    s->samples_nr && merge_samples(s, false))
		return bad(p, "sample count overflows 64 bits");
	if (VEC_GROW(s->samples, s->samples_nr + 1, s->samples_alloc))
		return oom(p);
	smp = &s->samples[s->samples_nr++];
	*smp = (struct stream_sample){ .obj = lo->obj, .ev = ev, .off = off,
				       .samples = samples, .period = period };
	/* Which run had them: what merging keeps of each run (provenance). */
	obj = &s->objects[lo->obj];
	if (stream_fold__tally(&obj->tally, &obj->tally_nr, &obj->tally_alloc,
			       (uint32_t)(s->runs_nr - 1), ev, samples))
		return oom(p);
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
};

static void section_reset(struct parser *p)
{
	p->objs_nr = p->evs_nr = 0;
	idx_table__clear(&p->obj_ids);
	idx_table__clear(&p->ev_ids);
}

static int section_start(struct parser *p)
{
	uint64_t major = 0;
	int err;

	if (p->in_section)
		return bad(p, "new section before the end of the one started at line %lu"
			   " (truncated stream?)", p->section_line);
	if (p->nf < 2)
		return bad(p, "'%s' without a version", HB_STREAM_MAGIC);
	if ((err = get_dec(p, p->f[1], "stream version", &major)))
		return err;
	if (major != HB_STREAM_VERSION)
		return bad(p, "stream version %s is not supported (this hotblocks reads version %d)",
			   p->f[1], HB_STREAM_VERSION);
	if ((err = check_fields(p, 2)))
		return err;
	if (p->s->runs_nr >= UINT32_MAX - 1)
		return bad(p, "too many sections");
	if (VEC_GROW(p->s->runs, p->s->runs_nr + 1, p->s->runs_alloc))
		return oom(p);
	p->s->runs[p->s->runs_nr++] = (struct stream_run){ .origin = p->fname, .line = p->line };
	p->in_section = true;
	p->section_line = p->line;
	section_reset(p);
	return 0;
}

static int parse_line(struct parser *p, char *line)
{
	size_t i;

	if (!*line || *line == '#')
		return 0;
	split(p, line);
	if (!strcmp(p->f[0], HB_STREAM_MAGIC))
		return section_start(p);
	if (!p->in_section && !strcmp(p->f[0], "end"))
		return bad(p, "'end' outside a section");
	if (!p->in_section)
		return bad(p, "expected '%s %d' (not a hotblocks stream?)", HB_STREAM_MAGIC,
			   HB_STREAM_VERSION);
	if (!strcmp(p->f[0], "end")) {
		if (p->nf > 1)
			return bad(p, "'end' takes no fields");
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
	while ((ret = next_line(&r, &p, &line)) > 0) {
		ret = parse_line(&p, line);
		if (ret)
			goto out;
	}
	if (ret)
		goto out;
	if (p.in_section)
		ret = bad(&p, "truncated stream: the section started at line %lu has no 'end'",
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
	idx_table__release(&p.obj_ids);
	idx_table__release(&p.ev_ids);
	return ret;
}


/* Objects that may be CODE_MOVE copies of each other: same jitdump, code_index, size and bytes. */
static uint64_t code_key_hash(const struct stream_object *o)
{
	uint64_t h = hash_bytes(HASH_SEED, o->path, strlen(o->path));

	h = hash_u64(h, o->code_index);
	h = hash_u64(h, o->size);
	return hash_bytes(h, o->code, o->code_nr);
}

static bool same_code(uint32_t idx, const void *key, const void *ctx)
{
	const struct stream_object *a = &((const struct stream *)ctx)->objects[idx], *b = key;

	return a->code_index == b->code_index && a->size == b->size && a->code_nr == b->code_nr &&
	       !strcmp(a->path, b->path) && !memcmp(a->code, b->code, a->code_nr);
}

/*
 * A JIT's CODE_MOVE makes a second object of the same code (same jitdump and
 * code_index, same bytes, another address): offsets mean the same in both, so
 * their samples are summed into the first, which is shown alone. Objects are
 * grouped by a hash of what must be equal, so this is linear in the objects
 * and their code. Returns 0 or -ENOMEM.
 */
static int fold_moved_code(struct stream *s)
{
	struct idx_table first = { 0 };

	for (size_t i = 0; i < s->objects_nr; i++) {
		struct stream_object *m = &s->objects[i];
		uint64_t h;
		long o;

		m->moved_into = UINT32_MAX;
		if (m->kind != HB_KIND_JIT || !m->code_nr)
			continue;
		h = code_key_hash(m);
		o = idx_table__find(&first, h, same_code, m, s);
		if (o < 0) {
			if (idx_table__add(&first, h, (uint32_t)i)) {
				idx_table__release(&first);
				return -ENOMEM;
			}
		} else if (s->objects[o].addr != m->addr) {
			/* The same address (a reload in place) is another object, as before. */
			m->moved_into = (uint32_t)o;
			s->objects[o].moves++;
		}
	}
	idx_table__release(&first);
	for (size_t i = 0; i < s->samples_nr; i++) {
		uint32_t into = s->objects[s->samples[i].obj].moved_into;

		if (into != UINT32_MAX)
			s->samples[i].obj = into;
	}
	return 0;
}

int stream__finish(struct stream *s)
{
	size_t i, j;

	if (s->finished)
		return 0;
	s->finished = true;
	/* The object table served the merge. */
	idx_table__release(&s->obj_tab);
	/* Sections' equal keys first: their sum must fit, as each section's did. */
	if (merge_samples(s, false))
		return -ERANGE;
	if (fold_moved_code(s) || stream_fold__same_code(s))
		return -ENOMEM;
	/* Folding can make two samples of one (object, event, offset): sum them. */
	merge_samples(s, true);
	for (i = 0; i < s->samples_nr; i = j) {
		struct stream_object *obj = &s->objects[s->samples[i].obj];

		for (j = i; j < s->samples_nr && s->samples[j].obj == s->samples[i].obj; j++)
			;
		obj->samples = &s->samples[i];
		obj->samples_nr = j - i;
	}
	return 0;
}

long stream__find_event(const struct stream *s, const char *name)
{
	size_t i;

	for (i = 0; i < s->events_nr; i++)
		if (!strcmp(s->events[i].name, name))
			return (long)i;
	return -1;
}

void stream__init(struct stream *s)
{
	memset(s, 0, sizeof(*s));
}

void stream__release(struct stream *s)
{
	size_t i;

	for (i = 0; i < s->objects_nr; i++) {
		free(s->objects[i].name);
		free(s->objects[i].path);
		free(s->objects[i].code);
		for (size_t j = 0; j < s->objects[i].debug_nr; j++)
			free(s->objects[i].debug[j].file);
		free(s->objects[i].debug);
		free(s->objects[i].tally);
	}
	for (i = 0; i < s->runs_nr; i++) {
		free(s->runs[i].input);
		for (size_t j = 0; j < s->runs[i].jitdumps_nr; j++)
			free(s->runs[i].jitdumps[j]);
		free(s->runs[i].jitdumps);
		free(s->runs[i].totals);
	}
	free(s->runs);
	free(s->objects);
	for (i = 0; i < s->events_nr; i++)
		free(s->events[i].name);
	free(s->events);
	for (i = 0; i < s->warnings_nr; i++)
		free(s->warnings[i].text);
	free(s->warnings);
	free(s->samples);
	idx_table__release(&s->obj_tab);
	memset(s, 0, sizeof(*s));
}

/* SPDX-License-Identifier: MIT */
/* Where branches and calls out of a function land (targets.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/lib/bsearch.h"
#include "../plugin/lib/warnings.h"
#include "../plugin/symbols/elfsyms.h"
#include "archived.h"
#include "lib/util.h"
#include "targets.h"
#include "v8/v8-jump-table.h"

/* One piece of code or file a target can land in. */
struct span {
	uint32_t pid;
	uint64_t addr, size;
	uint64_t time;		/* jit: load time; map: mapping time */
	uint64_t pgoff;		/* map: the file offset at addr */
	const char *name;	/* load or symbol name; map: the path */
	long obj;		/* stream object, or -1; map: its index in stream.maps */
};

/* A mapped file's symbols, opened at its first target (files[] by path). */
struct file_syms {
	const char *path;
	const uint8_t *build_id;
	size_t build_id_size;
	struct elfsyms *es;	/* NULL: not opened yet, or out of memory */
	bool opened;
};

/* Sorted by (pid, addr), with the largest size, to find those covering an address. */
struct spans {
	struct span *v;
	size_t nr;
	uint64_t max_size;
};

struct targets {
	const struct stream *s;
	struct spans jit;	/* jit objects and code loads (a load that is an object once) */
	struct spans file;	/* native and cwasm objects: symbols */
	struct spans maps;	/* file mappings */
	struct file_syms *files;
	size_t files_nr, files_alloc;
	struct elfsyms_config cfg;
	/* what a file's symbols could not be read for (a malformed section, a
	 * debug file of another build), said once: seeded with the plugin's own
	 * warnings from the stream, which it has said already */
	struct warnings warnings;
	char buildid_dir[4096];
	struct v8_jump_tables *v8;	/* NULL: no V8 wasm code */
};

/* The names of an archive's answers, while one is read (file_symbol): beside
 * struct targets, not in it, so that the heap, and the pages' Graphviz
 * routes, are as without archives. */
static struct strset replay_names;

static int span_cmp(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	/* the object first: it has the samples and a place in the report */
	return (x->obj < 0) - (y->obj < 0);
}

static void spans_sort(struct spans *sp, bool dedup)
{
	size_t n = 0;

	if (sp->nr)
		qsort(sp->v, sp->nr, sizeof(*sp->v), span_cmp);
	for (size_t i = 0; i < sp->nr; i++) {
		/* a load the plugin also wrote as an object, or written by two sections */
		if (dedup && n && sp->v[n - 1].pid == sp->v[i].pid && sp->v[n - 1].addr == sp->v[i].addr &&
		    sp->v[n - 1].time == sp->v[i].time && sp->v[n - 1].size == sp->v[i].size)
			continue;
		if (sp->v[i].size > sp->max_size)
			sp->max_size = sp->v[i].size;
		sp->v[n++] = sp->v[i];
	}
	sp->nr = n;
}

int targets__new(struct targets **out, const struct stream *s)
{
	struct targets *t = calloc(1, sizeof(*t));
	size_t nj = s->loads_nr, nf = 0;

	*out = NULL;
	if (!t)
		return -ENOMEM;
	t->s = s;
	for (size_t i = 0; i < s->objects_nr; i++)
		s->objects[i].kind == HB_KIND_JIT ? nj++ : nf++;
	t->jit.v = malloc((nj ? nj : 1) * sizeof(*t->jit.v));
	t->file.v = malloc((nf ? nf : 1) * sizeof(*t->file.v));
	t->maps.v = malloc((s->maps_nr ? s->maps_nr : 1) * sizeof(*t->maps.v));
	if (!t->jit.v || !t->file.v || !t->maps.v) {
		targets__free(t);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->objects_nr; i++) {
		const struct stream_object *o = &s->objects[i];
		struct span sp = { o->pid, o->addr, o->size, o->load_time, 0, o->name, (long)i };

		if (o->kind == HB_KIND_JIT)
			t->jit.v[t->jit.nr++] = sp;
		else
			t->file.v[t->file.nr++] = sp;
	}
	for (size_t i = 0; i < s->loads_nr; i++) {
		const struct stream_load *l = &s->loads[i];

		t->jit.v[t->jit.nr++] = (struct span){ l->pid, l->addr, l->size, l->load_time, 0,
						       l->name, -1 };
	}
	for (size_t i = 0; i < s->maps_nr; i++) {
		const struct stream_map *m = &s->maps[i];

		t->maps.v[t->maps.nr++] = (struct span){ m->pid, m->addr, m->size, m->time, m->pgoff,
							 m->path, (long)i };
	}
	spans_sort(&t->jit, true);
	spans_sort(&t->file, false);
	spans_sort(&t->maps, true);
	if (v8_jump_tables__derive(&t->v8, s)) {
		targets__free(t);
		return -ENOMEM;
	}
	/* where perf looks for a file's debug files: its build-id cache, /usr/lib/debug */
	if (getenv("PERF_BUILDID_DIR") && *getenv("PERF_BUILDID_DIR"))
		snprintf(t->buildid_dir, sizeof(t->buildid_dir), "%s", getenv("PERF_BUILDID_DIR"));
	else if (getenv("HOME"))
		snprintf(t->buildid_dir, sizeof(t->buildid_dir), "%s/.debug", getenv("HOME"));
	for (size_t i = 0; i < s->warnings_nr && t->warnings.nr < WARNINGS_KEPT; i++)
		if ((t->warnings.kept[t->warnings.nr] = strdup(s->warnings[i].text)))
			t->warnings.nr++;
	t->cfg = (struct elfsyms_config){ .buildid_dir = t->buildid_dir[0] ? t->buildid_dir : NULL,
					  .debug_dir = "/usr/lib/debug", .warnings = &t->warnings };
	*out = t;
	return 0;
}

void targets__free(struct targets *t)
{
	if (!t)
		return;
	free(t->jit.v);
	free(t->file.v);
	free(t->maps.v);
	for (size_t i = 0; i < t->files_nr; i++)
		elfsyms__free(t->files[i].es);
	free(t->files);
	if (archived__mode() == ARCHIVED_REPLAY)
		strset_release(&replay_names);
	v8_jump_tables__free(t->v8);
	warnings__release(&t->warnings);
	free(t);
}

void targets__summary(const struct targets *t, void (*note)(void *arg, const char *line), void *arg)
{
	if (t)
		v8_jump_tables__summary(t->v8, note, arg);
}

/*
 * Of the spans of pid covering addr, the one live at time when: the newest
 * that began at or before it, else the first that began after it (code a
 * JIT loaded after the code that calls it). NULL when none covers addr.
 */
static const struct span *covering(const struct spans *sp, uint32_t pid, uint64_t addr, uint64_t when)
{
	const struct span *before = NULL, *after = NULL;
	/* the first span past (pid, addr) */
	size_t lo = LOWER_BOUND(sp->nr, i, sp->v[i].pid < pid ||
				       (sp->v[i].pid == pid && sp->v[i].addr <= addr));

	while (lo--) {
		const struct span *c = &sp->v[lo];

		if (c->pid != pid || addr - c->addr >= sp->max_size)
			break;
		if (addr - c->addr >= c->size)
			continue;
		if (c->time <= when) {
			if (!before || c->time > before->time)
				before = c;
		} else if (!after || c->time < after->time) {
			after = c;
		}
	}
	return before ? before : after;
}

/* The symbols of the file of map mi, opened at its first use; NULL: none. */
static struct elfsyms *file_syms(struct targets *t, size_t mi)
{
	const struct stream_map *m = &t->s->maps[mi];
	const char *found = stream__map_found(t->s, mi);
	size_t i;

	for (i = 0; i < t->files_nr; i++)
		if (!strcmp(t->files[i].path, m->path) && t->files[i].build_id_size == m->build_id_size &&
		    !memcmp(t->files[i].build_id, m->build_id, m->build_id_size))
			break;
	if (i == t->files_nr) {
		if (VEC_GROW(t->files, t->files_nr + 1, t->files_alloc))
			return NULL;
		t->files[t->files_nr++] = (struct file_syms){ m->path, m->build_id, m->build_id_size,
							      NULL, false };
	}
	if (!t->files[i].opened) {
		t->files[i].opened = true;
		/* where the plugin read it (--symfs, a search directory), its build-id checked again */
		t->files[i].es = elfsyms__open(found ? found : m->path, m->build_id, m->build_id_size, &t->cfg);
	}
	return t->files[i].es && elfsyms__status(t->files[i].es) == ELFSYMS_OK ? t->files[i].es : NULL;
}

/*
 * The symbol of map mi's file holding file offset off: its name and start
 * (false: none, or an FDE's bounds). An archive's maker keeps the answer,
 * "target PATH BUILD-ID OFF" -> name start (archived.h); a report of the
 * archive reads it instead of the file.
 */
static bool file_symbol(struct targets *t, size_t mi, uint64_t off, const char **name, uint64_t *start)
{
	const struct stream_map *m = &t->s->maps[mi];
	enum archived_mode mode = archived__mode();
	struct strbuf k = { 0 }, v = { 0 };
	struct elfsyms_hit h;
	struct elfsyms *es;
	bool found = false;
	const char *val;
	char *s;
	size_t len;

	if (mode != ARCHIVED_OFF) {
		strbuf_addstr(&k, "target");
		archived__str(&k, m->path, strlen(m->path));
		strbuf_addstr(&k, " ");
		for (size_t i = 0; i < m->build_id_size; i++)
			strbuf_addf(&k, "%02x", m->build_id[i]);
		strbuf_addf(&k, "%s0x%" PRIx64, m->build_id_size ? " " : "- ", off);
	}
	if (mode == ARCHIVED_REPLAY) {
		if (!k.oom && (val = archived__get(k.buf)) && archived__get_str(val, 0, &s, &len) && s) {
			found = archived__get_u64(val, 1, start) &&
				(*name = strset_add(&replay_names, s)) != NULL;
			free(s);
		}
		strbuf_release(&k);
		return found;
	}
	es = file_syms(t, mi);
	if (es && elfsyms__find(es, off, &h) && h.name) {
		*name = h.name;
		*start = h.start;
		found = true;
	}
	if (mode == ARCHIVED_KEEP) {
		archived__str(&v, found ? *name : NULL, found ? strlen(*name) : 0);
		if (found)
			strbuf_addf(&v, " %" PRIu64, *start);
		if (!k.oom && !v.oom)
			archived__put(k.buf, v.buf);
	}
	strbuf_release(&k);
	strbuf_release(&v);
	return found;
}

bool targets__find(struct targets *t, size_t from, uint64_t addr, struct target *out)
{
	const struct stream_object *o = &t->s->objects[from];
	/* native code has no load time: what is mapped last */
	uint64_t when = o->kind == HB_KIND_JIT ? o->load_time : UINT64_MAX;
	const struct span *c;
	struct v8_slot slot;

	*out = (struct target){ NULL, 0, -1, false, -1, false };
	if ((c = covering(&t->jit, o->pid, addr, when)) ||
	    (c = covering(&t->file, o->pid, addr, when))) {
		*out = (struct target){ c->name, addr - c->addr, c->obj, false, -1, false };
		return true;
	}
	if ((c = covering(&t->maps, o->pid, addr, when))) {
		uint64_t off = addr - c->addr + c->pgoff, start;
		const char *name;

		/* an FDE's bounds name nothing: the file, as perf names unknown code */
		if (file_symbol(t, (size_t)c->obj, off, &name, &start))
			*out = (struct target){ name, off - start, -1, false, -1, false };
		else
			*out = (struct target){ c->name, off, -1, true, -1, false };
		return true;
	}
	if (o->kind == HB_KIND_JIT && v8_jump_tables__find(t->v8, o->pid, addr, &slot)) {
		*out = (struct target){ slot.name, slot.off, -1, false, slot.func_index, slot.far };
		return true;
	}
	return false;
}

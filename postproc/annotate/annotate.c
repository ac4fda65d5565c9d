// SPDX-License-Identifier: MIT
/*
 * The columns beside each machine instruction (see annotate.h): a
 * dispatcher over their sources (columns.h). Each object gets its display
 * name, then wasmtime's artifacts claim it if it is theirs ([CLIF], [Wasm],
 * names, [Source] from the module's DWARF); a [Source] column still missing
 * comes from the jitdump's debug entries, else from the native file's DWARF.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "archived.h"
#include "annotate/dwarf/srcmap.h"
#include "annotate/wasmtime/wasmtime.h"
#include "jit-debug.h"
#include "v8/v8-listing.h"
#include "v8/v8-name.h"
#include "names.h"
#include "native-source.h"

struct annotator {
	struct wasmtime *wasmtime;	/* --cwasm, --clif, --wasm; NULL: none given */
	struct v8_listing *v8;		/* --base-v8-code; NULL: none given */
	bool no_source;
	bool raw_names;			/* --raw-names */
	struct srcmap_cache elfs;	/* native files' DWARF */
	struct annot_texts texts;	/* display names and source cells */
	struct strset scripts;		/* the scripts V8's load names name, for jit_debug__cell */
	bool scripts_done;
	struct annot_func *funcs;	/* per stream object, computed on first use */
	bool *done;
	size_t funcs_nr;
};

/*
 * What an archive (archived.h) adds to the annotator, kept beside it, not in
 * it: with struct annotator and the heap as they were without archives, the
 * pages stay the same (Graphviz routes parallel edges by address). One per
 * process, as the archive: only hotblocks' report reads or makes one.
 */
static struct {
	/* Read from an archive: the .cwasm, CLIF and Wasm were given when it
	 * was made, and native files' DWARF was read then. */
	bool replay, replay_wasm;
	bool *native_has;	/* replay: [Source] of native code after its first lookup */
	/* The number the archive's answers give each object: its index where
	 * the archive was made, from "object IDENTITY" (UINT32_MAX: none). */
	uint32_t *archived_id;
} arch;

int annotator__open(struct annotator **out, const struct annot_inputs *in, char *err, size_t errlen)
{
	struct annotator *a = calloc(1, sizeof(*a));
	int ret;

	*out = NULL;
	if (!a) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	a->no_source = in->no_source;
	a->raw_names = in->raw_names;
	if (archived__mode() == ARCHIVED_REPLAY) {
		arch.replay = true;
		arch.replay_wasm = archived__get("wasm-inputs") != NULL;
		*out = a;
		return 0;
	}
	if (in->cwasm || in->clif_dir || in->wasm)
		archived__put("wasm-inputs", "");
	ret = wasmtime__open(&a->wasmtime, in->cwasm, in->clif_dir, in->wasm, in->no_source, err,
			     errlen);
	if (ret >= 0 && in->v8_code)
		ret = v8_listing__open(&a->v8, in->v8_code, in->wasm, err, errlen);
	if (ret < 0) {
		annotator__close(a);
		return ret;
	}
	*out = a;
	return 0;
}

void annotator__close(struct annotator *a)
{
	if (!a)
		return;
	wasmtime__close(a->wasmtime);
	v8_listing__close(a->v8);
	srcmap_cache__release(&a->elfs);
	strset_release(&a->texts.set);
	strset_release(&a->scripts);
	for (size_t i = 0; a->funcs && i < a->funcs_nr; i++)
		jit_debug_index__free(a->funcs[i].debug_index);
	free(a->funcs);
	free(a->done);
	if (archived__mode() != ARCHIVED_OFF) {
		FREE_AND_NULL(arch.native_has);
		FREE_AND_NULL(arch.archived_id);
	}
	free(a);
}

/* The archived key of object idx's answer named what, with more fields (NULL:
 * none); an object the archive does not know has no answers (k->oom set). */
static void key(struct strbuf *k, const struct annotator *a, const char *what, size_t idx,
		const char *more)
{
	if (!arch.archived_id || arch.archived_id[idx] == UINT32_MAX) {
		k->oom = true;
		return;
	}
	strbuf_addf(k, "%s %" PRIu32, what, arch.archived_id[idx]);
	if (more)
		strbuf_addf(k, " %s", more);
}

/* Each object's number in the archive's answers (arch.archived_id). */
static int archived_ids(struct annotator *a, const struct stream *s)
{
	enum archived_mode mode = archived__mode();

	if (mode == ARCHIVED_OFF)
		return 0;
	if (!(arch.archived_id = malloc((s->objects_nr ? s->objects_nr : 1) * sizeof(uint32_t))))
		return -ENOMEM;
	for (size_t i = 0; i < s->objects_nr; i++) {
		struct strbuf k = { 0 };
		const char *v;
		uint64_t id;
		char n[24];

		strbuf_addstr(&k, "object");
		archived__object(&k, s, i);
		arch.archived_id[i] = UINT32_MAX;
		if (k.oom) {
			return -ENOMEM;
		} else if (mode == ARCHIVED_KEEP) {
			snprintf(n, sizeof(n), "%zu", i);
			archived__put(k.buf, n);
			arch.archived_id[i] = (uint32_t)i;
		} else if ((v = archived__get(k.buf)) && archived__get_u64(v, 0, &id) && id < UINT32_MAX) {
			arch.archived_id[i] = (uint32_t)id;
		}
		strbuf_release(&k);
	}
	return 0;
}

bool annotator__wasm_offset(const struct annotator *a, const struct annot_func *af, uint32_t off,
			    uint32_t *wasm_off)
{
	struct strbuf k = { 0 };
	char at[16];
	uint64_t v = 0;
	bool ret;

	if (!arch.replay && archived__mode() != ARCHIVED_KEEP)
		return wasmtime__wasm_offset(a->wasmtime, af, off, wasm_off);
	snprintf(at, sizeof(at), "0x%x", off);
	key(&k, a, "wasm-offset", (size_t)(af - a->funcs), at);
	if (arch.replay) {
		const char *val = k.oom ? NULL : archived__get(k.buf);

		ret = val && archived__get_u64(val, 0, &v) && v <= UINT32_MAX;
		if (ret)
			*wasm_off = (uint32_t)v;
	} else if ((ret = wasmtime__wasm_offset(a->wasmtime, af, off, wasm_off)) && !k.oom) {
		snprintf(at, sizeof(at), "%u", *wasm_off);
		archived__put(k.buf, at);
	}
	strbuf_release(&k);
	return ret;
}

/* V8 wasm code (JS:hash-1-turbofan): its index and tier, else false. */
static bool v8_wasm_code(const struct stream_object *o, int *index, const char **tier)
{
	size_t base_len, func_len;
	const char *func;

	return o->kind == HB_KIND_JIT && o->name && (*tier = v8_name__wasm_tier(o->name, &base_len)) &&
	       v8_name__wasm(o->name, index, &func, &func_len);
}

bool annotator__v8_wasm_offset(const struct annotator *a, const struct stream *s, size_t idx,
			       uint32_t off, uint32_t *wasm_off)
{
	const char *tier;
	int index;

	if (!a || !a->v8 || !v8_wasm_code(&s->objects[idx], &index, &tier))
		return false;
	return v8_listing__wasm_offset(a->v8, s->objects[idx].addr, index, tier, off, wasm_off);
}

bool annotator__v8_listed(const struct annotator *a, const struct stream *s, size_t *loads,
			  size_t *listed)
{
	const char *tier;
	int index;

	*loads = *listed = 0;
	if (!a || !a->v8)
		return false;
	for (size_t i = 0; i < s->objects_nr; i++)
		if (v8_wasm_code(&s->objects[i], &index, &tier)) {
			++*loads;
			*listed += v8_listing__has(a->v8, s->objects[i].addr, index, tier);
		}
	return true;
}

bool annotator__wasm_inputs(const struct annotator *a)
{
	return a->wasmtime != NULL || arch.replay_wasm;
}

/*
 * An object's annotation as archived (annotator__keep): "func OBJECT" ->
 * display wasm module+1 func_index+1 symbol text_off stale has[CLIF]
 * has[Wasm] has[Source] source native_has. Without one (an object the
 * archive's maker did not look at), the name alone.
 */
static void replay_func(struct annotator *a, size_t idx, struct annot_func *af)
{
	struct strbuf k = { 0 };
	const char *v;
	uint64_t n[10];
	char *display = NULL, *symbol = NULL;
	size_t len;

	key(&k, a, "func", idx, NULL);
	v = k.oom ? NULL : archived__get(k.buf);
	strbuf_release(&k);
	if (!v || !archived__get_str(v, 0, &display, &len) || !archived__get_str(v, 4, &symbol, &len)) {
		free(display);
		return;
	}
	for (unsigned i = 0; i < 10; i++)
		if (!archived__get_u64(v, i < 3 ? i + 1 : i + 2, &n[i]))
			n[i] = 0;
	if (display)
		af->display = annot_texts__keep(&a->texts, display, af->display);
	if (symbol)
		af->symbol = annot_texts__keep(&a->texts, symbol, NULL);
	af->wasm = n[0];
	af->module = (int)n[1] - 1;
	af->func_index = (int)n[2] - 1;
	af->text_off = n[3];
	af->stale = n[4];
	af->has[ANNOT_CLIF] = n[5];
	af->has[ANNOT_WASM] = n[6];
	af->has[ANNOT_SOURCE] = n[7];
	af->source = (enum annot_source)n[8];
	if (af->source == ANNOT_SOURCE_NATIVE) {
		arch.native_has[idx] = n[9];
		af->elf_lazy = true;
	}
}

/* The summary's line number *arg, archived as "summary N". */
static void keep_summary(void *arg, const char *line)
{
	unsigned *n = arg;
	struct strbuf v = { 0 };
	char k[32];

	snprintf(k, sizeof(k), "summary %u", (*n)++);
	archived__str(&v, line, strlen(line));
	if (!v.oom)
		archived__put(k, v.buf);
	strbuf_release(&v);
}

void annotator__keep(struct annotator *a)
{
	for (size_t i = 0; a->done && i < a->funcs_nr; i++) {
		const struct annot_func *af = &a->funcs[i];
		struct strbuf k = { 0 }, v = { 0 };

		if (!a->done[i])
			continue;
		key(&k, a, "func", i, NULL);
		archived__str(&v, af->display, strlen(af->display));
		strbuf_addf(&v, " %d %d %d", af->wasm, af->module + 1, af->func_index + 1);
		archived__str(&v, af->symbol, af->symbol ? strlen(af->symbol) : 0);
		/* a native file's [Source] is known after its first lookup */
		strbuf_addf(&v, " %" PRIu64 " %d %d %d %d %d %d", af->text_off, af->stale,
			    af->has[ANNOT_CLIF], af->has[ANNOT_WASM],
			    af->source == ANNOT_SOURCE_NATIVE || af->has[ANNOT_SOURCE], (int)af->source,
			    af->source == ANNOT_SOURCE_NATIVE && !af->elf_lazy ? af->elf_src != NULL : 1);
		if (!k.oom && !v.oom)
			archived__put(k.buf, v.buf);
		strbuf_release(&k);
		strbuf_release(&v);
	}
	if (a->wasmtime)
		wasmtime__summary(a->wasmtime, keep_summary, &(unsigned){ 0 });
}

static void annotate(struct annotator *a, const struct stream *s, size_t idx, struct annot_func *af)
{
	const struct stream_object *obj = &s->objects[idx];

	memset(af, 0, sizeof(*af));
	af->raw = obj->name;
	af->display = annot_texts__keep(&a->texts, annotator__demangle(a, obj->name), obj->name);
	af->module = af->func_index = -1;
	if (arch.replay) {
		replay_func(a, idx, af);
		/* the debug entries are in the stream: read as in place */
		if (af->source == ANNOT_SOURCE_JIT_DEBUG && !jit_debug__claim(obj, af, &a->texts))
			af->has[ANNOT_SOURCE] = false, af->source = ANNOT_SOURCE_NONE;
		if (a->no_source)
			af->has[ANNOT_SOURCE] = false, af->source = ANNOT_SOURCE_NONE;
		return;
	}
	if (a->wasmtime)
		wasmtime__claim(a->wasmtime, obj, af, &a->texts, a->raw_names);
	if (a->no_source || af->has[ANNOT_SOURCE])
		return;
	if (!jit_debug__claim(obj, af, &a->texts))
		native_source__claim(obj, af);
}

int annotator__bind(struct annotator *a, const struct stream *s)
{
	if (a->funcs)
		return 0;
	a->funcs = calloc(s->objects_nr ? s->objects_nr : 1, sizeof(*a->funcs));
	a->done = calloc(s->objects_nr ? s->objects_nr : 1, sizeof(*a->done));
	/* only when an archive is read (arch) */
	if (arch.replay)
		arch.native_has = calloc(s->objects_nr ? s->objects_nr : 1, sizeof(*arch.native_has));
	a->funcs_nr = s->objects_nr;
	if (a->funcs && a->done && (arch.native_has || !arch.replay) && !archived_ids(a, s))
		return 0;
	FREE_AND_NULL(a->funcs);
	FREE_AND_NULL(a->done);
	if (archived__mode() != ARCHIVED_OFF) {
		FREE_AND_NULL(arch.native_has);
		FREE_AND_NULL(arch.archived_id);
	}
	a->funcs_nr = 0;
	return -ENOMEM;
}

const struct annot_func *annotator__func(struct annotator *a, const struct stream *s, size_t idx)
{
	if (annotator__bind(a, s))
		return NULL;
	if (!a->done[idx]) {
		annotate(a, s, idx, &a->funcs[idx]);
		a->done[idx] = true;
	}
	return &a->funcs[idx];
}

const char *annotator__name(struct annotator *a, const struct stream *s, size_t idx)
{
	const char *name = s->objects[idx].name;

	if (!a || annotator__bind(a, s))
		return name;
	if (a->done[idx])
		return a->funcs[idx].display;
	return annot_texts__keep(&a->texts, annotator__demangle(a, name), name);
}

char *annotator__demangle(const struct annotator *a, const char *name)
{
	return a && a->raw_names ? NULL : names__demangle(name);
}

const char *annotator__display(struct annotator *a, const struct stream *s, size_t idx)
{
	const struct annot_func *af;

	/* only wasmtime's artifacts rename (wasmtime__claim) */
	if (!a || !annotator__wasm_inputs(a))
		return annotator__name(a, s, idx);
	af = annotator__func(a, s, idx);
	return af ? af->display : s->objects[idx].name;
}

/* Whether obj has a sample of event ev. */
static bool sampled(const struct stream_object *obj, long ev)
{
	for (size_t k = 0; k < obj->samples_nr; k++)
		if ((long)obj->samples[k].ev == ev && obj->samples[k].samples)
			return true;
	return false;
}

const char **annotator__display_names(struct annotator *a, const struct stream *s, long ev)
{
	const char **names = calloc(s->objects_nr ? s->objects_nr : 1, sizeof(*names));
	const struct annot_func *af;

	if (!names)
		return NULL;
	for (size_t i = 0; ev >= 0 && i < s->objects_nr; i++) {
		if (!sampled(&s->objects[i], ev))
			continue;
		if (!(af = annotator__func(a, s, i))) {
			free(names);
			return NULL;
		}
		names[i] = af->display;
	}
	return names;
}

bool annotator__out_of_memory(const struct annotator *a)
{
	return a->texts.oom || wasmtime__out_of_memory(a->wasmtime);
}

/* Every script a V8 load name of s names, once (NULL: out of memory). */
static const struct strset *v8_scripts(struct annotator *a, const struct stream *s)
{
	char buf[4096];

	if (!a->scripts_done) {
		a->scripts_done = true;
		for (size_t i = 0; i < s->objects_nr; i++)
			if (s->objects[i].kind == HB_KIND_JIT &&
			    v8_name__script(s->objects[i].name, buf, sizeof(buf)) &&
			    !strset_add(&a->scripts, buf)) {
				strset_release(&a->scripts);
				a->texts.oom = true;
				break;
			}
	}
	return a->texts.oom ? NULL : &a->scripts;
}

/* A cell as archived: text key file line. */
static void put_cell(struct strbuf *v, const struct annot_cell *c)
{
	archived__str(v, c->text, c->text ? strlen(c->text) : 0);
	strbuf_addf(v, " %" PRIu64, c->key);
	archived__str(v, c->file, c->file ? strlen(c->file) : 0);
	strbuf_addf(v, " %u", c->line);
}

/* Cell i (four fields each) of an archived answer v. */
static void get_cell(struct annotator *a, const char *v, unsigned i, struct annot_cell *c)
{
	char *text, *file;
	size_t len;
	uint64_t key = 0, line = 0;

	if (!archived__get_str(v, 4 * i, &text, &len))
		return;
	if (!archived__get_str(v, 4 * i + 2, &file, &len)) {
		free(text);
		return;
	}
	archived__get_u64(v, 4 * i + 1, &key);
	archived__get_u64(v, 4 * i + 3, &line);
	*c = (struct annot_cell){ text ? annot_texts__keep(&a->texts, text, NULL) : NULL, key,
				  file ? annot_texts__keep(&a->texts, file, NULL) : NULL,
				  (unsigned)line };
}

/* KEEP: the answer what (cells from..to of cells) of object idx at off;
 * REPLAY: those cells from the archive. */
static void archived_cells(struct annotator *a, const char *what, size_t idx, uint32_t off,
			   struct annot_cell *cells, int from, int to)
{
	struct strbuf k = { 0 }, v = { 0 };
	char at[16];
	const char *val;

	snprintf(at, sizeof(at), "0x%x", off);
	key(&k, a, what, idx, at);
	if (arch.replay) {
		if (!k.oom && (val = archived__get(k.buf)))
			for (int c = from; c < to; c++)
				get_cell(a, val, (unsigned)(c - from), &cells[c]);
	} else {
		bool any = false;

		/* no answer: no cells */
		for (int c = from; c < to; c++) {
			put_cell(&v, &cells[c]);
			any |= cells[c].text || cells[c].file;
		}
		if (any && !k.oom && !v.oom)
			archived__put(k.buf, v.buf);
	}
	strbuf_release(&k);
	strbuf_release(&v);
}

void annotator__cells(struct annotator *a, const struct stream *s, size_t idx, uint32_t off,
		      bool with_source, struct annot_cell cells[ANNOT__NR])
{
	const struct stream_object *obj = &s->objects[idx];
	bool keep = archived__mode() == ARCHIVED_KEEP, handled;
	struct annot_func *af;

	for (int c = 0; c < ANNOT__NR; c++)
		cells[c] = (struct annot_cell){ NULL, 0, NULL, 0 };
	if (!annotator__func(a, s, idx))
		return;
	af = &a->funcs[idx];
	if (arch.replay) {
		if (af->wasm)
			archived_cells(a, "cells", idx, off, cells, ANNOT_CLIF, ANNOT_SOURCE);
		if (af->source == ANNOT_SOURCE_NATIVE && af->elf_lazy) {
			af->elf_lazy = false;
			af->has[ANNOT_SOURCE] = arch.native_has[idx];
		}
		if (!with_source || !af->has[ANNOT_SOURCE])
			return;
		if (af->source == ANNOT_SOURCE_JIT_DEBUG)
			jit_debug__cell(obj, af, off, v8_scripts(a, s), &cells[ANNOT_SOURCE], &a->texts);
		else
			archived_cells(a, "source", idx, off, cells, ANNOT_SOURCE, ANNOT__NR);
		return;
	}
	wasmtime__cells(a->wasmtime, af, off, cells);
	if (keep && af->wasm)
		archived_cells(a, "cells", idx, off, cells, ANNOT_CLIF, ANNOT_SOURCE);
	if (!with_source || !af->has[ANNOT_SOURCE])
		return;
	/* wasm functions first: their lines are the module's */
	handled = wasmtime__source_cell(a->wasmtime, af, off, &cells[ANNOT_SOURCE], &a->texts);
	if (!handled && af->source == ANNOT_SOURCE_NATIVE)
		native_source__cell(&a->elfs, obj, af, off, &cells[ANNOT_SOURCE], &a->texts);
	else if (!handled && af->source == ANNOT_SOURCE_JIT_DEBUG)
		jit_debug__cell(obj, af, off, v8_scripts(a, s), &cells[ANNOT_SOURCE], &a->texts);
	if (keep && af->source != ANNOT_SOURCE_JIT_DEBUG)
		archived_cells(a, "source", idx, off, cells, ANNOT_SOURCE, ANNOT__NR);
}

void annotator__summary(const struct annotator *a, void (*note)(void *arg, const char *line), void *arg)
{
	char k[32], *line;
	const char *v;
	size_t len;

	/* Every note is of wasmtime's artifacts. */
	if (a->wasmtime)
		wasmtime__summary(a->wasmtime, note, arg);
	for (unsigned n = 0; arch.replay; n++) {
		snprintf(k, sizeof(k), "summary %u", n);
		if (!(v = archived__get(k)) || !archived__get_str(v, 0, &line, &len) || !line)
			break;
		note(arg, line);
		free(line);
	}
}

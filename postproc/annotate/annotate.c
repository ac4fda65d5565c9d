// SPDX-License-Identifier: MIT
/*
 * The columns beside each machine instruction (see annotate.h): a
 * dispatcher over their sources (columns.h). Each object gets its display
 * name, then wasmtime's artifacts claim it if it is theirs ([CLIF], [Wasm],
 * names, [Source] from the module's DWARF); a [Source] column still missing
 * comes from the jitdump's debug entries, else from the native file's DWARF.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "annotate/dwarf/srcmap.h"
#include "annotate/wasmtime/wasmtime.h"
#include "jit-debug.h"
#include "v8/v8-name.h"
#include "names.h"
#include "native-source.h"

struct annotator {
	struct wasmtime *wasmtime;	/* --cwasm, --clif, --wasm; NULL: none given */
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
	ret = wasmtime__open(&a->wasmtime, in->cwasm, in->clif_dir, in->wasm, in->no_source, err,
			     errlen);
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
	srcmap_cache__release(&a->elfs);
	strset_release(&a->texts.set);
	strset_release(&a->scripts);
	for (size_t i = 0; a->funcs && i < a->funcs_nr; i++)
		jit_debug_index__free(a->funcs[i].debug_index);
	free(a->funcs);
	free(a->done);
	free(a);
}

bool annotator__wasm_offset(const struct annotator *a, const struct annot_func *af, uint32_t off,
			    uint32_t *wasm_off)
{
	return wasmtime__wasm_offset(a->wasmtime, af, off, wasm_off);
}

bool annotator__wasm_inputs(const struct annotator *a)
{
	return a->wasmtime != NULL;
}

static void annotate(struct annotator *a, const struct stream *s, size_t idx, struct annot_func *af)
{
	const struct stream_object *obj = &s->objects[idx];

	memset(af, 0, sizeof(*af));
	af->raw = obj->name;
	af->display = annot_texts__keep(&a->texts, annotator__demangle(a, obj->name), obj->name);
	af->module = af->func_index = -1;
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
	a->funcs_nr = s->objects_nr;
	if (a->funcs && a->done)
		return 0;
	FREE_AND_NULL(a->funcs);
	FREE_AND_NULL(a->done);
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
	if (!a || !a->wasmtime)
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
	return a->texts.oom;
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

void annotator__cells(struct annotator *a, const struct stream *s, size_t idx, uint32_t off,
		      bool with_source, struct annot_cell cells[ANNOT__NR])
{
	const struct stream_object *obj = &s->objects[idx];
	struct annot_func *af;

	for (int c = 0; c < ANNOT__NR; c++)
		cells[c] = (struct annot_cell){ NULL, 0, NULL, 0 };
	if (!annotator__func(a, s, idx))
		return;
	af = &a->funcs[idx];
	wasmtime__cells(a->wasmtime, af, off, cells);
	if (!with_source || !af->has[ANNOT_SOURCE])
		return;
	/* wasm functions first: their lines are the module's */
	if (wasmtime__source_cell(a->wasmtime, af, off, &cells[ANNOT_SOURCE], &a->texts))
		return;
	if (af->source == ANNOT_SOURCE_NATIVE)
		native_source__cell(&a->elfs, obj, af, off, &cells[ANNOT_SOURCE], &a->texts);
	else if (af->source == ANNOT_SOURCE_JIT_DEBUG)
		jit_debug__cell(obj, af, off, v8_scripts(a, s), &cells[ANNOT_SOURCE], &a->texts);
}

void annotator__summary(const struct annotator *a, void (*note)(void *arg, const char *line), void *arg)
{
	/* Every note is of wasmtime's artifacts. */
	if (a->wasmtime)
		wasmtime__summary(a->wasmtime, note, arg);
}

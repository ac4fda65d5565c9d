// SPDX-License-Identifier: MIT
/* The columns beside each machine instruction (see annotate.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "annotate.h"
#include "annotate/wasmtime/clif.h"
#include "annotate/wasmtime/cwasm.h"
#include "jit-debug.h"
#include "lib/read-file.h"
#include "annotate/dwarf/srcmap.h"
#include "annotate/v8/v8-debug.h"
#include "annotate/v8/v8-name.h"
#include "annotate/wasm/wasm.h"

/* Larger --wasm modules are refused before they are read. */
#define WASM_MAX_FILE ((size_t)1 << 30)

struct annotator {
	struct cwasm *cwasm;
	struct clif_set *clif;
	struct wasm_module *wasm;
	uint8_t *wasm_buf;	/* the module's bytes (the decoder borrows them) */
	size_t wasm_len;
	struct srcmap *wasm_src; /* the module's DWARF, if any */
	bool no_source;
	const char *cwasm_path, *clif_path, *wasm_path;

	struct annot_func *funcs; /* per stream object, computed on first use */
	bool *done;
	size_t funcs_nr;
	bool oom;		/* a name or cell is missing for want of memory */
	struct srcmap_cache elfs; /* native DSOs' DWARF */

	/* Display names and source cell texts, interned: they live as long as
	 * the annotator, and a renderer holds a whole block's cells at once. */
	struct strset texts;

	char dwarf_error[512];	/* why the module's DWARF was not read, or "" */

	/* summary counts */
	size_t wasm_matched, jit_unmatched, cwasm_unmatched, stale, no_clif;
	const char *first_unmatched, *first_cwasm_unmatched, *first_stale, *first_no_clif;
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
	a->cwasm_path = in->cwasm;
	a->clif_path = in->clif_dir;
	a->wasm_path = in->wasm;
	if (in->cwasm && (ret = cwasm__open(&a->cwasm, in->cwasm, err, errlen)) < 0)
		goto fail;
	if (a->cwasm && !cwasm__has_symbols(a->cwasm)) {
		snprintf(err, errlen, "%s: the .cwasm has no symbol table (built with -D symbols=n?): "
			 "its functions cannot be found, which hotblocks does not support", in->cwasm);
		ret = -ENOTSUP;
		goto fail;
	}
	if (a->cwasm && !cwasm__has_addrmap(a->cwasm)) {
		snprintf(err, errlen, "%s: the .cwasm has no address map (.wasmtime.addrmap); "
			 "compile it with -D address-map=y", in->cwasm);
		ret = -EINVAL;
		goto fail;
	}
	if (in->clif_dir && (ret = clif_set__load(&a->clif, in->clif_dir, err, errlen)) < 0)
		goto fail;
	if (in->wasm) {
		/* A pipe too: --wasm <(zcat module.wasm.gz). */
		if ((ret = read_file(in->wasm, WASM_MAX_FILE, "1 GiB", READ_FILE_PIPES, &a->wasm_buf,
				     &a->wasm_len, err, errlen)) < 0)
			goto fail;
		if ((ret = wasm_module__parse(&a->wasm, a->wasm_buf, a->wasm_len, in->wasm, err, errlen)) < 0)
			goto fail;
		/* A component's DWARF describes each core module in that module's
		 * own offsets; srcline reads a core module only. Whether that loses
		 * anything is said in the summary, once functions were matched. */
		if (!a->no_source && !wasm_module__is_component(a->wasm)) {
			int r = srcmap__open_wasm(&a->wasm_src, a->wasm_buf, a->wasm_len, in->wasm,
						  a->dwarf_error, sizeof(a->dwarf_error));

			/* No DWARF is normal; broken DWARF loses only the column (said in the summary). */
			if (r >= 0 || r == -ENODATA)
				a->dwarf_error[0] = '\0';
		}
	}
	*out = a;
	return 0;
fail:
	annotator__close(a);
	return ret;
}

void annotator__close(struct annotator *a)
{
	if (!a)
		return;
	cwasm__close(a->cwasm);
	clif_set__free(a->clif);
	wasm_module__free(a->wasm);
	free(a->wasm_buf);
	srcmap__close(a->wasm_src);
	srcmap_cache__release(&a->elfs);
	strset__release(&a->texts);
	for (size_t i = 0; a->funcs && i < a->funcs_nr; i++)
		jit_debug_index__free(a->funcs[i].debug_index);
	free(a->funcs);
	free(a->done);
	free(a);
}

bool annotator__wasm_offset(const struct annotator *a, const struct annot_func *af, uint32_t off,
			    uint32_t *wasm_off)
{
	return af->cf && cwasm__wasm_offset(a->cwasm, af->cf, af->cf->text_off + off, wasm_off);
}

bool annotator__wasm_inputs(const struct annotator *a)
{
	return a->cwasm || a->clif || a->wasm;
}

/* A copy of s that lives as long as the annotator, or NULL (out of memory, noted). */
static const char *intern(struct annotator *a, const char *s)
{
	const char *t = strset__add(&a->texts, s);

	a->oom |= !t;
	return t;
}

/* A display name: s (malloc()ed, taken) kept as long as the annotator, or fallback. */
static const char *keep(struct annotator *a, char *s, const char *fallback)
{
	const char *t;

	if (!s)
		return fallback;
	t = strset__add_owned(&a->texts, s);
	a->oom |= !t;
	return t ? t : fallback;
}

/* The script a load name names (v8_name__script), kept, or NULL. */
static const char *name_file(struct annotator *a, const char *name)
{
	char buf[4096];

	return v8_name__script(name, buf, sizeof(buf)) ? intern(a, buf) : NULL;
}

static void annotate(struct annotator *a, const struct stream *s, size_t idx, struct annot_func *af)
{
	const struct stream_object *obj = &s->objects[idx];
	char *dm = cplus_demangle(obj->name, DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO);

	memset(af, 0, sizeof(*af));
	af->raw = obj->name;
	af->display = keep(a, dm, obj->name);
	af->module = af->func_index = -1;

	const struct cwasm_func *cf = NULL;

	if (a->cwasm && obj->kind != HB_KIND_NATIVE)
		cf = cwasm__match(a->cwasm, obj->name, obj->code, obj->code_nr, obj->size,
				  obj->kind == HB_KIND_JIT, &af->stale);

	if (cf) {
		af->wasm = true;
		af->symbol = cf->symbol;
		af->text_off = cf->text_off;
		af->module = cf->module;
		af->func_index = cf->func_index;
		a->wasm_matched++;
		if (af->stale && !a->stale++)
			a->first_stale = cf->symbol;
		/* As the reference: the name-section name, else the ELF symbol. A
		 * mangled name (C++; Rust, e.g. in the WASI adapter of a component)
		 * is shown demangled exactly as wasmtime writes it into its jit dump
		 * and perf map (Rust with its crate hashes: DMGL_VERBOSE); plain
		 * names stay as they are. */
		const char *nm = NULL;

		if (a->wasm && cf->func_index >= 0)
			nm = cf->module > 0 ? wasm_module__module_func_name(a->wasm, (uint32_t)cf->module,
									  (uint32_t)cf->func_index)
					    : wasm_module__func_name(a->wasm, (uint32_t)cf->func_index);
		if (!nm && cf->func_index >= 0)
			nm = cf->wasm_name;
		af->display = nm ? keep(a, cplus_demangle(nm, DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO | DMGL_VERBOSE), nm)
				 : cf->symbol;
		af->cf = cf;
		af->clif = a->clif ? clif_set__find(a->clif, cf->symbol) : NULL;
		if (a->clif && !af->clif && !a->no_clif++)
			a->first_no_clif = cf->symbol;
		af->has[ANNOT_CLIF] = a->clif != NULL;
		af->has[ANNOT_WASM] = a->wasm != NULL;
		af->has[ANNOT_SOURCE] = a->wasm_src != NULL && cf->func_index >= 0;
	} else if (a->cwasm && obj->kind == HB_KIND_JIT && !a->jit_unmatched++) {
		a->first_unmatched = obj->name;
	} else if (a->cwasm && obj->kind == HB_KIND_CWASM && !a->cwasm_unmatched++) {
		a->first_cwasm_unmatched = obj->name;
	}
	if (a->no_source || af->has[ANNOT_SOURCE])
		return;
	if (obj->kind == HB_KIND_JIT && obj->debug_nr &&
	    v8_debug__bias(obj->name, obj->e_machine, &af->debug_bias)) {
		af->debug_ok = true;
		af->has[ANNOT_SOURCE] = true;
		af->name_file = name_file(a, obj->name);
	} else if (obj->kind == HB_KIND_NATIVE && obj->path) {
		/* The DSO's DWARF is opened when a cell is first asked for: most
		 * annotated objects are never shown. */
		af->elf_lazy = true;
		af->has[ANNOT_SOURCE] = true;
	}
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

bool annotator__out_of_memory(const struct annotator *a)
{
	return a->oom;
}

void annotator__cells(struct annotator *a, const struct stream *s, size_t idx, uint32_t off,
		      bool with_source, struct annot_cell cells[ANNOT__NR])
{
	const struct annot_func *af = annotator__func(a, s, idx);
	const struct stream_object *obj = &s->objects[idx];
	uint32_t woff = 0;
	bool have_woff = false;

	for (int c = 0; c < ANNOT__NR; c++)
		cells[c] = (struct annot_cell){ NULL, 0, NULL, 0 };
	if (!af)
		return;
	have_woff = annotator__wasm_offset(a, af, off, &woff);
	if (have_woff) {
		if (af->clif)
			cells[ANNOT_CLIF] = (struct annot_cell){ .text = clif_func__text(af->clif, woff), .key = woff };
		if (a->wasm)
			cells[ANNOT_WASM] = (struct annot_cell){ .text = wasm_module__insn_text(a->wasm, woff), .key = woff };
	}
	if (!with_source || !af->has[ANNOT_SOURCE])
		return;

	const struct srcline_frame *fr;
	size_t n = 0;
	char buf[400], text[512];

	if (af->elf_lazy) {
		struct annot_func *w = &a->funcs[idx];

		w->elf_src = srcmap_cache__elf(&a->elfs, obj->path);
		w->elf_lazy = false;
		w->has[ANNOT_SOURCE] = w->elf_src != NULL;
		if (!w->elf_src)
			return;
	}

	if (af->wasm && have_woff && a->wasm_src) {
		n = srcmap__lookup(a->wasm_src, woff, &fr);
		if (n) {
			/* The wasm offset first, so a wasm line can be found in a
			 * disassembly of the module: "0x12 fib fib.rs:12:4". */
			snprintf(text, sizeof(text), "0x%" PRIx32 " %s", woff,
				 srcline__short(buf, sizeof(buf), fr, n));
			cells[ANNOT_SOURCE] = (struct annot_cell){ intern(a, text), woff, fr[0].file, fr[0].line };
		}
	} else if (af->elf_src) {
		n = srcmap__lookup(af->elf_src, obj->sym_start + off, &fr);
		if (n) {
			cells[ANNOT_SOURCE] = (struct annot_cell){
				intern(a, srcline__short(buf, sizeof(buf), fr, n)), 0, fr[0].file, fr[0].line };
		}
	} else if (af->debug_ok) {
		const char *file = NULL;
		long e;

		/* Indexed once per object: a report asks for every shown instruction. */
		if (!af->debug_index)
			a->funcs[idx].debug_index = jit_debug_index__new(obj->debug, obj->debug_nr,
									   obj->addr, obj->size,
									   af->debug_bias);
		e = af->debug_index ? jit_debug_index__find(af->debug_index, off, &file) :
				      jit_debug__find(obj->debug, obj->debug_nr, obj->addr,
							      obj->size, af->debug_bias, off, &file);

		if (e >= 0) {
			if (!file || !jit_debug__printable(file))
				file = af->name_file;
			const char *base = file ? strrchr(file, '/') : NULL;

			/* V8 puts the column in the discriminator; 0 means none. */
			int w = snprintf(text, sizeof(text), "%s:%" PRIu32, base ? base + 1 : file ? file : "?",
					 obj->debug[e].line);

			if (obj->debug[e].discrim && w > 0 && (size_t)w < sizeof(text))
				snprintf(text + w, sizeof(text) - (size_t)w, ":%" PRIu32, obj->debug[e].discrim);
			cells[ANNOT_SOURCE] = (struct annot_cell){ intern(a, text), (uint64_t)e, file,
								   obj->debug[e].line };
		}
	}
}

void annotator__summary(const struct annotator *a, void (*note)(void *arg, const char *line), void *arg)
{
	char line[1024];

	if (a->dwarf_error[0]) {
		snprintf(line, sizeof(line), "%s (no [Source] column from it)", a->dwarf_error);
		note(arg, line);
	}
	if (a->cwasm && !a->wasm_matched && a->jit_unmatched) {
		snprintf(line, sizeof(line), "no sampled code matches the .cwasm (e.g. %s): it is not the "
			 "module that ran, or it was compiled with other settings", a->first_unmatched);
		note(arg, line);
	} else if (a->jit_unmatched) {
		snprintf(line, sizeof(line), "%zu sampled JIT objects are not in the .cwasm (e.g. %s)",
			 a->jit_unmatched, a->first_unmatched);
		note(arg, line);
	}
	if (a->stale) {
		snprintf(line, sizeof(line), "%zu functions differ from the .cwasm's code (e.g. %s): stale "
			 "build? their CLIF and Wasm columns may be wrong", a->stale, a->first_stale);
		note(arg, line);
	}
	if (a->cwasm_unmatched) {
		snprintf(line, sizeof(line), "%zu sampled functions of a .cwasm file have no symbol in %s "
			 "(e.g. %s): shown without CLIF and Wasm columns", a->cwasm_unmatched, a->cwasm_path,
			 a->first_cwasm_unmatched);
		note(arg, line);
	}
	if (a->cwasm && cwasm__nr_skipped_symbols(a->cwasm)) {
		snprintf(line, sizeof(line), "%s: skipped %zu function symbols (outside .text, nameless, "
			 "or overlapping another)", a->cwasm_path, cwasm__nr_skipped_symbols(a->cwasm));
		note(arg, line);
	}
	if (a->no_clif) {
		snprintf(line, sizeof(line), "missing CLIF for %zu shown functions (e.g. %s)", a->no_clif,
			 a->first_no_clif);
		note(arg, line);
	}
	if (a->clif) {
		const struct clif_stats *st = clif_set__stats(a->clif);
		const char *first = clif_set__first_warning(a->clif);

		if (st->unidentified || st->duplicates || st->bad_lines) {
			snprintf(line, sizeof(line), "%s: skipped %zu files that are not CLIF dumps, %zu "
				 "duplicate functions (the later file wins), %zu bad lines (first: %s)",
				 a->clif_path, st->unidentified, st->duplicates, st->bad_lines,
				 first ? first : "?");
			note(arg, line);
		}
	}
	if (a->wasm_matched && !a->no_source && wasm_module__dwarf_modules(a->wasm) &&
	    wasm_module__is_component(a->wasm)) {
		snprintf(line, sizeof(line), "%s is a component: its [Wasm] column is shown, but the "
			 "DWARF of its core modules is not read, so its functions have no [Source] column",
			 a->wasm_path);
		note(arg, line);
	}
	if (a->wasm && wasm_module__name_errors(a->wasm)) {
		const char *first = wasm_module__name_error(a->wasm);

		snprintf(line, sizeof(line), "%s: %u malformed name sections, partly ignored (first: %s): "
			 "some names are missing", a->wasm_path, wasm_module__name_errors(a->wasm),
			 first ? first : "?");
		note(arg, line);
	}
}

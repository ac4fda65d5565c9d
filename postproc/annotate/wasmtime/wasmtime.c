/* SPDX-License-Identifier: MIT */
/*
 * wasmtime's code, annotated from its artifacts (wasmtime.h): the .cwasm's
 * functions and address map, the CLIF of --emit-clif, the module's Wasm
 * text, names and DWARF.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libiberty/demangle.h>

#include "annotate/dwarf/srcmap.h"
#include "annotate/wasm/wasm.h"
#include "clif.h"
#include "cwasm.h"
#include "lib/map-file.h"
#include "lib/read-file.h"
#include "wasmtime.h"

/* Larger --wasm modules are refused before they are read. */
#define WASM_MAX_FILE ((size_t)1 << 30)

struct wasmtime {
	struct cwasm *cwasm;
	struct clif_set *clif;
	struct wasm_module *wasm;
	struct mapped_file wasm_file;	/* the module's bytes (the decoder borrows them) */
	struct srcmap *wasm_src; /* the module's DWARF, if any */
	bool no_source;
	const char *cwasm_path, *clif_path, *wasm_path;
	char dwarf_error[512];	/* why the module's DWARF was not read, or "" */

	/* summary counts */
	size_t wasm_matched, jit_unmatched, cwasm_unmatched, stale, no_clif;
	const char *first_unmatched, *first_cwasm_unmatched, *first_stale, *first_no_clif;
};

int wasmtime__open(struct wasmtime **out, const char *cwasm, const char *clif_dir, const char *wasm,
		   bool no_source, char *err, size_t errlen)
{
	struct wasmtime *a;
	int ret;

	*out = NULL;
	if (!cwasm && !clif_dir && !wasm)
		return 0;
	if (!(a = calloc(1, sizeof(*a)))) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	a->no_source = no_source;
	a->cwasm_path = cwasm;
	a->clif_path = clif_dir;
	a->wasm_path = wasm;
	if (cwasm && (ret = cwasm__open(&a->cwasm, cwasm, err, errlen)) < 0)
		goto fail;
	if (a->cwasm && !cwasm__has_symbols(a->cwasm)) {
		snprintf(err, errlen, "%s: the .cwasm has no symbol table (built with -D symbols=n?): "
			 "its functions cannot be found, which hotblocks does not support", cwasm);
		ret = -ENOTSUP;
		goto fail;
	}
	if (a->cwasm && !cwasm__has_addrmap(a->cwasm)) {
		snprintf(err, errlen, "%s: the .cwasm has no address map (.wasmtime.addrmap); "
			 "compile it with -D address-map=y", cwasm);
		ret = -EINVAL;
		goto fail;
	}
	if (clif_dir && (ret = clif_set__load(&a->clif, clif_dir, err, errlen)) < 0)
		goto fail;
	if (wasm) {
		/* Mapped: the decoder's first pass reads it all once, then only the
		 * bodies shown. A pipe too: --wasm <(zcat module.wasm.gz). */
		if ((ret = map_file(wasm, WASM_MAX_FILE, "1 GiB", READ_FILE_PIPES, &a->wasm_file, err,
				    errlen)) < 0)
			goto fail;
		if ((ret = wasm_module__parse(&a->wasm, a->wasm_file.buf, a->wasm_file.len, wasm, err,
					      errlen)) < 0)
			goto fail;
		/* A component's DWARF describes each core module in that module's
		 * own offsets; srcmap reads a core module only. Whether that loses
		 * anything is said in the summary, once functions were matched. */
		if (!a->no_source && !wasm_module__is_component(a->wasm)) {
			int r = srcmap__open_wasm(&a->wasm_src, a->wasm_file.buf, a->wasm_file.len, wasm,
						  a->dwarf_error, sizeof(a->dwarf_error));

			/* No DWARF is normal; broken DWARF loses only the column (said in the summary). */
			if (r >= 0 || r == -ENODATA)
				a->dwarf_error[0] = '\0';
		}
		/* Read through once: from now on only the bodies shown are read. */
		map_file__forget_pages(&a->wasm_file);
	}
	*out = a;
	return 0;
fail:
	wasmtime__close(a);
	return ret;
}

void wasmtime__close(struct wasmtime *w)
{
	if (!w)
		return;
	cwasm__close(w->cwasm);
	clif_set__free(w->clif);
	wasm_module__free(w->wasm);
	srcmap__close(w->wasm_src);
	unmap_file(&w->wasm_file);
	free(w);
}

bool wasmtime__claim(struct wasmtime *a, const struct stream_object *obj, struct annot_func *af,
		     struct annot_texts *t, bool raw_names)
{
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
		af->display = nm ? annot_texts__keep(t, raw_names ? NULL :
						     cplus_demangle(nm, DMGL_PARAMS | DMGL_ANSI | DMGL_AUTO | DMGL_VERBOSE), nm)
				 : cf->symbol;
		af->cf = cf;
		af->clif = a->clif ? clif_set__find(a->clif, cf->symbol) : NULL;
		if (a->clif && !af->clif && !a->no_clif++)
			a->first_no_clif = cf->symbol;
		af->has[ANNOT_CLIF] = a->clif != NULL;
		af->has[ANNOT_WASM] = a->wasm != NULL;
		af->has[ANNOT_SOURCE] = a->wasm_src != NULL && cf->func_index >= 0;
		if (af->has[ANNOT_SOURCE])
			af->source = ANNOT_SOURCE_WASMTIME;
	} else if (a->cwasm && obj->kind == HB_KIND_JIT && !a->jit_unmatched++) {
		a->first_unmatched = obj->name;
	} else if (a->cwasm && obj->kind == HB_KIND_CWASM && !a->cwasm_unmatched++) {
		a->first_cwasm_unmatched = obj->name;
	}
	return cf != NULL;
}

bool wasmtime__wasm_offset(const struct wasmtime *w, const struct annot_func *af, uint32_t off,
			   uint32_t *wasm_off)
{
	return w && af->cf && cwasm__wasm_offset(w->cwasm, af->cf, af->cf->text_off + off, wasm_off);
}

void wasmtime__cells(const struct wasmtime *w, const struct annot_func *af, uint32_t off,
		     struct annot_cell cells[ANNOT__NR])
{
	uint32_t woff;

	if (!wasmtime__wasm_offset(w, af, off, &woff))
		return;
	if (af->clif)
		cells[ANNOT_CLIF] = (struct annot_cell){ .text = clif_func__text(af->clif, woff), .key = woff };
	if (w->wasm)
		cells[ANNOT_WASM] = (struct annot_cell){ .text = wasm_module__insn_text(w->wasm, woff), .key = woff };
}

bool wasmtime__source_cell(const struct wasmtime *w, const struct annot_func *af, uint32_t off,
			   struct annot_cell *cell, struct annot_texts *t)
{
	const struct srcmap_frame *fr;
	char buf[400], text[512];
	uint32_t woff;
	size_t n;

	if (!w || !af->wasm || !w->wasm_src || !wasmtime__wasm_offset(w, af, off, &woff))
		return false;
	n = srcmap__lookup(w->wasm_src, woff, &fr);
	if (n) {
		/* The wasm offset first, so a wasm line can be found in a
		 * disassembly of the module: "0x12 fib fib.rs:12:4". */
		snprintf(text, sizeof(text), "0x%" PRIx32 " %s", woff,
			 srcmap__short(buf, sizeof(buf), fr, n));
		*cell = (struct annot_cell){ annot_texts__intern(t, text), woff, fr[0].file, fr[0].line };
	}
	return true;
}

bool wasmtime__out_of_memory(const struct wasmtime *w)
{
	return w && wasm_module__lazy_errors(w->wasm);
}

void wasmtime__summary(const struct wasmtime *a, void (*note)(void *arg, const char *line), void *arg)
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

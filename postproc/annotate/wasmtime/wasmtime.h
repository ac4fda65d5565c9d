/* SPDX-License-Identifier: MIT */
/*
 * What wasmtime's artifacts say of its code: a source of the annotator's
 * columns (columns.h). The .cwasm (--cwasm) maps a sampled object to a
 * wasm function and its instructions to wasm offsets (its address map);
 * --emit-clif's files (--clif) give the [CLIF] column, the module (--wasm)
 * the [Wasm] column, the names, and [Source] from its DWARF.
 */
#ifndef POSTPROC_ANNOTATE_WASMTIME_H
#define POSTPROC_ANNOTATE_WASMTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "annotate/columns.h"
#include "stream/stream.h"

struct wasmtime;

/*
 * Load the artifacts named (any may be NULL; all NULL: *out is NULL, the
 * source absent). Returns 0, or a negative errno with "FILE: message" in err.
 */
int wasmtime__open(struct wasmtime **out, const char *cwasm, const char *clif_dir, const char *wasm,
		   bool no_source, char *err, size_t errlen);
void wasmtime__close(struct wasmtime *w);

/*
 * Whether obj is a function of the .cwasm: then af gets its wasm facts,
 * its display name (the name section's, as the reference shows it;
 * raw_names: as the section has it, not demangled) and the columns it has.
 * Objects that should be and are not are counted for the summary.
 */
bool wasmtime__claim(struct wasmtime *w, const struct stream_object *obj, struct annot_func *af,
		     struct annot_texts *t, bool raw_names);

/* The wasm offset of the instruction at off of a claimed function (w may be NULL). */
bool wasmtime__wasm_offset(const struct wasmtime *w, const struct annot_func *af, uint32_t off,
			   uint32_t *wasm_off);

/* The [CLIF] and [Wasm] cells at off, where there are (w may be NULL). */
void wasmtime__cells(const struct wasmtime *w, const struct annot_func *af, uint32_t off,
		     struct annot_cell cells[ANNOT__NR]);

/*
 * The [Source] cell at off from the module's DWARF: false when that is not
 * where it comes from (no DWARF, not a wasm function, no wasm offset there);
 * true with *cell set, or left absent when DWARF knows no line.
 */
bool wasmtime__source_cell(const struct wasmtime *w, const struct annot_func *af, uint32_t off,
			   struct annot_cell *cell, struct annot_texts *t);

/*
 * Whether a [Wasm] cell went missing for want of memory (the module's bodies
 * are decoded when first shown): the report then fails rather than print less.
 */
bool wasmtime__out_of_memory(const struct wasmtime *w);

/* What the user should know of the artifacts, one line each (annotate.h's summary). */
void wasmtime__summary(const struct wasmtime *w, void (*note)(void *arg, const char *line), void *arg);

#endif

/* SPDX-License-Identifier: MIT */
/* The columns beside each machine instruction: CLIF and Wasm from wasmtime's
 * artifacts, source lines from DWARF or jitdump debug entries, and display names. */
#ifndef POSTPROC_ANNOTATE_H
#define POSTPROC_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "columns.h"
#include "stream/stream.h"

struct annot_inputs {
	const char *cwasm;	/* --cwasm: wasmtime's compiled module */
	const char *clif_dir;	/* --clif: its --emit-clif directory */
	const char *wasm;	/* --wasm: the original module */
	const char *v8_code;	/* --base-v8-code: V8's --print-wasm-code listing (v8-listing.h) */
	bool no_source;		/* --no-source */
	bool raw_names;		/* --raw-names: names as the code has them, not demangled */
};

struct annotator;

/*
 * Load the inputs named in in (any may be NULL). Returns 0, or a negative errno
 * with "FILE: message" (with an offset where the reader knows one) in err.
 */
int annotator__open(struct annotator **out, const struct annot_inputs *in, char *err, size_t errlen);
void annotator__close(struct annotator *a);

/*
 * Size the cache of annotations for the objects of s, the stream every later
 * call is about. Returns 0, or -ENOMEM: then the report cannot be made.
 */
int annotator__bind(struct annotator *a, const struct stream *s);

/*
 * The annotation of stream object idx (index in s->objects), computed once
 * and cached: plain objects get a display name and no columns. NULL only when
 * the cache cannot be had (out of memory; never after annotator__bind()
 * succeeded).
 */
const struct annot_func *annotator__func(struct annotator *a, const struct stream *s, size_t idx);

/*
 * A name to show for object idx: its display name when annotator__func has
 * looked at it, else its name demangled, without looking further: a table
 * of every sampled function names them all, and looking at each would count
 * them in the summary (annotator__summary). a may be NULL: the stream's name.
 */
const char *annotator__name(struct annotator *a, const struct stream *s, size_t idx);

/*
 * The display name annotator__func gives object idx, without annotating it
 * when nothing can rename it (no wasmtime inputs: its name demangled, as
 * annotator__name): naming every function of a big stream then costs no
 * annotation each. a may be NULL: the stream's name.
 */
const char *annotator__display(struct annotator *a, const struct stream *s, size_t idx);

/* A name of code that is no sampled object (a branch's target in a file or
 * a load) as the report shows it: demangled (names__demangle), unless
 * --raw-names; malloc()ed, or NULL: name as it is. a may be NULL. */
char *annotator__demangle(const struct annotator *a, const char *name);

/*
 * Whether memory ran out for a display name, a source cell or a [Wasm] cell: they are then
 * shown raw or missing, and the report should not be taken as complete.
 */
bool annotator__out_of_memory(const struct annotator *a);

/* The cells of the instruction at byte offset off of object idx; the [Source]
 * cell only when with_source (a DWARF lookup costs microseconds: callers ask
 * only for what they show). */
void annotator__cells(struct annotator *a, const struct stream *s, size_t idx, uint32_t off,
		      bool with_source, struct annot_cell cells[ANNOT__NR]);

/*
 * The display name of every object with samples of event ev (index in
 * s->events; -1: none), asked for in object order, NULL for the others: a
 * malloc()ed array of s->objects_nr (the caller frees it; the names are the
 * annotator's), or NULL when out of memory. What --function matches besides
 * the stream's names (rank_opts.alt_names).
 */
const char **annotator__display_names(struct annotator *a, const struct stream *s, long ev);

/* The wasm offset of the instruction at off of a matched function (af->wasm). */
bool annotator__wasm_offset(const struct annotator *a, const struct annot_func *af, uint32_t off,
			    uint32_t *wasm_off);

/* Whether any column input was given at all (the [CLIF]/[Wasm] columns can exist). */
bool annotator__wasm_inputs(const struct annotator *a);

/*
 * The wasm offset V8's listing (annot_inputs.v8_code) recorded for the
 * instruction at off of stream object idx, V8 wasm code: false without a
 * listing, for other code, or where V8 recorded none (v8-listing.h).
 */
bool annotator__v8_wasm_offset(const struct annotator *a, const struct stream *s, size_t idx,
			       uint32_t off, uint32_t *wasm_off);

/*
 * With a V8 listing: true, *loads the V8 wasm code objects of s and *listed
 * those the listing has (the same address, index and tier; not given twice).
 * Without one: false.
 */
bool annotator__v8_listed(const struct annotator *a, const struct stream *s, size_t *loads,
			  size_t *listed);

/*
 * One line per thing the user should know, for the report's summary on stderr
 * (objects not found in the .cwasm, stale code, missing CLIF files...). Calls
 * note(arg, line) for each; lines are lowercase without a trailing period.
 */
void annotator__summary(const struct annotator *a, void (*note)(void *arg, const char *line), void *arg);

/* While an archive is made (archived.h, ARCHIVED_KEEP): keep each object's
 * annotation as it is now, and the summary, with the cells kept as they
 * were asked for. */
void annotator__keep(struct annotator *a);

#endif

/* SPDX-License-Identifier: MIT */
/* The columns beside each machine instruction: CLIF and Wasm from wasmtime's
 * artifacts, source lines from DWARF or jitdump debug entries, and display names. */
#ifndef POSTPROC_ANNOTATE_H
#define POSTPROC_ANNOTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stream/stream.h"

struct clif_func;
struct cwasm_func;
struct srcmap;

enum annot_col {
	ANNOT_CLIF,		/* the CLIF lines of the instruction's wasm offset */
	ANNOT_WASM,		/* the Wasm instruction at that offset */
	ANNOT_SOURCE,		/* file:line from DWARF / jitdump DEBUG_INFO */
	ANNOT__NR
};

struct annot_inputs {
	const char *cwasm;	/* --cwasm: wasmtime's compiled module */
	const char *clif_dir;	/* --clif: its --emit-clif directory */
	const char *wasm;	/* --wasm: the original module */
	bool no_source;		/* --no-source */
};

/* One cell: text NULL means absent (printed "-"). key tells equal texts from
 * different places apart for the ditto rule (the wasm offset, as the reference). */
struct annot_cell {
	const char *text;
	uint64_t key;
	/* [Source] only: the innermost frame's file (as DWARF or the JIT names it)
	 * and line, for printing source lines above the instructions; NULL / 0 if unknown. */
	const char *file;
	unsigned line;
};

/* What is known about one sampled object. */
struct annot_func {
	const char *display;	/* name to show: demangled; for wasm functions the
				 * name-section name as the reference shows it */
	const char *raw;	/* the object's name as the stream has it */
	bool wasm;		/* matched to a function of the .cwasm */
	int module, func_index;	/* wasm[M]::function[F] when known, else -1 */
	const char *symbol;	/* the .cwasm ELF symbol, when matched */
	uint64_t text_off;	/* its offset in .text, when matched */
	bool stale;		/* matched by name, but the code bytes differ: the
				 * .cwasm is not what ran */
	bool has[ANNOT__NR];	/* which columns this object may fill (a source
				 * column may still turn out empty) */
	/* private */
	const struct cwasm_func *cf;
	const struct clif_func *clif;
	struct srcmap *elf_src;
	bool elf_lazy;
	uint64_t debug_bias;
	const char *name_file;	/* the script named in a V8 load name, if any */
	bool debug_ok;
	struct jit_debug_index *debug_index;	/* built at the first lookup */
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
 * Whether memory ran out for a display name or a source cell: they are then
 * shown raw or missing, and the report should not be taken as complete.
 */
bool annotator__out_of_memory(const struct annotator *a);

/* The cells of the instruction at byte offset off of object idx; the [Source]
 * cell only when with_source (a DWARF lookup costs microseconds: callers ask
 * only for what they show). */
void annotator__cells(struct annotator *a, const struct stream *s, size_t idx, uint32_t off,
		      bool with_source, struct annot_cell cells[ANNOT__NR]);

/* The wasm offset of the instruction at off of a matched function (af->wasm). */
bool annotator__wasm_offset(const struct annotator *a, const struct annot_func *af, uint32_t off,
			    uint32_t *wasm_off);

/* Whether any column input was given at all (the [CLIF]/[Wasm] columns can exist). */
bool annotator__wasm_inputs(const struct annotator *a);

/*
 * One line per thing the user should know, for the report's summary on stderr
 * (objects not found in the .cwasm, stale code, missing CLIF files...). Calls
 * note(arg, line) for each; lines are lowercase without a trailing period.
 */
void annotator__summary(const struct annotator *a, void (*note)(void *arg, const char *line), void *arg);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The columns beside each instruction and what fills them: the interface
 * between the annotator (annotate.c, which asks) and its sources, one per
 * kind of knowledge: wasmtime's artifacts (wasmtime/wasmtime.c: [CLIF],
 * [Wasm], and [Source] from the module's DWARF), a jitdump's DEBUG_INFO
 * entries (jit-debug.c), a native file's DWARF (native-source.c). Data, and
 * the one helper every source keeps its texts with. A new kind of JIT
 * artifact is a folder beside wasmtime/ with a source of these cells.
 */
#ifndef POSTPROC_ANNOTATE_COLUMNS_H
#define POSTPROC_ANNOTATE_COLUMNS_H

#include <stdbool.h>
#include <stdint.h>

#include "lib/util.h"

struct clif_func;
struct cwasm_func;
struct jit_debug_index;
struct srcmap;

enum annot_col {
	ANNOT_CLIF,		/* the CLIF lines of the instruction's wasm offset */
	ANNOT_WASM,		/* the Wasm instruction at that offset */
	ANNOT_SOURCE,		/* file:line from DWARF / jitdump DEBUG_INFO */
	ANNOT__NR
};

/* Which source fills an object's [Source] column. */
enum annot_source {
	ANNOT_SOURCE_NONE,
	ANNOT_SOURCE_WASMTIME,	/* the module's DWARF, at the wasm offset */
	ANNOT_SOURCE_JIT_DEBUG,	/* the jitdump's DEBUG_INFO entries */
	ANNOT_SOURCE_NATIVE,	/* the file's DWARF */
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
	/* private: what the sources keep of it */
	enum annot_source source;	/* the one that fills [Source] */
	const struct cwasm_func *cf;	/* wasmtime: its function of the .cwasm */
	const struct clif_func *clif;	/* wasmtime: and its CLIF */
	struct srcmap *elf_src;		/* native: its file's DWARF, once opened */
	bool elf_lazy;			/* native: not opened yet */
	uint64_t debug_bias;		/* jitdump debug entries: the JIT's bias */
	const char *name_file;		/* the script named in a V8 load name, if any */
	struct jit_debug_index *debug_index;	/* built at the first lookup */
};

/* Texts the cells and names point to, kept as long as the annotator: a
 * renderer holds a whole block's cells at once. */
struct annot_texts {
	struct strset set;
	bool oom;		/* a name or cell is missing for want of memory */
};

/* A copy of s kept in t, or NULL (out of memory, noted). */
static inline const char *annot_texts__intern(struct annot_texts *t, const char *s)
{
	const char *k = strset_add(&t->set, s);

	t->oom |= !k;
	return k;
}

/* s (malloc()ed, taken) kept in t, or fallback when s is NULL or memory ran out. */
static inline const char *annot_texts__keep(struct annot_texts *t, char *s, const char *fallback)
{
	const char *k;

	if (!s)
		return fallback;
	k = strset_add_owned(&t->set, s);
	t->oom |= !k;
	return k ? k : fallback;
}

#endif

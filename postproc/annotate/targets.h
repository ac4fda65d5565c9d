/* SPDX-License-Identifier: MIT */
/*
 * What a direct branch or call out of a function lands in: the code load or
 * symbol at that address in the same process at that time, else the file
 * mapped there, from the stream's objects and its `load` and `map` records
 * (STREAM.md). The report names targets with it (report_row.target_name).
 */
#ifndef POSTPROC_ANNOTATE_TARGETS_H
#define POSTPROC_ANNOTATE_TARGETS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stream/stream.h"

/* Where a target lands. */
struct target {
	const char *name;	/* the code load or symbol (the stream's name, or the
				 * file's ELF symbol, raw), or the file when in_file;
				 * borrowed from the stream or the index */
	uint64_t off;		/* from its first byte; in_file: the offset in the file */
	long obj;		/* the stream object it lands in (code with samples), or -1 */
	bool in_file;		/* a file mapping covers it, and no symbol of the file
				 * there: name is its path */
	/* A slot of V8's wasm jump table (annotate/v8/v8-jump-table.h), which no
	 * load covers: wasm_index is the callee's function index and name a code
	 * load of it (with its tier), or NULL when V8 never compiled it; far: a
	 * slot of the far jump table (a runtime stub's), name NULL, off from the
	 * far table's start. wasm_index -1 and far false otherwise. */
	int wasm_index;
	bool far_jump_table;
};

struct targets;

/*
 * Index what targets can land in: the objects of s, its code loads and its
 * file mappings (s stays borrowed, and finished). Returns 0 or -ENOMEM.
 */
int targets__new(struct targets **out, const struct stream *s);
void targets__free(struct targets *t);

/*
 * Where addr lands for code of object from (index in s->objects): in its
 * process, the JIT code load covering addr that was live when from was
 * loaded (the newest loaded before it; else, for code loaded later, the
 * first), else the sampled native or cwasm symbol covering it, else the
 * newest file mapping covering it: the symbol perf finds in that file there
 * (plugin/symbols/elfsyms.h: .symtab, .dynsym, name@plt; the file read now, refused
 * when its build-id is not the recording's), else the file; else the
 * slot of V8's wasm jump table derived there. False when nothing covers addr. Files are read once each.
 */
bool targets__find(struct targets *t, size_t from, uint64_t addr, struct target *out);

/* The notes of what targets could not name (V8's jump tables left raw, and why). */
void targets__summary(const struct targets *t, void (*note)(void *arg, const char *line), void *arg);

#endif

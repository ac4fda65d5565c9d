/* SPDX-License-Identifier: MIT */
/*
 * V8's wasm jump tables, derived from the calls into them: V8 calls every
 * wasm function of a module through one slot of the module's jump table,
 * code its jitdump never logs, so a call shows only an address. Each wasm
 * code space starts with the main jump table (one slot per defined function,
 * in index order) and the far jump table after it (the runtime stubs'
 * slots). From the calls of the stream's V8 wasm code into memory no load
 * covers, this solves per process and code space the table's base, its end
 * and the number of imported functions (slot k is function k + imports), and
 * checks them (FORMATS.md, "V8's wasm jump table").
 */
#ifndef POSTPROC_V8_JUMP_TABLE_H
#define POSTPROC_V8_JUMP_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "stream/stream.h"

struct v8_jump_tables;

/* Where a call into a derived table goes. */
struct v8_slot {
	bool far;		/* the far jump table (a runtime stub's slot): off is from its start */
	int func_index;		/* the main table: the callee's function index */
	const char *name;	/* the main table: a code load of the callee (the stream's
				 * name, with its tier), or NULL when none was loaded */
	uint64_t off;		/* far: from the far table's first byte */
};

/*
 * Derive the tables of s's V8 wasm code (x86-64). *out is NULL when there is
 * no V8 wasm code, or no table and nothing to say of one. Returns 0 or
 * -ENOMEM.
 */
int v8_jump_tables__derive(struct v8_jump_tables **out, const struct stream *s);
void v8_jump_tables__free(struct v8_jump_tables *j);

/* Whether addr, in process pid, is a slot of a derived table, and which. */
bool v8_jump_tables__find(const struct v8_jump_tables *j, uint32_t pid, uint64_t addr, struct v8_slot *out);

/* One line per code space whose calls did not agree with one table (why), each once. */
void v8_jump_tables__summary(const struct v8_jump_tables *j, void (*note)(void *arg, const char *line),
			     void *arg);

#endif

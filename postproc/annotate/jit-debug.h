/* SPDX-License-Identifier: MIT */
/* Source lines of JIT code from its jitdump DEBUG_INFO entries (V8, perf's JVMTI agent, ...). */
#ifndef POSTPROC_JIT_DEBUG_H
#define POSTPROC_JIT_DEBUG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "columns.h"
#include "stream/stream.h"

/*
 * The entries of a code object's jitdump DEBUG_INFO record, as the stream
 * carries them (struct stream_debug, STREAM.md `debug`), in record order.
 * What V8 writes there is in postproc/FORMATS.md, "V8's debug entries"; in
 * short, and what the lookups below rely on:
 *   addr    = code start + offset + V8's kElfHeaderSize (0x40 on 64-bit
 *             targets, 0x34 on 32-bit ones), not code start + offset;
 *   line    = the 1-based line; discrim = the 1-based COLUMN;
 *   file    = the script name ("\xff": the previous entry's file, which
 *             perf's JVMTI agent writes and V8 never does).
 * The offsets are machine-code offsets only for TurboFan (`JS:*`) and Maglev
 * (`JS:+`) code; for Sparkplug (`JS:^`) and interpreted (`JS:~`) code V8
 * logs the bytecode's source positions, which say nothing about the machine
 * code (v8/v8-debug.h: which entries to read, and their bias). V8 11 also
 * writes some file names with heap garbage in them, whose NUL bytes shift
 * every later entry for a reader walking them as the spec says: entries
 * that land outside the object are ignored, and a file name is only as good
 * as the JIT wrote it (jit_debug__printable).
 */
/* A file name fit to print: not empty, no control or non-ASCII byte (V8
 * sometimes writes garbage). */
bool jit_debug__printable(const char *file);

/*
 * The entry of e[0..n) covering machine code offset off of an object loaded
 * at load_addr with size bytes (a stream_object's debug, debug_nr, addr,
 * size): the entry with the greatest addr - bias <= load_addr + off (the last
 * one in record order among equals), considering only entries that
 * land inside [load_addr, load_addr + size). Returns its index, or -1 when no
 * entry starts at or before off. *file (if not NULL) gets the entry's file with
 * "\xff" resolved by walking back in record order (NULL if nothing names one).
 * Needs no sorting and tolerates garbage entries; O(n).
 */
long jit_debug__find(const struct stream_debug *e, size_t n, uint64_t load_addr, uint64_t size,
		     uint64_t bias, uint64_t off, const char **file);

/*
 * The same lookups, indexed: jit_debug_index__new sorts the usable entries
 * of e[0..n) once (O(n log n)); jit_debug_index__find then answers in
 * O(log n) exactly what jit_debug__find would, so a report of many
 * instructions of an object with many entries stays n log n. e must outlive
 * the index. new returns NULL when out of memory.
 */
struct jit_debug_index;
struct jit_debug_index *jit_debug_index__new(const struct stream_debug *e, size_t n,
					     uint64_t load_addr, uint64_t size, uint64_t bias);
long jit_debug_index__find(const struct jit_debug_index *ix, uint64_t off, const char **file);
void jit_debug_index__free(struct jit_debug_index *ix);

/*
 * The [Source] column of JIT code from its debug entries (columns.h):
 * claim obj when it has entries that map its machine code (v8_debug__bias),
 * and give the cell at offset off: "FILE:LINE[:COLUMN]", the file as the
 * JIT named it, but the load name's script when the entry's is garbage: not
 * printable, or (V8 code, scripts not NULL) a script no load name of the
 * stream names (scripts: those names).
 */
bool jit_debug__claim(const struct stream_object *obj, struct annot_func *af, struct annot_texts *t);
void jit_debug__cell(const struct stream_object *obj, struct annot_func *af, uint32_t off,
		     const struct strset *scripts, struct annot_cell *cell, struct annot_texts *t);

#endif

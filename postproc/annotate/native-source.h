/* SPDX-License-Identifier: MIT */
/*
 * The [Source] column of native code from its file's DWARF (columns.h): a
 * file's DWARF is opened at its first cell (most annotated objects are
 * never shown), once per file.
 */
#ifndef POSTPROC_ANNOTATE_NATIVE_SOURCE_H
#define POSTPROC_ANNOTATE_NATIVE_SOURCE_H

#include <stdbool.h>
#include <stdint.h>

#include "annotate/dwarf/srcmap.h"
#include "columns.h"
#include "stream/stream.h"

/* Claim obj when it is native code of a named file. */
bool native_source__claim(const struct stream_object *obj, struct annot_func *af);

/*
 * The cell at off, the file's DWARF opened through files at the first one;
 * a file without DWARF takes the column away (af->has[ANNOT_SOURCE] false).
 */
void native_source__cell(struct srcmap_cache *files, const struct stream_object *obj,
			 struct annot_func *af, uint32_t off, struct annot_cell *cell,
			 struct annot_texts *t);

#endif

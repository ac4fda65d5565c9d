/* SPDX-License-Identifier: MIT */
/*
 * Code a file holds: where a JIT load's bytes are, byte for byte, those of
 * a file its process mapped there (a wasmtime .cwasm run precompiled), the
 * stream may name the file, the offset and the bytes' CRC-64 (STREAM.md
 * `code-file`) instead of copying them: `--dlarg code-refs`.
 */
#ifndef PLUGIN_EMIT_CODE_REFS_H
#define PLUGIN_EMIT_CODE_REFS_H

#include <stddef.h>
#include <stdint.h>

#include "../native/mmaps.h"

/* Where to look for a mapped file (NATIVE.md "Files that are not where
 * perf.data says"); all borrowed. */
struct code_refs_places {
	const char *symfs;		/* perf script --symfs root, or NULL */
	const char *perf_data;		/* the recording ("-": a pipe, no directory) */
	const char *const *search;	/* --dlarg search=DIR */
	size_t search_nr;
};

struct code_refs_file;

struct code_refs {
	const struct mmaps *maps;
	struct code_refs_places places;
	struct code_refs_file *files;	/* by mmaps file index, as first asked */
	size_t files_nr, files_alloc;
	uint8_t *buf;			/* a file's bytes, to compare */
	size_t buf_alloc;
};

void code_refs__init(struct code_refs *c, const struct mmaps *maps, const struct code_refs_places *places);
/* Closes the files; the paths handed out stay valid until then. */
void code_refs__release(struct code_refs *c);

/*
 * Whether code[0, len), loaded at addr by process pid at time, is the bytes
 * of the file mapped there then: 1 with the file read (*path, owned by c),
 * the offset in it and the bytes' CRC-64 (XZ's, lzma_crc64); 0 when not
 * (no mapping, an anonymous one, the file gone or changed, a path too long
 * for the stream's string limit); -ENOMEM.
 */
int code_refs__find(struct code_refs *c, uint32_t pid, uint64_t addr, uint64_t time, const uint8_t *code,
		    size_t len, const char **path, uint64_t *off, uint64_t *crc);

#endif

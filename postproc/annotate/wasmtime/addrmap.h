/* SPDX-License-Identifier: MIT */
/* wasmtime's .wasmtime.addrmap section: decoder and encoder of both encodings (no ELF here).
 * The format is described in postproc/FORMATS.md, "The address map". */
#ifndef POSTPROC_ADDRMAP_H
#define POSTPROC_ADDRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* FilePos::none(): code with no wasm source (prologue, gaps, epilogue padding). */
#define ADDRMAP_NONE 0xFFFFFFFFu
/* Entries per block of the block encoding (ADDRMAP_BLOCK_SIZE in wasmtime). */
#define ADDRMAP_BLOCK_ENTRIES 128

/*
 * One entry: the code from text_off up to the next entry's text_off comes from
 * the wasm instruction at wasm_off.
 */
struct addrmap_entry {
	uint32_t text_off;	/* from the start of .text (not of the function) */
	uint32_t wasm_off;	/* byte offset in the whole original .wasm file, or ADDRMAP_NONE */
};

enum addrmap_format {
	ADDRMAP_PLAIN,		/* u32 N, u32 text_off[N], u32 wasm_off[N]; wasmtime <= 46 */
	ADDRMAP_BLOCKS,		/* block index + LEB128 block bodies; wasmtime >= 47 */
};

/* "plain" / "block", for messages ("the block encoding"). */
const char *addrmap_format__name(enum addrmap_format fmt);

/*
 * Decode the len bytes of a .wasmtime.addrmap section at buf (any alignment;
 * the section is little-endian on every target).
 *
 * The section carries no format tag, so both encodings are tried
 * (FORMATS.md, "Telling the encodings apart"): plain fits when len == 4 + 8*N and the offsets do not
 * decrease; blocks fits when the block count is ceil(N/128), the blocks lie in
 * order, back to back, every entry decodes and the last block ends exactly at
 * the end of the section. If exactly one fits, it wins. If both do (only
 * contrived sections), engine_major breaks the tie: the leading number of the
 * .wasmtime.engine version string, 0..46 means plain, >= 47 or unknown (< 0)
 * means blocks.
 *
 * Stricter than wasmtime's reader, so that hostile input costs bounded memory
 * (at most one 8-byte entry per input byte) and is told apart from the other
 * encoding: blocks must lie in order without overlapping or leaving bytes
 * between them, no byte may follow the last entry, the block count must match
 * the entry count, no offset or position may wrap, and LEB128s are at most 10
 * bytes. wasmtime's encoder never writes anything these rules refuse.
 *
 * On success returns 0 and sets *entries (owned by the caller, free(); NULL
 * when *nr is 0), *nr and *fmt (fmt may be NULL). The entries are sorted by
 * text_off (non-decreasing; duplicates kept in section order).
 * On failure returns -EINVAL (malformed; the message in err is
 * "NAME+0xOFF: ...", OFF counted from the start of the section, NAME as
 * given) or -ENOMEM, and leaves the outputs untouched. err may be NULL.
 */
int addrmap__decode(const uint8_t *buf, size_t len, int engine_major, const char *name,
		    struct addrmap_entry **entries, size_t *nr, enum addrmap_format *fmt,
		    char *err, size_t errlen);

/*
 * As addrmap__decode, for a section found at byte file_off of file name (a
 * .cwasm): messages are "NAME+0xFILEOFF: .wasmtime.addrmap+0xOFF: ...", with
 * FILEOFF = file_off + OFF, so they point into the file as every reader's do.
 */
int addrmap__decode_at(const uint8_t *buf, size_t len, uint64_t file_off, int engine_major,
		       const char *name, struct addrmap_entry **entries, size_t *nr,
		       enum addrmap_format *fmt, char *err, size_t errlen);

/*
 * Encode nr entries (sorted by text_off, non-decreasing) exactly as given in
 * format fmt, into *out (owned by the caller, free()) of *len bytes. Unlike
 * wasmtime's AddressMapSection::push nothing is merged or dropped: repeated
 * positions are the caller's business. Returns 0, -EINVAL (unsorted entries,
 * more than UINT32_MAX entries) or -ENOMEM.
 */
int addrmap__encode(const struct addrmap_entry *e, size_t nr, enum addrmap_format fmt,
		    uint8_t **out, size_t *len);

/*
 * The entries of a section that addrmap__decode accepted as fmt (buf, len as
 * given to it) which decide lookups in the function [fstart, fend): over
 * them addrmap__lookup answers as over the whole map. Only what lies around
 * the function is read (a binary search over the plain arrays or the block
 * index, then its blocks), so a map of millions of entries need not be held
 * for the few functions shown. Returns 0 and sets *entries (free(); NULL
 * when *nr is 0) and *nr, or -ENOMEM (-EINVAL for a section that was not
 * accepted).
 */
int addrmap__decode_range(const uint8_t *buf, size_t len, enum addrmap_format fmt, uint32_t fstart,
			  uint32_t fend, struct addrmap_entry **entries, size_t *nr);

/*
 * The wasm offset of the code at text offset pc in the function occupying
 * [fstart, fend) of .text, as the reference computes it (FORMATS.md,
 * "Looking up an instruction"):
 * among the entries with fstart <= text_off < fend, the last one with
 * text_off <= pc. Returns false when there is none or its position is
 * ADDRMAP_NONE; otherwise stores the offset in *wasm_off. e must be sorted.
 */
bool addrmap__lookup(const struct addrmap_entry *e, size_t nr, uint32_t fstart, uint32_t fend,
		     uint32_t pc, uint32_t *wasm_off);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The srcmap's insides (srcmap.h), shared by its files and nobody else:
 *   srcmap.c       the units' index, the frames of an address, the cache of
 *                  lookups, the short form
 *   srcmap-wasm.c  a wasm module's DWARF: its custom sections in an ELF image
 *   srcmap-elf.c   an ELF file's DWARF (its own or its debug file's), and the
 *                  cache of files by path
 * The openers fill a struct srcmap and index it (srcmap__index_units); the
 * lookups read it.
 */
#ifndef POSTPROC_ANNOTATE_DWARF_SRCMAP_DEFS_H
#define POSTPROC_ANNOTATE_DWARF_SRCMAP_DEFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "lib/util.h"
#include "srcmap.h"

/* An address range of a unit, in the index find_unit searches. */
struct srcmap_cu_range {
	uint64_t lo, hi;	/* [lo, hi) in DWARF addresses */
	uint64_t maxhi;		/* max hi of this and every earlier range (sorted by lo) */
	Dwarf_Die die;		/* the unit's DIE: a plain value, valid until dwarf_end */
};

/* The frames of an address asked for before. */
struct srcmap_cached {
	uint64_t addr;		/* as the caller gave it */
	struct srcmap_frame *frames;	/* owned; NULL when nr is 0 */
	size_t nr;
};

struct srcmap {
	Dwfl *dwfl;		/* ELF opened through libdwfl: owns dw */
	Dwarf *dw;
	bool dw_owned;		/* we dwarf_end() it (an image's); else dwfl does */
	Elf *elf;		/* wasm, and ELF opened through an image: the image below */
	uint8_t *image;		/* owned ELF image behind elf (dwarf-image.h) */
	bool wasm;
	uint64_t code_start, code_end;	/* wasm: Code section payload, file offsets */
	uint64_t bias;		/* ELF: DWARF address = file address - bias */
	struct srcmap_cu_range *cus;
	size_t cus_nr, cus_alloc;
	struct srcmap_cached *cache;
	size_t cache_nr, cache_alloc;
	struct idx_table cache_tab;
	struct strset paths;	/* comp_dir-joined file names */
	struct srcmap_load {
		uint64_t off, filesz, vaddr;
	} *loads;		/* ELF: PT_LOAD segments, file order (srcmap__file_address) */
	size_t loads_nr;
};

/* libelf's version handshake, before any file is opened: 0 or -EINVAL (err set). */
int srcmap__lib_init(char *err, size_t errlen);

/*
 * Index every compile unit of m->dw by its address ranges, once m is open.
 * A unit libdw cannot read ends the walk: what came before stays. Returns 0
 * or -ENOMEM.
 */
int srcmap__index_units(struct srcmap *m);

#endif

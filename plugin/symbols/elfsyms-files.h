/* SPDX-License-Identifier: MIT */
/*
 * The files a mapped file's symbols may come from, found and opened as perf
 * 6.1 does (its symsrc and dso__read_binary_type_filename): the candidate
 * files in perf's order, each refused when its build-id is not the
 * recording's. elfsyms.c's own (see elfsyms.h).
 */
#ifndef PLUGIN_SYMBOLS_ELFSYMS_FILES_H
#define PLUGIN_SYMBOLS_ELFSYMS_FILES_H

#include <gelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "elfsyms.h"

/* One candidate file, opened: perf's struct symsrc. */
struct symsrc {
	char *path;		/* owned */
	int fd;			/* -1 for an image in memory */
	Elf *elf;
	GElf_Ehdr ehdr;
	Elf_Scn *symtab, *dynsym;	/* NULL unless of type SYMTAB / DYNSYM */
	GElf_Shdr symshdr, dynshdr;
	size_t dynsym_idx;
	void *image;		/* owned bytes of an image in memory (MiniDebugInfo), else NULL */
	const void *mem;	/* the bytes of an image in memory (the vdso), else NULL */
	size_t mem_len;
	uint64_t size;		/* the file's (or image's) size in bytes */
};

/* How opening a candidate went: OPEN_BAD is a regular file libelf cannot read as ELF. */
enum { OPEN_OK, OPEN_ABSENT, OPEN_MISMATCH, OPEN_BAD };

/* perf's candidates, in its order. */
enum candidate {
	C_DEBUGLINK, C_CACHE, C_CACHE_DEBUG, C_FEDORA, C_UBUNTU, C_BUILDID_DEBUG,
	C_SYSTEM, C_OPENEMBEDDED, C_MIXEDUP_UBUNTU, C__NR,
};

/* Whether path is a regular file (links followed). */
bool elfsyms__is_regular_file(const char *path);

/* perf's elf_section_by_name: the first section of that name, with its index. */
Elf_Scn *elfsyms__section_by_name(Elf *elf, const GElf_Ehdr *eh, GElf_Shdr *shdr, const char *name,
				  size_t *idx);

/* perf's elf_read_build_id: the GNU note of the first of .note.gnu.build-id,
 * .notes, .note. Returns its size (<= 20), or 0. */
size_t elfsyms__read_build_id(Elf *elf, const GElf_Ehdr *eh, uint8_t id[20]);

/* A note for the user about a file (cfg->warnings; nothing when NULL), one line. */
void elfsyms__note(const struct elfsyms_config *cfg, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* What in ss's headers keeps its symbols from being read (e_shstrndx naming no
 * string table, a symbol table past the end of the file), said in a note
 * naming the file and the offset. false: the headers cannot be used at all. */
bool elfsyms__check_headers(const struct symsrc *ss, const struct elfsyms_config *cfg);

/* perf's symsrc__init: open the file at path into ss, find its .symtab and
 * .dynsym. OPEN_ABSENT when it is not there (or not a regular file), OPEN_BAD
 * when it is no ELF file, OPEN_MISMATCH
 * when bid_size is not 0 and its build-id is not bid; released unless OPEN_OK. */
int symsrc__open(struct symsrc *ss, const char *path, const uint8_t *bid, size_t bid_size);
/* The same for an image of len bytes at mem, named name (owned: freed with
 * ss, or NULL). */
int symsrc__memory(struct symsrc *ss, const char *name, const void *mem, size_t len, void *owned,
		   const uint8_t *bid, size_t bid_size);
void symsrc__release(struct symsrc *ss);

/* This process's vdso (perf's own, which is what perf reads for [vdso]). */
bool elfsyms__own_vdso(const void **mem, size_t *len);

/* perf's dso__read_binary_type_filename for a user-space file: candidate c of
 * perf's dso path (vdso: "[vdso]") into out; false when c names none. */
bool elfsyms__candidate_path(enum candidate c, const char *path, bool vdso, const uint8_t *bid,
			     size_t bid_size, const struct elfsyms_config *cfg, char *out, size_t outlen);

#endif

/* SPDX-License-Identifier: MIT */
/* Test support: write small .cwasm-shaped ELF files with libelf (sections, symbols, header fields). */
#ifndef POSTPROC_TESTS_CWASM_WRITER_H
#define POSTPROC_TESTS_CWASM_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct cw_section {
	const char *name;
	uint32_t type;		/* SHT_PROGBITS when 0 */
	uint64_t flags;
	uint64_t align;		/* 1 when 0 */
	const void *data;	/* borrowed; size bytes (NULL with SHT_NOBITS) */
	size_t size;
};

struct cw_symbol {
	const char *name;
	const char *section;	/* name of one of the cw_sections; NULL = SHN_UNDEF */
	uint64_t value, size;
	unsigned char type;	/* STT_* */
	unsigned char bind;	/* STB_*; locals must come first, as ELF wants */
};

struct cw_elf {
	unsigned char class;	/* ELFCLASS64 when 0 */
	unsigned char data;	/* ELFDATA2LSB when 0 */
	unsigned char osabi;	/* written as is: set 200 for a .cwasm */
	uint16_t type;		/* ET_REL when 0 */
	uint16_t machine;
	uint32_t flags;
	const struct cw_section *sections;	/* become sections 1..nr in this order */
	size_t nr_sections;
	const struct cw_symbol *symbols;	/* a .symtab (+ .strtab) follows unless no_symtab */
	size_t nr_symbols;
	bool no_symtab;
};

/*
 * Write spec to path with libelf (ELF_C_WRITE, libelf lays out the file).
 * Section indexes: the given sections are 1..nr_sections, then .symtab,
 * .strtab (unless no_symtab) and .shstrtab. Returns 0 or -1 with a message
 * on stderr.
 */
int cw_elf__write(const char *path, const struct cw_elf *spec);

/* The whole file in a malloc()ed buffer (*len bytes), or NULL. */
uint8_t *cw_file__read(const char *path, size_t *len);
/* Replace path's contents with len bytes of buf. Returns 0 or -1. */
int cw_file__write(const char *path, const uint8_t *buf, size_t len);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * Test support: small ELF64 little-endian files written byte by byte, for the
 * hostile tests and fuzz targets of the symbol readers (plugin/symbols/).
 * They are crafted, not produced by a toolchain: an ELF header, an optional
 * PT_LOAD, the sections' bytes in order, .shstrtab, then the section headers
 * (section i of the list is index i + 1, .shstrtab the last), so that a test
 * can break one field of a header afterwards at a known place.
 */
#ifndef PLUGIN_TESTS_ELF_WRITER_H
#define PLUGIN_TESTS_ELF_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct elfw_sec {
	const char *name;
	uint32_t type, link, info;
	uint64_t flags, addr, entsize;
	const void *data;	/* size bytes (SHT_NOBITS: none are written, sh_size is size) */
	size_t size;
};

struct elfw {
	const struct elfw_sec *secs;
	size_t nr;
	uint16_t machine;	/* 0: EM_X86_64 */
	bool load;		/* one PT_LOAD mapping the whole file at vaddr == offset */
};

/* The file's bytes (malloc()ed; *len its size). */
uint8_t *elfw_build(const struct elfw *w, size_t *len);

/* Where section header i (0 is the null section) starts in img. */
size_t elfw_shdr(const uint8_t *img, size_t i);

/* Write img to path (created or truncated, mode 0644). 0 or -1. */
int elfw_write(const char *path, const void *img, size_t len);

/* One Elf64_Sym into out (24 bytes). */
void elfw_sym(uint8_t *out, uint32_t name, uint8_t info, uint16_t shndx, uint64_t value, uint64_t size);

/* A GNU build-id note of n bytes of id into out (16 + n rounded up to 4); its size. */
size_t elfw_build_id_note(uint8_t *out, const uint8_t *id, size_t n);

/* .gnu_debuglink's bytes into out: name, NUL, padding to 4, crc (little-endian); its size. */
size_t elfw_debuglink(uint8_t *out, const char *name, uint32_t crc);

/* gdb's gnu_debuglink_crc32 (the CRC-32 of zlib) of len bytes. */
uint32_t elfw_crc32(const void *p, size_t len);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * An ELF image in memory holding only DWARF sections, for libdw to open with
 * elf_memory() + dwarf_begin_elf(): a WebAssembly module's `.debug_*` custom
 * sections (libdw reads only ELF), and the sections of an ELF file's DWARF
 * that srcmap's lookups read, inflated here.
 *
 * Why the ELF case: libdw 0.188 inflates every compressed debug section of a
 * file with zlib when it opens it (dwarf_begin_elf), whether anything reads it
 * or not. Debian's debug files (libc6-dbg, -dbgsym) compress them all, and
 * libc's take ~10 MB inflated, ~45 ms with zlib: most of a report that shows
 * a few of libc's functions. Here only the sections a lookup reads are in the
 * image (not the location lists, call frames, macros, name indexes,
 * .debug_aranges), inflated with libdeflate, which does it at about three
 * times zlib's speed. The bytes libdw reads are the same, so are its answers.
 */
#ifndef POSTPROC_ANNOTATE_DWARF_DWARF_IMAGE_H
#define POSTPROC_ANNOTATE_DWARF_DWARF_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <gelf.h>

/* One section of the image. */
struct dwarf_image_sec {
	const char *name;	/* name_len bytes, no NUL among them */
	size_t name_len;
	const uint8_t *data;	/* the bytes, or a zlib stream of them (zlib) */
	size_t size;		/* of data */
	uint64_t out_size;	/* the section's size in the image (size unless zlib) */
	bool zlib;
};

/* What the image's ELF header says: the class, byte order and machine of the code. */
struct dwarf_image_kind {
	unsigned char elf_class;	/* ELFCLASS32 or ELFCLASS64 */
	unsigned char elf_data;		/* ELFDATA2LSB or ELFDATA2MSB */
	uint16_t machine;
};

/*
 * Lay out secs[0..nr) after an ELF header, then .shstrtab and the section
 * headers, inflating the zlib ones in place. Returns 0 with *image (malloc'd)
 * and *size, -ENOMEM, or -EINVAL (too large for the class, a zlib stream that
 * is damaged or not of its stated size) with err.
 */
int dwarf_image__build(uint8_t **image, size_t *size, const struct dwarf_image_kind *kind,
		       const struct dwarf_image_sec *secs, size_t nr, char *err, size_t errlen);

/*
 * The image of the DWARF sections of elf (opened by the caller, who keeps it
 * open while the image is built) that srcmap reads. -ENOTSUP when libdw had
 * better open elf itself: no section srcmap reads is compressed (libdw reads
 * the file in place, nothing to gain), or one is compressed in another way
 * than SHF_COMPRESSED with zlib (GNU .zdebug_*, zstd): libdw's own rules
 * apply then. Else as dwarf_image__build().
 */
int dwarf_image__of_elf(uint8_t **image, size_t *size, Elf *elf, char *err, size_t errlen);

#endif

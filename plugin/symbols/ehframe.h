/* SPDX-License-Identifier: MIT */
/*
 * The function bounds an ELF file's .eh_frame gives: every FDE's address
 * range (initial_location, address_range), for code no symbol names. The
 * section is the one the unwinder uses, so even a stripped file has it. The
 * layout (a CIE's augmentation gives the pointer encoding of its FDEs) is the
 * one the Linux Standard Base describes for .eh_frame (DWARF's .debug_frame
 * with the changes listed in NATIVE.md "FDE bounds").
 */
#ifndef PLUGIN_EHFRAME_H
#define PLUGIN_EHFRAME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ehframe_fde {
	uint64_t start, end;	/* virtual addresses, [start, end) */
};

struct ehframe {
	struct ehframe_fde *v;	/* sorted by start */
	size_t nr;
	size_t bad;		/* entries that could not be read (skipped) */
};

/*
 * Read every FDE of an .eh_frame section: its bytes data[0, len), at virtual
 * address addr, of an ELF file of that class (is64) and byte order (swapped:
 * not the host's). A malformed entry ends the walk (what was read stays).
 * 0 or -ENOMEM.
 */
int ehframe__read(struct ehframe *f, const uint8_t *data, size_t len, uint64_t addr, bool is64, bool swapped);

/* The FDE whose range holds vaddr, or NULL. */
const struct ehframe_fde *ehframe__find(const struct ehframe *f, uint64_t vaddr);

void ehframe__release(struct ehframe *f);

#endif

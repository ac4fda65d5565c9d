/* SPDX-License-Identifier: MIT */
/* Source locations (function file:line:col, inlined frames) for code addresses, from DWARF. */
#ifndef POSTPROC_ANNOTATE_DWARF_SRCMAP_H
#define POSTPROC_ANNOTATE_DWARF_SRCMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/util.h"

/*
 * Why libdw (elfutils 0.188) and no DWARF reader of our own: line programs
 * (DWARF 2-5, every opcode, both shapes of file tables), range lists,
 * compressed sections, abstract origins, dwz alternate files and call sites
 * are a large, subtle format that libdw already reads, is fuzzed for, and that
 * Debian ships next to the libelf we already link. We only adapt containers:
 *
 *  - ELF: the file's own DWARF or, when it has none, its separate debug file
 *    by build-id under /usr/lib/debug/.build-id/ (Debian's -dbgsym /
 *    libc6-dbg), with its dwz .gnu_debugaltlink. Not .gnu_debuglink names,
 *    and never debuginfod: the standard libdwfl callback dlopen()s
 *    libdebuginfod for every file without DWARF (a network client, and
 *    allocations valgrind reports). When the sections we read are compressed
 *    (as Debian ships them) they are inflated into an image of their own
 *    (dwarf-image.h: libdw would inflate every debug section, ~45 ms for
 *    libc's); otherwise libdwfl opens the file, at its own addresses.
 *  - WebAssembly: libdw reads only ELF, so the module's `.debug_*` custom
 *    sections are copied, names unchanged, into an ELF image built in memory
 *    (ELFCLASS32 because wasm32 DWARF has 4-byte addresses, little-endian like
 *    wasm, e_machine EM_NONE, ET_EXEC, no relocations since wasm-ld resolved
 *    them) and opened with elf_memory() + dwarf_begin_elf(). No temp file.
 *
 * A lookup: dwarf_addrdie() needs .debug_aranges, which clang does not write
 * (libdwfl 0.188 relies on it too), so srcmap indexes every unit by its own
 * DW_AT_low_pc/high_pc/ranges. In the unit, the line row is
 * dwarf_getsrc_die()'s; the scopes containing the address are found by
 * walking the physical DIE tree (dwarf_haspc() on functions and blocks), so
 * the parent of an inlined instance is its caller; each
 * DW_TAG_inlined_subroutine moves the next frame to its DW_AT_call_file /
 * call_line / call_column. That is eu-addr2line -i's and llvm-symbolizer's
 * answer; dwarf_getscopes() is not used (it continues into the abstract
 * origin's tree, and libdw 0.188 leaks its array on damaged DWARF).
 * Function names are the DWARF DW_AT_name, through abstract origins: for
 * aliases (glibc's qsort_r) the tools may print an ELF symbol instead.
 *
 * The wasm DWARF address convention (postproc/FORMATS.md, "DWARF in a
 * WebAssembly module", has the evidence): addresses are offsets from the
 * first byte of the Code section's payload, not file offsets. Everything
 * else in hotblocks speaks wasm file offsets, so srcmap__lookup() takes a
 * file offset and converts inside.
 */

/* One frame of a source location. Strings are borrowed from the srcmap. */
struct srcmap_frame {
	const char *function;	/* DW_AT_name (through abstract_origin/specification);
				 * NULL if the address is in no function DIE */
	const char *file;	/* directory entry + name, joined to the unit's
				 * DW_AT_comp_dir when that is absolute, as addr2line
				 * prints it; still relative if comp_dir is (e.g.
				 * -fdebug-prefix-map=$PWD=.); NULL if unknown */
	unsigned line;		/* 1-based; 0 = none (compiler-made code, line 0 rows) */
	unsigned column;	/* 1-based; 0 = none */
};

struct srcmap;

/*
 * Open the DWARF of a WebAssembly module wasm[0..len) (a whole .wasm file,
 * copied: the caller may free it afterwards). name is used in messages only.
 * Returns 0 and *out, or:
 *   -ENODATA  the module has no .debug_info section (also when the DWARF
 *             lives in a separate file, `external_debug_info`): not an
 *             error for callers, there is simply nothing to show;
 *   -ENOTSUP  a relocatable object (it has a `linking` section): its DWARF
 *             addresses are not resolved yet;
 *   -EINVAL   not a wasm module, a truncated or malformed section, or DWARF
 *             that libdw refuses;
 *   -ENOMEM.
 * On failure *out is NULL and err (if errlen > 0) holds a lowercase message.
 */
int srcmap__open_wasm(struct srcmap **out, const uint8_t *wasm, size_t len, const char *name,
		      char *err, size_t errlen);

/*
 * Open the DWARF of the ELF file at path (an executable, a DSO, or a .cwasm),
 * or of its separate debug file (by build-id, see above). Returns 0 and *out,
 * -ENODATA when neither has DWARF (not an error for callers), -ENOENT /
 * -EACCES / ... (-errno) when the file cannot be opened, -EINVAL when it is
 * not ELF, -ENOMEM; err as above. A file without DWARF of its own costs a
 * stat() per build-id directory, so callers may cache the -ENODATA answer.
 */
int srcmap__open_elf(struct srcmap **out, const char *path, char *err, size_t errlen);

/*
 * The source frames of one address, innermost first: frames[0] is where the
 * instruction's line-table row puts it (in the innermost inlined function),
 * frames[i + 1] is the call site of frames[i]'s function in its caller, the
 * last frame is the out-of-line function. Returns the count; 0 when the
 * address is outside every CU (or outside the Code section).
 *
 * addr is, for a wasm srcmap, the instruction's offset in the .wasm FILE; for
 * an ELF srcmap, an address in the file's own address space (its p_vaddr
 * values), as addr2line -e takes it: a stream's `sym-start` + sample offset
 * is a file offset (STREAM.md), which srcmap__file_address() converts.
 *
 * *frames stays valid until srcmap__close(); results are cached, so asking
 * twice for one address costs a hash lookup. A malformed DWARF unit gives 0
 * frames (libdw refuses it), never a crash.
 */
size_t srcmap__lookup(struct srcmap *m, uint64_t addr, const struct srcmap_frame **frames);

/*
 * The address in an ELF file's own address space of its byte at file offset
 * off, through the first PT_LOAD segment (in file order) holding it, as the
 * plugin turned the symbol's address into a file offset (and perf 6.1 does).
 * The same value for a file without segments and for wasm; false when no
 * segment holds off (no code there: no source).
 */
bool srcmap__file_address(const struct srcmap *m, uint64_t off, uint64_t *addr);

/* Offset of the Code section payload in the .wasm file (0 for ELF srcmaps). */
uint64_t srcmap__wasm_code_start(const struct srcmap *m);

/* Release m and everything its lookups returned. NULL is fine. */
void srcmap__close(struct srcmap *m);

/*
 * The DWARF of many ELF files, each opened once on first use (a file without
 * DWARF, or that cannot be read, is asked once too): a report's native code
 * comes from a few DSOs, each asked for many times.
 */
struct srcmap_cache {
	struct srcmap_cache_entry *v;
	size_t nr, alloc;
	struct idx_table tab;
};

/* The srcmap of the ELF file at path, or NULL (no DWARF, unreadable, out of memory). */
struct srcmap *srcmap_cache__elf(struct srcmap_cache *c, const char *path);
void srcmap_cache__release(struct srcmap_cache *c);

/*
 * Short form for a table cell, written to buf (always NUL-terminated when
 * len > 0) and returned:
 *   "fib fib.c:12:4"                      one frame
 *   "mix inl.c:4:4 (inlined into work)"   several: innermost + outermost function
 * The innermost function, the basename of its file, line and column; ":col"
 * is left out when the column is 0, ":line:col" when the line is 0, "?"
 * stands for an unknown function or file. n == 0 gives "".
 */
const char *srcmap__short(char *buf, size_t len, const struct srcmap_frame *frames, size_t n);

#endif

/* SPDX-License-Identifier: MIT */
/* Reader of wasmtime's compiled modules (.cwasm ELF): code, function symbols, address map.
 * The format is described in postproc/FORMATS.md, "The .cwasm file". */
#ifndef POSTPROC_CWASM_H
#define POSTPROC_CWASM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../plugin/symbols/elf-defs.h"
#include "addrmap.h"

/* One compiled function: an STT_FUNC symbol of size > 0 in .text. */
struct cwasm_func {
	const char *symbol;	/* ELF symbol name, e.g. "wasm[0]::function[1]::fib"; borrowed */
	uint32_t text_off;	/* st_value: offset from the start of .text */
	uint32_t size;		/* st_size: exact code length, no padding */
	int module;		/* M of wasm[M]::function[F][::name], else -1 (trampolines etc.) */
	int func_index;		/* F (function index space, imports count), else -1 */
	const char *wasm_name;	/* the "::name" suffix without "::" (wasmtime's clean()ed,
				 * possibly cut name-section name), or NULL; points into symbol */
};

struct cwasm;

/*
 * Open the .cwasm at path: the whole file (at most 1 GiB) is mapped into memory
 * (only the pages read cost memory; map-file.h) and kept until cwasm__close. Refuses, before libelf sees it, a directory
 * (-EISDIR, "PATH: is a directory") or any other non-regular file such as a
 * FIFO (-EINVAL, "PATH: not a regular file"; opened O_NONBLOCK, so never
 * waits for a writer). Refuses, with -EINVAL and a message naming the
 * file and a byte offset: anything but ELF64; a file cut inside its 64-byte
 * header; EI_OSABI other than 200 (not a wasmtime artifact); e_type other
 * than ET_REL (symbol values would not be .text offsets); no sections, or an
 * e_shstrndx that is not a string table section; no .text or a .text of
 * SHT_NOBITS or over 4 GiB; sections running past the end of the file; a
 * .symtab that is not a whole number of symbols; a corrupt .wasmtime.addrmap
 * (offsets from the start of the file, then of the section:
 * "PATH+0x2052: .wasmtime.addrmap+0x52: ...").
 *
 * Tolerated: no .symtab (-D symbols=n: no functions), no .wasmtime.addrmap
 * (-D address-map=n: cwasm__has_addrmap() is false and the caller should
 * say "the .cwasm has no address map (compiled with -D address-map=n?)"),
 * no or an unreadable .wasmtime.engine (version unknown). Function symbols
 * that lie outside .text, have no name or overlap an earlier function are
 * dropped and counted (cwasm__nr_skipped_symbols).
 *
 * Returns 0 and *out (free with cwasm__close), -EINVAL as above, -ENOENT etc.
 * from open(2), -EIO for other libelf failures (with elf_errmsg), -ENOMEM.
 * err may be NULL.
 */
int cwasm__open(struct cwasm **out, const char *path, char *err, size_t errlen);
/* Unmap and free everything; every pointer obtained from c dies. NULL is fine. */
void cwasm__close(struct cwasm *c);

/* ELF header facts: e_machine (EM_X86_64 62, EM_AARCH64 183, EM_S390 22, EM_RISCV 243), e_flags. */
uint16_t cwasm__e_machine(const struct cwasm *c);
uint32_t cwasm__e_flags(const struct cwasm *c);
/* Whether the ELF is big-endian (s390x). The address map is little-endian regardless. */
bool cwasm__big_endian(const struct cwasm *c);

/* The .text bytes (borrowed, *size bytes; NULL when empty), the very bytes that run. */
const uint8_t *cwasm__text(const struct cwasm *c, size_t *size);

/* All functions, sorted by text_off, not overlapping; *nr of them (borrowed). */
const struct cwasm_func *cwasm__funcs(const struct cwasm *c, size_t *nr);
/* Whether the file has a .symtab at all (without one there are no functions). */
bool cwasm__has_symbols(const struct cwasm *c);
/* FUNC symbols dropped: outside .text, nameless, or overlapping an earlier function. */
size_t cwasm__nr_skipped_symbols(const struct cwasm *c);

/* The function whose ELF symbol is exactly symbol (the first in text order), or NULL. */
const struct cwasm_func *cwasm__find_symbol(const struct cwasm *c, const char *symbol);
/*
 * The next function after prev (NULL: the first), in text order, whose code is
 * exactly the size bytes at code; NULL when there is no more. For jitdump
 * LOADs named by bare name-section names. Identical bodies
 * (twin trampolines, equal small functions) all match: iterate to see them.
 */
const struct cwasm_func *cwasm__find_code(const struct cwasm *c, const void *code, size_t size,
					  const struct cwasm_func *prev);
/*
 * Which function of the .cwasm some sampled code is: name is what the stream
 * calls it, code[0..code_nr) its known bytes and size its length. A sample
 * in a mapped .cwasm names the function's ELF symbol, found as such; *stale
 * then says whether the code differs from the file's (it is not the build
 * that ran). With by_code (JIT code: a jitdump load or perf map line written
 * by wasmtime's profiling agent), code not found by name is found by its
 * bytes, since the agent names a function with a name-section name by that
 * name alone, without the wasm[M]::function[F] that would identify it; among
 * identical bodies the one whose name-section name is name wins, else the
 * first. NULL when nothing matches.
 */
const struct cwasm_func *cwasm__match(const struct cwasm *c, const char *name, const uint8_t *code,
				      size_t code_nr, uint64_t size, bool by_code, bool *stale);

/* The function containing .text offset text_off, or NULL (padding, out of range). */
const struct cwasm_func *cwasm__func_at(const struct cwasm *c, uint64_t text_off);

/*
 * The decoded .wasmtime.addrmap: entries sorted by text_off (borrowed; NULL
 * and *nr = 0 when absent, empty or out of memory) and, if fmt is not NULL,
 * its encoding. cwasm__open checks the whole map but keeps only its bytes:
 * the entries are decoded when first asked for here (for tests and tools),
 * and cwasm__wasm_offset reads only the part of each function it is asked
 * about.
 */
bool cwasm__has_addrmap(const struct cwasm *c);
const struct addrmap_entry *cwasm__addrmap(const struct cwasm *c, size_t *nr,
					   enum addrmap_format *fmt);
/*
 * The wasm offset of .text offset pc inside function f, by the reference's rule
 * (addrmap__lookup over f's range). False without an address map, before f's
 * first entry, or where the position is none.
 */
bool cwasm__wasm_offset(const struct cwasm *c, const struct cwasm_func *f, uint32_t pc,
			uint32_t *wasm_off);

/*
 * The .wasmtime.engine version string ("47", "30.0.0", "" or a custom one;
 * NUL-terminated copy) or NULL if that section is missing or malformed, and
 * its leading decimal number, or -1.
 */
const char *cwasm__engine_version(const struct cwasm *c);
int cwasm__engine_major(const struct cwasm *c);

#endif

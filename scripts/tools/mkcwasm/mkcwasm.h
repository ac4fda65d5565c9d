/* SPDX-License-Identifier: MIT */
/*
 * mkcwasm's parts (scripts/tools/mkcwasm.c tells what it makes and why):
 *   mkcwasm.c         the artifact's sections laid out and written; the command line
 *   mkcwasm/encode.c  byte buffers; wasmtime's encodings of the metadata
 *                     sections, and their self-test
 *   mkcwasm/input.c   what the artifact is made from: the assembler's object
 *                     and the reviewed text tables
 * Every failure is fatal: die() says what, after the program's name, and exits 1.
 */
#ifndef SCRIPTS_TOOLS_MKCWASM_H
#define SCRIPTS_TOOLS_MKCWASM_H

#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../../postproc/annotate/wasmtime/addrmap.h"

extern const char *prog;

void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
/* realloc, or die */
void *xrealloc(void *p, size_t n);

/* A growable byte buffer: section contents are built in these. */
struct buf {
	unsigned char *data;
	size_t len, cap;
};

void buf_put(struct buf *b, const void *p, size_t n);
void buf_u8(struct buf *b, uint8_t v);
void buf_u32(struct buf *b, uint32_t v);
void buf_uleb(struct buf *b, uint64_t v);

/* encode.c: the sections' encoders (wasmtime's compile/address_map.rs,
 * compile/trap_encoding.rs, unwinder/src/exception_table.rs). */
void addrmap(struct buf *out, const struct addrmap_entry *e, size_t n, enum addrmap_format fmt);
struct trap {
	uint32_t off;
	uint8_t code;
};

void traps_plain(struct buf *out, const struct trap *t, size_t n);
void traps_blocks(struct buf *out, const struct trap *t, size_t n);
struct callsite {
	uint32_t ret;		/* return address, text offset */
	uint32_t frame;		/* SP-to-FP offset at the call */
	uint32_t handler;	/* default (catch-all) handler, text offset */
};

void exceptions(struct buf *out, const struct callsite *c, size_t n);
/* The worked examples of postproc/FORMATS.md, each printed ok or FAIL: 1 if one failed. */
int self_test(void);

/* input.c */
struct func {
	char *name;
	uint32_t off, size;
};

struct obj {
	const char *path;
	int fd;
	Elf *elf;
	unsigned char *text;
	size_t text_size;
	size_t text_shndx;
	struct func *funcs;
	size_t nfuncs;
};

/* The assembler's x86-64 ELF .o at path: its .text and its function symbols, by address. */
void obj_open(struct obj *o, const char *path);
/* The function of o holding text offset off, or NULL. */
const struct func *func_at(const struct obj *o, uint32_t off);
/* --extract-addrmap, --extract-meta: the side sections of hot.S's macros as text. */
int extract_addrmap(const char *path);
int extract_meta(const char *path);
/* The reviewed text tables back: the address map, traps and call sites. */
struct addrmap_entry *load_addrmap_text(const char *path, size_t *np);
void read_meta(const char *path, struct trap **tp, size_t *ntp, struct callsite **cp,
	       size_t *ncp);
size_t compress_addrmap(const struct obj *o, struct addrmap_entry *e, size_t n);

#endif

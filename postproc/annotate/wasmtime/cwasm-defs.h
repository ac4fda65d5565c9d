/* SPDX-License-Identifier: MIT */
/*
 * The .cwasm reader's insides (cwasm.h), shared by its files and nobody else:
 * cwasm.c reads the file (its ELF checked, its sections, symbols and address
 * map), cwasm-index.c finds functions in it (by symbol, by code, by place).
 */
#ifndef POSTPROC_CWASM_DEFS_H
#define POSTPROC_CWASM_DEFS_H

#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stddef.h>
#include <pthread.h>
#include <stdint.h>

#include "cwasm.h"
#include "lib/map-file.h"
#include "lib/util.h"

/* Functions by (code hash, size): the index behind cwasm__find_code. */
struct code_key {
	uint64_t hash;
	uint32_t size;
	uint32_t idx;
};

struct cwasm {
	const char *path;		/* borrowed from the caller, only while opening */
	struct mapped_file file;	/* the whole file, mapped: every borrowed pointer lives in it */
	uint8_t *image;			/* file.buf */
	Elf *elf;			/* elf_memory() over image */
	uint64_t file_size;
	GElf_Ehdr eh;

	const uint8_t *text;
	size_t text_size;
	size_t text_ndx;

	struct cwasm_func *funcs;	/* sorted by text_off */
	size_t nr_funcs;
	size_t nr_skipped;
	bool has_symtab;
	struct idx_table by_name;
	/* nr_funcs of them, by size, made by the first cwasm__find_code();
	 * the keys of one size hashed and sorted when a code of that size is
	 * first looked for (code_hashed set at their first), as hashing every
	 * function's code would read all of .text (and keep it resident) */
	struct code_key *by_code;
	bool *code_hashed;

	bool has_addrmap;
	const uint8_t *addrmap_buf;	/* the section's bytes, checked whole by cwasm__open */
	size_t addrmap_len;
	size_t nr_addrmap;
	enum addrmap_format addrmap_fmt;
	/* decoded when asked for: all of it (cwasm__addrmap), or what decides
	 * one function's lookups (funcs[i]'s in fmaps[i]): a map of millions of
	 * entries is not held for the few functions shown */
	struct addrmap_entry *addrmap;
	struct fmap {
		struct addrmap_entry *e;
		size_t nr;
		bool done;
	} *fmaps;
	pthread_mutex_t lazy_lock;	/* addrmap, fmaps, by_code */

	char *engine_version;		/* owned */
	int engine_major;
};

/* c->by_name, once c->funcs are read (c->by_code comes when needed). Returns 0 or -ENOMEM. */
int cwasm__index(struct cwasm *c);

#endif

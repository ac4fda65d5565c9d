/* SPDX-License-Identifier: MIT */
/* Code objects of file-backed code: one per (DSO, symbol), with its code read once. */
#ifndef PLUGIN_NATIVES_H
#define PLUGIN_NATIVES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../lib/hash.h"

/* How a native object's function was found (the stream's source=, STREAM.md `object`). */
#define NATIVE_SOURCES(X)			\
	X(PERF, "perf")		/* perf's own resolution (resolve_ip) */	\
	X(SYMTAB, "symtab")	/* a .symtab: the file's or a debug file's */	\
	X(DYNSYM, "dynsym")	/* the .dynsym of a stripped file */		\
	X(PLT, "plt")		/* a PLT entry: name@plt */			\
	X(MINIDEBUG, "minidebuginfo")	/* the .symtab in .gnu_debugdata */	\
	X(DEBUGINFOD, "debuginfod")	/* a debug file from debuginfod */	\
	X(EH_FRAME, "eh-frame")	/* no symbol: the bounds of an .eh_frame FDE */	\
	X(PERF_MAP, "perf-map")	/* a line of /tmp/perf-<pid>.map (no code bytes) */

enum native_source {
#define NATIVE_SOURCE_ENUM(suffix, name) NATIVE_FROM_##suffix,
	NATIVE_SOURCES(NATIVE_SOURCE_ENUM)
#undef NATIVE_SOURCE_ENUM
	NATIVE_FROM__NR
};

/* The wire name of a source; "?" outside the enum. */
const char *native_source_name(enum native_source s);

struct native_obj {
	char *dso;		/* owned: the file perf mapped */
	char *name;		/* owned: symbol name */
	uint64_t sym_start;	/* symbol start in the DSO's own address space */
	uint64_t addr;		/* run-time address of the symbol start, first pid seen */
	uint64_t size;		/* symbol size (sym_end - sym_start) */
	uint32_t pid;		/* first pid seen */
	uint16_t e_machine;	/* from the DSO's ELF header, else the host's */
	bool cwasm;		/* ELF OSABI 200: a wasmtime compiled module */
	bool machine_read;	/* e_machine was read from the file (not the host's) */
	uint8_t source;		/* enum native_source */
	/* 1 + the id of the other range of one function, written with it (BEAM's
	 * prologue or body in a perf map: lib/jit-beam.h); 0: none */
	uint32_t other;
	uint8_t *code;		/* owned, code_len bytes from the symbol start (may be fewer than size) */
	size_t code_len;
};

struct natives {
	struct native_obj *objs;
	size_t nr, alloc;
	struct idx_table index;	/* (dso, name, sym_start) -> objs */
	struct dso_info *dsos;	/* per-DSO ELF facts, read once */
	size_t dsos_nr, dsos_alloc;
};

void natives__init(struct natives *n);
void natives__release(struct natives *n);

/*
 * The object id of (dso, name, sym_start), adding it if it is new (*created is
 * then true and the caller fills addr/size/pid/code; e_machine and cwasm are
 * set here from the DSO's ELF header, read once per DSO). Returns the id (>= 0)
 * or -ENOMEM.
 */
long natives__get(struct natives *n, const char *dso, const char *name, uint64_t sym_start,
		  bool *created);

/* The ELF machine of a file process pid ran code of (the first sampled
 * object of pid whose file's ELF header was read), its path in *dso; 0
 * (EM_NONE) when no such file is known. */
uint16_t natives__machine_of(const struct natives *n, uint32_t pid, const char **dso);

#endif

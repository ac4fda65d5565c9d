/* SPDX-License-Identifier: MIT */
/*
 * The symbols of one mapped file, found and chosen as perf 6.1 finds and
 * chooses them (NATIVE.md "Symbols as perf finds them"), built on first use:
 * the same candidate files in the same order (a .gnu_debuglink target, perf's
 * build-id cache, /usr/lib/debug by path and by build-id, the file itself),
 * each refused when its build-id is not the recording's; .symtab then .dynsym
 * of the first file with a .symtab, PLT entries named name@plt from the first
 * with a .dynsym; perf's filters, address adjustment, end fix-ups and choice
 * among aliases; perf's tree for the lookup (symtree.h). Where perf finds no
 * .symtab, MiniDebugInfo (.gnu_debugdata) and debuginfod may still give one.
 * An address no symbol holds gets the bounds of the .eh_frame FDE around it.
 * Under perf's --symfs the candidates are read under its root; a file none
 * of them has is looked for in search directories (NATIVE.md "Files that
 * are not where perf.data says").
 *
 * Addresses here are file offsets (perf's map_ip: ip - map start + pgoff),
 * the space perf's symbol starts are in.
 */
#ifndef PLUGIN_ELFSYMS_H
#define PLUGIN_ELFSYMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct warnings;

/* Where to look besides the file (all borrowed; must outlive the index). */
struct elfsyms_config {
	const char *buildid_dir;	/* perf's build-id cache: $PERF_BUILDID_DIR, else ~/.debug */
	const char *debug_dir;		/* /usr/lib/debug */
	const char *symfs;		/* perf script --symfs DIR: every candidate but the
					 * build-id cache's is read under DIR; NULL: none */
	const char *const *search;	/* where a file none of perf's candidates has is
					 * looked for, by name and by build-id (perf.data's
					 * directory, --dlarg search=DIR) */
	size_t search_nr;
	bool debuginfod;		/* DEBUGINFOD_URLS is set: ask debuginfod for a .symtab */
	struct warnings *warnings;	/* where a refused file is said (lib/warnings.h), or NULL */
	size_t minidebug_max;		/* bytes MiniDebugInfo may expand to; 0: MINIDEBUG_MAX */
};

enum elfsyms_status {
	ELFSYMS_OK,		/* a file with a .symtab or .dynsym was found (maybe no symbols) */
	ELFSYMS_NO_FILE,	/* no candidate could be opened as ELF (deleted, not a file) */
	ELFSYMS_MISMATCH,	/* files exist, but none has the recording's build-id */
	ELFSYMS_UNREADABLE,	/* the file is there, but libelf cannot read it as ELF */
};

/* Where the symbols came from, for the report's notes. */
enum elfsyms_origin {
	ELFSYMS_FROM_NONE,	/* no symbol table at all */
	ELFSYMS_FROM_DYNSYM,	/* .dynsym only (a stripped file): what perf has */
	ELFSYMS_FROM_SYMTAB,	/* a .symtab perf also finds (the file, a debug file) */
	ELFSYMS_FROM_MINIDEBUG,	/* .gnu_debugdata (perf 6.1 does not read it) */
	ELFSYMS_FROM_DEBUGINFOD,	/* a debug file from debuginfod (perf 6.1 does not ask) */
};

struct elfsyms;

/* Where a hit's name came from. */
enum elfsyms_table {
	ELFSYMS_SYMTAB,		/* a .symtab (the file's, a debug file's, MiniDebugInfo's) */
	ELFSYMS_DYNSYM,		/* the .dynsym */
	ELFSYMS_PLT,		/* a PLT entry, named after the .dynsym symbol it jumps to */
	ELFSYMS_FDE,		/* no symbol: an .eh_frame FDE's bounds */
};

/* What holds a file offset. */
struct elfsyms_hit {
	uint64_t key;		/* stable per symbol or FDE while the index lives */
	const char *name;	/* the raw ELF name (borrowed), name@plt for PLT entries;
				 * NULL for an FDE: the caller names it as perf names unknown code */
	uint64_t start, end;	/* file offsets, [start, end) */
	enum elfsyms_table table;
};

/*
 * The index of the file perf's dso path names (a path, or "[vdso]": the vdso
 * of this process, which is perf's own). build_id (build_id_size bytes, or
 * none when 0) is the recording's: candidates with another are refused.
 * Reads the candidates' headers and symbol tables now; no demangling.
 * NULL only when out of memory.
 */
struct elfsyms *elfsyms__open(const char *path, const uint8_t *build_id, size_t build_id_size,
			      const struct elfsyms_config *cfg);
void elfsyms__free(struct elfsyms *es);

enum elfsyms_status elfsyms__status(const struct elfsyms *es);
enum elfsyms_origin elfsyms__origin(const struct elfsyms *es);
/* The file found in a search directory, not where perf looks (cfg->search);
 * NULL when the file was where perf looks, or nowhere. */
const char *elfsyms__found_elsewhere(const struct elfsyms *es);
/* A file of the recorded name in a search directory refused for its build-id
 * (none was found elsewhere); NULL when none. */
const char *elfsyms__refused_elsewhere(const struct elfsyms *es);
/* The file itself (its code) where it was read from a place the recorded
 * path does not say and perf's build-id cache is not: under --symfs's root,
 * or found elsewhere; NULL when read at its path, from the cache, or not at all. */
const char *elfsyms__read_from(const struct elfsyms *es);
/* The file the symbol table came from (the file itself, a debug file); NULL when none. */
const char *elfsyms__symbol_file(const struct elfsyms *es);
/* Symbols read into the index (aliases perf removes included). */
size_t elfsyms__nr(const struct elfsyms *es);
/* Bytes the index holds (tree and tables; the mapped files not counted). */
size_t elfsyms__memory(const struct elfsyms *es);
/* ELF machine of the file (EM_*), 0 when unknown; OSABI 200: a wasmtime .cwasm. */
uint16_t elfsyms__e_machine(const struct elfsyms *es);
bool elfsyms__cwasm(const struct elfsyms *es);

/* The symbol perf finds at file offset off, else the FDE around it. false: neither. */
bool elfsyms__find(struct elfsyms *es, uint64_t off, struct elfsyms_hit *hit);

/* Up to len code bytes at file offset off of the file the code runs from
 * (never a debug file); the number read (0 when none). */
size_t elfsyms__read(const struct elfsyms *es, uint64_t off, void *buf, size_t len);

#endif

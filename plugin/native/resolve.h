/* SPDX-License-Identifier: MIT */
/*
 * Native samples resolved by the plugin itself, as perf script would resolve
 * them but without its symbol load (NATIVE.md): the recording's maps
 * (mmaps.h) say which file or memory an address was in at the sample's time;
 * the file's symbols (elfsyms.h, read on its first sample), or the process's
 * perf map (perfmap.h), say which function; each function becomes one native
 * object, its code read once from the file.
 */
#ifndef PLUGIN_RESOLVE_H
#define PLUGIN_RESOLVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../symbols/elfsyms.h"
#include "mmaps.h"
#include "natives.h"
#include "../jit/perfmap.h"

/* What became of a sample. */
enum resolve_kind {
	RESOLVE_SYMBOL,		/* a function of a file (an ELF symbol, a PLT entry, an FDE) */
	RESOLVE_PERFMAP,	/* a function a perf map names (JIT code; no code bytes) */
	RESOLVE_NO_SYMBOL,	/* a file, but no symbol and no FDE holds the address */
	RESOLVE_JIT_NO_LOAD,	/* anonymous or JIT-looking memory no perf map line holds */
	RESOLVE_NO_MAP,		/* no mapping of the process held the address */
	RESOLVE_DEFER,		/* the plugin cannot decide: perf's own resolution must */
};

struct resolve_hit {
	enum resolve_kind kind;
	uint32_t native;	/* RESOLVE_SYMBOL, RESOLVE_PERFMAP: the natives id */
	uint64_t off;		/* ... and the sample's offset in it */
};

/* A file that held samples but no symbol: for the warning that names it. */
struct resolve_file_stats {
	uint64_t no_symbol;	/* samples no symbol or FDE held */
	uint64_t fde;		/* samples in functions named by their FDE */
};

struct resolve_perfmap;
struct resolve_objcache;

struct warnings;

struct resolve {
	struct mmaps maps;
	struct warnings *warnings;	/* the run's (borrowed), or NULL: what a reader refused */
	bool force;			/* perf script -f: read other users' perf maps, as perf does */
	bool usable;			/* the maps were read: natives are decided here */
	char why_not[256];		/* else why perf decides them */
	struct elfsyms_config cfg;
	char *buildid_dir;		/* owned, for cfg */
	char *symfs;			/* owned, for cfg */
	char **search;			/* owned, for cfg */
	size_t search_nr;
	struct resolve_perfmap *pmaps;	/* one per perf map read */
	size_t pmaps_nr, pmaps_alloc;
	struct resolve_objcache *cache;	/* (file or perf map, symbol) -> natives id */
	uint8_t *code_buf;
	struct resolve_file_stats *file_stats;	/* per mmaps file of the walk */
	size_t file_stats_nr;
	/* counts for the run's warnings and the benchmarks */
	uint64_t deferred;
	size_t files_indexed, symbols_indexed, index_bytes;
};

/* An empty resolver (not usable until resolve__ready); what the readers
 * refuse (a perf map, a debug file) is said in warnings (NULL: not said). */
void resolve__init(struct resolve *r, struct warnings *warnings);
void resolve__release(struct resolve *r);

/*
 * Where the files are besides their recorded paths, before resolve__ready:
 * perf's --symfs root (NULL: none), and the directories a file none of
 * perf's candidates has is looked for in: perf_data's own (unless NULL or
 * "-"), then dirs in order. 0 or -ENOMEM.
 */
int resolve__places(struct resolve *r, const char *symfs, const char *perf_data, const char *const *dirs,
		    size_t dirs_nr);

/* For each file read from a search directory, not its recorded path, and
 * each one refused there for its build-id, in file order: calls fn (path as
 * recorded, the file found, refused). */
void resolve__files_elsewhere(const struct resolve *r,
			      void (*fn)(void *arg, const char *path, const char *found, bool refused), void *arg);

/* The visitor that fills r's maps in the walk of perf.data (its arg is r). */
void resolve__visitor(struct resolve *r, struct perfdata_visitor *v);

/*
 * The walk is over: with its result (ret, stats) decide whether the plugin
 * can resolve natives (a complete walk of a file) and index the maps; else
 * say why not (why: pipe input, a flag of perf's own). debuginfod: the user
 * set DEBUGINFOD_URLS.
 */
void resolve__ready(struct resolve *r, int walk_ret, const struct perfdata_scan_stats *st, const char *why);

/* Resolve a user-mode sample of process pid at ip and time; new natives go into n. */
void resolve__sample(struct resolve *r, struct natives *n, uint32_t pid, uint64_t ip, uint64_t time,
		     struct resolve_hit *hit);
/* The same for another address of such a sample (a branch-stack entry's
 * source or target), counted in none of the samples' statistics. */
void resolve__address(struct resolve *r, struct natives *n, uint32_t pid, uint64_t addr, uint64_t time,
		      struct resolve_hit *hit);

/*
 * A symbol perf resolved (the samples perf decides): the name this resolver
 * gives the function perf found in file dso (its build-id as perf has it) at
 * file offset off, starting at sym_start, so that both ways name a function
 * alike: perf's names are demangled, the stream's are the files' own. NULL
 * when the file's index has no symbol starting there (perf's name is used).
 */
const char *resolve__name(struct resolve *r, const char *dso, const uint8_t *build_id, size_t build_id_size,
			  uint64_t off, uint64_t sym_start, enum native_source *source);

/* Bytes the symbol indexes and perf maps hold now (for --dlarg stats). */
size_t resolve__memory(const struct resolve *r);

/* For each file with samples no symbol held (or only FDEs), in file order:
 * calls fn (path, why, not_here, stats); why says what the plugin found
 * (stripped, build-id mismatch, missing); not_here: the file is missing or
 * another build (what reading a recording elsewhere leads to). */
void resolve__files_without_symbols(const struct resolve *r,
				    void (*fn)(void *arg, const char *path, const char *why, bool not_here,
					       const struct resolve_file_stats *st),
				    void *arg);

#endif

/* SPDX-License-Identifier: MIT */
/* Reader of wasmtime's --emit-clif directory: Cranelift IR text keyed by symbol and wasm offset.
 * The format is described in postproc/FORMATS.md, "CLIF dumps". */
#ifndef POSTPROC_CLIF_H
#define POSTPROC_CLIF_H

#include <stddef.h>
#include <stdint.h>

/* Files larger than this are skipped (and counted as unidentified): bounded memory. */
#define CLIF_MAX_FILE_SIZE (256u << 20)

struct clif_set;
struct clif_func;

/* What clif_set__load passed over; nothing here is an error. */
struct clif_stats {
	size_t files;		/* CLIF files loaded (a duplicate counts once per file) */
	size_t unidentified;	/* regular files skipped: no header line, unreadable, too big */
	size_t duplicates;	/* files naming a symbol an earlier file named; the later won */
	size_t bad_lines;	/* lines skipped: bad srcloc, unclosed <tag>, control characters */
};

/*
 * Load every regular file of dir (any name: *.clif in practice). A file is a
 * CLIF file if its first line is exactly
 *     ;; Intermediate Representation of function <SYMBOL>:
 * (written by wasmtime since v35); SYMBOL is the function's
 * ELF symbol, so no file-name guessing is needed. Other files, subdirectories
 * and non-regular files are passed over. Files are read in strcmp order of
 * their names, so when two files name the same symbol, the later in that
 * order wins, deterministically.
 *
 * Lines: an instruction line whose first non-blank
 * character is '@' carries its wasm offset as hex digits after the '@' (any
 * number of them, unlike the reference's 4: offsets >= 0x10000 work), then
 * blanks, then the instruction text, kept trimmed and whole (constant
 * annotations "  ; v3 = 0" included). A guest-debug tag prefix "<...> " before
 * the '@' is dropped. All other lines (preamble, block headers, instructions
 * without srcloc, value aliases, "}") carry no offset and are not kept. An '@'
 * not followed by 1..8 significant hex digits and a blank, a value of
 * 0xffffffff, an empty instruction or a control character other than tab
 * (a lone CR or a NUL, say; a CR before the newline is fine) make a bad
 * line: skipped and counted.
 *
 * Returns 0 and *out (free with clif_set__free), a negative errno if dir
 * cannot be read ("DIR: strerror" in err), or -ENOMEM. err may be NULL.
 */
int clif_set__load(struct clif_set **out, const char *dir, char *err, size_t errlen);
void clif_set__free(struct clif_set *s);

const struct clif_stats *clif_set__stats(const struct clif_set *s);
/*
 * The first thing passed over, as "DIR/FILE:LINE: what" or "DIR/FILE: what",
 * for a one-line warning next to the counts; NULL if nothing was.
 */
const char *clif_set__first_warning(const struct clif_set *s);
/* Number of distinct functions loaded. */
size_t clif_set__nr(const struct clif_set *s);

/*
 * The function whose header names exactly symbol (e.g. "wasm[0]::function[1]::fib"),
 * else the one named symbol with a stale ABI suffix ("_wasm_call", "_array_call",
 * "_patchable_call": wasmtime 50, FORMATS.md), or NULL.
 */
const struct clif_func *clif_set__find(const struct clif_set *s, const char *symbol);

/*
 * Parse one CLIF text of len bytes (need not be NUL-terminated) named name
 * (for warnings). Returns 0 and *out (free with clif_func__free), -ENOENT if
 * the first line is not the header line, or -ENOMEM. *bad_lines (may be
 * NULL) gets the number of bad lines; the first is described in warn
 * ("NAME:LINE: ...") if warn is not NULL. For tests and fuzzing; the set
 * loader uses it for every file.
 */
int clif_func__parse(struct clif_func **out, const char *buf, size_t len, const char *name,
		     size_t *bad_lines, char *warn, size_t warnlen);
void clif_func__free(struct clif_func *f);

/* The SYMBOL of the header line, and the file it came from ("" for clif_func__parse). */
const char *clif_func__symbol(const struct clif_func *f);
const char *clif_func__path(const struct clif_func *f);

/*
 * All CLIF texts whose srcloc is wasm_off, in file order, joined with "; "
 * as the reference does, or NULL. Borrowed from f.
 */
const char *clif_func__text(const struct clif_func *f, uint32_t wasm_off);
/* Number of distinct wasm offsets with CLIF text. */
size_t clif_func__nr_offsets(const struct clif_func *f);

#endif

/* SPDX-License-Identifier: MIT */
/*
 * The symbols of one perf dso, kept as perf 6.1 keeps them and looked up as
 * perf looks them up: added in batches (a symbol table, a perf map, the PLT),
 * a batch followed or not by perf's fix-ups (symbols__fixup_end: a symbol of
 * size 0 ends where the next starts, the last one at the page after its
 * start; symbols__fixup_duplicate: of symbols with one start the one
 * choose_best_symbol prefers stays), and found by address.
 *
 * They are held sorted by start (perf's tree in order: an equal start goes
 * after the ones already there), so that a lookup where at most one symbol
 * holds the address is a binary search. Of aliases (equal starts) the one
 * perf keeps is chosen when a lookup first meets them: the choice reads
 * their names, and most are never looked up. Where several symbols hold the
 * address, perf returns the first its tree search meets, which depends on
 * the tree's shape: the first such lookup builds perf's tree (symtree.h) by
 * replaying the insertions and removals perf made, in its order, and asks it.
 */
#ifndef PLUGIN_SYMSET_H
#define PLUGIN_SYMSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "symtree.h"

struct symset_sym {
	uint64_t start, end;	/* [start, end), or only start when end == start */
	const char *name;	/* borrowed: must outlive the set */
	uint32_t seq;		/* the order it was added in (perf's tree node) */
	uint8_t binding;	/* STB_* (choose_best_symbol prefers global, then non-weak) */
	uint8_t tag;		/* the caller's: where the symbol came from */
	uint8_t flags;		/* symset.c's: removed as an alias; aliases chosen */
};

struct symset {
	struct symset_sym *v;	/* sorted by (start, seq) once a batch is committed */
	size_t nr, alloc;
	size_t committed;	/* v[0, committed) is sorted; the rest is the open batch */
	uint32_t fixed_seq;	/* symbols before it were in a batch with fix-ups */
	size_t leftmost, second;	/* after symset__done: perf's leftmost node and its successor */
	uint64_t *pmax;		/* after symset__done: the largest end of v[1..i] (0 at 0) */
	uint64_t *seq_start;	/* the start of every symbol ever added, by seq */
	size_t seq_nr, seq_alloc;
	uint32_t *ops;		/* replay log: "insert up to seq n", "fix-ups" */
	size_t ops_nr, ops_alloc;
	struct symtree tree;	/* perf's tree, once a lookup needed it */
	uint32_t *index_of_seq;
	bool tree_built;
};

void symset__init(struct symset *s);
void symset__release(struct symset *s);

/* Add a symbol to the open batch: perf's symbol__new (end = start + size, or
 * start when size is 0). false when out of memory. */
bool symset__add(struct symset *s, uint64_t start, uint64_t size, const char *name, uint8_t binding,
		 uint8_t tag);

/* Make room for n more symbols at once (a table's: one allocation, not a
 * doubling series). false when out of memory. */
bool symset__reserve(struct symset *s, size_t n);

/* Close the batch: its symbols go into the tree (no fix-ups, as perf's
 * symbols__insert alone). false when out of memory. */
bool symset__commit(struct symset *s);

/* Close the batch, then perf's fix-ups over the whole set (as after each
 * symbol table perf reads from an ELF file). false when out of memory. */
bool symset__commit_fixed(struct symset *s);

/* No more symbols: ready the lookups. false when out of memory (the set is then empty). */
bool symset__done(struct symset *s);

/* How many symbols perf keeps (all aliases chosen: for tests; s->nr counts
 * every symbol added). */
size_t symset__kept(struct symset *s);

/* perf's symbols__find: the symbol holding ip, or NULL. */
const struct symset_sym *symset__find(struct symset *s, uint64_t ip);

/* perf's tree's answer, the tree built whatever the address (for tests: the
 * answers of symset__find and this one must never differ). */
const struct symset_sym *symset__find_in_tree(struct symset *s, uint64_t ip);

/* Bytes held (for the benchmarks' memory figures). */
size_t symset__memory(const struct symset *s);

/* What perf 6.1 shows for a symbol name: its demangler's output (libiberty's
 * cplus_demangle without options: no parameters; OCaml's caml names), or
 * NULL when the name is shown as it is. malloc'ed. */
char *symset__perf_demangle(const char *name);

#endif

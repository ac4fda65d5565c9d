/* SPDX-License-Identifier: MIT */
/*
 * perf's symbol lookup, reproduced: the symbols of one object in a red-black
 * tree keyed by start address, shaped exactly as perf's own tree is after the
 * same insertions and removals, so that a lookup returns the symbol perf
 * returns even where symbols overlap (a big symbol over a small one, lines of
 * a perf map at reused addresses). Where at most one symbol covers an address
 * any search tree gives that one; where several do, perf returns the first one
 * its search path meets, which depends on the tree's shape. perf keeps its
 * symbols in the kernel's red-black tree (tools/lib/rbtree.c), whose insertion
 * and removal are the classic algorithms (insertion fix-up by recolouring and
 * at most two rotations; removal of a node with two children by its in-order
 * successor, then the four-case fix-up); this is the same algorithm written
 * anew, and plugin/tests/symbols/test-symtree.c checks it against perf's lookups.
 *
 * Nodes are numbered 1..nr in insertion order and never move; 0 is "none".
 * A removed node keeps its number (it is only unlinked).
 */
#ifndef PLUGIN_SYMTREE_H
#define PLUGIN_SYMTREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A node's links; its range is in the tree's start[] and end[] (kept apart:
 * building a big tree touches only these 16 bytes a node). */
struct symtree_node {
	uint32_t child[2], parent;	/* child[0] left, child[1] right */
	uint8_t red;
	uint8_t unlinked;
};

/* Which in-order ranks are in the tree: a bitset with summary levels. */
#define SYMTREE_LEVELS 6

struct symtree {
	struct symtree_node *n;	/* n[0] is unused: index 0 means none */
	uint64_t *start, *end;	/* each node's range: perf's symbol, [start, end), or
				 * only start when end == start; end may be set later */
	size_t nr, alloc;	/* nodes 1..nr */
	uint32_t root;
	/* ranked mode (symtree__ranked) */
	uint64_t *bits[SYMTREE_LEVELS];
	int levels;
	uint32_t *rank_node;	/* rank -> node */
	uint32_t *node_rank;	/* node -> rank */
};

void symtree__init(struct symtree *t);
void symtree__release(struct symtree *t);

/* Insert [start, end) where perf would: an equal start goes to the right of
 * (after) the nodes already there. Returns the node's number, or 0 when out
 * of memory (or past 2^32 - 2 nodes). */
uint32_t symtree__insert(struct symtree *t, uint64_t start, uint64_t end);

/*
 * Ranked mode, for building a big tree fast: when the in-order rank of every
 * node to be inserted is known beforehand (its place among all of them,
 * sorted by start, a later insertion after an earlier one of the same start),
 * an insertion finds its place from its neighbours in rank (the tree's
 * in-order neighbours) instead of descending from the root. The tree is the
 * same; the descent's cache misses are gone. 0 or -ENOMEM; then insert only
 * with symtree__insert_ranked, ranks < nodes, each once.
 */
int symtree__ranked(struct symtree *t, size_t nodes);
uint32_t symtree__insert_ranked(struct symtree *t, uint64_t start, uint64_t end, uint32_t rank);

/* Unlink node id (linked, non-zero). */
void symtree__erase(struct symtree *t, uint32_t id);

/* perf's symbols__find: walk down from the root; the first node whose range
 * holds ip (start <= ip < end, or ip == start == end) is the answer. 0: none. */
uint32_t symtree__find(const struct symtree *t, uint64_t ip);

/* In-order walk over the linked nodes: first, and the one after id; 0 at the end. */
uint32_t symtree__first(const struct symtree *t);
uint32_t symtree__next(const struct symtree *t, uint32_t id);

/* Whether the tree is a valid red-black tree ordered by start (for tests). */
bool symtree__valid(const struct symtree *t);

#endif

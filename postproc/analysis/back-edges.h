/* SPDX-License-Identifier: MIT */
/* Which edges of a control-flow graph close loops (back-edges.c): one search for the report and its drawings. */
#ifndef POSTPROC_ANALYSIS_BACK_EDGES_H
#define POSTPROC_ANALYSIS_BACK_EDGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A directed graph of nodes_nr nodes as adjacency lists: node n's edges are
 * the slots off[n] .. off[n + 1] - 1 (off has nodes_nr + 1 entries), slot k
 * leads to node to[k]. A depth-first walk from entry (0 when out of range),
 * then from every node it did not reach in index order, follows each node's
 * slots in order; a slot leading to a node still on the walk's path closes a
 * cycle (a self-loop does): back[k] is set true for it, the other slots are
 * left as they were. Every cycle has at least one. Returns 0 or -ENOMEM.
 * O(nodes + edges).
 */
int back_edges__mark(size_t nodes_nr, size_t entry, const size_t *off, const uint32_t *to,
		     bool *back);

#endif

/* SPDX-License-Identifier: MIT */
/* Back edges: a depth-first walk meets a node still open. */
#include <errno.h>
#include <stdlib.h>

#include "back-edges.h"

int back_edges__mark(size_t nodes_nr, size_t entry, const size_t *off, const uint32_t *to,
		     bool *back)
{
	enum { WHITE, OPEN, DONE };
	struct frame {
		size_t node, next;	/* next: the slot of the edge to follow */
	} *stack;
	unsigned char *state;

	if (!nodes_nr)
		return 0;
	if (entry >= nodes_nr)
		entry = 0;
	stack = malloc(nodes_nr * sizeof(*stack));
	state = calloc(nodes_nr, 1);
	if (!stack || !state) {
		free(stack);
		free(state);
		return -ENOMEM;
	}
	/* The entry first; then whatever it does not reach (OSR entries, landing
	 * pads, code reached only through unknown indirect jumps). */
	for (size_t r = 0; r <= nodes_nr; r++) {
		size_t root = r == 0 ? entry : r - 1, sp = 0;

		if (state[root] != WHITE)
			continue;
		state[root] = OPEN;
		stack[sp++] = (struct frame){ root, off[root] };
		while (sp) {
			struct frame *top = &stack[sp - 1];
			size_t k;

			if (top->next == off[top->node + 1]) {
				state[top->node] = DONE;
				sp--;
				continue;
			}
			k = top->next++;
			if (state[to[k]] == OPEN) {
				back[k] = true;
			} else if (state[to[k]] == WHITE) {
				state[to[k]] = OPEN;
				stack[sp++] = (struct frame){ to[k], off[to[k]] };
			}
		}
	}
	free(stack);
	free(state);
	return 0;
}

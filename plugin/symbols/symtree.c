// SPDX-License-Identifier: MIT
/* perf's symbol lookup over a red-black tree of the same shape (see symtree.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "symtree.h"

#define NODE(t, i) (&(t)->n[i])

void symtree__init(struct symtree *t)
{
	memset(t, 0, sizeof(*t));
}

void symtree__release(struct symtree *t)
{
	free(t->n);
	free(t->start);
	free(t->end);
	for (int l = 0; l < SYMTREE_LEVELS; l++)
		free(t->bits[l]);
	free(t->rank_node);
	free(t->node_rank);
	memset(t, 0, sizeof(*t));
}

/* Room for n nodes (0..n-1). */
static bool grow(struct symtree *t, size_t n)
{
	struct symtree_node *nn;
	uint64_t *ns, *ne;

	if (n <= t->alloc)
		return true;
	if (n >= UINT32_MAX || !(nn = reallocarray(t->n, n, sizeof(*nn))))
		return false;
	t->n = nn;
	if (!(ns = reallocarray(t->start, n, sizeof(*ns))))
		return false;
	t->start = ns;
	if (!(ne = reallocarray(t->end, n, sizeof(*ne))))
		return false;
	t->end = ne;
	t->alloc = n;
	return true;
}

int symtree__ranked(struct symtree *t, size_t nodes)
{
	size_t n = nodes ? nodes : 1;

	t->levels = 0;
	do {
		n = (n + 63) / 64;
		if (t->levels == SYMTREE_LEVELS || !(t->bits[t->levels++] = calloc(n, sizeof(uint64_t))))
			return -ENOMEM;
	} while (n > 1);
	t->rank_node = calloc(nodes ? nodes : 1, sizeof(*t->rank_node));
	t->node_rank = calloc(nodes + 1, sizeof(*t->node_rank));
	if (!t->rank_node || !t->node_rank)
		return -ENOMEM;
	return grow(t, nodes + 1) ? 0 : -ENOMEM;
}

static void rank_set(struct symtree *t, uint64_t r, bool on)
{
	for (int l = 0; l < t->levels; l++, r >>= 6) {
		uint64_t *w = &t->bits[l][r >> 6], was = *w;

		*w = on ? was | 1ULL << (r & 63) : was & ~(1ULL << (r & 63));
		/* the summary bit above changes only when the word became empty or stopped being */
		if (on ? was != 0 : *w != 0)
			break;
	}
}

/* The nearest rank below r (down) or above it (!down) that is in the tree, or -1. */
static int64_t rank_near(const struct symtree *t, uint64_t r, bool down)
{
	int l;

	for (l = 0; l < t->levels; l++, r >>= 6) {
		uint64_t w = t->bits[l][r >> 6], b = r & 63;

		w &= down ? (1ULL << b) - 1 : b == 63 ? 0 : ~0ULL << (b + 1);
		if (w) {
			r = (r & ~63ULL) | (uint64_t)(down ? 63 - __builtin_clzll(w) : __builtin_ctzll(w));
			break;
		}
	}
	if (l == t->levels)
		return -1;
	while (l-- > 0) {
		uint64_t w = t->bits[l][r];

		r = r * 64 + (uint64_t)(down ? 63 - __builtin_clzll(w) : __builtin_ctzll(w));
	}
	return (int64_t)r;
}

static bool is_red(const struct symtree *t, uint32_t i)
{
	return i && NODE(t, i)->red;
}

/* Put child where old hangs below parent (or at the root). */
static void replace_child(struct symtree *t, uint32_t old, uint32_t child, uint32_t parent)
{
	if (!parent)
		t->root = child;
	else if (NODE(t, parent)->child[0] == old)
		NODE(t, parent)->child[0] = child;
	else
		NODE(t, parent)->child[1] = child;
}

/*
 * The rotations both fix-ups use: top's place (its parent, its colour) goes
 * to up, which has just become top's parent; top takes colour red.
 */
static void rotate_parents(struct symtree *t, uint32_t top, uint32_t up, uint8_t top_red)
{
	struct symtree_node *o = NODE(t, top), *n = NODE(t, up);
	uint32_t parent = o->parent;

	n->parent = parent;
	n->red = o->red;
	o->parent = up;
	o->red = top_red;
	replace_child(t, top, up, parent);
}

static void insert_fixup(struct symtree *t, uint32_t id);

uint32_t symtree__insert_ranked(struct symtree *t, uint64_t start, uint64_t end, uint32_t rank)
{
	uint32_t id = (uint32_t)++t->nr, parent = 0, *link = &t->root;
	int64_t pred = rank_near(t, rank, true), succ;

	/* In-order neighbours P < S: the new node goes right of P when P has no
	 * right child, else left of S (then S has no left child). */
	if (pred >= 0 && !t->n[t->rank_node[pred]].child[1]) {
		parent = t->rank_node[pred];
		link = &t->n[parent].child[1];
	} else if ((succ = rank_near(t, rank, false)) >= 0) {
		parent = t->rank_node[succ];
		link = &t->n[parent].child[0];
	}
	*NODE(t, id) = (struct symtree_node){ .parent = parent, .red = 1 };
	t->start[id] = start;
	t->end[id] = end;
	*link = id;
	t->rank_node[rank] = id;
	t->node_rank[id] = rank;
	rank_set(t, rank, true);
	insert_fixup(t, id);
	return id;
}

uint32_t symtree__insert(struct symtree *t, uint64_t start, uint64_t end)
{
	uint32_t id, parent = 0, *link = &t->root;

	if (t->nr + 2 > t->alloc && !grow(t, t->alloc ? t->alloc * 2 : 64))
		return 0;
	id = (uint32_t)++t->nr;
	while (*link) {
		parent = *link;
		link = start < t->start[parent] ? &NODE(t, parent)->child[0] : &NODE(t, parent)->child[1];
	}
	*NODE(t, id) = (struct symtree_node){ .parent = parent, .red = 1 };
	t->start[id] = start;
	t->end[id] = end;
	*link = id;
	insert_fixup(t, id);
	return id;
}

/* Fix-up: a red node under a red parent moves the conflict up or rotates it
 * away. d is the side of the parent below the grandparent (0 left, 1 right):
 * one code for both mirror images. */
static void insert_fixup(struct symtree *t, uint32_t node)
{
	for (;;) {
		uint32_t p = NODE(t, node)->parent, g, uncle, tmp;
		int d;

		if (!p) {
			NODE(t, node)->red = 0;
			break;
		}
		if (!NODE(t, p)->red)
			break;
		g = NODE(t, p)->parent;	/* a red node is never the root */
		d = NODE(t, g)->child[0] != p;
		uncle = NODE(t, g)->child[!d];
		if (is_red(t, uncle)) {
			NODE(t, uncle)->red = 0;
			NODE(t, p)->red = 0;
			NODE(t, g)->red = 1;
			node = g;
			continue;
		}
		if (NODE(t, p)->child[!d] == node) {
			/* rotation at p towards d: node takes its place */
			tmp = NODE(t, node)->child[d];
			NODE(t, p)->child[!d] = tmp;
			NODE(t, node)->child[d] = p;
			if (tmp)
				NODE(t, tmp)->parent = p;
			NODE(t, p)->parent = node;
			NODE(t, node)->parent = g;
			NODE(t, g)->child[d] = node;
			p = node;
		}
		/* rotation at g away from d */
		tmp = NODE(t, p)->child[!d];
		NODE(t, g)->child[d] = tmp;
		NODE(t, p)->child[!d] = g;
		if (tmp)
			NODE(t, tmp)->parent = g;
		rotate_parents(t, g, p, 1);
		break;
	}
}

/* Removal fix-up: the subtree below parent on the side of node (which may be
 * 0) is one black short. d is that side (0 left, 1 right): one code for both
 * mirror images. */
static void erase_fixup(struct symtree *t, uint32_t parent)
{
	uint32_t node = 0, sibling, near, far;

	for (;;) {
		struct symtree_node *p = NODE(t, parent);
		int d = p->child[0] != node;

		sibling = p->child[!d];
		if (NODE(t, sibling)->red) {
			/* rotation at parent towards d: a black sibling comes down */
			near = NODE(t, sibling)->child[d];
			p->child[!d] = near;
			NODE(t, sibling)->child[d] = parent;
			NODE(t, near)->parent = parent;
			NODE(t, near)->red = 0;
			rotate_parents(t, parent, sibling, 1);
			sibling = near;
		}
		far = NODE(t, sibling)->child[!d];
		if (!is_red(t, far)) {
			near = NODE(t, sibling)->child[d];
			if (!is_red(t, near)) {
				/* recolour the sibling; push the shortage up if parent was black */
				NODE(t, sibling)->red = 1;
				if (p->red) {
					p->red = 0;
				} else {
					node = parent;
					parent = p->parent;
					if (parent)
						continue;
				}
				break;
			}
			/* rotation at sibling away from d: its red near child comes up */
			far = NODE(t, near)->child[!d];
			NODE(t, sibling)->child[d] = far;
			NODE(t, near)->child[!d] = sibling;
			p->child[!d] = near;
			if (far) {
				NODE(t, far)->parent = sibling;
				NODE(t, far)->red = 0;
			}
			far = sibling;
			sibling = near;
		}
		/* rotation at parent towards d, and the colours that restore balance */
		near = NODE(t, sibling)->child[d];
		p->child[!d] = near;
		NODE(t, sibling)->child[d] = parent;
		NODE(t, far)->parent = sibling;
		NODE(t, far)->red = 0;
		if (near)
			NODE(t, near)->parent = parent;
		rotate_parents(t, parent, sibling, 0);
		break;
	}
}

void symtree__erase(struct symtree *t, uint32_t id)
{
	struct symtree_node *x = NODE(t, id);
	uint32_t child = x->child[1], left = x->child[0], rebalance = 0;

	if (!left) {
		/* at most a (red) right child: it takes the node's place and colour */
		replace_child(t, id, child, x->parent);
		if (child) {
			NODE(t, child)->parent = x->parent;
			NODE(t, child)->red = x->red;
		} else if (!x->red) {
			rebalance = x->parent;
		}
	} else if (!child) {
		replace_child(t, id, left, x->parent);
		NODE(t, left)->parent = x->parent;
		NODE(t, left)->red = x->red;
	} else {
		/* two children: the in-order successor takes the node's place and colour */
		uint32_t succ = child, parent, child2, tmp = NODE(t, child)->child[0];

		if (!tmp) {
			parent = succ;
			child2 = NODE(t, succ)->child[1];
		} else {
			do {
				parent = succ;
				succ = tmp;
				tmp = NODE(t, tmp)->child[0];
			} while (tmp);
			child2 = NODE(t, succ)->child[1];
			NODE(t, parent)->child[0] = child2;
			NODE(t, succ)->child[1] = child;
			NODE(t, child)->parent = succ;
		}
		NODE(t, succ)->child[0] = left;
		NODE(t, left)->parent = succ;
		replace_child(t, id, succ, x->parent);
		if (child2) {
			NODE(t, child2)->parent = parent;
			NODE(t, child2)->red = 0;
		} else if (!NODE(t, succ)->red) {
			rebalance = parent;
		}
		NODE(t, succ)->parent = x->parent;
		NODE(t, succ)->red = x->red;
	}
	x->child[0] = x->child[1] = x->parent = 0;
	x->unlinked = 1;
	if (t->node_rank)
		rank_set(t, t->node_rank[id], false);
	if (rebalance)
		erase_fixup(t, rebalance);
}

uint32_t symtree__find(const struct symtree *t, uint64_t ip)
{
	uint32_t i = t->root;

	while (i) {
		uint64_t start = t->start[i], end = t->end[i];

		if (ip < start)
			i = NODE(t, i)->child[0];
		else if (ip > end || (ip == end && ip != start))
			i = NODE(t, i)->child[1];
		else
			return i;
	}
	return 0;
}

uint32_t symtree__first(const struct symtree *t)
{
	uint32_t i = t->root;

	while (i && NODE(t, i)->child[0])
		i = NODE(t, i)->child[0];
	return i;
}

uint32_t symtree__next(const struct symtree *t, uint32_t id)
{
	uint32_t p;

	if (NODE(t, id)->child[1]) {
		id = NODE(t, id)->child[1];
		while (NODE(t, id)->child[0])
			id = NODE(t, id)->child[0];
		return id;
	}
	while ((p = NODE(t, id)->parent) && NODE(t, p)->child[1] == id)
		id = p;
	return p;
}

/* Black height of the subtree at i, or -1 when it breaks a rule. */
static int check(const struct symtree *t, uint32_t i, uint32_t parent, uint64_t lo, uint64_t hi)
{
	const struct symtree_node *s;
	int l, r;

	if (!i)
		return 1;
	s = NODE(t, i);
	if (s->parent != parent || s->unlinked || t->start[i] < lo || t->start[i] > hi)
		return -1;
	if (s->red && (is_red(t, s->child[0]) || is_red(t, s->child[1])))
		return -1;
	l = check(t, s->child[0], i, lo, t->start[i]);
	r = check(t, s->child[1], i, t->start[i], hi);
	if (l < 0 || r < 0 || l != r)
		return -1;
	return l + !s->red;
}

bool symtree__valid(const struct symtree *t)
{
	return !is_red(t, t->root) && check(t, t->root, 0, 0, UINT64_MAX) > 0;
}

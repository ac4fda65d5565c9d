// SPDX-License-Identifier: MIT
/*
 * Unit tests of perf's symbol tree (plugin/symbols/symtree.c). The shapes below were
 * worked out by hand with the classic red-black insertion and removal cases
 * (the ones perf's tree uses); that a lookup among overlapping symbols then
 * answers as perf does is checked against perf itself by
 * scripts/tests/perf-map-overlaps.sh (a perf map of overlapping lines).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "symbols/symtree.h"

static uint64_t start_of(const struct symtree *t, uint32_t id)
{
	return id ? t->start[id] : 0;
}

/* Insert 1..7 in order: 1 2 3 rotate to 2(1,3); 4 recolours; 5 rotates at 3;
 * 6 recolours 3 and 5, 4 turns red; 7 rotates at 5. So: 2 black at the root,
 * 1 black, 4 red; under 4: 3 black, 6 black; under 6: 5 and 7 red. */
static void ascending_inserts_take_the_classic_shape(void **state)
{
	struct symtree t;
	uint32_t root, four, six;

	symtree__init(&t);
	for (uint64_t s = 1; s <= 7; s++)
		assert_int_equal(symtree__insert(&t, s, s + 1), s);
	assert_true(symtree__valid(&t));
	root = t.root;
	assert_int_equal(start_of(&t, root), 2);
	assert_false(t.n[root].red);
	assert_int_equal(start_of(&t, t.n[root].child[0]), 1);
	four = t.n[root].child[1];
	assert_int_equal(start_of(&t, four), 4);
	assert_true(t.n[four].red);
	assert_int_equal(start_of(&t, t.n[four].child[0]), 3);
	six = t.n[four].child[1];
	assert_int_equal(start_of(&t, six), 6);
	assert_false(t.n[six].red);
	assert_true(t.n[t.n[six].child[0]].red);
	assert_true(t.n[t.n[six].child[1]].red);
	symtree__release(&t);
}

/* Removing 4 (two children) from that tree: its successor 5 (a red leaf)
 * takes its place and colour; no fix-up. Then removing 1 (a black leaf)
 * leaves 2's left short: its sibling 5 is red (case 1: rotate left at 2, 5
 * becomes the root), then 2's new sibling 3 has black (nil) children (case 2:
 * 3 turns red, 2 was red after the rotation and turns black). */
static void removals_follow_the_successor_and_the_four_cases(void **state)
{
	struct symtree t;
	uint32_t id[8], root;

	symtree__init(&t);
	for (uint64_t s = 1; s <= 7; s++)
		id[s] = symtree__insert(&t, s, s + 1);
	symtree__erase(&t, id[4]);
	assert_true(symtree__valid(&t));
	assert_int_equal(start_of(&t, t.n[t.root].child[1]), 5);
	assert_true(t.n[id[5]].red);
	assert_int_equal(t.n[id[5]].child[0], id[3]);
	assert_int_equal(t.n[id[5]].child[1], id[6]);
	assert_int_equal(t.n[id[6]].child[0], 0);

	symtree__erase(&t, id[1]);
	assert_true(symtree__valid(&t));
	root = t.root;
	assert_int_equal(root, id[5]);
	assert_false(t.n[root].red);
	assert_int_equal(t.n[root].child[0], id[2]);
	assert_false(t.n[id[2]].red);
	assert_int_equal(t.n[id[2]].child[0], 0);
	assert_int_equal(t.n[id[2]].child[1], id[3]);
	assert_true(t.n[id[3]].red);
	assert_int_equal(t.n[root].child[1], id[6]);
	symtree__release(&t);
}

/* A lookup returns the first node on its search path that holds the address:
 * with every range reaching to 100, the root's (start 2) holds 50. */
static void a_lookup_among_overlaps_returns_the_first_on_the_path(void **state)
{
	struct symtree t;

	symtree__init(&t);
	for (uint64_t s = 1; s <= 7; s++)
		symtree__insert(&t, s, 100);
	assert_int_equal(start_of(&t, symtree__find(&t, 50)), 2);
	/* 1 is left of the root and only node 1 starts at or below it */
	assert_int_equal(start_of(&t, symtree__find(&t, 1)), 1);
	assert_int_equal(symtree__find(&t, 0), 0);
	assert_int_equal(symtree__find(&t, 100), 0);
	symtree__release(&t);
}

/* perf's bounds: [start, end), and a zero-length symbol holds its start only. */
static void ranges_are_half_open_and_empty_ones_hold_their_start(void **state)
{
	struct symtree t;
	uint32_t a, b;

	symtree__init(&t);
	a = symtree__insert(&t, 0x1000, 0x1010);
	b = symtree__insert(&t, 0x2000, 0x2000);
	assert_int_equal(symtree__find(&t, 0x1000), a);
	assert_int_equal(symtree__find(&t, 0x100f), a);
	assert_int_equal(symtree__find(&t, 0x1010), 0);
	assert_int_equal(symtree__find(&t, 0x2000), b);
	assert_int_equal(symtree__find(&t, 0x2001), 0);
	symtree__release(&t);
}

/* Equal starts go after the nodes already there: in-order keeps insertion order. */
static void equal_starts_keep_insertion_order_in_order(void **state)
{
	struct symtree t;
	uint32_t ids[50], i = 0;

	symtree__init(&t);
	for (int k = 0; k < 50; k++)
		ids[k] = symtree__insert(&t, 0x10 * (uint64_t)(k % 5), 0x100);
	for (uint32_t n = symtree__first(&t); n; n = symtree__next(&t, n), i++) {
		/* start s, k-th insertion with that start: k % 5 == s / 0x10, in k order */
		uint64_t s = t.start[n];

		assert_int_equal(n, ids[(s / 0x10) + 5 * (i % 10)]);
	}
	assert_int_equal(i, 50);
	symtree__release(&t);
}

/* Random insertions and removals keep a valid red-black tree whose in-order
 * walk is sorted and holds exactly the linked nodes. */
static void random_changes_keep_a_valid_tree(void **state)
{
	struct symtree t;
	uint32_t seed = 12345, linked = 0;
	uint32_t live[4000];
	size_t live_nr = 0;

	symtree__init(&t);
	for (int step = 0; step < 20000; step++) {
		seed = seed * 1103515245 + 12345;
		if (live_nr < 50 || (seed >> 16) % 3) {
			if (live_nr == 4000)
				continue;
			uint64_t s = (seed >> 8) % 5000;

			live[live_nr++] = symtree__insert(&t, s, s + 10);
			linked++;
		} else {
			size_t k = (seed >> 4) % live_nr;

			symtree__erase(&t, live[k]);
			live[k] = live[--live_nr];
			linked--;
		}
		if (step % 997 == 0)
			assert_true(symtree__valid(&t));
	}
	assert_true(symtree__valid(&t));
	uint64_t prev = 0;
	uint32_t n_walked = 0;

	for (uint32_t n = symtree__first(&t); n; n = symtree__next(&t, n), n_walked++) {
		assert_true(t.start[n] >= prev);
		assert_false(t.n[n].unlinked);
		prev = t.start[n];
	}
	assert_int_equal(n_walked, linked);
	symtree__release(&t);
}

/* Built by ranks (through in-order neighbours), a tree has the shape the
 * descent from the root gives it, insertions and removals alike. */
static void ranked_insertions_make_the_same_tree(void **state)
{
	enum { N = 3000 };
	struct symtree a, b;
	uint64_t start[N];
	uint32_t rank[N], order[N], seed = 777;

	for (uint32_t i = 0; i < N; i++) {
		seed = seed * 1103515245 + 12345;
		start[i] = (seed >> 8) % 700;	/* many equal starts */
		order[i] = i;
	}
	/* rank: position by (start, insertion order); an insertion sort is fine here */
	for (uint32_t i = 1; i < N; i++)
		for (uint32_t j = i; j > 0 && start[order[j - 1]] > start[order[j]]; j--) {
			uint32_t x = order[j];

			order[j] = order[j - 1];
			order[j - 1] = x;
		}
	for (uint32_t i = 0; i < N; i++)
		rank[order[i]] = i;
	symtree__init(&a);
	symtree__init(&b);
	assert_int_equal(symtree__ranked(&b, N), 0);
	for (uint32_t i = 0; i < N; i++) {
		assert_int_equal(symtree__insert(&a, start[i], start[i] + 5), i + 1);
		assert_int_equal(symtree__insert_ranked(&b, start[i], start[i] + 5, rank[i]), i + 1);
		/* now and then remove an earlier node, the same one from both */
		if (i % 3 == 2) {
			uint32_t victim;

			seed = seed * 1103515245 + 12345;
			victim = (seed >> 8) % i + 1;

			if (!a.n[victim].unlinked) {
				symtree__erase(&a, victim);
				symtree__erase(&b, victim);
			}
		}
	}
	assert_true(symtree__valid(&b));
	assert_int_equal(a.root, b.root);
	for (uint32_t i = 1; i <= N; i++) {
		assert_int_equal(a.n[i].child[0], b.n[i].child[0]);
		assert_int_equal(a.n[i].child[1], b.n[i].child[1]);
		assert_int_equal(a.n[i].parent, b.n[i].parent);
		assert_int_equal(a.n[i].red, b.n[i].red);
	}
	symtree__release(&a);
	symtree__release(&b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ascending_inserts_take_the_classic_shape),
		cmocka_unit_test(removals_follow_the_successor_and_the_four_cases),
		cmocka_unit_test(a_lookup_among_overlaps_returns_the_first_on_the_path),
		cmocka_unit_test(ranges_are_half_open_and_empty_ones_hold_their_start),
		cmocka_unit_test(equal_starts_keep_insertion_order_in_order),
		cmocka_unit_test(random_changes_keep_a_valid_tree),
		cmocka_unit_test(ranked_insertions_make_the_same_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

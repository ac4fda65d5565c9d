// SPDX-License-Identifier: MIT
/*
 * Unit tests of a perf dso's symbols (plugin/symbols/symset.c). The expected
 * symbols follow perf 6.1's symbols__fixup_end, symbols__fixup_duplicate /
 * choose_best_symbol, worked out by hand in the comments; that perf itself
 * answers so is checked by scripts/tests/plugin-vs-perf.sh.
 */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "symbols/symset.h"

static const char *name_at(struct symset *s, uint64_t ip)
{
	const struct symset_sym *sym = symset__find(s, ip);

	return sym ? sym->name : NULL;
}

/* A symbol of size 0 ends where the next one starts; the last one at the
 * page after its start. */
static void empty_symbols_end_where_the_next_starts(void **state)
{
	struct symset s;

	symset__init(&s);
	assert_true(symset__add(&s, 0x1000, 0, "a", STB_GLOBAL, 0));
	assert_true(symset__add(&s, 0x1100, 0x10, "b", STB_GLOBAL, 0));
	assert_true(symset__add(&s, 0x1200, 0, "c", STB_GLOBAL, 0));
	assert_true(symset__commit_fixed(&s));
	assert_true(symset__done(&s));
	assert_string_equal(name_at(&s, 0x10ff), "a");
	assert_string_equal(name_at(&s, 0x110f), "b");
	assert_null(name_at(&s, 0x1110));
	/* roundup(0x1200, 4096) + 4096 = 0x3000 */
	assert_string_equal(name_at(&s, 0x2fff), "c");
	assert_null(name_at(&s, 0x3000));
	symset__release(&s);
}

/*
 * Of symbols with one start perf keeps, in this order of preference: one
 * with a size, a non-weak one, a global one, the fewest leading underscores
 * (of the demangled name), the longest demangled name, the first.
 */
static void aliases_are_chosen_as_perf_chooses(void **state)
{
	static const struct {
		const char *a, *b;
		uint64_t size_a, size_b;
		uint8_t bind_a, bind_b;
		const char *kept;
	} cases[] = {
		{ "x", "sized", 0, 8, STB_GLOBAL, STB_GLOBAL, "sized" },
		{ "weak", "strong", 8, 8, STB_WEAK, STB_LOCAL, "strong" },
		{ "local", "global", 8, 8, STB_LOCAL, STB_GLOBAL, "global" },
		{ "__libc_x", "x_alias", 8, 8, STB_GLOBAL, STB_GLOBAL, "x_alias" },
		{ "short", "longer", 8, 8, STB_GLOBAL, STB_GLOBAL, "longer" },
		{ "same1", "same2", 8, 8, STB_GLOBAL, STB_GLOBAL, "same1" },
		/* _ZN3foo3barEv shows as foo::bar (8 bytes, no underscore), shorter than
		 * foo_bar_baz (11): perf compares what it shows, not the 13-byte mangled name */
		{ "_ZN3foo3barEv", "foo_bar_baz", 8, 8, STB_GLOBAL, STB_GLOBAL, "foo_bar_baz" },
		{ "SyS_read", "sys_read", 8, 8, STB_GLOBAL, STB_GLOBAL, "sys_read" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct symset s;

		symset__init(&s);
		assert_true(symset__add(&s, 0x40, cases[i].size_a, cases[i].a, cases[i].bind_a, 0));
		assert_true(symset__add(&s, 0x40, cases[i].size_b, cases[i].b, cases[i].bind_b, 0));
		/* a later symbol so that a size-0 one does not reach a page's end */
		assert_true(symset__add(&s, 0x80, 8, "next", STB_GLOBAL, 0));
		assert_true(symset__commit_fixed(&s));
		assert_true(symset__done(&s));
		assert_string_equal(name_at(&s, 0x40), cases[i].kept);
		assert_int_equal(s.nr, 3);
		assert_int_equal(symset__kept(&s), 2);
		symset__release(&s);
	}
}

/* A second table: its equal-start symbols go after the first table's. */
static void a_second_table_meets_the_first_as_perf_merges_them(void **state)
{
	struct symset s;

	symset__init(&s);
	assert_true(symset__add(&s, 0x100, 0x10, "from_symtab", STB_LOCAL, 1));
	assert_true(symset__commit_fixed(&s));
	/* same start, same binding and name length: the first (the .symtab one) stays */
	assert_true(symset__add(&s, 0x100, 0x10, "from_dynsym", STB_LOCAL, 2));
	assert_true(symset__commit_fixed(&s));
	assert_true(symset__done(&s));
	assert_int_equal(symset__find(&s, 0x105)->tag, 1);
	assert_int_equal(symset__kept(&s), 1);
	symset__release(&s);
}

/* Overlapping symbols: the answer is the first one perf's search path meets
 * (symtree's shape): inserted 1..7 with ends at 0x1000, 0x500 is answered by
 * the root, start 2. */
static void overlaps_are_answered_by_perfs_tree(void **state)
{
	static const char *const names[] = { "s1", "s2", "s3", "s4", "s5", "s6", "s7" };
	struct symset s;

	symset__init(&s);
	for (uint64_t k = 1; k <= 7; k++)
		assert_true(symset__add(&s, k, 0x1000 - k, names[k - 1], STB_GLOBAL, 0));
	assert_true(symset__commit(&s));
	assert_true(symset__done(&s));
	assert_false(s.tree_built);
	assert_string_equal(name_at(&s, 0x500), "s2");
	assert_true(s.tree_built);
	/* an address only s1 holds is found without the tree's help, and is s1 */
	assert_string_equal(name_at(&s, 1), "s1");
	symset__release(&s);
}

/*
 * A binary's shape: a size-0 first symbol (_init) stretched by the end
 * fix-up over a PLT added after it, among random others, some of them
 * aliases (one start, other names, bindings and sizes), then a second table
 * with fix-ups (.dynsym: twins of some, of the same name or another), then
 * the PLT without. The set is made twice: one answers every address as
 * lookups do (aliases chosen when met, the tree only where symbols overlap),
 * the other from perf's tree, replayed as perf made it (aliases removed
 * table by table). Address by address, both must name the same symbol.
 */
static char names[1000][24];

/* One round's symbols, in the order they are added, and where its three
 * batches end (.symtab and .dynsym with fix-ups, the PLT without). */
struct plan {
	struct {
		uint64_t start, size;
		const char *name;
		uint8_t binding, tag;
	} sym[1000];
	int nr, end[3];
};

static void plan_binary(struct plan *p, int round)
{
	static const uint8_t binds[] = { STB_GLOBAL, STB_GLOBAL, STB_LOCAL, STB_WEAK };
	uint32_t seed = 99 + (uint32_t)round * 7919;
	uint64_t start = 0x4000;
	int k = 0;

#define RAND() (seed = seed * 1103515245 + 12345, seed >> 8)
#define ADD(st, sz, nm, b, t) (p->sym[k].start = (st), p->sym[k].size = (sz), p->sym[k].name = (nm), \
			       p->sym[k].binding = (b), p->sym[k].tag = (t), k++)
	snprintf(names[k], sizeof(names[k]), "_init");
	ADD(0x1000, 0, names[k], STB_GLOBAL, 0);
	while (k < 400) {
		uint32_t r = RAND();

		/* .text from 0x4000; some sizes 0 (stretched), some overlapping, a
		 * quarter aliases of the symbol before */
		if (r % 4)
			start = 0x4000 + RAND() % 0x8000;
		snprintf(names[k], sizeof(names[k]), "%.*sf%d%s", (int)(r >> 4) % 3, "__", k, (r >> 6) % 2 ? "_x" : "");
		ADD(start, (r >> 8) % 3 ? (r >> 10) % 0x300 : 0, names[k], binds[(r >> 12) % 4], 0);
	}
	p->end[0] = k;
	/* .dynsym: twins of a third of them (same name, or a name of its own) */
	for (int j = 1; j < 400; j += 3) {
		uint32_t r = RAND();

		if (r % 3)
			snprintf(names[k], sizeof(names[k]), "%s", names[j]);
		else
			snprintf(names[k], sizeof(names[k]), "dyn%d", j);
		ADD(p->sym[j].start, r % 5 ? p->sym[j].size : 0, names[k], r % 4 ? p->sym[j].binding : STB_GLOBAL, 1);
	}
	p->end[1] = k;
	/* the PLT: 16-byte entries inside _init's stretch */
	for (int e = 0; e < 100 + round * 10; e++) {
		snprintf(names[k], sizeof(names[k]), "p%d@plt", e);
		ADD(0x2010 + 16 * (uint64_t)e, 16, names[k], STB_GLOBAL, 2);
	}
	p->end[2] = p->nr = k;
#undef ADD
#undef RAND
}

static void binary_like(struct symset *s, const struct plan *p)
{
	int k = 0;

	symset__init(s);
	for (int b = 0; b < 3; b++) {
		for (; k < p->end[b]; k++)
			assert_true(symset__add(s, p->sym[k].start, p->sym[k].size, p->sym[k].name, p->sym[k].binding,
						p->sym[k].tag));
		assert_true(b < 2 ? symset__commit_fixed(s) : symset__commit(s));
	}
	assert_true(symset__done(s));
}

static void lookups_without_the_tree_answer_as_the_tree_does(void **state)
{
	size_t fast = 0, aliased = 0;

	static struct plan plan;

	for (int round = 0; round < 10; round++) {
		struct symset lazy, tree;

		plan_binary(&plan, round);
		binary_like(&lazy, &plan);
		binary_like(&tree, &plan);
		for (uint64_t ip = 0x1000 + (uint64_t)round; ip < 0xc400; ip += 11) {
			/* a set whose tree was built has every alias chosen: a fresh one */
			if (lazy.tree_built) {
				symset__release(&lazy);
				binary_like(&lazy, &plan);
			}
			const struct symset_sym *a = symset__find(&lazy, ip), *b = symset__find_in_tree(&tree, ip);

			if (!lazy.tree_built && a) {
				fast++;
				aliased += (a > lazy.v && a[-1].start == a->start) ||
					   (a + 1 < lazy.v + lazy.nr && a[1].start == a->start);
			}

			if ((a == NULL) != (b == NULL) || (a && a->seq != b->seq))
				fprintf(stderr, "ip %#lx: %s [%#lx,%#lx) vs %s\n", (unsigned long)ip, a ? a->name : "-",
					a ? (unsigned long)a->start : 0UL, a ? (unsigned long)a->end : 0UL, b ? b->name : "-");
			assert_true((a == NULL) == (b == NULL));
			if (a)
				assert_int_equal(a->seq, b->seq);
		}
		assert_int_equal(symset__kept(&lazy), symset__kept(&tree));
		symset__release(&lazy);
		symset__release(&tree);
	}
	/* most answers without the tree, many of them among aliases */
	fprintf(stderr, "# %zu answers without the tree, %zu of them among aliases\n", fast, aliased);
	assert_true(fast > 5000 && aliased > 1000);
}

/* The demangled names perf shows: no parameters. */
static void demangles_as_perf_does(void **state)
{
	char *d = symset__perf_demangle("_ZN2v88internal4Heap2GCEv");

	assert_string_equal(d, "v8::internal::Heap::GC");
	free(d);
	assert_null(symset__perf_demangle("malloc"));
	d = symset__perf_demangle("camlStdlib__list__map_123");
	assert_string_equal(d, "Stdlib.list.map_123");
	free(d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(empty_symbols_end_where_the_next_starts),
		cmocka_unit_test(aliases_are_chosen_as_perf_chooses),
		cmocka_unit_test(a_second_table_meets_the_first_as_perf_merges_them),
		cmocka_unit_test(overlaps_are_answered_by_perfs_tree),
		cmocka_unit_test(lookups_without_the_tree_answer_as_the_tree_does),
		cmocka_unit_test(demangles_as_perf_does),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

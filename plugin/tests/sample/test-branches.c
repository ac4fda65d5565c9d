// SPDX-License-Identifier: MIT
/*
 * Unit tests of the branch-stack counts (plugin/sample/branches.c) and of
 * the resolution of a branch's ends (classify__address), through the rooms
 * of sample-fixture.h: a jitdump of two loads at one address, at times 100
 * and 200 (JITDUMP.md "Time"), and a fake perf whose resolve_address answers
 * for one native function. Expected by hand from STREAM.md (`branch`,
 * `range`, `branch-total`): which load an end is in by the sample's time,
 * the kernel half, the class of an entry whose end is in no object, the
 * older entry's target to the newer one's source for a range.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "sample-fixture.h"
#include "sample/branches.h"

struct fixture {
	struct sample_rooms rooms;
	struct branches branches;
	char dump[64];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	sample_fixture__open(&f->rooms, f->dump, "branches");
	branches__init(&f->branches, &f->rooms.warnings);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	branches__release(&f->branches);
	sample_fixture__close(&f->rooms, f->dump);
	free(f);
	return 0;
}

/* A user-mode sample of pid 42 at time, with these entries (newest first). */
static void feed(struct fixture *f, uint64_t time, const struct perf_branch_entry *e, size_t nr)
{
	struct perf_dlfilter_sample s = {
		.size = sizeof(s), .ip = 0x7004, .pid = 42, .tid = 42, .time = time, .period = 1,
		.cpumode = PERF_RECORD_MISC_USER, .event = "cycles", .brstack = e, .brstack_nr = nr,
	};
	uint32_t ev = events__id(&f->rooms.events, s.event, NULL);

	branches__add(&f->branches, &f->rooms.classify, ev, &s, f->rooms.events.v[ev].time_aware, NULL);
}

/* The count of (kind, from, to, flags), 0 if none; *c its entry. */
static uint64_t count(const struct fixture *f, enum branch_kind kind, uint32_t fo, uint64_t fof, uint32_t to,
		      uint64_t tof, unsigned flags, const struct branch_count **c)
{
	for (size_t i = 0; i < f->branches.nr; i++) {
		const struct branch_count *b = &f->branches.v[i];

		if (b->kind == kind && b->from_obj == fo && b->from_off == fof && b->to_obj == to &&
		    b->to_off == tof && b->flags == flags) {
			if (c)
				*c = b;
			return b->count;
		}
	}
	return 0;
}

static void classes_sum_to_all(const struct fixture *f)
{
	for (int k = 0; k < 2; k++) {
		uint64_t n = 0;

		for (int c = 1; c < HB_CLASS__NR; c++)
			n += f->branches.totals[0][c][k];
		assert_int_equal(n, f->branches.totals[0][HB_CLASS_ALL][k]);
	}
}

static void ends_resolve_by_time_and_ranges_pair_entries(void **state)
{
	struct fixture *f = *state;
	/* newest first: a loop's back edge in the JIT code, then (older) the call into it from main */
	const struct perf_branch_entry e[] = {
		{ .from = 0x700c, .to = 0x7002, .predicted = 1, .cycles = 7 },
		{ .from = 0x401010, .to = 0x7000, .mispred = 1, .cycles = 3 },
	};
	const struct branch_count *c = NULL;
	uint32_t main_id;

	/* time 150: "hot" (code map id 0) holds 0x7000; at 250, "again" (id 1) */
	feed(f, 150, e, 2);
	feed(f, 250, e, 2);
	feed(f, 250, e, 2);
	assert_int_equal(f->rooms.natives.nr, 1);
	main_id = NATIVE_ID_BIT | 0;
	assert_int_equal(count(f, BRANCH_TAKEN, 0, 0xc, 0, 0x2, BRANCH_PREDICTED, &c), 1);
	assert_int_equal(c->cycles_nr, 1);
	assert_int_equal(c->cycles_sum, 7);
	assert_int_equal(count(f, BRANCH_TAKEN, 1, 0xc, 1, 0x2, BRANCH_PREDICTED, &c), 2);
	assert_int_equal(c->cycles_sum, 14);
	assert_int_equal(count(f, BRANCH_TAKEN, main_id, 0x10, 1, 0x0, BRANCH_MISPRED, NULL), 2);
	assert_int_equal(count(f, BRANCH_TAKEN, main_id, 0x10, 0, 0x0, BRANCH_MISPRED, NULL), 1);
	/* the older entry's target (0x7000) to the newer's source (0x700c) */
	assert_int_equal(count(f, BRANCH_RANGE, 1, 0x0, 1, 0xc, 0, &c), 2);
	/* the newer entry's cycles: those since the older one, the range's */
	assert_int_equal(c->cycles_nr, 2);
	assert_int_equal(c->cycles_sum, 14);
	assert_int_equal(count(f, BRANCH_RANGE, 0, 0x0, 0, 0xc, 0, NULL), 1);
	assert_int_equal(f->branches.totals[0][HB_CLASS_ALL][BRANCH_TAKEN], 6);
	assert_int_equal(f->branches.totals[0][HB_CLASS_ALL][BRANCH_RANGE], 3);
	/* each entry in the class of its first end: the JIT's, then main's */
	assert_int_equal(f->branches.totals[0][HB_CLASS_JIT][BRANCH_TAKEN], 3);
	assert_int_equal(f->branches.totals[0][HB_CLASS_NATIVE][BRANCH_TAKEN], 3);
	classes_sum_to_all(f);
}

static void ends_in_no_object_are_counted_in_their_class(void **state)
{
	struct fixture *f = *state;
	const struct perf_branch_entry e[] = {
		{ .from = 0xffffffff81000010, .to = 0x7004 },	/* back from an interrupt */
		{ .from = 0x700c, .to = 0x900000 },		/* into what no map holds */
		{ .from = 0x401020, .to = 0x401000 },
	};

	feed(f, 250, e, 3);
	assert_int_equal(f->branches.totals[0][HB_CLASS_ALL][BRANCH_TAKEN], 3);
	assert_int_equal(f->branches.totals[0][HB_CLASS_KERNEL][BRANCH_TAKEN], 1);
	assert_int_equal(f->branches.totals[0][HB_CLASS_NO_MAP][BRANCH_TAKEN], 1);
	assert_int_equal(f->branches.totals[0][HB_CLASS_NATIVE][BRANCH_TAKEN], 1);
	/* ranges: 0x900000 .. 0xffffffff81000010 (no map first), 0x401000 .. 0x700c (placed) */
	assert_int_equal(f->branches.totals[0][HB_CLASS_ALL][BRANCH_RANGE], 2);
	assert_int_equal(f->branches.totals[0][HB_CLASS_NO_MAP][BRANCH_RANGE], 1);
	assert_int_equal(count(f, BRANCH_RANGE, NATIVE_ID_BIT | 0, 0x0, 1, 0xc, 0, NULL), 1);
	classes_sum_to_all(f);
	/* only the two lines with both ends placed */
	assert_int_equal(f->branches.nr, 2);
}

static void a_sample_without_a_stack_counts_nothing(void **state)
{
	struct fixture *f = *state;

	feed(f, 250, NULL, 0);
	assert_false(f->branches.any);
	assert_int_equal(f->branches.nr, 0);
	assert_int_equal(f->branches.totals[0][HB_CLASS_ALL][BRANCH_TAKEN], 0);
	assert_int_equal(sample_fixture__resolve_calls(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(ends_resolve_by_time_and_ranges_pair_entries, setup, teardown),
		cmocka_unit_test_setup_teardown(ends_in_no_object_are_counted_in_their_class, setup, teardown),
		cmocka_unit_test_setup_teardown(a_sample_without_a_stack_counts_nothing, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the branch-stack records' reader (postproc/stream/
 * stream-branches.c, STREAM.md `branch-total`, `branch`, `range`): counts
 * summed over sections and over folded objects, the flags letters, what is
 * refused with its file and line. Expected values by hand from STREAM.md.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>

#include <cmocka.h>

#include "stream/stream.h"
#include "stream-check.h"

/* Two native functions, f (0) and g (1), of one file. */
#define TWO_FUNCS                                                                                 \
	"event 0 cycles\n"                                                                        \
	"object 0 native pid=1 e_machine=62 addr=0x1000 size=4 dso=/p sym-start=0x0 name=f\n"    \
	"object 1 native pid=1 e_machine=62 addr=0x2000 size=4 dso=/p sym-start=0x1000 name=g\n"

static void counts_are_read_and_summed_over_sections(void **state)
{
	struct stream s;
	static const char section[] = "hotblocks-stream 1\n" TWO_FUNCS
				      "branch-total 0 all 10 4\n"
				      "branch-total 0 native 9 3\n"
				      "branch-total 0 kernel 1 1\n"
				      "branch 0 0x3 1 0x0 0 P 6 5 50\n"
				      "branch 0 0x3 1 0x0 0 MXA 2 0 0\n"
				      "branch 1 0x2 0 0x0 0 - 1 1 7\n"
				      "range 1 0x0 1 0x2 0 3 2 9\n"
				      "end\n";

	stream__init(&s);
	assert_int_equal(read_text(&s, section), 0);
	assert_int_equal(read_text(&s, section), 0);
	assert_int_equal(stream__finish(&s), 0);
	assert_true(s.has_branches);
	assert_int_equal(s.branch_totals_nr, 1);
	assert_int_equal(s.branch_totals[0].entries[HB_CLASS_ALL], 20);
	assert_int_equal(s.branch_totals[0].ranges[HB_CLASS_ALL], 8);
	assert_int_equal(s.branch_totals[0].entries[HB_CLASS_KERNEL], 2);
	/* sorted: taken (by ends, then flags: P 2 before MXA 13), then ranges */
	assert_int_equal(s.branches_nr, 4);
	assert_int_equal(s.branches[0].kind, STREAM_BRANCH_TAKEN);
	assert_int_equal(s.branches[0].from_off, 3);
	assert_int_equal(s.branches[0].flags, STREAM_BRANCH_PREDICTED);
	assert_int_equal(s.branches[0].count, 12);
	assert_int_equal(s.branches[0].cycles_nr, 10);
	assert_int_equal(s.branches[0].cycles_sum, 100);
	assert_int_equal(s.branches[1].flags, STREAM_BRANCH_MISPRED | STREAM_BRANCH_IN_TX | STREAM_BRANCH_ABORT);
	assert_int_equal(s.branches[1].count, 4);
	assert_int_equal(s.branches[2].from_obj, 1);
	assert_int_equal(s.branches[2].to_obj, 0);
	assert_int_equal(s.branches[2].flags, 0);
	assert_int_equal(s.branches[3].kind, STREAM_BRANCH_RANGE);
	assert_int_equal(s.branches[3].count, 6);
	assert_int_equal(s.branches[3].cycles_nr, 4);
	assert_int_equal(s.branches[3].cycles_sum, 18);
	stream__release(&s);
}

static void no_branch_records_no_branches(void **state)
{
	struct stream s;

	stream__init(&s);
	assert_int_equal(read_text(&s, "hotblocks-stream 1\n" TWO_FUNCS "end\n"), 0);
	assert_int_equal(stream__finish(&s), 0);
	assert_false(s.has_branches);
	assert_int_equal(s.branches_nr, 0);
	stream__release(&s);
}

/* A CODE_MOVE copy's branches are the first copy's, as its samples are. */
static void moved_code_takes_its_branches_along(void **state)
{
	struct stream s;

	stream__init(&s);
	assert_int_equal(read_text(&s, "hotblocks-stream 1\nevent 0 e\n"
				   "object 0 jit pid=7 e_machine=62 addr=0x1000 size=2 code-index=3 "
				   "load-time=1 dump=/d name=a\n"
				   "code 0 0x0 9090\n"
				   "object 1 jit pid=7 e_machine=62 addr=0x5000 size=2 code-index=3 "
				   "load-time=2 dump=/d name=a\n"
				   "code 1 0x0 9090\n"
				   "branch-total 0 all 2 0\n"
				   "branch 0 0x1 0 0x0 0 P 1 0 0\n"
				   "branch 1 0x1 1 0x0 0 P 1 0 0\n"
				   "end\n"), 0);
	assert_int_equal(stream__finish(&s), 0);
	assert_int_equal(s.branches_nr, 1);
	assert_int_equal(s.branches[0].from_obj, 0);
	assert_int_equal(s.branches[0].to_obj, 0);
	assert_int_equal(s.branches[0].count, 2);
	stream__release(&s);
}

static void bad_lines_are_refused(void **state)
{
	refused("hotblocks-stream 1\n" TWO_FUNCS "branch 0 0x3 1 0x0 0 PM 1 0 0\nend\n",
		"t.hbs:5: branch flags 'PM'");
	refused("hotblocks-stream 1\n" TWO_FUNCS "branch 0 0x3 1 0x0 0 Q 1 0 0\nend\n",
		"t.hbs:5: branch flags 'Q'");
	refused("hotblocks-stream 1\n" TWO_FUNCS "branch 0 0x3 1 0x0 0 P 1 2 0\nend\n",
		"t.hbs:5: more branches with cycles");
	refused("hotblocks-stream 1\n" TWO_FUNCS "branch 0 0x3 2 0x0 0 P 1 0 0\nend\n", "t.hbs:5:");
	refused("hotblocks-stream 1\n" TWO_FUNCS "range 0 3 0 0x0 0 1 0 0\nend\n", "t.hbs:5:");
	refused("hotblocks-stream 1\n" TWO_FUNCS "range 0 0x3 0 0x0 0 1 0\nend\n", "t.hbs:5:");
	refused("hotblocks-stream 1\n" TWO_FUNCS "range 0 0x3 0 0x0 0 1 3 0\nend\n",
		"t.hbs:5: more branches with cycles");
	refused("hotblocks-stream 1\n" TWO_FUNCS "branch-total 0 all x 1\nend\n", "t.hbs:5:");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(counts_are_read_and_summed_over_sections),
		cmocka_unit_test(no_branch_records_no_branches),
		cmocka_unit_test(moved_code_takes_its_branches_along),
		cmocka_unit_test(bad_lines_are_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

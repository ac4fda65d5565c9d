// SPDX-License-Identifier: MIT
/*
 * Unit tests of the callchain stacks (plugin/sample/callchains.c), through
 * the rooms of sample-fixture.h: a jitdump of two loads at one address, at
 * times 100 and 200 (JITDUMP.md "Time"), and a fake perf whose
 * resolve_address answers for one native function. Expected by hand from
 * STREAM.md `stack`: context markers are no frames, a run of kernel frames
 * is one, a caller is the function of the byte before its return address
 * (its offset the return address's), the first user frame after the kernel's
 * is resolved as it is, a frame's JIT load is the one live at the sample's
 * time, identical stacks are counted once.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <linux/perf_event.h>
#include <cmocka.h>

#include "sample-fixture.h"
#include "sample/callchains.h"

struct fixture {
	struct sample_rooms rooms;
	struct callchains cc;
	char dump[64];
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	sample_fixture__open(&f->rooms, f->dump, "callchains");
	callchains__init(&f->cc, &f->rooms.warnings);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	callchains__release(&f->cc);
	sample_fixture__close(&f->rooms, f->dump);
	free(f);
	return 0;
}

#define K PERF_CONTEXT_KERNEL
#define U PERF_CONTEXT_USER

/* A sample of pid 42 at time with this raw callchain, its leaf placed as leaf says. */
static void feed(struct fixture *f, uint64_t time, uint64_t period, const __u64 *chain, size_t nr,
		 const struct classify_verdict *leaf)
{
	struct perf_dlfilter_sample s = {
		.size = sizeof(s), .ip = nr ? chain[1] : 0x7004, .pid = 42, .tid = 42, .time = time, .period = period,
		.cpumode = PERF_RECORD_MISC_USER, .event = "cycles", .raw_callchain = chain, .raw_callchain_nr = nr,
	};
	uint32_t ev = events__id(&f->rooms.events, s.event, NULL);

	callchains__add(&f->cc, &f->rooms.classify, ev, &s, leaf, f->rooms.events.v[ev].time_aware, NULL);
}

static void frame_is(const struct fixture *f, size_t stack, uint32_t k, uint32_t obj, uint64_t off)
{
	const struct stack_count *c = &f->cc.v[stack];

	assert_true(k < c->frames_nr);
	assert_int_equal(f->cc.frames[c->first + k].obj, obj);
	assert_int_equal(f->cc.frames[c->first + k].off, off);
}

static void markers_kernel_runs_and_return_addresses(void **state)
{
	struct fixture *f = *state;
	/* in the kernel, interrupted at JIT code 0x7004, called from main (its call ends at 0x401011) */
	const __u64 chain[] = { K, 0xffffffff81000010, 0xffffffff81000020, 0xffffffff81000030, U, 0x7004, 0x401011 };
	const struct classify_verdict kernel = { .cls = HB_CLASS_KERNEL };

	feed(f, 150, 5, chain, sizeof(chain) / sizeof(chain[0]), &kernel);
	assert_true(f->cc.any);
	assert_int_equal(f->cc.nr, 1);
	assert_int_equal(f->cc.v[0].frames_nr, 3);
	frame_is(f, 0, 0, STACK_FRAME_CLASS, HB_CLASS_KERNEL);
	/* where the user code was: "hot" (code map id 0) at time 150, offset 4, not 3 */
	frame_is(f, 0, 1, 0, 0x4);
	/* main resolved at 0x401010, the frame's offset the return address's */
	frame_is(f, 0, 2, NATIVE_ID_BIT | 0, 0x11);
	assert_int_equal(f->cc.v[0].samples, 1);
	assert_int_equal(f->cc.v[0].period, 5);
}

static void identical_stacks_are_counted_once(void **state)
{
	struct fixture *f = *state;
	/* a user sample in the JIT code; its caller's return address is main's end:
	 * the byte before it is main's, past it no function is */
	const __u64 chain[] = { U, 0x7004, 0x401040 };
	const struct classify_verdict at150 = { .cls = HB_CLASS_JIT, .obj = 0, .off = 4 };
	const struct classify_verdict at250 = { .cls = HB_CLASS_JIT, .obj = 1, .off = 4 };

	feed(f, 150, 2, chain, 3, &at150);
	feed(f, 150, 3, chain, 3, &at150);
	feed(f, 250, 7, chain, 3, &at250);
	assert_int_equal(f->cc.nr, 2);
	assert_int_equal(f->cc.v[0].samples, 2);
	assert_int_equal(f->cc.v[0].period, 5);
	assert_int_equal(f->cc.v[1].samples, 1);
	frame_is(f, 0, 0, 0, 0x4);
	frame_is(f, 0, 1, NATIVE_ID_BIT | 0, 0x40);
	/* the load live at 250 is "again" (id 1) */
	frame_is(f, 1, 0, 1, 0x4);
	assert_int_equal(f->cc.frames_nr, 4);
}

static void frames_in_no_object_are_their_class(void **state)
{
	struct fixture *f = *state;
	/* a caller nothing maps, and one at a kernel-half address in user context (a frame pointer gone astray) */
	const __u64 chain[] = { U, 0x401004, 0x900001, 0xffff888000000001 };
	const struct classify_verdict leaf = { .cls = HB_CLASS_NATIVE, .obj = NATIVE_ID_BIT | 0, .off = 4 };

	feed(f, 150, 1, chain, 4, &leaf);
	assert_int_equal(f->cc.nr, 1);
	assert_int_equal(f->cc.v[0].frames_nr, 3);
	frame_is(f, 0, 0, NATIVE_ID_BIT | 0, 0x4);
	frame_is(f, 0, 1, STACK_FRAME_CLASS, HB_CLASS_NO_MAP);
	frame_is(f, 0, 2, STACK_FRAME_CLASS, HB_CLASS_NO_MAP);
}

static void a_sample_without_a_callchain_counts_nothing(void **state)
{
	struct fixture *f = *state;
	const struct classify_verdict leaf = { .cls = HB_CLASS_JIT, .obj = 0, .off = 4 };

	feed(f, 150, 1, NULL, 0, &leaf);
	assert_false(f->cc.any);
	assert_int_equal(f->cc.nr, 0);
	assert_int_equal(sample_fixture__resolve_calls(), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(markers_kernel_runs_and_return_addresses, setup, teardown),
		cmocka_unit_test_setup_teardown(identical_stacks_are_counted_once, setup, teardown),
		cmocka_unit_test_setup_teardown(frames_in_no_object_are_their_class, setup, teardown),
		cmocka_unit_test_setup_teardown(a_sample_without_a_callchain_counts_nothing, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

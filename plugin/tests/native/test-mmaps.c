// SPDX-License-Identifier: MIT
/*
 * Unit tests of the recording's maps (plugin/native/mmaps.c). Each case is a small
 * history of MMAP and FORK records; the expected mapping follows from perf
 * 6.1's rules (machine__process_mmap2_event, machine__process_fork_event,
 * map__new), worked out by hand in the comments.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <cmocka.h>

#include <linux/perf_event.h>

#include "native/mmaps.h"

static void mmap_rec(struct mmaps *m, uint32_t pid, uint64_t start, uint64_t len, uint64_t pgoff,
		     uint64_t time, const char *name, uint32_t prot)
{
	struct perfdata_mmap mm = {
		.pid = pid, .tid = pid, .start = start, .len = len, .pgoff = pgoff, .time = time,
		.has_time = true, .mmap2 = true, .misc = PERF_RECORD_MISC_USER, .prot = prot,
		.flags = MAP_PRIVATE, .filename = name,
	};

	assert_int_equal(mmaps__on_mmap(m, &mm), 0);
}

static void fork_rec(struct mmaps *m, uint32_t pid, uint32_t ppid, uint64_t time, uint16_t misc)
{
	struct perfdata_task t = { .misc = misc, .pid = pid, .ppid = ppid, .tid = pid, .ptid = ppid, .time = time };

	assert_int_equal(mmaps__on_task(m, &t), 0);
}

static const char *file_at(struct mmaps *m, uint32_t pid, uint64_t ip, uint64_t time)
{
	const struct mmaps_map *mp = mmaps__find(m, pid, ip, time);

	return mp ? m->files[mp->file].path : NULL;
}

/* A later mmap over an address takes it from then on, not before. */
static void a_later_map_takes_the_address_from_its_time(void **state)
{
	struct mmaps m;

	mmaps__init(&m);
	mmap_rec(&m, 10, 0x1000, 0x3000, 0, 100, "/lib/a.so", PROT_READ | PROT_EXEC);
	mmap_rec(&m, 10, 0x2000, 0x1000, 0, 200, "/lib/b.so", PROT_READ | PROT_EXEC);
	assert_int_equal(mmaps__finish(&m, true), 0);
	assert_string_equal(file_at(&m, 10, 0x2500, 150), "/lib/a.so");
	assert_string_equal(file_at(&m, 10, 0x2500, 250), "/lib/b.so");
	/* the part of a.so that b.so did not cover is still a.so's */
	assert_string_equal(file_at(&m, 10, 0x3500, 250), "/lib/a.so");
	assert_null(file_at(&m, 10, 0x2500, 50));
	assert_null(file_at(&m, 10, 0x5000, 250));
	assert_null(file_at(&m, 11, 0x2500, 250));
	mmaps__release(&m);
}

/*
 * A fork copies the parent's maps as they are then (maps__clone); the
 * parent's later maps are not the child's, the child's own maps cover what
 * they cover from their time on, and exec drops nothing (perf 6.1 keeps the
 * copied maps after exec).
 */
static void a_forked_process_sees_its_parents_maps_of_the_fork(void **state)
{
	struct mmaps m;

	mmaps__init(&m);
	mmap_rec(&m, 10, 0x1000, 0x1000, 0, 100, "/bin/parent", PROT_READ | PROT_EXEC);
	mmap_rec(&m, 10, 0x9000, 0x1000, 0, 400, "/lib/late.so", PROT_READ | PROT_EXEC);
	fork_rec(&m, 20, 10, 300, 0);
	mmap_rec(&m, 20, 0x5000, 0x1000, 0, 500, "/bin/child", PROT_READ | PROT_EXEC);
	assert_int_equal(mmaps__finish(&m, true), 0);
	assert_string_equal(file_at(&m, 20, 0x1800, 600), "/bin/parent");
	assert_string_equal(file_at(&m, 20, 0x5800, 600), "/bin/child");
	assert_null(file_at(&m, 20, 0x9800, 600));
	assert_string_equal(file_at(&m, 10, 0x9800, 600), "/lib/late.so");
	mmaps__release(&m);
}

/* perf's own FORK records for processes it found running carry FORK_EXEC:
 * no copy (their maps are synthesized after). A thread shares its maps. */
static void synthesized_forks_copy_nothing_and_threads_share(void **state)
{
	struct mmaps m;

	mmaps__init(&m);
	mmap_rec(&m, 10, 0x1000, 0x1000, 0, 100, "/bin/parent", PROT_READ | PROT_EXEC);
	fork_rec(&m, 20, 10, 300, PERF_RECORD_MISC_FORK_EXEC);
	fork_rec(&m, 10, 10, 350, 0);
	assert_int_equal(mmaps__finish(&m, true), 0);
	assert_null(file_at(&m, 20, 0x1800, 600));
	assert_string_equal(file_at(&m, 10, 0x1800, 600), "/bin/parent");
	mmaps__release(&m);
}

/* A pid used again after a new fork is a new process: the old one's maps are gone. */
static void a_reused_pid_is_a_new_process(void **state)
{
	struct mmaps m;

	mmaps__init(&m);
	mmap_rec(&m, 10, 0x1000, 0x1000, 0, 100, "/bin/shell", PROT_READ | PROT_EXEC);
	mmap_rec(&m, 30, 0x7000, 0x1000, 0, 150, "/bin/old30", PROT_READ | PROT_EXEC);
	fork_rec(&m, 30, 10, 300, 0);
	assert_int_equal(mmaps__finish(&m, true), 0);
	assert_string_equal(file_at(&m, 30, 0x7800, 200), "/bin/old30");
	assert_null(file_at(&m, 30, 0x7800, 400));
	assert_string_equal(file_at(&m, 30, 0x1800, 400), "/bin/shell");
	mmaps__release(&m);
}

/* map__new: anonymous executable memory is named by the perf map, other
 * anonymous memory has no symbols, [vdso] is the vdso. */
static void names_memory_as_perf_names_it(void **state)
{
	struct mmaps m;
	const struct mmaps_map *mp;

	mmaps__init(&m);
	mmap_rec(&m, 10, 0x1000, 0x1000, 0, 100, "//anon", PROT_READ | PROT_EXEC);
	mmap_rec(&m, 10, 0x2000, 0x1000, 0, 100, "//anon", PROT_READ | PROT_WRITE);
	mmap_rec(&m, 10, 0x3000, 0x1000, 0, 100, "[vdso]", PROT_READ | PROT_EXEC);
	mmap_rec(&m, 10, 0x4000, 0x1000, 0x2000, 100, "/lib/c.so", PROT_READ | PROT_EXEC);
	mmap_rec(&m, 10, 0x5000, 0x1000, 0, 100, "[heap]", PROT_READ | PROT_EXEC);
	assert_int_equal(mmaps__finish(&m, true), 0);
	assert_int_equal(mmaps__find(&m, 10, 0x1000, 200)->kind, MMAPS_PERFMAP);
	assert_int_equal(mmaps__find(&m, 10, 0x2000, 200)->kind, MMAPS_ANON);
	assert_int_equal(mmaps__find(&m, 10, 0x3000, 200)->kind, MMAPS_VDSO);
	mp = mmaps__find(&m, 10, 0x4fff, 200);
	assert_int_equal(mp->kind, MMAPS_FILE);
	assert_int_equal(mp->pgoff, 0x2000);
	assert_int_equal(mmaps__find(&m, 10, 0x5000, 200)->kind, MMAPS_PERFMAP);
	mmaps__release(&m);
}

/* The build-id perf recorded for a user-space file is the file's. */
static void files_take_the_build_id_perf_recorded(void **state)
{
	struct mmaps m;
	struct perfdata_build_id b = { .misc = PERF_RECORD_MISC_USER, .pid = -1, .size = 20, .filename = "/lib/a.so" };
	struct perfdata_build_id k = { .misc = PERF_RECORD_MISC_KERNEL, .pid = -1, .size = 20, .filename = "/lib/a.so" };
	const struct mmaps_map *mp;

	memset(b.id, 0x42, 20);
	memset(k.id, 0x99, 20);
	mmaps__init(&m);
	mmap_rec(&m, 10, 0x1000, 0x1000, 0, 100, "/lib/a.so", PROT_READ | PROT_EXEC);
	assert_int_equal(mmaps__on_build_id(&m, &k), 0);
	assert_int_equal(mmaps__on_build_id(&m, &b), 0);
	assert_int_equal(mmaps__finish(&m, true), 0);
	mp = mmaps__find(&m, 10, 0x1000, 200);
	assert_int_equal(m.files[mp->file].build_id_size, 20);
	assert_int_equal(m.files[mp->file].build_id[0], 0x42);
	mmaps__release(&m);
}

/* Without times (no sample_id_all) the newest map over an address holds it. */
static void untimed_maps_are_the_newest(void **state)
{
	struct mmaps m;

	mmaps__init(&m);
	mmap_rec(&m, 10, 0x1000, 0x3000, 0, 0, "/lib/a.so", PROT_READ | PROT_EXEC);
	mmap_rec(&m, 10, 0x2000, 0x1000, 0, 0, "/lib/b.so", PROT_READ | PROT_EXEC);
	assert_int_equal(mmaps__finish(&m, false), 0);
	assert_string_equal(file_at(&m, 10, 0x2500, 0), "/lib/b.so");
	assert_string_equal(file_at(&m, 10, 0x1500, 12345), "/lib/a.so");
	mmaps__release(&m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_later_map_takes_the_address_from_its_time),
		cmocka_unit_test(a_forked_process_sees_its_parents_maps_of_the_fork),
		cmocka_unit_test(synthesized_forks_copy_nothing_and_threads_share),
		cmocka_unit_test(a_reused_pid_is_a_new_process),
		cmocka_unit_test(names_memory_as_perf_names_it),
		cmocka_unit_test(files_take_the_build_id_perf_recorded),
		cmocka_unit_test(untimed_maps_are_the_newest),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: MIT
/*
 * Unit tests of perfdata__walk (plugin/perf/perfdata*.c): every MMAP/MMAP2
 * with its time, FORK/EXIT, the build-ids and the arch perf recorded. The
 * values expected of the real recordings are perf's own: `perf report -D`
 * prints each record with its sample_id time in ns, `perf buildid-list` the
 * build-id table, `perf report --header-only` the arch (all run on the
 * committed files; the lines are quoted below).
 */
#include "tests/perfdata-check.h"

#include <sys/mman.h>
#include <linux/perf_event.h>

#define MAX_SEEN 32

struct seen {
	struct perfdata_mmap mmap[MAX_SEEN];
	char name[MAX_SEEN][128];
	size_t mmaps;
	struct perfdata_task task[MAX_SEEN];
	size_t tasks;
	struct perfdata_build_id bid[MAX_SEEN];
	char bid_name[MAX_SEEN][128];
	size_t bids;
	size_t markers;
};

static int on_mmap(void *arg, const struct perfdata_mmap *m)
{
	struct seen *s = arg;

	if (s->mmaps < MAX_SEEN) {
		s->mmap[s->mmaps] = *m;
		snprintf(s->name[s->mmaps], sizeof(s->name[0]), "%s", m->filename);
		s->mmap[s->mmaps].filename = s->name[s->mmaps];
	}
	s->mmaps++;
	return 0;
}

static int on_task(void *arg, const struct perfdata_task *t)
{
	struct seen *s = arg;

	if (s->tasks < MAX_SEEN)
		s->task[s->tasks] = *t;
	s->tasks++;
	return 0;
}

static int on_build_id(void *arg, const struct perfdata_build_id *b)
{
	struct seen *s = arg;

	if (s->bids < MAX_SEEN) {
		s->bid[s->bids] = *b;
		snprintf(s->bid_name[s->bids], sizeof(s->bid_name[0]), "%s", b->filename);
	}
	s->bids++;
	return 0;
}

static int on_marker(void *arg, uint32_t pid, const char *path)
{
	((struct seen *)arg)->markers++;
	return 0;
}

static int walk_file(const char *path, struct seen *s, struct perfdata_scan_stats *st)
{
	struct perfdata_visitor v = { on_marker, on_mmap, on_task, on_build_id, s };
	char err[512];

	memset(s, 0, sizeof(*s));
	return perfdata__walk(path, &v, st, err, sizeof(err));
}

static void hex_of(const uint8_t *id, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", id[i]);
	out[2 * n] = '\0';
}

/*
 * test-data/glibc-evex/perf.data, `perf report -D`:
 * 2126856993715 0x408 [0x80]: PERF_RECORD_MMAP2 28750/28750: [0x7f403e2c6000(0x156000) @ 0x26000 fe:00 326279 0]: r-xp /usr/lib/x86_64-linux-gnu/libc.so.6
 * 2128857396898 0xf960 [0x30]: PERF_RECORD_EXIT(28750:28750):(28740:28740)
 * and 0 0x158 [0x50]: PERF_RECORD_MMAP -1/0: [0xffffffff81000000(0x120bb08) @ 0xffffffff81000000]: x [kernel.kallsyms]_text
 */
static void walks_the_maps_of_a_real_recording_as_perf_dumps_them(void **state)
{
	struct perfdata_scan_stats st;
	struct seen s;

	assert_int_equal(walk_file("test-data/glibc-evex/perf.data", &s, &st), 0);
	assert_int_equal(st.timed, 1);
	assert_int_equal(s.mmaps, 5);
	/* the kernel's map, synthesized by perf: an MMAP of pid -1 at time 0 */
	assert_false(s.mmap[0].mmap2);
	assert_int_equal(s.mmap[0].pid, UINT32_MAX);
	assert_int_equal(s.mmap[0].start, 0xffffffff81000000ULL);
	assert_int_equal(s.mmap[0].len, 0x120bb08);
	assert_string_equal(s.mmap[0].filename, "[kernel.kallsyms]_text");
	/* libc's text */
	const struct perfdata_mmap *m = &s.mmap[4];

	assert_true(m->mmap2);
	assert_true(m->has_time);
	assert_int_equal(m->time, 2126856993715ULL);
	assert_int_equal(m->pid, 28750);
	assert_int_equal(m->tid, 28750);
	assert_int_equal(m->start, 0x7f403e2c6000ULL);
	assert_int_equal(m->len, 0x156000);
	assert_int_equal(m->pgoff, 0x26000);
	assert_int_equal(m->maj, 0xfe);
	assert_int_equal(m->min, 0);
	assert_int_equal(m->ino, 326279);
	assert_int_equal(m->prot, PROT_READ | PROT_EXEC);
	assert_int_equal(m->misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
	assert_int_equal(m->build_id_size, 0);
	assert_string_equal(m->filename, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	assert_string_equal(s.mmap[3].filename, "[vdso]");
	assert_int_equal(s.mmap[3].time, 2126856724937ULL);
	assert_int_equal(s.tasks, 1);
	assert_true(s.task[0].exit);
	assert_int_equal(s.task[0].pid, 28750);
	assert_int_equal(s.task[0].ppid, 28740);
	assert_int_equal(s.task[0].time, 2128857396898ULL);
	assert_int_equal(s.markers, 0);
}

/*
 * The feature section's build-ids, `perf buildid-list -i test-data/glibc-evex/perf.data`:
 * 4a5a9b0affb66c437abcd455d2738af879985fa9 [kernel.kallsyms]
 * e95baaeaec8534edc5df3654182ddf12b19d9b23 [vdso]
 * 93ac61ec5a8eb1396f9fbd350e3169a558528a40 /usr/lib/x86_64-linux-gnu/libc.so.6
 */
static void reads_the_build_ids_perf_recorded(void **state)
{
	struct perfdata_scan_stats st;
	struct seen s;
	char hex[41];

	assert_int_equal(walk_file("test-data/glibc-evex/perf.data", &s, &st), 0);
	assert_int_equal(s.bids, 3);
	hex_of(s.bid[0].id, s.bid[0].size, hex);
	assert_string_equal(hex, "4a5a9b0affb66c437abcd455d2738af879985fa9");
	assert_string_equal(s.bid_name[0], "[kernel.kallsyms]");
	assert_int_equal(s.bid[0].misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_KERNEL);
	hex_of(s.bid[2].id, s.bid[2].size, hex);
	assert_string_equal(hex, "93ac61ec5a8eb1396f9fbd350e3169a558528a40");
	assert_string_equal(s.bid_name[2], "/usr/lib/x86_64-linux-gnu/libc.so.6");
	assert_int_equal(s.bid[2].misc & PERF_RECORD_MISC_CPUMODE_MASK, PERF_RECORD_MISC_USER);
	assert_int_equal(s.bid[2].pid, -1);
}

/*
 * Pipe mode lays the attrs out in HEADER_ATTR records (sample_id with
 * PERF_SAMPLE_ID, 8 bytes more), test-data/perfdata/pipe.data, `perf report -D`:
 * 943813506235 0xe58 [0x88]: PERF_RECORD_MMAP2 13153/13153: [0x7f971f569000(0x156000) @ 0x26000 fe:00 332835 0]: r-xp /usr/lib/x86_64-linux-gnu/libc.so.6
 * 943864137409 0x1900 [0x38]: PERF_RECORD_EXIT(13153:13153):(13152:13152)
 */
static void times_pipe_mode_records_by_the_header_attr_records(void **state)
{
	struct perfdata_scan_stats st;
	struct seen s;
	size_t i;

	assert_int_equal(walk_file("test-data/perfdata/pipe.data", &s, &st), 0);
	assert_int_equal(st.pipe_format, 1);
	assert_int_equal(st.timed, 1);
	for (i = 0; i < s.mmaps && strcmp(s.name[i], "/usr/lib/x86_64-linux-gnu/libc.so.6"); i++)
		;
	assert_true(i < s.mmaps);
	assert_int_equal(s.mmap[i].time, 943813506235ULL);
	assert_int_equal(s.mmap[i].ino, 332835);
	assert_int_equal(s.task[s.tasks - 1].time, 943864137409ULL);
	assert_int_equal(s.markers, 1);
}

/* A perf_event_attr of 128 bytes with sample_type and sample_id_all. */
static void put_attr(struct perfdata_writer *w, uint64_t sample_type, bool sample_id_all)
{
	size_t at = w->len;

	perfdata_writer__fill(w, 0, 128);
	perfdata_writer__put_u64(w, at + 0, 128ULL << 32);	/* type 0, size 128 */
	perfdata_writer__put_u64(w, at + 24, sample_type);
	/* the bitfield: sample_id_all is bit 18 counted from the first member, which a
	 * little-endian writer puts in the lowest bit and a big-endian one in the highest */
	perfdata_writer__put_u64(w, at + 40, !sample_id_all ? 0 : w->swapped ? 1ULL << (63 - 18) : 1ULL << 18);
}

/* An MMAP2 whose sample_id holds TID, TIME, ID, (STREAM_ID,) CPU and IDENTIFIER. */
static void mmap2_with_id(struct perfdata_writer *w, uint16_t misc, uint64_t time, uint64_t id,
			  bool with_build_id, bool stream_id)
{
	size_t r = perfdata_writer__begin(w, 10, misc);

	perfdata_writer__u32(w, 77);
	perfdata_writer__u32(w, 78);
	perfdata_writer__u64(w, 0x400000);
	perfdata_writer__u64(w, 0x2000);
	perfdata_writer__u64(w, 0x1000);
	if (with_build_id) {
		uint8_t b[24] = { 20, 0, 0, 0 };

		for (int i = 0; i < 20; i++)
			b[4 + i] = (uint8_t)(0xa0 + i);
		perfdata_writer__bytes(w, b, sizeof(b));
	} else {
		perfdata_writer__u32(w, 8);
		perfdata_writer__u32(w, 1);
		perfdata_writer__u64(w, 1234);
		perfdata_writer__u64(w, 5);
	}
	perfdata_writer__u32(w, PROT_READ | PROT_EXEC);
	perfdata_writer__u32(w, MAP_PRIVATE);
	perfdata_writer__bytes(w, "/bin/x\0\0", 8);
	/* sample_id: TID, TIME, ID, STREAM_ID, CPU, IDENTIFIER */
	perfdata_writer__u32(w, 77);
	perfdata_writer__u32(w, 78);
	perfdata_writer__u64(w, time);
	perfdata_writer__u64(w, id);
	if (stream_id)
		perfdata_writer__u64(w, 99);
	perfdata_writer__u64(w, 3);
	perfdata_writer__u64(w, id);
	perfdata_writer__end(w, r);
}

/*
 * Two attrs of different layouts: IDENTIFIER (the last u64) names the attr,
 * whose sample_type places the time. The second attr also samples
 * STREAM_ID, so its time is one slot further from the end. Both byte orders.
 */
static void places_the_time_by_the_attr_the_identifier_names(void **state)
{
	for (int swapped = 0; swapped < 2; swapped++) {
		struct perfdata_writer w;
		struct perfdata_scan_stats st;
		struct perfdata_visitor v = { NULL, on_mmap, on_task, on_build_id, NULL };
		uint64_t t1 = PERF_SAMPLE_TID | PERF_SAMPLE_TIME | PERF_SAMPLE_ID | PERF_SAMPLE_CPU |
			      PERF_SAMPLE_IDENTIFIER;
		struct seen s = { 0 };
		char err[256];
		size_t attrs, ids;

		v.arg = &s;
		perfdata_writer__init(&w, PERFDATA_WRITER_FILE, swapped);
		mmap2_with_id(&w, PERF_RECORD_MISC_USER, 1000, 11, false, false);
		mmap2_with_id(&w, PERF_RECORD_MISC_USER | PERF_RECORD_MISC_MMAP_BUILD_ID, 2000, 22, true, true);
		perfdata_writer__finish(&w);
		/* ids of the two attrs, then the attr section: attr + {ids offset, size} each */
		ids = w.len;
		perfdata_writer__u64(&w, 11);
		perfdata_writer__u64(&w, 22);
		attrs = w.len;
		put_attr(&w, t1, true);
		perfdata_writer__u64(&w, ids);
		perfdata_writer__u64(&w, 8);
		put_attr(&w, t1 | PERF_SAMPLE_STREAM_ID, true);
		perfdata_writer__u64(&w, ids + 8);
		perfdata_writer__u64(&w, 8);
		perfdata_writer__put_u64(&w, 16, 144);
		perfdata_writer__put_u64(&w, 24, attrs);
		perfdata_writer__put_u64(&w, 32, 2 * 144);
		assert_false(w.oom);
		assert_int_equal(perfdata__walk_buf(w.buf, w.len, "ids.data", &v, &st, err, sizeof(err)), 0);
		assert_int_equal(st.timed, 1);
		assert_int_equal(s.mmaps, 2);
		assert_int_equal(s.mmap[0].time, 1000);
		assert_int_equal(s.mmap[0].maj, 8);
		assert_int_equal(s.mmap[0].ino, 1234);
		assert_int_equal(s.mmap[0].prot, PROT_READ | PROT_EXEC);
		/* attr 22 lays out STREAM_ID too, so its time is one slot further from
		 * the end: a walk by the first attr's layout would read the id, 22 */
		assert_int_equal(s.mmap[1].time, 2000);
		assert_int_equal(s.mmap[1].build_id_size, 20);
		assert_int_equal(s.mmap[1].build_id[0], 0xa0);
		assert_int_equal(s.mmap[1].build_id[19], 0xa0 + 19);
		assert_string_equal(s.mmap[1].filename, "/bin/x");
		perfdata_writer__release(&w);
	}
}

/* Without sample_id_all the records have no time; FORK's own time field stands in. */
static void untimed_records_say_so_and_forks_keep_their_own_time(void **state)
{
	struct perfdata_writer w;
	struct perfdata_scan_stats st;
	struct seen s = { 0 };
	struct perfdata_visitor v = { NULL, on_mmap, on_task, NULL, &s };
	char err[256];
	size_t attrs, r;

	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	perfdata_writer__mmap2(&w, 5, 5, 0x1000, 0x1000, "/bin/y");
	r = perfdata_writer__begin(&w, 7, PERF_RECORD_MISC_FORK_EXEC);
	perfdata_writer__u32(&w, 6);
	perfdata_writer__u32(&w, 5);
	perfdata_writer__u32(&w, 6);
	perfdata_writer__u32(&w, 5);
	perfdata_writer__u64(&w, 777);
	perfdata_writer__end(&w, r);
	perfdata_writer__finish(&w);
	attrs = w.len;
	put_attr(&w, PERF_SAMPLE_TID | PERF_SAMPLE_TIME, false);
	perfdata_writer__u64(&w, 0);
	perfdata_writer__u64(&w, 0);
	perfdata_writer__put_u64(&w, 16, 144);
	perfdata_writer__put_u64(&w, 24, attrs);
	perfdata_writer__put_u64(&w, 32, 144);
	assert_int_equal(perfdata__walk_buf(w.buf, w.len, "untimed.data", &v, &st, err, sizeof(err)), 0);
	assert_int_equal(st.timed, 0);
	assert_int_equal(s.mmaps, 1);
	assert_false(s.mmap[0].has_time);
	assert_int_equal(s.tasks, 1);
	assert_false(s.task[0].exit);
	assert_int_equal(s.task[0].pid, 6);
	assert_int_equal(s.task[0].ppid, 5);
	assert_int_equal(s.task[0].time, 777);
	assert_true(s.task[0].misc & PERF_RECORD_MISC_FORK_EXEC);
	perfdata_writer__release(&w);
}

/* A build-id table cut short is left unread; the records still count. */
static void a_cut_build_id_table_is_not_an_error(void **state)
{
	struct perfdata_writer w;
	struct perfdata_scan_stats st;
	struct seen s = { 0 };
	struct perfdata_visitor v = { NULL, on_mmap, NULL, on_build_id, &s };
	char err[256];
	size_t table, sec, r;

	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	perfdata_writer__mmap2(&w, 5, 5, 0x1000, 0x1000, "/bin/y");
	perfdata_writer__finish(&w);
	perfdata_writer__put_u64(&w, 72, 1ULL << 2);	/* HEADER_BUILD_ID */
	table = w.len;
	perfdata_writer__u64(&w, 0);
	perfdata_writer__u64(&w, 0);
	sec = w.len;
	r = perfdata_writer__begin(&w, 0, PERF_RECORD_MISC_USER | (1 << 15));
	perfdata_writer__u32(&w, (uint32_t)-1);
	perfdata_writer__fill(&w, 0x11, 20);
	perfdata_writer__bytes(&w, (uint8_t[4]){ 20, 0, 0, 0 }, 4);
	perfdata_writer__bytes(&w, "/bin/y\0\0", 8);
	perfdata_writer__end(&w, r);
	perfdata_writer__put_u64(&w, table, sec);
	perfdata_writer__put_u64(&w, table + 8, w.len - sec);
	assert_int_equal(perfdata__walk_buf(w.buf, w.len, "bid.data", &v, &st, err, sizeof(err)), 0);
	assert_int_equal(s.bids, 1);
	assert_string_equal(s.bid_name[0], "/bin/y");
	assert_int_equal(s.bid[0].size, 20);
	assert_int_equal(s.bid[0].id[0], 0x11);
	/* the same table claiming more than the file holds */
	memset(&s, 0, sizeof(s));
	perfdata_writer__put_u64(&w, table + 8, w.len);
	assert_int_equal(perfdata__walk_buf(w.buf, w.len, "bid.data", &v, &st, err, sizeof(err)), 0);
	assert_int_equal(s.bids, 0);
	assert_int_equal(s.mmaps, 1);
	perfdata_writer__release(&w);
}

/*
 * The recording machine's arch, `perf report --header-only`: "# arch : x86_64"
 * for the file-format recordings (the HEADER_ARCH feature section, after
 * other sections: glibc-evex's bitmap has HOSTNAME .. VERSION before it) and
 * for the pipe one (a PERF_RECORD_FEATURE record, `perf report -D`:
 * "0x140 [0x54]: PERF_RECORD_FEATURE" among others).
 */
static void reads_the_arch_perf_recorded(void **state)
{
	static const char *const recordings[] = {
		"test-data/glibc-evex/perf.data", "test-data/jit-cpython313/perf.data",
		"test-data/perfdata/pipe.data",
	};
	struct perfdata_scan_stats st;
	struct seen s;

	for (size_t i = 0; i < sizeof(recordings) / sizeof(recordings[0]); i++) {
		assert_int_equal(walk_file(recordings[i], &s, &st), 0);
		assert_string_equal(st.arch, "x86_64");
	}
	assert_int_equal(st.pipe_format, 1);
}

/*
 * Its kernel release, as `perf report --header-only` says ("# os release :
 * 6.18.44-fc-v669"): the HEADER_OSRELEASE section (bit 4) of the file-format
 * recordings and the pipe's PERF_RECORD_FEATURE record.
 */
static void reads_the_os_release_perf_recorded(void **state)
{
	static const struct { const char *path, *release; } recordings[] = {
		{ "test-data/glibc-evex/perf.data", "6.18.44-fc-v669" },
		{ "test-data/jit-cpython313/perf.data", "6.18.44-fc-v1147" },
		{ "test-data/perfdata/pipe.data", "6.18.44-fc-v669" },
	};
	struct perfdata_scan_stats st;
	struct seen s;

	for (size_t i = 0; i < sizeof(recordings) / sizeof(recordings[0]); i++) {
		assert_int_equal(walk_file(recordings[i].path, &s, &st), 0);
		assert_string_equal(st.osrelease, recordings[i].release);
	}
}

/* A file whose HEADER_ARCH section is ARCH (length LEN as written), behind a
 * HOSTNAME section (bit 3) so that the section is found by its place in the bitmap. */
static void arch_file(struct perfdata_writer *w, const char *arch, uint32_t len)
{
	size_t table, sec;

	perfdata_writer__init(w, PERFDATA_WRITER_FILE, false);
	perfdata_writer__mmap2(w, 5, 5, 0x1000, 0x1000, "/bin/y");
	perfdata_writer__finish(w);
	perfdata_writer__put_u64(w, 72, 1ULL << 3 | 1ULL << 6);	/* HEADER_HOSTNAME, HEADER_ARCH */
	table = w->len;
	perfdata_writer__fill(w, 0, 32);
	sec = w->len;
	perfdata_writer__u32(w, 8);
	perfdata_writer__bytes(w, "vm\0\0\0\0\0\0", 8);
	perfdata_writer__put_u64(w, table, sec);
	perfdata_writer__put_u64(w, table + 8, w->len - sec);
	sec = w->len;
	perfdata_writer__u32(w, len);
	perfdata_writer__bytes(w, arch, strlen(arch));
	perfdata_writer__fill(w, 0, 8 - strlen(arch) % 8);
	perfdata_writer__put_u64(w, table + 16, sec);
	perfdata_writer__put_u64(w, table + 24, w->len - sec);
}

/* A section is read in its bounds; what is not uname -m's word is no arch. */
static void an_arch_is_a_short_word_or_nothing(void **state)
{
	static const struct {
		const char *written, *read;
		uint32_t len;
	} cases[] = {
		{ "aarch64", "aarch64", 8 },
		{ "s390x", "s390x", 1000 },		/* a length past the section: read to its end */
		{ "riscv64", "", 0 },			/* length 0: nothing */
		{ "x86 64", "", 8 },			/* a space: no word */
		{ "\x1b[2Jx", "", 8 },			/* a terminal escape */
		{ "abcdefghijklmnopqrstuvwxyz0123456789", "", 40 },	/* longer than any arch */
	};
	struct perfdata_scan_stats st;
	struct perfdata_writer w;
	struct seen s = { 0 };
	struct perfdata_visitor v = { NULL, on_mmap, NULL, NULL, &s };
	char err[256];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		arch_file(&w, cases[i].written, cases[i].len);
		assert_int_equal(perfdata__walk_buf(w.buf, w.len, "arch.data", &v, &st, err, sizeof(err)), 0);
		assert_string_equal(st.arch, cases[i].read);
		perfdata_writer__release(&w);
	}
}

/* uname -m's names as ELF machines (elf.h's numbers). */
static void an_arch_names_its_elf_machine(void **state)
{
	assert_int_equal(perfdata__arch_machine("x86_64"), 62);
	assert_int_equal(perfdata__arch_machine("aarch64"), 183);
	assert_int_equal(perfdata__arch_machine("s390x"), 22);
	assert_int_equal(perfdata__arch_machine("riscv64"), 243);
	assert_int_equal(perfdata__arch_machine("i686"), 3);
	assert_int_equal(perfdata__arch_machine("armv7l"), 40);
	assert_int_equal(perfdata__arch_machine("arm64"), 183);
	assert_int_equal(perfdata__arch_machine("ppc64le"), 21);
	assert_int_equal(perfdata__arch_machine(""), 0);
	assert_int_equal(perfdata__arch_machine("vax"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(walks_the_maps_of_a_real_recording_as_perf_dumps_them),
		cmocka_unit_test(reads_the_build_ids_perf_recorded),
		cmocka_unit_test(times_pipe_mode_records_by_the_header_attr_records),
		cmocka_unit_test(places_the_time_by_the_attr_the_identifier_names),
		cmocka_unit_test(untimed_records_say_so_and_forks_keep_their_own_time),
		cmocka_unit_test(a_cut_build_id_table_is_not_an_error),
		cmocka_unit_test(reads_the_arch_perf_recorded),
		cmocka_unit_test(reads_the_os_release_perf_recorded),
		cmocka_unit_test(an_arch_is_a_short_word_or_nothing),
		cmocka_unit_test(an_arch_names_its_elf_machine),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

// SPDX-License-Identifier: MIT
/*
 * Unit tests of the set of jitdumps the plugin reads (plugin/jit/dumps.c):
 * finding dumps through perf.data's markers, the fallback directories and
 * their names, refusing files that are not this recording's, re-reading
 * dumps that grow, and the end-of-run status and warnings. Every dump and
 * perf.data here is written by the tests' writers; the expected files,
 * pids and messages follow from the rules in dumps.h and plugin/JITDUMP.md
 * "How the plugin finds the dumps".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <ftw.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "jit/dumps.h"
#include "tests/jitdump-writer.h"
#include "tests/perfdata-writer.h"


struct fixture {
	char dir[64];
	struct dumps d;
	struct warnings w;	/* what the dumps said */
	size_t from;		/* the warnings looked at: w.kept[from..] */
};

/* The plugin's discovery of a recording's dumps, step by step as its entry
 * file takes them (plugin/hotblocks-dlfilter.c, read_recording). */
static void discover(struct dumps *d, const char *perf_data, bool live, const char *jitdir,
		     const char *const *named, size_t named_nr)
{
	dumps__add_fallback_dirs(d, jitdir, perf_data);
	if (!live) {
		struct perfdata_scan_stats st = { 0 };
		struct perfdata_visitor v;
		char err[512] = "";
		int ret;

		dumps__visitor(d, &v);
		ret = perfdata__walk(perf_data, &v, &st, err, sizeof(err));
		dumps__walked(d, perf_data, ret, &st, err);
	}
	dumps__add_named(d, named, named_nr);
}

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/hotblocks-test-dumps-XXXXXX");
	if (!mkdtemp(f->dir) || dumps__init(&f->d, &f->w) < 0) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	return remove(path);
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	dumps__release(&f->d);
	warnings__release(&f->w);
	nftw(f->dir, remove_one, 16, FTW_DEPTH | FTW_PHYS);
	free(f);
	return 0;
}

/* dir/rel, made under the test's directory (with its parent directory). */
static const char *path_of(void **state, const char *rel)
{
	struct fixture *f = *state;
	static char paths[16][256];
	static size_t next;
	char *p = paths[next++ % 16];

	snprintf(p, sizeof(paths[0]), "%s/%s", f->dir, rel);
	char *slash = strrchr(p, '/');

	*slash = 0;
	mkdir(p, 0755);
	*slash = '/';
	return p;
}

/* A dump with header pid `pid` and n loads of 16 bytes at 0x1000, 0x2000, ...
 * loaded at times 10, 20, ...; returns its writer's length. */
static size_t write_dump(const char *path, uint32_t pid, int n)
{
	struct jitdump_writer w;
	struct jitdump_writer_header h = jitdump_writer__default_header(pid);
	char name[16];
	size_t len;

	jitdump_writer__init(&w, false);
	jitdump_writer__header(&w, &h);
	for (int i = 0; i < n; i++) {
		struct jitdump_writer_load l = {
			.timestamp = 10 * (uint64_t)(i + 1), .pid = pid, .tid = pid,
			.code_addr = 0x1000 * (uint64_t)(i + 1), .code_index = (uint64_t)i,
			.name = name, .code_size = 16,
		};

		snprintf(name, sizeof(name), "f%d", i);
		jitdump_writer__code_load(&w, &l);
	}
	assert_int_equal(jitdump_writer__save(&w, path, w.len), 0);
	len = w.len;
	jitdump_writer__release(&w);
	return len;
}

static void saw_warning(void **state, const char *part)
{
	struct fixture *f = *state;

	for (size_t i = f->from; i < f->w.nr; i++)
		if (strstr(f->w.kept[i], part))
			return;
	fail_msg("no warning contains \"%s\" (%zu warnings)", part, f->w.nr - f->from);
}

static void no_warnings(void **state)
{
	struct fixture *f = *state;

	if (f->w.nr > f->from)
		fail_msg("unexpected warning: %s", f->w.kept[f->from]);
}

static void a_marked_dump_is_read_and_matched_by_the_marker_pid(void **state)
{
	struct fixture *f = *state;
	const char *p = path_of(state, "jit-100.dump");
	const struct dump_file *df;
	size_t id;

	write_dump(p, 100, 2);
	/* A JIT in a container: its header says 100, the host pid perf saw is 5000. */
	assert_int_equal(dumps__add(&f->d, p, 5000), 0);
	assert_int_equal(f->d.nr, 1);
	assert_int_equal(f->d.files[0].pid, 5000);
	assert_int_equal(codemap__lookup(f->d.map, 5000, 0x2008, 25, true, &id), CODEMAP_HIT);
	assert_string_equal(dumps__load(&f->d, id, &df)->name, "f1");
	assert_ptr_equal(df, &f->d.files[0]);
	assert_int_equal(codemap__lookup(f->d.map, 5000, 0x2008, 15, true, &id), CODEMAP_BEFORE_LOAD);
	assert_int_equal(codemap__lookup(f->d.map, 100, 0x2008, 25, true, &id), CODEMAP_MISS);
	assert_string_equal(dumps__status(df), "ok");
	dumps__warn_unfinished(&f->d);
	no_warnings(state);
}

static void a_dump_that_moved_is_found_in_the_fallback_directories(void **state)
{
	struct fixture *f = *state;
	const char *recorded = path_of(state, "rec/jit-101.dump");
	const char *moved = path_of(state, "moved/jit-101.dump");
	char dir[256];

	write_dump(moved, 101, 1);
	snprintf(dir, sizeof(dir), "%s/moved", f->dir);
	dumps__add_dir(&f->d, dir);
	assert_int_equal(dumps__add(&f->d, recorded, 101), 0);
	assert_int_equal(f->d.nr, 1);
	assert_string_equal(f->d.files[0].jd->path, moved);
	/* The way a recording moves (--keep, another machine): nothing wrong, no
	 * warning but one note naming both; the stream's jitdump line names the
	 * file read. */
	assert_int_equal(f->w.nr - f->from, 1);
	assert_int_equal(strncmp(f->w.kept[f->from], "note: ", 6), 0);
	saw_warning(state, "rec/jit-101.dump: not at its recorded path; read from ");
	saw_warning(state, moved);
	f->from = f->w.nr;
	/* What was searched is kept for the hint at the end. */
	assert_non_null(strstr(f->d.searched, "rec/jit-101.dump (not found)"));
	/* Not anywhere: said once, with the fallbacks. */
	assert_int_equal(dumps__add(&f->d, path_of(state, "rec/jit-109.dump"), 109), -ENOENT);
	saw_warning(state, "jit-109.dump named in perf.data not found (also looked in the fallback directories)");
	assert_int_equal(f->d.nr, 1);
}

/* The lines of the hint's "searched:" list that contain s. */
static int searched_lines(const struct dumps *d, const char *s)
{
	int n = 0;

	for (const char *line = d->searched; *line; line = strchr(line, '\n') + 1)
		n += strstr(line, s) && strstr(line, s) < strchr(line, '\n');
	return n;
}

/*
 * Regression: perf.data read as "perf.data" in the directory
 * its marker names, the dump gone. The recorded path, "./" + its name (the
 * directory of perf.data) and the current directory's are one file, and the
 * pid's own fallback search looks for that name again: the hint listed it
 * three times and then "in 2 fallback directories". Each place once.
 */
/* Beside perf.data, where a moved recording's dump is, a dump perf.data
 * names is read without a note; in --jitdir (or search=DIR) one note names
 * the file read. */
static void a_dump_beside_perf_data_is_read_without_a_note(void **state)
{
	struct fixture *f = *state;
	char perf_data[256], jitdir[256];

	write_dump(path_of(state, "moved/jit-101.dump"), 101, 1);
	write_dump(path_of(state, "jd/jit-102.dump"), 102, 1);
	snprintf(perf_data, sizeof(perf_data), "%s/moved/perf.data", f->dir);
	snprintf(jitdir, sizeof(jitdir), "%s/jd", f->dir);
	discover(&f->d, perf_data, true, jitdir, NULL, 0);
	assert_int_equal(dumps__add(&f->d, path_of(state, "rec/jit-101.dump"), 101), 0);
	assert_int_equal(f->d.nr, 1);
	assert_int_equal(f->w.nr - f->from, 0);
	assert_int_equal(dumps__add(&f->d, path_of(state, "rec/jit-102.dump"), 102), 0);
	assert_int_equal(f->d.nr, 2);
	assert_int_equal(f->w.nr - f->from, 1);
	saw_warning(state, "rec/jit-102.dump: not at its recorded path; read from ");
	saw_warning(state, jitdir);
}

static void the_searched_list_names_each_place_once(void **state)
{
	struct fixture *f = *state;
	const char *recorded = path_of(state, "rec/jit-101.dump");
	char cwd[4096], dir[256];

	assert_non_null(getcwd(cwd, sizeof(cwd)));
	snprintf(dir, sizeof(dir), "%s/rec", f->dir);
	/* Back in cwd before anything is checked: a failure must not leave the others there. */
	assert_int_equal(chdir(dir), 0);
	discover(&f->d, "perf.data", false, NULL, NULL, 0);
	int added = dumps__add(&f->d, recorded, 101);

	dumps__try_pid(&f->d, 101);
	assert_int_equal(chdir(cwd), 0);
	assert_int_equal(added, -ENOENT);
	/* "." and the current directory are one. */
	assert_int_equal(f->d.dirs_nr, 1);
	assert_int_equal(searched_lines(&f->d, "jit-101.dump"), 1);
	assert_int_equal(searched_lines(&f->d, recorded), 1);
	/* A directory of its own is still searched, and said. */
	snprintf(dir, sizeof(dir), "%s/other", f->dir);
	mkdir(dir, 0755);
	dumps__add_dir(&f->d, dir);
	dumps__try_pid(&f->d, 102);
	assert_int_equal(searched_lines(&f->d, "jit-102.dump in 2 fallback directories (not found)"), 1);
}

static void another_process_dump_is_used_only_when_named(void **state)
{
	struct fixture *f = *state;
	const char *p = path_of(state, "jit-102.dump");

	write_dump(p, 999, 1);
	assert_true(dumps__add(&f->d, p, 102) < 0);
	saw_warning(state, "its header says pid 999, not 102: another process's dump; not used");
	assert_int_equal(f->d.nr, 0);
	/* --dlarg jitdump=FILE: the user's word counts, the header gives the pid. */
	assert_int_equal(dumps__add_explicit(&f->d, p), 0);
	saw_warning(state, "its header says pid 999, not 102 as its name does (used as given)");
	assert_int_equal(f->d.nr, 1);
	assert_int_equal(f->d.files[0].pid, 999);
}

static void only_regular_files_are_read_and_each_once(void **state)
{
	struct fixture *f = *state;
	const char *dir = path_of(state, "jit-103.dump");
	const char *fifo = path_of(state, "jit-104.dump");
	const char *p = path_of(state, "jit-105.dump");
	const char *other = path_of(state, "hard/jit-105.dump");

	assert_int_equal(mkdir(dir, 0755), 0);
	assert_int_equal(mkfifo(fifo, 0644), 0);
	/* Opening a FIFO nobody writes would hang this test if it were tried. */
	assert_true(dumps__add(&f->d, dir, 103) < 0);
	assert_true(dumps__add(&f->d, fifo, 104) < 0);
	saw_warning(state, "jit-103.dump: not a regular file; not read as a jitdump");
	saw_warning(state, "jit-104.dump: not a regular file; not read as a jitdump");
	assert_int_equal(f->d.nr, 0);
	write_dump(p, 105, 1);
	assert_int_equal(link(p, other), 0);
	assert_int_equal(dumps__add(&f->d, p, 105), 0);
	assert_int_equal(dumps__add(&f->d, p, 105), 0);
	assert_int_equal(dumps__add_explicit(&f->d, other), 0);
	assert_int_equal(f->d.nr, 1);
}

static void a_pid_dump_is_found_by_its_name_unless_perf_data_says_otherwise(void **state)
{
	struct fixture *f = *state;
	char dir[256];

	snprintf(dir, sizeof(dir), "%s/fb", f->dir);
	write_dump(path_of(state, "fb/jit-106.dump"), 106, 1);
	write_dump(path_of(state, "fb/jit-107.dump"), 107, 1);
	dumps__add_dir(&f->d, dir);
	dumps__try_pid(&f->d, 106);
	assert_int_equal(f->d.nr, 1);
	saw_warning(state, "pid 106: using ");
	saw_warning(state, "found by its name (the jitdump paths perf.data records are not known)");
	/* Once perf.data was read, a pid without a marker has no dump of this recording. */
	dumps__markers_known(&f->d);
	dumps__try_pid(&f->d, 107);
	assert_int_equal(f->d.nr, 1);
	saw_warning(state, "jit-107.dump not used: perf.data records no jitdump mapping of pid 107");
	/* pid 0 writes no dump; nothing is looked up for it. */
	dumps__try_pid(&f->d, 0);
	assert_int_equal(f->d.nr, 1);
}

static void a_growing_dump_is_read_again(void **state)
{
	struct fixture *f = *state;
	const char *p = path_of(state, "jit-110.dump");
	struct jitdump_writer w;
	struct jitdump_writer_header h = jitdump_writer__default_header(110);
	struct jitdump_writer_load a = { .timestamp = 10, .pid = 110, .code_addr = 0x1000,
					 .name = "a", .code_size = 16 };
	struct jitdump_writer_load b = { .timestamp = 20, .pid = 110, .code_addr = 0x2000,
					 .code_index = 1, .name = "b", .code_size = 16 };
	size_t first, second, id;

	jitdump_writer__init(&w, false);
	jitdump_writer__header(&w, &h);
	jitdump_writer__code_load(&w, &a);
	first = w.len;
	jitdump_writer__code_load(&w, &b);
	second = w.len;
	assert_int_equal(jitdump_writer__save(&w, p, first), 0);
	assert_int_equal(dumps__add(&f->d, p, 110), 0);
	assert_int_equal(codemap__lookup(f->d.map, 110, 0x2000, 30, true, &id), CODEMAP_MISS);
	/* Half of b: not new yet, and no error. */
	assert_int_equal(jitdump_writer__append(&w, p, first, first + 20), 0);
	assert_int_equal(dumps__refresh(&f->d), 0);
	assert_string_equal(dumps__status(&f->d.files[0]), "truncated");
	assert_int_equal(jitdump_writer__append(&w, p, first + 20, second), 0);
	assert_int_equal(dumps__refresh(&f->d), 1);
	assert_int_equal(codemap__lookup(f->d.map, 110, 0x2000, 30, true, &id), CODEMAP_HIT);
	assert_string_equal(dumps__load(&f->d, id, NULL)->name, "b");
	assert_string_equal(dumps__status(&f->d.files[0]), "ok");
	/* Nothing changed: nothing read. */
	assert_int_equal(dumps__refresh(&f->d), 0);
	no_warnings(state);
	jitdump_writer__release(&w);
}

static void unfinished_dumps_are_told_apart_at_the_end(void **state)
{
	struct fixture *f = *state;
	struct jitdump_writer w;
	struct jitdump_writer_header h;
	struct jitdump_writer_load l = { .timestamp = 10, .code_addr = 0x1000, .name = "a", .code_size = 4 };
	char want[256];
	size_t wrap_at;
	struct jitdump_writer_move m = { .timestamp = 20, .old_code_addr = 0x1000, .new_code_addr = 0x3000,
					 .code_size = 4, .code_index = 77 };
	const char *cut = path_of(state, "jit-120.dump"), *bad = path_of(state, "jit-121.dump");
	const char *past = path_of(state, "jit-122.dump"), *odd = path_of(state, "jit-123.dump");
	size_t rec;

	/* A last record cut short: truncated. */
	h = jitdump_writer__default_header(120);
	jitdump_writer__init(&w, false);
	jitdump_writer__header(&w, &h);
	jitdump_writer__code_load(&w, &l);
	assert_int_equal(jitdump_writer__save(&w, cut, w.len - 3), 0);
	jitdump_writer__release(&w);
	/* A record whose total_size is below the prefix: corrupt. */
	h = jitdump_writer__default_header(121);
	jitdump_writer__init(&w, false);
	jitdump_writer__header(&w, &h);
	jitdump_writer__code_load(&w, &l);
	rec = jitdump_writer__begin(&w, JITDUMP_CODE_CLOSE, 30);
	jitdump_writer__end(&w, rec);
	jitdump_writer__put_u32(&w, rec + JITDUMP_REC_TOTAL_SIZE, 8);
	assert_int_equal(jitdump_writer__save(&w, bad, w.len), 0);
	jitdump_writer__release(&w);
	/* A header longer than the file: header-past-end. */
	h = jitdump_writer__default_header(122);
	h.total_size = 4096;
	jitdump_writer__init(&w, false);
	jitdump_writer__header(&w, &h);
	assert_int_equal(jitdump_writer__save(&w, past, 100), 0);
	jitdump_writer__release(&w);
	/* Complete, but with a record of a type from the future and a move of nothing. */
	h = jitdump_writer__default_header(123);
	jitdump_writer__init(&w, false);
	jitdump_writer__header(&w, &h);
	jitdump_writer__code_load(&w, &l);
	jitdump_writer__end(&w, jitdump_writer__begin(&w, 99, 15));
	jitdump_writer__code_move(&w, &m);
	/* crafted: code whose end passes 2^64 */
	wrap_at = jitdump_writer__code_load(&w, &(struct jitdump_writer_load){ .timestamp = 30,
		.code_addr = 0xfffffffffffffffeull, .name = "w", .code_size = 4 });
	assert_int_equal(jitdump_writer__save(&w, odd, w.len), 0);
	jitdump_writer__release(&w);

	assert_int_equal(dumps__add(&f->d, cut, 120), 0);
	assert_int_equal(dumps__add(&f->d, bad, 121), 0);
	saw_warning(state, "record total_size 8 < 16 (the loads before it are used)");
	assert_int_equal(dumps__add(&f->d, past, 122), 0);
	assert_int_equal(dumps__add(&f->d, odd, 123), 0);
	assert_int_equal(f->d.nr, 4);
	assert_string_equal(dumps__status(&f->d.files[0]), "truncated");
	assert_string_equal(dumps__status(&f->d.files[1]), "corrupt");
	assert_string_equal(dumps__status(&f->d.files[2]), "header-past-end");
	assert_string_equal(dumps__status(&f->d.files[3]), "ok");
	assert_int_equal(f->d.files[1].jd->nr, 1);

	f->from = f->w.nr;
	dumps__warn_unfinished(&f->d);
	/* After the 40-byte header (0x28), the 62-byte load (56 + "a" and its NUL
	 * + 4 code bytes) less the 3 bytes cut: 59 bytes. */
	saw_warning(state, "jit-120.dump+0x28: last record is incomplete (59 bytes); the dump was truncated");
	saw_warning(state, "jit-122.dump+0x8: header total_size 4096 runs past the end of the file (100 bytes): "
		    "no record was read");
	saw_warning(state, "jit-123.dump: skipped 1 records of unknown type");
	saw_warning(state, "jit-123.dump: skipped 1 CODE_MOVE records naming a code_index never loaded");
	snprintf(want, sizeof(want), "jit-123.dump+0x%zx: skipped 1 CODE_LOAD/CODE_MOVE records whose code_addr +"
		 " code_size passes 2^64 (the first here)", wrap_at);
	saw_warning(state, want);
	/* The corrupt dump's error was told when it was read; its tail is no truncation. */
	assert_int_equal(f->w.nr - f->from, 5);
}

/* A dump like write_dump's whose header names ELF machine elf_mach. */
static void write_dump_of_machine(const char *path, uint32_t pid, uint32_t elf_mach)
{
	struct jitdump_writer w;
	struct jitdump_writer_header h = jitdump_writer__default_header(pid);
	struct jitdump_writer_load l = { .timestamp = 10, .pid = pid, .tid = pid, .code_addr = 0x1000,
					 .name = "f", .code_size = 4 };

	h.elf_mach = elf_mach;
	jitdump_writer__init(&w, false);
	jitdump_writer__header(&w, &h);
	jitdump_writer__code_load(&w, &l);
	assert_int_equal(jitdump_writer__save(&w, path, w.len), 0);
	jitdump_writer__release(&w);
}

/* The machine of a process's files, as the entry file asks natives: pid 130's is x86-64. */
static uint16_t machine_of_130(void *arg, uint32_t pid, const char **file)
{
	(*(int *)arg)++;
	*file = "/usr/bin/python3.13";
	return pid == 130 ? 62 : 0;
}

/* A header with e_machine 0 (CPython 3.13's -X perf_jit, test-data/jit-cpython313)
 * takes perf.data's arch; without one, its process's files' machine; said once. */
static void a_dump_naming_no_machine_takes_the_recording_s(void **state)
{
	struct fixture *f = *state;
	struct perfdata_scan_stats st = { .arch = "aarch64" };
	const char *a = path_of(state, "jit-130.dump"), *b = path_of(state, "jit-131.dump");
	const char *c = path_of(state, "jit-132.dump");
	int asked = 0;

	write_dump_of_machine(a, 130, 0);
	write_dump_of_machine(b, 131, 0);
	write_dump_of_machine(c, 132, 22);
	assert_int_equal(dumps__add(&f->d, a, 130), 0);
	assert_int_equal(dumps__add(&f->d, b, 131), 0);
	assert_int_equal(dumps__add(&f->d, c, 132), 0);
	assert_int_equal(f->d.files[0].e_machine, 0);
	assert_int_equal(f->d.files[2].e_machine, 22);
	dumps__walked(&f->d, "perf.data", 0, &st, "");
	f->from = f->w.nr;
	dumps__settle_machines(&f->d, machine_of_130, &asked);
	assert_int_equal(f->d.files[0].e_machine, 183);
	assert_int_equal(f->d.files[1].e_machine, 183);
	assert_int_equal(f->d.files[2].e_machine, 22);	/* the header's, whatever the recording's */
	assert_int_equal(asked, 0);
	assert_int_equal(f->w.nr - f->from, 1);
	saw_warning(state, "jit-130.dump (and 1 more): its header names no machine (e_machine 0); "
		    "its code is read as perf.data's arch, aarch64 (e_machine 183)");

	/* perf.data without an arch (a pipe: not walked) */
	dumps__release(&f->d);
	assert_int_equal(dumps__init(&f->d, &f->w), 0);
	assert_int_equal(dumps__add(&f->d, a, 130), 0);
	assert_int_equal(dumps__add(&f->d, b, 131), 0);
	f->from = f->w.nr;
	dumps__settle_machines(&f->d, machine_of_130, &asked);
	assert_int_equal(f->d.files[0].e_machine, 62);
	assert_int_equal(f->d.files[1].e_machine, 0);
	assert_int_equal(asked, 2);
	assert_int_equal(f->w.nr - f->from, 2);
	saw_warning(state, "jit-130.dump: its header names no machine (e_machine 0); its code is read as "
		    "its process's, e_machine 62 (of /usr/bin/python3.13)");
	saw_warning(state, "jit-131.dump: its header names no machine (e_machine 0) and neither perf.data "
		    "(no arch) nor a file of its process says one: its code cannot be disassembled");
}

/* A file-format perf.data whose only records are MMAP2 markers of pid/path pairs. */
static void write_perf_data(const char *path, const uint32_t *pids, const char *const *paths, size_t n)
{
	struct perfdata_writer w;

	perfdata_writer__init(&w, PERFDATA_WRITER_FILE, false);
	for (size_t i = 0; i < n; i++)
		perfdata_writer__mmap2(&w, pids[i], pids[i], 0x7f0000000000, 0x1000, paths[i]);
	perfdata_writer__finish(&w);
	assert_int_equal(perfdata_writer__save(&w, path), 0);
	perfdata_writer__release(&w);
}

static void discovery_takes_markers_then_the_files_the_user_named(void **state)
{
	struct fixture *f = *state;
	const char *perf_data = path_of(state, "rec/perf.data");
	const char *marked = path_of(state, "rec/jit-200.dump");
	const char *named = path_of(state, "other/jit-300.dump");
	const char *missing = path_of(state, "other/jit-301.dump");
	const uint32_t pids[] = { 200 };
	const char *const paths[] = { marked };
	const char *const user[] = { named, missing };
	char cwd[4096];

	write_dump(marked, 200, 1);
	write_dump(path_of(state, "rec/jit-201.dump"), 201, 1);
	write_dump(named, 300, 1);
	write_perf_data(perf_data, pids, paths, 1);
	discover(&f->d, perf_data, false, NULL, user, 2);
	assert_int_equal(f->d.nr, 2);
	assert_string_equal(f->d.files[0].jd->path, marked);
	assert_int_equal(f->d.files[0].pid, 200);
	assert_string_equal(f->d.files[1].jd->path, named);
	assert_int_equal(f->d.files[1].pid, 300);
	saw_warning(state, "--dlarg jitdump=");
	saw_warning(state, "jit-301.dump: no such file");
	assert_true(f->d.markers_known);
	/* Fallbacks: perf.data's directory, then the current one. */
	assert_int_equal(f->d.dirs_nr, 2);
	assert_non_null(strstr(f->d.dirs[0], "/rec"));
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_string_equal(f->d.dirs[1], cwd);
	/* jit-201.dump lies next to perf.data, but perf.data has no marker of pid 201. */
	dumps__try_pid(&f->d, 201);
	assert_int_equal(f->d.nr, 2);
}

static void an_unreadable_perf_data_leaves_the_fallbacks(void **state)
{
	struct fixture *f = *state;
	const char *perf_data = path_of(state, "rec/perf.data");
	char dir[256];
	FILE *fp = fopen(perf_data, "w");

	assert_non_null(fp);
	fputs("not a perf.data file at all, but long enough to have a header......"
	      "........................................................", fp);
	fclose(fp);
	snprintf(dir, sizeof(dir), "%s/jd", f->dir);
	write_dump(path_of(state, "rec/jit-202.dump"), 202, 1);
	discover(&f->d, perf_data, false, dir, NULL, 0);
	saw_warning(state, "(jitdump paths recorded in it are unknown; using fallbacks)");
	assert_false(f->d.markers_known);
	/* jitdir first, then perf.data's directory. */
	assert_string_equal(f->d.dirs[0], dir);
	dumps__try_pid(&f->d, 202);
	assert_int_equal(f->d.nr, 1);
}

static void a_pipe_is_not_scanned(void **state)
{
	struct fixture *f = *state;
	char cwd[4096];

	/* Live mode: perf.data is perf's standard input, never read here. */
	discover(&f->d, "-", true, NULL, NULL, 0);
	no_warnings(state);
	assert_false(f->d.markers_known);
	assert_int_equal(f->d.dirs_nr, 1);
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_string_equal(f->d.dirs[0], cwd);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
	const struct CMUnitTest tests[] = {
		T(a_marked_dump_is_read_and_matched_by_the_marker_pid),
		T(a_dump_that_moved_is_found_in_the_fallback_directories),
		T(a_dump_beside_perf_data_is_read_without_a_note),
		T(the_searched_list_names_each_place_once),
		T(another_process_dump_is_used_only_when_named),
		T(only_regular_files_are_read_and_each_once),
		T(a_pid_dump_is_found_by_its_name_unless_perf_data_says_otherwise),
		T(a_growing_dump_is_read_again),
		T(unfinished_dumps_are_told_apart_at_the_end),
		T(a_dump_naming_no_machine_takes_the_recording_s),
		T(discovery_takes_markers_then_the_files_the_user_named),
		T(an_unreadable_perf_data_leaves_the_fallbacks),
		T(a_pipe_is_not_scanned),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

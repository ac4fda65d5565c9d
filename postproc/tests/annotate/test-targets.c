/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of postproc/annotate/targets.c: what a branch or call out of a
 * function lands in, worked out by hand on small streams (STREAM.md `load`
 * and `map`): the code load live when the caller was loaded, else the first
 * loaded after it; a sampled object before a bare load; another process's
 * code never; a sampled native symbol; a file mapping when nothing else
 * covers the address (its file offset: address - start + pgoff); nothing.
 * The names of real targets are checked against objdump, LLVM, the jitdumps
 * and the reference in scripts/tests/named-targets.sh, cranelift-targets.sh
 * and wasmtime-real.sh.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "annotate/targets.h"
#include "tests/stream/stream-text.h"

/*
 * pid 7: caller (jit, loaded at 500) at 0x1000; at 0x2000 "old" (loaded at
 * 100) then "new" (loaded at 900, after the caller); at 0x3000 only "late"
 * (loaded at 800); pid 8 has code at 0x4000. A native symbol of pid 7 at
 * 0x7000, and libc mapped at 0x7f0000000000 (file offset 0x26000 there).
 */
static const char stream_text[] =
	"hotblocks-stream 1\n"
	"event 0 cpu-clock\n"
	"total 0 all 3 3\n"
	"object 0 jit pid=7 e_machine=62 addr=0x1000 size=16 code-index=1 load-time=500 dump=d name=caller\n"
	"object 1 native pid=7 e_machine=62 addr=0x7000 size=32 dso=/usr/bin/prog sym-start=0x1000 name=helper\n"
	"object 2 jit pid=7 e_machine=62 addr=0x2000 size=64 code-index=2 load-time=100 dump=d name=old\n"
	"code 0 0x0 c3\n"
	"sample 0 0 0x0 1 1\n"
	"sample 1 0 0x0 1 1\n"
	"sample 2 0 0x0 1 1\n"
	"load pid=7 addr=0x2000 size=64 load-time=100 name=old\n"
	"load pid=7 addr=0x2000 size=64 load-time=900 name=new\n"
	"load pid=7 addr=0x3000 size=32 load-time=800 name=late\n"
	"load pid=8 addr=0x4000 size=32 load-time=10 name=other\n"
	"map pid=7 addr=0x7f0000000000 size=4096 pgoff=0x26000 time=5 dso=/usr/lib/libc.so.6 build-id=0011\n"
	"end\n";

static void targets_land_where_the_code_was_when_the_caller_was_loaded(void **state)
{
	struct stream s;
	struct targets *t;
	struct target x;

	stream_text__load(&s, stream_text);
	assert_int_equal(s.loads_nr, 4);
	assert_int_equal(s.maps_nr, 1);
	assert_int_equal(s.maps[0].build_id_size, 2);
	assert_int_equal(s.maps[0].build_id[1], 0x11);
	assert_int_equal(targets__new(&t, &s), 0);

	/* live at 500: "old" (100), not "new" (900); it is object 2 */
	assert_true(targets__find(t, 0, 0x2010, &x));
	assert_string_equal(x.name, "old");
	assert_int_equal(x.off, 0x10);
	assert_int_equal(x.obj, 2);
	assert_false(x.in_file);
	/* nothing there at 500: the first loaded after it */
	assert_true(targets__find(t, 0, 0x3000, &x));
	assert_string_equal(x.name, "late");
	assert_int_equal(x.off, 0);
	assert_int_equal(x.obj, -1);
	/* the end of a load is not in it; another process's code is not ours */
	assert_false(targets__find(t, 0, 0x3020, &x));
	assert_false(targets__find(t, 0, 0x4000, &x));
	/* a sampled native symbol of the process */
	assert_true(targets__find(t, 0, 0x7004, &x));
	assert_string_equal(x.name, "helper");
	assert_int_equal(x.obj, 1);
	/* native code (no load time) sees the newest load: "new" */
	assert_true(targets__find(t, 1, 0x2000, &x));
	assert_string_equal(x.name, "new");
	/* a file no symbol of which is known here (no such file): the file and its offset */
	assert_true(targets__find(t, 0, 0x7f0000000010, &x));
	assert_true(x.in_file);
	assert_string_equal(x.name, "/usr/lib/libc.so.6");
	assert_int_equal(x.off, 0x26010);
	targets__free(t);
	stream__release(&s);
	(void)state;
}

static void a_map_without_its_fields_is_an_error(void **state)
{
	static const char bad[] =
		"hotblocks-stream 1\nmap pid=7 addr=0x1000 size=16 time=0 dso=x\nend\n";
	char err[256];
	struct stream s;
	FILE *f = tmpfile();

	assert_non_null(f);
	fputs(bad, f);
	rewind(f);
	stream__init(&s);
	assert_int_not_equal(stream__read(&s, f, "t.hbs", err, sizeof(err)), 0);
	assert_non_null(strstr(err, "t.hbs:2: map: no 'pgoff=' field"));
	fclose(f);
	stream__release(&s);
	(void)state;
}

/* A map's found= (the plugin read the file there: --symfs, a search
 * directory): its symbols name the target, the recorded path being gone.
 * This process's libc and getpid in it, as the dynamic linker has them. */
static void a_file_read_elsewhere_names_its_targets(void **state)
{
	Dl_info info;
	char text[1024];
	struct stream s;
	struct targets *t;
	struct target x;
	uint64_t off;

	assert_true(dladdr((void *)getpid, &info) && info.dli_fname && info.dli_saddr);
	off = (uint64_t)((uintptr_t)info.dli_saddr - (uintptr_t)info.dli_fbase);
	snprintf(text, sizeof(text),
		 "hotblocks-stream 1\n"
		 "event 0 cpu-clock\n"
		 "total 0 all 1 1\n"
		 "object 0 native pid=7 e_machine=62 addr=0x7000 size=32 dso=/usr/bin/prog sym-start=0x1000 name=caller\n"
		 "sample 0 0 0x0 1 1\n"
		 "map pid=7 addr=0x7f0000000000 size=%zu pgoff=0x0 time=5 dso=/gone/libgone.so.6 found=%s\n"
		 "map pid=7 addr=0x7e0000000000 size=%zu pgoff=0x0 time=5 dso=/gone/libother.so.6\n"
		 "end\n",
		 (size_t)off + 4096, info.dli_fname, (size_t)off + 4096);
	stream_text__load(&s, text);
	assert_int_equal(s.maps_nr, 2);
	assert_string_equal(stream__map_found(&s, 0), info.dli_fname);
	assert_null(stream__map_found(&s, 1));
	assert_int_equal(targets__new(&t, &s), 0);
	assert_true(targets__find(t, 0, 0x7f0000000000 + off, &x));
	assert_false(x.in_file);
	assert_non_null(strstr(x.name, "getpid"));
	assert_int_equal(x.off, 0);
	/* a file without found=: its recorded path is gone, so the file and its offset */
	assert_true(targets__find(t, 0, 0x7e0000000000 + off, &x));
	assert_true(x.in_file);
	assert_string_equal(x.name, "/gone/libother.so.6");
	assert_int_equal(x.off, off);
	targets__free(t);
	stream__release(&s);
	(void)state;
}

/* A copy of this test's own program whose section headers lie past its end. */
static void bad_elf(char *path, size_t len)
{
	FILE *in = fopen("/proc/self/exe", "rb"), *out;
	uint64_t shoff = UINT64_MAX / 2;
	char buf[65536];
	size_t n;
	int fd;

	snprintf(path, len, "/tmp/hotblocks-targets-XXXXXX");
	fd = mkstemp(path);
	assert_true(in && fd >= 0 && (out = fdopen(fd, "wb")));
	while ((n = fread(buf, 1, sizeof(buf), in)))
		assert_int_equal(fwrite(buf, 1, n, out), n);
	assert_int_equal(fseek(out, 0x28, SEEK_SET), 0);	/* e_shoff of ELF64 */
	assert_int_equal(fwrite(&shoff, sizeof(shoff), 1, out), 1);
	fclose(in);
	assert_int_equal(fclose(out), 0);
}

/* What targets__find's own read of a file refused, on stderr (into err). */
static void find_in(const char *path, const char *extra, char *err, size_t len)
{
	char text[2048], log[] = "/tmp/hotblocks-targets-err-XXXXXX";
	struct stream s;
	struct targets *t;
	struct target x;
	int fd = mkstemp(log), saved = dup(2);
	ssize_t n;

	snprintf(text, sizeof(text),
		 "hotblocks-stream 1\n"
		 "event 0 cpu-clock\n"
		 "total 0 all 1 1\n"
		 "object 0 native pid=7 e_machine=62 addr=0x7000 size=32 dso=/usr/bin/prog sym-start=0x1000 name=caller\n"
		 "sample 0 0 0x0 1 1\n"
		 "map pid=7 addr=0x7f0000000000 size=65536 pgoff=0x0 time=5 dso=/gone/libbad.so found=%s\n"
		 "%s"
		 "end\n", path, extra);
	stream_text__load(&s, text);
	assert_int_equal(targets__new(&t, &s), 0);
	assert_true(fd >= 0 && saved >= 0);
	fflush(stderr);
	dup2(fd, 2);
	/* two targets in the file: it is read once, and said once */
	assert_true(targets__find(t, 0, 0x7f0000000100, &x));
	assert_true(targets__find(t, 0, 0x7f0000000200, &x));
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	assert_true(x.in_file);
	n = pread(fd, err, len - 1, 0);
	err[n > 0 ? n : 0] = '\0';
	close(fd);
	unlink(log);
	targets__free(t);
	stream__release(&s);
}

/* A file whose symbols cannot be read says why, once; not when the stream
 * carries the plugin's same warning (the plugin said it already). */
static void a_file_whose_symbols_cannot_be_read_says_why_once(void **state)
{
	char path[64], err[4096], want[512], warning[1200];
	const char *at;

	bad_elf(path, sizeof(path));
	find_in(path, "", err, sizeof(err));
	snprintf(want, sizeof(want), "hotblocks: warning: %s+0x28: e_shoff 0x7fffffffffffffff and e_shnum ", path);
	at = strstr(err, want);
	assert_non_null(at);
	assert_null(strstr(at + 1, want));
	assert_non_null(strstr(err, "put the section headers past the end of the file"));
	/* the stream's warning: the plugin's text of the same file */
	/* (a stream's string: spaces and '%' %-escaped, STREAM.md) */
	size_t w = (size_t)snprintf(warning, sizeof(warning), "warning ");

	for (at = strchr(strstr(err, "warning: "), ' ') + 1; *at && *at != '\n' && w + 4 < sizeof(warning); at++)
		w += (size_t)(*at == ' ' || *at == '%' ? snprintf(warning + w, 4, "%%%02X", *at)
						      : snprintf(warning + w, 2, "%c", *at));
	snprintf(warning + w, sizeof(warning) - w, "\n");
	find_in(path, warning, err, sizeof(err));
	assert_string_equal(err, "");
	unlink(path);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(targets_land_where_the_code_was_when_the_caller_was_loaded),
		cmocka_unit_test(a_map_without_its_fields_is_an_error),
		cmocka_unit_test(a_file_read_elsewhere_names_its_targets),
		cmocka_unit_test(a_file_whose_symbols_cannot_be_read_says_why_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

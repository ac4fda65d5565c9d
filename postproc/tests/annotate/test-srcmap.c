/* SPDX-License-Identifier: MIT */
/* Unit tests of postproc/annotate/dwarf/srcmap.c (wasm modules: test-srcmap-wasm.c), and a lookup CLI for scripts/tests/srcline-vs-tools.sh. */
#define _GNU_SOURCE
#include <errno.h>
#include <link.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "annotate/jit-debug.h"
#include "annotate/v8/v8-debug.h"
#include "../plugin/lib/byteorder.h"
#include "lib/read-file.h"
#include "annotate/dwarf/srcmap.h"

/*
 * Without arguments: the cmocka tests, run from the top of the tree (as
 * scripts/run-tests does) because they read test-data/.
 *
 * With arguments, a lookup tool (no cmocka):
 *   test-srcmap --wasm FILE OFFSET...   OFFSET: instruction offsets in the .wasm FILE
 *   test-srcmap --elf FILE ADDR...      ADDR: addresses in the ELF file's address space
 *   test-srcmap --jitdump FILE DIR      each LOAD with DEBUG_INFO entries of a jitdump
 * For each address it prints one line per frame, innermost first,
 *   0x<addr> <frame#> <function> <file> <line> <column>
 * with "??" for an unknown function or file, and "0x<addr> - ?? ?? 0 0" when
 * nothing covers the address. A wasm run starts with "# code-start 0x<off>".
 * Exit status: 0, 3 when the file has no DWARF (-ENODATA, message on stderr),
 * 2 on any other error.
 */

/* A wasm module without DWARF (test-data/v8-wasm/README.md). */
#define HOT_WASM "test-data/v8-wasm/hot.wasm"
#define V8_DUMP "test-data/v8-wasm/jit-6339.dump"

static char err[512];

static uint8_t *slurp(const char *path, size_t *len)
{
	uint8_t *buf;

	return read_file(path, (size_t)1 << 30, "1 GiB", 0, &buf, len, NULL, 0) ? NULL : buf;
}

/* ---- lookup CLI ---- */

static void print_frames(uint64_t addr, const struct srcmap_frame *fr, size_t n)
{
	if (!n)
		printf("0x%llx - ?? ?? 0 0\n", (unsigned long long)addr);
	for (size_t i = 0; i < n; i++)
		printf("0x%llx %zu %s %s %u %u\n", (unsigned long long)addr, i,
		       fr[i].function ? fr[i].function : "??", fr[i].file ? fr[i].file : "??",
		       fr[i].line, fr[i].column);
}

static int cli(int argc, char **argv)
{
	struct srcmap *m = NULL;
	bool wasm = !strcmp(argv[1], "--wasm");
	int ret;

	if (argc < 3 || (!wasm && strcmp(argv[1], "--elf"))) {
		fprintf(stderr, "usage: %s --wasm FILE OFFSET... | --elf FILE ADDR...\n", argv[0]);
		return 2;
	}
	if (wasm) {
		size_t len;
		uint8_t *buf = slurp(argv[2], &len);

		if (!buf) {
			fprintf(stderr, "%s: %s\n", argv[2], strerror(errno));
			return 2;
		}
		ret = srcmap__open_wasm(&m, buf, len, argv[2], err, sizeof(err));
		free(buf);
	} else {
		ret = srcmap__open_elf(&m, argv[2], err, sizeof(err));
	}
	if (ret) {
		fprintf(stderr, "%s (%s)\n", err, strerror(-ret));
		return ret == -ENODATA ? 3 : 2;
	}
	if (wasm)
		printf("# code-start 0x%llx\n", (unsigned long long)srcmap__wasm_code_start(m));
	for (int i = 3; i < argc; i++) {
		const struct srcmap_frame *fr;
		char *end;
		uint64_t addr = strtoull(argv[i], &end, 0);
		size_t nr;

		if (*end || end == argv[i]) {
			fprintf(stderr, "bad address: %s\n", argv[i]);
			srcmap__close(m);
			return 2;
		}
		nr = srcmap__lookup(m, addr, &fr);
		print_frames(addr, fr, nr);
	}
	srcmap__close(m);
	return 0;
}

/* ---- tests: ELF ---- */

static unsigned __attribute__((noinline)) lookup_me(unsigned x)
{
	return x * 3 + 1;
}

static int phdr_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	/* The first object is the executable itself. */
	*(uint64_t *)data = info->dlpi_addr;
	return 1;
}

static void elf_finds_this_test_functions_source(void **state)
{
	const struct srcmap_frame *fr;
	struct srcmap *m;
	uint64_t bias = 0, addr;
	size_t nr;
	char buf[256];
	int ret;

	ret = srcmap__open_elf(&m, "/proc/self/exe", err, sizeof(err));
	if (ret == -ENODATA)
		skip();	/* built without -g (CFLAGS) */
	assert_int_equal(ret, 0);
	dl_iterate_phdr(phdr_cb, &bias);
	addr = (uint64_t)(uintptr_t)lookup_me - bias;
	nr = srcmap__lookup(m, addr, &fr);
	assert_true(nr >= 1);
	assert_string_equal(fr[nr - 1].function, "lookup_me");
	assert_non_null(strstr(fr[nr - 1].file, "test-srcmap.c"));
	assert_true(fr[0].line > 0);
	srcmap__short(buf, sizeof(buf), fr, nr);
	assert_non_null(strstr(buf, "test-srcmap.c:"));
	assert_int_equal(lookup_me(1), 4);
	srcmap__close(m);
}

static void elf_errors_have_their_codes(void **state)
{
	struct srcmap *m = (void *)1;

	assert_int_equal(srcmap__open_elf(&m, "/nonexistent/x.so", err, sizeof(err)), -ENOENT);
	assert_null(m);
	/* Not ELF. */
	assert_int_equal(srcmap__open_elf(&m, HOT_WASM, err, sizeof(err)), -EINVAL);
	assert_null(m);
}

/* ---- tests: short form ---- */

static void short_form_names_innermost_and_outermost(void **state)
{
	const struct srcmap_frame fr[] = {
		{ "mix", "/src/a/inl.c", 7, 4 },
		{ "hash_word", "/src/a/inl.c", 14, 7 },
		{ "work", "C:\\src\\inl.c", 23, 7 },
	};
	const struct srcmap_frame odd[] = { { NULL, NULL, 0, 3 }, { "f", "x.c", 2, 0 } };
	char buf[64];

	assert_string_equal(srcmap__short(buf, sizeof(buf), fr, 1), "mix inl.c:7:4");
	assert_string_equal(srcmap__short(buf, sizeof(buf), fr + 2, 1), "work inl.c:23:7");
	assert_string_equal(srcmap__short(buf, sizeof(buf), fr, 3),
			    "mix inl.c:7:4 (inlined into work)");
	assert_string_equal(srcmap__short(buf, sizeof(buf), odd, 1), "? ?");
	assert_string_equal(srcmap__short(buf, sizeof(buf), odd + 1, 1), "f x.c:2");
	assert_string_equal(srcmap__short(buf, sizeof(buf), fr, 0), "");
	assert_string_equal(srcmap__short(buf, 8, fr, 3), "mix inl");
}

/* ---- tests: jitdump debug entries ---- */

/* ---- jitdump (tools/perf/Documentation/jitdump-specification.txt), little-endian ---- */

#define JIT_ENTRIES_MAX 4096

/* One CODE_LOAD and the DEBUG_INFO entries that came just before it. */
struct jit_load {
	uint32_t e_machine;	/* from the file header */
	uint64_t code_index, code_addr, code_size;
	const char *name;
	const uint8_t *code;
	const struct stream_debug *e;
	size_t n;
};

/*
 * Call fn for every CODE_LOAD preceded by a DEBUG_INFO in d[0..len), entries
 * walked as the spec says (by nr_entry; a NUL inside a file name shifts
 * everything after it, as in every reader). Returns the number of such loads,
 * or -1 on a malformed file.
 */
static long jitdump_walk(const uint8_t *d, size_t len, void (*fn)(const struct jit_load *, void *),
			 void *ctx)
{
	static struct stream_debug e[JIT_ENTRIES_MAX];
	size_t off, n = 0;
	uint32_t e_machine;
	bool pending = false;
	long loads = 0;

	if (len < 40 || get_le32(d) != 0x4A695444)
		return -1;
	e_machine = get_le32(d + 12);
	off = get_le32(d + 8);
	while (off + 16 <= len) {
		uint32_t id = get_le32(d + off), size = get_le32(d + off + 4);

		if (size < 16 || size > len - off)
			return -1;
		if (id == 2 && size >= 32) {
			uint64_t nr = get_le64(d + off + 24);
			size_t p = off + 32, end = off + size;

			for (n = 0; n < nr && n < JIT_ENTRIES_MAX && p + 16 < end; n++) {
				const char *file = (const char *)d + p + 16;
				size_t flen = strnlen(file, end - p - 16);

				if (p + 16 + flen >= end)
					break;
				e[n] = (struct stream_debug){
					.addr = get_le64(d + p), .line = get_le32(d + p + 8),
					.discrim = get_le32(d + p + 12), .file = (char *)file,
				};
				p += 16 + flen + 1;
			}
			pending = true;
		} else if (id == 0 && size >= 57) {
			struct jit_load l = {
				.e_machine = e_machine, .code_addr = get_le64(d + off + 32),
				.code_size = get_le64(d + off + 40), .code_index = get_le64(d + off + 48),
				.name = (const char *)d + off + 56, .e = e, .n = n,
			};

			if (l.code_size > size - 56 || !memchr(l.name, 0, size - 56))
				return -1;
			l.code = d + off + size - l.code_size;
			if (pending) {
				fn(&l, ctx);
				loads++;
			}
			pending = false;
		}
		off += size;
	}
	return loads;
}

/* --jitdump: what the shell test needs to check the entries against the code. */
static void print_load(const struct jit_load *l, void *ctx)
{
	const char *dir = ctx;
	uint64_t bias;
	bool usable = v8_debug__bias(l->name, l->e_machine, &bias);
	char path[4096];
	FILE *f;

	printf("load %llu %d 0x%llx %llu %s\n", (unsigned long long)l->code_index, usable,
	       (unsigned long long)bias, (unsigned long long)l->code_size, l->name);
	for (size_t i = 0; i < l->n; i++) {
		const char *file;
		uint64_t off = l->e[i].addr - bias - l->code_addr;
		long k;

		if (l->e[i].addr < bias + l->code_addr || off >= l->code_size) {
			printf("outside %llu 0x%llx\n", (unsigned long long)l->code_index,
			       (unsigned long long)l->e[i].addr);
			continue;
		}
		/* The lookup finds this entry (or a later one at the same offset). */
		k = jit_debug__find(l->e, l->n, l->code_addr, l->code_size, bias, off, &file);
		printf("entry %llu 0x%llx %u:%u %s\n", (unsigned long long)l->code_index,
		       (unsigned long long)off, l->e[k].line, l->e[k].discrim, file ? file : "??");
	}
	snprintf(path, sizeof(path), "%s/%llu.bin", dir, (unsigned long long)l->code_index);
	f = fopen(path, "wb");
	if (f) {
		fwrite(l->code, 1, l->code_size, f);
		fclose(f);
	}
}

static int cli_jitdump(const char *path, const char *dir)
{
	size_t len;
	uint8_t *d = slurp(path, &len);
	long n;

	if (!d) {
		fprintf(stderr, "%s: %s\n", path, strerror(errno));
		return 2;
	}
	n = jitdump_walk(d, len, print_load, (void *)dir);
	free(d);
	if (n < 0) {
		fprintf(stderr, "%s: not a jitdump, or a damaged one\n", path);
		return 2;
	}
	return 0;
}

struct v8_check {
	size_t loads, checked;
};

static void check_load(const struct jit_load *l, void *ctx)
{
	struct v8_check *c = ctx;
	uint64_t bias;

	/* Sparkplug only in this recording: bytecode offsets. */
	assert_false(v8_debug__bias(l->name, l->e_machine, &bias));
	assert_int_equal(bias, 0x40);
	for (uint64_t o = 0; o < l->code_size; o++) {
		const char *file;
		long i = jit_debug__find(l->e, l->n, l->code_addr, l->code_size, bias, o,
						 &file);
		uint64_t at;

		if (i < 0)
			continue;
		at = l->e[i].addr - bias - l->code_addr;
		assert_true(at <= o);
		/* Nothing in range between the entry and o. */
		for (size_t k = 0; k < l->n; k++) {
			uint64_t a = l->e[k].addr - bias - l->code_addr;

			if (l->e[k].addr >= bias + l->code_addr && a < l->code_size)
				assert_false(a <= o && (a > at || (a == at && k > (size_t)i)));
		}
		assert_non_null(file);
		c->checked++;
	}
	c->loads++;
}

/*
 * The real V8 dump: every DEBUG_INFO entry walked as the spec says (so the
 * record whose file name V8 filled with heap garbage yields garbage entries
 * too), the lookup checked against a brute-force answer at every offset.
 */
static void jit_find_on_the_real_v8_dump(void **state)
{
	struct v8_check c = { 0 };
	size_t len;
	uint8_t *d = slurp(V8_DUMP, &len);

	assert_non_null(d);
	assert_int_equal(jitdump_walk(d, len, check_load, &c), 19);
	assert_int_equal(c.loads, 19);
	assert_true(c.checked > 1000);
	free(d);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(elf_finds_this_test_functions_source),
		cmocka_unit_test(elf_errors_have_their_codes),
		cmocka_unit_test(short_form_names_innermost_and_outermost),
		cmocka_unit_test(jit_find_on_the_real_v8_dump),
	};

	if (argc == 4 && !strcmp(argv[1], "--jitdump"))
		return cli_jitdump(argv[2], argv[3]);
	if (argc > 1)
		return cli(argc, argv);
	return cmocka_run_group_tests_name("srcmap", tests, NULL, NULL);
}

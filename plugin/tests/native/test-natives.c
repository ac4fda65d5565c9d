// SPDX-License-Identifier: MIT
/*
 * Unit tests of the native code objects (plugin/native/natives.c): one object per
 * (DSO, symbol, symbol start), and each DSO's ELF machine and wasmtime mark
 * read from its header once. The ELF headers below are written byte by byte
 * from the ELF specification's e_ident / e_machine layout (e_machine at byte
 * 18, in the file's byte order).
 */
#include <elf.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "native/natives.h"

#if defined(__x86_64__)
#define HOST_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define HOST_MACHINE EM_AARCH64
#else
#define HOST_MACHINE EM_NONE
#endif

struct fixture {
	char dir[64];
	char paths[8][128];
	size_t nr;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/hotblocks-test-natives-XXXXXX");
	if (!mkdtemp(f->dir)) {
		free(f);
		return -1;
	}
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	for (size_t i = 0; i < f->nr; i++)
		unlink(f->paths[i]);
	rmdir(f->dir);
	free(f);
	return 0;
}

/* A file name in the test's directory holding len bytes of data. */
static const char *file(void **state, const char *name, const void *data, size_t len)
{
	struct fixture *f = *state;
	char path[sizeof(f->paths[0])];
	FILE *fp;

	snprintf(path, sizeof(path), "%s/%s", f->dir, name);
	char *p = memcpy(f->paths[f->nr++], path, sizeof(path));

	fp = fopen(p, "wb");
	assert_non_null(fp);
	assert_int_equal(fwrite(data, 1, len, fp), len);
	assert_int_equal(fclose(fp), 0);
	return p;
}

/* The first 20 bytes of an ELF header: e_ident, e_type, e_machine. */
static void elf_header(uint8_t h[20], bool big_endian, uint8_t osabi, uint16_t machine)
{
	memset(h, 0, 20);
	memcpy(h, ELFMAG, SELFMAG);
	h[EI_CLASS] = ELFCLASS64;
	h[EI_DATA] = big_endian ? ELFDATA2MSB : ELFDATA2LSB;
	h[EI_VERSION] = EV_CURRENT;
	h[EI_OSABI] = osabi;
	h[big_endian ? 18 : 19] = (uint8_t)(machine >> 8);
	h[big_endian ? 19 : 18] = (uint8_t)machine;
}

static void the_same_symbol_is_one_object(void **state)
{
	struct natives n;
	bool created;

	natives__init(&n);
	assert_int_equal(natives__get(&n, "/no/such/lib.so", "f", 0x100, &created), 0);
	assert_true(created);
	/* The caller fills these in for a new object. */
	n.objs[0].addr = 0x7f0000000100;
	assert_int_equal(natives__get(&n, "/no/such/lib.so", "f", 0x100, &created), 0);
	assert_false(created);
	assert_int_equal(n.objs[0].addr, 0x7f0000000100);
	/* Any part of the key differing makes another object. */
	assert_int_equal(natives__get(&n, "/no/such/lib.so", "f", 0x200, &created), 1);
	assert_true(created);
	assert_int_equal(natives__get(&n, "/no/such/lib.so", "g", 0x100, &created), 2);
	assert_int_equal(natives__get(&n, "/no/such/other.so", "f", 0x100, &created), 3);
	assert_int_equal(n.nr, 4);
	assert_string_equal(n.objs[3].dso, "/no/such/other.so");
	assert_string_equal(n.objs[2].name, "g");
	assert_int_equal(n.objs[1].sym_start, 0x200);
	natives__release(&n);
	assert_null(n.objs);
}

static void ids_stay_stable_while_the_table_grows(void **state)
{
	struct natives n;
	bool created;
	char name[32];

	natives__init(&n);
	/* 5000 symbols: the slot table grows 1024 -> 2048 -> ... -> 16384. */
	for (long i = 0; i < 5000; i++) {
		snprintf(name, sizeof(name), "sym%ld", i);
		assert_int_equal(natives__get(&n, i % 2 ? "/a.so" : "/b.so", name, (uint64_t)i * 16, &created), i);
		assert_true(created);
	}
	for (long i = 4999; i >= 0; i--) {
		snprintf(name, sizeof(name), "sym%ld", i);
		assert_int_equal(natives__get(&n, i % 2 ? "/a.so" : "/b.so", name, (uint64_t)i * 16, &created), i);
		assert_false(created);
	}
	assert_int_equal(n.nr, 5000);
	/* Two DSOs, each read once. */
	assert_int_equal(n.dsos_nr, 2);
	natives__release(&n);
}

static void the_elf_header_gives_machine_and_wasmtime_mark(void **state)
{
	uint8_t le_cwasm[20], be_ppc[20], le_arm[20];
	struct natives n;
	bool created;
	long id;

	/* wasmtime's compiled modules carry OSABI 200 (natives.c). */
	elf_header(le_cwasm, false, 200, EM_AARCH64);
	elf_header(be_ppc, true, ELFOSABI_NONE, EM_PPC64);
	elf_header(le_arm, false, ELFOSABI_NONE, EM_AARCH64);
	const char *cwasm = file(state, "m.cwasm", le_cwasm, sizeof(le_cwasm));
	const char *ppc = file(state, "ppc.so", be_ppc, sizeof(be_ppc));
	const char *arm = file(state, "arm.so", le_arm, sizeof(le_arm));
	const char *script = "#!/bin/sh\necho hello, not an ELF\n";
	const char *text = file(state, "not-elf", script, strlen(script));
	const char *tiny = file(state, "tiny", ELFMAG, SELFMAG);

	natives__init(&n);
	id = natives__get(&n, cwasm, "wasm[0]::function[1]", 0, &created);
	assert_int_equal(n.objs[id].e_machine, EM_AARCH64);
	assert_true(n.objs[id].cwasm);
	id = natives__get(&n, ppc, "f", 0, &created);
	assert_int_equal(n.objs[id].e_machine, EM_PPC64);
	assert_false(n.objs[id].cwasm);
	id = natives__get(&n, arm, "f", 0, &created);
	assert_int_equal(n.objs[id].e_machine, EM_AARCH64);
	assert_false(n.objs[id].cwasm);
	/* What cannot be read as an ELF header is taken for the host's code. */
	id = natives__get(&n, text, "f", 0, &created);
	assert_int_equal(n.objs[id].e_machine, HOST_MACHINE);
	id = natives__get(&n, tiny, "f", 0, &created);
	assert_int_equal(n.objs[id].e_machine, HOST_MACHINE);
	id = natives__get(&n, "/no/such/file", "f", 0, &created);
	assert_int_equal(n.objs[id].e_machine, HOST_MACHINE);
	assert_false(n.objs[id].cwasm);
	/* A second symbol of a DSO gets the facts read the first time. */
	id = natives__get(&n, cwasm, "wasm[0]::function[2]", 0x40, &created);
	assert_true(created);
	assert_true(n.objs[id].cwasm);
	assert_int_equal(n.dsos_nr, 6);
	natives__release(&n);
}

/* A process's machine for a jitdump that names none: the first of its
 * objects whose file's ELF header was read, never the host's guess. */
static void a_process_machine_is_a_file_s(void **state)
{
	uint8_t le_arm[20];
	struct natives n;
	const char *dso = NULL;
	bool created;
	long id;

	elf_header(le_arm, false, ELFOSABI_NONE, EM_AARCH64);
	const char *arm = file(state, "arm.so", le_arm, sizeof(le_arm));

	natives__init(&n);
	id = natives__get(&n, "/no/such/file", "f", 0, &created);
	n.objs[id].pid = 7;
	assert_int_equal(natives__machine_of(&n, 7, &dso), EM_NONE);	/* the host's guess is no answer */
	id = natives__get(&n, arm, "g", 0, &created);
	n.objs[id].pid = 8;
	assert_int_equal(natives__machine_of(&n, 7, &dso), EM_NONE);	/* another process's */
	id = natives__get(&n, arm, "h", 0x10, &created);
	n.objs[id].pid = 7;
	assert_int_equal(natives__machine_of(&n, 7, &dso), EM_AARCH64);
	assert_string_equal(dso, arm);
	natives__release(&n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_same_symbol_is_one_object),
		cmocka_unit_test(ids_stay_stable_while_the_table_grows),
		cmocka_unit_test_setup_teardown(the_elf_header_gives_machine_and_wasmtime_mark, setup, teardown),
		cmocka_unit_test_setup_teardown(a_process_machine_is_a_file_s, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

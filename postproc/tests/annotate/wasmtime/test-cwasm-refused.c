/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the .cwasm reader (postproc/annotate/wasmtime/cwasm.c): the
 * files it refuses, each at the byte that decides it (other ELF files, cut
 * or lying headers, a corrupt address map, what is not a regular file), and
 * damaged files that must never crash it (the good files: test-cwasm.c).
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
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cwasm-check.h"

/* Offsets: e_ident[EI_CLASS] 4, e_ident[EI_OSABI] 7, e_type 0x10 (ELF spec). */
static void other_elf_files_are_refused_at_the_deciding_byte(void **state)
{
	FILE *f;

	write_cwasm(&(struct opts){ .class = ELFCLASS32 });
	refused(-EINVAL, "+0x4: ELF class 1, a .cwasm is always ELF64");
	write_cwasm(&(struct opts){ .osabi = ELFOSABI_LINUX });
	refused(-EINVAL, "+0x7: EI_OSABI is 3, not 200: not a wasmtime compiled module");
	write_cwasm(&(struct opts){ .type = ET_EXEC });
	refused(-EINVAL, "+0x10: e_type 2, a .cwasm is ET_REL (1)");
	write_cwasm(&(struct opts){ .no_text = true });
	refused(-EINVAL, ": no .text section");

	f = fopen(path, "w");
	assert_non_null(f);
	fputs("(module)\n", f);
	fclose(f);
	refused(-EINVAL, "+0x0: not an ELF file");
	f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
	refused(-EINVAL, "+0x0: not an ELF file");
	unlink(path);
	refused(-ENOENT, ": No such file or directory");
}

/* Little-endian Elf64 field access in a file image, for the corruption tests. */
static uint64_t get64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static void put64(uint8_t *p, uint64_t v)
{
	for (int i = 0; i < 8; i++, v >>= 8)
		p[i] = v;
}

/* Offset of section header ndx in the image (Elf64_Ehdr: e_shoff at 0x28, e_shentsize at 0x3a). */
static size_t shdr_at(const uint8_t *img, size_t ndx)
{
	return get64(img + 0x28) + ndx * (img[0x3a] | img[0x3b] << 8);
}

/* Write the good file with bytes field.. of section header ndx set to v; returns the header's offset. */
static size_t patch_shdr(size_t ndx, size_t field, uint64_t v)
{
	uint8_t *img;
	size_t len, at;

	write_cwasm(&(struct opts){ .fmt = ADDRMAP_BLOCKS });
	img = cw_file__read(path, &len);
	assert_non_null(img);
	at = shdr_at(img, ndx);
	assert_true(at + 64 <= len);
	put64(img + at + field, v);
	assert_int_equal(cw_file__write(path, img, len), 0);
	free(img);
	return at;
}

/* Write the good file with n bytes at file offset at replaced. */
static void patch_bytes(size_t at, const void *bytes, size_t n)
{
	uint8_t *img;
	size_t len;

	write_cwasm(&(struct opts){ .fmt = ADDRMAP_BLOCKS });
	img = cw_file__read(path, &len);
	assert_non_null(img);
	assert_true(at + n <= len);
	memcpy(img + at, bytes, n);
	assert_int_equal(cw_file__write(path, img, len), 0);
	free(img);
}

/* File offset of section ndx's contents (sh_offset) in the file at path. */
static uint64_t section_file_off(size_t ndx)
{
	uint8_t *img;
	size_t len;
	uint64_t off;

	img = cw_file__read(path, &len);
	assert_non_null(img);
	off = get64(img + shdr_at(img, ndx) + 0x18);
	free(img);
	return off;
}

/*
 * The map's offsets are file offsets, as every reader's are, followed by the
 * offset inside the section (corrupt-inputs-wasm.sh accepts either form).
 */
static void a_corrupt_address_map_is_refused_with_its_file_offset(void **state)
{
	static const uint8_t bad[] = { 0x01, 0, 0, 0, 0x01, 0, 0, 0, 0, 0, 0, 0, 0x09, 0, 0, 0, 0x00 };
	char want[160];

	write_cwasm(&(struct opts){ .addrmap = bad, .addrmap_len = sizeof(bad) });
	snprintf(want, sizeof(want), "+0x%llx: .wasmtime.addrmap+0xc: block 0 at body offset 0x9"
		 " is past the 0x1 bytes", (unsigned long long)section_file_off(4) + 0xc);
	refused(-EINVAL, want);
	/* An empty section is not an absent one: wasmtime fails on it too. */
	write_cwasm(&(struct opts){ .addrmap = bad, .addrmap_len = 0 });
	snprintf(want, sizeof(want), "+0x%llx: .wasmtime.addrmap+0x0: truncated",
		 (unsigned long long)section_file_off(4));
	refused(-EINVAL, want);
}

/* corrupt-inputs-wasm.sh: cut at 16 bytes, libelf said "invalid ELF file data" without an offset. */
static void a_file_cut_inside_the_elf_header_is_refused_at_its_end(void **state)
{
	static const size_t cuts[] = { 3, 4, 16, 40, 63 };
	uint8_t *img;
	char want[96];
	size_t len, i;

	write_cwasm(&(struct opts){ .fmt = ADDRMAP_BLOCKS });
	img = cw_file__read(path, &len);
	assert_non_null(img);
	for (i = 0; i < ARRAY_SIZE(cuts); i++) {
		assert_int_equal(cw_file__write(path, img, cuts[i]), 0);
		snprintf(want, sizeof(want), "+0x%zx: truncated ELF header (%zu of 64 bytes)", cuts[i],
			 cuts[i]);
		refused(-EINVAL, want);
	}
	/* Short files that are no ELF64 are named for what they are. */
	img[EI_CLASS] = ELFCLASS32;
	assert_int_equal(cw_file__write(path, img, 40), 0);
	refused(-EINVAL, "+0x4: ELF class 1, a .cwasm is always ELF64");
	img[1] = 'X';
	assert_int_equal(cw_file__write(path, img, 3), 0);
	refused(-EINVAL, "+0x0: not an ELF file");
	free(img);
}

/* corrupt-inputs-wasm.sh: e_shstrndx 255 of 13 sections gave "no .text section", no offset. */
static void a_bad_e_shstrndx_or_e_shnum_is_refused_at_its_field(void **state)
{
	static const uint8_t ff[2] = { 0xff, 0x00 }, zero[2] = { 0, 0 }, one[2] = { 1, 0 };
	uint8_t *img;
	size_t len;
	char want[96];

	/* Elf64_Ehdr: e_shnum at 0x3c, e_shstrndx at 0x3e. */
	patch_bytes(0x3e, ff, 2);
	refused(-EINVAL, "+0x3e: e_shstrndx 255 is not one of the 8 sections");
	patch_bytes(0x3e, zero, 2);
	refused(-EINVAL, "+0x3e: e_shstrndx is 0 (SHN_UNDEF)");
	patch_bytes(0x3c, zero, 2);
	refused(-EINVAL, "+0x3c: e_shnum 0: the file has no sections");
	/* Section 1 (.text) as the name table: its sh_type field is to blame. */
	patch_bytes(0x3e, one, 2);
	img = cw_file__read(path, &len);
	assert_non_null(img);
	snprintf(want, sizeof(want), "+0x%zx: section 1 (e_shstrndx) has type 1, not SHT_STRTAB",
		 shdr_at(img, 1) + 4);
	free(img);
	refused(-EINVAL, want);
}

/* corrupt-inputs-wasm.sh: libelf's "invalid data" for a .symtab of 0xa9 bytes, no offset. */
static void a_symtab_size_not_a_multiple_of_24_is_refused_at_its_sh_size(void **state)
{
	uint8_t *img;
	size_t len, at;
	uint64_t size;
	char want[128];

	write_cwasm(&(struct opts){ .fmt = ADDRMAP_BLOCKS });
	img = cw_file__read(path, &len);
	assert_non_null(img);
	size = get64(img + shdr_at(img, 5) + 0x20);
	free(img);
	assert_int_equal(size % 24, 0);
	at = patch_shdr(5, 0x20, size + 1);
	snprintf(want, sizeof(want), "+0x%zx: section .symtab of 0x%llx bytes is not a whole number"
		 " of 24-byte symbols", at + 0x20, (unsigned long long)size + 1);
	refused(-EINVAL, want);
}

static char saved_path[sizeof(path)];

/* corrupt-inputs-wasm.sh: a directory gave libelf's "invalid file descriptor"; a FIFO must not block. */
static void a_directory_or_a_fifo_is_refused_without_blocking(void **state)
{
	snprintf(path, sizeof(path), "%s/dir.cwasm", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	refused(-EISDIR, ": is a directory");
	snprintf(path, sizeof(path), "%s/fifo.cwasm", dir);
	assert_int_equal(mkfifo(path, 0600), 0);
	/* Nobody writes: a blocking open would wait forever; the alarm ends the run instead. */
	alarm(20);
	refused(-EINVAL, ": not a regular file");
	alarm(0);
}

static int use_other_paths(void **state)
{
	memcpy(saved_path, path, sizeof(path));
	return 0;
}

/* Also after a failure, so that the next tests find the directory as they expect. */
static int remove_other_paths(void **state)
{
	char p[sizeof(path)];

	snprintf(p, sizeof(p), "%s/dir.cwasm", dir);
	rmdir(p);
	snprintf(p, sizeof(p), "%s/fifo.cwasm", dir);
	unlink(p);
	memcpy(path, saved_path, sizeof(path));
	return 0;
}

/* Elf64_Shdr: sh_offset at +0x18, sh_size at +0x20. Sections: 1 .text, 4 .wasmtime.addrmap, 5 .symtab. */
static void section_headers_that_lie_are_refused_with_their_offset(void **state)
{
	char want[128];
	size_t at;

	at = patch_shdr(1, 0x20, 0x7fffffff);
	snprintf(want, sizeof(want), "+0x%zx: section .text at 0x", at);
	refused(-EINVAL, want);
	at = patch_shdr(1, 0x18, UINT64_MAX - 8);
	snprintf(want, sizeof(want),
		 "+0x%zx: section .text at 0xfffffffffffffff7 of 0x100 bytes runs past", at);
	refused(-EINVAL, want);
	at = patch_shdr(4, 0x20, 1u << 30);
	snprintf(want, sizeof(want), "+0x%zx: section .wasmtime.addrmap at 0x", at);
	refused(-EINVAL, want);
	/* A count of symbols the file cannot hold. */
	at = patch_shdr(5, 0x20, UINT64_MAX / 2);
	snprintf(want, sizeof(want), "+0x%zx: section .symtab at 0x", at);
	refused(-EINVAL, want);
}

/* Opening must end in success or a message naming the file: never a crash (valgrind checks leaks). */
static void open_survives(const char *what, size_t at)
{
	struct cwasm *c;
	int ret = open_cwasm(&c);

	if (ret && strncmp(err, path, strlen(path)))
		fail_msg("%s at %zu: %d with message '%s'", what, at, ret, err);
	if (!ret) {
		const struct cwasm_func *f;
		const uint8_t *t;
		size_t nr, size, i;
		uint32_t w;

		/* Whatever was accepted must be safe to use. */
		t = cwasm__text(c, &size);
		f = cwasm__funcs(c, &nr);
		for (i = 0; i < nr; i++) {
			assert_true((uint64_t)f[i].text_off + f[i].size <= size);
			assert_non_null(cwasm__find_code(c, t + f[i].text_off, f[i].size, NULL));
			cwasm__wasm_offset(c, &f[i], f[i].text_off, &w);
		}
		cwasm__close(c);
	}
}

static void truncated_files_never_crash(void **state)
{
	uint8_t *img;
	size_t len, cut;

	write_cwasm(&(struct opts){ .fmt = ADDRMAP_BLOCKS });
	img = cw_file__read(path, &len);
	assert_non_null(img);
	for (cut = 0; cut < len; cut += cut < 128 ? 1 : 7) {
		assert_int_equal(cw_file__write(path, img, cut), 0);
		open_survives("cut", cut);
	}
	free(img);
}

static void random_byte_flips_never_crash(void **state)
{
	uint64_t r = 0x2545f4914f6cdd1dULL;
	uint8_t *img, *mut;
	size_t len, round;

	write_cwasm(&(struct opts){ .fmt = ADDRMAP_BLOCKS });
	img = cw_file__read(path, &len);
	assert_non_null(img);
	mut = malloc(len);
	assert_non_null(mut);
	for (round = 0; round < 1500; round++) {
		size_t k;

		memcpy(mut, img, len);
		for (k = 0; k < 1 + round % 4; k++) {
			r ^= r << 13;
			r ^= r >> 7;
			r ^= r << 17;
			/* Keep the identification mostly intact so the deeper code gets exercised. */
			mut[16 + r % (len - 16)] = r >> 32;
		}
		assert_int_equal(cw_file__write(path, mut, len), 0);
		open_survives("round", round);
	}
	free(mut);
	free(img);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(other_elf_files_are_refused_at_the_deciding_byte),
		cmocka_unit_test(a_corrupt_address_map_is_refused_with_its_file_offset),
		cmocka_unit_test(a_file_cut_inside_the_elf_header_is_refused_at_its_end),
		cmocka_unit_test(a_bad_e_shstrndx_or_e_shnum_is_refused_at_its_field),
		cmocka_unit_test(a_symtab_size_not_a_multiple_of_24_is_refused_at_its_sh_size),
		cmocka_unit_test_setup_teardown(a_directory_or_a_fifo_is_refused_without_blocking,
						use_other_paths, remove_other_paths),
		cmocka_unit_test(section_headers_that_lie_are_refused_with_their_offset),
		cmocka_unit_test(truncated_files_never_crash),
		cmocka_unit_test(random_byte_flips_never_crash),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}

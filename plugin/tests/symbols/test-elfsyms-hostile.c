// SPDX-License-Identifier: MIT
/*
 * The symbol readers (plugin/symbols/elfsyms*.c) under attack: every file
 * here is crafted (plugin/tests/elf-writer.h writes them byte by byte), an
 * ELF an attacker or a broken toolchain could leave where perf looks:
 * MiniDebugInfo that is a decompression bomb, corrupt, not ELF or nested;
 * .gnu_debuglink names that leave the file's directories, link to the file
 * itself, or name a debug file of another CRC; a debug file of another
 * build-id; section headers with e_shstrndx out of range, a symbol table
 * past the end, sh_link cycles, a bogus sh_entsize, a string table whose
 * last name runs into the next section. Each must give a note naming the
 * file (and the offset where one is known), never a crash, nor symbols from
 * where they must not come. The expected symbols and offsets follow from the
 * layout elf-writer.c gives (worked out beside each case).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <lzma.h>
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

#include "lib/warnings.h"
#include "symbols/elfsyms.h"
#include "tests/elf-writer.h"
#include "tests/scratch-dir.h"

/* Every crafted .text is at this address; the symbols in it are at these. */
#define TEXT_ADDR 0x1000
#define DYN_FN (TEXT_ADDR + 0x10)
#define DEBUG_FN (TEXT_ADDR + 0x40)

struct prog {
	bool symtab;			/* a .symtab of its own (symfn) */
	const char *debuglink;		/* .gnu_debuglink's name, or NULL */
	uint32_t crc;
	const uint8_t *bid;		/* a build-id note of 20 bytes, or NULL */
	const void *debugdata;		/* .gnu_debugdata's bytes, or NULL */
	size_t debugdata_len;
};

/* A runtime file: .text (0x100 bytes at TEXT_ADDR), .dynsym with dynfn at
 * DYN_FN, and what p asks for. */
static uint8_t *build_prog(const struct prog *p, size_t *len)
{
	static uint8_t text[0x100];
	uint8_t dynsym[48] = { 0 }, symtab[48] = { 0 }, note[64], link[300];
	static const char dynstr[] = "\0dynfn", strtab[] = "\0symfn";
	struct elfw_sec secs[10] = {
		{ ".text", SHT_PROGBITS, 0, 0, SHF_ALLOC | SHF_EXECINSTR, TEXT_ADDR, 0, text, sizeof(text) },
		{ ".dynsym", SHT_DYNSYM, 3, 1, SHF_ALLOC, 0, 24, dynsym, sizeof(dynsym) },
		{ ".dynstr", SHT_STRTAB, 0, 0, SHF_ALLOC, 0, 0, dynstr, sizeof(dynstr) },
	};
	size_t n = 3;

	memset(text, 0xc3, sizeof(text));
	elfw_sym(dynsym + 24, 1, ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), 1, DYN_FN, 0x10);
	elfw_sym(symtab + 24, 1, ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), 1, TEXT_ADDR + 0x20, 0x10);
	if (p->symtab) {
		/* .symtab is section n + 1, its .strtab n + 2 */
		uint32_t strndx = (uint32_t)n + 2;

		secs[n++] = (struct elfw_sec){ ".symtab", SHT_SYMTAB, strndx, 1, 0, 0, 24, symtab, sizeof(symtab) };
		secs[n++] = (struct elfw_sec){ ".strtab", SHT_STRTAB, 0, 0, 0, 0, 0, strtab, sizeof(strtab) };
	}
	if (p->debuglink)
		secs[n++] = (struct elfw_sec){ ".gnu_debuglink", SHT_PROGBITS, 0, 0, 0, 0, 0, link,
					       elfw_debuglink(link, p->debuglink, p->crc) };
	if (p->bid)
		secs[n++] = (struct elfw_sec){ ".note.gnu.build-id", SHT_NOTE, 0, 0, SHF_ALLOC, 0, 0, note,
					       elfw_build_id_note(note, p->bid, 20) };
	if (p->debugdata)
		secs[n++] = (struct elfw_sec){ ".gnu_debugdata", SHT_PROGBITS, 0, 0, 0, 0, 0, p->debugdata,
					       p->debugdata_len };
	return elfw_build(&(struct elfw){ secs, n, 0, false }, len);
}

/* A debug file for it: .text NOBITS at the same index, .symtab with debugfn. */
static uint8_t *build_debug(const uint8_t *bid, size_t *len)
{
	uint8_t symtab[48] = { 0 }, note[64];
	static const char strtab[] = "\0debugfn";
	struct elfw_sec secs[4] = {
		{ ".text", SHT_NOBITS, 0, 0, SHF_ALLOC | SHF_EXECINSTR, TEXT_ADDR, 0, NULL, 0x100 },
		{ ".symtab", SHT_SYMTAB, 3, 1, 0, 0, 24, symtab, sizeof(symtab) },
		{ ".strtab", SHT_STRTAB, 0, 0, 0, 0, 0, strtab, sizeof(strtab) },
	};
	size_t n = 3;

	elfw_sym(symtab + 24, 1, ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), 1, DEBUG_FN, 0x10);
	if (bid)
		secs[n++] = (struct elfw_sec){ ".note.gnu.build-id", SHT_NOTE, 0, 0, SHF_ALLOC, 0, 0, note,
					       elfw_build_id_note(note, bid, 20) };
	return elfw_build(&(struct elfw){ secs, n, 0, false }, len);
}

static uint8_t *xz(const void *in, size_t len, size_t *out_len)
{
	size_t cap = len + len / 2 + 4096;
	uint8_t *out = malloc(cap);

	*out_len = 0;
	assert_non_null(out);
	assert_int_equal(lzma_easy_buffer_encode(0, LZMA_CHECK_CRC64, NULL, in, len, out, out_len, cap), LZMA_OK);
	return out;
}

/* The file offset of vaddr in .text: the runtime file's .text starts at 64
 * (right after the ELF header, no program headers). */
static uint64_t off_of(uint64_t vaddr)
{
	return vaddr - TEXT_ADDR + sizeof(Elf64_Ehdr);
}

struct fixture {
	struct scratch_dir dir;
	struct warnings w;
	struct elfsyms_config cfg;
	char *prog;		/* DIR/prog */
	char debug_dir[160];	/* DIR/debug: the cfg's /usr/lib/debug */
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	assert_int_equal(scratch_dir__make(&f->dir, "elfsyms-hostile"), 0);
	f->prog = scratch_dir__file(&f->dir, "prog");
	snprintf(f->debug_dir, sizeof(f->debug_dir), "%s/debug", f->dir.path);
	f->cfg = (struct elfsyms_config){ .debug_dir = f->debug_dir, .warnings = &f->w };
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	warnings__release(&f->w);
	free(f->prog);
	assert_int_equal(scratch_dir__remove(&f->dir), 0);
	free(f);
	return 0;
}

static void put(const char *path, const uint8_t *img, size_t len)
{
	assert_int_equal(elfw_write(path, img, len), 0);
}

/* The one note said, which must hold each of the strings given (NULL-ended). */
static void said(const struct fixture *f, ...)
{
	va_list ap;
	const char *want;

	assert_int_equal(f->w.nr, 1);
	va_start(ap, f);
	while ((want = va_arg(ap, const char *))) {
		if (!strstr(f->w.kept[0], want))
			fail_msg("note \"%s\" lacks \"%s\"", f->w.kept[0], want);
	}
	va_end(ap);
}

/* The name elfsyms finds at vaddr of the runtime file, or NULL. */
static const char *name_at(struct elfsyms *es, uint64_t vaddr)
{
	struct elfsyms_hit h;

	return elfsyms__find(es, off_of(vaddr), &h) ? h.name : NULL;
}

static struct elfsyms *open_prog(struct fixture *f, const struct prog *p, const uint8_t *bid)
{
	size_t len;
	uint8_t *img = build_prog(p, &len);
	struct elfsyms *es;

	put(f->prog, img, len);
	free(img);
	es = elfsyms__open(f->prog, bid, bid ? 20 : 0, &f->cfg);
	assert_non_null(es);
	return es;
}

/* The baseline the attacks are measured against: MiniDebugInfo is read. */
static void minidebuginfo_is_read(void **state)
{
	struct fixture *f = *state;
	size_t dlen, zlen;
	uint8_t *dbg = build_debug(NULL, &dlen), *z = xz(dbg, dlen, &zlen);
	struct elfsyms *es = open_prog(f, &(struct prog){ .debugdata = z, .debugdata_len = zlen }, NULL);

	assert_int_equal(elfsyms__origin(es), ELFSYMS_FROM_MINIDEBUG);
	assert_string_equal(name_at(es, DEBUG_FN), "debugfn");
	assert_string_equal(name_at(es, DYN_FN), "dynfn");
	assert_int_equal(f->w.nr, 0);
	elfsyms__free(es);
	free(dbg);
	free(z);
}

/* An ELF header, then megabytes of zeros: bounded, and said. */
static void a_minidebuginfo_bomb_is_bounded_and_said(void **state)
{
	struct fixture *f = *state;
	size_t dlen, zlen, big = 2u << 20;
	uint8_t *dbg = build_debug(NULL, &dlen), *bomb = calloc(1, big), *z;
	struct elfsyms *es;

	assert_non_null(bomb);
	memcpy(bomb, dbg, dlen);
	z = xz(bomb, big, &zlen);
	f->cfg.minidebug_max = 1u << 20;
	es = open_prog(f, &(struct prog){ .debugdata = z, .debugdata_len = zlen }, NULL);
	assert_int_equal(elfsyms__origin(es), ELFSYMS_FROM_DYNSYM);
	assert_null(name_at(es, DEBUG_FN));
	assert_string_equal(name_at(es, DYN_FN), "dynfn");
	said(f, f->prog, "+0x", ".gnu_debugdata (MiniDebugInfo) expands past 1 MiB", NULL);
	elfsyms__free(es);
	free(dbg);
	free(bomb);
	free(z);
}

static void corrupt_or_foreign_minidebuginfo_is_said(void **state)
{
	struct fixture *f = *state;
	size_t dlen, zlen, tlen;
	uint8_t *dbg = build_debug(NULL, &dlen), *z = xz(dbg, dlen, &zlen), *t;
	char text[4096];
	struct elfsyms *es;

	/* cut short */
	es = open_prog(f, &(struct prog){ .debugdata = z, .debugdata_len = zlen / 2 }, NULL);
	assert_int_equal(elfsyms__origin(es), ELFSYMS_FROM_DYNSYM);
	said(f, f->prog, "cannot be decompressed", NULL);
	elfsyms__free(es);
	warnings__release(&f->w);
	/* a stream of text, not ELF: stopped at its first bytes */
	memset(text, 'A', sizeof(text));
	t = xz(text, sizeof(text), &tlen);
	es = open_prog(f, &(struct prog){ .debugdata = t, .debugdata_len = tlen }, NULL);
	said(f, f->prog, "does not hold an ELF file", NULL);
	elfsyms__free(es);
	warnings__release(&f->w);
	/* not xz at all */
	es = open_prog(f, &(struct prog){ .debugdata = text, .debugdata_len = 64 }, NULL);
	said(f, f->prog, "cannot be decompressed (not an xz stream", NULL);
	elfsyms__free(es);
	free(dbg);
	free(z);
	free(t);
}

/* ELF's magic, then a header libelf refuses: the image was freed twice before. */
static void minidebuginfo_with_a_broken_elf_header_is_said(void **state)
{
	struct fixture *f = *state;
	uint8_t hdr[64] = { 0x7f, 'E', 'L', 'F' }, *z;
	size_t zlen;
	struct elfsyms *es;

	z = xz(hdr, sizeof(hdr), &zlen);
	es = open_prog(f, &(struct prog){ .debugdata = z, .debugdata_len = zlen }, NULL);
	assert_int_equal(elfsyms__origin(es), ELFSYMS_FROM_DYNSYM);
	said(f, f->prog, "holds no ELF file libelf can read", NULL);
	elfsyms__free(es);
	free(z);
}

/* MiniDebugInfo whose image has no .symtab but a .gnu_debugdata of its own. */
static void nested_minidebuginfo_is_not_followed(void **state)
{
	struct fixture *f = *state;
	size_t dlen, zlen, ilen, izlen;
	uint8_t *dbg = build_debug(NULL, &dlen), *z = xz(dbg, dlen, &zlen), *inner, *iz;
	struct elfsyms *es;

	inner = build_prog(&(struct prog){ .debugdata = z, .debugdata_len = zlen }, &ilen);
	iz = xz(inner, ilen, &izlen);
	es = open_prog(f, &(struct prog){ .debugdata = iz, .debugdata_len = izlen }, NULL);
	assert_int_equal(elfsyms__origin(es), ELFSYMS_FROM_DYNSYM);
	assert_null(name_at(es, DEBUG_FN));
	said(f, f->prog, "only a MiniDebugInfo of its own, which is not followed", NULL);
	elfsyms__free(es);
	free(dbg);
	free(z);
	free(inner);
	free(iz);
}

/* A debug file with debugfn at DIR/rel (directories made), its CRC returned. */
static uint32_t put_debug(struct fixture *f, const char *rel, const uint8_t *bid)
{
	size_t len;
	uint8_t *img = build_debug(bid, &len);
	char *path = scratch_dir__file(&f->dir, rel), *p;
	uint32_t crc = elfw_crc32(img, len);

	for (p = strchr(path + strlen(f->dir.path) + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		mkdir(path, 0755);
		*p = '/';
	}
	put(path, img, len);
	free(img);
	free(path);
	return crc;
}

/* gdb: the link is a file name, looked up beside the file, in its .debug,
 * under the debug directory; an absolute name or ../ would read any file. */
static void a_debuglink_that_is_no_plain_name_is_refused(void **state)
{
	struct fixture *f = *state;
	uint32_t crc = put_debug(f, "elsewhere/x.debug", NULL);
	char *abs = scratch_dir__file(&f->dir, "elsewhere/x.debug");
	const char *names[] = { abs, "../elsewhere/x.debug", "elsewhere/x.debug", ".." };

	for (size_t i = 0; i < 4; i++) {
		char rel[64];
		struct elfsyms *es;

		/* DIR/sub/prog, so that ../elsewhere is DIR/elsewhere */
		snprintf(rel, sizeof(rel), "%s/sub", f->dir.path);
		mkdir(rel, 0755);
		free(f->prog);
		f->prog = scratch_dir__file(&f->dir, i == 1 ? "sub/prog" : "prog");
		es = open_prog(f, &(struct prog){ .debuglink = names[i], .crc = crc }, NULL);
		assert_int_equal(elfsyms__origin(es), ELFSYMS_FROM_DYNSYM);
		assert_string_equal(elfsyms__symbol_file(es), f->prog);
		assert_null(name_at(es, DEBUG_FN));
		said(f, f->prog, ".gnu_debuglink names", "not a plain file name", NULL);
		elfsyms__free(es);
		warnings__release(&f->w);
	}
	free(abs);
}

/* gdb checks the debug file's CRC-32 against the link's: a mismatch is
 * another build's file (or a planted one), refused and said. */
static void a_debug_file_of_another_crc_is_refused(void **state)
{
	struct fixture *f = *state;
	uint32_t crc = put_debug(f, "prog.debug", NULL);
	char *dbg = scratch_dir__file(&f->dir, "prog.debug");
	struct elfsyms *es;

	es = open_prog(f, &(struct prog){ .debuglink = "prog.debug", .crc = crc ^ 1 }, NULL);
	assert_int_equal(elfsyms__origin(es), ELFSYMS_FROM_DYNSYM);
	assert_null(name_at(es, DEBUG_FN));
	said(f, dbg, "CRC-32", "not used as its debug file", NULL);
	elfsyms__free(es);
	warnings__release(&f->w);
	/* the right CRC: the debug file's symbols */
	es = open_prog(f, &(struct prog){ .debuglink = "prog.debug", .crc = crc }, NULL);
	assert_int_equal(elfsyms__origin(es), ELFSYMS_FROM_SYMTAB);
	assert_string_equal(elfsyms__symbol_file(es), dbg);
	assert_string_equal(name_at(es, DEBUG_FN), "debugfn");
	assert_int_equal(f->w.nr, 0);
	elfsyms__free(es);
	free(dbg);
}

/* The CRC is the standard CRC-32 (the check value of "123456789"), which
 * objcopy --add-gnu-debuglink writes and gdb checks. */
static void the_crc_is_gdbs(void **state)
{
	assert_int_equal(elfw_crc32("123456789", 9), 0xcbf43926);
}

/* A link to the file itself: not its own debug file (no CRC to refuse it by). */
static void a_debuglink_to_the_file_itself_is_passed_over(void **state)
{
	struct fixture *f = *state;
	struct elfsyms *es = open_prog(f, &(struct prog){ .symtab = true, .debuglink = "prog", .crc = 0 }, NULL);

	assert_int_equal(elfsyms__origin(es), ELFSYMS_FROM_SYMTAB);
	assert_string_equal(elfsyms__symbol_file(es), f->prog);
	assert_int_equal(f->w.nr, 0);
	elfsyms__free(es);
}

/* A debug file at the build-id path whose own build-id is another: refused, said.
 * The build-id is 20 bytes of 0xab: the path is .build-id/ab/ and 38 more digits. */
#define AB38 "ab" "abababababababababababababababababab"
static void a_debug_file_of_another_build_id_is_refused_and_said(void **state)
{
	struct fixture *f = *state;
	uint8_t want[20], other[20];
	struct elfsyms *es;

	memset(want, 0xab, sizeof(want));
	memset(other, 0xcd, sizeof(other));
	put_debug(f, "debug/.build-id/ab/" AB38 ".debug", other);
	es = open_prog(f, &(struct prog){ .bid = want }, want);
	assert_int_equal(elfsyms__origin(es), ELFSYMS_FROM_DYNSYM);
	assert_null(name_at(es, DEBUG_FN));
	said(f, "/.build-id/ab/" AB38 ".debug", "its build-id is not the recording's",
	     NULL);
	elfsyms__free(es);
	warnings__release(&f->w);
	put_debug(f, "debug/.build-id/ab/" AB38 ".debug", want);
	es = open_prog(f, &(struct prog){ .bid = want }, want);
	assert_int_equal(elfsyms__origin(es), ELFSYMS_FROM_SYMTAB);
	assert_string_equal(name_at(es, DEBUG_FN), "debugfn");
	assert_int_equal(f->w.nr, 0);
	elfsyms__free(es);
}

/* The runtime file with a .symtab, one header field broken at its place. */
static struct elfsyms *open_broken(struct fixture *f, void (*brk)(uint8_t *img, size_t len))
{
	size_t len;
	uint8_t *img = build_prog(&(struct prog){ .symtab = true }, &len);
	struct elfsyms *es;

	brk(img, len);
	put(f->prog, img, len);
	free(img);
	es = elfsyms__open(f->prog, NULL, 0, &f->cfg);
	assert_non_null(es);
	return es;
}

static void shstrndx_out_of_range(uint8_t *img, size_t len)
{
	uint16_t v = 200;

	memcpy(img + offsetof(Elf64_Ehdr, e_shstrndx), &v, sizeof(v));
}

/* Section headers past the end of the file, or more of them than fit:
 * libelf sees no section, which read as "no symbol table" before. */
static void shoff_past_the_end(uint8_t *img, size_t len)
{
	uint64_t v = len + 4096;

	memcpy(img + offsetof(Elf64_Ehdr, e_shoff), &v, sizeof(v));
}

static void shnum_too_big(uint8_t *img, size_t len)
{
	uint16_t v = 0xfeff;

	memcpy(img + offsetof(Elf64_Ehdr, e_shnum), &v, sizeof(v));
}

static void section_headers_past_the_end_are_said(void **state)
{
	struct fixture *f = *state;
	void (*brk[])(uint8_t *, size_t) = { shoff_past_the_end, shnum_too_big };

	for (size_t i = 0; i < 2; i++) {
		struct elfsyms *es = open_broken(f, brk[i]);

		assert_null(name_at(es, DYN_FN));
		assert_int_equal(elfsyms__status(es), ELFSYMS_UNREADABLE);
		said(f, f->prog, "+0x28: e_shoff 0x", "put the section headers past the end of the file", NULL);
		elfsyms__free(es);
		warnings__release(&f->w);
	}
}

static void e_shstrndx_out_of_range_is_said(void **state)
{
	struct fixture *f = *state;
	struct elfsyms *es = open_broken(f, shstrndx_out_of_range);

	assert_int_equal(elfsyms__status(es), ELFSYMS_UNREADABLE);
	assert_null(name_at(es, DYN_FN));
	said(f, f->prog, "+0x3e: e_shstrndx 200 is no string table", NULL);
	elfsyms__free(es);
}

/* .symtab is section 4: its sh_offset moved near the end, so that its 48 bytes run past it. */
static void symtab_past_the_end(uint8_t *img, size_t len)
{
	uint64_t off = len - 16;

	memcpy(img + elfw_shdr(img, 4) + offsetof(Elf64_Shdr, sh_offset), &off, sizeof(off));
}

static void a_symbol_table_past_the_end_is_said(void **state)
{
	struct fixture *f = *state;
	struct elfsyms *es = open_broken(f, symtab_past_the_end);

	assert_null(name_at(es, TEXT_ADDR + 0x20));
	said(f, f->prog, ".symtab of 0x30 bytes runs past the end of the file", NULL);
	elfsyms__free(es);
}

/* .symtab's string table is itself (a cycle), or no section at all. */
static void symtab_links_itself(uint8_t *img, size_t len)
{
	uint32_t v = 4;

	memcpy(img + elfw_shdr(img, 4) + offsetof(Elf64_Shdr, sh_link), &v, sizeof(v));
}

static void symtab_links_nowhere(uint8_t *img, size_t len)
{
	uint32_t v = 999;

	memcpy(img + elfw_shdr(img, 4) + offsetof(Elf64_Shdr, sh_link), &v, sizeof(v));
}

static void sh_link_cycles_and_strays_read_no_stray_bytes(void **state)
{
	struct fixture *f = *state;
	struct elfsyms *es = open_broken(f, symtab_links_itself);
	const char *n = name_at(es, TEXT_ADDR + 0x20);

	/* the name at offset 1 of the symbol table's own bytes: whatever is there, within it */
	assert_true(!n || strlen(n) < 48);
	elfsyms__free(es);
	es = open_broken(f, symtab_links_nowhere);
	assert_null(name_at(es, TEXT_ADDR + 0x20));
	elfsyms__free(es);
}

/* A .symtab of 1000 symbols whose sh_entsize says 1: perf's count would be 24000. */
static void a_bogus_entsize_reserves_no_phantom_symbols(void **state)
{
	struct fixture *f = *state;
	enum { N = 1000 };
	uint8_t *symtab = calloc(N, 24), *img;
	static const char strtab[] = "\0fn";
	static uint8_t text[0x100];
	struct elfw_sec secs[] = {
		{ ".text", SHT_PROGBITS, 0, 0, SHF_ALLOC | SHF_EXECINSTR, TEXT_ADDR, 0, text, sizeof(text) },
		{ ".symtab", SHT_SYMTAB, 3, 1, 0, 0, 1, symtab, (size_t)N * 24 },
		{ ".strtab", SHT_STRTAB, 0, 0, 0, 0, 0, strtab, sizeof(strtab) },
	};
	size_t len;
	struct elfsyms *es;

	assert_non_null(symtab);
	for (size_t i = 1; i < N; i++)
		elfw_sym(symtab + i * 24, 1, ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), 1, TEXT_ADDR + i % 0x100, 1);
	img = elfw_build(&(struct elfw){ secs, 3, 0, false }, &len);
	put(f->prog, img, len);
	es = elfsyms__open(f->prog, NULL, 0, &f->cfg);
	assert_int_equal(elfsyms__nr(es), N - 1);
	/* 40-byte symbols and their 8-byte starts, for 1000 symbols, not 24000 */
	assert_true(elfsyms__memory(es) < (size_t)N * 200);
	elfsyms__free(es);
	free(img);
	free(symtab);
}

/* A .rela.plt of 3 entries whose sh_entsize says 1: perf's count would be
 * 72 entries, 69 of them "@plt" from nothing. */
static void a_bogus_plt_entsize_makes_no_phantom_entries(void **state)
{
	struct fixture *f = *state;
	uint8_t dynsym[48] = { 0 }, rela[3 * 24], *img;
	static const char dynstr[] = "\0dynfn";
	static uint8_t text[0x100], plt[0x40];
	struct elfw_sec secs[] = {
		{ ".text", SHT_PROGBITS, 0, 0, SHF_ALLOC | SHF_EXECINSTR, TEXT_ADDR, 0, text, sizeof(text) },
		{ ".dynsym", SHT_DYNSYM, 3, 1, SHF_ALLOC, 0, 24, dynsym, sizeof(dynsym) },
		{ ".dynstr", SHT_STRTAB, 0, 0, SHF_ALLOC, 0, 0, dynstr, sizeof(dynstr) },
		{ ".rela.plt", SHT_RELA, 2, 0, SHF_ALLOC, 0, 1, rela, sizeof(rela) },
		{ ".plt", SHT_PROGBITS, 0, 0, SHF_ALLOC | SHF_EXECINSTR, 0x2000, 16, plt, sizeof(plt) },
	};
	size_t len;
	struct elfsyms *es;

	elfw_sym(dynsym + 24, 1, ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), 1, DYN_FN, 0x10);
	for (size_t i = 0; i < 3; i++) {
		Elf64_Rela r = { .r_offset = 0x3000 + 8 * i, .r_info = ELF64_R_INFO(1, R_X86_64_JUMP_SLOT) };

		memcpy(rela + 24 * i, &r, sizeof(r));
	}
	img = elfw_build(&(struct elfw){ secs, 5, 0, false }, &len);
	put(f->prog, img, len);
	es = elfsyms__open(f->prog, NULL, 0, &f->cfg);
	/* dynfn, and one dynfn@plt per entry after .plt's 16-byte header */
	assert_int_equal(elfsyms__nr(es), 1 + 3);
	elfsyms__free(es);
	free(img);
}

/* A string table that does not end in NUL, right before another section's
 * bytes: its last name must not run on into them. */
static void a_name_never_runs_past_its_string_table(void **state)
{
	struct fixture *f = *state;
	uint8_t symtab[48] = { 0 }, *img;
	static const char strtab[8] = "\0abcdefg", after[] = "XYZ";
	static uint8_t text[0x100];
	struct elfw_sec secs[] = {
		{ ".text", SHT_PROGBITS, 0, 0, SHF_ALLOC | SHF_EXECINSTR, TEXT_ADDR, 0, text, sizeof(text) },
		{ ".symtab", SHT_SYMTAB, 3, 1, 0, 0, 24, symtab, sizeof(symtab) },
		{ ".strtab", SHT_STRTAB, 0, 0, 0, 0, 0, strtab, sizeof(strtab) },
		{ ".comment", SHT_PROGBITS, 0, 0, 0, 0, 0, after, sizeof(after) },
	};
	size_t len;
	struct elfsyms *es;
	const char *n;

	elfw_sym(symtab + 24, 1, ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), 1, TEXT_ADDR + 0x20, 0x10);
	img = elfw_build(&(struct elfw){ secs, 4, 0, false }, &len);
	put(f->prog, img, len);
	es = elfsyms__open(f->prog, NULL, 0, &f->cfg);
	n = name_at(es, TEXT_ADDR + 0x20);
	if (n && strstr(n, "XYZ"))
		fail_msg("the name ran into the next section: \"%s\"", n);
	assert_null(n);
	elfsyms__free(es);
	free(img);
}

/* Not ELF at all where the file is: not "not found" (resolve.c's warning
 * says why, with the samples); where a debug file should be: said. */
static void a_file_that_is_no_elf_is_said(void **state)
{
	struct fixture *f = *state;
	char *dbg = scratch_dir__file(&f->dir, "debug/.build-id/ab/" AB38 ".debug");
	uint8_t bid[20];
	struct elfsyms *es;

	scratch_dir__put(f->prog, "#!/bin/sh\necho not an ELF file\n");
	es = elfsyms__open(f->prog, NULL, 0, &f->cfg);
	assert_int_equal(elfsyms__status(es), ELFSYMS_UNREADABLE);
	assert_int_equal(f->w.nr, 0);
	elfsyms__free(es);
	memset(bid, 0xab, sizeof(bid));
	put_debug(f, "debug/.build-id/ab/" AB38 ".debug", bid);
	scratch_dir__put(dbg, "not ELF either");
	es = open_prog(f, &(struct prog){ .bid = bid }, bid);
	assert_int_equal(elfsyms__origin(es), ELFSYMS_FROM_DYNSYM);
	said(f, dbg, "not an ELF file libelf can read: not used as a debug file", NULL);
	elfsyms__free(es);
	free(dbg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(minidebuginfo_is_read, setup, teardown),
		cmocka_unit_test_setup_teardown(a_minidebuginfo_bomb_is_bounded_and_said, setup, teardown),
		cmocka_unit_test_setup_teardown(corrupt_or_foreign_minidebuginfo_is_said, setup, teardown),
		cmocka_unit_test_setup_teardown(minidebuginfo_with_a_broken_elf_header_is_said, setup, teardown),
		cmocka_unit_test_setup_teardown(nested_minidebuginfo_is_not_followed, setup, teardown),
		cmocka_unit_test_setup_teardown(a_debuglink_that_is_no_plain_name_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(a_debug_file_of_another_crc_is_refused, setup, teardown),
		cmocka_unit_test(the_crc_is_gdbs),
		cmocka_unit_test_setup_teardown(a_debuglink_to_the_file_itself_is_passed_over, setup, teardown),
		cmocka_unit_test_setup_teardown(a_debug_file_of_another_build_id_is_refused_and_said, setup, teardown),
		cmocka_unit_test_setup_teardown(e_shstrndx_out_of_range_is_said, setup, teardown),
		cmocka_unit_test_setup_teardown(section_headers_past_the_end_are_said, setup, teardown),
		cmocka_unit_test_setup_teardown(a_symbol_table_past_the_end_is_said, setup, teardown),
		cmocka_unit_test_setup_teardown(sh_link_cycles_and_strays_read_no_stray_bytes, setup, teardown),
		cmocka_unit_test_setup_teardown(a_bogus_entsize_reserves_no_phantom_symbols, setup, teardown),
		cmocka_unit_test_setup_teardown(a_bogus_plt_entsize_makes_no_phantom_entries, setup, teardown),
		cmocka_unit_test_setup_teardown(a_name_never_runs_past_its_string_table, setup, teardown),
		cmocka_unit_test_setup_teardown(a_file_that_is_no_elf_is_said, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

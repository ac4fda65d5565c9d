/* SPDX-License-Identifier: MIT */
/* mkcwasm: writes a wasmtime-format .cwasm ELF (test fixture) from an assembled .o, with libelf. */

/*
 * wasmtime cannot be installed where hotblocks is developed, so its test
 * fixtures are built from hand-written code (test-data/wasmtime/hot.S) and
 * laid out as wasmtime lays out its artifact (postproc/FORMATS.md, "The
 * .cwasm file" and "The address map").  The address map is written by the
 * post-processor's own encoder (postproc/annotate/wasmtime/addrmap.c), so these fixtures and
 * its decoder test each other only through the worked example below, which
 * was checked by hand and by an independent Python decoder.  Usage:
 *
 *   mkcwasm --self-test
 *   mkcwasm --extract-addrmap OBJ	  per-instruction address map of OBJ
 *   mkcwasm --extract-meta OBJ		  trap and exception call sites of OBJ
 *   mkcwasm --obj OBJ --addrmap FILE [--meta FILE] --format plain|blocks
 *	     --engine VERSION -o OUT.cwasm
 *
 * OBJ is the assembler's ELF .o: its .text is copied verbatim and its STT_FUNC
 * symbols (already named wasm[0]::function[F]::name etc.) become the
 * artifact's symbols, sorted by address.  hot.S's I/TRAP/CALLSITE macros
 * leave (text offset, value) pairs in the side sections .hb_addrmap,
 * .hb_traps and .hb_callsites, which the --extract modes print as text; the
 * build mode reads those texts back (they are the reviewed fixture tables).
 *
 * Sections, in wasmtime's order (crates/wasmtime/src/compile.rs,
 * crates/cranelift/src/compiler.rs, crates/environ/src/compile/
 * module_artifacts.rs), and file layout as the `object` crate writes it:
 * ELF header, each section's data at its alignment, .symtab, .strtab,
 * .shstrtab, section headers.  .text is aligned to 0x1000 and its size is
 * padded to a page (wasmtime does that so .eh_frame gets its own page).
 * Left out or dummy, because no reader in this project needs them and they
 * cannot be reproduced without wasmtime: .eh_frame (absent), the postcard
 * Metadata after the engine version string (absent), .wasmtime.info (empty).
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../plugin/symbols/elf-defs.h"
#include "mkcwasm/mkcwasm.h"

#define TEXT_ALIGN		0x1000

/* ---- writing the artifact ---- */

struct outsec {
	const char *name;
	Elf64_Word type;
	Elf64_Xword flags, align, entsize;
	Elf64_Word link, info;
	struct buf data;
	size_t name_off;
	Elf64_Off file_off;
};

static size_t align_up(size_t v, size_t a)
{
	return (v + a - 1) / a * a;
}

/* The name-section names, in function-index order, from the symbol names
 * wasm[0]::function[F]::NAME (clean(NAME) == NAME for this fixture). */
static void name_wasm(struct buf *out, const struct obj *o)
{
	for (size_t i = 0; i < o->nfuncs; i++) {
		const char *p = o->funcs[i].name, *sep;

		if (strncmp(p, "wasm[0]::function[", 18))
			continue;
		sep = strstr(p + 18, "]::");
		if (sep)
			buf_put(out, sep + 3, strlen(sep + 3));
	}
}

/* The symbols (every function, local) and the section names: .symtab,
 * .strtab and .shstrtab of all[0 .. nall), text_index .text's section index. */
static void symbols(struct obj *o, struct outsec **all, size_t nall, size_t text_index)
{
	struct outsec *symtab = all[nall - 3], *strtab = all[nall - 2], *shstrtab = all[nall - 1];
	Elf64_Sym sym;

	/* Strings in symbol order, no suffix sharing (`object` may share
	 * suffixes; readers never depend on it). */
	buf_u8(&strtab->data, 0);
	memset(&sym, 0, sizeof(sym));
	buf_put(&symtab->data, &sym, sizeof(sym));
	for (size_t i = 0; i < o->nfuncs; i++) {
		memset(&sym, 0, sizeof(sym));
		sym.st_name = strtab->data.len;
		sym.st_info = ELF64_ST_INFO(STB_LOCAL, STT_FUNC);
		sym.st_other = STV_DEFAULT;
		sym.st_shndx = text_index;
		sym.st_value = o->funcs[i].off;
		sym.st_size = o->funcs[i].size;
		buf_put(&symtab->data, &sym, sizeof(sym));
		buf_put(&strtab->data, o->funcs[i].name, strlen(o->funcs[i].name) + 1);
	}
	symtab->info = 1 + o->nfuncs;	/* every symbol is local */
	symtab->link = nall - 1;	/* .strtab: second to last */
	buf_u8(&shstrtab->data, 0);
	for (size_t i = 0; i < nall; i++) {
		all[i]->name_off = shstrtab->data.len;
		buf_put(&shstrtab->data, all[i]->name, strlen(all[i]->name) + 1);
	}
}

/* The file: all[0 .. nall) at their offsets, the section headers at shoff. */
static void write_elf(const char *out_path, struct outsec **all, size_t nall, size_t shoff)
{
	Elf64_Ehdr *eh;
	Elf *elf;
	int fd;

	fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("%s: %s", out_path, strerror(errno));
	elf = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!elf || !(eh = elf64_newehdr(elf)))
		die("%s: %s", out_path, elf_errmsg(-1));
	/* The layout is ours (the object crate's), not libelf's. */
	elf_flagelf(elf, ELF_C_SET, ELF_F_LAYOUT);
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_OSABI] = ELFOSABI_WASMTIME;
	eh->e_ident[EI_ABIVERSION] = 0;
	eh->e_type = ET_REL;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_flags = EF_WASMTIME_MODULE;
	eh->e_shoff = shoff;
	eh->e_shstrndx = nall;
	for (size_t i = 0; i < nall; i++) {
		Elf_Scn *scn = elf_newscn(elf);
		Elf64_Shdr *sh;
		Elf_Data *d;

		if (!scn || !(sh = elf64_getshdr(scn)) || !(d = elf_newdata(scn)))
			die("%s: %s", out_path, elf_errmsg(-1));
		d->d_buf = all[i]->data.data;
		d->d_size = all[i]->data.len;
		d->d_type = ELF_T_BYTE;
		d->d_align = 1;
		d->d_off = 0;
		d->d_version = EV_CURRENT;
		sh->sh_name = all[i]->name_off;
		sh->sh_type = all[i]->type;
		sh->sh_flags = all[i]->flags;
		sh->sh_offset = all[i]->file_off;
		sh->sh_size = all[i]->data.len;
		sh->sh_link = all[i]->link;
		sh->sh_info = all[i]->info;
		sh->sh_addralign = all[i]->align;
		sh->sh_entsize = all[i]->entsize;
	}
	if (elf_update(elf, ELF_C_WRITE) < 0)
		die("%s: %s", out_path, elf_errmsg(-1));
	elf_end(elf);
	if (close(fd) < 0)
		die("%s: %s", out_path, strerror(errno));
}

static void write_cwasm(const char *out_path, struct obj *o, struct outsec *secs, size_t nsecs)
{
	struct outsec symtab = { .name = ".symtab", .type = SHT_SYMTAB, .align = 8,
				 .entsize = sizeof(Elf64_Sym) };
	struct outsec strtab = { .name = ".strtab", .type = SHT_STRTAB, .align = 1 };
	struct outsec shstrtab = { .name = ".shstrtab", .type = SHT_STRTAB, .align = 1 };
	struct outsec *all[32];
	size_t nall = 0, text_index = 0, off;

	for (size_t i = 0; i < nsecs; i++) {
		all[nall++] = &secs[i];
		if (!strcmp(secs[i].name, ".text"))
			text_index = nall;	/* section index: null is 0 */
	}
	all[nall++] = &symtab;
	all[nall++] = &strtab;
	all[nall++] = &shstrtab;
	symbols(o, all, nall, text_index);
	off = sizeof(Elf64_Ehdr);
	for (size_t i = 0; i < nall; i++) {
		off = align_up(off, all[i]->align ? all[i]->align : 1);
		all[i]->file_off = off;
		off += all[i]->data.len;
	}
	write_elf(out_path, all, nall, align_up(off, 8));
	free(symtab.data.data);
	free(strtab.data.data);
	free(shstrtab.data.data);
}

static void __attribute__((noreturn)) usage(void)
{
	fprintf(stderr,
		"usage: %s --self-test\n"
		"       %s --extract-addrmap OBJ | --extract-meta OBJ\n"
		"       %s --obj OBJ --addrmap FILE [--meta FILE] --format plain|blocks\n"
		"               --engine VERSION -o OUT.cwasm\n",
		prog, prog, prog);
	exit(2);
}

/* What the build mode makes the artifact of. */
struct build {
	const char *obj_path, *addrmap_path, *meta_path, *format, *engine, *out;
	bool blocks;
	struct obj o;
	struct addrmap_entry *map;
	size_t nmap;
	struct trap *traps;
	size_t ntraps;
	struct callsite *calls;
	size_t ncalls;
};

/* The build mode's arguments; the other modes run here and exit. */
static void parse_args(int argc, char **argv, struct build *b)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--self-test"))
			exit(self_test());
		if (!strcmp(a, "--extract-addrmap") && i + 1 < argc)
			exit(extract_addrmap(argv[i + 1]));
		if (!strcmp(a, "--extract-meta") && i + 1 < argc)
			exit(extract_meta(argv[i + 1]));
		if (i + 1 >= argc)
			usage();
		if (!strcmp(a, "--obj"))
			b->obj_path = argv[++i];
		else if (!strcmp(a, "--addrmap"))
			b->addrmap_path = argv[++i];
		else if (!strcmp(a, "--meta"))
			b->meta_path = argv[++i];
		else if (!strcmp(a, "--format"))
			b->format = argv[++i];
		else if (!strcmp(a, "--engine"))
			b->engine = argv[++i];
		else if (!strcmp(a, "-o"))
			b->out = argv[++i];
		else
			usage();
	}
	if (!b->obj_path || !b->addrmap_path || !b->format || !b->engine || !b->out)
		usage();
	if (strcmp(b->format, "plain") && strcmp(b->format, "blocks"))
		die("--format must be plain (wasmtime <= 46) or blocks (>= 47)");
	b->blocks = !strcmp(b->format, "blocks");
	if (strlen(b->engine) > 255)
		die("--engine: version string longer than 255 bytes");
}

/* The object and the tables, read and checked against each other. */
static void read_inputs(struct build *b)
{
	obj_open(&b->o, b->obj_path);
	b->map = load_addrmap_text(b->addrmap_path, &b->nmap);
	b->nmap = compress_addrmap(&b->o, b->map, b->nmap);
	if (b->meta_path)
		read_meta(b->meta_path, &b->traps, &b->ntraps, &b->calls, &b->ncalls);
	for (size_t i = 0; i < b->ntraps; i++)
		if (!func_at(&b->o, b->traps[i].off))
			die("trap at 0x%x is outside every function", b->traps[i].off);
	for (size_t i = 0; i < b->ncalls; i++)
		if (!func_at(&b->o, b->calls[i].ret) || !func_at(&b->o, b->calls[i].handler))
			die("call site 0x%x / handler 0x%x outside every function", b->calls[i].ret,
			    b->calls[i].handler);
}

/* The artifact's own sections, in wasmtime's order, into secs; how many. */
static size_t make_sections(struct build *b, struct outsec *secs)
{
	size_t nsecs = 0;
	struct outsec *s;

#define SEC(n, t, f, a) (secs[nsecs] = (struct outsec){ .name = (n), .type = (t), \
				.flags = (f), .align = (a) }, &secs[nsecs++])
	/* byte 0: format version 0; byte 1: length; then the version
	 * string.  wasmtime appends postcard Metadata: left out. */
	s = SEC(".wasmtime.engine", SHT_PROGBITS, SHF_ALLOC, 1);
	buf_u8(&s->data, 0);
	buf_u8(&s->data, strlen(b->engine));
	buf_put(&s->data, b->engine, strlen(b->engine));

	s = SEC(".wasmtime.bti", SHT_PROGBITS, SHF_ALLOC, 1);
	buf_u8(&s->data, 0);	/* no branch protection on x86-64 */

	s = SEC(".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, TEXT_ALIGN);
	buf_put(&s->data, b->o.text, b->o.text_size);
	while (s->data.len % TEXT_ALIGN)
		buf_u8(&s->data, 0);

	s = SEC(".wasmtime.addrmap", SHT_PROGBITS, SHF_ALLOC, 1);
	addrmap(&s->data, b->map, b->nmap, b->blocks ? ADDRMAP_BLOCKS : ADDRMAP_PLAIN);

	/* No .wasmtime.stackmap: wasmtime omits it when no function
	 * has GC references. */
	s = SEC(".wasmtime.traps", SHT_PROGBITS, SHF_ALLOC, 1);
	if (b->blocks)
		traps_blocks(&s->data, b->traps, b->ntraps);
	else
		traps_plain(&s->data, b->traps, b->ntraps);

	s = SEC(".wasmtime.exceptions", SHT_PROGBITS, SHF_ALLOC, 1);
	exceptions(&s->data, b->calls, b->ncalls);

	/* Data segments: the module has none, the section is still there. */
	SEC(".rodata.wasm", SHT_PROGBITS, SHF_ALLOC, 1);

	s = SEC(".name.wasm", SHT_PROGBITS, SHF_ALLOC, 1);
	name_wasm(&s->data, &b->o);

	/* postcard (CompiledModuleInfo, CompiledFunctionsTable,
	 * ModuleTypes): Rust-internal, left empty (dummy). */
	SEC(".wasmtime.info", SHT_PROGBITS, SHF_ALLOC, 1);
#undef SEC
	return nsecs;
}

int main(int argc, char **argv)
{
	struct build b = { 0 };
	struct outsec secs[16];
	size_t nsecs;

	if (elf_version(EV_CURRENT) == EV_NONE)
		die("libelf: %s", elf_errmsg(-1));
	parse_args(argc, argv, &b);
	read_inputs(&b);
	memset(secs, 0, sizeof(secs));
	nsecs = make_sections(&b, secs);
	write_cwasm(b.out, &b.o, secs, nsecs);
	printf("%s: %zu functions, .text 0x%zx bytes, %zu address map entries (%s), "
	       "%zu traps, %zu call sites, engine \"%s\"\n",
	       b.out, b.o.nfuncs, align_up(b.o.text_size, TEXT_ALIGN), b.nmap, b.format, b.ntraps,
	       b.ncalls, b.engine);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/* Reader of wasmtime's compiled modules (.cwasm ELF): its sections checked and read (cwasm.h). */
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cwasm-defs.h"
#include "lib/read-file.h"
#include "lib/util.h"
#include "stream/code-name.h"

/* Larger files are refused before they are read (wasmtime's are a few MiB). */
#define CWASM_MAX_FILE (1u << 30)

/* File offset of section header ndx, for messages about it. */
static uint64_t shdr_off(const struct cwasm *c, size_t ndx)
{
	return c->eh.e_shoff + (uint64_t)ndx * c->eh.e_shentsize;
}

static int check_header(struct cwasm *c, char *err, size_t errlen)
{
	const char *id;
	size_t n;

	if (elf_kind(c->elf) != ELF_K_ELF)
		return errf_at(err, errlen, -EINVAL, c->path, 0, "not an ELF file");
	id = elf_getident(c->elf, &n);
	if (!id || n < EI_NIDENT)
		return errf_at(err, errlen, -EINVAL, c->path, 0, "truncated ELF identification");
	if (id[EI_CLASS] != ELFCLASS64)
		return errf_at(err, errlen, -EINVAL, c->path, EI_CLASS,
			       "ELF class %u, a .cwasm is always ELF64",
			       (unsigned char)id[EI_CLASS]);
	/* wasmtime marks its artifacts here; anything else is some other ELF file. */
	if ((unsigned char)id[EI_OSABI] != ELFOSABI_WASMTIME)
		return errf_at(err, errlen, -EINVAL, c->path, EI_OSABI,
			       "EI_OSABI is %u, not %u: not a wasmtime compiled module",
			       (unsigned char)id[EI_OSABI], ELFOSABI_WASMTIME);
	if (!gelf_getehdr(c->elf, &c->eh))
		return errf(err, errlen, -EIO, "%s: libelf: gelf_getehdr: %s", c->path, elf_errmsg(-1));
	/* In ET_REL files symbol values are section offsets, which is what we use them as. */
	if (c->eh.e_type != ET_REL)
		return errf_at(err, errlen, -EINVAL, c->path, 0x10,
			       "e_type %u, a .cwasm is ET_REL (1)", c->eh.e_type);
	return 0;
}

/*
 * What libelf would only call "invalid ELF file data": a file too short for
 * its ELF64 header (64 bytes). The magic and class are checked first so that
 * short files of another kind are named as such.
 */
static int check_short_header(struct cwasm *c, char *err, size_t errlen)
{
	unsigned char h[sizeof(Elf64_Ehdr)];
	size_t have = c->file_size < sizeof(h) ? c->file_size : sizeof(h);

	memcpy(h, c->image, have);
	if (!have || memcmp(h, ELFMAG, have < SELFMAG ? have : SELFMAG))
		return errf_at(err, errlen, -EINVAL, c->path, 0, "not an ELF file");
	if (have > EI_CLASS && h[EI_CLASS] != ELFCLASS64)
		return errf_at(err, errlen, -EINVAL, c->path, EI_CLASS,
			       "ELF class %u, a .cwasm is always ELF64", h[EI_CLASS]);
	if (have < sizeof(h))
		return errf_at(err, errlen, -EINVAL, c->path, have,
			       "truncated ELF header (%zu of %zu bytes)", have, sizeof(h));
	return 0;
}

/* Whether section ndx's bytes lie inside the file (any type but SHT_NOBITS). */
static int section_range(struct cwasm *c, const GElf_Shdr *sh, size_t ndx, const char *name,
			 char *err, size_t errlen)
{
	if (sh->sh_type == SHT_NOBITS)
		return errf_at(err, errlen, -EINVAL, c->path, shdr_off(c, ndx),
			       "section %s has no data (SHT_NOBITS)", name);
	if (sh->sh_offset > c->file_size || sh->sh_size > c->file_size - sh->sh_offset)
		return errf_at(err, errlen, -EINVAL, c->path, shdr_off(c, ndx), "section %s at 0x%"
			       PRIx64 " of 0x%" PRIx64 " bytes runs past the end of the file (0x%"
			       PRIx64 " bytes)", name, (uint64_t)sh->sh_offset,
			       (uint64_t)sh->sh_size, c->file_size);
	return 0;
}

/* The data of section ndx, after checking that the header's range lies inside the file. */
static int section_data(struct cwasm *c, Elf_Scn *scn, const GElf_Shdr *sh, size_t ndx,
			const char *name, Elf_Data **out, char *err, size_t errlen)
{
	Elf_Data *d;
	int ret;

	ret = section_range(c, sh, ndx, name, err, errlen);
	if (ret)
		return ret;
	d = elf_getdata(scn, NULL);
	if (!d && sh->sh_size)
		return errf(err, errlen, -EIO, "%s: section %s: libelf: elf_getdata: %s", c->path, name,
			    elf_errmsg(-1));
	if (d && (d->d_size > sh->sh_size || (d->d_size && !d->d_buf)))
		return errf(err, errlen, -EIO, "%s: section %s: libelf returned %zu bytes of 0x%" PRIx64,
			    c->path, name, d->d_size, (uint64_t)sh->sh_size);
	*out = d;
	return 0;
}

/*
 * The section count and the section name table, which libelf takes on trust:
 * with e_shnum 0 or e_shstrndx out of range no section would have a name, and
 * the file would only seem to lack a .text. Sets *shstrndx.
 */
static int check_sections(struct cwasm *c, size_t *shstrndx, char *err, size_t errlen)
{
	uint64_t num_at = offsetof(Elf64_Ehdr, e_shnum);
	/* Past 0xff00 sections the index sits in section 0's sh_link (ELF gABI). */
	uint64_t ndx_at = c->eh.e_shstrndx != SHN_XINDEX ? offsetof(Elf64_Ehdr, e_shstrndx) :
			  c->eh.e_shoff + offsetof(Elf64_Shdr, sh_link);
	char what[48];
	size_t shnum;
	GElf_Shdr sh;
	Elf_Scn *scn;

	if (elf_getshdrnum(c->elf, &shnum))
		return errf_at(err, errlen, -EIO, c->path, num_at, "libelf: elf_getshdrnum: %s",
			       elf_errmsg(-1));
	if (!shnum)
		return errf_at(err, errlen, -EINVAL, c->path, num_at, "e_shnum %u: the file has no"
			       " sections", (unsigned)c->eh.e_shnum);
	if (elf_getshdrstrndx(c->elf, shstrndx))
		return errf_at(err, errlen, -EIO, c->path, ndx_at, "libelf: elf_getshdrstrndx: %s",
			       elf_errmsg(-1));
	if (*shstrndx == SHN_UNDEF)
		return errf_at(err, errlen, -EINVAL, c->path, ndx_at, "e_shstrndx is 0 (SHN_UNDEF):"
			       " no section has a name");
	if (*shstrndx >= shnum)
		return errf_at(err, errlen, -EINVAL, c->path, ndx_at, "e_shstrndx %zu is not one of"
			       " the %zu sections: no section has a name", *shstrndx, shnum);
	scn = elf_getscn(c->elf, *shstrndx);
	if (!scn || !gelf_getshdr(scn, &sh))
		return errf_at(err, errlen, -EIO, c->path, shdr_off(c, *shstrndx),
			       "section header %zu: libelf: %s", *shstrndx, elf_errmsg(-1));
	if (sh.sh_type != SHT_STRTAB)
		return errf_at(err, errlen, -EINVAL, c->path,
			       shdr_off(c, *shstrndx) + offsetof(Elf64_Shdr, sh_type),
			       "section %zu (e_shstrndx) has" " type %" PRIu32
			       ", not SHT_STRTAB: no section has a name", *shstrndx,
			       (uint32_t)sh.sh_type);
	snprintf(what, sizeof(what), "%zu (e_shstrndx)", *shstrndx);
	return section_range(c, &sh, *shstrndx, what, err, errlen);
}

/* byte 0 = 0, byte 1 = length L, then L bytes of version string, then postcard data. */
static int read_engine(struct cwasm *c, const Elf_Data *d)
{
	const uint8_t *p = d ? d->d_buf : NULL;
	size_t len = d ? d->d_size : 0, i;
	long major = 0;

	if (len < 2 || p[0] != 0 || (size_t)p[1] + 2 > len)
		return 0;
	c->engine_version = malloc((size_t)p[1] + 1);
	if (!c->engine_version)
		return -ENOMEM;
	memcpy(c->engine_version, p + 2, p[1]);
	c->engine_version[p[1]] = '\0';
	for (i = 0; i < p[1] && p[2 + i] >= '0' && p[2 + i] <= '9'; i++) {
		major = major * 10 + (p[2 + i] - '0');
		if (major > INT_MAX)
			return 0;
	}
	c->engine_major = i ? (int)major : -1;
	return 0;
}

static void parse_symbol(struct cwasm_func *f)
{
	f->module = f->func_index = -1;
	f->wasm_name = NULL;
	/* (sets nothing unless it is one) */
	code_name__wasm_symbol(f->symbol, &f->module, &f->func_index, &f->wasm_name);
}

/* Symbols in .symtab order, sorted then by text offset; order keeps the sort stable. */
struct sym_func {
	struct cwasm_func f;
	size_t order;
};

static int cmp_sym_func(const void *a, const void *b)
{
	const struct sym_func *x = a, *y = b;

	if (x->f.text_off != y->f.text_off)
		return x->f.text_off < y->f.text_off ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

static int symtab_data(struct cwasm *c, Elf_Scn *symscn, size_t symndx, GElf_Shdr *sh,
		       Elf_Data **d, size_t *entsz, char *err, size_t errlen)
{
	int ret;

	if (!gelf_getshdr(symscn, sh))
		return errf(err, errlen, -EIO, "%s: .symtab: libelf: gelf_getshdr: %s", c->path,
			    elf_errmsg(-1));
	ret = section_range(c, sh, symndx, ".symtab", err, errlen);
	if (ret)
		return ret;
	/* libelf refuses a partial symbol with only "invalid data": name the field instead. */
	*entsz = gelf_fsize(c->elf, ELF_T_SYM, 1, EV_CURRENT);
	if (*entsz && sh->sh_size % *entsz)
		return errf_at(err, errlen, -EINVAL, c->path,
			       shdr_off(c, symndx) + offsetof(Elf64_Shdr, sh_size),
			       "section .symtab of 0x%" PRIx64
			       " bytes is not a whole number of %zu-byte symbols",
			       (uint64_t)sh->sh_size, *entsz);
	ret = section_data(c, symscn, sh, symndx, ".symtab", d, err, errlen);
	if (ret)
		return ret;
	/* libelf may hand out raw bytes for a corrupt symbol table (seen with flipped bytes). */
	if (*d && (*d)->d_type != ELF_T_SYM)
		return errf_at(err, errlen, -EINVAL, c->path, shdr_off(c, symndx),
			       "section .symtab is not a symbol table to libelf");
	return 0;
}

/* c->funcs: sf[0..nr), sorted by text offset, but those overlapping the one
 * before. Returns 0 or -ENOMEM. */
static int keep_laid_out(struct cwasm *c, const struct sym_func *sf, size_t nr)
{
	uint64_t end = 0;
	size_t kept = 0;

	c->funcs = calloc(nr ? nr : 1, sizeof(*c->funcs));
	if (!c->funcs)
		return -ENOMEM;
	/* wasmtime lays functions out one after the other; an overlap is a corrupt symbol. */
	for (size_t i = 0; i < nr; i++) {
		if (sf[i].f.text_off < end) {
			c->nr_skipped++;
			continue;
		}
		end = (uint64_t)sf[i].f.text_off + sf[i].f.size;
		c->funcs[kept++] = sf[i].f;
	}
	c->nr_funcs = kept;
	return 0;
}

static int read_symbols(struct cwasm *c, Elf_Scn *symscn, size_t symndx, Elf_Data *xdata,
			char *err, size_t errlen)
{
	struct sym_func *sf = NULL;
	size_t nr = 0, alloc = 0, n, entsz = 0;
	Elf_Data *d = NULL;
	GElf_Shdr sh;
	int ret;

	ret = symtab_data(c, symscn, symndx, &sh, &d, &entsz, err, errlen);
	if (ret)
		return ret;
	n = d && entsz ? d->d_size / entsz : 0;
	for (size_t i = 1; i < n; i++) {
		GElf_Sym sym;
		Elf32_Word xndx = 0;
		const char *name;
		size_t shndx;

		if (!gelf_getsymshndx(d, xdata, i, &sym, &xndx)) {
			ret = errf(err, errlen, -EIO, "%s: .symtab symbol %zu: libelf: %s", c->path, i,
				   elf_errmsg(-1));
			goto out;
		}
		if (GELF_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_size)
			continue;
		shndx = sym.st_shndx == SHN_XINDEX ? xndx : sym.st_shndx;
		name = elf_strptr(c->elf, sh.sh_link, sym.st_name);
		if (shndx != c->text_ndx || !name || sym.st_value > c->text_size ||
		    sym.st_size > c->text_size - sym.st_value) {
			c->nr_skipped++;
			continue;
		}
		ret = VEC_GROW(sf, nr + 1, alloc);
		if (ret)
			goto out;
		sf[nr].f.symbol = name;
		sf[nr].f.text_off = sym.st_value;
		sf[nr].f.size = sym.st_size;
		sf[nr].order = i;
		parse_symbol(&sf[nr].f);
		nr++;
	}
	if (nr)
		qsort(sf, nr, sizeof(*sf), cmp_sym_func);
	ret = keep_laid_out(c, sf, nr);
out:
	free(sf);
	return ret;
}

/*
 * The whole file into c->image, mapped: only what is read of it (symbols,
 * address map, the code of sampled functions) costs memory; a file cut short
 * meanwhile is an error naming it (map-file.h). Only a regular file: libelf
 * would only say "invalid file descriptor" of a directory or FIFO. Then its
 * ELF header and section table, checked; *shstrndx the section name table.
 */
static int load_image(struct cwasm *c, size_t *shstrndx, char *err, size_t errlen)
{
	size_t size, shnum;
	int ret;

	ret = map_file(c->path, CWASM_MAX_FILE, "the 1024 MiB a .cwasm may have here", MAP_FILE_WRITABLE,
		       &c->file, err, errlen);
	if (ret)
		return ret;
	c->image = c->file.buf;
	size = c->file.len;
	c->file_size = size;
	ret = check_short_header(c, err, errlen);
	if (ret)
		return ret;
	c->elf = elf_memory((char *)c->image, c->file_size);
	if (!c->elf)
		return errf(err, errlen, -EIO, "%s: libelf: elf_memory: %s", c->path, elf_errmsg(-1));
	ret = check_header(c, err, errlen);
	if (ret)
		return ret;
	/*
	 * libelf quietly shows no sections when their table is cut off: say so
	 * instead. With more than 0xff00 sections e_shnum is 0 and the count is
	 * in section 0, which must then fit at least.
	 */
	shnum = c->eh.e_shnum ? c->eh.e_shnum : c->eh.e_shoff ? 1 : 0;
	if (shnum && (c->eh.e_shoff > c->file_size ||
		      shnum * sizeof(Elf64_Shdr) > c->file_size - c->eh.e_shoff))
		return errf_at(err, errlen, -EINVAL, c->path, 0x28, "the section header table at 0x%"
			       PRIx64 " (%zu x %zu bytes) runs past the end of the file (0x%" PRIx64
			       " bytes)", (uint64_t)c->eh.e_shoff, shnum, sizeof(Elf64_Shdr),
			       c->file_size);
	return check_sections(c, shstrndx, err, errlen);
}

/* A section cwasm__open reads, or none (scn NULL). */
struct section {
	Elf_Scn *scn;
	size_t ndx;
	GElf_Shdr sh;
};

/* The sections a .cwasm is read from: the first of each name (or type). */
struct sections {
	struct section text, addrmap, engine, symtab;
	Elf_Data *xdata;		/* the symbols' extended section indexes, or NULL */
};

static void take_section(struct section *s, Elf_Scn *scn, size_t ndx, const GElf_Shdr *sh)
{
	s->scn = scn;
	s->ndx = ndx;
	s->sh = *sh;
}

static int find_sections(struct cwasm *c, size_t shstrndx, struct sections *ss, char *err,
			 size_t errlen)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(c->elf, scn))) {
		size_t ndx = elf_ndxscn(scn);
		const char *sname;
		GElf_Shdr sh;

		if (!gelf_getshdr(scn, &sh))
			return errf_at(err, errlen, -EIO, c->path, shdr_off(c, ndx),
				       "section header %zu: libelf: %s", ndx, elf_errmsg(-1));
		if (sh.sh_type == SHT_SYMTAB && !ss->symtab.scn) {
			take_section(&ss->symtab, scn, ndx, &sh);
			continue;
		}
		sname = elf_strptr(c->elf, shstrndx, sh.sh_name);
		if (!sname)
			continue;
		if (!ss->text.scn && !strcmp(sname, ".text"))
			take_section(&ss->text, scn, ndx, &sh);
		else if (!ss->addrmap.scn && !strcmp(sname, ".wasmtime.addrmap"))
			take_section(&ss->addrmap, scn, ndx, &sh);
		else if (!ss->engine.scn && !strcmp(sname, ".wasmtime.engine"))
			take_section(&ss->engine, scn, ndx, &sh);
	}
	if (!ss->text.scn)
		return errf(err, errlen, -EINVAL, "%s: no .text section", c->path);
	/* Extended section indexes of the symbols, if any (SHN_XINDEX; not seen in practice). */
	while (ss->symtab.scn && (scn = elf_nextscn(c->elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB_SHNDX &&
		    sh.sh_link == ss->symtab.ndx)
			return section_data(c, scn, &sh, elf_ndxscn(scn), ".symtab_shndx", &ss->xdata,
					    err, errlen);
	}
	return 0;
}

static int read_text(struct cwasm *c, const struct section *text, char *err, size_t errlen)
{
	Elf_Data *d;
	int ret;

	ret = section_data(c, text->scn, &text->sh, text->ndx, ".text", &d, err, errlen);
	if (ret)
		return ret;
	/* The address map and symbol values are 32-bit .text offsets. */
	if (text->sh.sh_size > UINT32_MAX)
		return errf_at(err, errlen, -EINVAL, c->path, shdr_off(c, text->ndx), ".text of 0x%"
			       PRIx64 " bytes, over 4 GiB", (uint64_t)text->sh.sh_size);
	c->text = d && d->d_size ? d->d_buf : NULL;
	c->text_size = d ? d->d_size : 0;
	c->text_ndx = text->ndx;
	return 0;
}

static int read_addrmap(struct cwasm *c, const struct section *am, char *err, size_t errlen)
{
	Elf_Data *d;
	int ret;

	ret = section_data(c, am->scn, &am->sh, am->ndx, ".wasmtime.addrmap", &d, err, errlen);
	if (ret)
		return ret;
	/* Messages point into the file: the section's offset plus the one inside it. */
	ret = addrmap__decode_at(d ? d->d_buf : NULL, d ? d->d_size : 0, am->sh.sh_offset,
				 c->engine_major, c->path, &c->addrmap, &c->nr_addrmap,
				 &c->addrmap_fmt, err, errlen);
	if (ret)
		return ret;
	/* Checked whole; read again where a function shown needs it. */
	FREE_AND_NULL(c->addrmap);
	c->addrmap_buf = d ? d->d_buf : NULL;
	c->addrmap_len = d ? d->d_size : 0;
	c->has_addrmap = true;
	return 0;
}

int cwasm__open(struct cwasm **out, const char *path, char *err, size_t errlen)
{
	struct sections ss = { 0 };
	size_t shstrndx;
	struct cwasm *c;
	Elf_Data *d;
	int ret;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return errf(err, errlen, -EIO, "libelf: elf_version: %s", elf_errmsg(-1));
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->path = path;
	c->engine_major = -1;
	pthread_mutex_init(&c->lazy_lock, NULL);
	ret = load_image(c, &shstrndx, err, errlen);
	if (!ret)
		ret = find_sections(c, shstrndx, &ss, err, errlen);
	if (!ret)
		ret = read_text(c, &ss.text, err, errlen);
	/* A bad engine section only costs the version, which merely breaks addrmap ties. */
	if (!ret && ss.engine.scn &&
	    !section_data(c, ss.engine.scn, &ss.engine.sh, ss.engine.ndx, ".wasmtime.engine", &d,
			  NULL, 0))
		ret = read_engine(c, d);
	if (!ret && ss.addrmap.scn)
		ret = read_addrmap(c, &ss.addrmap, err, errlen);
	if (!ret && ss.symtab.scn) {
		c->has_symtab = true;
		ret = read_symbols(c, ss.symtab.scn, ss.symtab.ndx, ss.xdata, err, errlen);
	}
	if (!ret)
		ret = cwasm__index(c);
	if (ret) {
		if (ret == -ENOMEM)
			errf(err, errlen, ret, "%s: out of memory", path);
		cwasm__close(c);
		return ret;
	}
	c->path = NULL;
	*out = c;
	return 0;
}

void cwasm__close(struct cwasm *c)
{
	if (!c)
		return;
	idx_table_release(&c->by_name);
	free(c->by_code);
	free(c->code_hashed);
	free(c->funcs);
	free(c->addrmap);
	for (size_t i = 0; c->fmaps && i < c->nr_funcs; i++)
		free(c->fmaps[i].e);
	free(c->fmaps);
	free(c->engine_version);
	elf_end(c->elf);
	unmap_file(&c->file);
	pthread_mutex_destroy(&c->lazy_lock);
	free(c);
}

uint16_t cwasm__e_machine(const struct cwasm *c)
{
	return c->eh.e_machine;
}

uint32_t cwasm__e_flags(const struct cwasm *c)
{
	return c->eh.e_flags;
}

bool cwasm__big_endian(const struct cwasm *c)
{
	return c->eh.e_ident[EI_DATA] == ELFDATA2MSB;
}

const uint8_t *cwasm__text(const struct cwasm *c, size_t *size)
{
	*size = c->text_size;
	return c->text;
}

const struct cwasm_func *cwasm__funcs(const struct cwasm *c, size_t *nr)
{
	*nr = c->nr_funcs;
	return c->funcs;
}

bool cwasm__has_symbols(const struct cwasm *c)
{
	return c->has_symtab;
}

size_t cwasm__nr_skipped_symbols(const struct cwasm *c)
{
	return c->nr_skipped;
}

bool cwasm__has_addrmap(const struct cwasm *c)
{
	return c->has_addrmap;
}

const struct addrmap_entry *cwasm__addrmap(const struct cwasm *cc, size_t *nr,
					   enum addrmap_format *fmt)
{
	struct cwasm *c = (struct cwasm *)cc;	/* decoded on demand, not what c says */
	size_t n = 0;

	pthread_mutex_lock(&c->lazy_lock);
	if (!c->addrmap && c->nr_addrmap &&
	    addrmap__decode(c->addrmap_buf, c->addrmap_len, c->engine_major, "", &c->addrmap, &n,
			    NULL, NULL, 0))
		c->addrmap = NULL;
	pthread_mutex_unlock(&c->lazy_lock);
	*nr = c->addrmap ? c->nr_addrmap : 0;
	if (fmt)
		*fmt = c->addrmap_fmt;
	return c->addrmap;
}

bool cwasm__wasm_offset(const struct cwasm *cc, const struct cwasm_func *f, uint32_t pc,
			uint32_t *wasm_off)
{
	struct cwasm *c = (struct cwasm *)cc;	/* decoded on demand, not what c says */
	size_t i = (size_t)(f - c->funcs);
	struct fmap *m;
	bool found;

	if (!c->has_addrmap)
		return false;
	if (f < c->funcs || i >= c->nr_funcs) {
		/* not one of c's (a copy): read its range for this lookup alone */
		struct addrmap_entry *e;
		size_t n;

		found = !addrmap__decode_range(c->addrmap_buf, c->addrmap_len, c->addrmap_fmt,
					       f->text_off, f->text_off + f->size, &e, &n) &&
			addrmap__lookup(e, n, f->text_off, f->text_off + f->size, pc, wasm_off);
		free(e);
		return found;
	}
	pthread_mutex_lock(&c->lazy_lock);
	if (!c->fmaps)
		c->fmaps = calloc(c->nr_funcs, sizeof(*c->fmaps));
	m = c->fmaps ? &c->fmaps[i] : NULL;
	if (m && !m->done) {
		/* out of memory: no offsets for this function (as with no entries) */
		if (addrmap__decode_range(c->addrmap_buf, c->addrmap_len, c->addrmap_fmt, f->text_off,
					  f->text_off + f->size, &m->e, &m->nr))
			m->e = NULL, m->nr = 0;
		m->done = true;
	}
	found = m && addrmap__lookup(m->e, m->nr, f->text_off, f->text_off + f->size, pc, wasm_off);
	pthread_mutex_unlock(&c->lazy_lock);
	return found;
}

const char *cwasm__engine_version(const struct cwasm *c)
{
	return c->engine_version;
}

int cwasm__engine_major(const struct cwasm *c)
{
	return c->engine_major;
}

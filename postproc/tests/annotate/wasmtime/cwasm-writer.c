/* SPDX-License-Identifier: MIT */
/* Test support: write small .cwasm-shaped ELF files with libelf (sections, symbols, header fields). */
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cwasm-writer.h"

/* A string table under construction: "\0name\0name\0...". */
struct strtab {
	char *buf;
	size_t len;
};

static size_t strtab_add(struct strtab *t, const char *s)
{
	size_t n = strlen(s) + 1, at = t->len;
	char *p = realloc(t->buf, t->len + n);

	if (!p) {
		perror("realloc");
		abort();
	}
	memcpy(p + at, s, n);
	t->buf = p;
	t->len += n;
	return at;
}

static Elf_Scn *add_section(Elf *e, struct strtab *shstr, const char *name, uint32_t type,
			    uint64_t flags, uint64_t align, void *buf, size_t size, Elf_Type dtype)
{
	Elf_Scn *scn = elf_newscn(e);
	Elf_Data *d;
	GElf_Shdr sh;

	if (!scn || !(d = elf_newdata(scn)) || !gelf_getshdr(scn, &sh))
		return NULL;
	d->d_buf = buf;
	d->d_size = size;
	d->d_type = dtype;
	d->d_align = align ? align : 1;
	d->d_version = EV_CURRENT;
	sh.sh_name = strtab_add(shstr, name);
	sh.sh_type = type ? type : SHT_PROGBITS;
	sh.sh_flags = flags;
	sh.sh_addralign = align ? align : 1;
	return gelf_update_shdr(scn, &sh) ? scn : NULL;
}

/* The ELF header of spec. Returns 0 or -1. */
static int put_ehdr(Elf *e, const struct cw_elf *spec)
{
	int cls = spec->class ? spec->class : ELFCLASS64;
	GElf_Ehdr eh;

	if (!gelf_newehdr(e, cls) || !gelf_getehdr(e, &eh))
		return -1;
	eh.e_ident[EI_DATA] = spec->data ? spec->data : ELFDATA2LSB;
	eh.e_ident[EI_OSABI] = spec->osabi;
	eh.e_ident[EI_ABIVERSION] = 0;
	eh.e_type = spec->type ? spec->type : ET_REL;
	eh.e_machine = spec->machine;
	eh.e_flags = spec->flags;
	eh.e_version = EV_CURRENT;
	return gelf_update_ehdr(e, &eh) ? 0 : -1;
}

/* .symtab (its buffer *syms, for the caller to free after the write) and
 * .strtab of spec's symbols. Returns 0 or -1. */
static int add_symtab(Elf *e, const struct cw_elf *spec, struct strtab *shstr, struct strtab *str,
		      void **syms)
{
	size_t nlocal = 1, symsz = gelf_fsize(e, ELF_T_SYM, 1, EV_CURRENT);
	Elf_Scn *scn, *symscn;
	GElf_Shdr sh;
	Elf_Data *d;

	*syms = calloc(spec->nr_symbols + 1, symsz);
	if (!*syms)
		return -1;
	symscn = add_section(e, shstr, ".symtab", SHT_SYMTAB, 0, 8, *syms,
			     (spec->nr_symbols + 1) * symsz, ELF_T_SYM);
	if (!symscn)
		return -1;
	d = elf_getdata(symscn, NULL);
	for (size_t i = 0; i < spec->nr_symbols; i++) {
		const struct cw_symbol *cs = &spec->symbols[i];
		GElf_Sym sym = { 0 };

		sym.st_name = strtab_add(str, cs->name);
		sym.st_value = cs->value;
		sym.st_size = cs->size;
		sym.st_info = GELF_ST_INFO(cs->bind, cs->type);
		sym.st_shndx = SHN_UNDEF;
		for (size_t j = 0; cs->section && j < spec->nr_sections; j++)
			if (!strcmp(cs->section, spec->sections[j].name))
				sym.st_shndx = j + 1;
		if (cs->bind == STB_LOCAL)
			nlocal = i + 2;
		if (!gelf_update_sym(d, i + 1, &sym))
			return -1;
	}
	/* .strtab's contents are final only now; its buffer must not move again. */
	scn = add_section(e, shstr, ".strtab", SHT_STRTAB, 0, 1, str->buf, str->len, ELF_T_BYTE);
	if (!scn || !gelf_getshdr(symscn, &sh))
		return -1;
	sh.sh_link = elf_ndxscn(scn);
	sh.sh_info = nlocal;
	sh.sh_entsize = symsz;
	return gelf_update_shdr(symscn, &sh) ? 0 : -1;
}

int cw_elf__write(const char *path, const struct cw_elf *spec)
{
	struct strtab shstr = { 0 }, str = { 0 };
	void *syms = NULL;
	Elf_Scn *scn;
	Elf_Data *d;
	GElf_Ehdr eh;
	int fd, ret = -1;
	Elf *e = NULL;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -1;
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		perror(path);
		return -1;
	}
	strtab_add(&shstr, "");
	strtab_add(&str, "");
	e = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!e || put_ehdr(e, spec))
		goto out;
	for (size_t i = 0; i < spec->nr_sections; i++) {
		const struct cw_section *s = &spec->sections[i];

		if (!add_section(e, &shstr, s->name, s->type, s->flags, s->align, (void *)s->data,
				 s->size, ELF_T_BYTE))
			goto out;
	}
	if (!spec->no_symtab && add_symtab(e, spec, &shstr, &str, &syms))
		goto out;

	/* Name .shstrtab first, then hand over its buffer: strtab_add may move it. */
	scn = add_section(e, &shstr, ".shstrtab", SHT_STRTAB, 0, 1, NULL, 0, ELF_T_BYTE);
	if (!scn || !(d = elf_getdata(scn, NULL)))
		goto out;
	d->d_buf = shstr.buf;
	d->d_size = shstr.len;
	/* elfutils has no elf_setshdrstrndx; a handful of sections fits e_shstrndx itself. */
	if (!gelf_getehdr(e, &eh))
		goto out;
	eh.e_shstrndx = elf_ndxscn(scn);
	if (!gelf_update_ehdr(e, &eh) || elf_update(e, ELF_C_WRITE) < 0)
		goto out;
	ret = 0;
out:
	if (ret)
		fprintf(stderr, "%s: libelf: %s\n", path, elf_errmsg(-1));
	elf_end(e);
	close(fd);
	free(syms);
	free(str.buf);
	free(shstr.buf);
	return ret;
}

uint8_t *cw_file__read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET))
		goto out;
	buf = malloc(n ? n : 1);
	if (buf && fread(buf, 1, n, f) != (size_t)n) {
		free(buf);
		buf = NULL;
	}
	*len = n;
out:
	fclose(f);
	return buf;
}

int cw_file__write(const char *path, const uint8_t *buf, size_t len)
{
	FILE *f = fopen(path, "wb");
	int ret;

	if (!f)
		return -1;
	ret = fwrite(buf, 1, len, f) == len ? 0 : -1;
	if (fclose(f))
		ret = -1;
	return ret;
}

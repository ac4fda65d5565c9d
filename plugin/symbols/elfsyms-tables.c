// SPDX-License-Identifier: MIT
/* A file's symbol tables read into its index as perf reads them (see elfsyms-tables.h). */
#include <elf.h>
#include <gelf.h>
#include <stdlib.h>
#include <string.h>

#include "elfsyms-tables.h"

/* perf formats a PLT entry's name into a buffer this big. */
#define PLT_NAME_MAX 1024

static bool section_name_has(Elf *elf, size_t shstrndx, const GElf_Shdr *shdr, const char *what)
{
	const char *n = elf_strptr(elf, shstrndx, shdr->sh_name);

	return n && strstr(n, what);
}

void elfsyms__read_segments(struct elfsyms *es)
{
	size_t n;

	if (elf_getphdrnum(es->runtime->elf, &n) || !n || !(es->phdrs = calloc(n, sizeof(*es->phdrs))))
		return;
	for (size_t i = 0; i < n; i++)
		if (gelf_getphdr(es->runtime->elf, (int)i, &es->phdrs[es->phdrs_nr]) &&
		    es->phdrs[es->phdrs_nr].p_type == PT_LOAD)
			es->phdrs_nr++;
}

/* perf's elf_read_program_header: the PT_LOAD holding vaddr (in file order). */
static bool load_segment(const struct elfsyms *es, uint64_t vaddr, const GElf_Phdr **ph)
{
	for (size_t i = 0; i < es->phdrs_nr; i++) {
		const GElf_Phdr *p = &es->phdrs[i];
		uint64_t sz = p->p_memsz > p->p_filesz ? p->p_memsz : p->p_filesz;

		if (sz && vaddr >= p->p_vaddr && vaddr < p->p_vaddr + sz) {
			*ph = p;
			return true;
		}
	}
	return false;
}

int elfsyms__load_table(struct elfsyms *es, struct symsrc *syms, Elf_Scn *sec, const GElf_Shdr *tshdr,
			struct symsrc *runtime, enum elfsyms_table table)
{
	Elf_Data *data = elf_getdata(sec, NULL), *strs;
	Elf_Scn *strsec = elf_getscn(syms->elf, tshdr->sh_link);
	uint16_t mach = syms->ehdr.e_machine;
	size_t nr_syms, added = 0;

	bool terminated;

	if (!data || !strsec || !(strs = elf_getdata(strsec, NULL)) || !strs->d_buf || !strs->d_size ||
	    !tshdr->sh_entsize)
		return 0;
	terminated = ((const char *)strs->d_buf)[strs->d_size - 1] == '\0';
	if (!elf_getscn(runtime->elf, runtime->ehdr.e_shstrndx) || !elf_getscn(syms->elf, syms->ehdr.e_shstrndx))
		return 0;
	/* perf's count, but never more than the section's bytes hold: a bogus
	 * sh_entsize must not reserve memory for symbols that are not there */
	nr_syms = tshdr->sh_size / tshdr->sh_entsize;
	if (nr_syms > data->d_size / gelf_fsize(syms->elf, ELF_T_SYM, 1, EV_CURRENT))
		nr_syms = data->d_size / gelf_fsize(syms->elf, ELF_T_SYM, 1, EV_CURRENT);
	if (!symset__reserve(&es->set, nr_syms))
		return -1;
	for (size_t i = 0; i < nr_syms; i++) {
		GElf_Sym s;
		GElf_Shdr shdr;
		Elf_Scn *ss;
		Elf *names_elf = syms->elf;
		size_t names_ndx = syms->ehdr.e_shstrndx;
		uint8_t type, vis;
		bool defined, label;
		const char *name;
		const GElf_Phdr *ph;

		if (!gelf_getsym(data, (int)i, &s))
			continue;
		if (s.st_name >= strs->d_size)
			continue;
		name = (const char *)strs->d_buf + s.st_name;
		/* a name must end inside its string table, not in the bytes after it */
		if (!terminated && !memchr(name, '\0', strs->d_size - s.st_name))
			continue;
		type = GELF_ST_TYPE(s.st_info);
		vis = GELF_ST_VISIBILITY(s.st_other);
		defined = s.st_name && s.st_shndx != SHN_UNDEF;
		label = type == STT_NOTYPE && defined && s.st_shndx != SHN_ABS &&
			vis != STV_HIDDEN && vis != STV_INTERNAL;
		if (!label && !(defined && (type == STT_FUNC || type == STT_GNU_IFUNC || type == STT_OBJECT)))
			continue;
		/* ARM mapping symbols ($a, $d, $t, $x) name no function */
		if ((mach == EM_ARM || mach == EM_AARCH64) && name[0] == '$' && name[1] &&
		    strchr("adtx", name[1]) && (name[2] == '\0' || name[2] == '.'))
			continue;
		if (s.st_shndx == SHN_ABS)
			continue;
		if (!(ss = elf_getscn(syms->elf, s.st_shndx)))
			goto abort;
		gelf_getshdr(ss, &shdr);
		if (!(shdr.sh_flags & SHF_ALLOC))
			continue;
		/* A debug file's sections hold no bytes: the file's own headers say where they were. */
		if (shdr.sh_type == SHT_NOBITS) {
			if (!(ss = elf_getscn(runtime->elf, s.st_shndx)))
				goto abort;
			gelf_getshdr(ss, &shdr);
			names_elf = runtime->elf;
			names_ndx = runtime->ehdr.e_shstrndx;
		}
		if (label && !section_name_has(names_elf, names_ndx, &shdr, "text") &&
		    !section_name_has(names_elf, names_ndx, &shdr, "data"))
			continue;
		if (mach == EM_ARM && type == STT_FUNC && (s.st_value & 1))
			s.st_value--;
		/* Into file offsets: by the segment holding it, else its section. */
		if (load_segment(es, s.st_value, &ph))
			s.st_value -= ph->p_vaddr - ph->p_offset;
		else
			s.st_value -= shdr.sh_addr - shdr.sh_offset;
		if (!symset__add(&es->set, s.st_value, s.st_size, name, GELF_ST_BIND(s.st_info), table))
			goto abort;
		added++;
	}
	if (!(added ? symset__commit_fixed(&es->set) : symset__commit(&es->set)))
		return -1;
	return (int)added;
abort:
	/* what perf inserted stays, unfixed */
	symset__commit(&es->set);
	return -1;
}

/* The length of the name at off of a string table, as perf cuts it, and
 * never past the table's end. */
static size_t plt_name_len(const Elf_Data *strs, size_t off)
{
	size_t room = strs->d_size - off;

	return strnlen((const char *)strs->d_buf + off, room < PLT_NAME_MAX - 5 ? room : PLT_NAME_MAX - 5);
}

static const char *plt_name(struct elfsyms *es, const char *name, size_t n)
{
	if (es->plt_len + n + 5 > es->plt_alloc) {
		/* names point into the pool: grow it by chunks that are never moved */
		return NULL;
	}
	memcpy(es->plt_names + es->plt_len, name, n);
	memcpy(es->plt_names + es->plt_len + n, "@plt", 5);
	es->plt_len += n + 5;
	return es->plt_names + es->plt_len - n - 5;
}

void elfsyms__plt_symbols(struct elfsyms *es, struct symsrc *rt)
{
	GElf_Shdr rel_sh, plt_sh, dyn_sh = rt->dynshdr;
	Elf_Scn *rel, *strsec;
	Elf_Data *reldata, *syms, *strs;
	uint64_t off, hdr, ent, nr;
	size_t need = 0;

	if (!rt->dynsym)
		return;
	if (!(rel = elfsyms__section_by_name(rt->elf, &rt->ehdr, &rel_sh, ".rela.plt", NULL)) &&
	    !(rel = elfsyms__section_by_name(rt->elf, &rt->ehdr, &rel_sh, ".rel.plt", NULL)))
		return;
	if (rel_sh.sh_link != rt->dynsym_idx || !rel_sh.sh_entsize ||
	    !elfsyms__section_by_name(rt->elf, &rt->ehdr, &plt_sh, ".plt", NULL))
		return;
	if (!(reldata = elf_getdata(rel, NULL)) || !(syms = elf_getdata(rt->dynsym, NULL)) ||
	    !(strsec = elf_getscn(rt->elf, dyn_sh.sh_link)) || !(strs = elf_getdata(strsec, NULL)) ||
	    !strs->d_size)
		return;
	switch (rt->ehdr.e_machine) {
	case EM_ARM:
		hdr = 20, ent = 12;
		break;
	case EM_AARCH64:
		hdr = 32, ent = 16;
		break;
	case EM_SPARC:
		hdr = 48, ent = 12;
		break;
	case EM_SPARCV9:
		hdr = 128, ent = 32;
		break;
	default:
		hdr = ent = plt_sh.sh_entsize;
		break;
	}
	nr = rel_sh.sh_size / rel_sh.sh_entsize;
	/* never more entries than the section's bytes hold (a bogus sh_entsize) */
	if (nr > reldata->d_size / gelf_fsize(rt->elf, rel_sh.sh_type == SHT_RELA ? ELF_T_RELA : ELF_T_REL, 1, EV_CURRENT))
		nr = reldata->d_size / gelf_fsize(rt->elf, rel_sh.sh_type == SHT_RELA ? ELF_T_RELA : ELF_T_REL, 1, EV_CURRENT);
	/* one pool for all the names, sized first: names point into it */
	for (uint64_t i = 0; i < nr; i++) {
		GElf_Rela ra;
		GElf_Rel r;
		GElf_Sym s;
		uint64_t info = rel_sh.sh_type == SHT_RELA ? (gelf_getrela(reldata, (int)i, &ra) ? ra.r_info : 0)
							   : (gelf_getrel(reldata, (int)i, &r) ? r.r_info : 0);

		if (gelf_getsym(syms, (int)GELF_R_SYM(info), &s) && s.st_name < strs->d_size)
			need += plt_name_len(strs, s.st_name) + 5;
		else
			need += 5;
	}
	if (!(es->plt_names = malloc(need ? need : 1)))
		return;
	es->plt_alloc = need;
	off = plt_sh.sh_offset + hdr;
	for (uint64_t i = 0; i < nr; i++) {
		GElf_Rela ra;
		GElf_Rel r;
		GElf_Sym s;
		uint64_t info = rel_sh.sh_type == SHT_RELA ? (gelf_getrela(reldata, (int)i, &ra) ? ra.r_info : 0)
							   : (gelf_getrel(reldata, (int)i, &r) ? r.r_info : 0);
		const char *name = "";
		size_t n = 0;

		if (rel_sh.sh_type != SHT_RELA && rel_sh.sh_type != SHT_REL)
			break;
		if (gelf_getsym(syms, (int)GELF_R_SYM(info), &s) && s.st_name < strs->d_size) {
			name = (const char *)strs->d_buf + s.st_name;
			n = plt_name_len(strs, s.st_name);
		}
		if (!(name = plt_name(es, name, n)) || !symset__add(&es->set, off, ent, name, STB_GLOBAL, ELFSYMS_PLT))
			break;
		off += ent;
	}
	/* perf fixes nothing up after the PLT entries */
	symset__commit(&es->set);
}

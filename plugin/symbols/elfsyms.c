// SPDX-License-Identifier: MIT
/* The symbols of one mapped file, as perf finds them (see elfsyms.h). */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <limits.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include <elfutils/debuginfod.h>

#include "ehframe.h"
#include "elf-defs.h"
#include "elfsyms.h"
#include "symset.h"

/* MiniDebugInfo: a .symtab in an xz stream; bounds on what it may expand to. */
#define MINIDEBUG_MAX (256u << 20)
#define MINIDEBUG_MEMLIMIT (128u << 20)
/* perf formats a PLT entry's name into a buffer this big. */
#define PLT_NAME_MAX 1024
/* Bit of a hit key that marks an FDE (the rest is its start). */
#define FDE_KEY (1ULL << 63)

/* One candidate file, opened: perf's struct symsrc. */
struct symsrc {
	char *path;		/* owned */
	int fd;			/* -1 for an image in memory */
	Elf *elf;
	GElf_Ehdr ehdr;
	Elf_Scn *symtab, *dynsym;	/* NULL unless of type SYMTAB / DYNSYM */
	GElf_Shdr symshdr, dynshdr;
	size_t dynsym_idx;
	void *image;		/* owned bytes of an image in memory (MiniDebugInfo), else NULL */
	const void *mem;	/* the bytes of an image in memory (the vdso), else NULL */
	size_t mem_len;
};


struct fde_hit {
	uint64_t start, end;	/* file offsets */
};

struct elfsyms {
	char *path;
	enum elfsyms_status status;
	enum elfsyms_origin origin;
	struct symsrc *syms, *runtime;	/* both point into src[] (maybe the same one) */
	struct symsrc src[3];		/* perf's two slots, plus MiniDebugInfo or debuginfod */
	size_t src_nr;
	struct symset set;		/* names borrowed from the files' string tables and plt_names */
	char *plt_names;		/* "name@plt\0" strings */
	size_t plt_len, plt_alloc;
	GElf_Phdr *phdrs;		/* the runtime file's PT_LOADs */
	size_t phdrs_nr;
	struct ehframe fdes;		/* .eh_frame of the runtime file, read on first use */
	bool fdes_read;
	uint16_t e_machine;
	bool cwasm;
};


static bool is_regular_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static void symsrc_release(struct symsrc *ss)
{
	if (ss->elf)
		elf_end(ss->elf);
	if (ss->fd >= 0)
		close(ss->fd);
	free(ss->image);
	free(ss->path);
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
}

/* perf's elf_section_by_name: the first section of that name, with its index. */
static Elf_Scn *section_by_name(Elf *elf, const GElf_Ehdr *eh, GElf_Shdr *shdr, const char *name,
				size_t *idx)
{
	Elf_Scn *sec = NULL;
	size_t n = 1;

	if (!elf_rawdata(elf_getscn(elf, eh->e_shstrndx), NULL))
		return NULL;
	while ((sec = elf_nextscn(elf, sec))) {
		const char *s;

		if (!gelf_getshdr(sec, shdr))
			return NULL;
		s = elf_strptr(elf, eh->e_shstrndx, shdr->sh_name);
		if (s && !strcmp(s, name)) {
			if (idx)
				*idx = n;
			return sec;
		}
		n++;
	}
	return NULL;
}

/* perf's elf_read_build_id: the GNU note of the first of .note.gnu.build-id,
 * .notes, .note. Returns its size (<= 20), or 0. */
static size_t read_build_id(Elf *elf, const GElf_Ehdr *eh, uint8_t id[20])
{
	static const char *const names[] = { ".note.gnu.build-id", ".notes", ".note" };
	Elf_Scn *sec = NULL;
	GElf_Shdr shdr;
	Elf_Data *data;
	GElf_Nhdr nh;
	size_t off = 0, name_off, desc_off;

	for (size_t i = 0; i < 3 && !sec; i++)
		sec = section_by_name(elf, eh, &shdr, names[i], NULL);
	if (!sec || !(data = elf_getdata(sec, NULL)))
		return 0;
	while (off < data->d_size && (off = gelf_getnote(data, off, &nh, &name_off, &desc_off))) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((const char *)data->d_buf + name_off, "GNU", 4)) {
			size_t n = nh.n_descsz < 20 ? nh.n_descsz : 20;

			memcpy(id, (const char *)data->d_buf + desc_off, n);
			memset(id + n, 0, 20 - n);
			return n;
		}
	}
	return 0;
}

/* perf's dso__build_id_equal: a recorded id may carry trailing zeros. */
static bool build_id_equal(const uint8_t *want, size_t want_size, const uint8_t *have, size_t have_size)
{
	if (want_size > have_size && want_size == 20) {
		for (size_t i = have_size; i < want_size; i++)
			if (want[i])
				return false;
		return !memcmp(want, have, have_size);
	}
	return want_size == have_size && !memcmp(want, have, want_size);
}

enum { OPEN_OK, OPEN_ABSENT, OPEN_MISMATCH };

/* perf's symsrc__init on an open ELF: refuse it when its build-id is not
 * the one wanted; find .symtab and .dynsym. */
static int symsrc_setup(struct symsrc *ss, const uint8_t *bid, size_t bid_size)
{
	uint8_t have[20];
	size_t n;

	if (!ss->elf || elf_kind(ss->elf) != ELF_K_ELF || !gelf_getehdr(ss->elf, &ss->ehdr))
		return OPEN_ABSENT;
	if (bid_size) {
		n = read_build_id(ss->elf, &ss->ehdr, have);
		if (!n || !build_id_equal(bid, bid_size, have, n))
			return OPEN_MISMATCH;
	}
	ss->symtab = section_by_name(ss->elf, &ss->ehdr, &ss->symshdr, ".symtab", NULL);
	if (ss->symtab && ss->symshdr.sh_type != SHT_SYMTAB)
		ss->symtab = NULL;
	ss->dynsym = section_by_name(ss->elf, &ss->ehdr, &ss->dynshdr, ".dynsym", &ss->dynsym_idx);
	if (ss->dynsym && ss->dynshdr.sh_type != SHT_DYNSYM)
		ss->dynsym = NULL;
	return OPEN_OK;
}

/* ss->elf is open (or NULL): read its headers, named path; released unless OPEN_OK. */
static int symsrc_opened(struct symsrc *ss, const char *path, const uint8_t *bid, size_t bid_size)
{
	int ret = symsrc_setup(ss, bid, bid_size);

	if (ret == OPEN_OK && !(ss->path = strdup(path)))
		ret = OPEN_ABSENT;
	if (ret != OPEN_OK)
		symsrc_release(ss);
	return ret;
}

static int symsrc_open(struct symsrc *ss, const char *path, const uint8_t *bid, size_t bid_size)
{
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
	if (!is_regular_file(path))
		return OPEN_ABSENT;
	ss->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ss->fd < 0)
		return OPEN_ABSENT;
	ss->elf = elf_begin(ss->fd, ELF_C_READ_MMAP, NULL);
	return symsrc_opened(ss, path, bid, bid_size);
}

static int symsrc_memory(struct symsrc *ss, const char *name, const void *mem, size_t len, void *owned,
			 const uint8_t *bid, size_t bid_size)
{
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
	ss->image = owned;
	ss->mem = mem;
	ss->mem_len = len;
	ss->elf = elf_memory((char *)mem, len);
	return symsrc_opened(ss, name, bid, bid_size);
}

/* This process's vdso (perf's own, which is what perf reads for [vdso]). */
static bool own_vdso(const void **mem, size_t *len)
{
	const unsigned char *p = (const void *)getauxval(AT_SYSINFO_EHDR);
	Elf64_Ehdr eh;
	size_t end;

	if (!p)
		return false;
	memcpy(&eh, p, sizeof(eh));
	if (memcmp(eh.e_ident, ELFMAG, SELFMAG) || eh.e_ident[EI_CLASS] != ELFCLASS64)
		return false;
	end = eh.e_shoff + (size_t)eh.e_shnum * eh.e_shentsize;
	for (size_t i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;

		memcpy(&ph, p + eh.e_phoff + i * eh.e_phentsize, sizeof(ph));
		if (ph.p_type == PT_LOAD && ph.p_offset + ph.p_filesz > end)
			end = ph.p_offset + ph.p_filesz;
	}
	*mem = p;
	*len = end;
	return true;
}

/* The path of perf's .gnu_debuglink candidate (the first that exists), or
 * false: the name alone (from the current directory), in the file's
 * directory, in its .debug, in the debug directory under its path. */
static bool debuglink_path(const char *path, const char *debug_dir, char *out, size_t outlen)
{
	struct symsrc ss;
	GElf_Shdr shdr;
	Elf_Scn *sec;
	Elf_Data *d;
	char link[PATH_MAX], dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	bool found = false;

	if (symsrc_open(&ss, path, NULL, 0) != OPEN_OK)
		return false;
	sec = section_by_name(ss.elf, &ss.ehdr, &shdr, ".gnu_debuglink", NULL);
	d = sec ? elf_getdata(sec, NULL) : NULL;
	if (d && d->d_size) {
		size_t n = strnlen(d->d_buf, d->d_size < sizeof(link) ? d->d_size : sizeof(link) - 1);

		memcpy(link, d->d_buf, n);
		link[n] = '\0';
		snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 0, path);
		for (int i = 0; i < 4 && !found; i++) {
			int len = i == 0 ? snprintf(out, outlen, "%s", link) :
				  i == 1 ? snprintf(out, outlen, "%s/%s", dir, link) :
				  i == 2 ? snprintf(out, outlen, "%s/.debug/%s", dir, link) :
					   snprintf(out, outlen, "%s%s/%s", debug_dir, dir, link);

			found = len > 0 && (size_t)len < outlen && is_regular_file(out);
		}
	}
	symsrc_release(&ss);
	return found;
}

/* perf's build-id cache entry: the old style's file itself, else its elf or debug. */
static bool cache_path(const struct elfsyms_config *cfg, const uint8_t *bid, size_t bid_size,
		       const char *base, char *out, size_t outlen)
{
	char hex[41];
	int len;

	if (!bid_size || !cfg->buildid_dir)
		return false;
	for (size_t i = 0; i < bid_size; i++)
		snprintf(hex + 2 * i, 3, "%02x", bid[i]);
	len = snprintf(out, outlen, "%s/.build-id/%.2s/%s", cfg->buildid_dir, hex, hex + 2);
	if (len < 0 || (size_t)len >= outlen)
		return false;
	if (!is_regular_file(out))
		snprintf(out + len, outlen - (size_t)len, "/%s", base);
	return true;
}

enum candidate {
	C_DEBUGLINK, C_CACHE, C_CACHE_DEBUG, C_FEDORA, C_UBUNTU, C_BUILDID_DEBUG,
	C_SYSTEM, C_OPENEMBEDDED, C_MIXEDUP_UBUNTU, C__NR,
};

/* perf's dso__read_binary_type_filename for a user-space file. */
static bool candidate_path(enum candidate c, const char *path, bool vdso, const uint8_t *bid,
			   size_t bid_size, const struct elfsyms_config *cfg, char *out, size_t outlen)
{
	const char *dbg = cfg->debug_dir;
	const char *slash = strrchr(path, '/');
	char hex[41];

	switch (c) {
	case C_DEBUGLINK:
		return !vdso && debuglink_path(path, dbg, out, outlen);
	case C_CACHE:
		return cache_path(cfg, bid, bid_size, vdso ? "vdso" : "elf", out, outlen);
	case C_CACHE_DEBUG:
		return cache_path(cfg, bid, bid_size, "debug", out, outlen);
	case C_FEDORA:
		return !vdso && snprintf(out, outlen, "%s%s.debug", dbg, path) < (int)outlen;
	case C_UBUNTU:
		return !vdso && snprintf(out, outlen, "%s%s", dbg, path) < (int)outlen;
	case C_BUILDID_DEBUG:
		if (vdso || !bid_size)
			return false;
		for (size_t i = 0; i < bid_size; i++)
			snprintf(hex + 2 * i, 3, "%02x", bid[i]);
		return snprintf(out, outlen, "%s/.build-id/%.2s/%s.debug", dbg, hex, hex + 2) < (int)outlen;
	case C_SYSTEM:
		return !vdso && snprintf(out, outlen, "%s", path) < (int)outlen;
	case C_OPENEMBEDDED:
		return !vdso && slash &&
		       snprintf(out, outlen, "%.*s.debug%s", (int)(slash - path + 1), path, slash) < (int)outlen;
	case C_MIXEDUP_UBUNTU:
		return !vdso && !strncmp(path, "/usr/lib/", 9) &&
		       snprintf(out, outlen, "%s%s", dbg, path + 4) < (int)outlen;
	default:
		return false;
	}
}

static bool section_name_has(Elf *elf, size_t shstrndx, const GElf_Shdr *shdr, const char *what)
{
	const char *n = elf_strptr(elf, shstrndx, shdr->sh_name);

	return n && strstr(n, what);
}

/* The runtime file's PT_LOAD headers, read once. */
static void read_segments(struct elfsyms *es)
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

/*
 * perf's dso__load_sym_internal for one table (sec of syms; runtime gives
 * program headers and the section headers of NOBITS sections): returns the
 * symbols added, or -1 where perf gives up on the whole file (a symbol in a
 * section that does not exist).
 */
static int load_table(struct elfsyms *es, struct symsrc *syms, Elf_Scn *sec, const GElf_Shdr *tshdr,
		      struct symsrc *runtime, enum elfsyms_table table)
{
	Elf_Data *data = elf_getdata(sec, NULL), *strs;
	Elf_Scn *strsec = elf_getscn(syms->elf, tshdr->sh_link);
	uint16_t mach = syms->ehdr.e_machine;
	size_t nr_syms, added = 0;

	if (!data || !strsec || !(strs = elf_getdata(strsec, NULL)) || !tshdr->sh_entsize)
		return 0;
	if (!elf_getscn(runtime->elf, runtime->ehdr.e_shstrndx) || !elf_getscn(syms->elf, syms->ehdr.e_shstrndx))
		return 0;
	nr_syms = tshdr->sh_size / tshdr->sh_entsize;
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

static const char *plt_name(struct elfsyms *es, const char *name)
{
	size_t n = strnlen(name, PLT_NAME_MAX - 5);

	if (es->plt_len + n + 5 > es->plt_alloc) {
		/* names point into the pool: grow it by chunks that are never moved */
		return NULL;
	}
	memcpy(es->plt_names + es->plt_len, name, n);
	memcpy(es->plt_names + es->plt_len + n, "@plt", 5);
	es->plt_len += n + 5;
	return es->plt_names + es->plt_len - n - 5;
}

/* perf's dso__synthesize_plt_symbols: one name@plt per .rela.plt (.rel.plt) entry. */
static void plt_symbols(struct elfsyms *es, struct symsrc *rt)
{
	GElf_Shdr rel_sh, plt_sh, dyn_sh = rt->dynshdr;
	Elf_Scn *rel, *strsec;
	Elf_Data *reldata, *syms, *strs;
	uint64_t off, hdr, ent, nr;
	size_t need = 0;

	if (!rt->dynsym)
		return;
	if (!(rel = section_by_name(rt->elf, &rt->ehdr, &rel_sh, ".rela.plt", NULL)) &&
	    !(rel = section_by_name(rt->elf, &rt->ehdr, &rel_sh, ".rel.plt", NULL)))
		return;
	if (rel_sh.sh_link != rt->dynsym_idx || !rel_sh.sh_entsize ||
	    !section_by_name(rt->elf, &rt->ehdr, &plt_sh, ".plt", NULL))
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
	/* one pool for all the names, sized first: names point into it */
	for (uint64_t i = 0; i < nr; i++) {
		GElf_Rela ra;
		GElf_Rel r;
		GElf_Sym s;
		uint64_t info = rel_sh.sh_type == SHT_RELA ? (gelf_getrela(reldata, (int)i, &ra) ? ra.r_info : 0)
							   : (gelf_getrel(reldata, (int)i, &r) ? r.r_info : 0);

		if (gelf_getsym(syms, (int)GELF_R_SYM(info), &s) && s.st_name < strs->d_size)
			need += strnlen((const char *)strs->d_buf + s.st_name, PLT_NAME_MAX - 5) + 5;
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

		if (rel_sh.sh_type != SHT_RELA && rel_sh.sh_type != SHT_REL)
			break;
		if (gelf_getsym(syms, (int)GELF_R_SYM(info), &s) && s.st_name < strs->d_size)
			name = (const char *)strs->d_buf + s.st_name;
		if (!(name = plt_name(es, name)) || !symset__add(&es->set, off, ent, name, STB_GLOBAL, ELFSYMS_PLT))
			break;
		off += ent;
	}
	/* perf fixes nothing up after the PLT entries */
	symset__commit(&es->set);
}

/* The .symtab of an xz-compressed ELF in .gnu_debugdata (Fedora's MiniDebugInfo). */
static int minidebug(struct elfsyms *es, struct symsrc *out)
{
	struct symsrc *rt = es->runtime;
	GElf_Shdr shdr;
	Elf_Scn *sec = section_by_name(rt->elf, &rt->ehdr, &shdr, ".gnu_debugdata", NULL);
	Elf_Data *d = sec ? elf_rawdata(sec, NULL) : NULL;
	lzma_stream z = LZMA_STREAM_INIT;
	uint8_t *buf = NULL;
	size_t alloc = 0;
	lzma_ret r;

	if (!d || !d->d_size || shdr.sh_type == SHT_NOBITS)
		return -ENOENT;
	if (lzma_stream_decoder(&z, MINIDEBUG_MEMLIMIT, 0) != LZMA_OK)
		return -ENOMEM;
	z.next_in = d->d_buf;
	z.avail_in = d->d_size;
	do {
		if (z.avail_out == 0) {
			size_t grow = alloc ? alloc : 1u << 16;
			uint8_t *nb = alloc + grow <= MINIDEBUG_MAX ? realloc(buf, alloc + grow) : NULL;

			if (!nb) {
				r = LZMA_MEM_ERROR;
				break;
			}
			buf = nb;
			z.next_out = buf + alloc;
			z.avail_out = grow;
			alloc += grow;
		}
		r = lzma_code(&z, LZMA_FINISH);
	} while (r == LZMA_OK);
	lzma_end(&z);
	if (r != LZMA_STREAM_END) {
		free(buf);
		return -EINVAL;
	}
	/* no build-id check: the image is part of the file, which passed it */
	if (symsrc_memory(out, rt->path, buf, (size_t)z.total_out, buf, NULL, 0) != OPEN_OK || !out->symtab) {
		if (out->image)
			symsrc_release(out);
		else
			free(buf);
		return -EINVAL;
	}
	return 0;
}

/* libdebuginfod, loaded only when asked for (its client pulls in libcurl). */
static int debuginfod(struct symsrc *out, const uint8_t *bid, size_t bid_size)
{
	static void *lib;
	static bool tried;
	__typeof__(debuginfod_begin) *begin;
	__typeof__(debuginfod_find_debuginfo) *find;
	__typeof__(debuginfod_end) *end;
	debuginfod_client *client;
	char *path = NULL;
	int fd, ret;

	if (!bid_size)
		return -ENOENT;
	if (!tried) {
		tried = true;
		lib = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);
	}
	if (!lib || !(begin = (__typeof__(begin))dlsym(lib, "debuginfod_begin")) ||
	    !(find = (__typeof__(find))dlsym(lib, "debuginfod_find_debuginfo")) ||
	    !(end = (__typeof__(end))dlsym(lib, "debuginfod_end")) || !(client = begin()))
		return -ENOSYS;
	fd = find(client, bid, (int)bid_size, &path);
	end(client);
	if (fd < 0) {
		free(path);
		return fd;
	}
	close(fd);
	ret = symsrc_open(out, path, bid, bid_size);
	free(path);
	if (ret != OPEN_OK || !out->symtab) {
		if (ret == OPEN_OK)
			symsrc_release(out);
		return -ENOENT;
	}
	return 0;
}

/* perf's dso__load for a user-space file: the candidates, then the tables. */
static void load(struct elfsyms *es, const uint8_t *bid, size_t bid_size, const struct elfsyms_config *cfg)
{
	bool vdso = !strcmp(es->path, "[vdso]");
	uint8_t own[20];
	char name[PATH_MAX];
	bool refused = false, any = false;

	/* Without the recording's build-id perf takes the file's own (and checks debug files with it). */
	if (!bid_size && !vdso && is_regular_file(es->path)) {
		struct symsrc ss;

		if (symsrc_open(&ss, es->path, NULL, 0) == OPEN_OK) {
			bid_size = read_build_id(ss.elf, &ss.ehdr, own);
			bid = own;
			symsrc_release(&ss);
		}
	}
	for (int c = 0; c < C__NR && (!es->syms || !es->runtime); c++) {
		struct symsrc *ss = &es->src[es->src_nr];
		bool used = false;
		int r;

		if (!candidate_path((enum candidate)c, es->path, vdso, bid, bid_size, cfg, name, sizeof(name)))
			continue;
		r = symsrc_open(ss, name, bid, bid_size);
		refused |= r == OPEN_MISMATCH;
		if (r != OPEN_OK)
			continue;
		any = true;
		if (!es->syms && ss->symtab)
			es->syms = ss, used = true;
		if (!es->runtime && ss->dynsym)
			es->runtime = ss, used = true;
		if (used)
			es->src_nr++;
		else
			symsrc_release(ss);
	}
	/* perf's vdso is the one of its own process (ours). */
	if (vdso && (!es->syms || !es->runtime)) {
		struct symsrc *ss = &es->src[es->src_nr];
		const void *mem;
		void *copy = NULL;
		size_t len;
		int r = OPEN_ABSENT;

		/* a copy: libelf may write to an image it reads, and the vdso is read-only */
		if (own_vdso(&mem, &len) && (copy = malloc(len))) {
			memcpy(copy, mem, len);
			r = symsrc_memory(ss, "[vdso]", copy, len, copy, bid, bid_size);
		} else {
			free(copy);
		}

		refused |= r == OPEN_MISMATCH;
		if (r == OPEN_OK) {
			any = true;
			if (!es->syms && ss->symtab)
				es->syms = ss;
			if (!es->runtime && ss->dynsym)
				es->runtime = ss;
			if (es->syms == ss || es->runtime == ss)
				es->src_nr++;
			else
				symsrc_release(ss);
		}
	}
	if (!es->syms && !es->runtime) {
		es->status = any ? ELFSYMS_OK : refused ? ELFSYMS_MISMATCH : ELFSYMS_NO_FILE;
		return;
	}
	if (!es->syms)
		es->syms = es->runtime;
	if (!es->runtime)
		es->runtime = es->syms;
	es->status = ELFSYMS_OK;
	read_segments(es);
	es->e_machine = es->runtime->ehdr.e_machine;
	es->cwasm = es->runtime->ehdr.e_ident[EI_OSABI] == ELFOSABI_WASMTIME;

	struct symsrc *syms = es->syms;
	Elf_Scn *dynsym = syms->dynsym;
	GElf_Shdr dynshdr = syms->dynshdr;

	es->origin = syms->symtab ? ELFSYMS_FROM_SYMTAB : syms->dynsym ? ELFSYMS_FROM_DYNSYM : ELFSYMS_FROM_NONE;
	/* Beyond perf: a .symtab where perf finds none, beside the file's .dynsym. */
	if (!syms->symtab) {
		struct symsrc *extra = &es->src[es->src_nr];

		/* a debug file from debuginfod is read as perf reads one installed locally */
		if (cfg->debuginfod && !debuginfod(extra, bid, bid_size)) {
			es->origin = ELFSYMS_FROM_DEBUGINFOD;
			es->src_nr++;
			syms = extra;
		} else if (!minidebug(es, extra)) {
			/* MiniDebugInfo holds the functions .dynsym lacks: both are read */
			es->origin = ELFSYMS_FROM_MINIDEBUG;
			es->src_nr++;
			syms = extra;
			extra->dynsym = dynsym;
			extra->dynshdr = dynshdr;
		}
	}
	int nr = 0, r = 0;

	if (syms->symtab && (r = load_table(es, syms, syms->symtab, &syms->symshdr, es->runtime, ELFSYMS_SYMTAB)) > 0)
		nr += r;
	if (r >= 0 && syms->dynsym) {
		/* MiniDebugInfo's own sections say nothing of the file's .dynsym */
		struct symsrc *owner = syms->dynsym == es->runtime->dynsym ? es->runtime : syms;

		if ((r = load_table(es, owner, syms->dynsym, &syms->dynshdr, es->runtime, ELFSYMS_DYNSYM)) > 0)
			nr += r;
	}
	if (r >= 0 && nr > 0)
		plt_symbols(es, es->runtime);
	symset__done(&es->set);
}

struct elfsyms *elfsyms__open(const char *path, const uint8_t *build_id, size_t build_id_size,
			      const struct elfsyms_config *cfg)
{
	struct elfsyms *es = calloc(1, sizeof(*es));

	if (!es)
		return NULL;
	for (size_t i = 0; i < sizeof(es->src) / sizeof(es->src[0]); i++)
		es->src[i].fd = -1;
	symset__init(&es->set);
	if (!(es->path = strdup(path))) {
		free(es);
		return NULL;
	}
	elf_version(EV_CURRENT);
	load(es, build_id, build_id_size > 20 ? 20 : build_id_size, cfg);
	return es;
}

void elfsyms__free(struct elfsyms *es)
{
	if (!es)
		return;
	ehframe__release(&es->fdes);
	for (size_t i = 0; i < es->src_nr; i++)
		symsrc_release(&es->src[i]);
	symset__release(&es->set);
	free(es->phdrs);
	free(es->plt_names);
	free(es->path);
	free(es);
}

enum elfsyms_status elfsyms__status(const struct elfsyms *es)
{
	return es->status;
}

enum elfsyms_origin elfsyms__origin(const struct elfsyms *es)
{
	return es->origin;
}

const char *elfsyms__symbol_file(const struct elfsyms *es)
{
	if (es->origin == ELFSYMS_FROM_NONE || !es->syms)
		return NULL;
	if (es->origin == ELFSYMS_FROM_MINIDEBUG || es->origin == ELFSYMS_FROM_DEBUGINFOD)
		return es->src[es->src_nr - 1].path;
	return es->syms->path;
}

size_t elfsyms__nr(const struct elfsyms *es)
{
	return es->set.nr;
}

size_t elfsyms__memory(const struct elfsyms *es)
{
	return symset__memory(&es->set) + es->plt_alloc +
	       (es->src_nr && es->src[es->src_nr - 1].image ? es->src[es->src_nr - 1].mem_len : 0);
}

uint16_t elfsyms__e_machine(const struct elfsyms *es)
{
	return es->e_machine;
}

bool elfsyms__cwasm(const struct elfsyms *es)
{
	return es->cwasm;
}

/* File offset to the runtime file's virtual address and back (by its segment). */
static bool off_to_vaddr(Elf *elf, uint64_t off, int64_t *delta)
{
	GElf_Phdr ph;
	size_t n;

	if (elf_getphdrnum(elf, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (off >= ph.p_offset && off < ph.p_offset + ph.p_filesz) {
			*delta = (int64_t)(ph.p_vaddr - ph.p_offset);
			return true;
		}
	}
	return false;
}

/* The runtime file's .eh_frame FDEs, read once. */
static void read_fdes(struct elfsyms *es)
{
	struct symsrc *rt = es->runtime;
	GElf_Shdr shdr;
	Elf_Scn *sec = section_by_name(rt->elf, &rt->ehdr, &shdr, ".eh_frame", NULL);
	Elf_Data *d = sec && shdr.sh_type == SHT_PROGBITS ? elf_rawdata(sec, NULL) : NULL;
	bool swapped = rt->ehdr.e_ident[EI_DATA] != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB);

	es->fdes_read = true;
	if (d && d->d_buf)
		ehframe__read(&es->fdes, d->d_buf, d->d_size, shdr.sh_addr,
			      rt->ehdr.e_ident[EI_CLASS] == ELFCLASS64, swapped);
}

static bool fde_around(struct elfsyms *es, uint64_t off, struct elfsyms_hit *hit)
{
	const struct ehframe_fde *fde;
	int64_t delta;

	if (!es->runtime || es->runtime->ehdr.e_type == ET_REL)
		return false;
	if (!es->fdes_read)
		read_fdes(es);
	if (!off_to_vaddr(es->runtime->elf, off, &delta) || !(fde = ehframe__find(&es->fdes, off + (uint64_t)delta)))
		return false;
	*hit = (struct elfsyms_hit){
		.start = fde->start - (uint64_t)delta, .end = fde->end - (uint64_t)delta, .table = ELFSYMS_FDE,
	};
	hit->key = FDE_KEY | hit->start;
	return hit->start <= off && off < hit->end;
}

bool elfsyms__find(struct elfsyms *es, uint64_t off, struct elfsyms_hit *hit)
{
	const struct symset_sym *sym = symset__find(&es->set, off);

	if (sym) {
		*hit = (struct elfsyms_hit){
			.key = sym->seq, .name = sym->name, .start = sym->start, .end = sym->end, .table = sym->tag,
		};
		return true;
	}
	return es->status == ELFSYMS_OK && fde_around(es, off, hit);
}

size_t elfsyms__read(const struct elfsyms *es, uint64_t off, void *buf, size_t len)
{
	const struct symsrc *rt = es->runtime;
	ssize_t got;

	if (!rt || !len)
		return 0;
	if (rt->mem) {
		if (off >= rt->mem_len)
			return 0;
		if (len > rt->mem_len - off)
			len = rt->mem_len - off;
		memcpy(buf, (const char *)rt->mem + off, len);
		return len;
	}
	got = pread(rt->fd, buf, len, (off_t)off);
	return got > 0 ? (size_t)got : 0;
}

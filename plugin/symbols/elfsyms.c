// SPDX-License-Identifier: MIT
/*
 * The symbols of one mapped file, as perf finds them (see elfsyms.h): the
 * candidates (elfsyms-files.h) and their tables (elfsyms-tables.h) put
 * together as perf's dso__load does, with what perf does not read
 * (elfsyms-extra.h); lookups, and the .eh_frame FDE where no symbol is.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <elf.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf-defs.h"
#include "elfsyms-extra.h"
#include "elfsyms-tables.h"

/* Bit of a hit key that marks an FDE (the rest is its start). */
#define FDE_KEY (1ULL << 63)

/* What opening the candidates found, for the status when none is used. */
struct found {
	bool refused;		/* a file with another build-id */
	bool any;		/* an ELF file */
	bool binary;		/* the file itself (its path, under --symfs, or the cache's copy), not a debug file */
	bool bad;		/* the file itself, not an ELF file libelf can read */
};

/* A candidate found but refused, said: a debug file of another build (a
 * stale debug package), or one that is no ELF file. The file itself of
 * another build, or not ELF, is the warning of resolve.c (it names the
 * samples: elfsyms__status). */
static void say_refused(enum candidate c, const char *name, int r, const struct elfsyms_config *cfg)
{
	if (c == C_SYSTEM || c == C_CACHE)
		return;
	if (r == OPEN_MISMATCH)
		elfsyms__note(cfg, "%s: its build-id is not the recording's: not used as a debug file", name);
	else if (r == OPEN_BAD)
		elfsyms__note(cfg, "%s: not an ELF file libelf can read: not used as a debug file", name);
}

/* perf's candidates in its order: the first with a .symtab gives the
 * symbols, the first with a .dynsym the runtime file. */
static void open_candidates(struct elfsyms *es, bool vdso, const uint8_t *bid, size_t bid_size,
			    const struct elfsyms_config *cfg, struct found *found)
{
	char name[PATH_MAX];

	for (int c = 0; c < C__NR && (!es->syms || !es->runtime); c++) {
		struct symsrc *ss = &es->src[es->src_nr];
		bool used = false;
		int r;

		if (!elfsyms__candidate_path((enum candidate)c, es->path, vdso, bid, bid_size, cfg, name, sizeof(name)))
			continue;
		r = symsrc__open(ss, name, bid, bid_size);
		found->refused |= r == OPEN_MISMATCH;
		found->bad |= r == OPEN_BAD && c == C_SYSTEM;
		say_refused((enum candidate)c, name, r, cfg);
		if (r != OPEN_OK)
			continue;
		if (!elfsyms__check_headers(ss, cfg)) {
			found->bad |= c == C_SYSTEM;
			symsrc__release(ss);
			continue;
		}
		found->any = true;
		found->binary |= c == C_SYSTEM || c == C_CACHE;
		if (!es->syms && ss->symtab)
			es->syms = ss, used = true;
		if (!es->runtime && ss->dynsym)
			es->runtime = ss, used = true;
		/* under --symfs's root: the post-processor is told where (the stream's map found=) */
		if (used && c == C_SYSTEM && strcmp(name, es->path))
			es->read_from = ss->path;
		if (used)
			es->src_nr++;
		else
			symsrc__release(ss);
	}
}

/* perf's vdso is the one of its own process (ours). */
static void open_own_vdso(struct elfsyms *es, const uint8_t *bid, size_t bid_size, struct found *found)
{
	struct symsrc *ss = &es->src[es->src_nr];
	const void *mem;
	void *copy = NULL;
	size_t len;
	int r = OPEN_ABSENT;

	/* a copy: libelf may write to an image it reads, and the vdso is read-only */
	if (elfsyms__own_vdso(&mem, &len) && (copy = malloc(len))) {
		memcpy(copy, mem, len);
		r = symsrc__memory(ss, "[vdso]", copy, len, copy, bid, bid_size);
	} else {
		free(copy);
	}

	found->refused |= r == OPEN_MISMATCH;
	if (r == OPEN_OK) {
		found->any = true;
		if (!es->syms && ss->symtab)
			es->syms = ss;
		if (!es->runtime && ss->dynsym)
			es->runtime = ss;
		if (es->syms == ss || es->runtime == ss)
			es->src_nr++;
		else
			symsrc__release(ss);
	}
}

/* Beyond perf: a .symtab where perf finds none (syms has none), beside the
 * file's .dynsym. Returns the file to read the tables of: syms, or the one
 * debuginfod or MiniDebugInfo gave. */
static struct symsrc *extra_symtab(struct elfsyms *es, struct symsrc *syms, const uint8_t *bid, size_t bid_size,
				   const struct elfsyms_config *cfg)
{
	Elf_Scn *dynsym = syms->dynsym;
	GElf_Shdr dynshdr = syms->dynshdr;
	struct symsrc *extra = &es->src[es->src_nr];

	/* a debug file from debuginfod is read as perf reads one installed locally */
	if (cfg->debuginfod && !elfsyms__debuginfod(extra, bid, bid_size, cfg)) {
		es->origin = ELFSYMS_FROM_DEBUGINFOD;
		es->src_nr++;
		syms = extra;
	} else if (!elfsyms__minidebug(es, extra, cfg)) {
		/* MiniDebugInfo holds the functions .dynsym lacks: both are read */
		es->origin = ELFSYMS_FROM_MINIDEBUG;
		es->src_nr++;
		syms = extra;
		extra->dynsym = dynsym;
		extra->dynshdr = dynshdr;
	}
	return syms;
}

/* The tables of syms into the index: its .symtab, its .dynsym, then the
 * runtime file's PLT entries (only when there were symbols, as for perf). */
static void read_tables(struct elfsyms *es, struct symsrc *syms)
{
	int nr = 0, r = 0;

	if (syms->symtab && (r = elfsyms__load_table(es, syms, syms->symtab, &syms->symshdr, es->runtime, ELFSYMS_SYMTAB)) > 0)
		nr += r;
	if (r >= 0 && syms->dynsym) {
		/* MiniDebugInfo's own sections say nothing of the file's .dynsym */
		struct symsrc *owner = syms->dynsym == es->runtime->dynsym ? es->runtime : syms;

		if ((r = elfsyms__load_table(es, owner, syms->dynsym, &syms->dynshdr, es->runtime, ELFSYMS_DYNSYM)) > 0)
			nr += r;
	}
	if (r >= 0 && nr > 0)
		elfsyms__plt_symbols(es, es->runtime);
	symset__done(&es->set);
}

/* The file at path into es's next slot as the runtime file (its code, its
 * headers), and the symbol file unless a debug file is one already; false
 * when it is no ELF file or its build-id is not bid (refused: kept for the
 * note). */
static bool use_elsewhere(struct elfsyms *es, const char *path, const uint8_t *bid, size_t bid_size)
{
	struct symsrc *ss = &es->src[es->src_nr];
	int r = symsrc__open(ss, path, bid, bid_size);

	if (r == OPEN_MISMATCH && !es->refused)
		es->refused = strdup(path);
	if (r != OPEN_OK)
		return false;
	es->runtime = ss;
	if (!es->syms && ss->symtab)
		es->syms = ss;
	es->src_nr++;
	es->elsewhere = strdup(path);
	es->read_from = es->elsewhere;
	return true;
}

/* A file with bid as its build-id among the regular files of dir (not its
 * subdirectories), into es; false when none. */
static bool by_build_id(struct elfsyms *es, const char *dir, const uint8_t *bid, size_t bid_size)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char path[PATH_MAX];
	bool found = false;

	while (d && !found && (e = readdir(d))) {
		struct symsrc ss;
		int n = snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);

		if (e->d_name[0] == '.' || n < 0 || (size_t)n >= sizeof(path))
			continue;
		/* the build-id is checked as the file is opened: no other is read */
		if (symsrc__open(&ss, path, bid, bid_size) != OPEN_OK)
			continue;
		symsrc__release(&ss);
		found = use_elsewhere(es, path, bid, bid_size);
	}
	if (d)
		closedir(d);
	return found;
}

/* Beyond perf: a file none of perf's candidates has (moved with its
 * recording, or from another machine) is looked for in the search
 * directories, by its name, then (with a build-id) by its build-id. */
static void search_elsewhere(struct elfsyms *es, const uint8_t *bid, size_t bid_size, const struct elfsyms_config *cfg,
			     struct found *found)
{
	const char *slash = strrchr(es->path, '/');
	const char *base = slash ? slash + 1 : es->path;
	char path[PATH_MAX];

	if (!*base || es->src_nr >= sizeof(es->src) / sizeof(es->src[0]))
		return;
	for (size_t i = 0; i < cfg->search_nr && !es->runtime; i++) {
		int n = snprintf(path, sizeof(path), "%s/%s", cfg->search[i], base);

		if (n > 0 && (size_t)n < sizeof(path) && strcmp(path, es->path))
			use_elsewhere(es, path, bid, bid_size);
	}
	for (size_t i = 0; i < cfg->search_nr && !es->runtime && bid_size; i++)
		by_build_id(es, cfg->search[i], bid, bid_size);
	if (es->runtime) {
		found->any = true;
		free(es->refused);
		es->refused = NULL;
	} else if (es->refused) {
		found->refused = true;
	}
}

/* perf's dso__load for a user-space file: the candidates, then the tables. */
static void load(struct elfsyms *es, const uint8_t *bid, size_t bid_size, const struct elfsyms_config *cfg)
{
	bool vdso = !strcmp(es->path, "[vdso]");
	uint8_t own[20];
	struct found found = { 0 };

	char own_path[PATH_MAX];

	/* Without the recording's build-id perf takes the file's own (and checks
	 * debug files with it), the file read under --symfs's root. */
	snprintf(own_path, sizeof(own_path), "%s%s", cfg->symfs ? cfg->symfs : "", es->path);
	if (!bid_size && !vdso && elfsyms__is_regular_file(own_path)) {
		struct symsrc ss;

		if (symsrc__open(&ss, own_path, NULL, 0) == OPEN_OK) {
			bid_size = elfsyms__read_build_id(ss.elf, &ss.ehdr, own);
			bid = own;
			symsrc__release(&ss);
		}
	}
	open_candidates(es, vdso, bid, bid_size, cfg, &found);
	if (vdso && (!es->syms || !es->runtime))
		open_own_vdso(es, bid, bid_size, &found);
	if (!vdso && !found.binary && !es->runtime)
		search_elsewhere(es, bid, bid_size, cfg, &found);
	if (!es->syms && !es->runtime) {
		es->status = found.any ? ELFSYMS_OK : found.refused ? ELFSYMS_MISMATCH :
			     found.bad ? ELFSYMS_UNREADABLE : ELFSYMS_NO_FILE;
		return;
	}
	if (!es->syms)
		es->syms = es->runtime;
	if (!es->runtime)
		es->runtime = es->syms;
	es->status = ELFSYMS_OK;
	elfsyms__read_segments(es);
	es->e_machine = es->runtime->ehdr.e_machine;
	es->cwasm = es->runtime->ehdr.e_ident[EI_OSABI] == ELFOSABI_WASMTIME;

	struct symsrc *syms = es->syms;

	es->origin = syms->symtab ? ELFSYMS_FROM_SYMTAB : syms->dynsym ? ELFSYMS_FROM_DYNSYM : ELFSYMS_FROM_NONE;
	if (!syms->symtab)
		syms = extra_symtab(es, syms, bid, bid_size, cfg);
	read_tables(es, syms);
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
		symsrc__release(&es->src[i]);
	symset__release(&es->set);
	free(es->phdrs);
	free(es->plt_names);
	free(es->elsewhere);
	free(es->refused);
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

const char *elfsyms__found_elsewhere(const struct elfsyms *es)
{
	return es->elsewhere;
}

const char *elfsyms__read_from(const struct elfsyms *es)
{
	return es->read_from;
}

const char *elfsyms__refused_elsewhere(const struct elfsyms *es)
{
	return es->refused;
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
	Elf_Scn *sec = elfsyms__section_by_name(rt->elf, &rt->ehdr, &shdr, ".eh_frame", NULL);
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

// SPDX-License-Identifier: MIT
/* The candidate files of a mapped file's symbols, opened as perf does (see elfsyms-files.h). */
#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <limits.h>
#include <lzma.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/warnings.h"
#include "elfsyms-files.h"

void elfsyms__note(const struct elfsyms_config *cfg, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	if (!cfg || !cfg->warnings)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	warnings__add(cfg->warnings, "%s", msg);
}

bool elfsyms__check_headers(const struct symsrc *ss, const struct elfsyms_config *cfg)
{
	Elf_Scn *shstr = elf_getscn(ss->elf, ss->ehdr.e_shstrndx);
	GElf_Shdr sh;
	size_t shnum = 0;
	const struct {
		Elf_Scn *sec;
		const GElf_Shdr *shdr;
		const char *name;
	} tables[] = { { ss->symtab, &ss->symshdr, ".symtab" }, { ss->dynsym, &ss->dynshdr, ".dynsym" } };

	bool is64 = ss->ehdr.e_ident[EI_CLASS] == ELFCLASS64;
	const GElf_Ehdr *eh = &ss->ehdr;

	/* libelf then sees no section at all: not "no symbol table" */
	if (eh->e_shoff && eh->e_shnum &&
	    (eh->e_shoff > ss->size || (uint64_t)eh->e_shnum * eh->e_shentsize > ss->size - eh->e_shoff)) {
		elfsyms__note(cfg, "%s+0x%x: e_shoff 0x%" PRIx64 " and e_shnum %u put the section headers past the end"
			      " of the file (0x%" PRIx64 " bytes): no symbol is read from it", ss->path, is64 ? 0x28 : 0x20,
			      (uint64_t)eh->e_shoff, eh->e_shnum, ss->size);
		return false;
	}
	elf_getshdrnum(ss->elf, &shnum);
	if (shnum && (!shstr || !gelf_getshdr(shstr, &sh) || sh.sh_type != SHT_STRTAB)) {
		elfsyms__note(cfg, "%s+0x%x: e_shstrndx %u is no string table (the file has %zu sections):"
			      " its sections have no names, no symbol is read from it", ss->path,
			      is64 ? 0x3e : 0x32, ss->ehdr.e_shstrndx, shnum);
		return false;
	}
	for (size_t i = 0; i < 2; i++) {
		const GElf_Shdr *t = tables[i].shdr;

		if (!tables[i].sec)
			continue;
		if (t->sh_offset > ss->size || t->sh_size > ss->size - t->sh_offset)
			elfsyms__note(cfg, "%s+0x%" PRIx64 ": %s of 0x%" PRIx64 " bytes runs past the end of the file"
				      " (0x%" PRIx64 " bytes): its symbols are not read", ss->path, t->sh_offset,
				      tables[i].name, t->sh_size, ss->size);
	}
	return true;
}

bool elfsyms__is_regular_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

void symsrc__release(struct symsrc *ss)
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
Elf_Scn *elfsyms__section_by_name(Elf *elf, const GElf_Ehdr *eh, GElf_Shdr *shdr, const char *name,
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
size_t elfsyms__read_build_id(Elf *elf, const GElf_Ehdr *eh, uint8_t id[20])
{
	static const char *const names[] = { ".note.gnu.build-id", ".notes", ".note" };
	Elf_Scn *sec = NULL;
	GElf_Shdr shdr;
	Elf_Data *data;
	GElf_Nhdr nh;
	size_t off = 0, name_off, desc_off;

	for (size_t i = 0; i < 3 && !sec; i++)
		sec = elfsyms__section_by_name(elf, eh, &shdr, names[i], NULL);
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

/* perf's symsrc__init on an open ELF: refuse it when its build-id is not
 * the one wanted; find .symtab and .dynsym. */
static int symsrc_setup(struct symsrc *ss, const uint8_t *bid, size_t bid_size)
{
	uint8_t have[20];
	size_t n;

	if (!ss->elf || elf_kind(ss->elf) != ELF_K_ELF || !gelf_getehdr(ss->elf, &ss->ehdr))
		return OPEN_BAD;
	if (bid_size) {
		n = elfsyms__read_build_id(ss->elf, &ss->ehdr, have);
		if (!n || !build_id_equal(bid, bid_size, have, n))
			return OPEN_MISMATCH;
	}
	ss->symtab = elfsyms__section_by_name(ss->elf, &ss->ehdr, &ss->symshdr, ".symtab", NULL);
	if (ss->symtab && ss->symshdr.sh_type != SHT_SYMTAB)
		ss->symtab = NULL;
	ss->dynsym = elfsyms__section_by_name(ss->elf, &ss->ehdr, &ss->dynshdr, ".dynsym", &ss->dynsym_idx);
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
		symsrc__release(ss);
	return ret;
}

int symsrc__open(struct symsrc *ss, const char *path, const uint8_t *bid, size_t bid_size)
{
	struct stat st;

	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
	if (!elfsyms__is_regular_file(path))
		return OPEN_ABSENT;
	ss->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ss->fd < 0 || fstat(ss->fd, &st) < 0) {
		symsrc__release(ss);
		return OPEN_ABSENT;
	}
	ss->size = (uint64_t)st.st_size;
	ss->elf = elf_begin(ss->fd, ELF_C_READ_MMAP, NULL);
	return symsrc_opened(ss, path, bid, bid_size);
}

int symsrc__memory(struct symsrc *ss, const char *name, const void *mem, size_t len, void *owned,
		   const uint8_t *bid, size_t bid_size)
{
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
	ss->image = owned;
	ss->mem = mem;
	ss->mem_len = len;
	ss->size = len;
	ss->elf = elf_memory((char *)mem, len);
	return symsrc_opened(ss, name, bid, bid_size);
}

/* This process's vdso (perf's own, which is what perf reads for [vdso]). */
bool elfsyms__own_vdso(const void **mem, size_t *len)
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

/* gdb's gnu_debuglink_crc32 of the file at path (zlib's CRC-32, as liblzma
 * computes it); false when it cannot be read. */
static bool file_crc32(const char *path, uint32_t *crc)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *p;

	*crc = 0;
	if (fd < 0)
		return false;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return false;
	}
	if (st.st_size) {
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			close(fd);
			return false;
		}
		*crc = lzma_crc32(p, (size_t)st.st_size, 0);
		munmap(p, (size_t)st.st_size);
	}
	close(fd);
	return true;
}

/* The link's name and CRC from .gnu_debuglink's bytes (the name, its NUL,
 * padding to 4, the CRC in the file's byte order); false when they do not fit. */
static bool read_debuglink(const Elf_Data *d, bool swapped, char *link, size_t linklen, uint32_t *crc)
{
	const unsigned char *b = d->d_buf;
	const char *nul = d->d_buf ? memchr(d->d_buf, '\0', d->d_size) : NULL;
	size_t n, at;

	if (!nul || (n = (size_t)(nul - (const char *)d->d_buf)) >= linklen)
		return false;
	at = (n + 1 + 3) & ~(size_t)3;
	if (at + 4 > d->d_size)
		return false;
	memcpy(link, d->d_buf, n + 1);
	*crc = swapped ? (uint32_t)b[at] << 24 | (uint32_t)b[at + 1] << 16 | (uint32_t)b[at + 2] << 8 | b[at + 3]
		       : (uint32_t)b[at + 3] << 24 | (uint32_t)b[at + 2] << 16 | (uint32_t)b[at + 1] << 8 | b[at];
	return true;
}

/* Whether a and b are the same file. */
static bool same_file(const char *a, const char *b)
{
	struct stat sa, sb;

	return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/*
 * The path of perf's .gnu_debuglink candidate (the first that exists), or
 * false: the name alone (from the current directory), in the file's
 * directory, in its .debug, in the debug directory under its path. As gdb
 * has it, the name must be a plain file name (no '/': not an absolute path,
 * not ../), the file itself is never its own debug file, and a candidate
 * whose CRC-32 is not the link's is refused (and said), the next one tried.
 */
static bool debuglink_path(const char *path, const struct elfsyms_config *cfg, char *out, size_t outlen)
{
	struct symsrc ss;
	GElf_Shdr shdr;
	Elf_Scn *sec;
	Elf_Data *d;
	char link[NAME_MAX + 1], dir[PATH_MAX];
	const char *slash = strrchr(path, '/');
	bool found = false, swapped;
	uint32_t want, have;

	if (symsrc__open(&ss, path, NULL, 0) != OPEN_OK)
		return false;
	sec = elfsyms__section_by_name(ss.elf, &ss.ehdr, &shdr, ".gnu_debuglink", NULL);
	d = sec && shdr.sh_type != SHT_NOBITS ? elf_rawdata(sec, NULL) : NULL;
	swapped = ss.ehdr.e_ident[EI_DATA] != (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? ELFDATA2LSB : ELFDATA2MSB);
	if (!d || !d->d_size)
		goto out;
	if (!read_debuglink(d, swapped, link, sizeof(link), &want)) {
		elfsyms__note(cfg, "%s+0x%" PRIx64 ": .gnu_debuglink is not a name and a CRC: not followed", path,
			      shdr.sh_offset);
		goto out;
	}
	if (!link[0] || strchr(link, '/') || !strcmp(link, ".") || !strcmp(link, "..")) {
		elfsyms__note(cfg, "%s+0x%" PRIx64 ": .gnu_debuglink names \"%s\", not a plain file name: not followed",
			      path, shdr.sh_offset, link);
		goto out;
	}
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - path) : 0, path);
	for (int i = 0; i < 4 && !found; i++) {
		const char *dbg = cfg->debug_dir ? cfg->debug_dir : "";
		int len = i == 0 ? snprintf(out, outlen, "%s", link) :
			  i == 1 ? snprintf(out, outlen, "%s/%s", dir, link) :
			  i == 2 ? snprintf(out, outlen, "%s/.debug/%s", dir, link) :
				   snprintf(out, outlen, "%s%s/%s", dbg, dir, link);

		if (len <= 0 || (size_t)len >= outlen || !elfsyms__is_regular_file(out) || same_file(out, path))
			continue;
		if (!file_crc32(out, &have))
			continue;
		if (have != want) {
			elfsyms__note(cfg, "%s: CRC-32 0x%08" PRIx32 ", not the 0x%08" PRIx32 " of %s's .gnu_debuglink"
				      " (+0x%" PRIx64 "): not used as its debug file", out, have, want, path, shdr.sh_offset);
			continue;
		}
		found = true;
	}
out:
	symsrc__release(&ss);
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
	/* perf.data of perf before 5.x pads a shorter id (8 bytes from gold or
	 * lld) with zeros to 20, and the cache names the id as the file has it:
	 * beyond perf 6.1, which looks for the padded name only */
	if (access(out, F_OK) && bid_size == 20) {
		size_t n = bid_size;

		while (n > 0 && !bid[n - 1])
			n--;
		if (n >= 4 && n < bid_size) {
			char trimmed[PATH_MAX];
			int tl = snprintf(trimmed, sizeof(trimmed), "%s/.build-id/%.2s/%.*s", cfg->buildid_dir, hex,
					  (int)(2 * n - 2), hex + 2);

			if (tl > 0 && (size_t)tl < outlen && !access(trimmed, F_OK)) {
				memcpy(out, trimmed, (size_t)tl + 1);
				len = tl;
			}
		}
	}
	if (!elfsyms__is_regular_file(out))
		snprintf(out + len, outlen - (size_t)len, "/%s", base);
	return true;
}

bool elfsyms__candidate_path(enum candidate c, const char *path, bool vdso, const uint8_t *bid,
			     size_t bid_size, const struct elfsyms_config *cfg, char *out, size_t outlen)
{
	const char *dbg = cfg->debug_dir;
	const char *slash = strrchr(path, '/');
	/* perf's __symbol__join_symfs: --symfs's root before every name but the cache's */
	const char *root = cfg->symfs ? cfg->symfs : "";
	int root_len = (int)strlen(root);
	char hex[41], joined[PATH_MAX];

	while (root_len > 0 && root[root_len - 1] == '/')
		root_len--;
	switch (c) {
	case C_DEBUGLINK:
		return !vdso && snprintf(joined, sizeof(joined), "%.*s%s", root_len, root, path) < (int)sizeof(joined) &&
		       debuglink_path(joined, cfg, out, outlen);
	case C_CACHE:
		return cache_path(cfg, bid, bid_size, vdso ? "vdso" : "elf", out, outlen);
	case C_CACHE_DEBUG:
		return cache_path(cfg, bid, bid_size, "debug", out, outlen);
	case C_FEDORA:
		return !vdso && snprintf(out, outlen, "%.*s%s%s.debug", root_len, root, dbg, path) < (int)outlen;
	case C_UBUNTU:
		return !vdso && snprintf(out, outlen, "%.*s%s%s", root_len, root, dbg, path) < (int)outlen;
	case C_BUILDID_DEBUG:
		if (vdso || !bid_size)
			return false;
		for (size_t i = 0; i < bid_size; i++)
			snprintf(hex + 2 * i, 3, "%02x", bid[i]);
		return snprintf(out, outlen, "%.*s%s/.build-id/%.2s/%s.debug", root_len, root, dbg, hex, hex + 2) <
		       (int)outlen;
	case C_SYSTEM:
		return !vdso && snprintf(out, outlen, "%.*s%s", root_len, root, path) < (int)outlen;
	case C_OPENEMBEDDED:
		return !vdso && slash &&
		       snprintf(out, outlen, "%.*s%.*s.debug%s", root_len, root, (int)(slash - path + 1), path, slash) <
			       (int)outlen;
	case C_MIXEDUP_UBUNTU:
		return !vdso && !strncmp(path, "/usr/lib/", 9) &&
		       snprintf(out, outlen, "%.*s%s%s", root_len, root, dbg, path + 4) < (int)outlen;
	default:
		return false;
	}
}

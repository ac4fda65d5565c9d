// SPDX-License-Identifier: MIT
/* The candidate files of a mapped file's symbols, opened as perf does (see elfsyms-files.h). */
#include <elf.h>
#include <fcntl.h>
#include <gelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elfsyms-files.h"

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
		return OPEN_ABSENT;
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
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
	if (!elfsyms__is_regular_file(path))
		return OPEN_ABSENT;
	ss->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ss->fd < 0)
		return OPEN_ABSENT;
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

	if (symsrc__open(&ss, path, NULL, 0) != OPEN_OK)
		return false;
	sec = elfsyms__section_by_name(ss.elf, &ss.ehdr, &shdr, ".gnu_debuglink", NULL);
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

			found = len > 0 && (size_t)len < outlen && elfsyms__is_regular_file(out);
		}
	}
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
		       debuglink_path(joined, dbg, out, outlen);
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

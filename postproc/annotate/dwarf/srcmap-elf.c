/* SPDX-License-Identifier: MIT */
/* The DWARF of an ELF file (srcmap__open_elf): its own or its debug file's, and the files by path. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>

#include "lib/inputs.h"
#include "lib/util.h"
#include "dwarf-image.h"
#include "srcmap-defs.h"

/*
 * Separate debug files by build-id only (/usr/lib/debug/.build-id/xx/yyyy.debug,
 * where Debian's -dbgsym packages put them, and dwz's .gnu_debugaltlink files).
 * dwfl_standard_find_debuginfo() would also try .gnu_debuglink names and then
 * dlopen() libdebuginfod (with gnutls and friends) on every file without
 * DWARF, whether DEBUGINFOD_URLS is set or not: a network client and
 * allocations valgrind reports, for a post-processor that must stay offline.
 */
static int find_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			  Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			  GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	return dwfl_build_id_find_debuginfo(mod, userdata, modname, base, file_name,
					    debuglink_file, debuglink_crc, debuginfo_file_name);
}

static const Dwfl_Callbacks elf_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/*
 * The file's PT_LOAD segments, in file order: a stream's `sym-start` is a
 * file offset (STREAM.md), which the segment holding it turns into the
 * address DWARF speaks of. They differ for non-PIE executables (Debian's
 * node and python3.11: text at 0x41f000, file offset 0x1f000) and for lld's
 * and Rust's layouts (text one page above its offset).
 */
static int read_loads(struct srcmap *m, Elf *elf)
{
	size_t n;

	if (elf_getphdrnum(elf, &n) || !n)
		return 0;
	if (!(m->loads = calloc(n, sizeof(*m->loads))))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			m->loads[m->loads_nr++] = (struct srcmap_load){ ph.p_offset, ph.p_filesz, ph.p_vaddr };
	}
	return 0;
}

/* The first PT_LOAD's address, page-aligned as libdwfl takes it; 0 without one. */
static uint64_t first_load(Elf *elf)
{
	size_t n;

	if (elf_getphdrnum(elf, &n))
		return 0;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD)
			return ph.p_align > 1 ? ph.p_vaddr & -ph.p_align : ph.p_vaddr;
	}
	return 0;
}

/*
 * Whether libdw would take elf's own DWARF (then libdwfl looks no further):
 * it wants one of .debug_info, .debug_line, .debug_frame, compressed or not.
 */
static bool has_dwarf(Elf *elf)
{
	static const char *const names[] = { ".debug_info", ".debug_line", ".debug_frame",
					     ".zdebug_info", ".zdebug_line", ".zdebug_frame" };
	Elf_Scn *scn = NULL;
	size_t shstrndx;

	if (elf_getshdrstrndx(elf, &shstrndx))
		return false;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS ||
		    !(name = elf_strptr(elf, shstrndx, sh.sh_name)))
			continue;
		for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			if (!strcmp(name, names[i]))
				return true;
	}
	return false;
}

/*
 * The separate debug file of elf where libdwfl's build-id lookup finds it
 * (/usr/lib/debug/.build-id/xx/yyyy.debug, with the same build-id note), or
 * NULL; *fd is its descriptor, for the caller to close after elf_end().
 */
static Elf *debug_file(Elf *elf, int *fd)
{
	static const char dir[] = "/usr/lib/debug/.build-id/";
	char path[sizeof(dir) + 2 * 64 + sizeof("/.debug")];
	const uint8_t *id, *id2;
	ssize_t n, n2;
	size_t at;
	Elf *dbg;

	*fd = -1;
	n = dwelf_elf_gnu_build_id(elf, (const void **)&id);
	if (n < 2 || n > 64)
		return NULL;
	at = (size_t)snprintf(path, sizeof(path), "%s%02x/", dir, id[0]);
	for (ssize_t i = 1; i < n; i++)
		at += (size_t)snprintf(path + at, sizeof(path) - at, "%02x", id[i]);
	snprintf(path + at, sizeof(path) - at, ".debug");
	*fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (*fd < 0)
		return NULL;
	dbg = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (dbg && (n2 = dwelf_elf_gnu_build_id(dbg, (const void **)&id2)) == n && !memcmp(id, id2, n))
		return dbg;
	elf_end(dbg);
	close(*fd);
	*fd = -1;
	return NULL;
}

/*
 * The fast way (dwarf-image.h): the sections srcmap reads of the file's DWARF
 * (its own, or its debug file's), inflated into an image libdw opens. It
 * finds the file as libdwfl does (below), and the same bias (0 but for a
 * prelinked library). -ENOTSUP leaves the file to libdwfl: a relocatable
 * object (libdwfl relocates its DWARF), no debug file, nothing compressed or
 * compressed otherwise, damaged compressed data, DWARF libdw refuses.
 */
static int open_image(struct srcmap *m, Elf *file, char *err, size_t errlen)
{
	Elf *dbg = file;
	GElf_Ehdr eh;
	size_t size;
	int fd = -1, ret;

	if (!gelf_getehdr(file, &eh) || eh.e_type == ET_REL)
		return -ENOTSUP;
	if (!has_dwarf(file) && !(dbg = debug_file(file, &fd)))
		return -ENOTSUP;
	ret = dwarf_image__of_elf(&m->image, &size, dbg, err, errlen);
	if (!ret && dbg != file && eh.e_type == ET_DYN)
		m->bias = first_load(file) - first_load(dbg);
	if (dbg != file) {
		elf_end(dbg);
		close(fd);
	}
	if (ret)
		return ret == -ENOMEM ? ret : -ENOTSUP;
	m->elf = elf_memory((char *)m->image, size);
	if (m->elf)
		m->dw = dwarf_begin_elf(m->elf, DWARF_C_READ, NULL);
	if (!m->dw) {
		elf_end(m->elf);
		m->elf = NULL;
		free(m->image);
		m->image = NULL;
		m->bias = 0;
		return -ENOTSUP;
	}
	m->dw_owned = true;
	return 0;
}

/* libdwfl's way: it finds the DWARF and libdw inflates every compressed section. */
static int open_dwfl(struct srcmap *m, const char *path, char *err, size_t errlen)
{
	Dwfl_Module *mod;
	Dwarf_Addr bias;
	const char *base;

	m->dwfl = dwfl_begin(&elf_callbacks);
	if (!m->dwfl)
		return errf(err, errlen, -ENOMEM, "libdwfl: %s", dwfl_errmsg(-1));
	base = strrchr(path, '/');
	base = base ? base + 1 : path;
	dwfl_report_begin(m->dwfl);
	/*
	 * base 0 with add_p_vaddr: the module sits at the file's own p_vaddr,
	 * so dwfl addresses are file addresses, whatever the ELF type.
	 */
	mod = dwfl_report_elf(m->dwfl, base, path, -1, 0, true);
	if (dwfl_report_end(m->dwfl, NULL, NULL) != 0 || !mod)
		return errf(err, errlen, -EINVAL, "%s: %s", path, dwfl_errmsg(-1));
	m->dw = dwfl_module_getdwarf(mod, &bias);
	if (!m->dw)
		return errf(err, errlen, -ENODATA, "%s: %s", path, dwfl_errmsg(-1));
	m->bias = bias;
	return 0;
}

int srcmap__open_elf(struct srcmap **out, const char *path, char *err, size_t errlen)
{
	struct stat st;
	struct srcmap *m;
	Elf *file = NULL;
	int fd, ret;

	*out = NULL;
	ret = srcmap__lib_init(err, errlen);
	if (ret)
		return ret;
	/*
	 * dwfl says only "no such file" or the like; the caller wants errno.
	 * O_NONBLOCK and the regular-file check: a FIFO (a stream's dso= may
	 * name anything) would otherwise wait for a writer forever.
	 */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) < 0) {
		ret = -errno;
		errf(err, errlen, ret, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	/* An input: no report may replace it (output-file.h). */
	ret = inputs_note_fd(fd, path);
	if (ret) {
		close(fd);
		return errf(err, errlen, ret, "out of memory");
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return errf(err, errlen, -EINVAL, "%s: not a regular file", path);
	}

	m = calloc(1, sizeof(*m));
	if (!m) {
		close(fd);
		return errf(err, errlen, -ENOMEM, "out of memory");
	}
	file = elf_begin(fd, ELF_C_READ_MMAP, NULL);
	if (file && elf_kind(file) == ELF_K_ELF) {
		ret = read_loads(m, file);
		if (!ret)
			ret = open_image(m, file, err, errlen);
	} else {
		ret = -ENOTSUP;	/* not ELF: libdwfl says so */
	}
	elf_end(file);
	close(fd);
	if (ret == -ENOTSUP)
		ret = open_dwfl(m, path, err, errlen);
	if (!ret && (ret = srcmap__index_units(m)))
		errf(err, errlen, ret, "out of memory");
	if (ret == -ENOMEM && (!err || !errlen || !err[0]))
		errf(err, errlen, ret, "out of memory");
	if (ret) {
		srcmap__close(m);
		return ret;
	}
	*out = m;
	return 0;
}

bool srcmap__file_address(const struct srcmap *m, uint64_t off, uint64_t *addr)
{
	if (m->wasm || !m->loads_nr) {
		*addr = off;
		return true;
	}
	for (size_t i = 0; i < m->loads_nr; i++) {
		const struct srcmap_load *l = &m->loads[i];

		if (off >= l->off && off - l->off < l->filesz) {
			*addr = off - l->off + l->vaddr;
			return true;
		}
	}
	return false;
}

/* ---- ELF files by path ---- */

struct srcmap_cache_entry {
	char *path;
	struct srcmap *map;	/* NULL: no DWARF or unreadable */
};

static bool cache_path_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct srcmap_cache *c = ctx;

	return !strcmp(c->v[idx].path, key);
}

struct srcmap *srcmap_cache__elf(struct srcmap_cache *c, const char *path)
{
	uint64_t h = hash_bytes(HASH_SEED, path, strlen(path));
	long i = idx_table_find(&c->tab, h, cache_path_eq, path, c);
	struct srcmap_cache_entry *e;
	char err[512];

	if (i >= 0)
		return c->v[i].map;
	if (c->nr >= UINT32_MAX - 1 || VEC_GROW(c->v, c->nr + 1, c->alloc))
		return NULL;
	e = &c->v[c->nr];
	e->path = strdup(path);
	if (!e->path || idx_table_add(&c->tab, h, (uint32_t)c->nr)) {
		free(e->path);
		return NULL;
	}
	/* Without DWARF or readable file there is simply no [Source] cell. */
	if (srcmap__open_elf(&e->map, path, err, sizeof(err)) < 0)
		e->map = NULL;
	c->nr++;
	return e->map;
}

void srcmap_cache__release(struct srcmap_cache *c)
{
	for (size_t i = 0; i < c->nr; i++) {
		free(c->v[i].path);
		srcmap__close(c->v[i].map);
	}
	free(c->v);
	idx_table_release(&c->tab);
	memset(c, 0, sizeof(*c));
}

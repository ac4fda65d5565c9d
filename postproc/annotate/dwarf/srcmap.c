/* SPDX-License-Identifier: MIT */
/* Source locations from DWARF (libdw) for wasm modules and ELF files. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>

#include "../plugin/lib/bsearch.h"
#include "lib/inputs.h"
#include "lib/leb128.h"
#include "lib/util.h"
#include "dwarf-image.h"
#include "srcmap.h"

/* Wasm spec 5.5.2 section ids used here. */
#define WASM_SEC_CUSTOM 0
#define WASM_SEC_CODE 10

struct cu_range {
	uint64_t lo, hi;	/* [lo, hi) in DWARF addresses */
	uint64_t maxhi;		/* max hi of this and every earlier range (sorted by lo) */
	Dwarf_Die die;		/* the unit's DIE: a plain value, valid until dwarf_end */
};

struct cached {
	uint64_t addr;		/* as the caller gave it */
	struct srcmap_frame *frames;	/* owned; NULL when nr is 0 */
	size_t nr;
};

struct srcmap {
	Dwfl *dwfl;		/* ELF opened through libdwfl: owns dw */
	Dwarf *dw;
	bool dw_owned;		/* we dwarf_end() it (an image's); else dwfl does */
	Elf *elf;		/* wasm, and ELF opened through an image: the image below */
	uint8_t *image;		/* owned ELF image behind elf (dwarf-image.h) */
	bool wasm;
	uint64_t code_start, code_end;	/* wasm: Code section payload, file offsets */
	uint64_t bias;		/* ELF: DWARF address = file address - bias */
	struct cu_range *cus;
	size_t cus_nr, cus_alloc;
	struct cached *cache;
	size_t cache_nr, cache_alloc;
	struct idx_table cache_tab;
	struct strset paths;	/* comp_dir-joined file names */
	struct load {
		uint64_t off, filesz, vaddr;
	} *loads;		/* ELF: PT_LOAD segments, file order (srcmap__file_address) */
	size_t loads_nr;
};

static int lib_init(char *err, size_t errlen)
{
	if (elf_version(EV_CURRENT) == EV_NONE) {
		return errf(err, errlen, -EINVAL, "libelf: %s", elf_errmsg(-1));
	}
	return 0;
}

/* ---- address -> unit index ---- */

static int cmp_cu(const void *a, const void *b)
{
	const struct cu_range *x = a, *y = b;

	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->hi < y->hi ? -1 : x->hi > y->hi;
}

static int add_cu_range(struct srcmap *m, uint64_t lo, uint64_t hi, const Dwarf_Die *die)
{
	/* Empty or inverted ranges are what linkers leave for dropped code
	 * (wasm-ld's -1 / -2 tombstones, ld's 0): nothing to find there. */
	if (lo >= hi)
		return 0;
	if (VEC_GROW(m->cus, m->cus_nr + 1, m->cus_alloc))
		return -ENOMEM;
	m->cus[m->cus_nr++] = (struct cu_range){ .lo = lo, .hi = hi, .die = *die };
	return 0;
}

/*
 * Index every compile unit by its address ranges (DW_AT_low_pc/high_pc or
 * DW_AT_ranges). dwarf_addrdie() would want .debug_aranges, which clang
 * leaves out. A unit libdw cannot read ends the walk: what came before stays.
 */
static int index_units(struct srcmap *m)
{
	Dwarf_CU *cu = NULL;
	Dwarf_Die cudie, subdie;
	uint8_t unit_type;

	for (;;) {
		Dwarf_Addr base, lo, hi;
		ptrdiff_t off = 0;
		Dwarf_Die *scope = &cudie;

		memset(&subdie, 0, sizeof(subdie));
		if (dwarf_get_units(m->dw, cu, &cu, NULL, &unit_type, &cudie, &subdie) != 0)
			break;
		if (unit_type != DW_UT_compile && unit_type != DW_UT_skeleton &&
		    unit_type != DW_UT_partial)
			continue;
		/* Split DWARF: ranges on the skeleton, scopes in the .dwo unit
		 * (libdw leaves subdie zeroed when it finds no .dwo). */
		if (unit_type == DW_UT_skeleton && subdie.addr)
			scope = &subdie;
		while ((off = dwarf_ranges(&cudie, off, &base, &lo, &hi)) > 0)
			if (add_cu_range(m, lo, hi, scope))
				return -ENOMEM;
	}
	if (m->cus_nr)
		qsort(m->cus, m->cus_nr, sizeof(*m->cus), cmp_cu);
	for (size_t i = 0; i < m->cus_nr; i++)
		m->cus[i].maxhi = i && m->cus[i - 1].maxhi > m->cus[i].hi ? m->cus[i - 1].maxhi :
									      m->cus[i].hi;
	return 0;
}

static Dwarf_Die *find_unit(struct srcmap *m, uint64_t a)
{
	/* The last range starting at or before a, then back while an earlier
	 * range may still reach a (units may overlap: partial units, LTO). */
	size_t lo = LOWER_BOUND(m->cus_nr, i, m->cus[i].lo <= a);

	while (lo-- > 0 && m->cus[lo].maxhi > a)
		if (a < m->cus[lo].hi)
			return &m->cus[lo].die;
	return NULL;
}

/* ---- frames ---- */

static const char *die_name(Dwarf_Die *die)
{
	Dwarf_Attribute attr;

	/* _integrate: inlined instances and out-of-line copies name themselves
	 * through DW_AT_abstract_origin, C++ definitions through DW_AT_specification. */
	return dwarf_formstring(dwarf_attr_integrate(die, DW_AT_name, &attr));
}

static unsigned attr_udata(Dwarf_Die *die, unsigned name)
{
	Dwarf_Attribute attr;
	Dwarf_Word v;

	if (dwarf_formudata(dwarf_attr(die, name, &attr), &v) != 0 || v > UINT32_MAX)
		return 0;
	return (unsigned)v;
}

/*
 * libdw joins a file's directory entry and name but stops there (eu-addr2line
 * -A joins DW_AT_comp_dir itself): with a relative include directory (clang
 * writes "test-data/srcline" for a source under its working directory) the
 * name is still relative to the unit's DW_AT_comp_dir. addr2line and
 * llvm-symbolizer print it joined, so do we, interning the result so it lives
 * as long as the srcmap.
 */
static const char *absolute(struct srcmap *m, Dwarf_Die *cu, const char *file)
{
	Dwarf_Attribute attr;
	const char *dir, *joined;
	size_t dlen, flen;
	char *p;

	if (!file || file[0] == '/')
		return file;
	dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &attr));
	/* A relative comp_dir (-fdebug-prefix-map=$PWD=., Debian's "./stdlib"
	 * for glibc) is left alone: libdw already put it in for directory entry 0,
	 * and libdw does not say which entry a name used. The tools prepend it
	 * once more for other entries ("./stdlib/./stdlib/msort.c"). */
	if (!dir || dir[0] != '/')
		return file;
	dlen = strlen(dir);
	flen = strlen(file);
	p = malloc(dlen + 1 + flen + 1);
	if (!p)
		return file;
	memcpy(p, dir, dlen);
	if (dir[dlen - 1] != '/')
		p[dlen++] = '/';
	memcpy(p + dlen, file, flen + 1);
	joined = strset_add_owned(&m->paths, p);
	return joined ? joined : file;
}

static bool is_function(int tag)
{
	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
	       tag == DW_TAG_entry_point;
}

/* Far deeper than any real nesting; bounds the recursion on hostile input. */
#define SCOPE_DEPTH_MAX 256

struct chain {
	Dwarf_Die *die;		/* outermost first */
	size_t nr, alloc;
};

/*
 * Append to c the scopes under parent that contain a, outermost first: the
 * physical DIE tree, so an inlined instance's parent is its caller. Scope
 * DIEs (functions, blocks) are entered when their ranges contain a; DIEs
 * without any address (namespaces, classes, C++ in-class definitions' hosts,
 * blocks gcc emits without ranges) are searched through. We walk ourselves
 * instead of calling dwarf_getscopes(): that one continues past an inlined
 * instance into the abstract origin's tree (eu-addr2line -i therefore calls
 * dwarf_getscopes_die() again), and libdw 0.188 leaks its array when it
 * fails halfway on damaged DWARF. Returns 1 when something was found, 0, or
 * -ENOMEM.
 */
static int descend(Dwarf_Die *parent, uint64_t a, struct chain *c, unsigned depth)
{
	Dwarf_Die child;
	int r;

	if (depth >= SCOPE_DEPTH_MAX || dwarf_child(parent, &child) != 0)
		return 0;
	do {
		int tag = dwarf_tag(&child);
		bool scope;

		switch (tag) {
		case DW_TAG_subprogram:
		case DW_TAG_inlined_subroutine:
		case DW_TAG_entry_point:
		case DW_TAG_lexical_block:
		case DW_TAG_try_block:
		case DW_TAG_catch_block:
		case DW_TAG_with_stmt:
			scope = true;
			break;
		case DW_TAG_namespace:
		case DW_TAG_module:
		case DW_TAG_class_type:
		case DW_TAG_structure_type:
		case DW_TAG_union_type:
			scope = false;
			break;
		default:
			continue;
		}
		if (scope) {
			if (dwarf_haspc(&child, a) > 0) {
				if (VEC_GROW(c->die, c->nr + 1, c->alloc))
					return -ENOMEM;
				c->die[c->nr++] = child;
				r = descend(&child, a, c, depth + 1);
				return r < 0 ? r : 1;
			}
			/* Code elsewhere, or a function with no code at all (a
			 * declaration, an abstract instance): nothing below can
			 * contain a. Only an address-less block is searched. */
			if (tag != DW_TAG_lexical_block || dwarf_hasattr(&child, DW_AT_low_pc) ||
			    dwarf_hasattr(&child, DW_AT_ranges))
				continue;
		}
		r = descend(&child, a, c, depth + 1);
		if (r)
			return r;
	} while (dwarf_siblingof(&child, &child) == 0);
	return 0;
}

/* Collect the frames of DWARF address a into *out (malloc'd); returns the count or -ENOMEM. */
static long resolve(struct srcmap *m, uint64_t a, struct srcmap_frame **out)
{
	Dwarf_Die *cu = find_unit(m, a);
	struct srcmap_frame here = { 0 }, *fr = NULL;
	struct chain c = { 0 };
	Dwarf_Files *files = NULL;
	size_t nr = 0, alloc = 0, nfiles = 0;
	Dwarf_Line *row;

	*out = NULL;
	if (!cu)
		return 0;
	row = dwarf_getsrc_die(cu, a);
	if (row) {
		int v;

		here.file = absolute(m, cu, dwarf_linesrc(row, NULL, NULL));
		if (dwarf_lineno(row, &v) == 0 && v > 0)
			here.line = (unsigned)v;
		if (dwarf_linecol(row, &v) == 0 && v > 0)
			here.column = (unsigned)v;
	}
	if (descend(cu, a, &c, 0) < 0)
		goto out_nomem;
	if (dwarf_getsrcfiles(cu, &files, &nfiles) != 0)
		files = NULL;
	/* Innermost function first; each inlined instance's caller continues
	 * at the instance's call site (as addr2line -i prints them). */
	for (size_t i = c.nr; i-- > 0;) {
		Dwarf_Die *d = &c.die[i];
		int tag = dwarf_tag(d);

		if (!is_function(tag))
			continue;
		if (VEC_GROW(fr, nr + 1, alloc))
			goto out_nomem;
		fr[nr] = here;
		fr[nr].function = die_name(d);
		nr++;
		if (tag != DW_TAG_inlined_subroutine)
			break;
		here = (struct srcmap_frame){ 0 };
		if (files) {
			unsigned idx = attr_udata(d, DW_AT_call_file);

			if (idx < nfiles)
				here.file = absolute(m, cu, dwarf_filesrc(files, idx, NULL, NULL));
		}
		here.line = attr_udata(d, DW_AT_call_line);
		here.column = attr_udata(d, DW_AT_call_column);
	}
	free(c.die);
	/* A row but no function DIE around it (asm, stripped-down DWARF). */
	if (!nr && row) {
		if (VEC_GROW(fr, 1, alloc))
			return -ENOMEM;
		fr[nr++] = here;
	}
	*out = fr;
	return (long)nr;

out_nomem:
	free(c.die);
	free(fr);
	return -ENOMEM;
}

static bool cache_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct srcmap *m = ctx;

	return m->cache[idx].addr == *(const uint64_t *)key;
}

size_t srcmap__lookup(struct srcmap *m, uint64_t addr, const struct srcmap_frame **frames)
{
	uint64_t h = hash_u64(HASH_SEED, addr), a;
	struct srcmap_frame *fr = NULL;
	long idx, nr = 0;

	*frames = NULL;
	idx = idx_table_find(&m->cache_tab, h, cache_eq, &addr, m);
	if (idx >= 0) {
		*frames = m->cache[idx].frames;
		return m->cache[idx].nr;
	}
	if (m->wasm) {
		if (addr >= m->code_start && addr < m->code_end)
			nr = resolve(m, addr - m->code_start, &fr);
	} else {
		a = addr - m->bias;
		nr = resolve(m, a, &fr);
	}
	if (nr < 0)
		return 0;
	if (m->cache_nr >= UINT32_MAX - 1 || VEC_GROW(m->cache, m->cache_nr + 1, m->cache_alloc) ||
	    idx_table_add(&m->cache_tab, h, (uint32_t)m->cache_nr)) {
		/* Without a cache slot nobody would free fr later. */
		free(fr);
		return 0;
	}
	m->cache[m->cache_nr++] = (struct cached){ .addr = addr, .frames = fr, .nr = (size_t)nr };
	*frames = fr;
	return (size_t)nr;
}

uint64_t srcmap__wasm_code_start(const struct srcmap *m)
{
	return m->wasm ? m->code_start : 0;
}

void srcmap__close(struct srcmap *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->cache_nr; i++)
		free(m->cache[i].frames);
	free(m->cache);
	idx_table_release(&m->cache_tab);
	free(m->cus);
	free(m->loads);
	strset_release(&m->paths);
	if (m->dwfl)
		dwfl_end(m->dwfl);
	if (m->dw && m->dw_owned)
		dwarf_end(m->dw);
	if (m->elf)
		elf_end(m->elf);
	free(m->image);
	free(m);
}

/* ---- wasm ---- */

struct cursor {
	const uint8_t *p, *end;
};

/* A u32 LEB128 (5 bytes at most, unused bits zero): 0, or -EINVAL. */
static int cursor_uleb32(struct cursor *c, uint32_t *v)
{
	uint64_t x;

	if (leb128_read_u(&c->p, c->end, 32, &x))
		return -EINVAL;
	*v = (uint32_t)x;
	return 0;
}

struct debug_sec {
	const uint8_t *name;	/* into the module, not NUL-terminated */
	uint32_t name_len;
	const uint8_t *data;
	uint32_t size;
};

struct wasm_scan {
	struct debug_sec *secs;
	size_t nr, alloc;
	bool has_code, has_linking, has_info;
	uint64_t code_start, code_end;
	const uint8_t *external;	/* external_debug_info URL, if any */
	uint32_t external_len;
};

static bool name_is(const uint8_t *name, uint32_t len, const char *s)
{
	return len == strlen(s) && !memcmp(name, s, len);
}

/* Wasm spec 5.5: magic, version 1, then id / size / payload sections. */
static int scan_wasm(struct wasm_scan *w, const uint8_t *wasm, size_t len, char *err,
		     size_t errlen)
{
	static const uint8_t head[8] = { 0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00 };
	struct cursor c;

	if (len < 8 || memcmp(wasm, "\0asm", 4))
		return errf(err, errlen, -EINVAL, "not a wasm module");
	if (memcmp(wasm, head, 8))
		return errf(err, errlen, -EINVAL, "not a core wasm module of version 1");
	c = (struct cursor){ wasm + 8, wasm + len };
	while (c.p < c.end) {
		uint64_t at = (uint64_t)(c.p - wasm);
		uint8_t id = *c.p++;
		struct cursor s;
		uint32_t size;

		if (cursor_uleb32(&c, &size) || size > (size_t)(c.end - c.p))
			return errf(err, errlen, -EINVAL, "+0x%" PRIx64 ": section %u truncated", at, id);
		s = (struct cursor){ c.p, c.p + size };
		c.p += size;
		if (id == WASM_SEC_CODE) {
			if (w->has_code)
				return errf(err, errlen, -EINVAL, "+0x%" PRIx64 ": second code section", at);
			w->has_code = true;
			w->code_start = (uint64_t)(s.p - wasm);
			w->code_end = (uint64_t)(s.end - wasm);
		} else if (id == WASM_SEC_CUSTOM) {
			uint32_t nlen;
			const uint8_t *name;

			if (cursor_uleb32(&s, &nlen) || nlen > (size_t)(s.end - s.p))
				return errf(err, errlen, -EINVAL,
					    "+0x%" PRIx64 ": custom section name truncated", at);
			name = s.p;
			s.p += nlen;
			if (name_is(name, nlen, "linking")) {
				w->has_linking = true;
			} else if (name_is(name, nlen, "external_debug_info")) {
				uint32_t ulen;

				if (!cursor_uleb32(&s, &ulen) && ulen <= (size_t)(s.end - s.p)) {
					w->external = s.p;
					w->external_len = ulen;
				}
			} else if (nlen > 7 && !memcmp(name, ".debug_", 7)) {
				if (memchr(name, 0, nlen))
					return errf(err, errlen, -EINVAL,
						    "+0x%" PRIx64 ": NUL in a section name", at);
				for (size_t i = 0; i < w->nr; i++)
					if (w->secs[i].name_len == nlen &&
					    !memcmp(w->secs[i].name, name, nlen))
						return errf(err, errlen, -EINVAL,
							    "+0x%" PRIx64 ": second %.*s section", at,
							    (int)nlen, name);
				if (VEC_GROW(w->secs, w->nr + 1, w->alloc))
					return -ENOMEM;
				w->secs[w->nr++] = (struct debug_sec){
					.name = name, .name_len = nlen, .data = s.p,
					.size = (uint32_t)(s.end - s.p),
				};
				if (name_is(name, nlen, ".debug_info"))
					w->has_info = true;
			}
		}
	}
	return 0;
}

/*
 * The module's .debug_* sections in an ELF image (dwarf-image.h): ELFCLASS32
 * because wasm32 DWARF has 4-byte addresses, little-endian like wasm,
 * EM_NONE.
 */
static int build_image(struct srcmap *m, const struct wasm_scan *w, size_t *size, char *err,
		       size_t errlen)
{
	static const struct dwarf_image_kind wasm32 = { ELFCLASS32, ELFDATA2LSB, EM_NONE };
	struct dwarf_image_sec *secs = calloc(w->nr ? w->nr : 1, sizeof(*secs));
	int ret;

	if (!secs)
		return errf(err, errlen, -ENOMEM, "out of memory");
	for (size_t i = 0; i < w->nr; i++)
		secs[i] = (struct dwarf_image_sec){ .name = (const char *)w->secs[i].name,
						    .name_len = w->secs[i].name_len,
						    .data = w->secs[i].data, .size = w->secs[i].size,
						    .out_size = w->secs[i].size };
	ret = dwarf_image__build(&m->image, size, &wasm32, secs, w->nr, err, errlen);
	free(secs);
	return ret;
}

int srcmap__open_wasm(struct srcmap **out, const uint8_t *wasm, size_t len, const char *name,
		      char *err, size_t errlen)
{
	struct wasm_scan w = { 0 };
	struct srcmap *m = NULL;
	size_t size = 0;
	int ret;

	*out = NULL;
	if (!name)
		name = "wasm";
	ret = lib_init(err, errlen);
	if (ret)
		return ret;
	ret = scan_wasm(&w, wasm, len, err, errlen);
	if (ret) {
		if (ret == -ENOMEM)
			errf(err, errlen, ret, "out of memory");
		goto out;
	}
	if (w.has_linking) {
		ret = errf(err, errlen, -ENOTSUP,
			   "%s: a relocatable wasm object, DWARF addresses unresolved", name);
		goto out;
	}
	if (!w.has_info && w.external) {
		ret = errf(err, errlen, -ENODATA, "%s: DWARF is in a separate file: %.*s", name,
			   (int)w.external_len, w.external);
		goto out;
	}
	if (!w.has_info) {
		ret = errf(err, errlen, -ENODATA, "%s: no DWARF (.debug_info) in the module", name);
		goto out;
	}
	m = calloc(1, sizeof(*m));
	if (!m) {
		ret = errf(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	m->wasm = true;
	/* No Code section: every lookup finds nothing, but the DWARF is valid. */
	m->code_start = w.code_start;
	m->code_end = w.has_code ? w.code_end : w.code_start;
	ret = build_image(m, &w, &size, err, errlen);
	if (ret)
		goto out;
	m->elf = elf_memory((char *)m->image, size);
	if (!m->elf) {
		ret = errf(err, errlen, -EINVAL, "%s: libelf: %s", name, elf_errmsg(-1));
		goto out;
	}
	m->dw = dwarf_begin_elf(m->elf, DWARF_C_READ, NULL);
	m->dw_owned = true;
	if (!m->dw) {
		ret = errf(err, errlen, -EINVAL, "%s: libdw: %s", name, dwarf_errmsg(-1));
		goto out;
	}
	ret = index_units(m);
	if (ret) {
		errf(err, errlen, ret, "out of memory");
		goto out;
	}
	*out = m;
	m = NULL;
out:
	srcmap__close(m);
	free(w.secs);
	return ret;
}

/* ---- ELF ---- */

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
			m->loads[m->loads_nr++] = (struct load){ ph.p_offset, ph.p_filesz, ph.p_vaddr };
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
	ret = lib_init(err, errlen);
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
	if (!ret && (ret = index_units(m)))
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
		const struct load *l = &m->loads[i];

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

/* ---- short form ---- */

static const char *base_name(const char *path)
{
	const char *s;

	if (!path)
		return "?";
	/* Paths in wasm DWARF built on Windows use backslashes. */
	for (s = path; *s; s++)
		if (*s == '/' || *s == '\\')
			path = s + 1;
	return *path ? path : "?";
}

const char *srcmap__short(char *buf, size_t len, const struct srcmap_frame *frames, size_t n)
{
	const struct srcmap_frame *f = frames;
	size_t at;
	int k;

	if (!len)
		return buf;
	buf[0] = 0;
	if (!n)
		return buf;
	k = snprintf(buf, len, "%s %s", f->function ? f->function : "?", base_name(f->file));
	at = k < 0 ? 0 : (size_t)k;
	if (at < len && f->line) {
		if (f->column)
			k = snprintf(buf + at, len - at, ":%u:%u", f->line, f->column);
		else
			k = snprintf(buf + at, len - at, ":%u", f->line);
		at += k < 0 ? 0 : (size_t)k;
	}
	if (at < len && n > 1)
		snprintf(buf + at, len - at, " (inlined into %s)",
			 frames[n - 1].function ? frames[n - 1].function : "?");
	return buf;
}

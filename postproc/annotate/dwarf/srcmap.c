/* SPDX-License-Identifier: MIT */
/* Source locations from DWARF (libdw): the frames of an address, cached (srcmap.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>
#include <libelf.h>

#include "../plugin/lib/bsearch.h"
#include "lib/util.h"
#include "srcmap-defs.h"

int srcmap__lib_init(char *err, size_t errlen)
{
	if (elf_version(EV_CURRENT) == EV_NONE) {
		return errf(err, errlen, -EINVAL, "libelf: %s", elf_errmsg(-1));
	}
	return 0;
}

/* ---- address -> unit index ---- */

static int cmp_cu(const void *a, const void *b)
{
	const struct srcmap_cu_range *x = a, *y = b;

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
	m->cus[m->cus_nr++] = (struct srcmap_cu_range){ .lo = lo, .hi = hi, .die = *die };
	return 0;
}

/* By DW_AT_low_pc/high_pc or DW_AT_ranges: dwarf_addrdie() would want
 * .debug_aranges, which clang leaves out. */
int srcmap__index_units(struct srcmap *m)
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
	m->cache[m->cache_nr++] = (struct srcmap_cached){ .addr = addr, .frames = fr, .nr = (size_t)nr };
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

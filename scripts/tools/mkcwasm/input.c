/* SPDX-License-Identifier: MIT */
/* mkcwasm: what the artifact is made from, the assembler's object and the reviewed text tables. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mkcwasm.h"

/* ---- reading the assembler's object ---- */

static Elf_Scn *find_section(Elf *elf, const char *path, const char *want)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrstrndx(elf, &shstrndx) < 0)
		die("%s: %s", path, elf_errmsg(-1));
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			die("%s: %s", path, elf_errmsg(-1));
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, want))
			return scn;
	}
	return NULL;
}

static int cmp_func(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

void obj_open(struct obj *o, const char *path)
{
	Elf_Scn *scn = NULL, *text;
	GElf_Ehdr eh;
	Elf_Data *d;

	memset(o, 0, sizeof(*o));
	o->path = path;
	o->fd = open(path, O_RDONLY);
	if (o->fd < 0)
		die("%s: %s", path, strerror(errno));
	o->elf = elf_begin(o->fd, ELF_C_READ, NULL);
	if (!o->elf || elf_kind(o->elf) != ELF_K_ELF)
		die("%s: not an ELF file", path);
	if (!gelf_getehdr(o->elf, &eh) || gelf_getclass(o->elf) != ELFCLASS64 ||
	    eh.e_type != ET_REL || eh.e_machine != EM_X86_64)
		die("%s: expected an x86-64 ELF64 relocatable object (as -o hot.o hot.S)", path);
	text = find_section(o->elf, path, ".text");
	if (!text)
		die("%s: no .text section", path);
	/* wasmtime resolves every call at link time; a .o that still needs
	 * relocations would not run from the mapped file. */
	if (find_section(o->elf, path, ".rela.text") || find_section(o->elf, path, ".rel.text"))
		die("%s: .text has relocations; keep every call target a local symbol "
		    "in .text so the assembler resolves it", path);
	o->text_shndx = elf_ndxscn(text);
	d = elf_getdata(text, NULL);
	o->text_size = d ? d->d_size : 0;
	o->text = xrealloc(NULL, o->text_size);
	if (o->text_size)
		memcpy(o->text, d->d_buf, o->text_size);

	while ((scn = elf_nextscn(o->elf, scn))) {
		GElf_Shdr sh;
		size_t n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		d = elf_getdata(scn, NULL);
		n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
		for (size_t i = 0; i < n; i++) {
			GElf_Sym s;
			const char *name;
			struct func *f;

			if (!gelf_getsym(d, i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
			    s.st_shndx != o->text_shndx)
				continue;
			name = elf_strptr(o->elf, sh.sh_link, s.st_name);
			if (!name || !*name)
				die("%s: unnamed function symbol", path);
			if (!s.st_size)
				die("%s: function %s has no size (.size missing?)", path, name);
			if (s.st_value + s.st_size > o->text_size)
				die("%s: function %s runs past .text", path, name);
			o->funcs = xrealloc(o->funcs, (o->nfuncs + 1) * sizeof(*o->funcs));
			f = &o->funcs[o->nfuncs++];
			f->name = strdup(name);
			f->off = s.st_value;
			f->size = s.st_size;
		}
	}
	if (!o->nfuncs)
		die("%s: no function symbols", path);
	/* gas orders symbols by first reference; wasmtime's symtab order is the
	 * layout order. */
	qsort(o->funcs, o->nfuncs, sizeof(*o->funcs), cmp_func);
	for (size_t i = 1; i < o->nfuncs; i++)
		if (o->funcs[i].off < o->funcs[i - 1].off + o->funcs[i - 1].size)
			die("%s: functions %s and %s overlap", path, o->funcs[i - 1].name,
			    o->funcs[i].name);
}

/* The u32 words of one of hot.S's side sections, or NULL if it is absent. */
static const uint32_t *obj_words(struct obj *o, const char *section, size_t per, size_t *nrec)
{
	Elf_Scn *scn = find_section(o->elf, o->path, section);
	Elf_Data *d;

	*nrec = 0;
	if (!scn)
		return NULL;
	d = elf_getdata(scn, NULL);
	if (!d || !d->d_size)
		return NULL;
	if (d->d_size % (4 * per))
		die("%s: %s: size %zu is not a multiple of %zu", o->path, section, d->d_size,
		    4 * per);
	*nrec = d->d_size / (4 * per);
	return d->d_buf;	/* x86-64 host and target: native = little-endian */
}

const struct func *func_at(const struct obj *o, uint32_t off)
{
	for (size_t i = 0; i < o->nfuncs; i++)
		if (off >= o->funcs[i].off && off < o->funcs[i].off + o->funcs[i].size)
			return &o->funcs[i];
	return NULL;
}

int extract_addrmap(const char *path)
{
	struct obj o;
	const uint32_t *w;
	const struct func *cur = NULL;
	size_t n;

	obj_open(&o, path);
	w = obj_words(&o, ".hb_addrmap", 2, &n);
	if (!w)
		die("%s: no .hb_addrmap section (was it assembled from hot.S?)", path);
	printf("# text_offset wasm_offset|none: one line per machine instruction,\n"
	       "# text offsets relative to .text (mkcwasm --extract-addrmap %s)\n", path);
	for (size_t i = 0; i < n; i++) {
		uint32_t off = w[2 * i], pos = w[2 * i + 1];
		const struct func *f = func_at(&o, off);

		if (!f)
			die("%s: address map entry at 0x%x is outside every function", path, off);
		if (i && off <= w[2 * (i - 1)])
			die("%s: address map not strictly increasing at 0x%x", path, off);
		if (f != cur) {
			printf("# %s [0x%x, 0x%x)\n", f->name, f->off, f->off + f->size);
			cur = f;
		}
		if (pos == ADDRMAP_NONE)
			printf("0x%04x none\n", off);
		else
			printf("0x%04x 0x%x\n", off, pos);
	}
	return 0;
}

int extract_meta(const char *path)
{
	struct obj o;
	const uint32_t *w;
	size_t n;

	obj_open(&o, path);
	printf("# trap TEXT_OFFSET CODE  (wasmtime Trap as u8: 0 = StackOverflow)\n"
	       "# callsite RETURN_OFFSET FRAME_OFFSET HANDLER_OFFSET  (default handler)\n"
	       "# (mkcwasm --extract-meta %s)\n", path);
	w = obj_words(&o, ".hb_traps", 2, &n);
	for (size_t i = 0; i < n; i++)
		printf("trap 0x%04x %u\n", w[2 * i], w[2 * i + 1]);
	w = obj_words(&o, ".hb_callsites", 3, &n);
	for (size_t i = 0; i < n; i++)
		printf("callsite 0x%04x 0x%x 0x%04x\n", w[3 * i], w[3 * i + 1], w[3 * i + 2]);
	return 0;
}

/* ---- reading the text tables ---- */

static char *trim(char *s)
{
	char *e;

	if ((e = strchr(s, '#')))
		*e = 0;
	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n' || e[-1] == '\r'))
		*--e = 0;
	return s;
}

static uint32_t parse_u32(const char *file, unsigned line, const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s || *end || v > UINT32_MAX)
		die("%s:%u: bad number '%s'", file, line, s);
	return v;
}

struct addrmap_entry *load_addrmap_text(const char *path, size_t *np)
{
	FILE *f = fopen(path, "r");
	struct addrmap_entry *e = NULL;
	char line[512];
	unsigned ln = 0;
	size_t n = 0;

	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char a[64], b[64], extra;
		char *s = trim(line);

		ln++;
		if (!*s)
			continue;
		if (sscanf(s, "%63s %63s %c", a, b, &extra) != 2)
			die("%s:%u: expected 'text_offset wasm_offset|none'", path, ln);
		e = xrealloc(e, (n + 1) * sizeof(*e));
		e[n].text_off = parse_u32(path, ln, a);
		e[n].wasm_off = !strcmp(b, "none") ? ADDRMAP_NONE : parse_u32(path, ln, b);
		if (e[n].wasm_off == ADDRMAP_NONE && strcmp(b, "none"))
			die("%s:%u: 0xffffffff is reserved; write 'none'", path, ln);
		if (n && e[n].text_off <= e[n - 1].text_off)
			die("%s:%u: text offsets must increase", path, ln);
		n++;
	}
	fclose(f);
	*np = n;
	return e;
}

void read_meta(const char *path, struct trap **tp, size_t *ntp, struct callsite **cp,
		      size_t *ncp)
{
	FILE *f = fopen(path, "r");
	char line[512];
	unsigned ln = 0;

	*tp = NULL;
	*cp = NULL;
	*ntp = *ncp = 0;
	if (!f)
		die("%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		char k[32], a[64], b[64], c[64], extra;
		char *s = trim(line);
		int got;

		ln++;
		if (!*s)
			continue;
		got = sscanf(s, "%31s %63s %63s %63s %c", k, a, b, c, &extra);
		if (!strcmp(k, "trap") && got == 3) {
			uint32_t code = parse_u32(path, ln, b);

			if (code > 255)
				die("%s:%u: trap code %u does not fit a byte", path, ln, code);
			*tp = xrealloc(*tp, (*ntp + 1) * sizeof(**tp));
			(*tp)[*ntp].off = parse_u32(path, ln, a);
			(*tp)[*ntp].code = code;
			if (*ntp && (*tp)[*ntp].off <= (*tp)[*ntp - 1].off)
				die("%s:%u: trap offsets must increase", path, ln);
			(*ntp)++;
		} else if (!strcmp(k, "callsite") && got == 4) {
			*cp = xrealloc(*cp, (*ncp + 1) * sizeof(**cp));
			(*cp)[*ncp].ret = parse_u32(path, ln, a);
			(*cp)[*ncp].frame = parse_u32(path, ln, b);
			(*cp)[*ncp].handler = parse_u32(path, ln, c);
			if (*ncp && (*cp)[*ncp].ret <= (*cp)[*ncp - 1].ret)
				die("%s:%u: call site offsets must increase", path, ln);
			(*ncp)++;
		} else {
			die("%s:%u: expected 'trap OFF CODE' or 'callsite RET FRAME HANDLER'", path,
			    ln);
		}
	}
	fclose(f);
}

/*
 * wasmtime's AddressMapSection::push: per function, an entry whose position
 * equals the previous kept entry's (of the same function) is dropped.  The
 * input may list every instruction; the output is what wasmtime stores.
 */
size_t compress_addrmap(const struct obj *o, struct addrmap_entry *e, size_t n)
{
	const struct func *cur = NULL;
	bool have_last = false;
	uint32_t last = 0;
	size_t kept = 0;

	for (size_t i = 0; i < n; i++) {
		const struct func *f = func_at(o, e[i].text_off);

		if (!f)
			die("address map entry at 0x%x is outside every function of %s", e[i].text_off,
			    o->path);
		if (f != cur) {
			cur = f;
			have_last = false;
		}
		if (have_last && e[i].wasm_off == last)
			continue;
		last = e[i].wasm_off;
		have_last = true;
		e[kept++] = e[i];
	}
	return kept;
}

/* SPDX-License-Identifier: MIT */
/* mkcwasm: writes a wasmtime-format .cwasm ELF (test fixture) from an assembled .o, with libelf. */

/*
 * wasmtime cannot be installed where hotblocks is developed, so its test
 * fixtures are built from hand-written code (test-data/wasmtime/hot.S) and
 * laid out as wasmtime lays out its artifact (postproc/FORMATS.md, "The
 * .cwasm file" and "The address map").  The address map is written by the
 * post-processor's own encoder (postproc/annotate/wasmtime/addrmap.c), so these fixtures and
 * its decoder test each other only through the worked example below, which
 * was checked by hand and by an independent Python decoder.  Usage:
 *
 *   mkcwasm --self-test
 *   mkcwasm --extract-addrmap OBJ	  per-instruction address map of OBJ
 *   mkcwasm --extract-meta OBJ		  trap and exception call sites of OBJ
 *   mkcwasm --obj OBJ --addrmap FILE [--meta FILE] --format plain|blocks
 *	     --engine VERSION -o OUT.cwasm
 *
 * OBJ is the assembler's ELF .o: its .text is copied verbatim and its STT_FUNC
 * symbols (already named wasm[0]::function[F]::name etc.) become the
 * artifact's symbols, sorted by address.  hot.S's I/TRAP/CALLSITE macros
 * leave (text offset, value) pairs in the side sections .hb_addrmap,
 * .hb_traps and .hb_callsites, which the --extract modes print as text; the
 * build mode reads those texts back (they are the reviewed fixture tables).
 *
 * Sections, in wasmtime's order (crates/wasmtime/src/compile.rs,
 * crates/cranelift/src/compiler.rs, crates/environ/src/compile/
 * module_artifacts.rs), and file layout as the `object` crate writes it:
 * ELF header, each section's data at its alignment, .symtab, .strtab,
 * .shstrtab, section headers.  .text is aligned to 0x1000 and its size is
 * padded to a page (wasmtime does that so .eh_frame gets its own page).
 * Left out or dummy, because no reader in this project needs them and they
 * cannot be reproduced without wasmtime: .eh_frame (absent), the postcard
 * Metadata after the engine version string (absent), .wasmtime.info (empty).
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../postproc/annotate/wasmtime/addrmap.h"
#include "../../postproc/lib/leb128.h"
#include "../../plugin/lib/byteorder.h"
#include "../../plugin/symbols/elf-defs.h"

#define TEXT_ALIGN		0x1000
#define TRAP_BLOCK_SIZE		128	/* entries per block (trap_encoding.rs) */

static const char *prog = "mkcwasm";

static void __attribute__((noreturn, format(printf, 1, 2))) die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

/* A growable byte buffer: section contents are built in these. */
struct buf {
	unsigned char *data;
	size_t len, cap;
};

static void buf_put(struct buf *b, const void *p, size_t n)
{
	if (!n)
		return;	/* p may be NULL then (an empty buffer) */
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->data = xrealloc(b->data, b->cap);
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

static void buf_u8(struct buf *b, uint8_t v)
{
	buf_put(b, &v, 1);
}

/* All multi-byte integers in wasmtime's metadata sections are little-endian. */
static void buf_u32(struct buf *b, uint32_t v)
{
	unsigned char le[4] = { v, v >> 8, v >> 16, v >> 24 };

	buf_put(b, le, 4);
}

static void buf_uleb(struct buf *b, uint64_t v)
{
	uint8_t leb[LEB128_MAX];

	buf_put(b, leb, leb128_write_u(leb, v));
}

/* ---- the encoders (wasmtime's compile/address_map.rs, compile/trap_encoding.rs) ---- */

/* The address map in either encoding, by the post-processor's encoder. */
static void addrmap(struct buf *out, const struct addrmap_entry *e, size_t n, enum addrmap_format fmt)
{
	uint8_t *p;
	size_t len;

	if (addrmap__encode(e, n, fmt, &p, &len))
		die("cannot encode the address map (%zu entries)", n);
	buf_put(out, p, len);
	free(p);
}

struct trap {
	uint32_t off;
	uint8_t code;
};

/* Plain .wasmtime.traps, wasmtime <= 46: u32 N, u32 offsets[N], u8 codes[N]. */
static void traps_plain(struct buf *out, const struct trap *t, size_t n)
{
	buf_u32(out, n);
	for (size_t i = 0; i < n; i++)
		buf_u32(out, t[i].off);
	for (size_t i = 0; i < n; i++)
		buf_u8(out, t[i].code);
}

/*
 * Block .wasmtime.traps, wasmtime >= 47 (trap_encoding.rs): like the address
 * map's index; each body is the block's most common code, then per entry the
 * uleb token (pc_delta << 1 | differs) and the code byte if it differs.
 * The default code is chosen like wasmtime's most_common_code(): start with
 * the first entry's code and switch whenever a code's running count
 * overtakes the current best's, so ties keep the earlier leader.
 */
static void traps_blocks(struct buf *out, const struct trap *t, size_t n)
{
	size_t nblocks = (n + TRAP_BLOCK_SIZE - 1) / TRAP_BLOCK_SIZE;
	struct buf bodies = { 0 };
	size_t index_at;

	buf_u32(out, n);
	buf_u32(out, nblocks);
	index_at = out->len;
	for (size_t k = 0; k < nblocks; k++) {
		buf_u32(out, 0);
		buf_u32(out, 0);
	}
	for (size_t k = 0; k < nblocks; k++) {
		size_t first = k * TRAP_BLOCK_SIZE;
		size_t end = first + TRAP_BLOCK_SIZE < n ? first + TRAP_BLOCK_SIZE : n;
		unsigned counts[256] = { 0 };
		uint8_t deflt = t[first].code;
		uint32_t prev = t[first].off;

		for (size_t i = first; i < end; i++)
			if (++counts[t[i].code] > counts[deflt])
				deflt = t[i].code;
		put_le32(out->data + index_at + 8 * k, t[first].off);
		put_le32(out->data + index_at + 8 * k + 4, bodies.len);
		buf_u8(&bodies, deflt);
		for (size_t i = first; i < end; i++) {
			bool differs = t[i].code != deflt;

			buf_uleb(&bodies, (uint64_t)(t[i].off - prev) << 1 | differs);
			prev = t[i].off;
			if (differs)
				buf_u8(&bodies, t[i].code);
		}
	}
	buf_put(out, bodies.data, bodies.len);
	free(bodies.data);
}

struct callsite {
	uint32_t ret;		/* return address, text offset */
	uint32_t frame;		/* SP-to-FP offset at the call */
	uint32_t handler;	/* default (catch-all) handler, text offset */
};

/*
 * .wasmtime.exceptions (crates/unwinder/src/exception_table.rs): u32
 * callsite count, u32 handler count, then callsites[], frame_offsets[],
 * ranges[] (exclusive end index), tags[], contexts[], handlers[].  Our call
 * sites each have one default handler: tag and context u32::MAX.
 */
static void exceptions(struct buf *out, const struct callsite *c, size_t n)
{
	buf_u32(out, n);
	buf_u32(out, n);
	for (size_t i = 0; i < n; i++)
		buf_u32(out, c[i].ret);
	for (size_t i = 0; i < n; i++)
		buf_u32(out, c[i].frame);
	for (size_t i = 0; i < n; i++)
		buf_u32(out, i + 1);
	for (size_t i = 0; i < n; i++)
		buf_u32(out, UINT32_MAX);
	for (size_t i = 0; i < n; i++)
		buf_u32(out, UINT32_MAX);
	for (size_t i = 0; i < n; i++)
		buf_u32(out, c[i].handler);
}

/* ---- self-test: the worked examples of postproc/FORMATS.md ---- */

static int passed, failed;

static void same_bytes(const char *what, const struct buf *got, const unsigned char *want,
		       size_t n)
{
	if (got->len == n && !memcmp(got->data, want, n)) {
		printf("ok   %s (%zu bytes)\n", what, n);
		passed++;
		return;
	}
	printf("FAIL %s: got %zu bytes:", what, got->len);
	for (size_t i = 0; i < got->len; i++)
		printf(" %02x", got->data[i]);
	printf("\n     want %zu bytes:", n);
	for (size_t i = 0; i < n; i++)
		printf(" %02x", want[i]);
	printf("\n");
	failed++;
}

static int self_test(void)
{
	static const struct addrmap_entry ex[] = {
		{ 0x40, 0x2a }, { 0x44, ADDRMAP_NONE }, { 0x47, 0x2c }, { 0x50, 0x29 },
	};
	static const unsigned char want_blocks[23] = {
		0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
		0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x2a, 0x09, 0x06, 0x02, 0x12, 0x7d,
	};
	static const unsigned char want_plain[36] = {
		0x04, 0x00, 0x00, 0x00,
		0x40, 0x00, 0x00, 0x00, 0x44, 0x00, 0x00, 0x00,
		0x47, 0x00, 0x00, 0x00, 0x50, 0x00, 0x00, 0x00,
		0x2a, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
		0x2c, 0x00, 0x00, 0x00, 0x29, 0x00, 0x00, 0x00,
	};
	static const unsigned char want_empty[8] = { 0 };
	/* Two traps with different codes: a tie keeps the first entry's code. */
	static const struct trap tr[] = { { 0x78, 0 }, { 0x90, 1 } };
	static const unsigned char want_traps[] = {
		0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
		0x78, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x31, 0x01,
	};
	static const unsigned char want_leb[] = { 0x2a, 0xdc, 0x81, 0x04 };
	struct buf b = { 0 };

	addrmap(&b, ex, 4, ADDRMAP_BLOCKS);
	same_bytes("addrmap block encoding, the worked example", &b, want_blocks,
		   sizeof(want_blocks));
	b.len = 0;
	addrmap(&b, ex, 4, ADDRMAP_PLAIN);
	same_bytes("addrmap plain encoding, the worked example", &b, want_plain,
		   sizeof(want_plain));
	b.len = 0;
	addrmap(&b, NULL, 0, ADDRMAP_BLOCKS);
	same_bytes("empty block address map", &b, want_empty, sizeof(want_empty));
	b.len = 0;
	traps_blocks(&b, tr, 2);
	same_bytes("trap block encoding", &b, want_traps, sizeof(want_traps));
	b.len = 0;
	buf_uleb(&b, 0x2a);
	buf_uleb(&b, 0x100dc);
	same_bytes("leb128", &b, want_leb, sizeof(want_leb));
	free(b.data);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

/* ---- reading the assembler's object ---- */

struct func {
	char *name;
	uint32_t off, size;
};

struct obj {
	const char *path;
	int fd;
	Elf *elf;
	unsigned char *text;
	size_t text_size;
	size_t text_shndx;
	struct func *funcs;
	size_t nfuncs;
};

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

static void obj_open(struct obj *o, const char *path)
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

static const struct func *func_at(const struct obj *o, uint32_t off)
{
	for (size_t i = 0; i < o->nfuncs; i++)
		if (off >= o->funcs[i].off && off < o->funcs[i].off + o->funcs[i].size)
			return &o->funcs[i];
	return NULL;
}

static int extract_addrmap(const char *path)
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

static int extract_meta(const char *path)
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

static struct addrmap_entry *read_addrmap(const char *path, size_t *np)
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

static void read_meta(const char *path, struct trap **tp, size_t *ntp, struct callsite **cp,
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
static size_t compress_addrmap(const struct obj *o, struct addrmap_entry *e, size_t n)
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

/* ---- writing the artifact ---- */

struct outsec {
	const char *name;
	Elf64_Word type;
	Elf64_Xword flags, align, entsize;
	Elf64_Word link, info;
	struct buf data;
	size_t name_off;
	Elf64_Off offset;
};

static size_t align_up(size_t v, size_t a)
{
	return (v + a - 1) / a * a;
}

/* The name-section names, in function-index order, from the symbol names
 * wasm[0]::function[F]::NAME (clean(NAME) == NAME for this fixture). */
static void name_wasm(struct buf *out, const struct obj *o)
{
	for (size_t i = 0; i < o->nfuncs; i++) {
		const char *p = o->funcs[i].name, *sep;

		if (strncmp(p, "wasm[0]::function[", 18))
			continue;
		sep = strstr(p + 18, "]::");
		if (sep)
			buf_put(out, sep + 3, strlen(sep + 3));
	}
}

static void write_cwasm(const char *out_path, struct obj *o, struct outsec *secs, size_t nsecs)
{
	struct outsec symtab = { .name = ".symtab", .type = SHT_SYMTAB, .align = 8,
				 .entsize = sizeof(Elf64_Sym) };
	struct outsec strtab = { .name = ".strtab", .type = SHT_STRTAB, .align = 1 };
	struct outsec shstrtab = { .name = ".shstrtab", .type = SHT_STRTAB, .align = 1 };
	struct outsec *all[32];
	size_t nall = 0, text_index = 0, off;
	Elf64_Sym sym;
	Elf64_Ehdr *eh;
	Elf *elf;
	int fd;

	for (size_t i = 0; i < nsecs; i++) {
		all[nall++] = &secs[i];
		if (!strcmp(secs[i].name, ".text"))
			text_index = nall;	/* section index: null is 0 */
	}
	all[nall++] = &symtab;
	all[nall++] = &strtab;
	all[nall++] = &shstrtab;

	/* Strings in symbol order, no suffix sharing (`object` may share
	 * suffixes; readers never depend on it). */
	buf_u8(&strtab.data, 0);
	memset(&sym, 0, sizeof(sym));
	buf_put(&symtab.data, &sym, sizeof(sym));
	for (size_t i = 0; i < o->nfuncs; i++) {
		memset(&sym, 0, sizeof(sym));
		sym.st_name = strtab.data.len;
		sym.st_info = ELF64_ST_INFO(STB_LOCAL, STT_FUNC);
		sym.st_other = STV_DEFAULT;
		sym.st_shndx = text_index;
		sym.st_value = o->funcs[i].off;
		sym.st_size = o->funcs[i].size;
		buf_put(&symtab.data, &sym, sizeof(sym));
		buf_put(&strtab.data, o->funcs[i].name, strlen(o->funcs[i].name) + 1);
	}
	symtab.info = 1 + o->nfuncs;	/* every symbol is local */
	symtab.link = nall - 1;		/* .strtab: second to last */
	buf_u8(&shstrtab.data, 0);
	for (size_t i = 0; i < nall; i++) {
		all[i]->name_off = shstrtab.data.len;
		buf_put(&shstrtab.data, all[i]->name, strlen(all[i]->name) + 1);
	}

	off = sizeof(Elf64_Ehdr);
	for (size_t i = 0; i < nall; i++) {
		off = align_up(off, all[i]->align ? all[i]->align : 1);
		all[i]->offset = off;
		off += all[i]->data.len;
	}

	fd = open(out_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		die("%s: %s", out_path, strerror(errno));
	elf = elf_begin(fd, ELF_C_WRITE, NULL);
	if (!elf || !(eh = elf64_newehdr(elf)))
		die("%s: %s", out_path, elf_errmsg(-1));
	/* The layout is ours (the object crate's), not libelf's. */
	elf_flagelf(elf, ELF_C_SET, ELF_F_LAYOUT);
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_OSABI] = ELFOSABI_WASMTIME;
	eh->e_ident[EI_ABIVERSION] = 0;
	eh->e_type = ET_REL;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_flags = EF_WASMTIME_MODULE;
	eh->e_shoff = align_up(off, 8);
	eh->e_shstrndx = nall;
	for (size_t i = 0; i < nall; i++) {
		Elf_Scn *scn = elf_newscn(elf);
		Elf64_Shdr *sh;
		Elf_Data *d;

		if (!scn || !(sh = elf64_getshdr(scn)) || !(d = elf_newdata(scn)))
			die("%s: %s", out_path, elf_errmsg(-1));
		d->d_buf = all[i]->data.data;
		d->d_size = all[i]->data.len;
		d->d_type = ELF_T_BYTE;
		d->d_align = 1;
		d->d_off = 0;
		d->d_version = EV_CURRENT;
		sh->sh_name = all[i]->name_off;
		sh->sh_type = all[i]->type;
		sh->sh_flags = all[i]->flags;
		sh->sh_offset = all[i]->offset;
		sh->sh_size = all[i]->data.len;
		sh->sh_link = all[i]->link;
		sh->sh_info = all[i]->info;
		sh->sh_addralign = all[i]->align;
		sh->sh_entsize = all[i]->entsize;
	}
	if (elf_update(elf, ELF_C_WRITE) < 0)
		die("%s: %s", out_path, elf_errmsg(-1));
	elf_end(elf);
	if (close(fd) < 0)
		die("%s: %s", out_path, strerror(errno));
	free(symtab.data.data);
	free(strtab.data.data);
	free(shstrtab.data.data);
}

static void __attribute__((noreturn)) usage(void)
{
	fprintf(stderr,
		"usage: %s --self-test\n"
		"       %s --extract-addrmap OBJ | --extract-meta OBJ\n"
		"       %s --obj OBJ --addrmap FILE [--meta FILE] --format plain|blocks\n"
		"               --engine VERSION -o OUT.cwasm\n",
		prog, prog, prog);
	exit(2);
}

int main(int argc, char **argv)
{
	const char *obj_path = NULL, *addrmap_path = NULL, *meta_path = NULL;
	const char *format = NULL, *engine = NULL, *out = NULL;
	struct trap *traps = NULL;
	struct callsite *calls = NULL;
	size_t ntraps = 0, ncalls = 0, nmap;
	struct addrmap_entry *map;
	struct outsec secs[16];
	size_t nsecs = 0;
	bool blocks;
	struct obj o;

	if (elf_version(EV_CURRENT) == EV_NONE)
		die("libelf: %s", elf_errmsg(-1));
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--self-test"))
			return self_test();
		if (!strcmp(a, "--extract-addrmap") && i + 1 < argc)
			return extract_addrmap(argv[i + 1]);
		if (!strcmp(a, "--extract-meta") && i + 1 < argc)
			return extract_meta(argv[i + 1]);
		if (i + 1 >= argc)
			usage();
		if (!strcmp(a, "--obj"))
			obj_path = argv[++i];
		else if (!strcmp(a, "--addrmap"))
			addrmap_path = argv[++i];
		else if (!strcmp(a, "--meta"))
			meta_path = argv[++i];
		else if (!strcmp(a, "--format"))
			format = argv[++i];
		else if (!strcmp(a, "--engine"))
			engine = argv[++i];
		else if (!strcmp(a, "-o"))
			out = argv[++i];
		else
			usage();
	}
	if (!obj_path || !addrmap_path || !format || !engine || !out)
		usage();
	if (strcmp(format, "plain") && strcmp(format, "blocks"))
		die("--format must be plain (wasmtime <= 46) or blocks (>= 47)");
	blocks = !strcmp(format, "blocks");
	if (strlen(engine) > 255)
		die("--engine: version string longer than 255 bytes");

	obj_open(&o, obj_path);
	map = read_addrmap(addrmap_path, &nmap);
	nmap = compress_addrmap(&o, map, nmap);
	if (meta_path)
		read_meta(meta_path, &traps, &ntraps, &calls, &ncalls);
	for (size_t i = 0; i < ntraps; i++)
		if (!func_at(&o, traps[i].off))
			die("trap at 0x%x is outside every function", traps[i].off);
	for (size_t i = 0; i < ncalls; i++)
		if (!func_at(&o, calls[i].ret) || !func_at(&o, calls[i].handler))
			die("call site 0x%x / handler 0x%x outside every function", calls[i].ret,
			    calls[i].handler);

	memset(secs, 0, sizeof(secs));
#define SEC(n, t, f, a) (secs[nsecs] = (struct outsec){ .name = (n), .type = (t), \
				.flags = (f), .align = (a) }, &secs[nsecs++])
	{
		struct outsec *s;

		/* byte 0: format version 0; byte 1: length; then the version
		 * string.  wasmtime appends postcard Metadata: left out. */
		s = SEC(".wasmtime.engine", SHT_PROGBITS, SHF_ALLOC, 1);
		buf_u8(&s->data, 0);
		buf_u8(&s->data, strlen(engine));
		buf_put(&s->data, engine, strlen(engine));

		s = SEC(".wasmtime.bti", SHT_PROGBITS, SHF_ALLOC, 1);
		buf_u8(&s->data, 0);	/* no branch protection on x86-64 */

		s = SEC(".text", SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, TEXT_ALIGN);
		buf_put(&s->data, o.text, o.text_size);
		while (s->data.len % TEXT_ALIGN)
			buf_u8(&s->data, 0);

		s = SEC(".wasmtime.addrmap", SHT_PROGBITS, SHF_ALLOC, 1);
		addrmap(&s->data, map, nmap, blocks ? ADDRMAP_BLOCKS : ADDRMAP_PLAIN);

		/* No .wasmtime.stackmap: wasmtime omits it when no function
		 * has GC references. */
		s = SEC(".wasmtime.traps", SHT_PROGBITS, SHF_ALLOC, 1);
		if (blocks)
			traps_blocks(&s->data, traps, ntraps);
		else
			traps_plain(&s->data, traps, ntraps);

		s = SEC(".wasmtime.exceptions", SHT_PROGBITS, SHF_ALLOC, 1);
		exceptions(&s->data, calls, ncalls);

		/* Data segments: the module has none, the section is still there. */
		SEC(".rodata.wasm", SHT_PROGBITS, SHF_ALLOC, 1);

		s = SEC(".name.wasm", SHT_PROGBITS, SHF_ALLOC, 1);
		name_wasm(&s->data, &o);

		/* postcard (CompiledModuleInfo, CompiledFunctionsTable,
		 * ModuleTypes): Rust-internal, left empty (dummy). */
		SEC(".wasmtime.info", SHT_PROGBITS, SHF_ALLOC, 1);
	}
#undef SEC
	write_cwasm(out, &o, secs, nsecs);
	printf("%s: %zu functions, .text 0x%zx bytes, %zu address map entries (%s), "
	       "%zu traps, %zu call sites, engine \"%s\"\n",
	       out, o.nfuncs, align_up(o.text_size, TEXT_ALIGN), nmap, format, ntraps, ncalls,
	       engine);
	return 0;
}

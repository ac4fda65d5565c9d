/* SPDX-License-Identifier: MIT */
/*
 * cwasm-stream: the annotated stream (plugin/STREAM.md) that perf and the
 * plugin would write for a run of a wasmtime .cwasm compiled for another
 * architecture, which no machine here can run: its functions as `cwasm`
 * objects (file-backed code, as with wasmtime's --profile=perfmap), their
 * code bytes from the file, and samples on instructions only.
 *
 *   cwasm-stream [--sample SYMBOL+0xOFF]... CWASM DSO [FUNCTION...]
 *
 * FUNCTION is an ELF symbol of CWASM (wasm[0]::function[2]::far_loop) or the
 * name after its last "::" (far_loop); none: every function. DSO is the path
 * written as the objects' dso (where the .cwasm was mapped).
 *
 * Where the samples go: perf samples the address of an instruction the CPU
 * retired, never data, so every sample lies on an instruction start that
 * wasmtime itself recorded: each function's first byte and the text offset of
 * every .wasmtime.addrmap entry inside it (wasmtime writes an entry where the
 * wasm instruction of the code changes: at an instruction boundary, and never
 * inside a jump table, which belongs to its br_table's instructions). An
 * entry at k-th place in its function gets 1 + (k * 5 + 3) % 7 samples, the
 * first byte 2: fixed, uneven counts, so that blocks rank differently.
 * --sample adds 4 samples at SYMBOL+OFF (which the caller checked to be an
 * instruction start, e.g. with llvm-objdump). Each sample has the period of
 * perf record -e cpu-clock -F 1999 (500250 ns).
 *
 * The mapping: the file at MAP_BASE, so a symbol's run-time address is
 * MAP_BASE + its file offset (.text's offset + st_value), which is also the
 * sym-start the plugin writes (the symbol's place in the file's own address
 * space).
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

#define MAP_BASE UINT64_C(0x7f3a40000000)
#define PERIOD UINT64_C(500250)
#define PID 4242

struct func {
	const char *name;
	uint64_t value, size;
	uint64_t *offs, *counts;	/* samples, by offset */
	size_t nr;
};

struct extra {
	const char *symbol;
	uint64_t off;
};

static void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

static void die(const char *fmt, ...)
{
	va_list ap;

	fputs("cwasm-stream: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

static int by_value(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	return x->value < y->value ? -1 : x->value > y->value;
}

static bool wanted(const char *sym, char **names, int nr)
{
	const char *tail = strrchr(sym, ':');

	if (!nr)
		return true;
	tail = tail ? tail + 1 : sym;
	for (int k = 0; k < nr; k++)
		if (!strcmp(names[k], sym) || !strcmp(names[k], tail))
			return true;
	return false;
}

/* Add n samples at off of f, keeping offsets sorted and unique (the address
 * map's entries come in order: appended in constant time). */
static void add_sample(struct func *f, uint64_t off, uint64_t n)
{
	size_t k = f->nr;

	while (k && f->offs[k - 1] >= off)
		k--;
	if (k < f->nr && f->offs[k] == off) {
		f->counts[k] += n;
		return;
	}
	f->offs = realloc(f->offs, (f->nr + 1) * sizeof(*f->offs));
	f->counts = realloc(f->counts, (f->nr + 1) * sizeof(*f->counts));
	if (!f->offs || !f->counts)
		die("out of memory");
	memmove(f->offs + k + 1, f->offs + k, (f->nr - k) * sizeof(*f->offs));
	memmove(f->counts + k + 1, f->counts + k, (f->nr - k) * sizeof(*f->counts));
	f->offs[k] = off;
	f->counts[k] = n;
	f->nr++;
}

/* The stream's string encoding: no space, ASCII only, % escaped. */
static void put_string(const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c <= 0x20 || c >= 0x7f || c == '%')
			printf("%%%02X", c);
		else
			putchar(c);
	}
}

/* --sample SYMBOL+0xOFF ...: into *extras; returns the first other argument. */
static int parse_samples(int argc, char **argv, struct extra **extras, size_t *nextras)
{
	int argi = 1;

	while (argi + 1 < argc && !strcmp(argv[argi], "--sample")) {
		char *plus = strrchr(argv[argi + 1], '+'), *end;

		if (!plus)
			die("--sample %s: not SYMBOL+0xOFF", argv[argi + 1]);
		*extras = realloc(*extras, (*nextras + 1) * sizeof(**extras));
		if (!*extras)
			die("out of memory");
		*plus = '\0';
		(*extras)[*nextras].symbol = argv[argi + 1];
		(*extras)[*nextras].off = strtoull(plus + 1, &end, 0);
		if (*end || end == plus + 1)
			die("--sample %s+%s: not SYMBOL+0xOFF", argv[argi + 1], plus + 1);
		(*nextras)++;
		argi += 2;
	}
	return argi;
}

/* What is read of the .cwasm. */
struct cwasm_file {
	const char *path;
	int fd;
	Elf *elf;
	GElf_Ehdr eh;
	Elf_Scn *symtab, *text;
	GElf_Shdr text_sh;
	const uint8_t *code;		/* .text */
	size_t text_size;
	struct addrmap_entry *entries;
	size_t nentries;
};

static void open_cwasm(struct cwasm_file *cf, const char *path)
{
	Elf_Scn *scn = NULL, *amap = NULL;
	GElf_Shdr amap_sh = { 0 };
	size_t shstrndx;
	char err[256];
	Elf_Data *d;

	cf->path = path;
	elf_version(EV_CURRENT);
	cf->fd = open(path, O_RDONLY);
	if (cf->fd < 0)
		die("%s: %s", path, strerror(errno));
	cf->elf = elf_begin(cf->fd, ELF_C_READ, NULL);
	if (!cf->elf || !gelf_getehdr(cf->elf, &cf->eh) || elf_getshdrstrndx(cf->elf, &shstrndx))
		die("%s: not an ELF file: %s", path, elf_errmsg(-1));
	while ((scn = elf_nextscn(cf->elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh) || !(name = elf_strptr(cf->elf, shstrndx, sh.sh_name)))
			continue;
		if (sh.sh_type == SHT_SYMTAB)
			cf->symtab = scn;
		else if (!strcmp(name, ".text"))
			cf->text = scn, cf->text_sh = sh;
		else if (!strcmp(name, ".wasmtime.addrmap"))
			amap = scn, amap_sh = sh;
	}
	if (!cf->symtab || !cf->text || !amap)
		die("%s: no .symtab, .text or .wasmtime.addrmap (compile with -D address-map=y)",
		    path);
	d = elf_rawdata(cf->text, NULL);
	if (!d || d->d_size != cf->text_sh.sh_size)
		die("%s: cannot read .text", path);
	cf->code = d->d_buf;
	cf->text_size = d->d_size;
	d = elf_rawdata(amap, NULL);
	if (!d || addrmap__decode_at(d->d_buf, d->d_size, amap_sh.sh_offset, -1, path,
				     &cf->entries, &cf->nentries, NULL, err, sizeof(err)))
		die("%s", d ? err : "cannot read .wasmtime.addrmap");
}

/* The functions asked for: STT_FUNC symbols of .text with a size, by address. */
static struct func *read_funcs(const struct cwasm_file *cf, char **names, int nr, size_t *nfuncs)
{
	Elf_Data *d = elf_getdata(cf->symtab, NULL);
	struct func *funcs = NULL;
	GElf_Shdr sh;
	size_t n;

	*nfuncs = 0;
	gelf_getshdr(cf->symtab, &sh);
	n = sh.sh_entsize ? sh.sh_size / sh.sh_entsize : 0;
	for (size_t k = 0; d && k < n; k++) {
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(d, (int)k, &sym) || GELF_ST_TYPE(sym.st_info) != STT_FUNC ||
		    !sym.st_size || sym.st_shndx != elf_ndxscn(cf->text) ||
		    sym.st_value + sym.st_size > cf->text_size)
			continue;
		name = elf_strptr(cf->elf, sh.sh_link, sym.st_name);
		if (!name || !wanted(name, names, nr))
			continue;
		funcs = realloc(funcs, (*nfuncs + 1) * sizeof(*funcs));
		if (!funcs)
			die("out of memory");
		funcs[(*nfuncs)++] = (struct func){ name, sym.st_value, sym.st_size, NULL, NULL, 0 };
	}
	if (!*nfuncs)
		die("%s: none of the functions asked for", cf->path);
	qsort(funcs, *nfuncs, sizeof(*funcs), by_value);
	return funcs;
}

/* Each function's samples: its first byte, its address map entries, the extras. */
static void place_samples(const struct cwasm_file *cf, struct func *funcs, size_t nfuncs,
			  const struct extra *extras, size_t nextras)
{
	for (size_t i = 0; i < nfuncs; i++) {
		struct func *f = &funcs[i];
		size_t k = 0;

		add_sample(f, 0, 2);
		for (size_t e = 0; e < cf->nentries; e++) {
			uint64_t t = cf->entries[e].text_off;

			if (t < f->value || t >= f->value + f->size)
				continue;
			add_sample(f, t - f->value, 1 + (k * 5 + 3) % 7);
			k++;
		}
	}
	for (size_t x = 0; x < nextras; x++) {
		size_t i = 0;

		while (i < nfuncs && strcmp(funcs[i].name, extras[x].symbol))
			i++;
		if (i == nfuncs || extras[x].off >= funcs[i].size)
			die("--sample %s+0x%" PRIx64 ": not inside a function written", extras[x].symbol,
			    extras[x].off);
		add_sample(&funcs[i], extras[x].off, 4);
	}
}

static void write_stream(const struct cwasm_file *cf, const char *dso, const struct func *funcs,
			 size_t nfuncs)
{
	uint64_t total = 0;

	for (size_t i = 0; i < nfuncs; i++)
		for (size_t k = 0; k < funcs[i].nr; k++)
			total += funcs[i].counts[k];
	printf("hotblocks-stream 1\nproducer cwasm-stream/1\ninput -\ntime-aware yes\n"
	       "event 0 cpu-clock\n");
	printf("total 0 all %" PRIu64 " %" PRIu64 "\n", total, total * PERIOD);
	printf("total 0 native %" PRIu64 " %" PRIu64 "\n", total, total * PERIOD);
	for (size_t i = 0; i < nfuncs; i++) {
		uint64_t start = cf->text_sh.sh_offset + funcs[i].value;

		printf("object %zu cwasm pid=%d e_machine=%u addr=0x%" PRIx64 " size=%" PRIu64 " dso=",
		       i, PID, cf->eh.e_machine, MAP_BASE + start, funcs[i].size);
		put_string(dso);
		printf(" sym-start=0x%" PRIx64 " name=", start);
		put_string(funcs[i].name);
		putchar('\n');
	}
	for (size_t i = 0; i < nfuncs; i++)
		for (uint64_t off = 0; off < funcs[i].size; off += 64) {
			printf("code %zu 0x%" PRIx64 " ", i, off);
			for (uint64_t b = off; b < off + 64 && b < funcs[i].size; b++)
				printf("%02x", cf->code[funcs[i].value + b]);
			putchar('\n');
		}
	for (size_t i = 0; i < nfuncs; i++)
		for (size_t k = 0; k < funcs[i].nr; k++)
			printf("sample %zu 0 0x%" PRIx64 " %" PRIu64 " %" PRIu64 "\n", i, funcs[i].offs[k],
			       funcs[i].counts[k], funcs[i].counts[k] * PERIOD);
	printf("end\n");
}

int main(int argc, char **argv)
{
	struct cwasm_file cf = { 0 };
	struct extra *extras = NULL;
	size_t nextras = 0, nfuncs;
	struct func *funcs;
	int argi = parse_samples(argc, argv, &extras, &nextras);

	if (argc - argi < 2)
		die("usage: cwasm-stream [--sample SYMBOL+0xOFF]... CWASM DSO [FUNCTION...]");
	open_cwasm(&cf, argv[argi]);
	funcs = read_funcs(&cf, argv + argi + 2, argc - argi - 2, &nfuncs);
	place_samples(&cf, funcs, nfuncs, extras, nextras);
	write_stream(&cf, argv[argi + 1], funcs, nfuncs);
	elf_end(cf.elf);
	close(cf.fd);
	return ferror(stdout) || fflush(stdout) ? 1 : 0;
}

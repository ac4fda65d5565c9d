/* SPDX-License-Identifier: MIT */
/*
 * Driver of scripts/bench-scaling for native code: bigger recordings made of
 * a real one, and ELF files of many symbols.
 *   bench-natives repeat IN OUT K [EXTRA]   write OUT, a pipe-format perf.data
 *        holding IN's records (a file-format perf.data, this machine's byte
 *        order, no compressed records) with its samples K times (each copy
 *        later by IN's time span, FINISHED_ROUND records in between, as perf
 *        record writes them); with EXTRA, every process of IN also maps that
 *        file (at an address no sample is at): a file mapped, never sampled.
 *   bench-natives mkelf N FILE   write an ELF shared object of N functions
 *        (16 bytes each, ret), its .symtab in a shuffled order
 *   bench-natives index FILE M   time the plugin's symbol index of FILE
 *        (elfsyms__open) and M lookups across its text; print "<seconds>"
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "symbols/elfsyms.h"

#define REC_SAMPLE 9
#define REC_MMAP2 10
#define REC_HEADER_ATTR 64
#define REC_FINISHED_ROUND 68
#define REC_HEADER_BUILD_ID 67
#define ROUND 4096

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t u64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return v;
}

static uint32_t u32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return v;
}

static void put_header(FILE *f, uint32_t type, uint16_t misc, uint16_t size)
{
	fwrite(&type, 4, 1, f);
	fwrite(&misc, 2, 1, f);
	fwrite(&size, 2, 1, f);
}

/* A file-format perf.data mapped, as repeat() copies it. */
struct recording {
	const uint8_t *b;
	uint64_t data_off, data_size;
	size_t time_off;	/* of a sample's time */
	uint64_t t_min, t_max;	/* the samples' times */
	uint32_t pids[256];	/* the sampled processes (the first 256) */
	size_t npids;
};

/* The attrs of the file header, as pipe mode's HEADER_ATTR records. */
static void write_attrs(FILE *f, const uint8_t *b)
{
	uint64_t attr_size = u64(b + 16), attrs_off = u64(b + 24), attrs_size = u64(b + 32);

	for (uint64_t a = attrs_off; a + attr_size <= attrs_off + attrs_size; a += attr_size) {
		uint64_t asz = attr_size - 16, ids = u64(b + a + asz), idsz = u64(b + a + asz + 8);

		put_header(f, REC_HEADER_ATTR, 0, (uint16_t)(8 + asz + idsz));
		fwrite(b + a, asz, 1, f);
		fwrite(b + ids, idsz, 1, f);
	}
}

/* Every record once, as it is; the samples' times and processes noted in r. */
static void write_records(FILE *f, struct recording *r)
{
	const uint8_t *b = r->b;

	for (uint64_t o = r->data_off; o < r->data_off + r->data_size; o += *(const uint16_t *)(b + o + 6)) {
		uint32_t type = u32(b + o);
		uint16_t size = *(const uint16_t *)(b + o + 6);

		if (type == REC_SAMPLE) {
			uint64_t t = u64(b + o + r->time_off);

			r->t_min = t < r->t_min ? t : r->t_min;
			r->t_max = t > r->t_max ? t : r->t_max;
			if (r->npids < 256) {
				uint32_t pid = u32(b + o + r->time_off - 8);
				size_t i;

				for (i = 0; i < r->npids && r->pids[i] != pid; i++)
					;
				if (i == r->npids)
					r->pids[r->npids++] = pid;
			}
		}
		fwrite(b + o, size, 1, f);
		if (!size)
			break;
	}
}

/* The file mapped, never sampled: before the copies, in every sampled process. */
static int write_extra_mmaps(FILE *f, const struct recording *r, const char *extra)
{
	for (size_t i = 0; extra && i < r->npids; i++) {
		size_t nl = strlen(extra) + 1, pad = (nl + 7) & ~7ULL;
		uint8_t rec[512] = { 0 };
		uint16_t size = (uint16_t)(8 + 64 + pad + 16);
		uint64_t tm = r->t_min;

		if (pad > 400)
			return -EINVAL;
		put_header(f, REC_MMAP2, PERF_RECORD_MISC_USER, size);
		memcpy(rec, &r->pids[i], 4);
		memcpy(rec + 4, &r->pids[i], 4);
		memcpy(rec + 8, &(uint64_t){ 0x100000000000ULL }, 8);
		memcpy(rec + 16, &(uint64_t){ 0x10000000 }, 8);
		memcpy(rec + 56, &(uint32_t){ PROT_READ | PROT_EXEC }, 4);
		memcpy(rec + 60, &(uint32_t){ MAP_PRIVATE }, 4);
		memcpy(rec + 64, extra, nl);
		fwrite(rec, 64 + pad, 1, f);
		/* sample_id: TID, TIME (the recordings here lay out no more) */
		fwrite(&r->pids[i], 4, 1, f);
		fwrite(&r->pids[i], 4, 1, f);
		fwrite(&tm, 8, 1, f);
	}
	return 0;
}

/* The samples k - 1 times more, each copy later by the recording's time span. */
static void write_copies(FILE *f, const struct recording *r, long k)
{
	const uint8_t *b = r->b;

	for (long c = 1; c < k; c++) {
		uint64_t shift = (uint64_t)c * (r->t_max - r->t_min + 1);
		long n = 0;

		for (uint64_t o = r->data_off; o < r->data_off + r->data_size; o += *(const uint16_t *)(b + o + 6)) {
			uint16_t size = *(const uint16_t *)(b + o + 6);
			uint8_t rec[65536];
			uint64_t t;

			if (!size)
				break;
			if (u32(b + o) != REC_SAMPLE)
				continue;
			memcpy(rec, b + o, size);
			t = u64(rec + r->time_off) + shift;
			memcpy(rec + r->time_off, &t, 8);
			fwrite(rec, size, 1, f);
			if (++n % ROUND == 0)
				put_header(f, REC_FINISHED_ROUND, 0, 8);
		}
		put_header(f, REC_FINISHED_ROUND, 0, 8);
	}
}

/* The build-ids of the feature section (bit 2), as pipe mode's records. */
static void write_build_ids(FILE *f, const struct recording *r)
{
	const uint8_t *b = r->b;

	if (u64(b + 72) & 4) {
		uint64_t sec = r->data_off + r->data_size + 16 * (uint64_t)__builtin_popcountll(u64(b + 72) & 3);
		uint64_t off = u64(b + sec), size = u64(b + sec + 8);

		for (uint64_t o = off; o + 8 <= off + size;) {
			uint16_t rs = *(const uint16_t *)(b + o + 6);

			if (rs < 8)
				break;
			put_header(f, REC_HEADER_BUILD_ID, *(const uint16_t *)(b + o + 4), rs);
			fwrite(b + o + 8, rs - 8, 1, f);
			o += rs;
		}
	}
}

static int repeat(const char *in, const char *out, long k, const char *extra)
{
	int fd = open(in, O_RDONLY);
	struct stat st;
	struct recording r = { .t_min = UINT64_MAX };
	uint64_t sample_type;
	FILE *f;

	if (fd < 0 || fstat(fd, &st) < 0 ||
	    (r.b = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED)
		return -errno;
	if (memcmp(r.b, "PERFILE2", 8) || u64(r.b + 8) < 104)
		return -EINVAL;
	r.data_off = u64(r.b + 40);
	r.data_size = u64(r.b + 48);
	sample_type = u64(r.b + u64(r.b + 24) + 24);
	/* IDENTIFIER, IP, TID come before TIME in a sample */
	r.time_off = 8 + 8 * !!(sample_type & PERF_SAMPLE_IDENTIFIER) + 8 * !!(sample_type & PERF_SAMPLE_IP) +
		     8 * !!(sample_type & PERF_SAMPLE_TID);
	if (!(sample_type & PERF_SAMPLE_TIME) || !(f = fopen(out, "w")))
		return -EINVAL;
	fwrite("PERFILE2", 8, 1, f);
	fwrite(&(uint64_t){ 16 }, 8, 1, f);
	write_attrs(f, r.b);
	write_records(f, &r);
	if (write_extra_mmaps(f, &r, extra) < 0)
		return -EINVAL;
	write_copies(f, &r, k);
	write_build_ids(f, &r);
	return fclose(f) ? -EIO : 0;
}

/* n functions fn_<i> of 16 bytes from 0x1000, in a shuffled order: the
 * .symtab (syms[0] the null symbol) and its string table of *strsz bytes. */
static int make_symbols(long n, Elf64_Sym **syms, char **strs, size_t *strsz)
{
	long *order = malloc((size_t)n * sizeof(*order));

	*syms = calloc((size_t)n + 1, sizeof(**syms));
	*strs = malloc((size_t)n * 16 + 1);
	if (!*syms || !*strs || !order)
		return -ENOMEM;
	(*strs)[0] = 0;
	*strsz = 1;
	for (long i = 0; i < n; i++)
		order[i] = i;
	srand(7);
	for (long i = n - 1; i > 0; i--) {
		long j = rand() % (i + 1), x = order[i];

		order[i] = order[j];
		order[j] = x;
	}
	for (long i = 0; i < n; i++) {
		long f = order[i];
		int len = sprintf(*strs + *strsz, "fn_%ld", f);

		(*syms)[i + 1] = (Elf64_Sym){ .st_name = (Elf64_Word)*strsz,
					      .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), .st_shndx = 1,
					      .st_value = 0x1000 + (uint64_t)f * 16, .st_size = 16 };
		*strsz += (size_t)len + 1;
	}
	return 0;
}

/* The sections of mkelf's file, in order, and their sizes. */
struct sections {
	Elf_Scn *text, *symtab, *strtab, *shstr;
	size_t textsz, symsz, strsz, shstrsz;
};

/* Their headers, and the file laid out: text at file offset 0x1000, address
 * 0x1000, the tables after it, the section headers last. */
static void lay_out(Elf *e, Elf64_Ehdr *eh, const struct sections *s)
{
	Elf64_Shdr *sh = elf64_getshdr(s->text);
	size_t off;

	sh->sh_name = 1, sh->sh_type = SHT_PROGBITS, sh->sh_flags = SHF_ALLOC | SHF_EXECINSTR, sh->sh_addr = 0x1000;
	sh->sh_addralign = 16;
	sh = elf64_getshdr(s->symtab);
	sh->sh_name = 7, sh->sh_type = SHT_SYMTAB, sh->sh_link = 3, sh->sh_info = 1, sh->sh_entsize = sizeof(Elf64_Sym);
	sh->sh_addralign = 8;
	sh = elf64_getshdr(s->strtab);
	sh->sh_name = 15, sh->sh_type = SHT_STRTAB, sh->sh_addralign = 1;
	sh = elf64_getshdr(s->shstr);
	sh->sh_name = 23, sh->sh_type = SHT_STRTAB, sh->sh_addralign = 1;
	eh->e_shstrndx = 4;
	elf_flagelf(e, ELF_C_SET, ELF_F_LAYOUT);
	off = 0x1000;
	elf64_getshdr(s->text)->sh_offset = off;
	elf64_getshdr(s->text)->sh_size = s->textsz;
	off += s->textsz;
	off = (off + 7) & ~7UL;
	elf64_getshdr(s->symtab)->sh_offset = off;
	elf64_getshdr(s->symtab)->sh_size = s->symsz;
	off += s->symsz;
	elf64_getshdr(s->strtab)->sh_offset = off;
	elf64_getshdr(s->strtab)->sh_size = s->strsz;
	off += s->strsz;
	elf64_getshdr(s->shstr)->sh_offset = off;
	elf64_getshdr(s->shstr)->sh_size = s->shstrsz;
	off += s->shstrsz;
	eh->e_phoff = sizeof(*eh);
	eh->e_shoff = (off + 7) & ~7UL;
}

/* A new section of e holding size bytes at buf. */
static Elf_Scn *add_section(Elf *e, void *buf, size_t size, size_t align, Elf_Type type)
{
	Elf_Scn *scn = elf_newscn(e);
	Elf_Data *d = elf_newdata(scn);

	d->d_buf = buf, d->d_size = size, d->d_align = align, d->d_type = type;
	return scn;
}

static int mkelf(long n, const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	static const char shnames[] = "\0.text\0.symtab\0.strtab\0.shstrtab";
	struct sections s = { .textsz = (size_t)n * 16, .symsz = ((size_t)n + 1) * sizeof(Elf64_Sym),
			      .shstrsz = sizeof(shnames) };
	Elf *e;
	Elf64_Ehdr *eh;
	Elf64_Phdr *ph;
	uint8_t *code;
	Elf64_Sym *syms;
	char *strs;

	if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE || !(e = elf_begin(fd, ELF_C_WRITE, NULL)))
		return -EIO;
	code = malloc(s.textsz);
	if (!code || make_symbols(n, &syms, &strs, &s.strsz) < 0)
		return -ENOMEM;
	memset(code, 0xc3, s.textsz);
	eh = elf64_newehdr(e);
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_type = ET_DYN;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	ph = elf64_newphdr(e, 1);
	s.text = add_section(e, code, s.textsz, 16, ELF_T_BYTE);
	s.symtab = add_section(e, syms, s.symsz, 8, ELF_T_SYM);
	s.strtab = add_section(e, strs, s.strsz, 1, ELF_T_BYTE);
	s.shstr = add_section(e, (void *)shnames, sizeof(shnames), 1, ELF_T_BYTE);
	lay_out(e, eh, &s);
	*ph = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_offset = 0x1000, .p_vaddr = 0x1000,
			    .p_paddr = 0x1000, .p_filesz = s.textsz, .p_memsz = s.textsz, .p_align = 0x1000 };
	if (elf_update(e, ELF_C_WRITE) < 0) {
		fprintf(stderr, "bench-natives: %s: %s\n", path, elf_errmsg(-1));
		return -EIO;
	}
	elf_end(e);
	close(fd);
	return 0;
}

static int index_file(const char *path, long m)
{
	struct elfsyms_config cfg = { .debug_dir = "/usr/lib/debug" };
	double t0 = now();
	struct elfsyms *es = elfsyms__open(path, NULL, 0, &cfg);
	struct elfsyms_hit h;
	long found = 0;

	if (!es)
		return -ENOMEM;
	for (long i = 0; i < m; i++)
		found += elfsyms__find(es, 0x1000 + (uint64_t)((i * 2654435761UL) % (elfsyms__nr(es) * 16)), &h);
	printf("%.4f\n", now() - t0);
	fprintf(stderr, "%zu symbols, %ld of %ld lookups found\n", elfsyms__nr(es), found, m);
	elfsyms__free(es);
	return 0;
}

int main(int argc, char **argv)
{
	int ret = -EINVAL;

	if ((argc == 5 || argc == 6) && !strcmp(argv[1], "repeat"))
		ret = repeat(argv[2], argv[3], atol(argv[4]), argc == 6 ? argv[5] : NULL);
	else if (argc == 4 && !strcmp(argv[1], "mkelf"))
		ret = mkelf(atol(argv[2]), argv[3]);
	else if (argc == 4 && !strcmp(argv[1], "index"))
		ret = index_file(argv[2], atol(argv[3]));
	else
		fprintf(stderr, "usage: bench-natives repeat IN OUT K [EXTRA] | mkelf N FILE | index FILE M\n");
	if (ret < 0)
		fprintf(stderr, "bench-natives: %s\n", strerror(-ret));
	return ret < 0;
}

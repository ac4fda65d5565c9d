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

static int repeat(const char *in, const char *out, long k, const char *extra)
{
	int fd = open(in, O_RDONLY);
	struct stat st;
	const uint8_t *b;
	uint64_t attr_size, attrs_off, attrs_size, data_off, data_size, sample_type, t_min = UINT64_MAX, t_max = 0;
	size_t time_off;
	uint32_t pids[256];
	size_t npids = 0;
	FILE *f;

	if (fd < 0 || fstat(fd, &st) < 0 || (b = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED)
		return -errno;
	if (memcmp(b, "PERFILE2", 8) || u64(b + 8) < 104)
		return -EINVAL;
	attr_size = u64(b + 16);
	attrs_off = u64(b + 24);
	attrs_size = u64(b + 32);
	data_off = u64(b + 40);
	data_size = u64(b + 48);
	sample_type = u64(b + attrs_off + 24);
	/* IDENTIFIER, IP, TID come before TIME in a sample */
	time_off = 8 + 8 * !!(sample_type & PERF_SAMPLE_IDENTIFIER) + 8 * !!(sample_type & PERF_SAMPLE_IP) +
		   8 * !!(sample_type & PERF_SAMPLE_TID);
	if (!(sample_type & PERF_SAMPLE_TIME) || !(f = fopen(out, "w")))
		return -EINVAL;
	fwrite("PERFILE2", 8, 1, f);
	fwrite(&(uint64_t){ 16 }, 8, 1, f);
	for (uint64_t a = attrs_off; a + attr_size <= attrs_off + attrs_size; a += attr_size) {
		uint64_t asz = attr_size - 16, ids = u64(b + a + asz), idsz = u64(b + a + asz + 8);

		put_header(f, REC_HEADER_ATTR, 0, (uint16_t)(8 + asz + idsz));
		fwrite(b + a, asz, 1, f);
		fwrite(b + ids, idsz, 1, f);
	}
	for (uint64_t o = data_off; o < data_off + data_size; o += *(const uint16_t *)(b + o + 6)) {
		uint32_t type = u32(b + o);
		uint16_t size = *(const uint16_t *)(b + o + 6);

		if (type == REC_SAMPLE) {
			uint64_t t = u64(b + o + time_off);

			t_min = t < t_min ? t : t_min;
			t_max = t > t_max ? t : t_max;
			if (npids < 256) {
				uint32_t pid = u32(b + o + time_off - 8);
				size_t i;

				for (i = 0; i < npids && pids[i] != pid; i++)
					;
				if (i == npids)
					pids[npids++] = pid;
			}
		}
		fwrite(b + o, size, 1, f);
		if (!size)
			break;
	}
	/* the file mapped, never sampled: before the copies, in every sampled process */
	for (size_t i = 0; extra && i < npids; i++) {
		size_t nl = strlen(extra) + 1, pad = (nl + 7) & ~7ULL;
		uint8_t rec[512] = { 0 };
		uint16_t size = (uint16_t)(8 + 64 + pad + 16);
		uint64_t tm = t_min;

		if (pad > 400)
			return -EINVAL;
		put_header(f, REC_MMAP2, PERF_RECORD_MISC_USER, size);
		memcpy(rec, &pids[i], 4);
		memcpy(rec + 4, &pids[i], 4);
		memcpy(rec + 8, &(uint64_t){ 0x100000000000ULL }, 8);
		memcpy(rec + 16, &(uint64_t){ 0x10000000 }, 8);
		memcpy(rec + 56, &(uint32_t){ PROT_READ | PROT_EXEC }, 4);
		memcpy(rec + 60, &(uint32_t){ MAP_PRIVATE }, 4);
		memcpy(rec + 64, extra, nl);
		fwrite(rec, 64 + pad, 1, f);
		/* sample_id: TID, TIME (the recordings here lay out no more) */
		fwrite(&pids[i], 4, 1, f);
		fwrite(&pids[i], 4, 1, f);
		fwrite(&tm, 8, 1, f);
		(void)size;
	}
	for (long c = 1; c < k; c++) {
		uint64_t shift = (uint64_t)c * (t_max - t_min + 1);
		long n = 0;

		for (uint64_t o = data_off; o < data_off + data_size; o += *(const uint16_t *)(b + o + 6)) {
			uint16_t size = *(const uint16_t *)(b + o + 6);
			uint8_t rec[65536];
			uint64_t t;

			if (!size)
				break;
			if (u32(b + o) != REC_SAMPLE)
				continue;
			memcpy(rec, b + o, size);
			t = u64(rec + time_off) + shift;
			memcpy(rec + time_off, &t, 8);
			fwrite(rec, size, 1, f);
			if (++n % ROUND == 0)
				put_header(f, REC_FINISHED_ROUND, 0, 8);
		}
		put_header(f, REC_FINISHED_ROUND, 0, 8);
	}
	/* the build-ids of the feature section (bit 2), as pipe mode's records */
	if (u64(b + 72) & 4) {
		uint64_t sec = data_off + data_size + 16 * (uint64_t)__builtin_popcountll(u64(b + 72) & 3);
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
	return fclose(f) ? -EIO : 0;
}

static int mkelf(long n, const char *path)
{
	int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
	Elf *e;
	Elf64_Ehdr *eh;
	Elf64_Phdr *ph;
	Elf_Scn *text, *symtab, *strtab, *shstr;
	Elf_Data *d;
	size_t textsz = (size_t)n * 16, strsz = 1, off;
	uint8_t *code;
	Elf64_Sym *syms;
	char *strs;
	long *order;
	static const char shnames[] = "\0.text\0.symtab\0.strtab\0.shstrtab";

	if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE || !(e = elf_begin(fd, ELF_C_WRITE, NULL)))
		return -EIO;
	code = malloc(textsz);
	syms = calloc((size_t)n + 1, sizeof(*syms));
	strs = malloc((size_t)n * 16 + 1);
	order = malloc((size_t)n * sizeof(*order));
	if (!code || !syms || !strs || !order)
		return -ENOMEM;
	memset(code, 0xc3, textsz);
	strs[0] = 0;
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
		int len = sprintf(strs + strsz, "fn_%ld", f);

		syms[i + 1] = (Elf64_Sym){ .st_name = (Elf64_Word)strsz, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
					   .st_shndx = 1, .st_value = 0x1000 + (uint64_t)f * 16, .st_size = 16 };
		strsz += (size_t)len + 1;
	}
	eh = elf64_newehdr(e);
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_type = ET_DYN;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	ph = elf64_newphdr(e, 1);
	text = elf_newscn(e);
	d = elf_newdata(text);
	d->d_buf = code, d->d_size = textsz, d->d_align = 16, d->d_type = ELF_T_BYTE;
	symtab = elf_newscn(e);
	d = elf_newdata(symtab);
	d->d_buf = syms, d->d_size = ((size_t)n + 1) * sizeof(*syms), d->d_align = 8, d->d_type = ELF_T_SYM;
	strtab = elf_newscn(e);
	d = elf_newdata(strtab);
	d->d_buf = strs, d->d_size = strsz, d->d_align = 1, d->d_type = ELF_T_BYTE;
	shstr = elf_newscn(e);
	d = elf_newdata(shstr);
	d->d_buf = (void *)shnames, d->d_size = sizeof(shnames), d->d_align = 1, d->d_type = ELF_T_BYTE;
	Elf64_Shdr *sh = elf64_getshdr(text);

	sh->sh_name = 1, sh->sh_type = SHT_PROGBITS, sh->sh_flags = SHF_ALLOC | SHF_EXECINSTR, sh->sh_addr = 0x1000;
	sh->sh_addralign = 16;
	sh = elf64_getshdr(symtab);
	sh->sh_name = 7, sh->sh_type = SHT_SYMTAB, sh->sh_link = 3, sh->sh_info = 1, sh->sh_entsize = sizeof(Elf64_Sym);
	sh->sh_addralign = 8;
	sh = elf64_getshdr(strtab);
	sh->sh_name = 15, sh->sh_type = SHT_STRTAB, sh->sh_addralign = 1;
	sh = elf64_getshdr(shstr);
	sh->sh_name = 23, sh->sh_type = SHT_STRTAB, sh->sh_addralign = 1;
	eh->e_shstrndx = 4;
	/* text at file offset 0x1000, address 0x1000 */
	elf_flagelf(e, ELF_C_SET, ELF_F_LAYOUT);
	off = 0x1000;
	elf64_getshdr(text)->sh_offset = off;
	elf64_getshdr(text)->sh_size = textsz;
	off += textsz;
	off = (off + 7) & ~7UL;
	elf64_getshdr(symtab)->sh_offset = off;
	elf64_getshdr(symtab)->sh_size = ((size_t)n + 1) * sizeof(*syms);
	off += ((size_t)n + 1) * sizeof(*syms);
	elf64_getshdr(strtab)->sh_offset = off;
	elf64_getshdr(strtab)->sh_size = strsz;
	off += strsz;
	elf64_getshdr(shstr)->sh_offset = off;
	elf64_getshdr(shstr)->sh_size = sizeof(shnames);
	off += sizeof(shnames);
	eh->e_phoff = sizeof(*eh);
	eh->e_shoff = (off + 7) & ~7UL;
	*ph = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_offset = 0x1000, .p_vaddr = 0x1000,
			    .p_paddr = 0x1000, .p_filesz = textsz, .p_memsz = textsz, .p_align = 0x1000 };
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

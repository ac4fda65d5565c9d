// SPDX-License-Identifier: MIT
/* Crafted ELF64 files for the symbol readers' tests (see elf-writer.h). */
#include <elf.h>
#include <fcntl.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf-writer.h"

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

uint8_t *elfw_build(const struct elfw *w, size_t *len)
{
	size_t shstr_len = 1 + strlen(".shstrtab") + 1, off, nsec = w->nr + 2, phsz = w->load ? sizeof(Elf64_Phdr) : 0;
	size_t *sec_off = calloc(nsec, sizeof(*sec_off)), *name_off = calloc(nsec, sizeof(*name_off));
	uint8_t *img;
	char *shstr;
	Elf64_Ehdr eh = { 0 };

	for (size_t i = 0; i < w->nr; i++)
		shstr_len += strlen(w->secs[i].name) + 1;
	off = sizeof(eh) + phsz;
	for (size_t i = 0; i < w->nr; i++) {
		sec_off[i + 1] = off;
		if (w->secs[i].type != SHT_NOBITS)
			off = align8(off + w->secs[i].size);
	}
	sec_off[nsec - 1] = off;
	off = align8(off + shstr_len);
	*len = off + nsec * sizeof(Elf64_Shdr);
	img = calloc(1, *len);
	shstr = (char *)img + sec_off[nsec - 1];
	/* .shstrtab: "", the sections' names, ".shstrtab" */
	size_t s = 1;
	for (size_t i = 0; i < w->nr; i++) {
		name_off[i + 1] = s;
		strcpy(shstr + s, w->secs[i].name);
		s += strlen(w->secs[i].name) + 1;
	}
	name_off[nsec - 1] = s;
	strcpy(shstr + s, ".shstrtab");
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_DYN;
	eh.e_machine = w->machine ? w->machine : EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_phoff = phsz ? sizeof(eh) : 0;
	eh.e_shoff = off;
	eh.e_ehsize = sizeof(eh);
	eh.e_phentsize = sizeof(Elf64_Phdr);
	eh.e_phnum = phsz ? 1 : 0;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = (uint16_t)nsec;
	eh.e_shstrndx = (uint16_t)(nsec - 1);
	memcpy(img, &eh, sizeof(eh));
	if (phsz) {
		Elf64_Phdr ph = { .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_filesz = *len, .p_memsz = *len,
				  .p_align = 0x1000 };

		memcpy(img + sizeof(eh), &ph, sizeof(ph));
	}
	for (size_t i = 1; i < nsec; i++) {
		const struct elfw_sec *sec = i < nsec - 1 ? &w->secs[i - 1] : NULL;
		Elf64_Shdr sh = {
			.sh_name = (uint32_t)name_off[i], .sh_type = sec ? sec->type : SHT_STRTAB,
			.sh_flags = sec ? sec->flags : 0, .sh_addr = sec ? sec->addr : 0, .sh_offset = sec_off[i],
			.sh_size = sec ? sec->size : shstr_len, .sh_link = sec ? sec->link : 0,
			.sh_info = sec ? sec->info : 0, .sh_addralign = 1, .sh_entsize = sec ? sec->entsize : 0,
		};

		if (sec && sec->type != SHT_NOBITS && sec->size)
			memcpy(img + sec_off[i], sec->data, sec->size);
		memcpy(img + off + i * sizeof(sh), &sh, sizeof(sh));
	}
	free(sec_off);
	free(name_off);
	return img;
}

size_t elfw_shdr(const uint8_t *img, size_t i)
{
	Elf64_Ehdr eh;

	memcpy(&eh, img, sizeof(eh));
	return eh.e_shoff + i * sizeof(Elf64_Shdr);
}

int elfw_write(const char *path, const void *img, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = write(fd, img, len);
	close(fd);
	return n == (ssize_t)len ? 0 : -1;
}

void elfw_sym(uint8_t *out, uint32_t name, uint8_t info, uint16_t shndx, uint64_t value, uint64_t size)
{
	Elf64_Sym s = { .st_name = name, .st_info = info, .st_shndx = shndx, .st_value = value, .st_size = size };

	memcpy(out, &s, sizeof(s));
}

size_t elfw_build_id_note(uint8_t *out, const uint8_t *id, size_t n)
{
	uint32_t h[3] = { 4, (uint32_t)n, NT_GNU_BUILD_ID };
	size_t len = 16 + ((n + 3) & ~(size_t)3);

	memset(out, 0, len);
	memcpy(out, h, sizeof(h));
	memcpy(out + 12, "GNU", 4);
	memcpy(out + 16, id, n);
	return len;
}

size_t elfw_debuglink(uint8_t *out, const char *name, uint32_t crc)
{
	size_t n = strlen(name) + 1, pad = (n + 3) & ~(size_t)3;

	memset(out, 0, pad + 4);
	memcpy(out, name, n);
	out[pad] = (uint8_t)crc;
	out[pad + 1] = (uint8_t)(crc >> 8);
	out[pad + 2] = (uint8_t)(crc >> 16);
	out[pad + 3] = (uint8_t)(crc >> 24);
	return pad + 4;
}

uint32_t elfw_crc32(const void *p, size_t len)
{
	return lzma_crc32(p, len, 0);
}

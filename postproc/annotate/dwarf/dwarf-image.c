/* SPDX-License-Identifier: MIT */
/* An ELF image in memory of DWARF sections (dwarf-image.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>

#include "lib/util.h"
#include "dwarf-image.h"

/* A zlib stream inflates at most ~1032:1 (RFC 1951: 258 bytes from a 2-bit code). */
#define ZLIB_RATIO_MAX 1032

static size_t align_up(size_t v, size_t a)
{
	return (v + a - 1) & ~(a - 1);
}

/*
 * The header and section headers in the image's class and byte order,
 * through libelf's translators: the image is read as a file of that kind on
 * any host. One function per class, the same text.
 */
#define WRITE_HEADERS(BITS)                                                                        \
	static int write_headers##BITS(uint8_t *img, unsigned char data, const GElf_Ehdr *eh,     \
				       const GElf_Shdr *sh, size_t nsec)                          \
	{                                                                                          \
		Elf##BITS##_Ehdr e = {                                                             \
			.e_type = eh->e_type, .e_machine = eh->e_machine,                          \
			.e_version = (Elf##BITS##_Word)eh->e_version,                              \
			.e_shoff = (Elf##BITS##_Off)eh->e_shoff, .e_ehsize = sizeof(e),             \
			.e_shentsize = sizeof(Elf##BITS##_Shdr), .e_shnum = eh->e_shnum,            \
			.e_shstrndx = eh->e_shstrndx,                                              \
		};                                                                                 \
		Elf##BITS##_Shdr *s = calloc(nsec, sizeof(*s));                                    \
		Elf_Data src = { .d_version = EV_CURRENT }, dst = { .d_version = EV_CURRENT };     \
		int ret = -EINVAL;                                                                 \
                                                                                                   \
		if (!s)                                                                            \
			return -ENOMEM;                                                            \
		memcpy(e.e_ident, eh->e_ident, EI_NIDENT);                                         \
		for (size_t i = 0; i < nsec; i++)                                                  \
			s[i] = (Elf##BITS##_Shdr){                                                 \
				.sh_name = sh[i].sh_name, .sh_type = sh[i].sh_type,                \
				.sh_offset = (Elf##BITS##_Off)sh[i].sh_offset,                     \
				.sh_size = sh[i].sh_size, .sh_addralign = sh[i].sh_addralign,      \
			};                                                                         \
		src.d_buf = &e, src.d_type = ELF_T_EHDR, src.d_size = sizeof(e);                   \
		dst.d_buf = img, dst.d_size = sizeof(e);                                           \
		if (elf##BITS##_xlatetof(&dst, &src, data)) {                                      \
			src.d_buf = s, src.d_type = ELF_T_SHDR, src.d_size = nsec * sizeof(*s);    \
			dst.d_buf = img + eh->e_shoff, dst.d_size = nsec * sizeof(*s);             \
			if (elf##BITS##_xlatetof(&dst, &src, data))                                \
				ret = 0;                                                           \
		}                                                                                  \
		free(s);                                                                           \
		return ret;                                                                        \
	}
WRITE_HEADERS(32)
WRITE_HEADERS(64)

/* Where an image's parts go: the header, each section at an aligned offset,
 * .shstrtab, the section headers. */
struct layout {
	size_t nsec, align;
	size_t shstr_off, shstr_size, shoff;
	uint64_t total;
};

static int layout(struct layout *l, const struct dwarf_image_kind *k,
		  const struct dwarf_image_sec *secs, size_t nr, char *err, size_t errlen)
{
	bool is64 = k->elf_class == ELFCLASS64;
	uint64_t max = is64 ? SIZE_MAX : UINT32_MAX, total;

	l->nsec = nr + 2;
	l->align = is64 ? 8 : 4;
	l->shstr_size = 1;
	total = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	for (size_t i = 0; i < nr; i++) {
		if (secs[i].out_size > max ||
		    (secs[i].zlib && secs[i].out_size / ZLIB_RATIO_MAX > secs[i].size))
			return errf(err, errlen, -EINVAL, "%.*s: %llu bytes is not a size it can have",
				    (int)secs[i].name_len, secs[i].name,
				    (unsigned long long)secs[i].out_size);
		total = align_up(total, l->align) + secs[i].out_size;
		l->shstr_size += secs[i].name_len + 1;
		if (total > max)
			break;
	}
	l->shstr_size += sizeof(".shstrtab");
	l->shstr_off = (size_t)total;
	total = align_up(total + l->shstr_size, l->align);
	l->shoff = (size_t)total;
	total += l->nsec * (is64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr));
	if (total > max || l->nsec >= SHN_LORESERVE)
		return errf(err, errlen, -EINVAL, "too many or too large debug sections for an %s image",
			    is64 ? "ELF64" : "ELF32");
	l->total = total;
	return 0;
}

/* Section s's bytes at dst: copied, or inflated (*z made at the first). */
static int put_section(uint8_t *dst, const struct dwarf_image_sec *s,
		       struct libdeflate_decompressor **z, char *err, size_t errlen)
{
	enum libdeflate_result r;

	if (!s->zlib) {
		memcpy(dst, s->data, s->size);
		return 0;
	}
	if (!*z && !(*z = libdeflate_alloc_decompressor()))
		return errf(err, errlen, -ENOMEM, "out of memory");
	/* Exactly out_size bytes, or the section is damaged. */
	r = libdeflate_zlib_decompress(*z, s->data, s->size, dst, s->out_size, NULL);
	if (r != LIBDEFLATE_SUCCESS)
		return errf(err, errlen, -EINVAL, "%.*s: %s", (int)s->name_len, s->name,
			    r == LIBDEFLATE_BAD_DATA ? "damaged zlib data" :
						       "zlib data of another size than its header says");
	return 0;
}

static void ehdr(GElf_Ehdr *eh, const struct dwarf_image_kind *k, const struct layout *l)
{
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = k->elf_class;
	eh->e_ident[EI_DATA] = k->elf_data;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_ident[EI_OSABI] = ELFOSABI_NONE;
	eh->e_type = ET_EXEC;
	eh->e_machine = k->machine;
	eh->e_version = EV_CURRENT;
	eh->e_shoff = l->shoff;
	eh->e_shnum = (GElf_Half)l->nsec;
	eh->e_shstrndx = (GElf_Half)(l->nsec - 1);
}

int dwarf_image__build(uint8_t **image, size_t *size, const struct dwarf_image_kind *k,
		       const struct dwarf_image_sec *secs, size_t nr, char *err, size_t errlen)
{
	bool is64 = k->elf_class == ELFCLASS64;
	struct libdeflate_decompressor *z = NULL;
	size_t off, name_at = 1;
	GElf_Ehdr eh = { 0 };
	struct layout l = { 0 };
	GElf_Shdr *sh;
	uint8_t *img;
	char *shstr;
	int ret;

	*image = NULL;
	*size = 0;
	if ((ret = layout(&l, k, secs, nr, err, errlen)))
		return ret;
	/* Bytes between sections stay zero; the sections' own are all written below. */
	img = calloc(1, (size_t)l.total);
	sh = calloc(l.nsec, sizeof(*sh));
	if (!img || !sh) {
		ret = errf(err, errlen, -ENOMEM, "out of memory");
		goto out;
	}
	shstr = (char *)img + l.shstr_off;
	off = is64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	for (size_t i = 0; i < nr; i++) {
		const struct dwarf_image_sec *s = &secs[i];

		off = align_up(off, l.align);
		if ((ret = put_section(img + off, s, &z, err, errlen)))
			goto out;
		memcpy(shstr + name_at, s->name, s->name_len);
		sh[i + 1] = (GElf_Shdr){ .sh_name = (GElf_Word)name_at, .sh_type = SHT_PROGBITS,
					 .sh_offset = off, .sh_size = s->out_size, .sh_addralign = 1 };
		name_at += s->name_len + 1;
		off += s->out_size;
	}
	memcpy(shstr + name_at, ".shstrtab", sizeof(".shstrtab"));
	sh[l.nsec - 1] = (GElf_Shdr){ .sh_name = (GElf_Word)name_at, .sh_type = SHT_STRTAB,
				      .sh_offset = l.shstr_off, .sh_size = l.shstr_size,
				      .sh_addralign = 1 };
	ehdr(&eh, k, &l);
	ret = is64 ? write_headers64(img, k->elf_data, &eh, sh, l.nsec) :
		     write_headers32(img, k->elf_data, &eh, sh, l.nsec);
	if (ret) {
		ret = ret == -ENOMEM ? errf(err, errlen, ret, "out of memory") :
				       errf(err, errlen, ret, "libelf: %s", elf_errmsg(-1));
		goto out;
	}
	*image = img;
	*size = (size_t)l.total;
	img = NULL;
out:
	libdeflate_free_decompressor(z);
	free(img);
	free(sh);
	return ret;
}

/*
 * The sections no lookup of srcmap reads (location lists, call frames,
 * macros, name and address indexes): left out of the image. Everything else
 * named .debug_* stays, and .gnu_debugaltlink / .debug_sup, through which
 * libdw finds a dwz file's shared part.
 */
static bool unread(const char *name)
{
	static const char *const skip[] = {
		".debug_loc", ".debug_loclists", ".debug_frame", ".debug_aranges",
		".debug_macro", ".debug_macinfo", ".debug_pubnames", ".debug_pubtypes",
		".debug_gnu_pubnames", ".debug_gnu_pubtypes", ".debug_names",
	};

	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strcmp(name, skip[i]))
			return true;
	return false;
}

int dwarf_image__of_elf(uint8_t **image, size_t *size, Elf *elf, char *err, size_t errlen)
{
	struct dwarf_image_sec *secs = NULL;
	size_t nr = 0, alloc = 0, shstrndx, chdr_size;
	struct dwarf_image_kind k;
	bool compressed = false;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	int ret = -ENOTSUP;

	*image = NULL;
	*size = 0;
	if (!gelf_getehdr(elf, &eh) || elf_getshdrstrndx(elf, &shstrndx))
		return errf(err, errlen, -EINVAL, "libelf: %s", elf_errmsg(-1));
	chdr_size = gelf_fsize(elf, ELF_T_CHDR, 1, EV_CURRENT);
	while ((scn = elf_nextscn(elf, scn))) {
		const char *name;
		GElf_Shdr shdr;
		GElf_Chdr chdr;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &shdr) || !(name = elf_strptr(elf, shstrndx, shdr.sh_name)))
			continue;
		/* GNU's older compression: libdw's rules. */
		if (!strncmp(name, ".zdebug", 7))
			goto out;
		if (strncmp(name, ".debug_", 7) && strcmp(name, ".gnu_debugaltlink"))
			continue;
		if (unread(name) || shdr.sh_type == SHT_NOBITS)
			continue;
		if (!(d = elf_rawdata(scn, NULL)) || d->d_size != shdr.sh_size)
			goto out;
		if (VEC_GROW(secs, nr + 1, alloc)) {
			ret = errf(err, errlen, -ENOMEM, "out of memory");
			goto out;
		}
		secs[nr] = (struct dwarf_image_sec){ .name = name, .name_len = strlen(name),
						     .data = d->d_buf, .size = d->d_size,
						     .out_size = d->d_size };
		if (shdr.sh_flags & SHF_COMPRESSED) {
			if (!gelf_getchdr(scn, &chdr) || chdr.ch_type != ELFCOMPRESS_ZLIB ||
			    d->d_size < chdr_size)
				goto out;
			secs[nr].data += chdr_size;
			secs[nr].size -= chdr_size;
			secs[nr].out_size = chdr.ch_size;
			secs[nr].zlib = compressed = true;
		}
		nr++;
	}
	if (!compressed)
		goto out;
	k = (struct dwarf_image_kind){ eh.e_ident[EI_CLASS], eh.e_ident[EI_DATA], eh.e_machine };
	ret = dwarf_image__build(image, size, &k, secs, nr, err, errlen);
out:
	free(secs);
	return ret;
}

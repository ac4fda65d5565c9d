// SPDX-License-Identifier: MIT
/* Symbol tables beyond perf's: MiniDebugInfo (see elfsyms-extra.h; debuginfod: elfsyms-debuginfod.c). */
#include <errno.h>
#include <gelf.h>
#include <inttypes.h>
#include <lzma.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elfsyms-extra.h"

/* Why lzma_code stopped, for the note. */
static const char *xz_error(lzma_ret r)
{
	switch (r) {
	case LZMA_MEMLIMIT_ERROR:
		return "needs more memory than the decoder is allowed";
	case LZMA_FORMAT_ERROR:
		return "not an xz stream";
	case LZMA_OPTIONS_ERROR:
		return "unsupported xz options";
	case LZMA_DATA_ERROR:
		return "corrupt xz data";
	case LZMA_BUF_ERROR:
		return "the xz stream is cut short";
	case LZMA_MEM_ERROR:
		return "out of memory";
	default:
		return "xz error";
	}
}

/* The section's xz stream decompressed into *out (malloc()ed, *len bytes),
 * at most max: 0, -EFBIG past it, -ENOEXEC when it is no ELF file, -ENOMEM,
 * or -EINVAL (why set). Growth doubles, so memory stays within twice the output. */
static int unxz(const uint8_t *in, size_t in_len, size_t max, uint8_t **out, size_t *len, const char **why)
{
	lzma_stream z = LZMA_STREAM_INIT;
	uint8_t *buf = NULL;
	size_t alloc = 0;
	lzma_ret r;
	int ret = 0;

	*out = NULL;
	*len = 0;
	if (lzma_stream_decoder(&z, MINIDEBUG_MEMLIMIT, 0) != LZMA_OK)
		return -ENOMEM;
	z.next_in = in;
	z.avail_in = in_len;
	do {
		if (z.avail_out == 0) {
			size_t grow = alloc ? alloc : 1u << 16;
			uint8_t *nb;

			if (alloc >= max) {
				ret = -EFBIG;
				break;
			}
			if (grow > max - alloc)
				grow = max - alloc;
			if (!(nb = realloc(buf, alloc + grow))) {
				ret = -ENOMEM;
				break;
			}
			buf = nb;
			z.next_out = buf + alloc;
			z.avail_out = grow;
			alloc += grow;
		}
		r = lzma_code(&z, LZMA_FINISH);
		/* a bomb of anything but an ELF file stops at its first bytes */
		if (z.total_out >= SELFMAG && memcmp(buf, ELFMAG, SELFMAG)) {
			ret = -ENOEXEC;
			break;
		}
	} while (r == LZMA_OK);
	if (!ret && r != LZMA_STREAM_END) {
		*why = xz_error(r);
		ret = r == LZMA_MEM_ERROR ? -ENOMEM : -EINVAL;
	}
	*len = (size_t)z.total_out;
	lzma_end(&z);
	if (ret)
		free(buf);
	else
		*out = buf;
	return ret;
}

int elfsyms__minidebug(struct elfsyms *es, struct symsrc *out, const struct elfsyms_config *cfg)
{
	struct symsrc *rt = es->runtime;
	size_t max = cfg->minidebug_max ? cfg->minidebug_max : MINIDEBUG_MAX, len;
	GElf_Shdr shdr, inner;
	Elf_Scn *sec = elfsyms__section_by_name(rt->elf, &rt->ehdr, &shdr, ".gnu_debugdata", NULL);
	Elf_Data *d = sec && shdr.sh_type != SHT_NOBITS ? elf_rawdata(sec, NULL) : NULL;
	const char *why = "";
	uint8_t *buf;
	int ret;

	if (!d || !d->d_buf || !d->d_size)
		return -ENOENT;
	ret = unxz(d->d_buf, d->d_size, max, &buf, &len, &why);
	if (ret == -EFBIG)
		elfsyms__note(cfg, "%s+0x%" PRIx64 ": .gnu_debugdata (MiniDebugInfo) expands past %zu MiB:"
			      " not read (a decompression bomb?)", rt->path, shdr.sh_offset, max >> 20);
	else if (ret == -ENOEXEC)
		elfsyms__note(cfg, "%s+0x%" PRIx64 ": .gnu_debugdata (MiniDebugInfo) does not hold an ELF file:"
			      " not read", rt->path, shdr.sh_offset);
	else if (ret)
		elfsyms__note(cfg, "%s+0x%" PRIx64 ": .gnu_debugdata (MiniDebugInfo) cannot be decompressed (%s,"
			      " after %zu bytes): not read", rt->path, shdr.sh_offset, why, len);
	if (ret)
		return ret == -ENOMEM ? -ENOMEM : -EINVAL;
	/* no build-id check: the image is part of the file, which passed it; a
	 * failed open has freed buf already */
	if (symsrc__memory(out, rt->path, buf, len, buf, NULL, 0) != OPEN_OK) {
		elfsyms__note(cfg, "%s+0x%" PRIx64 ": .gnu_debugdata (MiniDebugInfo) holds no ELF file libelf can"
			      " read: not read", rt->path, shdr.sh_offset);
		return -EINVAL;
	}
	if (!out->symtab || !elfsyms__check_headers(out, cfg)) {
		bool nested = elfsyms__section_by_name(out->elf, &out->ehdr, &inner, ".gnu_debugdata", NULL);

		elfsyms__note(cfg, "%s+0x%" PRIx64 ": .gnu_debugdata (MiniDebugInfo) holds no .symtab%s: not read",
			      rt->path, shdr.sh_offset,
			      nested ? " (only a MiniDebugInfo of its own, which is not followed)" : "");
		symsrc__release(out);
		return -EINVAL;
	}
	return 0;
}

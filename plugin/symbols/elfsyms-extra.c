// SPDX-License-Identifier: MIT
/* Symbol tables beyond perf's: MiniDebugInfo and debuginfod (see elfsyms-extra.h). */
#include <dlfcn.h>
#include <errno.h>
#include <gelf.h>
#include <lzma.h>
#include <stdbool.h>
#include <stdlib.h>
#include <unistd.h>

#include <elfutils/debuginfod.h>

#include "elfsyms-extra.h"

/* MiniDebugInfo: a .symtab in an xz stream; bounds on what it may expand to. */
#define MINIDEBUG_MAX (256u << 20)
#define MINIDEBUG_MEMLIMIT (128u << 20)

int elfsyms__minidebug(struct elfsyms *es, struct symsrc *out)
{
	struct symsrc *rt = es->runtime;
	GElf_Shdr shdr;
	Elf_Scn *sec = elfsyms__section_by_name(rt->elf, &rt->ehdr, &shdr, ".gnu_debugdata", NULL);
	Elf_Data *d = sec ? elf_rawdata(sec, NULL) : NULL;
	lzma_stream z = LZMA_STREAM_INIT;
	uint8_t *buf = NULL;
	size_t alloc = 0;
	lzma_ret r;

	if (!d || !d->d_size || shdr.sh_type == SHT_NOBITS)
		return -ENOENT;
	if (lzma_stream_decoder(&z, MINIDEBUG_MEMLIMIT, 0) != LZMA_OK)
		return -ENOMEM;
	z.next_in = d->d_buf;
	z.avail_in = d->d_size;
	do {
		if (z.avail_out == 0) {
			size_t grow = alloc ? alloc : 1u << 16;
			uint8_t *nb = alloc + grow <= MINIDEBUG_MAX ? realloc(buf, alloc + grow) : NULL;

			if (!nb) {
				r = LZMA_MEM_ERROR;
				break;
			}
			buf = nb;
			z.next_out = buf + alloc;
			z.avail_out = grow;
			alloc += grow;
		}
		r = lzma_code(&z, LZMA_FINISH);
	} while (r == LZMA_OK);
	lzma_end(&z);
	if (r != LZMA_STREAM_END) {
		free(buf);
		return -EINVAL;
	}
	/* no build-id check: the image is part of the file, which passed it */
	if (symsrc__memory(out, rt->path, buf, (size_t)z.total_out, buf, NULL, 0) != OPEN_OK || !out->symtab) {
		if (out->image)
			symsrc__release(out);
		else
			free(buf);
		return -EINVAL;
	}
	return 0;
}

int elfsyms__debuginfod(struct symsrc *out, const uint8_t *bid, size_t bid_size)
{
	static void *lib;
	static bool tried;
	__typeof__(debuginfod_begin) *begin;
	__typeof__(debuginfod_find_debuginfo) *find;
	__typeof__(debuginfod_end) *end;
	debuginfod_client *client;
	char *path = NULL;
	int fd, ret;

	if (!bid_size)
		return -ENOENT;
	if (!tried) {
		tried = true;
		lib = dlopen("libdebuginfod.so.1", RTLD_NOW | RTLD_LOCAL);
	}
	if (!lib || !(begin = (__typeof__(begin))dlsym(lib, "debuginfod_begin")) ||
	    !(find = (__typeof__(find))dlsym(lib, "debuginfod_find_debuginfo")) ||
	    !(end = (__typeof__(end))dlsym(lib, "debuginfod_end")) || !(client = begin()))
		return -ENOSYS;
	fd = find(client, bid, (int)bid_size, &path);
	end(client);
	if (fd < 0) {
		free(path);
		return fd;
	}
	close(fd);
	ret = symsrc__open(out, path, bid, bid_size);
	free(path);
	if (ret != OPEN_OK || !out->symtab) {
		if (ret == OPEN_OK)
			symsrc__release(out);
		return -ENOENT;
	}
	return 0;
}

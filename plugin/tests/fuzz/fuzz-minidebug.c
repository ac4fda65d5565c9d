// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: MiniDebugInfo (plugin/symbols/elfsyms-extra.c), the
 * xz-compressed ELF of a file's .gnu_debugdata. The input is that ELF (the
 * target compresses it) or, when it starts with xz's magic, the section's
 * bytes as they are (the decoder's bounds). It goes into a crafted runtime
 * file (plugin/tests/elf-writer.h: .text, .dynsym, .gnu_debugdata) whose
 * symbols are then read and looked up.
 */
#define _GNU_SOURCE
#include <elf.h>
#include <lzma.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz-files.h"
#include "lib/warnings.h"
#include "symbols/elfsyms.h"
#include "tests/elf-writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t xz_magic[6] = { 0xfd, '7', 'z', 'X', 'Z', 0 };
	static uint8_t text[0x400];
	static struct warnings w;
	static const char dynstr[] = "\0exported";
	uint8_t dynsym[48] = { 0 }, *z = NULL, *img;
	size_t zlen = 0, len;
	const uint8_t *sec = data;
	size_t sec_len = size;
	struct elfsyms_config cfg = { .warnings = &w, .minidebug_max = 64u << 20 };
	struct elfsyms *es;

	if (size < sizeof(xz_magic) || memcmp(data, xz_magic, sizeof(xz_magic))) {
		size_t cap = lzma_stream_buffer_bound(size);

		if (!(z = malloc(cap)) ||
		    lzma_easy_buffer_encode(0, LZMA_CHECK_CRC32, NULL, data, size, z, &zlen, cap) != LZMA_OK) {
			free(z);
			return 0;
		}
		sec = z;
		sec_len = zlen;
	}
	elfw_sym(dynsym + 24, 1, ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), 1, 0x1000, 0x10);
	const struct elfw_sec secs[] = {
		{ ".text", SHT_PROGBITS, 0, 0, SHF_ALLOC | SHF_EXECINSTR, 0x1000, 0, text, sizeof(text) },
		{ ".dynsym", SHT_DYNSYM, 3, 1, SHF_ALLOC, 0, 24, dynsym, sizeof(dynsym) },
		{ ".dynstr", SHT_STRTAB, 0, 0, SHF_ALLOC, 0, 0, dynstr, sizeof(dynstr) },
		{ ".gnu_debugdata", SHT_PROGBITS, 0, 0, 0, 0, 0, sec, sec_len },
	};
	img = elfw_build(&(struct elfw){ secs, 4, 0, true }, &len);
	es = elfsyms__open(fuzz_put("mini.so", img, len), NULL, 0, &cfg);
	if (es) {
		for (uint64_t off = 0; off < len + 64; off += 8) {
			struct elfsyms_hit h;

			if (elfsyms__find(es, off, &h) && h.name)
				(void)strlen(h.name);
		}
		elfsyms__free(es);
	}
	warnings__release(&w);
	free(img);
	free(z);
	return 0;
}

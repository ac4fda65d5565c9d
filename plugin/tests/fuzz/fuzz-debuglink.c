// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: separate debug files found by .gnu_debuglink and by
 * build-id (plugin/symbols/elfsyms-files.c), and the debug file's tables
 * read against the runtime file's sections. The input: a flags byte (bit 0:
 * the link carries the debug file's right CRC, else the input's; bit 1: the
 * runtime file has a build-id, the recording's, and the debug file is also
 * put at its build-id path), the link's name, NUL, a CRC (4 bytes,
 * little-endian), then the debug file. The runtime file is crafted
 * (plugin/tests/elf-writer.h): .text, .dynsym, .gnu_debuglink, maybe a
 * build-id note; it is DIR/prog, the debug file DIR/prog.debug (and
 * DIR/debug/.build-id/...).
 */
#define _GNU_SOURCE
#include <elf.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz-files.h"
#include "lib/warnings.h"
#include "symbols/elfsyms.h"
#include "tests/elf-writer.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const uint8_t bid[20] = { 0xab, 0xcd, 0xef, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17 };
	static uint8_t text[0x400];
	static struct warnings w;
	static const char dynstr[] = "\0exported";
	uint8_t dynsym[48] = { 0 }, note[64], link[300], *img;
	const uint8_t *nul, *dbg;
	size_t dbg_len, len, n = 3;
	char name[256], debug_dir[PATH_MAX], prog[PATH_MAX];
	uint32_t crc;
	struct elfsyms *es;

	if (size < 6 || !(nul = memchr(data + 1, '\0', size - 1)) || (size_t)(nul - data) > sizeof(name) ||
	    (size_t)(nul - data) + 5 > size)
		return 0;
	memcpy(name, data + 1, (size_t)(nul - data));
	memcpy(&crc, nul + 1, 4);
	dbg = nul + 5;
	dbg_len = size - (size_t)(dbg - data);
	if (data[0] & 1)
		crc = elfw_crc32(dbg, dbg_len);
	fuzz_put("prog.debug", dbg, dbg_len);
	snprintf(debug_dir, sizeof(debug_dir), "%s/debug", fuzz_dir());
	if (data[0] & 2) {
		char p[PATH_MAX];

		snprintf(p, sizeof(p), "%s/debug", fuzz_dir());
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/debug/.build-id", fuzz_dir());
		mkdir(p, 0755);
		snprintf(p, sizeof(p), "%s/debug/.build-id/ab", fuzz_dir());
		mkdir(p, 0755);
		fuzz_put("debug/.build-id/ab/cdef0102030405060708090a0b0c0d0e0f1011.debug", dbg, dbg_len);
	}
	elfw_sym(dynsym + 24, 1, ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), 1, 0x1000, 0x10);
	struct elfw_sec secs[5] = {
		{ ".text", SHT_PROGBITS, 0, 0, SHF_ALLOC | SHF_EXECINSTR, 0x1000, 0, text, sizeof(text) },
		{ ".dynsym", SHT_DYNSYM, 3, 1, SHF_ALLOC, 0, 24, dynsym, sizeof(dynsym) },
		{ ".dynstr", SHT_STRTAB, 0, 0, SHF_ALLOC, 0, 0, dynstr, sizeof(dynstr) },
	};
	secs[n++] = (struct elfw_sec){ ".gnu_debuglink", SHT_PROGBITS, 0, 0, 0, 0, 0, link,
				       elfw_debuglink(link, name, crc) };
	if (data[0] & 2)
		secs[n++] = (struct elfw_sec){ ".note.gnu.build-id", SHT_NOTE, 0, 0, SHF_ALLOC, 0, 0, note,
					       elfw_build_id_note(note, bid, sizeof(bid)) };
	img = elfw_build(&(struct elfw){ secs, n, 0, true }, &len);
	snprintf(prog, sizeof(prog), "%s", fuzz_put("prog", img, len));
	struct elfsyms_config cfg = { .debug_dir = debug_dir, .warnings = &w, .minidebug_max = 64u << 20 };
	es = elfsyms__open(prog, data[0] & 2 ? bid : NULL, data[0] & 2 ? sizeof(bid) : 0, &cfg);
	if (es) {
		for (uint64_t off = 0; off < len + 64; off += 4) {
			struct elfsyms_hit h;

			if (elfsyms__find(es, off, &h) && h.name)
				(void)strlen(h.name);
		}
		(void)elfsyms__symbol_file(es);
		elfsyms__free(es);
	}
	warnings__release(&w);
	free(img);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: a file's symbols as perf finds them (plugin/symbols/
 * elfsyms*.c: .symtab, .dynsym, PLT entries, .eh_frame FDEs where no symbol
 * is, MiniDebugInfo where there is no .symtab), the input being the file.
 * Lookups at offsets taken from the input's last bytes and around each hit;
 * every hit must hold the offset looked up (or be perf's size-0 symbol at it).
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <string.h>

#include "fuzz-files.h"
#include "lib/warnings.h"
#include "symbols/elfsyms.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct warnings w;
	const char *path = fuzz_put("lib.so", data, size);
	char debug[PATH_MAX];
	struct elfsyms_config cfg;
	struct elfsyms *es;
	uint8_t code[64];

	snprintf(debug, sizeof(debug), "%s/no-debug-dir", fuzz_dir());
	/* MiniDebugInfo bounded lower than the plugin's: a run's memory, not a bomb's */
	cfg = (struct elfsyms_config){ .debug_dir = debug, .warnings = &w, .minidebug_max = 64u << 20 };
	es = elfsyms__open(path, NULL, 0, &cfg);
	if (!es)
		return 0;
	for (size_t i = 0; i < 16; i++) {
		uint64_t off = 0;
		struct elfsyms_hit h;

		if (size >= 8 * (i + 1))
			memcpy(&off, data + size - 8 * (i + 1), 8);
		off = i < 8 ? off % (size + 1) : off;
		if (elfsyms__find(es, off, &h)) {
			if (!(h.start <= off && (off < h.end || (off == h.start && h.end == h.start))))
				__builtin_trap();
			if (h.name)
				(void)strlen(h.name);
			elfsyms__read(es, h.start, code, sizeof(code));
			elfsyms__find(es, h.end, &h);
		}
	}
	(void)elfsyms__nr(es);
	(void)elfsyms__memory(es);
	(void)elfsyms__symbol_file(es);
	elfsyms__free(es);
	warnings__release(&w);
	return 0;
}

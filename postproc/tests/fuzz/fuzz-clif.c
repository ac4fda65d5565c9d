// SPDX-License-Identifier: MIT
/* libFuzzer target: the CLIF text reader (one --emit-clif file). */
#include <stddef.h>
#include <stdint.h>

#include "annotate/wasmtime/clif.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct clif_func *f;
	size_t bad = 0;
	char warn[512];

	if (clif_func__parse(&f, (const char *)data, size, "fuzz.clif", &bad, warn, sizeof(warn)))
		return 0;
	for (uint32_t off = 0; off < 0x200; off++)
		(void)clif_func__text(f, off);
	(void)clif_func__text(f, 0x10000);
	clif_func__free(f);
	return 0;
}

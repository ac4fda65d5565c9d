// SPDX-License-Identifier: MIT
/* libFuzzer target: the block builder over random code bytes, both architectures,
 * with and without trailing-data detection; checks the block invariants. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "cfg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int machines[] = { 62, 183 };
	struct cfg_func f;

	if (size < 1)
		return 0;
	int e_machine = machines[data[0] & 1];
	unsigned int flags = data[0] & 2 ? CFG_TRAILING_DATA : 0;

	if (cfg_func__build(&f, e_machine, data + 1, size - 1, flags, NULL, 0))
		return 0;
	/* Blocks tile [0, code_end) in order; every instruction lookup agrees. */
	uint32_t at = 0;

	for (size_t b = 0; b < f.blocks_nr; b++) {
		if (f.blocks[b].start != at || f.blocks[b].end <= f.blocks[b].start)
			abort();
		at = f.blocks[b].end;
	}
	if (at != f.code_end || f.code_end > f.size)
		abort();
	for (size_t i = 0; i < f.insns_nr; i++)
		if (cfg_func__insn_at(&f, f.insns[i].off) != (long)i)
			abort();
	cfg_func__release(&f);
	return 0;
}

// SPDX-License-Identifier: MIT
/* libFuzzer target: the block builder over random code bytes, every architecture
 * (x86-64, aarch64, s390x, riscv64: bits 0 and 2 of the flags byte), with and
 * without trailing-data detection (bit 1), with sampled offsets and a run-time
 * address for jump tables of addresses; checks the block and seed invariants.
 * Input: flags byte, seed count byte (0..15), 2 bytes per seed (offset, little
 * endian, taken modulo the code size), 8 bytes of run-time address, the code. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/cfg.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int machines[] = { 62, 183, 22, 243 };
	/* each one's instruction alignment: a seed off it starts no row */
	static const uint32_t aligns[] = { 1, 4, 2, 2 };
	uint32_t seeds[15];
	struct cfg_input in = { 0 };
	struct cfg_func f;
	size_t nseeds, head;

	if (size < 10)
		return 0;
	nseeds = data[1] % 16;
	head = 2 + 2 * nseeds + 8;
	if (size < head)
		return 0;
	in.e_machine = machines[(data[0] & 1) | (data[0] >> 1 & 2)];
	uint32_t align = aligns[(data[0] & 1) | (data[0] >> 1 & 2)];
	in.flags = data[0] & 2 ? CFG_TRAILING_DATA : 0;
	in.code = data + head;
	in.size = size - head;
	for (int k = 0; k < 8; k++)
		in.addr |= (uint64_t)data[2 + 2 * nseeds + k] << (8 * k);
	for (size_t k = 0; k < nseeds; k++)
		seeds[k] = (uint32_t)(data[2 + 2 * k] | data[3 + 2 * k] << 8) %
			   (uint32_t)(in.size ? in.size : 1);
	in.seeds = seeds;
	in.seeds_nr = in.size ? nseeds : 0;

	if (cfg_func__build_from(&f, &in, NULL, 0))
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
	at = 0;
	for (size_t i = 0; i < f.insns_nr; i++) {
		if (f.insns[i].off != at || !f.insns[i].size ||
		    cfg_func__insn_at(&f, f.insns[i].off) != (long)i)
			abort();
		at += f.insns[i].size;
	}
	if (at != f.size)
		abort();
	/* A seed on the alignment starts a row, or lies inside the row of another
	 * seed (equal weights: the lower offset was decoded first); a started row is
	 * code, in a block. One off it is left out (its samples are unaligned): what
	 * lies there is what the rest of the decoding put there. */
	for (size_t k = 0; k < in.seeds_nr; k++) {
		long i = cfg_func__insn_at(&f, seeds[k]);

		if (seeds[k] % align)
			continue;
		if (i < 0) {
			size_t j = 0;

			while (j + 1 < f.insns_nr && f.insns[j + 1].off <= seeds[k])
				j++;
			bool other = false;

			for (size_t m = 0; m < in.seeds_nr; m++)
				other |= seeds[m] == f.insns[j].off;
			if (!other)
				abort();
		} else if ((in.flags & CFG_TRAILING_DATA) && cfg_func__block_at(&f, seeds[k]) < 0) {
			abort();
		}
	}
	/* Left out: the same decoding as without the seeds off the alignment. */
	uint32_t kept[15];
	size_t kept_nr = 0;

	for (size_t k = 0; k < in.seeds_nr; k++)
		if (seeds[k] % align == 0)
			kept[kept_nr++] = seeds[k];
	if (kept_nr != in.seeds_nr) {
		struct cfg_input in2 = in;
		struct cfg_func g;

		in2.seeds = kept;
		in2.seeds_nr = kept_nr;
		if (cfg_func__build_from(&g, &in2, NULL, 0))
			abort();
		if (g.insns_nr != f.insns_nr || g.blocks_nr != f.blocks_nr || g.code_end != f.code_end)
			abort();
		for (size_t i = 0; i < f.insns_nr; i++)
			if (g.insns[i].off != f.insns[i].off || g.insns[i].size != f.insns[i].size ||
			    g.insns[i].flags != f.insns[i].flags || g.insns[i].target != f.insns[i].target)
				abort();
		for (size_t b = 0; b < f.blocks_nr; b++)
			if (g.blocks[b].start != f.blocks[b].start || g.blocks[b].end != f.blocks[b].end)
				abort();
		cfg_func__release(&g);
	}
	cfg_func__release(&f);
	return 0;
}

// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: .eh_frame's FDE bounds (plugin/symbols/ehframe.c). The
 * input: a flags byte (bit 0: ELF64, bit 1: the other byte order), the
 * section's address (8 bytes, little-endian), then the section's bytes.
 * Every FDE read must be a non-empty range sorted by start, and a lookup at
 * each one's start, last byte and end, and at addresses from the input,
 * must return an FDE that holds the address, or none.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "symbols/ehframe.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(const struct ehframe *f, uint64_t vaddr)
{
	const struct ehframe_fde *fde = ehframe__find(f, vaddr);

	if (fde && !(fde->start <= vaddr && vaddr < fde->end))
		__builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ehframe f;
	uint64_t addr;

	if (size < 9)
		return 0;
	memcpy(&addr, data + 1, 8);
	if (ehframe__read(&f, data + 9, size - 9, addr, data[0] & 1, data[0] & 2))
		return 0;
	for (size_t i = 0; i < f.nr; i++) {
		if (i && f.v[i - 1].start > f.v[i].start)
			__builtin_trap();
		check(&f, f.v[i].start);
		check(&f, f.v[i].end - 1);
		check(&f, f.v[i].end);
	}
	for (size_t i = 0; i + 8 <= size && i < 64; i += 8) {
		uint64_t a;

		memcpy(&a, data + i, 8);
		check(&f, a);
		check(&f, addr + a % (size + 1));
	}
	ehframe__release(&f);
	return 0;
}

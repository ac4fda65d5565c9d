// SPDX-License-Identifier: MIT
/* libFuzzer target: both .wasmtime.addrmap encodings; a decoded map must survive
 * re-encoding in its own format unchanged, and a function's range of it must
 * answer lookups as the whole map does. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/wasmtime/addrmap.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct addrmap_entry *e = NULL, *e2 = NULL;
	size_t nr = 0, nr2 = 0, len = 0;
	enum addrmap_format fmt, fmt2;
	uint8_t *buf = NULL;
	char err[512];
	uint32_t w;

	if (size < 1)
		return 0;
	/* The first byte picks the engine version hint: unknown, 46 or 47. */
	int engine = data[0] % 3 == 0 ? -1 : data[0] % 3 == 1 ? 46 : 47;

	if (addrmap__decode(data + 1, size - 1, engine, "fuzz", &e, &nr, &fmt, err, sizeof(err)))
		return 0;
	if (nr)
		(void)addrmap__lookup(e, nr, e[0].text_off, e[nr - 1].text_off + 1, e[nr / 2].text_off, &w);
	/* Functions from entry to entry (and around them): every pc of a few. */
	for (size_t k = 0; k < nr && k < 64; k++) {
		uint32_t fstart = e[(k * 7) % nr].text_off - (k & 1), fend = e[(k * 13 + 5) % nr].text_off + 2;
		struct addrmap_entry *r;
		size_t rn;

		if (addrmap__decode_range(data + 1, size - 1, fmt, fstart, fend, &r, &rn))
			abort();
		for (uint32_t pc = fstart; pc < fend && pc - fstart < 256; pc++) {
			uint32_t a = 0, b = 0;
			bool wa = addrmap__lookup(e, nr, fstart, fend, pc, &a);
			bool wb = addrmap__lookup(r, rn, fstart, fend, pc, &b);

			if (wa != wb || a != b)
				abort();
		}
		free(r);
	}
	if (!addrmap__encode(e, nr, fmt, &buf, &len)) {
		if (addrmap__decode(buf, len, fmt == ADDRMAP_PLAIN ? 46 : 47, "fuzz2", &e2, &nr2, &fmt2,
				    err, sizeof(err)) ||
		    nr2 != nr || (nr && memcmp(e, e2, nr * sizeof(*e))))
			abort();
	}
	free(e);
	free(e2);
	free(buf);
	return 0;
}

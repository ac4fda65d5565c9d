// SPDX-License-Identifier: MIT
/* libFuzzer target: the annotated-stream reader and merge, then ranking (which
 * disassembles whatever code bytes the stream carries). */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/rank.h"
#include "stream/stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *f = fmemopen((void *)data, size, "r");
	struct rank_opts o = { .percent = 50.0, .top = SIZE_MAX, .disassemble_all = true };
	struct stream s;
	struct rank r;
	char err[512];

	if (!f)
		return 0;
	stream__init(&s);
	if (!stream__read(&s, f, "fuzz.hbs", err, sizeof(err)) && !stream__finish(&s) && s.events_nr) {
		rank__build(&r, &s, 0, &o);
		rank__release(&r);
	}
	stream__release(&s);
	fclose(f);
	return 0;
}

// SPDX-License-Identifier: MIT
/* libFuzzer target: the perf.data jitdump-marker scan (file and pipe formats, zstd records). */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "perf/perfdata.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count(void *arg, uint32_t pid, const char *path)
{
	/* Touch the borrowed path so ASan sees any read past its end. */
	*(size_t *)arg += strlen(path) + pid % 2;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct perfdata_scan_stats st;
	size_t n = 0;
	char err[512];

	perfdata__scan_buf(data, size, "fuzz.data", count, &n, &st, err, sizeof(err));
	return 0;
}

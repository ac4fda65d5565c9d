// SPDX-License-Identifier: MIT
/* libFuzzer target: the jitdump reader, opening the input as a file and then
 * reading it again as if it had grown in two steps. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "jit/jitdump.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-jitdump", 0);
	char path[64], err[1024];
	struct jitdump *jd;
	size_t half = size / 2;

	if (fd < 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	/* First half, open, then the rest appended: the growing-file path. */
	if (write(fd, data, half) == (ssize_t)half && jitdump__open(&jd, path, err, sizeof(err)) == 0) {
		if (write(fd, data + half, size - half) == (ssize_t)(size - half))
			jitdump__update(jd, err, sizeof(err));
		(void)jitdump__tail_bytes(jd);
		jitdump__close(jd);
	}
	close(fd);
	return 0;
}

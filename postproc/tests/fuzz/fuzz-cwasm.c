// SPDX-License-Identifier: MIT
/* libFuzzer target: the .cwasm ELF reader (libelf) with its address map. */
#define _GNU_SOURCE
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "annotate/wasmtime/cwasm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("fuzz-cwasm", 0);
	char path[64], err[1024];
	struct cwasm *c;

	if (fd < 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	if (write(fd, data, size) == (ssize_t)size && !cwasm__open(&c, path, err, sizeof(err))) {
		size_t nr, tsize;
		const struct cwasm_func *f = cwasm__funcs(c, &nr);
		const uint8_t *text = cwasm__text(c, &tsize);

		for (size_t i = 0; i < nr; i++) {
			uint32_t w;

			(void)cwasm__wasm_offset(c, &f[i], f[i].text_off + f[i].size / 2, &w);
			if (cwasm__find_symbol(c, f[i].symbol) == NULL)
				__builtin_trap();
			if ((uint64_t)f[i].text_off + f[i].size <= tsize)
				(void)cwasm__find_code(c, text + f[i].text_off, f[i].size, NULL);
		}
		cwasm__close(c);
	}
	close(fd);
	return 0;
}

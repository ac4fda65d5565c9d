/* SPDX-License-Identifier: MIT */
/* A WASI command: counts the words of a generated text N times and prints
 * the total (N from argv[1]). Each round also reads the clock a few times: a
 * WASI import, so wasm code calls into the host through wasmtime's
 * wasm-to-host trampolines often enough to be sampled. */
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>

static char text[4096];

__attribute__((noinline)) static unsigned count_words(const char *s)
{
	unsigned n = 0;
	int in = 0;
	for (; *s; s++) {
		int sp = *s == ' ' || *s == '\n';
		n += !sp && !in;
		in = !sp;
	}
	return n;
}

int main(int argc, char **argv)
{
	unsigned rounds = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 1000;
	unsigned long total = 0;
	size_t len = 0;
	for (unsigned i = 0; len + 16 < sizeof text; i++)
		len += (size_t)snprintf(text + len, sizeof text - len, "%u%s", i * 2654435761u % 1000,
					i % 7 ? " " : "\n");
	for (unsigned r = 0; r < rounds; r++) {
		struct timespec ts;
		for (int k = 0; k < 8; k++) {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			total += (unsigned long)ts.tv_nsec & 1;
		}
		total += count_words(text + r % 8);
	}
	printf("%lu words (and odd nanoseconds) in %u rounds of %zu bytes\n", total, rounds, strlen(text));
	return 0;
}

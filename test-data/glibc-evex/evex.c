/* SPDX-License-Identifier: MIT */
/* A native workload whose hot path is glibc's string functions over long
 * strings: on a CPU with AVX512VL and AVX512BW, glibc 2.36 resolves strlen,
 * memchr, memcmp and strcmp to their EVEX (AVX-512) variants. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define LEN (48 * 1024)

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1.0, end = now() + secs;
	char *a = malloc(LEN + 1), *b = malloc(LEN + 1);
	/* volatile: the calls go through the PLT every time, nothing is folded */
	size_t (*volatile my_strlen)(const char *) = strlen;
	void *(*volatile my_memchr)(const void *, int, size_t) = memchr;
	int (*volatile my_memcmp)(const void *, const void *, size_t) = memcmp;
	int (*volatile my_strcmp)(const char *, const char *) = strcmp;
	unsigned long sum = 0, calls = 0;

	if (!a || !b)
		return 1;
	for (size_t i = 0; i < LEN; i++)
		a[i] = b[i] = 'a' + i % 23;
	a[LEN] = b[LEN] = '\0';
	while (now() < end) {
		for (int k = 0; k < 64; k++) {
			sum += my_strlen(a);
			sum += my_memchr(a, '#', LEN) == NULL;
			sum += my_memcmp(a, b, LEN) == 0;
			sum += my_strcmp(a, b) == 0;
			calls += 4;
		}
	}
	printf("calls %lu sum %lu\n", calls, sum);
	return 0;
}

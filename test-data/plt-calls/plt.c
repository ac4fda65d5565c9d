/* SPDX-License-Identifier: MIT */
/* Calls out of hot functions of every kind a native program has: through the
 * PLT into libc (memcpy, strlen, qsort: name@plt) and into a shared library
 * of its own (lib_step@plt), to a function of the same file (shuffle, not
 * inlined), and back into the program from libc (qsort calls cmp). Runs for
 * SECS seconds (argv[1], default 1). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

unsigned lib_step(unsigned x);

static char buf[4096], copy[4096];
static unsigned keys[256];

__attribute__((noinline)) static void shuffle(unsigned seed)
{
	for (int i = 0; i < 256; i++)
		keys[i] = seed = seed * 1103515245u + 12345u;
}

static int cmp(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return x < y ? -1 : x > y;
}

__attribute__((noinline)) static unsigned long round_once(unsigned r)
{
	unsigned long n = 0;

	memcpy(copy, buf, sizeof(buf));
	copy[(r * 7) % (sizeof(copy) - 1)] = 0;
	n += strlen(copy);
	shuffle(r);
	qsort(keys, 256, sizeof(keys[0]), cmp);
	n += lib_step(keys[r & 255]);
	return n;
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? atof(argv[1]) : 1;
	unsigned long total = 0;
	unsigned r = 0;
	struct timespec t0, t;

	memset(buf, 'x', sizeof(buf) - 1);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do {
		for (int k = 0; k < 100; k++)
			total += round_once(r++);
		clock_gettime(CLOCK_MONOTONIC, &t);
	} while ((double)(t.tv_sec - t0.tv_sec) + (double)(t.tv_nsec - t0.tv_nsec) / 1e9 < secs);
	printf("%u rounds, total %lu\n", r, total);
	return 0;
}

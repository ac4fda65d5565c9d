/* SPDX-License-Identifier: MIT */
/* Native driver for inl.c (gcc -g -O2): a second unit, so lookups cross CUs. */
#include <stdio.h>
#include <stdlib.h>

unsigned work(unsigned n);
unsigned sum_to(unsigned n);

int main(int argc, char **argv)
{
	unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 0) : 1000;

	printf("%u %u\n", work(n), sum_to(n));
	return 0;
}

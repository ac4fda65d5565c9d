// SPDX-License-Identifier: MIT
/* The shared library of the native-mt-fork recording: an exported entry and
 * static functions (so that a stripped copy has no symbol for them). */
#include <stdint.h>

__attribute__((noinline)) static uint32_t mix(uint32_t x)
{
	x ^= x >> 16;
	x *= 0x7feb352d;
	x ^= x >> 15;
	x *= 0x846ca68b;
	return x ^ (x >> 16);
}

__attribute__((noinline)) static uint32_t churn(uint32_t x, int rounds)
{
	for (int i = 0; i < rounds; i++)
		x = mix(x + (uint32_t)i) ^ (x << 3);
	return x;
}

uint32_t work_run(uint32_t seed, int n)
{
	uint32_t acc = seed;

	for (int i = 0; i < n; i++)
		acc += churn(acc ^ (uint32_t)i, 64);
	return acc;
}

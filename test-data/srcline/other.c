/* SPDX-License-Identifier: MIT */
/* A second compile unit for the srcline tests: lookups must pick the right one. */

unsigned work(unsigned n);

static inline unsigned twice(unsigned x)
{
	return x + x;
}

__attribute__((noinline)) unsigned run(unsigned n)
{
	return twice(work(n)) ^ twice(n * 7);
}

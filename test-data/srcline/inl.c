/* SPDX-License-Identifier: MIT */
/* Source for the srcline tests: a loop nest whose helpers clang and gcc inline at -O2. */

static inline unsigned mix(unsigned h, unsigned b)
{
	h ^= b;
	h *= 16777619u;
	return h;
}

static inline unsigned hash_word(unsigned h, unsigned w)
{
	for (int i = 0; i < 4; i++)
		h = mix(h, (w >> (8 * i)) & 0xff);
	return h;
}

__attribute__((noinline)) unsigned work(unsigned n)
{
	unsigned h = 2166136261u;

	for (unsigned i = 0; i < n; i++)
		h = hash_word(h, i);
	return h;
}

/* Not inlined anywhere: a plain out-of-line function with a loop. */
__attribute__((noinline)) unsigned sum_to(unsigned n)
{
	unsigned s = 0;

	for (unsigned i = 1; i <= n; i++)
		s += i * i;
	return s;
}

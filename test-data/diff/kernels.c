/* SPDX-License-Identifier: MIT */
/*
 * Two hot loops for the diff recordings (README.md), built twice from this
 * one file: base.wasm as it is, changed.wasm with -DCHANGED, which changes
 * the loop of mix() and nothing else. hash() is the same in both builds.
 */

#define N 4096
static unsigned char buf[N];

/* FNV-1a over the buffer: one xor and one multiply per byte. */
__attribute__((noinline)) static unsigned hash(const unsigned char *p, unsigned n)
{
	unsigned h = 2166136261u;

	for (unsigned i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

/* A running checksum; -DCHANGED turns its step into a rotate and a multiply. */
__attribute__((noinline)) static unsigned mix(const unsigned char *p, unsigned n)
{
	unsigned s = 0;

	for (unsigned i = 0; i < n; i++)
#ifdef CHANGED
		s = ((s << 5) | (s >> 27)) * 0x9e3779b1u + p[i];
#else
		s = (s << 1) + p[i];
#endif
	return s;
}

__attribute__((export_name("run"))) unsigned run(unsigned rounds)
{
	unsigned h = 0;

	for (unsigned r = 0; r < rounds; r++) {
		h ^= hash(buf, N);
		h += mix(buf, N);
		buf[r % N] = (unsigned char)h;
	}
	return h;
}

/* wasmtime runs a module's _start: about a second of work at -O opt-level=2. */
#ifndef ROUNDS
#define ROUNDS 150000
#endif
volatile unsigned result;
__attribute__((export_name("_start"))) void start(void)
{
	result = run(ROUNDS);
}

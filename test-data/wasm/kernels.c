/* SPDX-License-Identifier: MIT */
/* Workloads for the wasm decoder's cross-check against wasm-objdump: loops, a
 * switch that becomes br_table, float and double math, loads and stores of every
 * width, direct and indirect calls. Built with clang --target=wasm32 (README.md). */

typedef unsigned char u8;
typedef unsigned short u16;
typedef unsigned int u32;
typedef unsigned long long u64;

static u8 bytes[256];
static u16 halves[64];
static u64 wides[32];
static float floats[16];
static double doubles[16];

u32 fnv(const u8 *p, u32 n)
{
	u32 h = 2166136261u;
	for (u32 i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

int classify(int x)
{
	switch (x) {
	case 0: return 11;
	case 1: return 22;
	case 2: return 35;
	case 3: return -7;
	case 4: return 90;
	case 5: return 1234567;
	case 7: return -100000;
	default: return x * 3;
	}
}

double mix(double a, float b, int n)
{
	double acc = 0.5;
	for (int i = 0; i < n; i++) {
		acc = acc * a + (double)b * 1.25e-3 - 3.0;
		if (acc > 1e300 || acc < -1e300)
			acc = 0.0;
		b = b * -0.75f + 1.0f / 3.0f;
	}
	floats[n & 15] = b;
	doubles[n & 15] = acc;
	return acc + (double)floats[(n + 1) & 15];
}

u64 widen(u32 x, int s)
{
	bytes[x & 255] = (u8)x;
	halves[x & 63] = (u16)(x >> 3);
	wides[x & 31] += (u64)x << (s & 31);
	signed char sc = (signed char)bytes[(x + 1) & 255];
	short ss = (short)halves[(x + 5) & 63];
	return wides[(x + 2) & 31] + (u64)(long long)sc + (u64)(long long)ss +
	       (u64)bytes[x & 255] * 0x100000001ull;
}

typedef int (*binop)(int, int);
static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int mul(int a, int b) { return a * b; }
static binop ops[] = { add, sub, mul };

int apply(int which, int a, int b)
{
	return ops[(u32)which % 3](a, b) + classify(a & 7);
}

int run(int n)
{
	int r = 0;
	for (int i = 0; i < n; i++) {
		r += apply(i, r, i) + (int)mix(1.0001, (float)i, i & 7);
		r ^= (int)widen((u32)r, i);
		r += (int)fnv(bytes, (u32)(i & 255));
	}
	return r;
}

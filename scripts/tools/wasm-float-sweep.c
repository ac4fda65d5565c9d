/* SPDX-License-Identifier: MIT */
/* wasm-float-sweep: writes a WebAssembly module full of float constants, to compare their text with wasmprinter's. */

/*
 *   wasm-float-sweep COUNT SEED OUT.wasm
 * writes a valid core module whose functions hold COUNT `f32.const X drop`
 * and COUNT `f64.const Y drop` pairs (1000 of each per function), the bits
 * drawn deterministically from SEED. Five kinds of values, in turn:
 *   0. uniformly random bit patterns (infinities and NaNs included);
 *   1. few significant bits at moderate exponents: the values whose exact
 *      decimal is short, where an exact tie between the two shortest
 *      decimals happens (1.00390625 as an f32);
 *   2. few significant bits at any exponent, subnormals included;
 *   3. edges: zero or all-ones significands, the smallest subnormals, the
 *      largest finite values, powers of two (lopsided rounding intervals);
 *   4. the float nearest a random short decimal, and its two neighbours.
 * The decoder's dump and `jco print` of the module must agree line by line
 * (scripts/tests/wasm-vs-wasmprinter.sh).
 */

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PER_FUNC 1000

static uint64_t rng;

static uint64_t next(void)	/* xorshift64* */
{
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 0x2545f4914f6cdd1dULL;
}

static uint64_t below(uint64_t n)
{
	return next() % n;
}

/*
 * One value of kind k for a format of mant_bits fraction bits and ebits
 * exponent bits; "band" is the range of binary exponents of the leading bit
 * where short exact decimals (ties) live.
 */
static uint64_t value(int kind, int mant_bits, int ebits, int band_lo, int band_hi)
{
	const int bias = (1 << (ebits - 1)) - 1, width = 1 + ebits + mant_bits;
	const uint64_t fmask = ((uint64_t)1 << mant_bits) - 1;
	const uint64_t emax = ((uint64_t)1 << ebits) - 1;
	uint64_t sign = (next() & 1) << (width - 1), frac, exp;
	int j;

	switch (kind) {
	case 0:
		return next() >> (64 - width);
	case 1:
	case 2:
		/* j significant bits after the leading one */
		j = (int)below((uint64_t)mant_bits / 2 + 1);
		frac = j ? (next() >> (64 - j)) << (mant_bits - j) : 0;
		if (kind == 1)
			exp = (uint64_t)(band_lo + (int)below((uint64_t)(band_hi - band_lo + 1)) + bias);
		else
			exp = below(emax);	/* 0 (subnormal) .. emax - 1 */
		if (exp == 0)
			frac >>= below((uint64_t)mant_bits);
		return sign | exp << mant_bits | (frac & fmask);
	case 3:
		switch (below(6)) {
		case 0:
			return sign | below(emax) << mant_bits;
		case 1:
			return sign | below(emax) << mant_bits | fmask;
		case 2:
			return sign | below(64);
		case 3:
			return sign | (((emax - 1) << mant_bits | fmask) - below(64));
		case 4:
			return sign | (((uint64_t)1 << mant_bits) + below(64) - 32);
		default:
			return sign | below(emax) << mant_bits | (below(8) & fmask);
		}
	default: {
		char s[64];
		int digits = 1 + (int)below(mant_bits > 23 ? 17 : 9);
		int e10 = (int)below(mant_bits > 23 ? 640 : 90) - (mant_bits > 23 ? 330 : 48);
		uint64_t d = 0, bits = 0;

		for (int i = 0; i < digits; i++)
			d = d * 10 + below(10);
		snprintf(s, sizeof(s), "%llue%d", (unsigned long long)d, e10);
		if (mant_bits > 23) {
			double v = strtod(s, NULL);

			memcpy(&bits, &v, sizeof(v));
		} else {
			float v = strtof(s, NULL);
			uint32_t b;

			memcpy(&b, &v, sizeof(v));
			bits = b;
		}
		bits += below(3) - 1;	/* a neighbour may wrap into inf/NaN: fine */
		return (bits & (((uint64_t)1 << (width - 1)) - 1)) | sign;
	}
	}
}

struct out {
	unsigned char *p;
	size_t len, cap;
};

static void put(struct out *o, const void *s, size_t n)
{
	if (o->len + n > o->cap) {
		o->cap = (o->len + n) * 2;
		o->p = realloc(o->p, o->cap);
		if (!o->p) {
			perror("wasm-float-sweep");
			exit(1);
		}
	}
	memcpy(o->p + o->len, s, n);
	o->len += n;
}

static void put_u8(struct out *o, unsigned v)
{
	unsigned char c = (unsigned char)v;

	put(o, &c, 1);
}

static void put_leb(struct out *o, uint64_t v)
{
	do {
		unsigned c = v & 0x7f;

		v >>= 7;
		put_u8(o, c | (v ? 0x80 : 0));
	} while (v);
}

static void put_le(struct out *o, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		put_u8(o, (unsigned)(v >> (8 * i)) & 0xff);
}

static void section(struct out *o, unsigned id, const struct out *body)
{
	put_u8(o, id);
	put_leb(o, body->len);
	put(o, body->p, body->len);
}

int main(int argc, char **argv)
{
	struct out mod = { 0 }, sec = { 0 }, body = { 0 };
	unsigned long count, funcs;
	FILE *f;

	if (argc != 4 || !(count = strtoul(argv[1], NULL, 0))) {
		fprintf(stderr, "usage: wasm-float-sweep COUNT SEED OUT.wasm\n");
		return 2;
	}
	rng = strtoull(argv[2], NULL, 0) * 0x9e3779b97f4a7c15ULL + 1;
	funcs = (count + PER_FUNC - 1) / PER_FUNC;

	put(&mod, "\0asm\1\0\0\0", 8);
	put(&sec, "\1\x60\0\0", 4);	/* one type: (func) */
	section(&mod, 1, &sec);
	sec.len = 0;
	put_leb(&sec, funcs);
	for (unsigned long i = 0; i < funcs; i++)
		put_u8(&sec, 0);
	section(&mod, 3, &sec);
	sec.len = 0;
	put_leb(&sec, funcs);
	for (unsigned long fn = 0, done = 0; fn < funcs; fn++) {
		unsigned long n = count - done < PER_FUNC ? count - done : PER_FUNC;

		body.len = 0;
		put_u8(&body, 0);	/* no locals */
		for (unsigned long i = 0; i < n; i++) {
			int kind = (int)((done + i) % 5);

			put_u8(&body, 0x43);
			put_le(&body, value(kind, 23, 8, -12, 33), 4);
			put_u8(&body, 0x1a);
			put_u8(&body, 0x44);
			put_le(&body, value(kind, 52, 11, -22, 60), 8);
			put_u8(&body, 0x1a);
		}
		put_u8(&body, 0x0b);
		put_leb(&sec, body.len);
		put(&sec, body.p, body.len);
		done += n;
	}
	section(&mod, 10, &sec);

	f = fopen(argv[3], "wb");
	if (!f || fwrite(mod.p, 1, mod.len, f) != mod.len || fclose(f)) {
		perror(argv[3]);
		return 1;
	}
	free(mod.p);
	free(sec.p);
	free(body.p);
	return 0;
}

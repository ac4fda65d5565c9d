/* SPDX-License-Identifier: MIT */
/*
 * Shortest round-trip decimal digits of a binary float, with Rust's choices.
 *
 * wasmprinter writes each float constant's value in a comment with Rust's
 * `{}` formatting, so the [Wasm] column must pick the same digits. Rust's
 * rule (its flt2dec "shortest" mode; a fast path only answers when it can
 * prove it agrees with the exact one) is reproduced here with exact integer
 * arithmetic:
 *
 *  1. The value v has a rounding interval: every real in it reads back as v.
 *     Its ends are the midpoints to the neighbouring floats; at a power of
 *     two the lower neighbour is twice as close, so the interval is lopsided
 *     (Rust treats the smallest normal this way too). The ends belong to the
 *     interval when v's integer significand is even (ties-to-even reading);
 *     for subnormals Rust doubles the significand first, so their ends
 *     always count.
 *  2. Digits of v are produced one by one, starting at the decimal position
 *     of the interval's top end. After each digit, the truncation T and T
 *     plus one unit in the last place are the only candidates of that
 *     length; as soon as one of them lies in the interval, stop.
 *  3. If only T + 1 unit fits, round up; if both fit, round up when the
 *     dropped remainder is at least half a unit. That ">=" is the tie rule:
 *     at exactly half, the larger magnitude wins, where printf's correctly
 *     rounded digits would take the even one.
 *
 * The numbers involved reach about 2^1090 (10^324 times a 55-bit
 * significand, against 2^1075; 34 of the 40 words below when every binary64
 * exponent was tried), so a fixed 1280-bit integer is enough.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "float-decimal.h"

#define BIG_WORDS 40

/* Unsigned integer, little-endian 32-bit words; w[n..] are zero. */
struct big {
	uint32_t w[BIG_WORDS];
	int n;
};

static void big_set(struct big *a, uint64_t v)
{
	memset(a, 0, sizeof(*a));
	a->w[0] = (uint32_t)v;
	a->w[1] = (uint32_t)(v >> 32);
	a->n = a->w[1] ? 2 : a->w[0] ? 1 : 0;
}

static void big_mul_small(struct big *a, uint32_t m)
{
	uint64_t carry = 0;

	for (int i = 0; i < a->n; i++) {
		uint64_t t = (uint64_t)a->w[i] * m + carry;

		a->w[i] = (uint32_t)t;
		carry = t >> 32;
	}
	if (carry && a->n < BIG_WORDS)
		a->w[a->n++] = (uint32_t)carry;
}

static void big_mul_pow10(struct big *a, int k)
{
	static const uint32_t p10[10] = {
		1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000,
	};

	for (; k >= 9; k -= 9)
		big_mul_small(a, p10[9]);
	if (k > 0)
		big_mul_small(a, p10[k]);
}

static void big_shl(struct big *a, int bits)
{
	int words = bits / 32, r = bits % 32;

	if (!a->n || !bits)
		return;
	for (int i = a->n - 1 + words + 1; i >= 0; i--) {
		int s = i - words;
		uint32_t hi = s >= 0 && s < a->n ? a->w[s] : 0;
		uint32_t lo = s - 1 >= 0 && s - 1 < a->n ? a->w[s - 1] : 0;

		if (i < BIG_WORDS)
			a->w[i] = r ? (hi << r) | (lo >> (32 - r)) : hi;
	}
	a->n += words + 1;
	if (a->n > BIG_WORDS)
		a->n = BIG_WORDS;
	while (a->n && !a->w[a->n - 1])
		a->n--;
}

static int big_cmp(const struct big *a, const struct big *b)
{
	if (a->n != b->n)
		return a->n < b->n ? -1 : 1;
	for (int i = a->n - 1; i >= 0; i--)
		if (a->w[i] != b->w[i])
			return a->w[i] < b->w[i] ? -1 : 1;
	return 0;
}

/* r = a + b (r may be a or b) */
static void big_add(struct big *r, const struct big *a, const struct big *b)
{
	int n = a->n > b->n ? a->n : b->n;
	uint64_t carry = 0;

	for (int i = 0; i < n; i++) {
		uint64_t t = (uint64_t)a->w[i] + b->w[i] + carry;

		r->w[i] = (uint32_t)t;
		carry = t >> 32;
	}
	for (int i = n; i < r->n; i++)
		r->w[i] = 0;
	r->n = n;
	if (carry && n < BIG_WORDS)
		r->w[r->n++] = (uint32_t)carry;
}

/* a -= b, a >= b */
static void big_sub(struct big *a, const struct big *b)
{
	uint64_t borrow = 0;

	for (int i = 0; i < a->n; i++) {
		uint64_t t = (uint64_t)a->w[i] - (i < b->n ? b->w[i] : 0) - borrow;

		a->w[i] = (uint32_t)t;
		borrow = t >> 63;
	}
	while (a->n && !a->w[a->n - 1])
		a->n--;
}

/*
 * a compared with the interval edge b: "a is inside" is a <= b when the
 * edge belongs to the interval, a < b otherwise.
 */
static bool within(int cmp, bool inclusive)
{
	return inclusive ? cmp <= 0 : cmp < 0;
}

/* One shortest-digits conversion's state: r/s = v, mminus/s and mplus/s the
 * distances to the ends of v's rounding interval; inclusive: its ends
 * belong to it. */
struct conversion {
	struct big r, s, mminus, mplus, t;
	bool inclusive;
	int k;		/* the decimal exponent of the first digit, plus 1 */
};

/* Step 1: v = m 2^e and its interval [(m - minus) 2^e, (m + plus) 2^e], as
 * big numbers over a common s; returns the bit length of m. */
static int set_interval(struct conversion *c, uint64_t mag, bool is64, int *e_out)
{
	const int mant_bits = is64 ? 52 : 23, bias = is64 ? 1023 : 127;
	const uint64_t hidden = (uint64_t)1 << mant_bits;
	uint64_t frac = mag & (hidden - 1), expbits = mag >> mant_bits;
	uint64_t m, minus = 1, plus = 1;
	int e;

	if (expbits == 0) {
		m = frac << 1;
		e = 1 - bias - mant_bits - 1;
		c->inclusive = true;
	} else {
		uint64_t sig = frac | hidden;

		c->inclusive = !(sig & 1);
		e = (int)expbits - bias - mant_bits;
		if (!frac) {
			m = sig << 2, e -= 2, plus = 2;
		} else {
			m = sig << 1, e -= 1;
		}
	}
	big_set(&c->t, 0);
	big_set(&c->r, m);
	big_set(&c->mminus, minus);
	big_set(&c->mplus, plus);
	big_set(&c->s, 1);
	if (e >= 0) {
		big_shl(&c->r, e);
		big_shl(&c->mminus, e);
		big_shl(&c->mplus, e);
	} else {
		big_shl(&c->s, -e);
	}
	*e_out = e;
	return 64 - __builtin_clzll(m);
}

/*
 * Scale s by 10^k, k starting below the decimal position of the top end
 * (v >= 2^(e + nbits - 1); 0.30102 < log10(2)), then raised until the top
 * end no longer reaches s: the first digit is that of v / 10^(k-1).
 */
static void scale(struct conversion *c, int e, int nbits)
{
	c->k = (int)((double)(e + nbits - 1) * 0.30102) - 2;
	if (c->k >= 0) {
		big_mul_pow10(&c->s, c->k);
	} else {
		big_mul_pow10(&c->r, -c->k);
		big_mul_pow10(&c->mminus, -c->k);
		big_mul_pow10(&c->mplus, -c->k);
	}
	for (;;) {
		big_add(&c->t, &c->r, &c->mplus);
		if (!within(big_cmp(&c->s, &c->t), c->inclusive))
			break;
		big_mul_small(&c->s, 10);
		c->k++;
	}
}

/* Step 2: the digits until the rest is within the interval's lower (*down)
 * or upper (*up) end; their number. */
static int generate(struct conversion *c, char *digits, bool *down, bool *up)
{
	int n = 0;

	for (;;) {
		int digit = 0;

		big_mul_small(&c->r, 10);
		big_mul_small(&c->mminus, 10);
		big_mul_small(&c->mplus, 10);
		while (big_cmp(&c->r, &c->s) >= 0) {
			big_sub(&c->r, &c->s);
			digit++;
		}
		digits[n++] = (char)('0' + digit);
		*down = within(big_cmp(&c->r, &c->mminus), c->inclusive);
		big_add(&c->t, &c->r, &c->mplus);
		*up = within(big_cmp(&c->s, &c->t), c->inclusive);
		if (*down || *up || n == 17)	/* 17 digits always suffice: a guard */
			return n;
	}
}

/* Step 3: the last digit rounded up when the upper end is nearer (or the
 * only one within reach); the number of digits after it. */
static int round_last(struct conversion *c, char *digits, int n, bool down, bool up)
{
	bool round = up && !down;
	int i = n - 1;

	if (up && down) {
		big_add(&c->t, &c->r, &c->r);
		round = big_cmp(&c->t, &c->s) >= 0;
	}
	if (!round)
		return n;
	while (i >= 0 && digits[i] == '9')
		digits[i--] = '0';
	if (i >= 0) {
		digits[i]++;
	} else {	/* 99..9 -> 100..0, one more digit */
		digits[0] = '1';
		digits[n++] = '0';
		c->k++;
	}
	return n;
}

void float_decimal_shortest(struct float_decimal *d, uint64_t mag, bool is64)
{
	struct conversion c;
	bool down, up;
	int e, nbits, n;

	nbits = set_interval(&c, mag, is64, &e);
	scale(&c, e, nbits);
	n = generate(&c, d->digits, &down, &up);
	n = round_last(&c, d->digits, n, down, up);
	d->digits[n] = '\0';
	d->exp = c.k;
}

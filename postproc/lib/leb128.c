/* SPDX-License-Identifier: MIT */
/* LEB128 integers (see leb128.h). */
#include <errno.h>
#include <string.h>

#include "leb128.h"

int leb128_read_u(const uint8_t **pp, const uint8_t *end, unsigned bits, uint64_t *v)
{
	const uint8_t *p = *pp;
	unsigned shift = 0;
	uint64_t r = 0;

	for (;;) {
		if (p >= end)
			return -EINVAL;
		uint8_t b = *p++;

		r |= (uint64_t)(b & 0x7f) << shift;
		if (shift + 7 >= bits) {
			/* Last byte allowed: no continuation, no bits past the width. */
			if (b >> (bits - shift))
				return -ERANGE;
			break;
		}
		if (!(b & 0x80))
			break;
		shift += 7;
	}
	*pp = p;
	*v = r;
	return 0;
}

int leb128_read_s(const uint8_t **pp, const uint8_t *end, unsigned bits, int64_t *v)
{
	const uint8_t *p = *pp;
	unsigned shift = 0;
	uint64_t r = 0;
	uint8_t b = 0;

	for (;;) {
		if (p >= end)
			return -EINVAL;
		b = *p++;
		r |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (shift >= bits) {
			/*
			 * Last byte allowed: no continuation, and the bits from
			 * the sign bit up are all equal (a sign extension).
			 */
			unsigned sb = bits - (shift - 7) - 1;	/* sign bit in b */
			uint8_t top = (uint8_t)(b & 0x7f) >> sb;

			if ((b & 0x80) || (top != 0 && top != (0x7f >> sb)))
				return -ERANGE;
			break;
		}
		if (!(b & 0x80))
			break;
	}
	if (shift < 64 && (b & 0x40))
		r |= ~(uint64_t)0 << shift;
	if (bits < 64) {
		/* Keep the value in range of the width: sign-extend from bits. */
		uint64_t m = (uint64_t)1 << (bits - 1);

		r &= ((uint64_t)1 << bits) - 1;
		r = (r ^ m) - m;
	}
	*pp = p;
	memcpy(v, &r, sizeof(r));
	return 0;
}

size_t leb128_write_u(uint8_t *p, uint64_t v)
{
	size_t n = 0;

	while (v >= 0x80) {
		p[n++] = 0x80 | (v & 0x7f);
		v >>= 7;
	}
	p[n++] = v;
	return n;
}

size_t leb128_write_s(uint8_t *p, int64_t v)
{
	size_t n = 0;

	for (;;) {
		uint8_t byte = (uint64_t)v & 0x7f;

		/* Arithmetic shift: gcc and clang define >> of a negative value as such. */
		v >>= 7;
		if ((v == 0 && !(byte & 0x40)) || (v == -1 && (byte & 0x40))) {
			p[n++] = byte;
			return n;
		}
		p[n++] = byte | 0x80;
	}
}

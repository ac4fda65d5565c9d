/* SPDX-License-Identifier: MIT */
/*
 * Float constants as wasmprinter prints them (its print_float): the exact
 * value as a hexadecimal float, then in a comment the shortest decimal that
 * reads back as the value, in Rust's `{}` formatting ("0x1.8p+0 (;=1.5;)").
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/float-decimal.h"
#include "wasm-float.h"
#include "wasm-read.h"

/* Rust {} of a finite nonzero magnitude: plain decimal, no exponent. */
static void put_display(struct strbuf *b, uint64_t mag, bool is64)
{
	struct float_decimal d;
	int e, n;

	float_decimal_shortest(&d, mag, is64);
	e = d.exp;
	n = (int)strlen(d.digits);
	if (e <= 0) {
		strbuf_addstr(b, "0.");
		for (int i = 0; i < -e; i++)
			strbuf_addch(b, '0');
		strbuf_addstr(b, d.digits);
	} else if (e < n) {
		strbuf_add(b, d.digits, e);
		strbuf_addch(b, '.');
		strbuf_addstr(b, d.digits + e);
	} else {
		strbuf_addstr(b, d.digits);
		for (int i = 0; i < e - n; i++)
			strbuf_addch(b, '0');
	}
}

void wasm_float__put(struct strbuf *b, uint64_t bits, bool is64)
{
	const int w = is64 ? 64 : 32, eb = is64 ? 11 : 8, mw = w - 1 - eb;
	const uint64_t wmask = is64 ? UINT64_MAX : 0xffffffffu;
	const int bias = (1 << (eb - 1)) - 1, min_exp = -bias;
	bool neg = bits >> (w - 1) & 1;
	uint64_t mag = bits & (wmask >> 1);
	uint64_t expbits = mag >> mw, frac = mag & (((uint64_t)1 << mw) - 1);

	if (neg)
		strbuf_addch(b, '-');
	if (expbits == (((uint64_t)1 << eb) - 1)) {
		if (!frac)
			strbuf_addstr(b, neg ? "inf (;=-inf;)" : "inf (;=inf;)");
		else if (frac == (uint64_t)1 << (mw - 1))
			strbuf_addstr(b, "nan (;=NaN;)");
		else
			strbuf_addf(b, "nan:0x%" PRIx64 " (;=NaN;)", frac);
		return;
	}
	strbuf_addstr(b, "0x");
	if (!mag) {
		strbuf_addstr(b, "0p+0");
	} else {
		int exponent = (int)expbits - bias;

		strbuf_addch(b, '1');
		if (frac) {
			uint64_t f = (frac << (w - mw)) & wmask;

			if (exponent == min_exp) {
				/* Subnormal: normalise, dropping the leading one. */
				int lead = is64 ? __builtin_clzll(f) : __builtin_clz((uint32_t)f);

				f = lead < w - 1 ? (f << (lead + 1)) & wmask : 0;
				exponent -= lead;
			}
			strbuf_addch(b, '.');
			while (f) {
				strbuf_addch(b, "0123456789abcdef"[f >> (w - 4)]);
				f = (f << 4) & wmask;
			}
		}
		strbuf_addf(b, "p%+d", exponent);
	}
	strbuf_addstr(b, " (;=");
	if (neg)
		strbuf_addch(b, '-');
	if (!mag)
		strbuf_addch(b, '0');
	else
		put_display(b, mag, is64);
	strbuf_addstr(b, ";)");
}

static size_t fmt_float(char *out, size_t len, uint64_t bits, bool is64)
{
	struct strbuf b = { 0 };
	size_t n;

	wasm_float__put(&b, bits, is64);
	if (b.oom) {
		strbuf_release(&b);
		if (len)
			out[0] = '\0';
		return 0;
	}
	n = b.len;
	if (len) {
		size_t c = n < len ? n : len - 1;

		memcpy(out, b.buf, c);
		out[c] = '\0';
	}
	strbuf_release(&b);
	return n;
}

size_t wasm_float__fmt_f32(char *buf, size_t len, uint32_t bits)
{
	return fmt_float(buf, len, bits, false);
}

size_t wasm_float__fmt_f64(char *buf, size_t len, uint64_t bits)
{
	return fmt_float(buf, len, bits, true);
}


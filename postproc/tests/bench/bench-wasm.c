/* SPDX-License-Identifier: MIT */
/*
 * Driver of scripts/bench-scaling for the Wasm column's label names:
 *   bench-wasm N   one function of N/2 nested blocks, each named in the name
 *                  section, and N/2 branches from the innermost one to the
 *                  outermost (each must check the labels in between for a
 *                  shadowing name); prints the seconds wasm_module__parse took.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/leb128.h"
#include "lib/strbuf.h"
#include "annotate/wasm/wasm.h"

static void put_u8(struct strbuf *b, uint8_t v)
{
	strbuf_addch(b, (char)v);
}

static void put_uleb(struct strbuf *b, uint64_t v)
{
	uint8_t leb[LEB128_MAX];

	strbuf_add(b, leb, leb128_write_u(leb, v));
}

static void section(struct strbuf *m, uint8_t id, const struct strbuf *s)
{
	put_u8(m, id);
	put_uleb(m, s->len);
	strbuf_add(m, s->buf, s->len);
}

int main(int argc, char **argv)
{
	static const uint8_t head[] = { 0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00 };
	static const uint8_t type[] = { 0x01, 0x60, 0x00, 0x00 }, func[] = { 0x01, 0x00 };
	size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) / 2 : 1000;
	struct strbuf m = { 0 }, s = { 0 }, body = { 0 }, sub = { 0 };
	struct wasm_module *w;
	struct timespec t0, t1;
	char err[256], name[32];

	strbuf_add(&m, head, sizeof(head));
	strbuf_add(&s, type, sizeof(type)), section(&m, 1, &s), s.len = 0;
	strbuf_add(&s, func, sizeof(func)), section(&m, 3, &s), s.len = 0;
	put_u8(&body, 0x00);
	for (size_t i = 0; i < n; i++)
		put_u8(&body, 0x02), put_u8(&body, 0x40);
	for (size_t i = 0; i < n; i++)
		put_u8(&body, 0x0c), put_uleb(&body, n - 1);
	for (size_t i = 0; i <= n; i++)
		put_u8(&body, 0x0b);
	put_uleb(&s, 1), put_uleb(&s, body.len), strbuf_add(&s, body.buf, body.len), section(&m, 10, &s), s.len = 0;
	put_uleb(&sub, 1), put_uleb(&sub, 0), put_uleb(&sub, n);
	for (size_t i = 0; i < n; i++) {
		int len = snprintf(name, sizeof(name), "l%zu", i);

		put_uleb(&sub, i), put_uleb(&sub, (uint64_t)len), strbuf_add(&sub, name, (size_t)len);
	}
	put_uleb(&s, 4), strbuf_add(&s, "name", 4), put_u8(&s, 3), put_uleb(&s, sub.len), strbuf_add(&s, sub.buf, sub.len);
	section(&m, 0, &s);

	if (m.oom) {
		fprintf(stderr, "bench-wasm: out of memory\n");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (wasm_module__parse(&w, (const uint8_t *)m.buf, m.len, "bench.wasm", err, sizeof(err))) {
		fprintf(stderr, "bench-wasm: %s\n", err);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%.4f\n", (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	wasm_module__free(w);
	strbuf_release(&m), strbuf_release(&s), strbuf_release(&body), strbuf_release(&sub);
	return 0;
}

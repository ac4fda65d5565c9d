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

#include "wasm.h"

struct bytes {
	uint8_t *p;
	size_t n, alloc;
};

static void put(struct bytes *b, const void *p, size_t n)
{
	if (b->n + n > b->alloc) {
		b->alloc = (b->n + n) * 2 + 64;
		b->p = realloc(b->p, b->alloc);
		if (!b->p)
			exit(1);
	}
	memcpy(b->p + b->n, p, n);
	b->n += n;
}

static void put_u8(struct bytes *b, uint8_t v)
{
	put(b, &v, 1);
}

static void put_uleb(struct bytes *b, uint64_t v)
{
	do {
		uint8_t c = v & 0x7f;

		v >>= 7;
		put_u8(b, c | (v ? 0x80 : 0));
	} while (v);
}

static void section(struct bytes *m, uint8_t id, const struct bytes *s)
{
	put_u8(m, id);
	put_uleb(m, s->n);
	put(m, s->p, s->n);
}

int main(int argc, char **argv)
{
	static const uint8_t head[] = { 0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00 };
	static const uint8_t type[] = { 0x01, 0x60, 0x00, 0x00 }, func[] = { 0x01, 0x00 };
	size_t n = argc > 1 ? strtoull(argv[1], NULL, 10) / 2 : 1000;
	struct bytes m = { 0 }, s = { 0 }, body = { 0 }, sub = { 0 };
	struct wasm_module *w;
	struct timespec t0, t1;
	char err[256], name[32];

	put(&m, head, sizeof(head));
	put(&s, type, sizeof(type)), section(&m, 1, &s), s.n = 0;
	put(&s, func, sizeof(func)), section(&m, 3, &s), s.n = 0;
	put_u8(&body, 0x00);
	for (size_t i = 0; i < n; i++)
		put_u8(&body, 0x02), put_u8(&body, 0x40);
	for (size_t i = 0; i < n; i++)
		put_u8(&body, 0x0c), put_uleb(&body, n - 1);
	for (size_t i = 0; i <= n; i++)
		put_u8(&body, 0x0b);
	put_uleb(&s, 1), put_uleb(&s, body.n), put(&s, body.p, body.n), section(&m, 10, &s), s.n = 0;
	put_uleb(&sub, 1), put_uleb(&sub, 0), put_uleb(&sub, n);
	for (size_t i = 0; i < n; i++) {
		int len = snprintf(name, sizeof(name), "l%zu", i);

		put_uleb(&sub, i), put_uleb(&sub, (uint64_t)len), put(&sub, name, (size_t)len);
	}
	put_uleb(&s, 4), put(&s, "name", 4), put_u8(&s, 3), put_uleb(&s, sub.n), put(&s, sub.p, sub.n);
	section(&m, 0, &s);

	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (wasm_module__parse(&w, m.p, m.n, "bench.wasm", err, sizeof(err))) {
		fprintf(stderr, "bench-wasm: %s\n", err);
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("%.4f\n", (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9);
	wasm_module__free(w);
	free(m.p), free(s.p), free(body.p), free(sub.p);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/* Test support: WebAssembly modules built byte by byte, and the decoder's answers on them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lib/leb128.h"
#include "lib/util.h"
#include "wasm-builder.h"

void mb_bytes(struct mb *b, const void *s, size_t n)
{
	assert_int_equal(VEC_GROW(b->p, b->len + n, b->alloc), 0);
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

void mb_u8(struct mb *b, uint8_t v)
{
	mb_bytes(b, &v, 1);
}

void mb_uleb(struct mb *b, uint64_t v)
{
	uint8_t leb[LEB128_MAX];

	mb_bytes(b, leb, leb128_write_u(leb, v));
}

void mb_str(struct mb *b, const char *s)
{
	mb_uleb(b, strlen(s));
	mb_bytes(b, s, strlen(s));
}

void mb_section(struct mb *b, uint8_t id, const struct mb *payload)
{
	mb_u8(b, id);
	mb_uleb(b, payload->len);
	mb_bytes(b, payload->p, payload->len);
}

void mb_free(struct mb *b)
{
	free(b->p);
	*b = (struct mb){ 0 };
}

struct mb make_module(unsigned nimports, const struct mb *bodies, unsigned nbodies,
			     const struct mb *names)
{
	static const uint8_t magic[] = { 0, 'a', 's', 'm', 1, 0, 0, 0 };
	static const uint8_t types[] = { 3, 0x60, 0, 0, 0x60, 2, 0x7f, 0x7e, 1, 0x7f,
					 0x60, 1, 0x7f, 2, 0x7d, 0x7c };
	struct mb m = { 0 }, s = { 0 };

	mb_bytes(&m, magic, sizeof(magic));
	mb_bytes(&s, types, sizeof(types));
	mb_section(&m, 1, &s);
	mb_free(&s);
	if (nimports) {
		mb_uleb(&s, nimports);
		for (unsigned i = 0; i < nimports; i++) {
			char n[16];

			snprintf(n, sizeof(n), "f%u", i);
			mb_str(&s, "env");
			mb_str(&s, n);
			mb_u8(&s, 0);
			mb_u8(&s, 0);
		}
		mb_section(&m, 2, &s);
		mb_free(&s);
	}
	mb_uleb(&s, nbodies);
	for (unsigned i = 0; i < nbodies; i++)
		mb_u8(&s, 0);
	mb_section(&m, 3, &s);
	mb_free(&s);
	mb_uleb(&s, nbodies);
	for (unsigned i = 0; i < nbodies; i++) {
		mb_uleb(&s, bodies[i].len + 2);
		mb_u8(&s, 0);	/* no locals */
		mb_bytes(&s, bodies[i].p, bodies[i].len);
		mb_u8(&s, 0x0b);
	}
	mb_section(&m, 10, &s);
	mb_free(&s);
	if (names) {
		mb_str(&s, "name");
		mb_bytes(&s, names->p, names->len);
		mb_section(&m, 0, &s);
		mb_free(&s);
	}
	return m;
}

struct wasm_module *parse_ok(const struct mb *m)
{
	struct wasm_module *w = NULL;
	char err[256];
	int rc = wasm_module__parse(&w, m->p, m->len, "t.wasm", err, sizeof(err));

	if (rc)
		fail_msg("parse failed (%d): %s", rc, err);
	return w;
}

char *joined(struct wasm_module *w)
{
	const struct wasm_insn *in;
	size_t n = wasm_module__insns(w, &in), len = 1;
	char *s;

	for (size_t i = 0; i < n; i++)
		len += (in[i].text ? strlen(in[i].text) : 1) + 1;
	s = calloc(1, len);
	assert_non_null(s);
	for (size_t i = 0; i < n; i++) {
		if (i)
			strcat(s, "|");
		strcat(s, in[i].text ? in[i].text : "-");
	}
	return s;
}

void expect_body(const uint8_t *code, size_t n, const struct mb *names, const char *want)
{
	struct mb body = { 0 }, m;
	struct wasm_module *w;
	char *got;

	mb_bytes(&body, code, n);
	m = make_module(0, &body, 1, names);
	w = parse_ok(&m);
	got = joined(w);
	assert_string_equal(got, want);
	free(got);
	wasm_module__free(w);
	mb_free(&m);
	mb_free(&body);
}

void expect_error(const struct mb *m, int rc, const char *want)
{
	struct wasm_module *w = (struct wasm_module *)1;
	char err[256];

	assert_int_equal(wasm_module__parse(&w, m->p, m->len, "t.wasm", err, sizeof(err)), rc);
	assert_null(w);
	if (!strstr(err, want))
		fail_msg("error \"%s\" does not contain \"%s\"", err, want);
}

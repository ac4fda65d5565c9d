/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of branch-target label names in the Wasm column (wasm-labels.c,
 * wasm_put_depth): random functions of nested blocks and branches, with label
 * names from a small alphabet (so names repeat and shadow each other), are
 * decoded, and every instruction's text is checked against the rule worked
 * out here from the nesting alone: `br d` names its target label `$n` when
 * the target has name n and no label inside it has the same name; otherwise
 * it prints d, with " (;@i;)" (i = the target's depth) when the target is an
 * unnamed block label. The function label (i = 0) is never named.
 */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

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
		assert_non_null(b->p);
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

static void put_section(struct bytes *m, uint8_t id, const struct bytes *payload)
{
	put_u8(m, id);
	put_uleb(m, payload->n);
	put(m, payload->p, payload->n);
}

/* One function (no params, no locals) with body code, and label names. */
static struct bytes module(const struct bytes *code, const char *const *label_names, size_t labels)
{
	static const uint8_t head[] = { 0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00 };
	static const uint8_t type[] = { 0x01, 0x60, 0x00, 0x00 }, func[] = { 0x01, 0x00 };
	struct bytes m = { 0 }, s = { 0 }, sub = { 0 }, body = { 0 };
	size_t named = 0;

	put(&m, head, sizeof(head));
	s.n = 0, put(&s, type, sizeof(type)), put_section(&m, 1, &s);
	s.n = 0, put(&s, func, sizeof(func)), put_section(&m, 3, &s);
	put_u8(&body, 0x00);			/* no locals */
	put(&body, code->p, code->n);
	s.n = 0, put_uleb(&s, 1), put_uleb(&s, body.n), put(&s, body.p, body.n);
	put_section(&m, 10, &s);
	/* name section, subsection 3: labels of function 0 */
	for (size_t i = 0; i < labels; i++)
		named += label_names[i] != NULL;
	put_uleb(&sub, 1), put_uleb(&sub, 0), put_uleb(&sub, named);
	for (size_t i = 0; i < labels; i++) {
		if (!label_names[i])
			continue;
		put_uleb(&sub, i), put_uleb(&sub, strlen(label_names[i]));
		put(&sub, label_names[i], strlen(label_names[i]));
	}
	s.n = 0, put_uleb(&s, 4), put(&s, "name", 4), put_u8(&s, 3), put_uleb(&s, sub.n);
	put(&s, sub.p, sub.n);
	put_section(&m, 0, &s);
	free(s.p), free(sub.p), free(body.p);
	return m;
}

static void names_follow_the_shadowing_rule(void **state)
{
	static const char *const alphabet[] = { "a", "b", "c", NULL, NULL };
	unsigned seed = 99;

	for (int round = 0; round < 300; round++) {
		struct bytes code = { 0 }, want = { 0 };
		const char *names[256];
		size_t stack[256], depth = 0, labels = 0;
		char line[128];

		for (int k = 0; k < 120; k++) {
			int op = rand_r(&seed) % 10;

			if ((op < 4 && depth < 60 && labels < 256) || !depth) {
				const char *n = alphabet[rand_r(&seed) % 5];

				put_u8(&code, 0x02), put_u8(&code, 0x40);
				names[labels] = n;
				stack[depth++] = labels++;
				if (n)
					snprintf(line, sizeof(line), "block $%s|", n);
				else
					snprintf(line, sizeof(line), "block ;; label = @%zu|", depth);
			} else if (op < 8) {
				size_t d = (size_t)rand_r(&seed) % (depth + 1), i = depth - d;
				const char *n = i ? names[stack[i - 1]] : NULL;
				bool shadowed = false;

				for (size_t j = i; n && j < depth; j++)
					shadowed |= names[stack[j]] && !strcmp(names[stack[j]], n);
				put_u8(&code, 0x0c), put_u8(&code, (uint8_t)d);
				if (n && !shadowed)
					snprintf(line, sizeof(line), "br $%s|", n);
				else if (!n && i)
					snprintf(line, sizeof(line), "br %zu (;@%zu;)|", d, i);
				else
					snprintf(line, sizeof(line), "br %zu|", d);
			} else {
				put_u8(&code, 0x0b);
				depth--;
				snprintf(line, sizeof(line), "end|");
			}
			put(&want, line, strlen(line));
		}
		for (; depth; depth--)
			put_u8(&code, 0x0b), put(&want, "end|", 4);
		put_u8(&code, 0x0b), put(&want, "-", 2);

		struct bytes m = module(&code, names, labels);
		struct wasm_module *w;
		const struct wasm_insn *in;
		char err[256];
		struct bytes got = { 0 };

		assert_int_equal(wasm_module__parse(&w, m.p, m.n, "t.wasm", err, sizeof(err)), 0);
		size_t n = wasm_module__insns(w, &in);

		for (size_t i = 0; i < n; i++) {
			const char *t = in[i].text ? in[i].text : "-";

			put(&got, t, strlen(t));
			put(&got, i + 1 < n ? "|" : "", i + 1 < n ? 1 : 1);
		}
		if (strcmp((char *)got.p, (char *)want.p)) {
			size_t at = 0, from;

			while (got.p[at] == want.p[at])
				at++;
			from = at > 120 ? at - 120 : 0;
			fail_msg("round %d, at byte %zu: ...%.160s\nwant ...%.160s", round, at,
				 (char *)got.p + from, (char *)want.p + from);
		}
		wasm_module__free(w);
		free(m.p), free(code.p), free(want.p), free(got.p);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_follow_the_shadowing_rule),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of branch-target label names in the Wasm column (wasm-labels.c,
 * wasm_labels__put_depth): random functions of nested blocks and branches, with label
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

#include "wasm-builder.h"
#include "annotate/wasm/wasm.h"

/* One function (no params, no locals) with body code, and label names. */
static struct mb module(const struct mb *code, const char *const *label_names, size_t labels)
{
	static const uint8_t head[] = { 0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00 };
	static const uint8_t type[] = { 0x01, 0x60, 0x00, 0x00 }, func[] = { 0x01, 0x00 };
	struct mb m = { 0 }, s = { 0 }, sub = { 0 }, body = { 0 };
	size_t named = 0;

	mb_bytes(&m, head, sizeof(head));
	s.len = 0, mb_bytes(&s, type, sizeof(type)), mb_section(&m, 1, &s);
	s.len = 0, mb_bytes(&s, func, sizeof(func)), mb_section(&m, 3, &s);
	mb_u8(&body, 0x00);			/* no locals */
	mb_bytes(&body, code->p, code->len);
	s.len = 0, mb_uleb(&s, 1), mb_uleb(&s, body.len), mb_bytes(&s, body.p, body.len);
	mb_section(&m, 10, &s);
	/* name section, subsection 3: labels of function 0 */
	for (size_t i = 0; i < labels; i++)
		named += label_names[i] != NULL;
	mb_uleb(&sub, 1), mb_uleb(&sub, 0), mb_uleb(&sub, named);
	for (size_t i = 0; i < labels; i++) {
		if (!label_names[i])
			continue;
		mb_uleb(&sub, i), mb_uleb(&sub, strlen(label_names[i]));
		mb_bytes(&sub, label_names[i], strlen(label_names[i]));
	}
	s.len = 0, mb_uleb(&s, 4), mb_bytes(&s, "name", 4), mb_u8(&s, 3), mb_uleb(&s, sub.len);
	mb_bytes(&s, sub.p, sub.len);
	mb_section(&m, 0, &s);
	free(s.p), free(sub.p), free(body.p);
	return m;
}

static void names_follow_the_shadowing_rule(void **state)
{
	static const char *const alphabet[] = { "a", "b", "c", NULL, NULL };
	unsigned seed = 99;

	for (int round = 0; round < 300; round++) {
		struct mb code = { 0 }, want = { 0 };
		const char *names[256];
		size_t stack[256], depth = 0, labels = 0;
		char line[128];

		for (int k = 0; k < 120; k++) {
			int op = rand_r(&seed) % 10;

			if ((op < 4 && depth < 60 && labels < 256) || !depth) {
				const char *n = alphabet[rand_r(&seed) % 5];

				mb_u8(&code, 0x02), mb_u8(&code, 0x40);
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
				mb_u8(&code, 0x0c), mb_u8(&code, (uint8_t)d);
				if (n && !shadowed)
					snprintf(line, sizeof(line), "br $%s|", n);
				else if (!n && i)
					snprintf(line, sizeof(line), "br %zu (;@%zu;)|", d, i);
				else
					snprintf(line, sizeof(line), "br %zu|", d);
			} else {
				mb_u8(&code, 0x0b);
				depth--;
				snprintf(line, sizeof(line), "end|");
			}
			mb_bytes(&want, line, strlen(line));
		}
		for (; depth; depth--)
			mb_u8(&code, 0x0b), mb_bytes(&want, "end|", 4);
		mb_u8(&code, 0x0b), mb_bytes(&want, "-", 2);

		struct mb m = module(&code, names, labels);
		struct wasm_module *w;
		const struct wasm_insn *in;
		char err[256];
		struct mb got = { 0 };

		assert_int_equal(wasm_module__parse(&w, m.p, m.len, "t.wasm", err, sizeof(err)), 0);
		size_t n = wasm_module__insns(w, &in);

		for (size_t i = 0; i < n; i++) {
			const char *t = in[i].text ? in[i].text : "-";

			mb_bytes(&got, t, strlen(t));
			mb_bytes(&got, i + 1 < n ? "|" : "", i + 1 < n ? 1 : 1);
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

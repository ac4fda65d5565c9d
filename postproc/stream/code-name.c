/* SPDX-License-Identifier: MIT */
/* One code, one name, however it was seen (code-name.h). */
#include <limits.h>
#include <string.h>

#include "code-name.h"

char code_name__family(enum hb_object_kind kind)
{
	return kind == HB_KIND_JIT || kind == HB_KIND_CWASM ? 'J' : 'N';
}

/* A decimal index at *s (no sign, fits an int), *s moved past it. */
static bool parse_index(const char **s, int *v)
{
	const char *p = *s;
	long n = 0;

	if (*p < '0' || *p > '9')
		return false;
	for (; *p >= '0' && *p <= '9'; p++) {
		n = n * 10 + (*p - '0');
		if (n > INT_MAX)
			return false;
	}
	*v = (int)n;
	*s = p;
	return true;
}

bool code_name__wasm_symbol(const char *symbol, int *module, int *func, const char **name)
{
	const char *p = symbol;
	int m, f;

	if (strncmp(p, "wasm[", 5))
		return false;
	p += 5;
	if (!parse_index(&p, &m) || strncmp(p, "]::function[", 12))
		return false;
	p += 12;
	if (!parse_index(&p, &f) || *p++ != ']')
		return false;
	if (*p && strncmp(p, "::", 2))
		return false;
	*module = m;
	*func = f;
	*name = *p ? p + 2 : NULL;
	return true;
}

const char *code_name__canonical(enum hb_object_kind kind, const char *name)
{
	const char *wasm_name;
	int m, f;

	if (kind == HB_KIND_CWASM && code_name__wasm_symbol(name, &m, &f, &wasm_name) && wasm_name &&
	    *wasm_name)
		return wasm_name;
	return name;
}

/* SPDX-License-Identifier: MIT */
/* V8's code names taken apart (see v8-name.h). */
#define _GNU_SOURCE	/* memrchr */
#include <string.h>

#include "v8-name.h"

/* Whether s[0..n) is ":" followed by decimal digits, at least one. */
static bool colon_number(const char *s, size_t n)
{
	if (n < 2 || s[0] != ':')
		return false;
	for (size_t i = 1; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

void v8_name__parse(const char *name, struct v8_name *n)
{
	const char *colon = strchr(name, ':'), *p = name, *sp;

	memset(n, 0, sizeof(*n));
	if (colon && colon > name && !memchr(name, ' ', (size_t)(colon - name))) {
		n->tag = name;
		n->tag_len = (size_t)(colon - name);
		p = colon + 1;
	}
	if (*p && strchr("*^+~", *p))
		n->tier = *p++;
	sp = strchr(p, ' ');
	n->func = p;
	n->func_len = sp ? (size_t)(sp - p) : strlen(p);
	sp = strrchr(name, ' ');
	if (sp && sp[1]) {
		n->where = sp + 1;
		n->where_len = strlen(n->where);
		n->script_len = n->where_len;
		/* ":line:column", either of which may be missing. */
		for (int k = 0; k < 2; k++) {
			const char *c = memrchr(n->where, ':', n->script_len);

			if (c && colon_number(c, n->script_len - (size_t)(c - n->where)))
				n->script_len = (size_t)(c - n->where);
		}
	}
}

bool v8_name__is_js(const struct v8_name *n)
{
	static const char *const tags[] = { "JS", "LazyCompile", "Function", "Script", "Eval" };

	for (size_t i = 0; n->tag && i < sizeof(tags) / sizeof(tags[0]); i++)
		if (n->tag_len == strlen(tags[i]) && !memcmp(n->tag, tags[i], n->tag_len))
			return true;
	return false;
}

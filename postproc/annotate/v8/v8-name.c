/* SPDX-License-Identifier: MIT */
/* V8's code names taken apart (see v8-name.h). */
#define _GNU_SOURCE	/* memrchr */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "lib/util.h"
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

/* The wasm tiers V8 appends to a wasm function's name ("work-1-turbofan"). */
static const char *const wasm_tiers[] = { "-liftoff", "-turbofan" };

size_t v8_name__identity(char *buf, size_t len, const char *name, bool with_location)
{
	const char *p = name, *q, *sp;
	size_t fn, out;

	if (!len)
		return 0;
	/* V8's tag: letters and a single ':' ("JS:", "LazyCompile:", "Function:"). */
	for (q = p; isalpha((unsigned char)*q); q++)
		;
	if (q > p && *q == ':' && q[1] != ':')
		p = q + 1;
	/* Its tier mark: TurboFan *, Sparkplug ^, Ignition ~, Maglev +. */
	if (*p && strchr("*^~+", *p))
		p++;
	sp = strchr(p, ' ');
	fn = sp ? (size_t)(sp - p) : strlen(p);
	for (size_t t = 0; t < ARRAY_SIZE(wasm_tiers); t++) {
		size_t n = strlen(wasm_tiers[t]);

		/* only after the wasm function index: "name-1-turbofan" */
		if (fn > n + 1 && !memcmp(p + fn - n, wasm_tiers[t], n) &&
		    isdigit((unsigned char)p[fn - n - 1])) {
			fn -= n;
			break;
		}
	}
	out = fn < len - 1 ? fn : len - 1;
	memcpy(buf, p, out);
	if (sp) {
		/* " /srv/app.js:5:14"; without the location, " app.js": the same
		 * script run from another directory, or named by another V8 with
		 * or without the column */
		const char *loc = sp, *end = sp + strlen(sp);
		size_t rest;

		if (!with_location) {
			for (int k = 0; k < 2; k++) {
				const char *c = end;

				while (c > sp && isdigit((unsigned char)c[-1]))
					c--;
				if (c == end || c == sp || c[-1] != ':')
					break;
				end = c - 1;
			}
			for (loc = end; loc > sp + 1 && loc[-1] != '/'; loc--)
				;
			if (out < len - 1)
				buf[out++] = ' ';
		}
		rest = (size_t)(end - loc);
		if (rest > len - 1 - out)
			rest = len - 1 - out;
		memcpy(buf + out, loc, rest);
		out += rest;
	}
	buf[out] = '\0';
	return out;
}

bool v8_name__wasm(const char *name, int *index, const char **func, size_t *func_len)
{
	const char *p = name, *q, *end, *digits;
	char unnamed[32];
	long f = 0;
	size_t n = 0;

	for (q = p; isalpha((unsigned char)*q); q++)
		;
	if (q > p && *q == ':' && q[1] != ':')
		p = q + 1;
	end = p + strlen(p);
	for (size_t t = 0; t < ARRAY_SIZE(wasm_tiers) && !n; t++) {
		size_t k = strlen(wasm_tiers[t]);

		if ((size_t)(end - p) > k && !memcmp(end - k, wasm_tiers[t], k))
			n = k;
	}
	if (!n)
		return false;
	end -= n;
	for (digits = end; digits > p && isdigit((unsigned char)digits[-1]); digits--)
		;
	/* "NAME-F": a name (perhaps empty: V8 writes what the module says) and F */
	if (digits == end || digits == p || digits[-1] != '-' || end - digits > 9)
		return false;
	for (q = digits; q < end; q++)
		f = f * 10 + (*q - '0');
	*index = (int)f;
	*func = p;
	*func_len = (size_t)(digits - 1 - p);
	snprintf(unnamed, sizeof(unnamed), "wasm-function[%ld]", f);
	if (!*func_len || (*func_len == strlen(unnamed) && !memcmp(p, unnamed, *func_len))) {
		*func = NULL;
		*func_len = 0;
	}
	return true;
}

const char *v8_name__wasm_tier(const char *name, size_t *base_len)
{
	const char *func;
	size_t func_len, len = strlen(name);
	int index;

	if (!v8_name__wasm(name, &index, &func, &func_len))
		return NULL;
	for (size_t t = 0; t < ARRAY_SIZE(wasm_tiers); t++) {
		size_t k = strlen(wasm_tiers[t]);

		if (len > k && !memcmp(name + len - k, wasm_tiers[t], k)) {
			*base_len = len - k;
			return wasm_tiers[t] + 1;
		}
	}
	return NULL;
}

size_t v8_name__wasm_import_name(const char *func, size_t len)
{
	static const char wrapper[] = "wasm-to-js:";
	const size_t n = sizeof(wrapper) - 1;
	const char *dash;

	if (len <= n || memcmp(func, wrapper, n) || !(dash = memchr(func + n, '-', len - n)))
		return 0;
	return (size_t)(dash + 1 - func);
}

bool v8_name__script(const char *name, char *buf, size_t len)
{
	struct v8_name n;

	v8_name__parse(name, &n);
	if (!n.where || n.where_len >= len || !n.script_len)
		return false;
	memcpy(buf, n.where, n.script_len);
	buf[n.script_len] = '\0';
	return true;
}

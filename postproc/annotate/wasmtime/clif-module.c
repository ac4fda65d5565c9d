/* SPDX-License-Identifier: MIT */
/* The module whose --emit-clif gives some functions' CLIF cheaply (clif-module.h). */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "clif-module.h"
#include "lib/leb128.h"

#define OP_UNREACHABLE 0x00
#define OP_NOP 0x01
#define OP_END 0x0b
#define MAX_DEPTH 64	/* nested components */

struct walk {
	uint8_t *base;
	const struct clif_keep *keep;
	size_t nr;
	uint32_t module;	/* the next core module's M */
	struct clif_module_stats *st;
	char *err;
	size_t errlen;
};

struct cur {
	uint8_t *p, *end;
};

__attribute__((format(printf, 3, 4)))
static int fail(struct walk *w, const uint8_t *at, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (w->err && w->errlen) {
		n = snprintf(w->err, w->errlen, "offset 0x%zx: ", (size_t)(at - w->base));
		va_start(ap, fmt);
		if (n >= 0 && (size_t)n < w->errlen)
			vsnprintf(w->err + n, w->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

static int u32(struct walk *w, struct cur *c, uint32_t *v, const char *what)
{
	const uint8_t *p = c->p;
	uint64_t x;

	if (leb128_read_u(&p, c->end, 32, &x))
		return fail(w, c->p, "bad %s", what);
	c->p = (uint8_t *)(uintptr_t)p;
	*v = (uint32_t)x;
	return 0;
}

static int byte(struct walk *w, struct cur *c, uint8_t *v, const char *what)
{
	if (c->p >= c->end)
		return fail(w, c->p, "no %s", what);
	*v = *c->p++;
	return 0;
}

/* Any LEB128 (u64, s33): skipped. */
static int skip_leb(struct walk *w, struct cur *c, const char *what)
{
	for (int i = 0; i < 10; i++) {
		uint8_t b = 0;

		if (byte(w, c, &b, what))
			return -EINVAL;
		if (!(b & 0x80))
			return 0;
	}
	return fail(w, c->p, "bad %s", what);
}

static int skip_bytes(struct walk *w, struct cur *c, uint32_t n, const char *what)
{
	if ((size_t)(c->end - c->p) < n)
		return fail(w, c->p, "%s past its section", what);
	c->p += n;
	return 0;
}

static int skip_name(struct walk *w, struct cur *c)
{
	uint32_t n = 0;

	return u32(w, c, &n, "name length") || skip_bytes(w, c, n, "name") ? -EINVAL : 0;
}

/* A value or reference type: one byte, or (ref [null] HEAPTYPE). */
static int skip_valtype(struct walk *w, struct cur *c)
{
	uint8_t t = 0;

	if (byte(w, c, &t, "type"))
		return -EINVAL;
	return t == 0x63 || t == 0x64 ? skip_leb(w, c, "heap type") : 0;
}

/* Limits: flags (bit 0: a maximum; bit 3: a page size), minimum, maximum, page size. */
static int skip_limits(struct walk *w, struct cur *c)
{
	uint8_t f = 0;

	if (byte(w, c, &f, "limits") || skip_leb(w, c, "minimum") ||
	    ((f & 1) && skip_leb(w, c, "maximum")) || ((f & 8) && skip_leb(w, c, "page size")))
		return -EINVAL;
	return f & ~0x0fu ? fail(w, c->p - 1, "limits flags 0x%x", f) : 0;
}

/* The import section: how many functions it imports (they come first in the index space). */
static int count_imports(struct walk *w, struct cur c, uint32_t *funcs)
{
	uint32_t n = 0, i, idx = 0;
	uint8_t kind = 0;

	if (u32(w, &c, &n, "import count"))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (skip_name(w, &c) || skip_name(w, &c) || byte(w, &c, &kind, "import kind"))
			return -EINVAL;
		switch (kind) {
		case 0x00:	/* func */
		case 0x20:	/* func, exact type */
			if (u32(w, &c, &idx, "type index"))
				return -EINVAL;
			++*funcs;
			break;
		case 0x01:	/* table */
			if (skip_valtype(w, &c) || skip_limits(w, &c))
				return -EINVAL;
			break;
		case 0x02:	/* memory */
			if (skip_limits(w, &c))
				return -EINVAL;
			break;
		case 0x03:	/* global */
			if (skip_valtype(w, &c) || byte(w, &c, &kind, "mutability"))
				return -EINVAL;
			break;
		case 0x04:	/* tag */
			if (byte(w, &c, &kind, "tag attribute") || u32(w, &c, &idx, "type index"))
				return -EINVAL;
			break;
		default:
			return fail(w, c.p - 1, "import kind 0x%x", kind);
		}
	}
	return c.p == c.end ? 0 : fail(w, c.p, "bytes after the imports");
}

static bool kept(const struct walk *w, uint32_t module, uint32_t func)
{
	size_t lo = 0, hi = w->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct clif_keep *k = &w->keep[mid];

		if (k->module < module || (k->module == module && k->func < func))
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < w->nr && w->keep[lo].module == module && w->keep[lo].func == func;
}

/* The code section: each body not kept becomes unreachable, nop..., end, of its own size. */
static int stub_code(struct walk *w, struct cur c, uint32_t module, uint32_t imported)
{
	uint32_t n = 0, i, size = 0;

	if (u32(w, &c, &n, "function count"))
		return -EINVAL;
	for (i = 0; i < n; i++) {
		if (u32(w, &c, &size, "body size") || (size_t)(c.end - c.p) < size)
			return fail(w, c.p, "function body %u past the code section", i);
		/* 3 bytes: no locals, unreachable, end; a smaller body is left as it is */
		if (kept(w, module, imported + i) || size < 3) {
			w->st->kept++;
		} else {
			c.p[0] = 0x00;
			c.p[1] = OP_UNREACHABLE;
			memset(c.p + 2, OP_NOP, size - 3);
			c.p[size - 1] = OP_END;
			w->st->stubbed++;
		}
		c.p += size;
	}
	return c.p == c.end ? 0 : fail(w, c.p, "bytes after the function bodies");
}

/* The name section's function names (subsection 1): each '/' made '_'. */
static int patch_names(struct walk *w, struct cur c)
{
	uint32_t size = 0, n = 0, i, idx = 0, len = 0;
	uint8_t id = 0;

	while (c.p < c.end) {
		if (byte(w, &c, &id, "name subsection") || u32(w, &c, &size, "name subsection size") ||
		    (size_t)(c.end - c.p) < size)
			return fail(w, c.p, "name subsection past its section");
		if (id == 1) {
			struct cur s = { c.p, c.p + size };

			if (u32(w, &s, &n, "name count"))
				return -EINVAL;
			for (i = 0; i < n; i++) {
				if (u32(w, &s, &idx, "function index") || u32(w, &s, &len, "name length") ||
				    (size_t)(s.end - s.p) < len)
					return fail(w, s.p, "function name past its subsection");
				for (uint8_t *q = s.p; q < s.p + len; q++)
					if (*q == '/') {
						*q = '_';
						w->st->slashes++;
					}
				s.p += len;
			}
		}
		c.p += size;
	}
	return 0;
}

static int section(struct walk *w, struct cur *c, uint8_t *id, struct cur *body)
{
	uint32_t size = 0;

	if (byte(w, c, id, "section id") || u32(w, c, &size, "section size"))
		return -EINVAL;
	if ((size_t)(c->end - c->p) < size)
		return fail(w, c->p, "section 0x%x past the end", *id);
	*body = (struct cur){ c->p, c->p + size };
	c->p += size;
	return 0;
}

static int core_module(struct walk *w, struct cur c)
{
	static const uint8_t head[8] = { 0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00 };
	uint32_t module = w->module++, imported = 0;
	struct cur body;
	uint8_t id = 0;

	if (c.end - c.p < 8 || memcmp(c.p, head, 8))
		return fail(w, c.p, "not a core module of version 1");
	c.p += 8;
	w->st->modules++;
	while (c.p < c.end) {
		if (section(w, &c, &id, &body))
			return -EINVAL;
		if (id == 2 && count_imports(w, body, &imported))
			return -EINVAL;
		if (id == 10 && stub_code(w, body, module, imported))
			return -EINVAL;
		if (id == 0) {
			uint32_t n = 0;

			if (u32(w, &body, &n, "custom section name") || (size_t)(body.end - body.p) < n)
				return fail(w, body.p, "custom section name past its section");
			if (n == 4 && !memcmp(body.p, "name", 4)) {
				body.p += 4;
				if (patch_names(w, body))
					return -EINVAL;
			}
		}
	}
	return 0;
}

static int component(struct walk *w, struct cur c, int depth)
{
	static const uint8_t head[8] = { 0x00, 'a', 's', 'm', 0x0d, 0x00, 0x01, 0x00 };
	struct cur body;
	uint8_t id = 0;

	if (depth > MAX_DEPTH)
		return fail(w, c.p, "components nested more than %d deep", MAX_DEPTH);
	if (c.end - c.p < 8 || memcmp(c.p, head, 8))
		return fail(w, c.p, "not a component of layer 1");
	c.p += 8;
	while (c.p < c.end) {
		if (section(w, &c, &id, &body))
			return -EINVAL;
		if (id == 1 && core_module(w, body))
			return -EINVAL;
		if (id == 4 && component(w, body, depth + 1))
			return -EINVAL;
	}
	return 0;
}

int clif_module__make(uint8_t *buf, size_t len, const struct clif_keep *keep, size_t nr,
		      struct clif_module_stats *st, char *err, size_t errlen)
{
	struct walk w = { buf, keep, nr, 0, st, err, errlen };
	struct cur c = { buf, buf + len };

	memset(st, 0, sizeof(*st));
	if (err && errlen)
		err[0] = '\0';
	for (size_t i = 1; i < nr; i++)
		if (keep[i].module < keep[i - 1].module ||
		    (keep[i].module == keep[i - 1].module && keep[i].func <= keep[i - 1].func))
			return fail(&w, buf, "the functions kept are not sorted (a bug)");
	if (len >= 8 && buf[4] == 0x0d)
		return component(&w, c, 0);
	return core_module(&w, c);
}

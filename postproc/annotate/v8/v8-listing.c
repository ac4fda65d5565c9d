/* SPDX-License-Identifier: MIT */
/* V8's --print-wasm-code listing: each function's source positions (v8-listing.h). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/lib/bsearch.h"
#include "../plugin/lib/vec.h"
#include "v8-listing.h"

struct pos {
	uint32_t pc, wasm;		/* pc offset in the code; position in the body */
};

struct lcode {
	uint64_t addr;			/* its first instruction's */
	int index;
	char tier[16];			/* "turbofan", "liftoff", lower case */
	bool ambiguous;			/* another listed code starts there too */
	size_t first, nr;		/* its positions: pos[first ..] by pc */
};

struct v8_listing {
	struct lcode *c;
	size_t c_nr, c_alloc;
	struct pos *pos;
	size_t pos_nr, pos_alloc;
	uint32_t *body;			/* each defined function's body offset in the module */
	uint32_t *body_size;		/* and its size */
	size_t body_nr;
	uint32_t imports;		/* imported functions: the first indexes */
};

/* "FILE:LINE: what" (a listing's line), or "FILE: offset N: what" (the module's byte). */
static int fail(char *err, size_t errlen, int rc, bool line, const char *file, unsigned long at,
		const char *what)
{
	if (line)
		snprintf(err, errlen, "%s:%lu: %s", file, at, what);
	else
		snprintf(err, errlen, "%s: offset %lu: %s", file, at, what);
	return rc;
}

/* An unsigned LEB128 at *p (< end). */
static bool leb(const uint8_t **p, const uint8_t *end, uint32_t *v)
{
	uint64_t r = 0;

	for (unsigned shift = 0; *p < end && shift < 35; shift += 7) {
		uint8_t b = *(*p)++;

		r |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*v = (uint32_t)r;
			return r <= UINT32_MAX;
		}
	}
	return false;
}

/* Skip a name (length-prefixed bytes). */
static bool skip_name(const uint8_t **p, const uint8_t *end)
{
	uint32_t n;

	if (!leb(p, end, &n) || n > (size_t)(end - *p))
		return false;
	*p += n;
	return true;
}

/* The module's function imports and its function bodies' offsets. */
static int read_module(struct v8_listing *l, const char *path, char *err, size_t errlen)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	long size;
	const uint8_t *p, *end;
	int rc = -EINVAL;

	if (!f)
		return fail(err, errlen, -errno, false, path, 0, strerror(errno));
	if (fseek(f, 0, SEEK_END) || (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    !(buf = malloc(size ? (size_t)size : 1)) || fread(buf, 1, (size_t)size, f) != (size_t)size) {
		fclose(f);
		free(buf);
		return fail(err, errlen, -EIO, false, path, 0, "cannot read it");
	}
	fclose(f);
	p = buf;
	end = buf + size;
	if (size < 8 || memcmp(buf, "\0asm\1\0\0\0", 8)) {
		rc = fail(err, errlen, -EINVAL, false, path, 0, "not a wasm module (version 1)");
		goto out;
	}
	p += 8;
	while (p < end) {
		uint8_t id = *p++;
		uint32_t len, n;
		const uint8_t *at = p, *sec_end;

		if (!leb(&p, end, &len) || len > (size_t)(end - p))
			goto bad;
		sec_end = p + len;
		if (id == 2) {		/* imports: count the functions */
			if (!leb(&p, sec_end, &n))
				goto bad;
			for (uint32_t i = 0; i < n; i++) {
				uint8_t kind;
				uint32_t x;

				if (!skip_name(&p, sec_end) || !skip_name(&p, sec_end) || p >= sec_end)
					goto bad;
				kind = *p++;
				if (kind == 0) {
					l->imports++;
					if (!leb(&p, sec_end, &x))
						goto bad;
				} else if (kind == 1) {		/* table: reftype, limits */
					if (p >= sec_end)
						goto bad;
					p++;
					goto limits;
				} else if (kind == 2) {		/* memory: limits */
limits:
					if (p >= sec_end)
						goto bad;
					{
						uint8_t fl = *p++;

						if (!leb(&p, sec_end, &x) || ((fl & 1) && !leb(&p, sec_end, &x)))
							goto bad;
					}
				} else if (kind == 3) {		/* global: valtype, mut */
					if (sec_end - p < 2)
						goto bad;
					p += 2;
				} else if (kind == 4) {		/* tag: attribute, type */
					if (p >= sec_end)
						goto bad;
					p++;
					if (!leb(&p, sec_end, &x))
						goto bad;
				} else {
					goto bad;
				}
			}
		} else if (id == 10) {	/* code: each body's offset */
			if (!leb(&p, sec_end, &n) || n > len)
				goto bad;
			l->body = malloc((n ? n : 1) * sizeof(*l->body));
			l->body_size = malloc((n ? n : 1) * sizeof(*l->body_size));
			if (!l->body || !l->body_size) {
				rc = -ENOMEM;
				snprintf(err, errlen, "out of memory");
				goto out;
			}
			for (uint32_t i = 0; i < n; i++) {
				uint32_t bl;

				if (!leb(&p, sec_end, &bl) || bl > (size_t)(sec_end - p))
					goto bad;
				l->body[i] = (uint32_t)(p - buf);
				l->body_size[i] = bl;
				p += bl;
			}
			l->body_nr = n;
		}
		p = sec_end;
		(void)at;
	}
	if (!l->body) {
		rc = fail(err, errlen, -EINVAL, false, path, (unsigned long)size,
			  "no code section");
		goto out;
	}
	rc = 0;
	goto out;
bad:
	rc = fail(err, errlen, -EINVAL, false, path, (unsigned long)(p - buf),
		  "bad section (cut short, or a count that does not fit)");
out:
	free(buf);
	return rc;
}

static int pos_cmp(const void *a, const void *b)
{
	const struct pos *x = a, *y = b;

	return x->pc < y->pc ? -1 : x->pc > y->pc;
}

static int code_cmp(const void *a, const void *b)
{
	const struct lcode *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

enum state { OUTSIDE, HEADER, INSNS, POSITIONS };

int v8_listing__open(struct v8_listing **out, const char *path, const char *wasm, char *err,
		     size_t errlen)
{
	struct v8_listing *l = calloc(1, sizeof(*l));
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	unsigned long ln = 0;
	enum state st = OUTSIDE;
	struct lcode *cur = NULL;
	bool have_addr = false;
	int rc;

	*out = NULL;
	if (!l) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	if (!wasm) {
		v8_listing__close(l);
		snprintf(err, errlen, "%s: V8's positions are of the function's body: name the module it ran "
			 "with --wasm (--base-wasm, --new-wasm)", path);
		return -EINVAL;
	}
	if ((rc = read_module(l, wasm, err, errlen))) {
		v8_listing__close(l);
		return rc;
	}
	if (!(f = fopen(path, "r"))) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		v8_listing__close(l);
		return rc;
	}
	rc = 0;
	while (getline(&line, &cap, f) > 0) {
		char *s = line;

		ln++;
		s[strcspn(s, "\r\n")] = 0;
		if (!strcmp(s, "--- WebAssembly code ---")) {
			if (st != OUTSIDE) {
				rc = fail(err, errlen, -EINVAL, true, path, ln,
					  "a function's listing starts inside another's");
				break;
			}
			if (VEC_GROW(l->c, l->c_nr + 1, l->c_alloc)) {
				rc = -ENOMEM;
				snprintf(err, errlen, "out of memory");
				break;
			}
			cur = &l->c[l->c_nr++];
			*cur = (struct lcode){ .index = -1, .first = l->pos_nr };
			have_addr = false;
			st = HEADER;
		} else if (!strcmp(s, "--- End code ---")) {
			if (st == OUTSIDE)
				continue;
			if (!have_addr || cur->index < 0 || !cur->tier[0]) {
				rc = fail(err, errlen, -EINVAL, true, path, ln,
					  "a function's listing without its index, compiler or first instruction");
				break;
			}
			cur->nr = l->pos_nr - cur->first;
			qsort(l->pos + cur->first, cur->nr, sizeof(*l->pos), pos_cmp);
			st = OUTSIDE;
		} else if (st == HEADER || st == INSNS || st == POSITIONS) {
			unsigned long long a, b;
			int idx;
			char word[16];

			if (st == POSITIONS) {
				if (!*s) {
					st = INSNS;	/* the tables after it */
					continue;
				}
				if (sscanf(s, " %llx %llu", &a, &b) == 2) {
					if (a > UINT32_MAX || b > UINT32_MAX) {
						rc = fail(err, errlen, -EINVAL, true, path, ln,
							  "a source position out of range");
						break;
					}
					if (VEC_GROW(l->pos, l->pos_nr + 1, l->pos_alloc)) {
						rc = -ENOMEM;
						snprintf(err, errlen, "out of memory");
						break;
					}
					l->pos[l->pos_nr++] = (struct pos){ (uint32_t)a, (uint32_t)b };
				}
				continue;
			}
			if (sscanf(s, "index: %d", &idx) == 1 && st == HEADER) {
				cur->index = idx;
			} else if (sscanf(s, "compiler: %15s", word) == 1 && st == HEADER) {
				for (char *w = word; *w; w++)
					*w = (char)(*w >= 'A' && *w <= 'Z' ? *w - 'A' + 'a' : *w);
				memcpy(cur->tier, word, sizeof(cur->tier));
			} else if (!strncmp(s, "Instructions (", 14)) {
				st = INSNS;
			} else if (st == INSNS && !have_addr && sscanf(s, "0x%llx %llx", &a, &b) == 2 && b == 0) {
				cur->addr = a;
				have_addr = true;
			} else if (!strcmp(s, "Source positions:")) {
				st = POSITIONS;
			}
		}
	}
	free(line);
	fclose(f);
	if (!rc && st != OUTSIDE)
		rc = fail(err, errlen, -EINVAL, true, path, ln, "cut short inside a function's listing");
	if (rc) {
		v8_listing__close(l);
		return rc;
	}
	if (l->c_nr > 1)
		qsort(l->c, l->c_nr, sizeof(*l->c), code_cmp);
	/* Code freed and its place reused: which listing a load is, is not known. */
	for (size_t i = 1; i < l->c_nr; i++)
		if (l->c[i].addr == l->c[i - 1].addr)
			l->c[i].ambiguous = l->c[i - 1].ambiguous = true;
	*out = l;
	return 0;
}

void v8_listing__close(struct v8_listing *l)
{
	if (!l)
		return;
	free(l->c);
	free(l->pos);
	free(l->body);
	free(l->body_size);
	free(l);
}

/* The listed code of function index by tier at addr, once, with a body; or NULL. */
static const struct lcode *find(const struct v8_listing *l, uint64_t addr, int index, const char *tier)
{
	const struct lcode *c;
	size_t lo;

	if (!l)
		return NULL;
	lo = LOWER_BOUND(l->c_nr, i, l->c[i].addr < addr);
	if (lo >= l->c_nr || l->c[lo].addr != addr)
		return NULL;
	c = &l->c[lo];
	if (c->ambiguous || c->index != index || !tier || strcmp(c->tier, tier) || index < 0 ||
	    (uint32_t)index < l->imports || (uint32_t)index - l->imports >= l->body_nr)
		return NULL;
	return c;
}

bool v8_listing__has(const struct v8_listing *l, uint64_t addr, int index, const char *tier)
{
	return find(l, addr, index, tier) != NULL;
}

bool v8_listing__wasm_offset(const struct v8_listing *l, uint64_t addr, int index, const char *tier,
			     uint32_t off, uint32_t *wasm_off)
{
	const struct lcode *c = find(l, addr, index, tier);
	size_t lo;
	uint32_t defined;

	if (!c)
		return false;
	defined = (uint32_t)c->index - l->imports;
	lo = LOWER_BOUND(c->nr, i, l->pos[c->first + i].pc < off);
	if (lo >= c->nr || l->pos[c->first + lo].pc != off)
		return false;
	/* (Two positions at one pc: the first, by sort order; V8 gives one.)
	 * One outside the body is not of this module's function. */
	if (l->pos[c->first + lo].wasm >= l->body_size[defined])
		return false;
	*wasm_off = l->body[defined] + l->pos[c->first + lo].wasm;
	return true;
}

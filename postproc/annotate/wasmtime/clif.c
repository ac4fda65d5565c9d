/* SPDX-License-Identifier: MIT */
/* Reader of wasmtime's --emit-clif directory: Cranelift IR text keyed by symbol and wasm offset. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../plugin/lib/bsearch.h"
#include "clif.h"
#include "lib/read-file.h"
#include "lib/strbuf.h"
#include "lib/util.h"

#define HEADER_PREFIX ";; Intermediate Representation of function <"
#define HEADER_SUFFIX ">:"

/* The joined text of one wasm offset: texts + text_at, NUL-terminated. */
struct clif_off {
	uint32_t wasm_off;
	size_t text_at;
};

struct clif_func {
	char *symbol;
	char *path;
	struct clif_off *offs;	/* sorted by wasm_off, unique */
	size_t nr_offs;
	char *texts;
};

struct clif_set {
	struct clif_func **funcs;
	size_t nr, alloc;
	struct idx_table by_symbol;
	struct clif_stats stats;
	char *first_warning;
};

/* One srcloc'd line while parsing: a span of the input. */
struct line_ref {
	uint32_t wasm_off;
	size_t order;
	const char *text;
	size_t len;
};

__attribute__((format(printf, 3, 4)))
static void warnf(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;

	if (!buf || !len || buf[0])
		return;
	va_start(ap, fmt);
	vsnprintf(buf, len, fmt, ap);
	va_end(ap);
}

static bool blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The SYMBOL of a header line (len bytes, no newline) into *out: 0, -ENOENT (not one) or -ENOMEM. */
static int header_symbol(const char *p, size_t len, char **out)
{
	size_t pre = strlen(HEADER_PREFIX), suf = strlen(HEADER_SUFFIX);

	size_t i;

	if (len < pre + suf + 1 || memcmp(p, HEADER_PREFIX, pre) ||
	    memcmp(p + len - suf, HEADER_SUFFIX, suf))
		return -ENOENT;
	/* wasmtime cleans names into printable symbols (FORMATS.md): anything else is no header. */
	for (i = pre; i < len - suf; i++)
		if ((unsigned char)p[i] < 0x20 || p[i] == 0x7f)
			return -ENOENT;
	*out = strndup(p + pre, len - pre - suf);
	return *out ? 0 : -ENOMEM;
}

/*
 * Classify one line: 1 with *ref filled for an instruction with a srcloc,
 * 0 for a line without one, -1 for a bad line (why in *why).
 */
static int parse_line(const char *p, size_t len, struct line_ref *ref, const char **why)
{
	const char *end = p + len, *q;
	uint64_t v = 0;
	int digits = 0, d;

	/* CLIF text has none; kept ones would garble the table the text ends up in. */
	for (q = p; q < end; q++) {
		if (((unsigned char)*q < 0x20 && *q != '\t') || *q == 0x7f) {
			*why = "control character";
			return -1;
		}
	}
	while (p < end && blank(*p))
		p++;
	/* Guest-debug tags: "<tag, tag> " replaces part of the indentation (write.rs). */
	if (p < end && *p == '<') {
		q = memchr(p, '>', end - p);
		if (!q) {
			*why = "unclosed <tag> prefix";
			return -1;
		}
		for (p = q + 1; p < end && blank(*p); p++)
			;
	}
	if (p == end || *p != '@')
		return 0;
	for (p++; p < end && (d = hexval(*p)) >= 0; p++, digits++) {
		v = v << 4 | d;
		/* Leading zeros may pad; what counts is that the value fits. */
		if (v > UINT32_MAX) {
			*why = "srcloc beyond 32 bits";
			return -1;
		}
	}
	if (!digits || (p < end && !blank(*p))) {
		*why = "srcloc is not '@' and hex digits";
		return -1;
	}
	/* write.rs prints no prefix at all for the default (none) srcloc 0xffffffff. */
	if (v == UINT32_MAX) {
		*why = "srcloc 0xffffffff is the none location";
		return -1;
	}
	while (p < end && blank(*p))
		p++;
	while (end > p && blank(end[-1]))
		end--;
	if (p == end) {
		*why = "srcloc without an instruction";
		return -1;
	}
	ref->wasm_off = v;
	ref->text = p;
	ref->len = end - p;
	return 1;
}

static int cmp_line_ref(const void *a, const void *b)
{
	const struct line_ref *x = a, *y = b;

	if (x->wasm_off != y->wasm_off)
		return x->wasm_off < y->wasm_off ? -1 : 1;
	return x->order < y->order ? -1 : x->order > y->order;
}

/* Join the texts of equal offsets with "; ", as the reference does, into f->offs/f->texts. */
static int build_offsets(struct clif_func *f, struct line_ref *refs, size_t nr)
{
	size_t i, total = 0, n = 0, at = 0;

	if (!nr)
		return 0;
	qsort(refs, nr, sizeof(*refs), cmp_line_ref);
	for (i = 0; i < nr; i++) {
		total += refs[i].len + 2;	/* "; " or the NUL */
		if (!i || refs[i].wasm_off != refs[i - 1].wasm_off)
			n++;
	}
	f->texts = malloc(total);
	f->offs = malloc(n * sizeof(*f->offs));
	if (!f->texts || !f->offs)
		return -ENOMEM;
	for (i = 0; i < nr; i++) {
		if (i && refs[i].wasm_off == refs[i - 1].wasm_off) {
			f->texts[at - 1] = ';';
			f->texts[at++] = ' ';
		} else {
			f->offs[f->nr_offs].wasm_off = refs[i].wasm_off;
			f->offs[f->nr_offs++].text_at = at;
		}
		memcpy(f->texts + at, refs[i].text, refs[i].len);
		at += refs[i].len;
		f->texts[at++] = '\0';
	}
	return 0;
}

int clif_func__parse(struct clif_func **out, const char *buf, size_t len, const char *name,
		     size_t *bad_lines, char *warn, size_t warnlen)
{
	struct line_ref *refs = NULL;
	size_t nr = 0, alloc = 0, bad = 0, lineno = 1;
	const char *p = buf, *end = buf + len, *nl;
	struct clif_func *f;
	size_t l;
	int ret;

	if (warn && warnlen)
		warn[0] = '\0';
	if (!len)
		return -ENOENT;
	nl = memchr(p, '\n', len);
	l = (nl ? nl : end) - p;
	if (l && p[l - 1] == '\r')
		l--;
	f = calloc(1, sizeof(*f));
	if (!f)
		return -ENOMEM;
	ret = header_symbol(p, l, &f->symbol);
	if (ret)
		goto out_free;
	f->path = strdup("");
	if (!f->path) {
		ret = -ENOMEM;
		goto out_free;
	}

	for (p = nl ? nl + 1 : end; p < end; p = nl ? nl + 1 : end) {
		struct line_ref ref;
		const char *why = NULL;
		int kind;

		lineno++;
		nl = memchr(p, '\n', end - p);
		l = (nl ? nl : end) - p;
		if (l && p[l - 1] == '\r')
			l--;
		kind = parse_line(p, l, &ref, &why);
		if (kind < 0) {
			bad++;
			warnf(warn, warnlen, "%s:%zu: %s", name, lineno, why);
			continue;
		}
		if (!kind)
			continue;
		ret = VEC_GROW(refs, nr + 1, alloc);
		if (ret)
			goto out_free;
		ref.order = nr;
		refs[nr++] = ref;
	}
	ret = build_offsets(f, refs, nr);
	if (ret)
		goto out_free;
	free(refs);
	if (bad_lines)
		*bad_lines = bad;
	*out = f;
	return 0;

out_free:
	free(refs);
	clif_func__free(f);
	return ret;
}

void clif_func__free(struct clif_func *f)
{
	if (!f)
		return;
	free(f->symbol);
	free(f->path);
	free(f->offs);
	free(f->texts);
	free(f);
}

const char *clif_func__symbol(const struct clif_func *f)
{
	return f->symbol;
}

const char *clif_func__path(const struct clif_func *f)
{
	return f->path;
}

const char *clif_func__text(const struct clif_func *f, uint32_t wasm_off)
{
	size_t lo = LOWER_BOUND(f->nr_offs, i, f->offs[i].wasm_off < wasm_off);

	if (lo == f->nr_offs || f->offs[lo].wasm_off != wasm_off)
		return NULL;
	return f->texts + f->offs[lo].text_at;
}

size_t clif_func__nr_offsets(const struct clif_func *f)
{
	return f->nr_offs;
}

static bool symbol_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct clif_set *s = ctx;

	return !strcmp(s->funcs[idx]->symbol, key);
}

static uint64_t symbol_hash(const char *symbol)
{
	return hash_bytes(HASH_SEED, symbol, strlen(symbol));
}

__attribute__((format(printf, 2, 3)))
static int set_warn(struct clif_set *s, const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	if (s->first_warning)
		return 0;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	s->first_warning = strdup(buf);
	return s->first_warning ? 0 : -ENOMEM;
}

/* Add (or, for a symbol already present, replace with) f; takes ownership of f. */
static int set_add(struct clif_set *s, struct clif_func *f)
{
	uint64_t h = symbol_hash(f->symbol);
	long i = idx_table_find(&s->by_symbol, h, symbol_eq, f->symbol, s);
	int ret;

	s->stats.files++;
	if (i >= 0) {
		s->stats.duplicates++;
		ret = set_warn(s, "%s: function %s again (first in %s); using this file", f->path,
			       f->symbol, s->funcs[i]->path);
		clif_func__free(s->funcs[i]);
		s->funcs[i] = f;
		return ret;
	}
	ret = VEC_GROW(s->funcs, s->nr + 1, s->alloc);
	if (!ret && s->nr >= UINT32_MAX)
		ret = -ENOMEM;
	if (!ret)
		ret = idx_table_add(&s->by_symbol, h, s->nr);
	if (ret) {
		clif_func__free(f);
		return ret;
	}
	s->funcs[s->nr++] = f;
	return 0;
}

static int load_file(struct clif_set *s, const char *path)
{
	char warn[512];
	struct clif_func *f;
	struct stat st;
	size_t len = 0, bad = 0;
	uint8_t *buf = NULL;
	int ret;

	/* stat, not lstat: a symlink to a CLIF file is one; a dangling one is unreadable. */
	if (!stat(path, &st) && !S_ISREG(st.st_mode))
		return 0;
	ret = read_file(path, CLIF_MAX_FILE_SIZE, "256 MiB", 0, &buf, &len, warn, sizeof(warn));
	if (ret == -ENOMEM)
		return ret;
	if (ret) {
		s->stats.unidentified++;
		if (ret == -EFBIG)
			return set_warn(s, "%s: too big for a CLIF file", path);
		return set_warn(s, "%s", warn);
	}
	ret = clif_func__parse(&f, (const char *)buf, len, path, &bad, warn, sizeof(warn));
	free(buf);
	if (ret == -ENOENT) {
		s->stats.unidentified++;
		return set_warn(s, "%s: not a CLIF file (no \";; Intermediate Representation of "
				"function <...>:\" first line)", path);
	}
	if (ret)
		return ret;
	s->stats.bad_lines += bad;
	free(f->path);
	f->path = strdup(path);
	if (!f->path || (bad && set_warn(s, "%s", warn))) {
		clif_func__free(f);
		return -ENOMEM;
	}
	return set_add(s, f);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int clif_set__load(struct clif_set **out, const char *dir, char *err, size_t errlen)
{
	char **names = NULL, *path = NULL;
	size_t nr = 0, alloc = 0, i;
	struct clif_set *s;
	struct dirent *de;
	DIR *d;
	int ret;

	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	d = opendir(dir);
	if (!d) {
		ret = -errno;
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", dir, strerror(-ret));
		free(s);
		return ret;
	}
	while ((errno = 0, de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		ret = VEC_GROW(names, nr + 1, alloc);
		if (ret)
			goto out;
		names[nr] = strdup(de->d_name);
		if (!names[nr]) {
			ret = -ENOMEM;
			goto out;
		}
		nr++;
	}
	if (errno) {
		ret = -errno;
		if (err && errlen)
			snprintf(err, errlen, "%s: %s", dir, strerror(-ret));
		goto out;
	}
	if (nr)
		qsort(names, nr, sizeof(*names), cmp_str);
	for (i = 0; i < nr; i++) {
		size_t n = strlen(dir) + strlen(names[i]) + 2;

		free(path);
		path = malloc(n);
		if (!path) {
			ret = -ENOMEM;
			goto out;
		}
		snprintf(path, n, "%s/%s", dir, names[i]);
		ret = load_file(s, path);
		if (ret)
			goto out;
	}
	ret = 0;
out:
	closedir(d);
	for (i = 0; i < nr; i++)
		free(names[i]);
	free(names);
	free(path);
	if (ret) {
		if (ret == -ENOMEM && err && errlen)
			snprintf(err, errlen, "%s: out of memory", dir);
		clif_set__free(s);
		return ret;
	}
	*out = s;
	return 0;
}

void clif_set__free(struct clif_set *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr; i++)
		clif_func__free(s->funcs[i]);
	free(s->funcs);
	idx_table_release(&s->by_symbol);
	free(s->first_warning);
	free(s);
}

const struct clif_stats *clif_set__stats(const struct clif_set *s)
{
	return &s->stats;
}

const char *clif_set__first_warning(const struct clif_set *s)
{
	return s->first_warning;
}

size_t clif_set__nr(const struct clif_set *s)
{
	return s->nr;
}

static const struct clif_func *find_exact(const struct clif_set *s, const char *symbol)
{
	long i = idx_table_find(&s->by_symbol, symbol_hash(symbol), symbol_eq, symbol, s);

	return i < 0 ? NULL : s->funcs[i];
}

/*
 * wasmtime 50 names a function's CLIF after the ABI left in the reused
 * Cranelift context by the last component trampoline compiled in it
 * (FORMATS.md): "SYMBOL_wasm_call", which functions varying from run to run.
 * The code is the function's own; only the header and file name are off.
 */
static const char *const abi_suffixes[] = { "_wasm_call", "_array_call", "_patchable_call" };

const struct clif_func *clif_set__find(const struct clif_set *s, const char *symbol)
{
	const struct clif_func *f = find_exact(s, symbol);
	struct strbuf sb = { 0 };

	for (size_t k = 0; !f && k < ARRAY_SIZE(abi_suffixes); k++) {
		strbuf_reset(&sb);
		strbuf_addstr(&sb, symbol);
		strbuf_addstr(&sb, abi_suffixes[k]);
		if (sb.oom)
			break;
		f = find_exact(s, sb.buf);
	}
	strbuf_release(&sb);
	return f;
}

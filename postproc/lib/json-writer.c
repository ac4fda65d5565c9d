/* SPDX-License-Identifier: MIT */
/* Writing JSON (json-writer.h): the nesting, the commas, the one escaper. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "json-writer.h"
#include "../plugin/lib/utf8.h"

#define REPLACEMENT "\xef\xbf\xbd"	/* U+FFFD */

/* What a style writes for an ASCII character by name; NULL: none. */
static const char *const named[2][128] = {
	[JSON_DOCUMENT] = { ['"'] = "\\\"", ['\\'] = "\\\\", ['\n'] = "\\n", ['\t'] = "\\t",
			    ['\r'] = "\\r" },
	[JSON_SCRIPT] = { ['"'] = "\\\"", ['\\'] = "\\\\", ['\n'] = "\\n", ['\t'] = "\\t",
			  ['<'] = "\\u003c", ['>'] = "\\u003e", ['&'] = "\\u0026" },
};

/*
 * Printable ASCII that a style writes as it is: the common case, tested
 * first, one load a byte (bytes from 0x80 go to escape(), which decodes).
 */
#define DOC_PLAIN(c) ((c) >= 0x20 && (c) < 0x7f && (c) != '"' && (c) != '\\')
#define SCRIPT_PLAIN(c) (DOC_PLAIN(c) && (c) != '<' && (c) != '>' && (c) != '&')
#define ROW4(F, c) F(c), F((c) + 1), F((c) + 2), F((c) + 3)
#define ROW16(F, c) ROW4(F, c), ROW4(F, (c) + 4), ROW4(F, (c) + 8), ROW4(F, (c) + 12)
#define ROW128(F) ROW16(F, 0), ROW16(F, 16), ROW16(F, 32), ROW16(F, 48), ROW16(F, 64), \
		  ROW16(F, 80), ROW16(F, 96), ROW16(F, 112)
static const bool plain_byte[2][256] = {
	[JSON_DOCUMENT] = { ROW128(DOC_PLAIN) },
	[JSON_SCRIPT] = { ROW128(SCRIPT_PLAIN) },
};

/*
 * The character (or bad byte) at s[0..n), n > 0, that plain_byte does
 * not pass: what style writes for it in *rep (NULL: itself, valid UTF-8 that
 * is no control), buf holding a \uXXXX escape. Returns the bytes it is;
 * at most 4 are read, and a NUL fails a continuation byte's test.
 */
static size_t escape(const unsigned char *s, size_t n, enum json_style style, char buf[8],
		     const char **rep)
{
	static const char hex[] = "0123456789abcdef";
	uint32_t cp = s[0];
	size_t len = 1;

	if (cp < 0x80) {
		*rep = named[style][cp];
		if (*rep || (cp >= 0x20 && cp != 0x7f))
			return 1;
	} else {
		len = utf8_decode(s, n, &cp);
		if (!len) {
			*rep = style == JSON_DOCUMENT ? "\\ufffd" : REPLACEMENT;
			return 1;
		}
		*rep = NULL;
		if (!utf8_is_control(cp))
			return len;
	}
	/* a control (C0, DEL, C1, bidi): at most U+2069, four digits */
	if (style == JSON_SCRIPT) {
		*rep = REPLACEMENT;
		return len;
	}
	buf[0] = '\\';
	buf[1] = 'u';
	for (int i = 0; i < 4; i++)
		buf[2 + i] = hex[(cp >> (12 - 4 * i)) & 0xf];
	buf[6] = '\0';
	*rep = buf;
	return len;
}

static void flush(struct json_writer *w)
{
	if (w->len)
		fwrite(w->buf, 1, w->len, w->out);
	w->len = 0;
}

/* Room for n more bytes (n < JSON_WRITER_BUF), to be stored without checks. */
static inline void reserve(struct json_writer *w, size_t n)
{
	if (n > sizeof(w->buf) - w->len)
		flush(w);
}

static inline void put_c(struct json_writer *w, char c)
{
	reserve(w, 1);
	w->buf[w->len++] = c;
}

static void put_mem(struct json_writer *w, const void *p, size_t n)
{
	if (n > sizeof(w->buf) - w->len) {
		flush(w);
		if (n >= sizeof(w->buf)) {
			fwrite(p, 1, n, w->out);
			return;
		}
	}
	memcpy(w->buf + w->len, p, n);
	w->len += n;
}

static void put_s(struct json_writer *w, const char *s)
{
	put_mem(w, s, strlen(s));
}

/*
 * The characters of s[0..n) escaped, or of all of s up to its NUL with
 * nul_ends (n SIZE_MAX: a NUL-terminated value is scanned once, not
 * measured first); runs of bytes that stay go out in one copy.
 */
static void put_chars(struct json_writer *w, const unsigned char *s, size_t n, bool nul_ends)
{
	const bool *pl = plain_byte[w->style];
	size_t i = 0, run = 0, len;
	const char *rep;
	char buf[8];

	for (;;) {
		/* (plain_byte[][0] is false: a NUL stops the first loop) */
		if (nul_ends)
			while (pl[s[i]])
				i++;
		else
			while (i < n && pl[s[i]])
				i++;
		if (i >= n || (nul_ends && !s[i]))
			break;
		len = escape(s + i, n - i, w->style, buf, &rep);
		if (rep) {
			put_mem(w, s + run, i - run);
			put_s(w, rep);
			run = i + len;
		}
		i += len;
	}
	put_mem(w, s + run, i - run);
}

/* Start a writer without clearing its buffer: a string alone costs no 8 KiB. */
static void start(struct json_writer *w, FILE *out, enum json_style style)
{
	w->out = out;
	w->style = style;
	w->depth = 0;
	w->done = w->brk = false;
	w->bug = NULL;
	w->len = 0;
}

int json_write_string(FILE *out, const char *s, size_t n, enum json_style style)
{
	struct json_writer w;

	start(&w, out, style);
	put_c(&w, '"');
	put_chars(&w, (const unsigned char *)s, n, false);
	put_c(&w, '"');
	flush(&w);
	return ferror(out) ? -EIO : 0;
}

static void put_u64(struct json_writer *w, uint64_t v)
{
	char buf[24], *p = buf + sizeof(buf), *o;

	do
		*--p = (char)('0' + v % 10);
	while (v /= 10);
	reserve(w, sizeof(buf));
	o = w->buf + w->len;
	while (p < buf + sizeof(buf))
		*o++ = *p++;
	w->len = (size_t)(o - w->buf);
}

void json_writer__init(struct json_writer *w, FILE *out, enum json_style style)
{
	start(w, out, style);
}

/* Always false: a misuse, the first of which is kept. */
static bool misuse(struct json_writer *w, const char *what)
{
	if (!w->bug)
		w->bug = what;
	return false;
}

int json_writer__finish(struct json_writer *w)
{
	flush(w);
	if (w->depth)
		misuse(w, "a container left open");
	else if (!w->done)
		misuse(w, "no value written");
	if (w->bug)
		return -EINVAL;
	return ferror(w->out) ? -EIO : 0;
}

/* A line feed and the indent of depth. */
static void new_line(struct json_writer *w, unsigned depth)
{
	static const char indent[2 * JSON_WRITER_DEPTH + 2] = "\n                                ";

	put_mem(w, indent, w->style == JSON_DOCUMENT ? 1 + 2 * depth : 1);
}

/* The length of the start of s that plain_byte passes. */
static inline size_t plain_len(const char *s, enum json_style style)
{
	const bool *pl = plain_byte[style];
	size_t n = 0;

	while (pl[(unsigned char)s[n]])
		n++;
	return n;
}

/*
 * Before a value: the separator, the indent, the member's key and colon;
 * false (write nothing) after a misuse. A plain short key, the common
 * case, goes in with the rest in one reservation of the buffer.
 */
static inline bool member(struct json_writer *w, const char *key)
{
	enum { KEY_MAX = 128 };
	bool doc = w->style == JSON_DOCUMENT;
	struct json_level *lv;
	size_t kn = 0;
	char *o;

	if (w->bug)
		return false;
	if (!w->depth) {
		if (key)
			return misuse(w, "a key outside an object");
		if (w->done)
			return misuse(w, "a second top value");
		w->done = true;
		return true;
	}
	lv = &w->level[w->depth - 1];
	if (lv->object != !!key)
		return misuse(w, key ? "a key in an array" : "a value without a key in an object");
	if (key && (kn = plain_len(key, w->style)) > KEY_MAX)
		kn = 0;
	reserve(w, 2 + 2 * JSON_WRITER_DEPTH + kn + 4);
	o = w->buf + w->len;
	if (lv->members)
		*o++ = ',';
	if (lv->layout == JSON_LINES || w->brk) {
		*o++ = '\n';
		for (unsigned i = 0; doc && i < w->depth; i++) {
			*o++ = ' ';
			*o++ = ' ';
		}
	} else if (lv->members && doc) {
		*o++ = ' ';
	}
	w->brk = false;
	lv->members++;
	if (key) {
		*o++ = '"';
		for (size_t i = 0; i < kn; i++)
			*o++ = key[i];
		if (key[kn]) {
			/* one to escape, or a long one: the rest as any string */
			w->len = (size_t)(o - w->buf);
			put_chars(w, (const unsigned char *)key + kn, SIZE_MAX, true);
			reserve(w, 4);
			o = w->buf + w->len;
		}
		*o++ = '"';
		*o++ = ':';
		if (doc)
			*o++ = ' ';
	}
	w->len = (size_t)(o - w->buf);
	return true;
}

/* After a value: a document ends with a line feed. */
static inline void after(struct json_writer *w)
{
	if (!w->depth && w->style == JSON_DOCUMENT)
		put_c(w, '\n');
}

static void open_container(struct json_writer *w, const char *key, bool object,
			   enum json_layout layout)
{
	if (!w->bug && w->depth == JSON_WRITER_DEPTH)
		misuse(w, "nesting deeper than JSON_WRITER_DEPTH");
	if (!member(w, key))
		return;
	put_c(w, object ? '{' : '[');
	w->level[w->depth++] = (struct json_level){ object, layout, 0 };
}

void json_writer__object(struct json_writer *w, const char *key, enum json_layout layout)
{
	open_container(w, key, true, layout);
}

void json_writer__array(struct json_writer *w, const char *key, enum json_layout layout)
{
	open_container(w, key, false, layout);
}

void json_writer__end(struct json_writer *w)
{
	struct json_level *lv;

	if (w->bug)
		return;
	if (!w->depth) {
		misuse(w, "an end with nothing open");
		return;
	}
	lv = &w->level[w->depth - 1];
	if (lv->layout == JSON_LINES && lv->members)
		new_line(w, w->depth - 1);
	put_c(w, lv->object ? '}' : ']');
	w->depth--;
	w->brk = false;
	after(w);
}

void json_writer__break(struct json_writer *w)
{
	if (!w->depth)
		misuse(w, "a line break outside a container");
	w->brk = true;
}

void json_writer__layout(struct json_writer *w, enum json_layout layout)
{
	if (!w->depth)
		misuse(w, "a layout outside a container");
	else
		w->level[w->depth - 1].layout = layout;
}

void json_writer__strn(struct json_writer *w, const char *key, const char *s, size_t n)
{
	if (!member(w, key))
		return;
	put_c(w, '"');
	put_chars(w, (const unsigned char *)s, n, false);
	put_c(w, '"');
	after(w);
}

void json_writer__str(struct json_writer *w, const char *key, const char *s)
{
	if (!s) {
		json_writer__null(w, key);
		return;
	}
	if (!member(w, key))
		return;
	put_c(w, '"');
	put_chars(w, (const unsigned char *)s, SIZE_MAX, true);
	put_c(w, '"');
	after(w);
}

void json_writer__u64(struct json_writer *w, const char *key, uint64_t v)
{
	if (!member(w, key))
		return;
	put_u64(w, v);
	after(w);
}

void json_writer__i64(struct json_writer *w, const char *key, int64_t v)
{
	if (!member(w, key))
		return;
	if (v < 0)
		put_c(w, '-');
	/* the magnitude in unsigned arithmetic: INT64_MIN has no positive twin */
	put_u64(w, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v);
	after(w);
}

void json_writer__raw(struct json_writer *w, const char *key, const char *text)
{
	if (!member(w, key))
		return;
	put_s(w, text);
	after(w);
}

void json_writer__bool(struct json_writer *w, const char *key, bool v)
{
	if (!member(w, key))
		return;
	if (v)
		put_mem(w, "true", 4);
	else
		put_mem(w, "false", 5);
	after(w);
}

void json_writer__null(struct json_writer *w, const char *key)
{
	if (!member(w, key))
		return;
	put_mem(w, "null", 4);
	after(w);
}

void json_writer__double(struct json_writer *w, const char *key, char conv, int prec, double v)
{
	char buf[400];	/* %.15f of DBL_MAX is 325 bytes */
	int n;

	if (conv != 'f' && conv != 'g') {
		misuse(w, "a number's conversion is neither 'f' nor 'g'");
		return;
	}
	if (!isfinite(v)) {
		json_writer__null(w, key);
		return;
	}
	if (!member(w, key))
		return;
	n = snprintf(buf, sizeof(buf), conv == 'f' ? "%.*f" : "%.*g", prec, v);
	if (n < 0 || (size_t)n >= sizeof(buf)) {
		misuse(w, "a number longer than its buffer");
		return;
	}
	put_mem(w, buf, (size_t)n);
	after(w);
}

FILE *json_writer__value_by_caller(struct json_writer *w, const char *key)
{
	if (!w->bug && !w->depth)
		misuse(w, "a value by the caller at the top");
	if (!member(w, key))
		return NULL;
	flush(w);
	return w->out;
}

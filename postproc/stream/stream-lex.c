/* SPDX-License-Identifier: MIT */
/* The stream's lines and fields (stream-parse.h): bounded lines, decimal, hex and escaped string fields. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "stream-parse.h"

__attribute__((format(printf, 2, 3)))
int stream_lex__bad(struct parser *p, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(p->err, p->errlen, "%s:%lu: %s", p->fname, p->line, msg);
	return -EINVAL;
}

int stream_lex__oom(struct parser *p)
{
	snprintf(p->err, p->errlen, "%s:%lu: out of memory", p->fname, p->line);
	return -ENOMEM;
}

/* Read more input into r->buf: the bytes read, 0 at the end, or -EIO. */
static long refill(struct reader *r, struct parser *p)
{
	size_t got;

	if (r->len == r->alloc) {
		size_t n = r->alloc ? r->alloc * 2 : 65536;
		char *b;

		if (n > HB_STREAM_LINE_MAX + 1)
			n = HB_STREAM_LINE_MAX + 1;
		b = realloc(r->buf, n);
		if (!b)
			return stream_lex__oom(p);
		r->buf = b;
		r->alloc = n;
	}
	got = fread(r->buf + r->len, 1, r->alloc - r->len, r->f);
	if (!got && ferror(r->f)) {
		snprintf(p->err, p->errlen, "%s: read error: %s", p->fname, strerror(errno));
		return -EIO;
	}
	r->len += got;
	return (long)got;
}

/*
 * Next line into *line (NUL-terminated, newline removed). Returns 1, 0 at the
 * end of input, or a negative errno with the message in p->err. A line longer
 * than HB_STREAM_LINE_MAX is read past without being kept (memory stays
 * bounded): 2, with *line its first LONG_HEAD bytes and r->long_len its length.
 */
int stream_lex__next_line(struct reader *r, struct parser *p, char **line)
{
	for (;;) {
		char *nl = r->len > r->pos ? memchr(r->buf + r->pos, '\n', r->len - r->pos) : NULL;
		long got;

		if (nl && r->in_long) {
			r->long_len += (size_t)(nl - (r->buf + r->pos));
			r->pos = nl + 1 - r->buf;
			r->in_long = false;
			p->line++;
			*line = r->head;
			return 2;
		}
		if (nl) {
			size_t len = (size_t)(nl - (r->buf + r->pos));

			*nl = '\0';
			*line = r->buf + r->pos;
			r->pos = nl + 1 - r->buf;
			p->line++;
			/* The stream is text: a NUL would silently cut the line short. */
			if (memchr(*line, '\0', len))
				return stream_lex__bad(p, "NUL byte in line at column %zu",
					   (size_t)((char *)memchr(*line, '\0', len) - *line) + 1);
			return 1;
		}
		if (r->in_long) {
			r->long_len += r->len - r->pos;
			r->pos = r->len = 0;
		} else if (r->pos) {
			memmove(r->buf, r->buf + r->pos, r->len - r->pos);
			r->len -= r->pos;
			r->pos = 0;
		}
		if (!r->in_long && r->len > HB_STREAM_LINE_MAX) {
			/* Keep the head (its kind and id), up to a NUL. */
			memcpy(r->head, r->buf, LONG_HEAD);
			r->head[LONG_HEAD] = '\0';
			r->long_len = r->len;
			r->in_long = true;
			r->len = 0;
		}
		got = refill(r, p);
		if (got < 0)
			return (int)got;
		if (!got) {
			if (r->len || r->in_long) {
				/* A stream ends with "end\n": a cut line is a cut stream. */
				p->line++;
				return stream_lex__bad(p, "last line has no newline (truncated stream?)");
			}
			return 0;
		}
	}
}

/* Split line at single spaces (STREAM.md: "fields are separated by one space"). */
void stream_lex__split(struct parser *p, char *line)
{
	p->nf = 0;
	for (;;) {
		char *sp = strchr(line, ' ');

		if (p->nf < MAX_FIELDS)
			p->f[p->nf++] = line;
		if (!sp)
			break;
		*sp = '\0';
		line = sp + 1;
	}
}

int stream_lex__get_dec(struct parser *p, const char *tok, const char *what, uint64_t *v)
{
	uint64_t n = 0;
	const char *c = tok;

	if (!*c)
		return stream_lex__bad(p, "%s: empty number", what);
	for (; *c; c++) {
		if (*c < '0' || *c > '9')
			return stream_lex__bad(p, "%s: '%s' is not an unsigned decimal number", what, tok);
		if (n > (UINT64_MAX - (uint64_t)(*c - '0')) / 10)
			return stream_lex__bad(p, "%s: %s is out of range", what, tok);
		n = n * 10 + (uint64_t)(*c - '0');
	}
	*v = n;
	return 0;
}

int stream_lex__get_hex(struct parser *p, const char *tok, const char *what, uint64_t *v)
{
	uint64_t n = 0;
	const char *c;

	if (tok[0] != '0' || tok[1] != 'x' || !tok[2])
		return stream_lex__bad(p, "%s: '%s' is not a 0x-prefixed hex number", what, tok);
	for (c = tok + 2; *c; c++) {
		int d = hexval((unsigned char)*c);

		if (d < 0)
			return stream_lex__bad(p, "%s: '%s' is not a 0x-prefixed hex number", what, tok);
		if (n >> 60)
			return stream_lex__bad(p, "%s: %s is out of range", what, tok);
		n = n << 4 | (uint64_t)d;
	}
	*v = n;
	return 0;
}

size_t stream_lex__class(const char *tok)
{
	size_t cls;

	for (cls = 0; cls < HB_CLASS__NR; cls++)
		if (!strcmp(tok, hb_class_name(cls)))
			break;
	return cls;
}

/* Decode a STREAM.md string in place: %XX escapes. */
int stream_lex__get_str(struct parser *p, char *tok, const char *what)
{
	char *in = tok, *out = tok;

	while (*in) {
		int hi, lo;

		if (*in != '%') {
			*out++ = *in++;
			continue;
		}
		hi = hexval((unsigned char)in[1]);
		lo = hi < 0 ? -1 : hexval((unsigned char)in[2]);
		if (lo < 0)
			return stream_lex__bad(p, "%s: bad %%-escape in '%s'", what, tok);
		/* Names and paths come from NUL-terminated sources. */
		if (!hi && !lo)
			return stream_lex__bad(p, "%s: NUL byte (%%00) in a string", what);
		*out++ = (char)(hi << 4 | lo);
		in += 3;
	}
	*out = '\0';
	return 0;
}

/* Fields past the n a record defines must be key=value (newer writers may add them). */
int stream_lex__check_fields(struct parser *p, size_t n)
{
	size_t i;

	if (p->nf < n)
		return stream_lex__bad(p, "'%s' record: %zu fields, expected %zu", p->f[0], p->nf - 1, n - 1);
	for (i = n; i < p->nf; i++)
		if (!strchr(p->f[i], '='))
			return stream_lex__bad(p, "'%s' record: unexpected field '%s'", p->f[0], p->f[i]);
	return 0;
}

int stream_lex__check_record(struct parser *p, enum hb_record rec)
{
	return stream_lex__check_fields(p, 1 + hb_records[rec].fields);
}

/* The value of field k, tok, into v by the field's type. */
static int get_value(struct parser *p, enum hb_field k, char *tok, struct stream_field *v)
{
	switch (hb_fields[k].type) {
	case HB_TYPE_DEC:
	case HB_TYPE_LENGTH:
		return stream_lex__get_dec(p, tok, hb_fields[k].key, &v->num);
	case HB_TYPE_HEX:
		return stream_lex__get_hex(p, tok, hb_fields[k].key, &v->num);
	default:
		v->str = tok;
		return stream_lex__get_str(p, tok, hb_fields[k].key);
	}
}

/* The table's rows of record rec, [*lo, *hi): a record's fields follow it
 * together (stream-records.def), so a key is looked for among its own. */
static void rows_of(enum hb_record rec, unsigned *lo, unsigned *hi)
{
	for (*lo = 0; *lo < HB_FIELD__NR && hb_fields[*lo].record != rec; ++*lo)
		;
	for (*hi = *lo; *hi < HB_FIELD__NR && hb_fields[*hi].record == rec; ++*hi)
		;
}

int stream_lex__get_fields(struct parser *p, enum hb_record rec, unsigned kinds, size_t first,
			   const char *what, struct stream_field v[HB_FIELD__NR])
{
	unsigned lo, hi, k;
	int err;

	rows_of(rec, &lo, &hi);
	for (k = lo; k < hi; k++)
		v[k] = (struct stream_field){ 0 };
	for (size_t i = first; i < p->nf; i++) {
		char *eq = strchr(p->f[i], '=');

		if (!eq)
			return stream_lex__bad(p, "%s: field '%s' is not key=value", what, p->f[i]);
		*eq = '\0';
		for (k = lo; k < hi; k++)
			if ((hb_fields[k].kinds & kinds) && !strcmp(p->f[i], hb_fields[k].key))
				break;
		if (k == hi)
			continue;	/* STREAM.md: unknown keys are ignored */
		if (v[k].given)
			return stream_lex__bad(p, "%s: field '%s' given twice", what, p->f[i]);
		v[k].given = true;
		if ((err = get_value(p, (enum hb_field)k, eq + 1, &v[k])))
			return err;
	}
	for (k = lo; k < hi; k++)
		if ((hb_fields[k].kinds & kinds) && hb_fields[k].required && !v[k].given)
			return stream_lex__bad(p, "%s: no '%s=' field", what, hb_fields[k].key);
	return 0;
}

/* SPDX-License-Identifier: MIT */
/* The report's answers from files, kept for an archive and given back from one (archived.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "archived.h"
#include "lib/util.h"

struct answer {
	char *key, *val;	/* owned */
};

/* Locked: a renderer may open functions on other threads. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static enum archived_mode mode;
static struct answer *answers;
static size_t answers_nr, answers_alloc;
static struct idx_table index_;
static bool oom;

void archived__set_mode(enum archived_mode m)
{
	mode = m;
}

enum archived_mode archived__mode(void)
{
	return mode;
}

/* The stream's escape (STREAM.md "Strings"). */
static bool plain(unsigned char c)
{
	return c > 0x20 && c < 0x7f && c != '%';
}

void archived__str(struct strbuf *sb, const char *s, size_t n)
{
	if (sb->len)
		strbuf_addch(sb, ' ');
	if (!s) {
		strbuf_addch(sb, '-');
		return;
	}
	strbuf_addch(sb, 's');
	for (size_t i = 0; i < n; i++)
		if (plain((unsigned char)s[i]))
			strbuf_addch(sb, s[i]);
		else
			strbuf_addf(sb, "%%%02X", (unsigned char)s[i]);
}

/* Field i of fields: its start, and its length in *n; NULL if none. */
static const char *field(const char *fields, unsigned i, size_t *n)
{
	const char *p = fields;

	for (; i && p; i--)
		if ((p = strchr(p, ' ')))
			p++;
	if (!p)
		return NULL;
	*n = strcspn(p, " ");
	return p;
}

static int hex_digit(char c)
{
	return c >= '0' && c <= '9' ? c - '0' : c >= 'A' && c <= 'F' ? c - 'A' + 10 :
	       c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

bool archived__get_str(const char *fields, unsigned i, char **out, size_t *len)
{
	size_t n, k = 0;
	const char *f = field(fields, i, &n);
	char *s;

	*out = NULL;
	*len = 0;
	if (!f || !n)
		return false;
	if (*f == '-' && n == 1)
		return true;
	if (*f != 's' || !(s = malloc(n)))
		return false;
	for (size_t j = 1; j < n; j++) {
		int hi, lo;

		if (f[j] != '%') {
			s[k++] = f[j];
			continue;
		}
		if (j + 2 >= n || (hi = hex_digit(f[j + 1])) < 0 || (lo = hex_digit(f[j + 2])) < 0) {
			free(s);
			return false;
		}
		s[k++] = (char)(hi << 4 | lo);
		j += 2;
	}
	s[k] = 0;
	*out = s;
	*len = k;
	return true;
}

bool archived__get_u64(const char *fields, unsigned i, uint64_t *v)
{
	size_t n;
	const char *f = field(fields, i, &n);
	char buf[32], *end;

	if (!f || !n || n >= sizeof(buf) || *f < '0' || *f > '9')
		return false;
	memcpy(buf, f, n);
	buf[n] = 0;
	errno = 0;
	*v = strtoull(buf, &end, 0);
	return !*end && !errno;
}

void archived__object(struct strbuf *sb, const struct stream *s, size_t idx)
{
	const struct stream_object *o = &s->objects[idx];
	const char *path = o->path ? o->path : "";

	if (o->kind == HB_KIND_JIT) {
		strbuf_addf(sb, "%sjit", sb->len ? " " : "");
		archived__str(sb, path, strlen(path));
		strbuf_addf(sb, " %" PRIu64 " %" PRIu64 " 0x%" PRIx64, o->code_index, o->load_time, o->addr);
		return;
	}
	strbuf_addf(sb, "%s%s", sb->len ? " " : "", o->kind == HB_KIND_CWASM ? "cwasm" : "native");
	archived__str(sb, path, strlen(path));
	archived__str(sb, o->name, strlen(o->name));
	strbuf_addf(sb, " 0x%" PRIx64, o->sym_start);
}

static uint64_t key_hash(const char *key)
{
	return hash_bytes(HASH_SEED, key, strlen(key));
}

static bool key_eq(uint32_t idx, const void *key, const void *ctx)
{
	(void)ctx;
	return !strcmp(answers[idx].key, key);
}

/* Add key -> val (both taken); the first answer of a key stays. */
static int add(char *key, char *val)
{
	uint64_t h = key_hash(key);

	if (idx_table_find(&index_, h, key_eq, key, NULL) >= 0) {
		free(key);
		free(val);
		return 1;
	}
	if (answers_nr >= UINT32_MAX - 1 || VEC_GROW(answers, answers_nr + 1, answers_alloc) ||
	    idx_table_add(&index_, h, (uint32_t)answers_nr)) {
		free(key);
		free(val);
		return -ENOMEM;
	}
	answers[answers_nr++] = (struct answer){ key, val };
	return 0;
}

void archived__put(const char *key, const char *val)
{
	char *k, *v;

	if (mode != ARCHIVED_KEEP)
		return;
	k = strdup(key);
	v = strdup(val ? val : "");
	pthread_mutex_lock(&lock);
	if (!k || !v || add(k, v) < 0)
		oom = true;
	pthread_mutex_unlock(&lock);
	if (!k || !v) {
		free(k);
		free(v);
	}
}

const char *archived__get(const char *key)
{
	long i;

	if (mode != ARCHIVED_REPLAY)
		return NULL;
	pthread_mutex_lock(&lock);
	i = idx_table_find(&index_, key_hash(key), key_eq, key, NULL);
	pthread_mutex_unlock(&lock);
	return i >= 0 ? answers[i].val : NULL;
}

static int answer_cmp(const void *a, const void *b)
{
	return strcmp(((const struct answer *)a)->key, ((const struct answer *)b)->key);
}

/* A field count, then the key's fields and the value's: a line says where
 * the key ends without a separator that a field could hold. */
static unsigned count_fields(const char *s)
{
	unsigned n = *s ? 1 : 0;

	for (; *s; s++)
		n += *s == ' ';
	return n;
}

int archived__write(struct strbuf *out)
{
	struct answer *sorted;

	if (oom)
		return -ENOMEM;
	sorted = malloc((answers_nr ? answers_nr : 1) * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, answers, answers_nr * sizeof(*sorted));
	qsort(sorted, answers_nr, sizeof(*sorted), answer_cmp);
	for (size_t i = 0; i < answers_nr; i++)
		strbuf_addf(out, "%u %s%s%s\n", count_fields(sorted[i].key), sorted[i].key,
			    *sorted[i].val ? " " : "", sorted[i].val);
	free(sorted);
	return out->oom ? -ENOMEM : 0;
}

int archived__read(const char *buf, size_t len, const char *name, char *err, size_t errlen)
{
	size_t line = 0;

	for (size_t at = 0; at < len; ) {
		const char *nl = memchr(buf + at, '\n', len - at), *p, *q;
		size_t end = nl ? (size_t)(nl - buf) : len;
		unsigned long nk;
		char *text, *k, *v, *e;
		int ret;

		line++;
		if (!nl || memchr(buf + at, 0, end - at)) {
			snprintf(err, errlen, "%s:%zu: %s", name, line,
				 nl ? "a NUL byte in the line" : "the last line has no newline (cut short?)");
			return -EINVAL;
		}
		if (!(text = strndup(buf + at, end - at)))
			return -ENOMEM;
		at = end + 1;
		errno = 0;
		nk = strtoul(text, &e, 10);
		p = e;
		if (e == text || *e != ' ' || errno || !nk || nk > 64) {
			snprintf(err, errlen, "%s:%zu: not a count of key fields, then the fields", name,
				 line);
			free(text);
			return -EINVAL;
		}
		p++;
		q = p;
		for (unsigned long i = 0; i < nk && q; i++)
			if ((q = strchr(q, ' ')))
				q++;
		k = q ? strndup(p, (size_t)(q - p - 1)) : strdup(p);
		v = strdup(q ? q : "");
		free(text);
		if (!k || !v) {
			free(k);
			free(v);
			return -ENOMEM;
		}
		if (count_fields(k) != nk) {
			snprintf(err, errlen, "%s:%zu: the line has fewer fields than its count (%lu)", name,
				 line, nk);
			free(k);
			free(v);
			return -EINVAL;
		}
		if ((ret = add(k, v)) < 0)
			return ret;
		if (ret) {
			snprintf(err, errlen, "%s:%zu: a key given twice", name, line);
			return -EINVAL;
		}
	}
	return 0;
}

void archived__release(void)
{
	for (size_t i = 0; i < answers_nr; i++) {
		free(answers[i].key);
		free(answers[i].val);
	}
	free(answers);
	answers = NULL;
	answers_nr = answers_alloc = 0;
	idx_table_release(&index_);
	oom = false;
}

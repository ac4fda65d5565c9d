/* SPDX-License-Identifier: MIT */
/*
 * The `name` custom section (the extended name section proposal, as
 * wasmparser's names.rs reads it) and identifiers as wasmprinter writes
 * them: $name, $"quoted name", or a synthetic $"#local3 name" for empty,
 * '#'-prefixed and duplicate names.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/lib/bsearch.h"
#include "../plugin/lib/utf8.h"
#include "wasm-read.h"

/* wasmprinter's group names, used in synthetic identifiers "#local3 x". */
static const char *const name_group[NK__NR] = {
	[NK_FUNC] = "func", [NK_LOCAL] = "local", [NK_LABEL] = "label",
	[NK_TYPE] = "type", [NK_TABLE] = "table", [NK_MEMORY] = "memory",
	[NK_GLOBAL] = "global", [NK_ELEM] = "elem", [NK_DATA] = "data",
	[NK_FIELD] = "field", [NK_TAG] = "tag",
};

/* Name subsection id (extended name section) -> kind; -1 = module name / unknown. */
static const int8_t subsection_kind[12] = {
	[0] = -1, [1] = NK_FUNC, [2] = NK_LOCAL, [3] = NK_LABEL, [4] = NK_TYPE,
	[5] = NK_TABLE, [6] = NK_MEMORY, [7] = NK_GLOBAL, [8] = NK_ELEM,
	[9] = NK_DATA, [10] = NK_FIELD, [11] = NK_TAG,
};

/* ---- name maps ---- */

static int naming_cmp(const void *a, const void *b)
{
	const struct naming *x = a, *y = b;

	if (x->k1 != y->k1)
		return x->k1 < y->k1 ? -1 : 1;
	if (x->k2 != y->k2)
		return x->k2 < y->k2 ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Sort, and keep only the last naming of each key (a HashMap insert in wasmprinter). */
void name_map__finish(struct name_map *m)
{
	size_t j = 0;

	if (!m->nr)
		return;
	qsort(m->v, m->nr, sizeof(*m->v), naming_cmp);
	for (size_t i = 0; i < m->nr; i++) {
		if (i + 1 < m->nr && m->v[i + 1].k1 == m->v[i].k1 && m->v[i + 1].k2 == m->v[i].k2)
			continue;
		m->v[j++] = m->v[i];
	}
	m->nr = j;
}

const struct naming *name_map__find(const struct name_map *m, uint32_t k1, uint32_t k2)
{
	/* one naming per key (name_map__finish) */
	size_t i = LOWER_BOUND(m->nr, k, m->v[k].k1 < k1 || (m->v[k].k1 == k1 && m->v[k].k2 < k2));

	return i < m->nr && m->v[i].k1 == k1 && m->v[i].k2 == k2 ? &m->v[i] : NULL;
}

/* The WAT idchars (text format 6.3.5). */
static bool idchar(uint8_t c)
{
	if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))
		return true;
	return c && strchr("!#$%&'*+-./:<=>?@\\^_`|~", c);
}

struct dupkey {
	const uint8_t *s;
	uint32_t len;
	size_t pos;
};

static int dupkey_cmp(const void *a, const void *b)
{
	const struct dupkey *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->s, y->s, n);

	if (c)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * wasmprinter keeps a set of the names used in one map (one function's locals,
 * one type's fields): a name met again becomes synthetic. Empty and '#' names
 * are synthetic already and never enter the set.
 */
static int mark_duplicates(struct name_map *m, size_t first)
{
	struct dupkey *k;
	size_t n = 0;

	if (m->nr - first < 2)
		return 0;
	k = calloc(m->nr - first, sizeof(*k));
	if (!k)
		return -ENOMEM;
	for (size_t i = first; i < m->nr; i++)
		if (m->v[i].form != NF_SYNTH)
			k[n++] = (struct dupkey){ m->v[i].s, m->v[i].len, i };
	qsort(k, n, sizeof(*k), dupkey_cmp);
	for (size_t i = 1; i < n; i++)
		if (k[i].len == k[i - 1].len && !memcmp(k[i].s, k[i - 1].s, k[i].len))
			m->v[k[i].pos].form = NF_SYNTH;
	free(k);
	return 0;
}

/* ---- identifiers ---- */

static void put_str_contents(struct strbuf *b, const uint8_t *s, uint32_t len)
{
	const uint8_t *p = s, *end = s + len;

	while (p < end) {
		uint32_t cp = utf8_next(&p);

		if (cp >= 0x20 && cp < 0x7f && cp != '"' && cp != '\\')
			strbuf_addch(b, (char)cp);
		else
			strbuf_addf(b, "\\u{%" PRIx32 "}", cp);
	}
}

/* wasmprinter Naming::write_identifier. */
void wasm_names__put_ident(struct strbuf *b, const struct naming *n, enum name_kind kind)
{
	switch (n->form) {
	case NF_PLAIN:
		strbuf_addch(b, '$');
		strbuf_add(b, (const char *)n->s, n->len);
		break;
	case NF_QUOTED:
		strbuf_addstr(b, "$\"");
		put_str_contents(b, n->s, n->len);
		strbuf_addch(b, '"');
		break;
	default:
		strbuf_addf(b, "$\"#%s%" PRIu32 " ", name_group[kind],
			 kind == NK_LOCAL || kind == NK_LABEL || kind == NK_FIELD ? n->k2 : n->k1);
		put_str_contents(b, n->s, n->len);
		strbuf_addch(b, '"');
		break;
	}
}

/* wasmprinter Naming::write: a synthetic name also shows the real one. */
void wasm_names__put_name(struct strbuf *b, const struct naming *n, enum name_kind kind)
{
	wasm_names__put_ident(b, n, kind);
	if (n->form == NF_SYNTH) {
		strbuf_addstr(b, " (@name \"");
		put_str_contents(b, n->s, n->len);
		strbuf_addstr(b, "\")");
	}
}

/* " $name" or " 12" (print_idx, print_local_idx, print_field_idx). */
void wasm_names__put_idx(struct modctx *x, enum name_kind kind, uint32_t k1, uint32_t k2, uint32_t idx)
{
	const struct naming *n = name_map__find(&x->names[kind], k1, k2);

	strbuf_addch(&x->out, ' ');
	if (n)
		wasm_names__put_ident(&x->out, n, kind);
	else
		strbuf_addu(&x->out, idx);
}

void wasm_names__put_index(struct modctx *x, enum name_kind kind, uint32_t idx)
{
	wasm_names__put_idx(x, kind, idx, 0, idx);
}

/* ---- the name section ---- */

static int add_naming(struct modctx *x, enum name_kind kind, uint32_t k1, uint32_t k2,
		      const uint8_t *s, uint32_t len)
{
	struct name_map *m = &x->names[kind];
	struct naming *n;
	uint8_t form = NF_PLAIN;

	if (VEC_GROW(m->v, m->nr + 1, m->alloc))
		return -ENOMEM;
	for (uint32_t i = 0; i < len; i++)
		if (!idchar(s[i]))
			form = NF_QUOTED;
	if (len == 0 || s[0] == '#')
		form = NF_SYNTH;
	n = &m->v[m->nr++];
	*n = (struct naming){ k1, k2, x->name_seq++, len, s, form };
	return 0;
}

/* A NameMap: count, then (index, name) entries; names read so far stay on error. */
static int rd_name_map(struct modctx *x, struct cursor *c, enum name_kind kind, bool indirect,
		       uint32_t outer, bool dedupe)
{
	struct ps *ps = x->ps;
	size_t first = x->names[kind].nr;
	const uint8_t *s;
	uint32_t n, idx, len;
	int rc, rc2;

	if ((rc = wasm_read__u32(ps, c, &n, "name count")))
		return rc;
	for (uint32_t i = 0; i < n; i++) {
		if ((rc = wasm_read__u32(ps, c, &idx, "name index")) ||
		    (rc = wasm_read__name(ps, c, &s, &len, "name")))
			break;
		if (indirect)
			rc = add_naming(x, kind, outer, idx, s, len);
		else
			rc = add_naming(x, kind, idx, 0, s, len);
		if (rc) {
			rc = wasm_read__fail(ps, c->p, rc, "out of memory");
			break;
		}
	}
	rc2 = dedupe ? mark_duplicates(&x->names[kind], first) : 0;
	return rc ? rc : rc2;
}

/*
 * An IndirectNameMap: count, then (outer index, NameMap). wasmparser first
 * skims each inner map (string lengths up to 100000, no UTF-8 check), then
 * reads its entries.
 */
static int rd_indirect_map(struct modctx *x, struct cursor *c, enum name_kind kind)
{
	struct ps *ps = x->ps;
	uint32_t n, outer, m, idx, len;
	const uint8_t *s;
	int rc;

	if ((rc = wasm_read__u32(ps, c, &n, "name count")))
		return rc;
	for (uint32_t i = 0; i < n; i++) {
		struct cursor inner;

		if ((rc = wasm_read__u32(ps, c, &outer, "name index")))
			return rc;
		inner = *c;
		if ((rc = wasm_read__u32(ps, c, &m, "name count")))
			return rc;
		for (uint32_t j = 0; j < m; j++) {
			const uint8_t *at;

			if ((rc = wasm_read__u32(ps, c, &idx, "name index")))
				return rc;
			at = c->p;
			if ((rc = wasm_read__u32(ps, c, &len, "name")))
				return rc;
			if (len > MAX_STRING_SIZE)
				return wasm_read__fail(ps, at, -EINVAL, "string size out of bounds");
			if ((rc = wasm_read__bytes(ps, c, len, &s, "name")))
				return rc;
		}
		inner.end = c->p;
		/* Labels may shadow each other; locals and fields are de-duplicated. */
		if ((rc = rd_name_map(x, &inner, kind, true, outer, kind != NK_LABEL)))
			return rc;
	}
	return 0;
}

/*
 * Whether [p, end) is exactly a plain NameMap: count, then (index, name) pairs.
 * wabt 1.0.32 and older write tag names as subsection 10 in that shape; the
 * extended name section numbers field names 10 (an IndirectNameMap) and tag
 * names 11, so such a module fails as field names and deserves saying why.
 */
static bool is_plain_name_map(const uint8_t *p, const uint8_t *end)
{
	uint64_t n, idx, len;

	if (leb128_read_u(&p, end, 32, &n))
		return false;
	for (uint64_t i = 0; i < n; i++) {
		if (leb128_read_u(&p, end, 32, &idx) || leb128_read_u(&p, end, 32, &len) ||
		    len > (uint64_t)(end - p))
			return false;
		p += len;
	}
	return p == end;
}

static int parse_names(struct modctx *x, struct cursor *c)
{
	struct ps *ps = x->ps;
	int rc = 0;

	while (c->p < c->end) {
		struct cursor sub;
		const uint8_t *s, *id_at = c->p;
		uint32_t len;
		uint8_t id;
		int kind;

		if ((rc = wasm_read__u8(ps, c, &id, "name subsection id")))
			return rc;
		/*
		 * wasmparser reads the id as a 7-bit value and fails on a set top
		 * bit (where an unknown id below 0x80 is merely skipped): the rest
		 * of the section is then lost to wasmprinter, and so to us.
		 */
		if (id & 0x80)
			return wasm_read__fail(ps, id_at, -EINVAL, "invalid name subsection id 0x%02x", id);
		if ((rc = wasm_read__region(ps, c, &sub, "name subsection")))
			return rc;
		kind = id < ARRAY_SIZE(subsection_kind) ? subsection_kind[id] : -1;
		if (id == 0) {
			const uint8_t *at = sub.p;

			if ((rc = wasm_read__u32(ps, &sub, &len, "module name")))
				return rc;
			if (len > MAX_STRING_SIZE)
				return wasm_read__fail(ps, at, -EINVAL, "string size out of bounds");
			sub.p = at;
			if ((rc = wasm_read__name(ps, &sub, &s, &len, "module name")))
				return rc;
			if (sub.p != sub.end)
				return wasm_read__fail(ps, sub.p, -EINVAL, "trailing data at the end of a name");
			continue;
		}
		if (kind < 0)
			continue;	/* unknown subsection: skipped */
		if (kind == NK_LOCAL || kind == NK_LABEL || kind == NK_FIELD) {
			const uint8_t *payload = sub.p;

			rc = rd_indirect_map(x, &sub, kind);
			if (rc == -EINVAL && kind == NK_FIELD && is_plain_name_map(payload, sub.end)) {
				ps->failed = false;	/* a better message than where it broke */
				return wasm_read__fail(ps, id_at, rc, "name subsection 10 holds tag names in "
						 "wabt 1.0.32's numbering (field names now; tags are "
						 "11): tags stay unnamed, as in wasmprinter");
			}
		} else {
			rc = rd_name_map(x, &sub, kind, false, 0, true);
		}
		if (rc)
			return rc;
		if (sub.p != sub.end)
			return wasm_read__fail(ps, sub.p, -EINVAL,
					 "unexpected data at the end of the name subsection");
	}
	return 0;
}

/*
 * A malformed name section is a warning, not an error: wasmprinter drops the
 * error of register_names() and keeps what it registered, and so does wasmtime.
 */
int wasm_names__parse(struct modctx *x, struct cursor *c)
{
	struct ps *outer = x->ps;
	struct ps sub = *outer;
	bool first = !x->m->name_errors;
	int rc;

	sub.err = first ? x->m->name_error : NULL;
	sub.errlen = first ? sizeof(x->m->name_error) : 0;
	sub.failed = false;
	x->ps = &sub;
	rc = parse_names(x, c);
	x->ps = outer;
	if (rc == -ENOMEM)
		return wasm_read__fail(outer, c->p, -ENOMEM, "out of memory");
	if (rc)
		x->m->name_errors++;
	return 0;
}

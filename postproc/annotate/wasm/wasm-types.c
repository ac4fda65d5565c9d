/* SPDX-License-Identifier: MIT */
/*
 * WebAssembly types in the decoder: value, reference and heap types as
 * wasmparser reads them and wasmprinter prints them, function types, and the
 * type section (the GC proposal's rec groups and subtypes included), whose
 * function types block types refer to.
 */
#include <inttypes.h>
#include <string.h>

#include "wasm-read.h"

/* ---- reading ---- */

static bool abstract_ht(uint8_t b)
{
	return b >= 0x68 && b <= 0x75;
}

/* wasmparser HeapType: an s33; non-negative is a type index. */
int wasm_types__read_heaptype(struct ps *ps, struct cursor *c, struct heaptype *ht)
{
	const uint8_t *at = c->p;
	struct cursor peek = *c;
	int64_t s;
	uint8_t b = 0;
	int rc;

	if ((rc = wasm_read__s(ps, &peek, 33, &s, "heap type")))
		return rc;
	ht->shared = false;
	ht->idx = 0;
	if (s >= 0) {
		if (s > UINT32_MAX)
			return wasm_read__fail(ps, at, -ERANGE, "type index too large");
		*c = peek;
		ht->kind = HT_CONCRETE;
		ht->idx = (uint32_t)s;
		return 0;
	}
	wasm_read__u8(ps, c, &b, "heap type");
	if (b == 0x65) {
		ht->shared = true;
		if ((rc = wasm_read__u8(ps, c, &b, "heap type")))
			return rc;
	} else if (b == 0x62) {
		ht->kind = HT_EXACT;
		return wasm_read__u32(ps, c, &ht->idx, "exact type index");
	}
	if (!abstract_ht(b))
		return wasm_read__fail(ps, c->p - 1, -EINVAL, "invalid heap type 0x%02x", b);
	ht->kind = b;
	return 0;
}

/* wasmparser RefType: 0x63/0x64 + heap type, or an abstract shorthand. */
int wasm_types__read_reftype(struct ps *ps, struct cursor *c, struct valtype *vt)
{
	const uint8_t *at = c->p;
	uint8_t b = 0;
	int rc;

	if ((rc = wasm_read__u8(ps, c, &b, "reference type")))
		return rc;
	vt->code = VT_REF;
	vt->ht.shared = false;
	vt->ht.idx = 0;
	if (b == 0x63 || b == 0x64) {
		vt->nullable = b == 0x63;
		return wasm_types__read_heaptype(ps, c, &vt->ht);
	}
	vt->nullable = true;
	if (b == 0x65) {
		vt->ht.shared = true;
		if ((rc = wasm_read__u8(ps, c, &b, "reference type")))
			return rc;
	}
	if (!abstract_ht(b))
		return wasm_read__fail(ps, at, -EINVAL, "invalid value type 0x%02x", b);
	vt->ht.kind = b;
	return 0;
}

int wasm_types__read_valtype(struct ps *ps, struct cursor *c, struct valtype *vt)
{
	if (c->p < c->end && *c->p >= 0x7b && *c->p <= 0x7f) {
		vt->code = *c->p++;
		vt->nullable = false;
		return 0;
	}
	return wasm_types__read_reftype(ps, c, vt);
}

/* ---- the type section ---- */

static int rd_functype(struct modctx *x, struct cursor *c, struct functype *ft)
{
	uint32_t n;
	int rc;

	ft->first = (uint32_t)x->nr_vts;
	for (int pass = 0; pass < 2; pass++) {
		if ((rc = wasm_read__u32(x->ps, c, &n, pass ? "result count" : "parameter count")))
			return rc;
		if (n > (size_t)(c->end - c->p))
			return wasm_read__fail(x->ps, c->p, -EINVAL, "type list longer than its section");
		if (VEC_GROW(x->vts, x->nr_vts + n, x->alloc_vts))
			return wasm_read__fail(x->ps, c->p, -ENOMEM, "out of memory");
		for (uint32_t i = 0; i < n; i++)
			if ((rc = wasm_types__read_valtype(x->ps, c, &x->vts[x->nr_vts++])))
				return rc;
		if (pass)
			ft->nresults = n;
		else
			ft->nparams = n;
	}
	return 0;
}

static int rd_fieldtype(struct modctx *x, struct cursor *c)
{
	struct valtype vt;
	uint8_t mut = 0;
	int rc;

	if (c->p < c->end && (*c->p == 0x78 || *c->p == 0x77))	/* i8, i16 */
		c->p++;
	else if ((rc = wasm_types__read_valtype(x->ps, c, &vt)))
		return rc;
	if ((rc = wasm_read__u8(x->ps, c, &mut, "field mutability")))
		return rc;
	if (mut > 1)
		return wasm_read__fail(x->ps, c->p - 1, -EINVAL, "malformed mutability byte for field type");
	return 0;
}

/* One subtype (GC proposal): [sub [final] supers] [shared] [describes] [descriptor] composite. */
static int rd_subtype(struct modctx *x, struct cursor *c)
{
	struct ps *ps = x->ps;
	struct functype ft = { 0 };
	uint32_t n, idx;
	uint8_t b = 0;
	bool plain = true;
	int rc;

	if ((rc = wasm_read__u8(ps, c, &b, "type")))
		return rc;
	if (b == 0x50 || b == 0x4f) {
		if ((rc = wasm_read__u32(ps, c, &n, "supertype count")))
			return rc;
		for (uint32_t i = 0; i < n; i++)
			if ((rc = wasm_read__u32(ps, c, &idx, "supertype")))
				return rc;
		if ((rc = wasm_read__u8(ps, c, &b, "type")))
			return rc;
	}
	if (b == 0x65) {
		plain = false;
		if ((rc = wasm_read__u8(ps, c, &b, "type")))
			return rc;
	}
	if (b == 0x4c) {	/* describes (custom descriptors) */
		plain = false;
		if ((rc = wasm_read__u32(ps, c, &idx, "described type")) || (rc = wasm_read__u8(ps, c, &b, "type")))
			return rc;
	}
	if (b == 0x4d) {	/* descriptor */
		plain = false;
		if ((rc = wasm_read__u32(ps, c, &idx, "descriptor type")) || (rc = wasm_read__u8(ps, c, &b, "type")))
			return rc;
	}
	switch (b) {
	case 0x60:
		if ((rc = rd_functype(x, c, &ft)))
			return rc;
		ft.plain = plain;
		break;
	case 0x5e:
		if ((rc = rd_fieldtype(x, c)))
			return rc;
		break;
	case 0x5f:
		if ((rc = wasm_read__u32(ps, c, &n, "field count")))
			return rc;
		for (uint32_t i = 0; i < n; i++)
			if ((rc = rd_fieldtype(x, c)))
				return rc;
		break;
	case 0x5d: {
		int64_t s;

		if ((rc = wasm_read__s(ps, c, 33, &s, "continuation type")))
			return rc;
		break;
	}
	default:
		return wasm_read__fail(ps, c->p - 1, -EINVAL, "invalid leading byte (0x%x) for type", b);
	}
	if (VEC_GROW(x->types, x->nr_types + 1, x->alloc_types))
		return wasm_read__fail(ps, c->p, -ENOMEM, "out of memory");
	x->types[x->nr_types++] = ft;
	return 0;
}

/* Type section: rec groups (0x4e) or single subtypes, numbered in order. */
int wasm_types__parse(struct modctx *x, struct cursor *c)
{
	uint32_t n, m;
	int rc;

	if ((rc = wasm_read__u32(x->ps, c, &n, "type count")))
		return rc;
	for (uint32_t i = 0; i < n; i++) {
		if (c->p < c->end && *c->p == 0x4e) {
			c->p++;
			if ((rc = wasm_read__u32(x->ps, c, &m, "rec group size")))
				return rc;
			for (uint32_t j = 0; j < m; j++)
				if ((rc = rd_subtype(x, c)))
					return rc;
		} else if ((rc = rd_subtype(x, c))) {
			return rc;
		}
	}
	return 0;
}

/* ---- printing ---- */

static const char *abstract_name(uint8_t kind)
{
	switch (kind) {
	case 0x70: return "func";
	case 0x6f: return "extern";
	case 0x6e: return "any";
	case 0x71: return "none";
	case 0x72: return "noextern";
	case 0x73: return "nofunc";
	case 0x6d: return "eq";
	case 0x6b: return "struct";
	case 0x6a: return "array";
	case 0x6c: return "i31";
	case 0x69: return "exn";
	case 0x74: return "noexn";
	case 0x68: return "cont";
	case 0x75: return "nocont";
	}
	return "?";
}

/* The shorthand of a nullable abstract reference type, or NULL (cont has none). */
static const char *ref_shorthand(uint8_t kind)
{
	switch (kind) {
	case 0x70: return "funcref";
	case 0x6f: return "externref";
	case 0x6c: return "i31ref";
	case 0x6e: return "anyref";
	case 0x71: return "nullref";
	case 0x72: return "nullexternref";
	case 0x73: return "nullfuncref";
	case 0x6d: return "eqref";
	case 0x6b: return "structref";
	case 0x6a: return "arrayref";
	case 0x69: return "exnref";
	case 0x74: return "nullexnref";
	}
	return NULL;
}

/* print_heaptype, without the leading space. */
void wasm_types__put_heaptype(struct modctx *x, const struct heaptype *ht)
{
	struct strbuf *b = &x->out;
	const struct naming *n;

	switch (ht->kind) {
	case HT_CONCRETE:
	case HT_EXACT:
		if (ht->kind == HT_EXACT)
			strbuf_addstr(b, "(exact ");
		n = name_map__find(&x->names[NK_TYPE], ht->idx, 0);
		if (n)
			wasm_names__put_ident(b, n, NK_TYPE);
		else
			strbuf_addu(b, ht->idx);
		if (ht->kind == HT_EXACT)
			strbuf_addch(b, ')');
		break;
	default:
		if (ht->shared)
			strbuf_addstr(b, "(shared ");
		strbuf_addstr(b, abstract_name(ht->kind));
		if (ht->shared)
			strbuf_addch(b, ')');
	}
}

void wasm_types__put_reftype(struct modctx *x, bool nullable, const struct heaptype *ht)
{
	const char *s = NULL;

	if (nullable && !ht->shared && ht->kind != HT_CONCRETE && ht->kind != HT_EXACT)
		s = ref_shorthand(ht->kind);
	if (s) {
		strbuf_addstr(&x->out, s);
		return;
	}
	strbuf_addstr(&x->out, nullable ? "(ref null " : "(ref ");
	wasm_types__put_heaptype(x, ht);
	strbuf_addch(&x->out, ')');
}

void wasm_types__put_valtype(struct modctx *x, const struct valtype *vt)
{
	static const char *const num[] = { "v128", "f64", "f32", "i64", "i32" };

	if (vt->code >= 0x7b && vt->code <= 0x7f)
		strbuf_addstr(&x->out, num[vt->code - 0x7b]);
	else
		wasm_types__put_reftype(x, vt->nullable, &vt->ht);
}

/*
 * print_func_type with names_for = None: "(param i32 i64) (result f32)". Named
 * parameters (looked up as locals of function u32::MAX, as wasmprinter does)
 * get a group each.
 */
void wasm_types__put_functype(struct modctx *x, const struct functype *ft)
{
	struct strbuf *b = &x->out;
	bool first = true, in_group = false;

	if (ft->nparams)
		strbuf_addch(b, ' ');
	for (uint32_t i = 0; i < ft->nparams; i++) {
		const struct naming *n = name_map__find(&x->names[NK_LOCAL], UINT32_MAX, i);

		if (n && in_group) {
			strbuf_addch(b, ')');
			in_group = false;
		}
		if (!first)
			strbuf_addch(b, ' ');
		first = false;
		if (!in_group) {
			strbuf_addstr(b, "(param ");
			in_group = true;
		}
		if (n) {
			wasm_names__put_name(b, n, NK_LOCAL);
			strbuf_addch(b, ' ');
		}
		wasm_types__put_valtype(x, &x->vts[ft->first + i]);
		if (n) {
			strbuf_addch(b, ')');
			in_group = false;
		}
	}
	if (in_group)
		strbuf_addch(b, ')');
	if (ft->nresults) {
		strbuf_addstr(b, " (result");
		for (uint32_t i = 0; i < ft->nresults; i++) {
			strbuf_addch(b, ' ');
			wasm_types__put_valtype(x, &x->vts[ft->first + ft->nparams + i]);
		}
		strbuf_addch(b, ')');
	}
}

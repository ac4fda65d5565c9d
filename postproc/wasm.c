/* SPDX-License-Identifier: MIT */
/* WebAssembly binary decoder: each instruction's offset and its text as wasmprinter prints it. */
#include "wasm.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "float-decimal.h"
#include "util.h"

/* Immediate kinds of wasm-opcodes.def (the IMM column). */
enum wasm_imm {
	IMM_NONE,
	IMM_BLOCK,		/* block type (empty, valtype, s33 type index) */
	IMM_BR,			/* relative depth */
	IMM_BR_TABLE,
	IMM_BR_ON_CAST,		/* cast flags, depth, heap type, heap type */
	IMM_TRY_TABLE,		/* block type, catch clauses */
	IMM_FUNC,
	IMM_CALL_INDIRECT,	/* type index, table index */
	IMM_TYPE,		/* a type index printed bare: call_ref, struct.new, ... */
	IMM_TYPE_TYPE,
	IMM_TYPE_U32,		/* array.new_fixed: type, size */
	IMM_TYPE_DATA,
	IMM_TYPE_ELEM,
	IMM_TYPE_TAG,
	IMM_STRUCT_FIELD,
	IMM_LOCAL,
	IMM_GLOBAL,
	IMM_TABLE,
	IMM_TAG,
	IMM_DATA,
	IMM_ELEM,
	IMM_MEMIDX,		/* memory index, printed only when nonzero */
	IMM_MEMORY_INIT,
	IMM_MEMORY_COPY,
	IMM_TABLE_INIT,
	IMM_TABLE_COPY,
	IMM_MEM8,		/* memarg; the number is the natural alignment in bits */
	IMM_MEM16,
	IMM_MEM32,
	IMM_MEM64,
	IMM_MEM128,
	IMM_MEMLANE8,		/* memarg, then a lane index byte */
	IMM_MEMLANE16,
	IMM_MEMLANE32,
	IMM_MEMLANE64,
	IMM_LANE,
	IMM_SHUFFLE,
	IMM_I32,
	IMM_I64,
	IMM_F32,
	IMM_F64,
	IMM_V128,
	IMM_SELECT_T,
	IMM_HEAPTYPE,		/* ref.null */
	IMM_REF_NN,		/* heap type printed as (ref ht) */
	IMM_REF_NULL,		/* heap type printed as a nullable reference type */
	IMM_FENCE,
	IMM_ORD_GLOBAL,		/* memory ordering, then ... */
	IMM_ORD_TABLE,
	IMM_ORD_STRUCT_FIELD,
	IMM_ORD_TYPE,
	IMM_RESUME,		/* type, handler table */
	IMM_RESUME_THROW,	/* type, tag, handler table */
};

enum {
	OPF_BLOCK = 1 << 0,
	OPF_MID = 1 << 1,
	OPF_END = 1 << 2,
	OPF_DELEGATE = 1 << 3,
	OPF_BRANCH = 1 << 4,
	OPF_TERM = 1 << 5,
	OPF_CALL = 1 << 6,
};

enum wasm_op {
#define WASM_OP(prefix, code, NAME, text, imm, flags) WASM_OP_##NAME,
#include "wasm-opcodes.def"
#undef WASM_OP
	WASM_OP__NR
};

static const struct wasm_opcode opcodes[WASM_OP__NR] = {
#define WASM_OP(prefix, code, NAME, text, imm, flags) \
	[WASM_OP_##NAME] = { prefix, code, #NAME, text, imm, flags },
#include "wasm-opcodes.def"
#undef WASM_OP
};

/*
 * (prefix, code) -> row + 1, through one flat index space. Each prefix gets a
 * window wide enough for its sub-opcodes; a row outside its window fails to
 * compile, and two rows with the same slot trip -Woverride-init (-Wextra).
 */
#define SLOT_FB 256
#define SLOT_FC (SLOT_FB + 0x40)
#define SLOT_FD (SLOT_FC + 0x40)
#define SLOT_FE (SLOT_FD + 0x140)
#define SLOT_END (SLOT_FE + 0x80)
#define SLOT(p, c)                                                   \
	((p) == 0x00 ? (c) : (p) == 0xfb ? SLOT_FB + (c) :           \
	 (p) == 0xfc ? SLOT_FC + (c) : (p) == 0xfd ? SLOT_FD + (c) : \
	 SLOT_FE + (c))
#define SLOT_WIDTH(p)                                                 \
	((p) == 0x00 ? 0x100 : (p) == 0xfb ? 0x40 : (p) == 0xfc ? 0x40 : \
	 (p) == 0xfd ? 0x140 : (p) == 0xfe ? 0x80 : 0)

#define WASM_OP(prefix, code, NAME, text, imm, flags) \
	_Static_assert((code) < SLOT_WIDTH(prefix), "opcode " #NAME " outside its prefix window");
#include "wasm-opcodes.def"
#undef WASM_OP

static const uint16_t slot_op[SLOT_END] = {
#define WASM_OP(prefix, code, NAME, text, imm, flags) [SLOT(prefix, code)] = WASM_OP_##NAME + 1,
#include "wasm-opcodes.def"
#undef WASM_OP
};

size_t wasm_opcodes(const struct wasm_opcode **ops)
{
	*ops = opcodes;
	return WASM_OP__NR;
}

const struct wasm_opcode *wasm_opcode__find(uint16_t prefix, uint32_t code)
{
	unsigned width = SLOT_WIDTH(prefix);

	if (code >= width)
		return NULL;
	uint16_t i = slot_op[SLOT(prefix, code)];
	return i ? &opcodes[i - 1] : NULL;
}

/* ---- limits (wasmparser's, where they change what is accepted) ---- */

#define MAX_STRING_SIZE 100000		/* read_string, skip_string */
#define MAX_COMPONENT_DEPTH 64		/* nested components; ours */

/* ---- growable text buffer ---- */

struct buf {
	char *p;
	size_t len, alloc;
	bool oom;
};

static void buf_grow(struct buf *b, size_t more)
{
	if (b->oom)
		return;
	if (more > SIZE_MAX - b->len - 1 || VEC_GROW(b->p, b->len + more + 1, b->alloc)) {
		b->oom = true;
		return;
	}
}

static void buf_addn(struct buf *b, const char *s, size_t n)
{
	buf_grow(b, n);
	if (b->oom)
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void buf_adds(struct buf *b, const char *s)
{
	buf_addn(b, s, strlen(s));
}

static void buf_addc(struct buf *b, char c)
{
	buf_addn(b, &c, 1);
}

__attribute__((format(printf, 2, 3)))
static void buf_addf(struct buf *b, const char *fmt, ...)
{
	char tmp[128];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(tmp, sizeof(tmp), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(tmp)) {
		buf_addn(b, tmp, n);
		return;
	}
	buf_grow(b, n);
	if (b->oom)
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, n + 1, fmt, ap);
	va_end(ap);
	b->len += n;
}

static void buf_addu(struct buf *b, uint64_t v)
{
	char tmp[24];
	int i = sizeof(tmp);

	do {
		tmp[--i] = '0' + v % 10;
		v /= 10;
	} while (v);
	buf_addn(b, tmp + i, sizeof(tmp) - i);
}

static void buf_addi(struct buf *b, int64_t v)
{
	if (v < 0) {
		buf_addc(b, '-');
		buf_addu(b, -(uint64_t)v);
	} else {
		buf_addu(b, (uint64_t)v);
	}
}

/* ---- errors ---- */

struct ps {
	const uint8_t *base;	/* file start: offsets are relative to it */
	const char *name;
	char *err;
	size_t errlen;
	bool failed;
};

__attribute__((format(printf, 4, 5)))
static int fail(struct ps *ps, const uint8_t *at, int rc, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (ps->failed)
		return rc;
	ps->failed = true;
	if (!ps->errlen)
		return rc;
	n = snprintf(ps->err, ps->errlen, "%s+0x%zx: ", ps->name, (size_t)(at - ps->base));
	if (n < 0 || (size_t)n >= ps->errlen)
		return rc;
	va_start(ap, fmt);
	vsnprintf(ps->err + n, ps->errlen - n, fmt, ap);
	va_end(ap);
	return rc;
}

/* ---- bounded reads ---- */

struct cursor {
	const uint8_t *p, *end;
};

int wasm_leb_u(const uint8_t **pp, const uint8_t *end, unsigned bits, uint64_t *v)
{
	const uint8_t *p = *pp;
	unsigned shift = 0;
	uint64_t r = 0;

	for (;;) {
		if (p >= end)
			return -EINVAL;
		uint8_t b = *p++;

		r |= (uint64_t)(b & 0x7f) << shift;
		if (shift + 7 >= bits) {
			/* Last byte allowed: no continuation, no bits past the width. */
			if (b >> (bits - shift))
				return -ERANGE;
			break;
		}
		if (!(b & 0x80))
			break;
		shift += 7;
	}
	*pp = p;
	*v = r;
	return 0;
}

int wasm_leb_s(const uint8_t **pp, const uint8_t *end, unsigned bits, int64_t *v)
{
	const uint8_t *p = *pp;
	unsigned shift = 0;
	uint64_t r = 0;
	uint8_t b = 0;

	for (;;) {
		if (p >= end)
			return -EINVAL;
		b = *p++;
		r |= (uint64_t)(b & 0x7f) << shift;
		shift += 7;
		if (shift >= bits) {
			/*
			 * Last byte allowed: no continuation, and the bits from
			 * the sign bit up are all equal (a sign extension).
			 */
			unsigned sb = bits - (shift - 7) - 1;	/* sign bit in b */
			uint8_t top = (uint8_t)(b & 0x7f) >> sb;

			if ((b & 0x80) || (top != 0 && top != (0x7f >> sb)))
				return -ERANGE;
			break;
		}
		if (!(b & 0x80))
			break;
	}
	if (shift < 64 && (b & 0x40))
		r |= ~(uint64_t)0 << shift;
	if (bits < 64) {
		/* Keep the value in range of the width: sign-extend from bits. */
		uint64_t m = (uint64_t)1 << (bits - 1);

		r &= ((uint64_t)1 << bits) - 1;
		r = (r ^ m) - m;
	}
	*pp = p;
	memcpy(v, &r, sizeof(r));
	return 0;
}

static int rd_fail(struct ps *ps, const uint8_t *at, int rc, const char *what)
{
	if (rc == -EINVAL)
		return fail(ps, at, -EINVAL, "unexpected end of data reading %s", what);
	return fail(ps, at, -ERANGE, "malformed LEB128 %s: too long or too large", what);
}

static int rd_u8(struct ps *ps, struct cursor *c, uint8_t *v, const char *what)
{
	if (c->p >= c->end)
		return rd_fail(ps, c->p, -EINVAL, what);
	*v = *c->p++;
	return 0;
}

static int rd_u32(struct ps *ps, struct cursor *c, uint32_t *v, const char *what)
{
	uint64_t x;
	int rc = wasm_leb_u(&c->p, c->end, 32, &x);

	if (rc)
		return rd_fail(ps, c->p, rc, what);
	*v = (uint32_t)x;
	return 0;
}

static int rd_u64(struct ps *ps, struct cursor *c, uint64_t *v, const char *what)
{
	int rc = wasm_leb_u(&c->p, c->end, 64, v);

	return rc ? rd_fail(ps, c->p, rc, what) : 0;
}

static int rd_s(struct ps *ps, struct cursor *c, unsigned bits, int64_t *v, const char *what)
{
	int rc = wasm_leb_s(&c->p, c->end, bits, v);

	return rc ? rd_fail(ps, c->p, rc, what) : 0;
}

static int rd_bytes(struct ps *ps, struct cursor *c, size_t n, const uint8_t **out,
		    const char *what)
{
	if ((size_t)(c->end - c->p) < n)
		return rd_fail(ps, c->p, -EINVAL, what);
	*out = c->p;
	c->p += n;
	return 0;
}

/* A size-prefixed region (section, subsection): a sub-cursor over it. */
static int rd_region(struct ps *ps, struct cursor *c, struct cursor *sub, const char *what)
{
	const uint8_t *at = c->p, *p;
	uint32_t n;
	int rc;

	if ((rc = rd_u32(ps, c, &n, what)))
		return rc;
	if ((size_t)(c->end - c->p) < n)
		return fail(ps, at, -EINVAL, "%s size %" PRIu32 " runs past the end (%zu bytes left)",
			    what, n, (size_t)(c->end - c->p));
	rd_bytes(ps, c, n, &p, what);
	sub->p = p;
	sub->end = p + n;
	return 0;
}

/* Strict UTF-8 (what Rust's str::from_utf8 accepts). */
static bool utf8_valid(const uint8_t *s, size_t n)
{
	size_t i = 0;

	while (i < n) {
		uint8_t b = s[i];
		uint32_t cp, min;
		size_t k;

		if (b < 0x80) {
			i++;
			continue;
		} else if ((b & 0xe0) == 0xc0) {
			k = 1, cp = b & 0x1f, min = 0x80;
		} else if ((b & 0xf0) == 0xe0) {
			k = 2, cp = b & 0x0f, min = 0x800;
		} else if ((b & 0xf8) == 0xf0) {
			k = 3, cp = b & 0x07, min = 0x10000;
		} else {
			return false;
		}
		if (n - i <= k)
			return false;
		for (size_t j = 1; j <= k; j++) {
			if ((s[i + j] & 0xc0) != 0x80)
				return false;
			cp = cp << 6 | (s[i + j] & 0x3f);
		}
		if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
			return false;
		i += k + 1;
	}
	return true;
}

/* Next code point of valid UTF-8. */
static uint32_t utf8_next(const uint8_t **pp)
{
	const uint8_t *p = *pp;
	uint32_t cp = *p++;

	if (cp >= 0x80) {
		int k = cp >= 0xf0 ? 3 : cp >= 0xe0 ? 2 : 1;

		cp &= 0x3f >> k;
		while (k--)
			cp = cp << 6 | (*p++ & 0x3f);
	}
	*pp = p;
	return cp;
}

/* ---- types ---- */

enum { HT_CONCRETE = 0, HT_EXACT = 1 };	/* else an abstract heap type byte 0x68..0x75 */
#define VT_REF 0x63

struct heaptype {
	uint8_t kind;
	bool shared;
	uint32_t idx;
};

struct valtype {
	uint8_t code;		/* 0x7f i32 .. 0x7b v128, or VT_REF */
	bool nullable;
	struct heaptype ht;
};

struct functype {
	bool plain;		/* a func type wasmprinter expands after (type N) */
	uint32_t first, nparams, nresults;	/* into modctx.vts */
};

static bool abstract_ht(uint8_t b)
{
	return b >= 0x68 && b <= 0x75;
}

/* wasmparser HeapType: an s33; non-negative is a type index. */
static int rd_heaptype(struct ps *ps, struct cursor *c, struct heaptype *ht)
{
	const uint8_t *at = c->p;
	struct cursor peek = *c;
	int64_t s;
	uint8_t b = 0;
	int rc;

	if ((rc = rd_s(ps, &peek, 33, &s, "heap type")))
		return rc;
	ht->shared = false;
	ht->idx = 0;
	if (s >= 0) {
		if (s > UINT32_MAX)
			return fail(ps, at, -ERANGE, "type index too large");
		*c = peek;
		ht->kind = HT_CONCRETE;
		ht->idx = (uint32_t)s;
		return 0;
	}
	rd_u8(ps, c, &b, "heap type");
	if (b == 0x65) {
		ht->shared = true;
		if ((rc = rd_u8(ps, c, &b, "heap type")))
			return rc;
	} else if (b == 0x62) {
		ht->kind = HT_EXACT;
		return rd_u32(ps, c, &ht->idx, "exact type index");
	}
	if (!abstract_ht(b))
		return fail(ps, c->p - 1, -EINVAL, "invalid heap type 0x%02x", b);
	ht->kind = b;
	return 0;
}

/* wasmparser RefType: 0x63/0x64 + heap type, or an abstract shorthand. */
static int rd_reftype(struct ps *ps, struct cursor *c, struct valtype *vt)
{
	const uint8_t *at = c->p;
	uint8_t b = 0;
	int rc;

	if ((rc = rd_u8(ps, c, &b, "reference type")))
		return rc;
	vt->code = VT_REF;
	vt->ht.shared = false;
	vt->ht.idx = 0;
	if (b == 0x63 || b == 0x64) {
		vt->nullable = b == 0x63;
		return rd_heaptype(ps, c, &vt->ht);
	}
	vt->nullable = true;
	if (b == 0x65) {
		vt->ht.shared = true;
		if ((rc = rd_u8(ps, c, &b, "reference type")))
			return rc;
	}
	if (!abstract_ht(b))
		return fail(ps, at, -EINVAL, "invalid value type 0x%02x", b);
	vt->ht.kind = b;
	return 0;
}

static int rd_valtype(struct ps *ps, struct cursor *c, struct valtype *vt)
{
	if (c->p < c->end && *c->p >= 0x7b && *c->p <= 0x7f) {
		vt->code = *c->p++;
		vt->nullable = false;
		return 0;
	}
	return rd_reftype(ps, c, vt);
}

/* ---- names ---- */

enum name_kind {
	NK_FUNC, NK_LOCAL, NK_LABEL, NK_TYPE, NK_TABLE, NK_MEMORY, NK_GLOBAL,
	NK_ELEM, NK_DATA, NK_FIELD, NK_TAG, NK__NR
};

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

enum name_form {
	NF_PLAIN,	/* $name */
	NF_QUOTED,	/* $"name with spaces" */
	NF_SYNTH,	/* $"#local3 name": empty, '#'-prefixed or duplicate */
};

struct naming {
	uint32_t k1, k2;	/* index, or (outer, inner) for indirect maps */
	uint32_t seq;		/* order of appearance: later wins */
	uint32_t len;
	const uint8_t *s;	/* borrowed from the input, valid UTF-8 */
	uint8_t form;
};

struct name_map {
	struct naming *v;
	size_t nr, alloc;
};

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
static void name_map__finish(struct name_map *m)
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

static const struct naming *name_map__find(const struct name_map *m, uint32_t k1, uint32_t k2)
{
	size_t lo = 0, hi = m->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct naming *n = &m->v[mid];

		if (n->k1 < k1 || (n->k1 == k1 && n->k2 < k2))
			lo = mid + 1;
		else if (n->k1 == k1 && n->k2 == k2)
			return n;
		else
			hi = mid;
	}
	return NULL;
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

/* ---- per core module state ---- */

struct fname {
	uint32_t idx;
	size_t off;		/* into core_module.pool */
};

struct core_module {
	uint32_t off, len;	/* where the module's bytes are in the file */
	uint32_t imported_funcs;
	uint32_t nfuncs;
	struct fname *names;
	size_t nr_names;
	char *pool;
};

struct wasm_module {
	struct wasm_insn *insns;
	size_t nr_insns, alloc_insns;
	size_t *text_off;	/* while parsing: insns[i].text as an offset, SIZE_MAX = NULL */
	size_t alloc_text_off;
	struct buf text;
	size_t text_limit;	/* bounded memory: long names repeated by many instructions */
	struct core_module *mods;
	size_t nr_mods, alloc_mods;
	unsigned name_errors;
	char name_error[256];
};

struct modctx {
	struct ps *ps;
	struct wasm_module *m;
	uint32_t index;			/* core module number */
	struct functype *types;
	size_t nr_types, alloc_types;
	struct valtype *vts;
	size_t nr_vts, alloc_vts;
	uint32_t imported[5];		/* func, table, memory, global, tag */
	uint32_t defined_funcs;
	const uint8_t *defined_funcs_at;	/* the function section's count, if any */
	struct name_map names[NK__NR];
	uint32_t name_seq;
	struct cursor code[1];		/* the code section, if any */
	bool has_code;
	/* per function body */
	uint32_t func;
	int depth;			/* wasmprinter: nesting - nesting_start */
	uint32_t label;			/* next label index, in textual order */
	uint32_t *labels;		/* label index of each open label */
	size_t nr_labels, alloc_labels;
	struct buf out;			/* text of the instruction being decoded */
};

/* ---- rendering ---- */

static void put_str_contents(struct buf *b, const uint8_t *s, uint32_t len)
{
	const uint8_t *p = s, *end = s + len;

	while (p < end) {
		uint32_t cp = utf8_next(&p);

		if (cp >= 0x20 && cp < 0x7f && cp != '"' && cp != '\\')
			buf_addc(b, (char)cp);
		else
			buf_addf(b, "\\u{%" PRIx32 "}", cp);
	}
}

/* wasmprinter Naming::write_identifier. */
static void put_ident(struct buf *b, const struct naming *n, enum name_kind kind)
{
	switch (n->form) {
	case NF_PLAIN:
		buf_addc(b, '$');
		buf_addn(b, (const char *)n->s, n->len);
		break;
	case NF_QUOTED:
		buf_adds(b, "$\"");
		put_str_contents(b, n->s, n->len);
		buf_addc(b, '"');
		break;
	default:
		buf_addf(b, "$\"#%s%" PRIu32 " ", name_group[kind],
			 kind == NK_LOCAL || kind == NK_LABEL || kind == NK_FIELD ? n->k2 : n->k1);
		put_str_contents(b, n->s, n->len);
		buf_addc(b, '"');
		break;
	}
}

/* wasmprinter Naming::write: a synthetic name also shows the real one. */
static void put_name(struct buf *b, const struct naming *n, enum name_kind kind)
{
	put_ident(b, n, kind);
	if (n->form == NF_SYNTH) {
		buf_adds(b, " (@name \"");
		put_str_contents(b, n->s, n->len);
		buf_adds(b, "\")");
	}
}

/* " $name" or " 12" (print_idx, print_local_idx, print_field_idx). */
static void put_idx(struct modctx *x, enum name_kind kind, uint32_t k1, uint32_t k2, uint32_t idx)
{
	const struct naming *n = name_map__find(&x->names[kind], k1, k2);

	buf_addc(&x->out, ' ');
	if (n)
		put_ident(&x->out, n, kind);
	else
		buf_addu(&x->out, idx);
}

static void put_index(struct modctx *x, enum name_kind kind, uint32_t idx)
{
	put_idx(x, kind, idx, 0, idx);
}

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
static void put_heaptype(struct modctx *x, const struct heaptype *ht)
{
	struct buf *b = &x->out;
	const struct naming *n;

	switch (ht->kind) {
	case HT_CONCRETE:
	case HT_EXACT:
		if (ht->kind == HT_EXACT)
			buf_adds(b, "(exact ");
		n = name_map__find(&x->names[NK_TYPE], ht->idx, 0);
		if (n)
			put_ident(b, n, NK_TYPE);
		else
			buf_addu(b, ht->idx);
		if (ht->kind == HT_EXACT)
			buf_addc(b, ')');
		break;
	default:
		if (ht->shared)
			buf_adds(b, "(shared ");
		buf_adds(b, abstract_name(ht->kind));
		if (ht->shared)
			buf_addc(b, ')');
	}
}

static void put_reftype(struct modctx *x, bool nullable, const struct heaptype *ht)
{
	const char *s = NULL;

	if (nullable && !ht->shared && ht->kind != HT_CONCRETE && ht->kind != HT_EXACT)
		s = ref_shorthand(ht->kind);
	if (s) {
		buf_adds(&x->out, s);
		return;
	}
	buf_adds(&x->out, nullable ? "(ref null " : "(ref ");
	put_heaptype(x, ht);
	buf_addc(&x->out, ')');
}

static void put_valtype(struct modctx *x, const struct valtype *vt)
{
	static const char *const num[] = { "v128", "f64", "f32", "i64", "i32" };

	if (vt->code >= 0x7b && vt->code <= 0x7f)
		buf_adds(&x->out, num[vt->code - 0x7b]);
	else
		put_reftype(x, vt->nullable, &vt->ht);
}

/* ---- floats (wasmprinter print_float, Rust's Display for the comment) ---- */

/* Rust {} of a finite nonzero magnitude: plain decimal, no exponent. */
static void put_display(struct buf *b, uint64_t mag, bool is64)
{
	struct float_decimal d;
	int e, n;

	float_decimal_shortest(&d, mag, is64);
	e = d.exp;
	n = (int)strlen(d.digits);
	if (e <= 0) {
		buf_adds(b, "0.");
		for (int i = 0; i < -e; i++)
			buf_addc(b, '0');
		buf_adds(b, d.digits);
	} else if (e < n) {
		buf_addn(b, d.digits, e);
		buf_addc(b, '.');
		buf_adds(b, d.digits + e);
	} else {
		buf_adds(b, d.digits);
		for (int i = 0; i < e - n; i++)
			buf_addc(b, '0');
	}
}

static void put_float(struct buf *b, uint64_t bits, bool is64)
{
	const int w = is64 ? 64 : 32, eb = is64 ? 11 : 8, mw = w - 1 - eb;
	const uint64_t wmask = is64 ? UINT64_MAX : 0xffffffffu;
	const int bias = (1 << (eb - 1)) - 1, min_exp = -bias;
	bool neg = bits >> (w - 1) & 1;
	uint64_t mag = bits & (wmask >> 1);
	uint64_t expbits = mag >> mw, frac = mag & (((uint64_t)1 << mw) - 1);

	if (neg)
		buf_addc(b, '-');
	if (expbits == (((uint64_t)1 << eb) - 1)) {
		if (!frac)
			buf_adds(b, neg ? "inf (;=-inf;)" : "inf (;=inf;)");
		else if (frac == (uint64_t)1 << (mw - 1))
			buf_adds(b, "nan (;=NaN;)");
		else
			buf_addf(b, "nan:0x%" PRIx64 " (;=NaN;)", frac);
		return;
	}
	buf_adds(b, "0x");
	if (!mag) {
		buf_adds(b, "0p+0");
	} else {
		int exponent = (int)expbits - bias;

		buf_addc(b, '1');
		if (frac) {
			uint64_t f = (frac << (w - mw)) & wmask;

			if (exponent == min_exp) {
				/* Subnormal: normalise, dropping the leading one. */
				int lead = is64 ? __builtin_clzll(f) : __builtin_clz((uint32_t)f);

				f = lead < w - 1 ? (f << (lead + 1)) & wmask : 0;
				exponent -= lead;
			}
			buf_addc(b, '.');
			while (f) {
				buf_addc(b, "0123456789abcdef"[f >> (w - 4)]);
				f = (f << 4) & wmask;
			}
		}
		buf_addf(b, "p%+d", exponent);
	}
	buf_adds(b, " (;=");
	if (neg)
		buf_addc(b, '-');
	if (!mag)
		buf_addc(b, '0');
	else
		put_display(b, mag, is64);
	buf_adds(b, ";)");
}

static size_t fmt_float(char *out, size_t len, uint64_t bits, bool is64)
{
	struct buf b = { 0 };
	size_t n;

	put_float(&b, bits, is64);
	if (b.oom) {
		free(b.p);
		if (len)
			out[0] = '\0';
		return 0;
	}
	n = b.len;
	if (len) {
		size_t c = n < len ? n : len - 1;

		memcpy(out, b.p, c);
		out[c] = '\0';
	}
	free(b.p);
	return n;
}

size_t wasm_fmt_f32(char *buf, size_t len, uint32_t bits)
{
	return fmt_float(buf, len, bits, false);
}

size_t wasm_fmt_f64(char *buf, size_t len, uint64_t bits)
{
	return fmt_float(buf, len, bits, true);
}

/* ---- instructions ---- */

static int push_insn(struct modctx *x, const uint8_t *at, uint16_t prefix, uint32_t code,
		     bool has_text)
{
	struct wasm_module *m = x->m;
	struct wasm_insn *in;

	if (VEC_GROW(m->insns, m->nr_insns + 1, m->alloc_insns) ||
	    VEC_GROW(m->text_off, m->nr_insns + 1, m->alloc_text_off))
		return fail(x->ps, at, -ENOMEM, "out of memory");
	in = &m->insns[m->nr_insns];
	*in = (struct wasm_insn){
		.off = (uint32_t)(at - x->ps->base),
		.func = x->func,
		.prefix = prefix,
		.code = code,
		.module = x->index,
	};
	m->text_off[m->nr_insns] = SIZE_MAX;
	if (has_text && x->out.len > m->text_limit - m->text.len)
		return fail(x->ps, at, -E2BIG, "instruction text over %zu bytes in all (names too long?)",
			    m->text_limit);
	if (has_text) {
		m->text_off[m->nr_insns] = m->text.len;
		buf_addn(&m->text, x->out.p, x->out.len);
		buf_addc(&m->text, '\0');
		if (m->text.oom || x->out.oom)
			return fail(x->ps, at, -ENOMEM, "out of memory");
	}
	m->nr_insns++;
	return 0;
}

/*
 * wasmprinter relative_depth(): a branch target as its label name, unless a
 * deeper open label has the same name (the name would resolve to that one);
 * else the depth, with the target's "@N" when it is a block (not the function).
 */
/*
 * Which label name is shadowed (an inner label has the same name) must not
 * cost a walk over the inner labels for every branch: deep nesting with many
 * branches was O(depth x branches). put_depth keeps, across its calls, a
 * mirror of the open labels with each one's name and, per distinct name, the
 * innermost position holding it. Label indexes are handed out once each per
 * function body in textual order, so the mirror stays right where its entries
 * match x->labels and is brought up to date by popping and pushing only what
 * changed: O(1) amortized per label and per branch.
 */
struct label_shadow_name {
	const struct naming *n;
	long top;			/* innermost open position with this name, or -1 */
};

static struct label_shadow {
	const struct modctx *x;		/* what the mirror describes */
	const struct naming *names_v;
	size_t names_nr;
	uint32_t func;
	uint32_t *ids;			/* label index at each open position */
	const struct naming **name;	/* its name, or NULL */
	long *prev;			/* the previous position with the same name, or -1 */
	size_t nr, alloc;
	struct label_shadow_name *names;
	size_t names_alloc, nr_names;
	struct idx_table by_name;	/* name text -> index in names */
	bool exit_hook;
} shadow;

static void label_shadow_free(void)
{
	free(shadow.ids);
	free(shadow.name);
	free(shadow.prev);
	free(shadow.names);
	idx_table__release(&shadow.by_name);
	memset(&shadow, 0, sizeof(shadow));
}

static bool shadow_name_eq(uint32_t idx, const void *key, const void *ctx)
{
	const struct naming *a = shadow.names[idx].n, *b = key;

	return a->len == b->len && !memcmp(a->s, b->s, a->len);
}

/* The entry of name n's text in shadow.names (added when new), or NULL. */
static struct label_shadow_name *shadow_name(const struct naming *n)
{
	uint64_t h = hash_bytes(HASH_SEED, n->s, n->len);
	long i = idx_table__find(&shadow.by_name, h, shadow_name_eq, n, NULL);

	if (i >= 0)
		return &shadow.names[i];
	if (VEC_GROW(shadow.names, shadow.nr_names + 1, shadow.names_alloc) ||
	    idx_table__add(&shadow.by_name, h, (uint32_t)shadow.nr_names))
		return NULL;
	shadow.names[shadow.nr_names] = (struct label_shadow_name){ n, -1 };
	return &shadow.names[shadow.nr_names++];
}

/* A function body's decoding starts: the mirror describes nothing yet. */
static void label_shadow_reset(void)
{
	shadow.nr = shadow.nr_names = 0;
	idx_table__clear(&shadow.by_name);
	shadow.x = NULL;
}

/* Bring the mirror up to x's open labels; false when out of memory (then unusable). */
static bool shadow_sync(const struct modctx *x)
{
	const struct name_map *m = &x->names[NK_LABEL];
	size_t p;

	if (!shadow.exit_hook)
		shadow.exit_hook = !atexit(label_shadow_free);
	/* Reset at every body's start (decode_ops); this guards anything else. */
	if (shadow.x != x || shadow.func != x->func || shadow.names_v != m->v ||
	    shadow.names_nr != m->nr) {
		label_shadow_reset();
		shadow.x = x;
		shadow.func = x->func;
		shadow.names_v = m->v;
		shadow.names_nr = m->nr;
	}
	p = shadow.nr < x->nr_labels ? shadow.nr : x->nr_labels;
	while (p > 0 && shadow.ids[p - 1] != x->labels[p - 1])
		p--;
	for (; shadow.nr > p; shadow.nr--) {
		const struct naming *n = shadow.name[shadow.nr - 1];
		struct label_shadow_name *e = n ? shadow_name(n) : NULL;

		if (e)
			e->top = shadow.prev[shadow.nr - 1];
	}
	if (x->nr_labels > shadow.alloc) {
		size_t alloc = shadow.alloc, a2 = alloc, a3 = alloc;

		if (VEC_GROW(shadow.ids, x->nr_labels, alloc) || VEC_GROW(shadow.name, x->nr_labels, a2) ||
		    VEC_GROW(shadow.prev, x->nr_labels, a3)) {
			shadow.x = NULL;
			return false;
		}
		shadow.alloc = alloc < a2 ? (alloc < a3 ? alloc : a3) : (a2 < a3 ? a2 : a3);
	}
	for (; shadow.nr < x->nr_labels; shadow.nr++) {
		uint32_t id = x->labels[shadow.nr];
		const struct naming *n = name_map__find(m, x->func, id);
		struct label_shadow_name *e = NULL;

		if (n && !(e = shadow_name(n))) {
			shadow.x = NULL;
			return false;
		}
		shadow.ids[shadow.nr] = id;
		shadow.name[shadow.nr] = n;
		shadow.prev[shadow.nr] = e ? e->top : -1;
		if (e)
			e->top = (long)shadow.nr;
	}
	return true;
}

static void put_depth(struct modctx *x, uint32_t d)
{
	struct buf *b = &x->out;
	const struct naming *name = NULL;
	uint32_t i;
	bool conflict = false;

	buf_addc(b, ' ');
	if (x->depth < 0 || d > (uint32_t)x->depth) {
		buf_addu(b, d);
		buf_adds(b, " (; INVALID ;)");
		return;
	}
	i = (uint32_t)x->depth - d;
	if (i >= 1 && i - 1 < x->nr_labels)
		name = name_map__find(&x->names[NK_LABEL], x->func, x->labels[i - 1]);
	const struct label_shadow_name *e = name && shadow_sync(x) ? shadow_name(name) : NULL;

	if (e) {
		/* Shadowed when an inner label (a later position) has the same name. */
		conflict = e->top != (long)(i - 1);
	} else if (name) {
		for (size_t j = i; j < x->nr_labels && !conflict; j++) {
			const struct naming *o =
				name_map__find(&x->names[NK_LABEL], x->func, x->labels[j]);

			conflict = o && o->len == name->len && !memcmp(o->s, name->s, o->len);
		}
	}
	if (name && !conflict) {
		put_name(b, name, NK_LABEL);
		return;
	}
	buf_addu(b, d);
	if (!conflict && i > 0)
		buf_addf(b, " (;@%" PRIu32 ";)", i);
}

struct blocktype {
	enum { BT_EMPTY, BT_VAL, BT_FUNC } kind;
	struct valtype vt;
	uint32_t idx;
};

/* wasmparser read_block_type: 0x40, a value type, or a non-negative s33 type index. */
static int rd_blocktype(struct modctx *x, struct cursor *c, struct blocktype *bt)
{
	const uint8_t *at = c->p;
	int64_t s;
	int rc;

	if (c->p < c->end && !(*c->p & 0x80) && (*c->p & 0x40)) {
		if (*c->p == 0x40) {
			c->p++;
			bt->kind = BT_EMPTY;
			return 0;
		}
		bt->kind = BT_VAL;
		return rd_valtype(x->ps, c, &bt->vt);
	}
	if ((rc = rd_s(x->ps, c, 33, &s, "block type")))
		return rc;
	if (s < 0 || s > UINT32_MAX)
		return fail(x->ps, at, -EINVAL, "invalid function type in block type");
	bt->kind = BT_FUNC;
	bt->idx = (uint32_t)s;
	return 0;
}

/*
 * print_func_type with names_for = None: "(param i32 i64) (result f32)". Named
 * parameters (looked up as locals of function u32::MAX, as wasmprinter does)
 * get a group each.
 */
static void put_functype(struct modctx *x, const struct functype *ft)
{
	struct buf *b = &x->out;
	bool first = true, in_group = false;

	if (ft->nparams)
		buf_addc(b, ' ');
	for (uint32_t i = 0; i < ft->nparams; i++) {
		const struct naming *n = name_map__find(&x->names[NK_LOCAL], UINT32_MAX, i);

		if (n && in_group) {
			buf_addc(b, ')');
			in_group = false;
		}
		if (!first)
			buf_addc(b, ' ');
		first = false;
		if (!in_group) {
			buf_adds(b, "(param ");
			in_group = true;
		}
		if (n) {
			put_name(b, n, NK_LOCAL);
			buf_addc(b, ' ');
		}
		put_valtype(x, &x->vts[ft->first + i]);
		if (n) {
			buf_addc(b, ')');
			in_group = false;
		}
	}
	if (in_group)
		buf_addc(b, ')');
	if (ft->nresults) {
		buf_adds(b, " (result");
		for (uint32_t i = 0; i < ft->nresults; i++) {
			buf_addc(b, ' ');
			put_valtype(x, &x->vts[ft->first + ft->nparams + i]);
		}
		buf_addc(b, ')');
	}
}

/* blockty_without_label_comment: the label's name, then the block type. */
static bool put_blocktype(struct modctx *x, const struct blocktype *bt)
{
	const struct naming *n = name_map__find(&x->names[NK_LABEL], x->func, x->label);
	struct buf *b = &x->out;

	if (n) {
		buf_addc(b, ' ');
		put_name(b, n, NK_LABEL);
	}
	switch (bt->kind) {
	case BT_EMPTY:
		break;
	case BT_VAL:
		buf_adds(b, " (result ");
		put_valtype(x, &bt->vt);
		buf_addc(b, ')');
		break;
	case BT_FUNC:
		buf_adds(b, " (type");
		put_index(x, NK_TYPE, bt->idx);
		buf_addc(b, ')');
		if (bt->idx < x->nr_types && x->types[bt->idx].plain)
			put_functype(x, &x->types[bt->idx]);
		break;
	}
	return n != NULL;
}

/* maybe_blockty_label_comment: unnamed labels get ";; label = @depth". */
static void put_label_comment(struct modctx *x, bool has_name)
{
	if (!has_name)
		buf_addf(&x->out, " ;; label = @%d", x->depth);
	x->label++;
}

static int push_label(struct modctx *x, const uint8_t *at)
{
	if (VEC_GROW(x->labels, x->nr_labels + 1, x->alloc_labels))
		return fail(x->ps, at, -ENOMEM, "out of memory");
	x->labels[x->nr_labels++] = x->label;
	return 0;
}

static int rd_memarg(struct modctx *x, struct cursor *c, unsigned natural)
{
	const uint8_t *at = c->p;
	uint32_t flags, mem = 0;
	uint64_t offset;
	int rc;

	if ((rc = rd_u32(x->ps, c, &flags, "memarg alignment")))
		return rc;
	/* Multi-memory: bit 6 says a memory index follows. */
	if (flags & (1u << 6)) {
		flags ^= 1u << 6;
		if ((rc = rd_u32(x->ps, c, &mem, "memarg memory index")))
			return rc;
	}
	if (flags >= 64)
		return fail(x->ps, at, -EINVAL, "malformed memop alignment: alignment too large");
	/* memory64: the offset is a u64 LEB. */
	if ((rc = rd_u64(x->ps, c, &offset, "memarg offset")))
		return rc;
	if (mem)
		put_index(x, NK_MEMORY, mem);
	if (offset)
		buf_addf(&x->out, " offset=%" PRIu64, offset);
	if (flags != natural)
		buf_addf(&x->out, " align=%" PRIu64, (uint64_t)1 << flags);
	return 0;
}

static int rd_ordering(struct modctx *x, struct cursor *c)
{
	const uint8_t *at = c->p;
	uint32_t o;
	int rc;

	if ((rc = rd_u32(x->ps, c, &o, "memory ordering")))
		return rc;
	if (o > 1)
		return fail(x->ps, at, -EINVAL, "invalid atomic consistency ordering %" PRIu32, o);
	buf_adds(&x->out, o ? " acq_rel" : " seq_cst");
	return 0;
}

/* A resume table: "(on $tag label)" or "(on $tag switch)" clauses. */
static int rd_handlers(struct modctx *x, struct cursor *c)
{
	uint32_t n, tag, label;
	uint8_t kind = 0;
	int rc;

	if ((rc = rd_u32(x->ps, c, &n, "resume table size")))
		return rc;
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *at = c->p;

		if ((rc = rd_u8(x->ps, c, &kind, "on clause")) ||
		    (rc = rd_u32(x->ps, c, &tag, "on clause tag")))
			return rc;
		buf_adds(&x->out, " (on");
		put_index(x, NK_TAG, tag);
		if (kind == 0) {
			if ((rc = rd_u32(x->ps, c, &label, "on clause label")))
				return rc;
			put_depth(x, label);
		} else if (kind == 1) {
			buf_adds(&x->out, " switch");
		} else {
			return fail(x->ps, at, -EINVAL, "invalid leading byte (0x%x) for on clause", kind);
		}
		buf_addc(&x->out, ')');
	}
	return 0;
}

static int rd_try_table(struct modctx *x, struct cursor *c, const uint8_t *at)
{
	static const char *const kinds[] = { "catch", "catch_ref", "catch_all", "catch_all_ref" };
	struct blocktype bt;
	uint32_t n, tag, label, saved;
	bool has_name;
	int rc;

	if ((rc = rd_blocktype(x, c, &bt)))
		return rc;
	has_name = put_blocktype(x, &bt);
	if ((rc = rd_u32(x->ps, c, &n, "catch count")))
		return rc;
	/* Catch labels count from outside the try_table, as wasmprinter does. */
	saved = x->labels[--x->nr_labels];
	x->depth--;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t kind = 0;
		const uint8_t *k = c->p;

		if ((rc = rd_u8(x->ps, c, &kind, "catch clause")))
			return rc;
		if (kind > 3)
			return fail(x->ps, k, -EINVAL, "invalid leading byte (0x%x) for catch", kind);
		buf_addf(&x->out, " (%s", kinds[kind]);
		if (kind < 2) {
			if ((rc = rd_u32(x->ps, c, &tag, "catch tag")))
				return rc;
			put_index(x, NK_TAG, tag);
		}
		if ((rc = rd_u32(x->ps, c, &label, "catch label")))
			return rc;
		put_depth(x, label);
		buf_addc(&x->out, ')');
	}
	x->depth++;
	if ((rc = push_label(x, at)))
		return rc;
	x->labels[x->nr_labels - 1] = saved;
	put_label_comment(x, has_name);
	return 0;
}

static int rd_br_on_cast(struct modctx *x, struct cursor *c)
{
	const uint8_t *at = c->p;
	struct heaptype from, to;
	uint32_t depth;
	uint8_t flags = 0;
	int rc;

	if ((rc = rd_u8(x->ps, c, &flags, "cast flags")))
		return rc;
	if (flags > 3)
		return fail(x->ps, at, -EINVAL, "invalid cast flags: %02x", flags);
	if ((rc = rd_u32(x->ps, c, &depth, "branch depth")) ||
	    (rc = rd_heaptype(x->ps, c, &from)) || (rc = rd_heaptype(x->ps, c, &to)))
		return rc;
	put_depth(x, depth);
	buf_addc(&x->out, ' ');
	put_reftype(x, flags & 1, &from);
	buf_addc(&x->out, ' ');
	put_reftype(x, flags & 2, &to);
	return 0;
}

/* Decode the immediates of op at c and append their text. */
static int rd_imm(struct modctx *x, struct cursor *c, const struct wasm_opcode *op,
		  const uint8_t *at)
{
	struct ps *ps = x->ps;
	struct buf *b = &x->out;
	uint32_t u, v, w;
	int64_t s;
	uint8_t byte = 0;
	int rc = 0;

	switch ((enum wasm_imm)op->imm) {
	case IMM_NONE:
		break;
	case IMM_BLOCK: {
		struct blocktype bt;

		if ((rc = rd_blocktype(x, c, &bt)))
			return rc;
		put_label_comment(x, put_blocktype(x, &bt));
		break;
	}
	case IMM_BR:
		if (!(rc = rd_u32(ps, c, &u, "branch depth")))
			put_depth(x, u);
		break;
	case IMM_BR_TABLE:
		if ((rc = rd_u32(ps, c, &u, "br_table size")))
			return rc;
		/* Targets, then the default: u + 1 depths. */
		for (uint64_t i = 0; i <= u; i++) {
			if ((rc = rd_u32(ps, c, &v, "br_table target")))
				return rc;
			put_depth(x, v);
		}
		break;
	case IMM_BR_ON_CAST:
		return rd_br_on_cast(x, c);
	case IMM_TRY_TABLE:
		return rd_try_table(x, c, at);
	case IMM_FUNC:
		if (!(rc = rd_u32(ps, c, &u, "function index")))
			put_index(x, NK_FUNC, u);
		break;
	case IMM_CALL_INDIRECT:
		if ((rc = rd_u32(ps, c, &u, "type index")) || (rc = rd_u32(ps, c, &v, "table index")))
			return rc;
		if (v)
			put_index(x, NK_TABLE, v);
		buf_adds(b, " (type");
		put_index(x, NK_TYPE, u);
		buf_addc(b, ')');
		break;
	case IMM_TYPE:
		if (!(rc = rd_u32(ps, c, &u, "type index")))
			put_index(x, NK_TYPE, u);
		break;
	case IMM_TYPE_TYPE:
		if ((rc = rd_u32(ps, c, &u, "type index")) || (rc = rd_u32(ps, c, &v, "type index")))
			return rc;
		put_index(x, NK_TYPE, u);
		put_index(x, NK_TYPE, v);
		break;
	case IMM_TYPE_U32:
		if ((rc = rd_u32(ps, c, &u, "type index")) || (rc = rd_u32(ps, c, &v, "array size")))
			return rc;
		put_index(x, NK_TYPE, u);
		buf_addc(b, ' ');
		buf_addu(b, v);
		break;
	case IMM_TYPE_DATA:
	case IMM_TYPE_ELEM:
	case IMM_TYPE_TAG:
		if ((rc = rd_u32(ps, c, &u, "type index")) || (rc = rd_u32(ps, c, &v, "index")))
			return rc;
		put_index(x, NK_TYPE, u);
		put_index(x, op->imm == IMM_TYPE_DATA ? NK_DATA :
			     op->imm == IMM_TYPE_ELEM ? NK_ELEM : NK_TAG, v);
		break;
	case IMM_STRUCT_FIELD:
		if ((rc = rd_u32(ps, c, &u, "type index")) || (rc = rd_u32(ps, c, &v, "field index")))
			return rc;
		put_index(x, NK_TYPE, u);
		put_idx(x, NK_FIELD, u, v, v);
		break;
	case IMM_LOCAL:
		if (!(rc = rd_u32(ps, c, &u, "local index")))
			put_idx(x, NK_LOCAL, x->func, u, u);
		break;
	case IMM_GLOBAL:
	case IMM_TABLE:
	case IMM_TAG:
	case IMM_DATA:
	case IMM_ELEM:
		if (!(rc = rd_u32(ps, c, &u, "index")))
			put_index(x, op->imm == IMM_GLOBAL ? NK_GLOBAL : op->imm == IMM_TABLE ? NK_TABLE :
				     op->imm == IMM_TAG ? NK_TAG : op->imm == IMM_DATA ? NK_DATA : NK_ELEM, u);
		break;
	case IMM_MEMIDX:
		if (!(rc = rd_u32(ps, c, &u, "memory index")) && u)
			put_index(x, NK_MEMORY, u);
		break;
	case IMM_MEMORY_INIT:
	case IMM_TABLE_INIT:
		if ((rc = rd_u32(ps, c, &u, "segment index")) || (rc = rd_u32(ps, c, &v, "index")))
			return rc;
		if (v)
			put_index(x, op->imm == IMM_MEMORY_INIT ? NK_MEMORY : NK_TABLE, v);
		put_index(x, op->imm == IMM_MEMORY_INIT ? NK_DATA : NK_ELEM, u);
		break;
	case IMM_MEMORY_COPY:
	case IMM_TABLE_COPY:
		if ((rc = rd_u32(ps, c, &u, "index")) || (rc = rd_u32(ps, c, &v, "index")))
			return rc;
		if (u || v) {
			put_index(x, op->imm == IMM_MEMORY_COPY ? NK_MEMORY : NK_TABLE, u);
			put_index(x, op->imm == IMM_MEMORY_COPY ? NK_MEMORY : NK_TABLE, v);
		}
		break;
	case IMM_MEM8:
	case IMM_MEM16:
	case IMM_MEM32:
	case IMM_MEM64:
	case IMM_MEM128:
		return rd_memarg(x, c, op->imm - IMM_MEM8);
	case IMM_MEMLANE8:
	case IMM_MEMLANE16:
	case IMM_MEMLANE32:
	case IMM_MEMLANE64:
		if ((rc = rd_memarg(x, c, op->imm - IMM_MEMLANE8)) ||
		    (rc = rd_u8(ps, c, &byte, "lane index")))
			return rc;
		buf_addc(b, ' ');
		buf_addu(b, byte);
		break;
	case IMM_LANE:
		if (!(rc = rd_u8(ps, c, &byte, "lane index"))) {
			buf_addc(b, ' ');
			buf_addu(b, byte);
		}
		break;
	case IMM_SHUFFLE:
		for (int i = 0; i < 16; i++) {
			if ((rc = rd_u8(ps, c, &byte, "shuffle lane")))
				return rc;
			buf_addc(b, ' ');
			buf_addu(b, byte);
		}
		break;
	case IMM_I32:
		if (!(rc = rd_s(ps, c, 32, &s, "i32 constant"))) {
			buf_addc(b, ' ');
			buf_addi(b, s);
		}
		break;
	case IMM_I64:
		if (!(rc = rd_s(ps, c, 64, &s, "i64 constant"))) {
			buf_addc(b, ' ');
			buf_addi(b, s);
		}
		break;
	case IMM_F32:
	case IMM_F64: {
		const uint8_t *p = NULL;
		uint64_t bits = 0;
		size_t n = op->imm == IMM_F32 ? 4 : 8;

		if ((rc = rd_bytes(ps, c, n, &p, "float constant")))
			return rc;
		for (size_t i = n; i--;)	/* little-endian */
			bits = bits << 8 | p[i];
		buf_addc(b, ' ');
		put_float(b, bits, n == 8);
		break;
	}
	case IMM_V128: {
		const uint8_t *p = NULL;

		if ((rc = rd_bytes(ps, c, 16, &p, "v128 constant")))
			return rc;
		buf_adds(b, " i32x4");
		for (int i = 0; i < 16; i += 4)
			buf_addf(b, " 0x%02x%02x%02x%02x", p[i + 3], p[i + 2], p[i + 1], p[i]);
		break;
	}
	case IMM_SELECT_T:
		if ((rc = rd_u32(ps, c, &u, "select type count")))
			return rc;
		buf_adds(b, u == 1 ? " (result " : " (result");
		for (uint64_t i = 0; i < u; i++) {
			struct valtype vt;

			if ((rc = rd_valtype(ps, c, &vt)))
				return rc;
			if (u != 1)
				buf_addc(b, ' ');
			put_valtype(x, &vt);
		}
		buf_addc(b, ')');
		break;
	case IMM_HEAPTYPE:
	case IMM_REF_NN:
	case IMM_REF_NULL: {
		struct heaptype ht;

		if ((rc = rd_heaptype(ps, c, &ht)))
			return rc;
		buf_addc(b, ' ');
		if (op->imm == IMM_HEAPTYPE)
			put_heaptype(x, &ht);
		else
			put_reftype(x, op->imm == IMM_REF_NULL, &ht);
		break;
	}
	case IMM_FENCE:
		if ((rc = rd_u8(ps, c, &byte, "atomic.fence flags")))
			return rc;
		if (byte)
			return fail(ps, c->p - 1, -EINVAL, "nonzero byte after `atomic.fence`");
		break;
	case IMM_ORD_GLOBAL:
	case IMM_ORD_TABLE:
	case IMM_ORD_TYPE:
		if ((rc = rd_ordering(x, c)) || (rc = rd_u32(ps, c, &u, "index")))
			return rc;
		put_index(x, op->imm == IMM_ORD_GLOBAL ? NK_GLOBAL :
			     op->imm == IMM_ORD_TABLE ? NK_TABLE : NK_TYPE, u);
		break;
	case IMM_ORD_STRUCT_FIELD:
		if ((rc = rd_ordering(x, c)) || (rc = rd_u32(ps, c, &u, "type index")) ||
		    (rc = rd_u32(ps, c, &v, "field index")))
			return rc;
		put_index(x, NK_TYPE, u);
		put_idx(x, NK_FIELD, u, v, v);
		break;
	case IMM_RESUME:
		if ((rc = rd_u32(ps, c, &u, "type index")))
			return rc;
		put_index(x, NK_TYPE, u);
		return rd_handlers(x, c);
	case IMM_RESUME_THROW:
		if ((rc = rd_u32(ps, c, &u, "type index")) || (rc = rd_u32(ps, c, &w, "tag index")))
			return rc;
		put_index(x, NK_TYPE, u);
		put_index(x, NK_TAG, w);
		return rd_handlers(x, c);
	}
	return rc;
}

/*
 * One function body's instructions, c over the bytes after its locals. The
 * label bookkeeping mirrors wasmprinter's flat printer (operator.rs): a depth
 * that `end`/`delegate` lower only while positive, and a label stack that
 * `end` pops but `delegate` does not.
 */
static int decode_ops(struct modctx *x, struct cursor *c)
{
	int rc;

	x->depth = 0;
	x->label = 0;
	x->nr_labels = 0;
	label_shadow_reset();
	while (c->p < c->end) {
		const uint8_t *at = c->p;
		const struct wasm_opcode *op;
		uint32_t code;
		uint16_t prefix = 0;
		uint8_t byte;

		/* The body's last byte, an `end`, closes the function: no text. */
		if (c->end - c->p == 1 && *c->p == 0x0b) {
			c->p++;
			return push_insn(x, at, 0, 0x0b, false);
		}
		byte = *c->p++;
		code = byte;
		if (byte >= 0xfb && byte <= 0xfe) {
			prefix = byte;
			if ((rc = rd_u32(x->ps, c, &code, "opcode")))
				return rc;
		}
		op = wasm_opcode__find(prefix, code);
		if (!op) {
			if (prefix)
				return fail(x->ps, at, -ENOTSUP, "unknown opcode 0x%02x 0x%" PRIx32,
					    prefix, code);
			return fail(x->ps, at, -ENOTSUP, "unknown opcode 0x%02x", byte);
		}
		x->out.len = 0;
		if (op->flags & OPF_BLOCK) {
			x->depth++;
			if ((rc = push_label(x, at)))
				return rc;
		}
		if ((op->flags & (OPF_END | OPF_DELEGATE)) && x->depth > 0)
			x->depth--;
		buf_adds(&x->out, op->text);
		if ((rc = rd_imm(x, c, op, at)))
			return rc;
		if ((op->flags & OPF_END) && x->nr_labels)
			x->nr_labels--;
		if ((rc = push_insn(x, at, prefix, code, true)))
			return rc;
	}
	return fail(x->ps, c->end, -EINVAL, "function body does not end with `end`");
}

/* Code section (spec 5.5.13): count, then size-prefixed bodies of locals + expression. */
static int decode_code(struct modctx *x, struct cursor *c)
{
	struct ps *ps = x->ps;
	const uint8_t *at = c->p;
	uint32_t n, nloc, cnt;
	int rc;

	if ((rc = rd_u32(ps, c, &n, "function count")))
		return rc;
	/* Spec 5.5.16: one body per function section entry (wasmparser's wording). */
	if (n != x->defined_funcs)
		return fail(ps, at, -EINVAL, "function and code section have inconsistent lengths "
			    "(function section %" PRIu32 ", code section %" PRIu32 ")",
			    x->defined_funcs, n);
	/*
	 * Instructions average 2 bytes or more, their text 10 bytes or so: size
	 * the arrays once instead of growing them through many copies.
	 */
	size_t guess = x->m->nr_insns + (size_t)(c->end - c->p) / 2 + 16;

	if (VEC_GROW(x->m->insns, guess, x->m->alloc_insns) ||
	    VEC_GROW(x->m->text_off, guess, x->m->alloc_text_off))
		return fail(ps, c->p, -ENOMEM, "out of memory");
	/* Only a hint: on failure the buffer grows as it goes. */
	(void)VEC_GROW(x->m->text.p, x->m->text.len + (size_t)(c->end - c->p) * 5 + 1,
		       x->m->text.alloc);
	for (uint32_t i = 0; i < n; i++) {
		struct cursor body;

		if ((rc = rd_region(ps, c, &body, "function body")))
			return rc;
		x->func = x->imported[0] + i;
		if ((rc = rd_u32(ps, &body, &nloc, "local count")))
			return rc;
		for (uint32_t j = 0; j < nloc; j++) {
			struct valtype vt;

			if ((rc = rd_u32(ps, &body, &cnt, "local count")) ||
			    (rc = rd_valtype(ps, &body, &vt)))
				return rc;
		}
		if ((rc = decode_ops(x, &body)))
			return rc;
	}
	if (c->p != c->end)
		return fail(ps, c->p, -EINVAL, "unexpected data at the end of the code section");
	return 0;
}

/* ---- module sections ---- */

static int rd_functype(struct modctx *x, struct cursor *c, struct functype *ft)
{
	uint32_t n;
	int rc;

	ft->first = (uint32_t)x->nr_vts;
	for (int pass = 0; pass < 2; pass++) {
		if ((rc = rd_u32(x->ps, c, &n, pass ? "result count" : "parameter count")))
			return rc;
		if (n > (size_t)(c->end - c->p))
			return fail(x->ps, c->p, -EINVAL, "type list longer than its section");
		if (VEC_GROW(x->vts, x->nr_vts + n, x->alloc_vts))
			return fail(x->ps, c->p, -ENOMEM, "out of memory");
		for (uint32_t i = 0; i < n; i++)
			if ((rc = rd_valtype(x->ps, c, &x->vts[x->nr_vts++])))
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
	else if ((rc = rd_valtype(x->ps, c, &vt)))
		return rc;
	if ((rc = rd_u8(x->ps, c, &mut, "field mutability")))
		return rc;
	if (mut > 1)
		return fail(x->ps, c->p - 1, -EINVAL, "malformed mutability byte for field type");
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

	if ((rc = rd_u8(ps, c, &b, "type")))
		return rc;
	if (b == 0x50 || b == 0x4f) {
		if ((rc = rd_u32(ps, c, &n, "supertype count")))
			return rc;
		for (uint32_t i = 0; i < n; i++)
			if ((rc = rd_u32(ps, c, &idx, "supertype")))
				return rc;
		if ((rc = rd_u8(ps, c, &b, "type")))
			return rc;
	}
	if (b == 0x65) {
		plain = false;
		if ((rc = rd_u8(ps, c, &b, "type")))
			return rc;
	}
	if (b == 0x4c) {	/* describes (custom descriptors) */
		plain = false;
		if ((rc = rd_u32(ps, c, &idx, "described type")) || (rc = rd_u8(ps, c, &b, "type")))
			return rc;
	}
	if (b == 0x4d) {	/* descriptor */
		plain = false;
		if ((rc = rd_u32(ps, c, &idx, "descriptor type")) || (rc = rd_u8(ps, c, &b, "type")))
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
		if ((rc = rd_u32(ps, c, &n, "field count")))
			return rc;
		for (uint32_t i = 0; i < n; i++)
			if ((rc = rd_fieldtype(x, c)))
				return rc;
		break;
	case 0x5d: {
		int64_t s;

		if ((rc = rd_s(ps, c, 33, &s, "continuation type")))
			return rc;
		break;
	}
	default:
		return fail(ps, c->p - 1, -EINVAL, "invalid leading byte (0x%x) for type", b);
	}
	if (VEC_GROW(x->types, x->nr_types + 1, x->alloc_types))
		return fail(ps, c->p, -ENOMEM, "out of memory");
	x->types[x->nr_types++] = ft;
	return 0;
}

/* Type section: rec groups (0x4e) or single subtypes, numbered in order. */
static int parse_types(struct modctx *x, struct cursor *c)
{
	uint32_t n, m;
	int rc;

	if ((rc = rd_u32(x->ps, c, &n, "type count")))
		return rc;
	for (uint32_t i = 0; i < n; i++) {
		if (c->p < c->end && *c->p == 0x4e) {
			c->p++;
			if ((rc = rd_u32(x->ps, c, &m, "rec group size")))
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

static int rd_name(struct ps *ps, struct cursor *c, const uint8_t **s, uint32_t *len,
		   const char *what)
{
	const uint8_t *at = c->p;
	int rc;

	if ((rc = rd_u32(ps, c, len, what)) || (rc = rd_bytes(ps, c, *len, s, what)))
		return rc;
	if (!utf8_valid(*s, *len))
		return fail(ps, at, -EINVAL, "malformed UTF-8 encoding in %s", what);
	return 0;
}

static int rd_limits(struct ps *ps, struct cursor *c, unsigned flagmask, bool page_size)
{
	const uint8_t *at = c->p;
	uint64_t v;
	uint32_t u;
	uint8_t flags = 0;
	int rc;

	if ((rc = rd_u8(ps, c, &flags, "limits")))
		return rc;
	if (flags & ~flagmask)
		return fail(ps, at, -EINVAL, "invalid limits flags 0x%02x", flags);
	if ((rc = rd_u64(ps, c, &v, "limits minimum")))
		return rc;
	if ((flags & 1) && (rc = rd_u64(ps, c, &v, "limits maximum")))
		return rc;
	if (page_size && (flags & 8) && (rc = rd_u32(ps, c, &u, "page size")))
		return rc;
	return 0;
}

/* An import's type (wasmparser TypeRef); counts what the module imports. */
static int rd_typeref(struct modctx *x, struct cursor *c, uint32_t times)
{
	struct ps *ps = x->ps;
	const uint8_t *at = c->p;
	struct valtype vt;
	uint32_t idx;
	uint8_t kind = 0, b = 0;
	int rc;

	if ((rc = rd_u8(ps, c, &kind, "import kind")))
		return rc;
	switch (kind) {
	case 0x00:
	case 0x20:	/* exact function import (custom descriptors) */
		rc = rd_u32(ps, c, &idx, "type index");
		kind = 0;
		break;
	case 0x01:
		if (!(rc = rd_reftype(ps, c, &vt)))
			rc = rd_limits(ps, c, 0x07, false);
		break;
	case 0x02:
		rc = rd_limits(ps, c, 0x0f, true);
		break;
	case 0x03:
		if (!(rc = rd_valtype(ps, c, &vt)))
			rc = rd_u8(ps, c, &b, "global mutability");
		break;
	case 0x04:
		if (!(rc = rd_u8(ps, c, &b, "tag attribute")))
			rc = rd_u32(ps, c, &idx, "tag type");
		break;
	default:
		return fail(ps, at, -EINVAL, "invalid leading byte (0x%x) for external kind", kind);
	}
	if (!rc && x->imported[kind] > UINT32_MAX - times)
		return fail(ps, at, -ERANGE, "too many imports");
	if (!rc)
		x->imported[kind] += times;
	return rc;
}

/* Import section, including the compact encodings (0x7f, 0x7e after an empty name). */
static int parse_imports(struct modctx *x, struct cursor *c)
{
	struct ps *ps = x->ps;
	const uint8_t *s;
	uint32_t n, m, len;
	int rc;

	if ((rc = rd_u32(ps, c, &n, "import count")))
		return rc;
	for (uint32_t i = 0; i < n; i++) {
		if ((rc = rd_name(ps, c, &s, &len, "import module")) ||
		    (rc = rd_name(ps, c, &s, &len, "import name")))
			return rc;
		if (len == 0 && c->p < c->end && *c->p == 0x7f) {
			c->p++;
			if ((rc = rd_u32(ps, c, &m, "import count")))
				return rc;
			for (uint32_t j = 0; j < m; j++)
				if ((rc = rd_name(ps, c, &s, &len, "import name")) ||
				    (rc = rd_typeref(x, c, 1)))
					return rc;
		} else if (len == 0 && c->p < c->end && *c->p == 0x7e) {
			const uint8_t *ty;
			struct cursor again;

			c->p++;
			ty = c->p;
			if ((rc = rd_typeref(x, c, 0)) || (rc = rd_u32(ps, c, &m, "import count")))
				return rc;
			for (uint32_t j = 0; j < m; j++)
				if ((rc = rd_name(ps, c, &s, &len, "import name")))
					return rc;
			again = (struct cursor){ ty, c->end };
			if ((rc = rd_typeref(x, &again, m)))
				return rc;
		} else if ((rc = rd_typeref(x, c, 1))) {
			return rc;
		}
	}
	return 0;
}

/* ---- the name section (extended name section proposal; wasmparser names.rs) ---- */

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

	if ((rc = rd_u32(ps, c, &n, "name count")))
		return rc;
	for (uint32_t i = 0; i < n; i++) {
		if ((rc = rd_u32(ps, c, &idx, "name index")) ||
		    (rc = rd_name(ps, c, &s, &len, "name")))
			break;
		if (indirect)
			rc = add_naming(x, kind, outer, idx, s, len);
		else
			rc = add_naming(x, kind, idx, 0, s, len);
		if (rc) {
			rc = fail(ps, c->p, rc, "out of memory");
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

	if ((rc = rd_u32(ps, c, &n, "name count")))
		return rc;
	for (uint32_t i = 0; i < n; i++) {
		struct cursor inner;

		if ((rc = rd_u32(ps, c, &outer, "name index")))
			return rc;
		inner = *c;
		if ((rc = rd_u32(ps, c, &m, "name count")))
			return rc;
		for (uint32_t j = 0; j < m; j++) {
			const uint8_t *at;

			if ((rc = rd_u32(ps, c, &idx, "name index")))
				return rc;
			at = c->p;
			if ((rc = rd_u32(ps, c, &len, "name")))
				return rc;
			if (len > MAX_STRING_SIZE)
				return fail(ps, at, -EINVAL, "string size out of bounds");
			if ((rc = rd_bytes(ps, c, len, &s, "name")))
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

	if (wasm_leb_u(&p, end, 32, &n))
		return false;
	for (uint64_t i = 0; i < n; i++) {
		if (wasm_leb_u(&p, end, 32, &idx) || wasm_leb_u(&p, end, 32, &len) ||
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

		if ((rc = rd_u8(ps, c, &id, "name subsection id")))
			return rc;
		/*
		 * wasmparser reads the id as a 7-bit value and fails on a set top
		 * bit (where an unknown id below 0x80 is merely skipped): the rest
		 * of the section is then lost to wasmprinter, and so to us.
		 */
		if (id & 0x80)
			return fail(ps, id_at, -EINVAL, "invalid name subsection id 0x%02x", id);
		if ((rc = rd_region(ps, c, &sub, "name subsection")))
			return rc;
		kind = id < ARRAY_SIZE(subsection_kind) ? subsection_kind[id] : -1;
		if (id == 0) {
			const uint8_t *at = sub.p;

			if ((rc = rd_u32(ps, &sub, &len, "module name")))
				return rc;
			if (len > MAX_STRING_SIZE)
				return fail(ps, at, -EINVAL, "string size out of bounds");
			sub.p = at;
			if ((rc = rd_name(ps, &sub, &s, &len, "module name")))
				return rc;
			if (sub.p != sub.end)
				return fail(ps, sub.p, -EINVAL, "trailing data at the end of a name");
			continue;
		}
		if (kind < 0)
			continue;	/* unknown subsection: skipped */
		if (kind == NK_LOCAL || kind == NK_LABEL || kind == NK_FIELD) {
			const uint8_t *payload = sub.p;

			rc = rd_indirect_map(x, &sub, kind);
			if (rc == -EINVAL && kind == NK_FIELD && is_plain_name_map(payload, sub.end)) {
				ps->failed = false;	/* a better message than where it broke */
				return fail(ps, id_at, rc, "name subsection 10 holds tag names in wabt "
					    "1.0.32's numbering (field names now; tags are 11): tags stay "
					    "unnamed, as in wasmprinter");
			}
		} else {
			rc = rd_name_map(x, &sub, kind, false, 0, true);
		}
		if (rc)
			return rc;
		if (sub.p != sub.end)
			return fail(ps, sub.p, -EINVAL, "unexpected data at the end of the name subsection");
	}
	return 0;
}

/*
 * A malformed name section is a warning, not an error: wasmprinter drops the
 * error of register_names() and keeps what it registered, and so does wasmtime.
 */
static int names_section(struct modctx *x, struct cursor *c)
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
		return fail(outer, c->p, -ENOMEM, "out of memory");
	if (rc)
		x->m->name_errors++;
	return 0;
}

/* ---- modules and components ---- */

static const uint8_t wasm_magic[4] = { 0x00, 'a', 's', 'm' };

static void modctx__release(struct modctx *x)
{
	free(x->types);
	free(x->vts);
	for (int k = 0; k < NK__NR; k++)
		free(x->names[k].v);
	free(x->labels);
	free(x->out.p);
}

/* Keep the function names wasmtime would: raw, last wins, index < function count. */
static int keep_func_names(struct modctx *x, struct core_module *cm)
{
	const struct name_map *fm = &x->names[NK_FUNC];
	struct buf pool = { 0 };
	size_t n = 0;

	for (size_t i = 0; i < fm->nr; i++)
		n += fm->v[i].k1 < cm->nfuncs;
	if (!n)
		return 0;
	cm->names = calloc(n, sizeof(*cm->names));
	if (!cm->names)
		return -ENOMEM;
	for (size_t i = 0; i < fm->nr; i++) {
		const struct naming *nm = &fm->v[i];

		if (nm->k1 >= cm->nfuncs)
			continue;
		cm->names[cm->nr_names++] = (struct fname){ nm->k1, pool.len };
		buf_addn(&pool, (const char *)nm->s, nm->len);
		buf_addc(&pool, '\0');
	}
	cm->pool = pool.p;
	return pool.oom ? -ENOMEM : 0;
}

static int check_header(struct ps *ps, struct cursor *c, const uint8_t version[4])
{
	const uint8_t *at = c->p, *h = NULL;

	if (rd_bytes(ps, c, 8, &h, "header"))
		return -EINVAL;
	if (memcmp(h, wasm_magic, 4))
		return fail(ps, at, -EINVAL, "not a WebAssembly binary (bad magic number)");
	if (memcmp(h + 4, version, 4))
		return fail(ps, at + 4, -ENOTSUP, "unsupported binary version %02x %02x %02x %02x",
			    h[4], h[5], h[6], h[7]);
	return 0;
}

static const uint8_t module_version[4] = { 0x01, 0x00, 0x00, 0x00 };
static const uint8_t component_version[4] = { 0x0d, 0x00, 0x01, 0x00 };

/*
 * A core module in c (header included). Sections are read in two passes
 * because instruction text needs the names, and the name section follows the
 * code section.
 */
static int parse_module(struct ps *ps, struct wasm_module *m, struct cursor *c)
{
	struct modctx x = { .ps = ps, .m = m, .index = (uint32_t)m->nr_mods };
	struct core_module *cm;
	struct cursor s = *c;
	int rc;

	if ((rc = check_header(ps, &s, module_version)))
		return rc;
	while (s.p < s.end) {
		struct cursor sec;
		const uint8_t *name;
		const uint8_t *at = s.p;
		uint32_t len;
		uint8_t id;

		if ((rc = rd_u8(ps, &s, &id, "section id")))
			goto out;
		/*
		 * Spec 5.5.2 and the tag section of the exception handling proposal:
		 * ids 0..13. Anything else is a module no engine loads (wabt, wasmparser).
		 */
		if (id > 13) {
			rc = fail(ps, at, -EINVAL, "unknown section id %u", id);
			goto out;
		}
		if ((rc = rd_region(ps, &s, &sec, "section")))
			goto out;
		switch (id) {
		case 0:		/* custom */
			if ((rc = rd_name(ps, &sec, &name, &len, "custom section name")))
				goto out;
			if (len == 4 && !memcmp(name, "name", 4))
				rc = names_section(&x, &sec);
			break;
		case 1:
			rc = parse_types(&x, &sec);
			break;
		case 2:
			rc = parse_imports(&x, &sec);
			break;
		case 3:
			x.defined_funcs_at = sec.p;
			rc = rd_u32(ps, &sec, &x.defined_funcs, "function count");
			break;
		case 10:
			x.code[0] = sec;
			x.has_code = true;
			break;
		default:	/* nothing we need */
			break;
		}
		if (rc)
			goto out;
	}
	for (int k = 0; k < NK__NR; k++)
		name_map__finish(&x.names[k]);
	if (x.has_code && (rc = decode_code(&x, &x.code[0])))
		goto out;
	if (!x.has_code && x.defined_funcs) {
		rc = fail(ps, x.defined_funcs_at, -EINVAL, "function and code section have "
			  "inconsistent lengths (function section %" PRIu32 ", no code section)",
			  x.defined_funcs);
		goto out;
	}
	if (VEC_GROW(m->mods, m->nr_mods + 1, m->alloc_mods)) {
		rc = fail(ps, c->p, -ENOMEM, "out of memory");
		goto out;
	}
	cm = &m->mods[m->nr_mods++];
	*cm = (struct core_module){
		.off = (uint32_t)(c->p - ps->base),
		.len = (uint32_t)(c->end - c->p),
		.imported_funcs = x.imported[0],
	};
	cm->nfuncs = x.imported[0] + x.defined_funcs < x.imported[0] ? UINT32_MAX :
		     x.imported[0] + x.defined_funcs;
	if (keep_func_names(&x, cm))
		rc = fail(ps, c->p, -ENOMEM, "out of memory");
out:
	modctx__release(&x);
	return rc;
}

/* A component (layer 1): its core modules, nested components included, in file order. */
static int parse_component(struct ps *ps, struct wasm_module *m, struct cursor *c, int depth)
{
	struct cursor s = *c;
	int rc;

	if (depth > MAX_COMPONENT_DEPTH)
		return fail(ps, c->p, -ENOTSUP, "components nested more than %d deep",
			    MAX_COMPONENT_DEPTH);
	if ((rc = check_header(ps, &s, component_version)))
		return rc;
	while (s.p < s.end) {
		struct cursor sec;
		uint8_t id;

		if ((rc = rd_u8(ps, &s, &id, "section id")) ||
		    (rc = rd_region(ps, &s, &sec, "section")))
			return rc;
		if (id == 1)		/* core module */
			rc = parse_module(ps, m, &sec);
		else if (id == 4)	/* nested component */
			rc = parse_component(ps, m, &sec, depth + 1);
		if (rc)
			return rc;
	}
	return 0;
}

void wasm_module__free(struct wasm_module *m)
{
	if (!m)
		return;
	for (size_t i = 0; i < m->nr_mods; i++) {
		free(m->mods[i].names);
		free(m->mods[i].pool);
	}
	free(m->mods);
	free(m->insns);
	free(m->text_off);
	free(m->text.p);
	free(m);
}

int wasm_module__parse(struct wasm_module **out, const uint8_t *buf, size_t len,
		       const char *name, char *err, size_t errlen)
{
	struct ps ps = { .base = buf, .name = name ? name : "wasm", .err = err, .errlen = errlen };
	struct cursor c = { buf, buf + len };
	struct wasm_module *m;
	int rc;

	*out = NULL;
	if (errlen)
		err[0] = '\0';
	if (len > UINT32_MAX)
		return fail(&ps, buf, -ERANGE, "file larger than 4 GiB: offsets do not fit");
	m = calloc(1, sizeof(*m));
	if (!m)
		return fail(&ps, buf, -ENOMEM, "out of memory");
	/*
	 * Text grows with the input, except that one long name can be repeated by
	 * every call: wasmprinter would print it all; we stop at a generous bound.
	 */
	m->text_limit = ((size_t)64 << 20) + 32 * len;
	if (len >= 8 && !memcmp(buf + 4, component_version, 4))
		rc = parse_component(&ps, m, &c, 0);
	else
		rc = parse_module(&ps, m, &c);
	if (rc) {
		wasm_module__free(m);
		return rc;
	}
	/* The text pool stopped moving: turn offsets into pointers. */
	for (size_t i = 0; i < m->nr_insns; i++)
		m->insns[i].text = m->text_off[i] == SIZE_MAX ? NULL : m->text.p + m->text_off[i];
	FREE_AND_NULL(m->text_off);
	*out = m;
	return 0;
}

static const struct wasm_insn *find_insn(const struct wasm_module *m, uint32_t off)
{
	size_t lo = 0, hi = m->nr_insns;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->insns[mid].off < off)
			lo = mid + 1;
		else if (m->insns[mid].off > off)
			hi = mid;
		else
			return &m->insns[mid];
	}
	return NULL;
}

const char *wasm_module__insn_text(const struct wasm_module *m, uint32_t off)
{
	const struct wasm_insn *in = m ? find_insn(m, off) : NULL;

	return in ? in->text : NULL;
}

size_t wasm_module__insns(const struct wasm_module *m, const struct wasm_insn **insns)
{
	*insns = m->insns;
	return m->nr_insns;
}

const char *wasm_module__module_func_name(const struct wasm_module *m, uint32_t mod,
					  uint32_t func_index)
{
	const struct core_module *cm;
	size_t lo = 0, hi;

	if (!m || mod >= m->nr_mods)
		return NULL;
	cm = &m->mods[mod];
	hi = cm->nr_names;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cm->names[mid].idx < func_index)
			lo = mid + 1;
		else if (cm->names[mid].idx > func_index)
			hi = mid;
		else
			return cm->pool + cm->names[mid].off;
	}
	return NULL;
}

const char *wasm_module__func_name(const struct wasm_module *m, uint32_t func_index)
{
	return wasm_module__module_func_name(m, 0, func_index);
}

uint32_t wasm_module__module_imported_funcs(const struct wasm_module *m, uint32_t mod)
{
	return m && mod < m->nr_mods ? m->mods[mod].imported_funcs : 0;
}

uint32_t wasm_module__imported_funcs(const struct wasm_module *m)
{
	return wasm_module__module_imported_funcs(m, 0);
}

int wasm_module__module_range(const struct wasm_module *m, uint32_t mod, uint32_t *off,
			      uint32_t *len)
{
	if (!m || mod >= m->nr_mods)
		return -ENOENT;
	*off = m->mods[mod].off;
	*len = m->mods[mod].len;
	return 0;
}

uint32_t wasm_module__core_modules(const struct wasm_module *m)
{
	return m ? (uint32_t)m->nr_mods : 0;
}

unsigned wasm_module__name_errors(const struct wasm_module *m)
{
	return m ? m->name_errors : 0;
}

const char *wasm_module__name_error(const struct wasm_module *m)
{
	return m && m->name_errors ? m->name_error : NULL;
}

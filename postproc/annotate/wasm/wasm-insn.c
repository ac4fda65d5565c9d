/* SPDX-License-Identifier: MIT */
/*
 * Function bodies: every instruction's offset and its text as wasmprinter's
 * flat printer writes it, from the opcode table (wasm-opcodes.def) and the
 * immediates that follow each opcode (wasm-imm.c).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "wasm-insn.h"
#include "wasm-read.h"

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

/* ---- instructions and their immediates ---- */

/*
 * The instruction at `at`, its text in x->out if has_text: counted against
 * the module's text bound (the first pass), or kept in x->sink.
 */
static int push_insn(struct modctx *x, const uint8_t *at, uint16_t prefix, uint32_t code,
		     bool has_text)
{
	struct wasm_module *m = x->m;
	struct insn_sink *k = x->sink;
	uint32_t off = (uint32_t)(at - x->ps->base);

	if (!k) {
		if (has_text && x->out.len > m->text_limit - m->text_total)
			return wasm_read__fail(x->ps, at, -E2BIG, "instruction text over %zu bytes in all "
					       "(names too long?)", m->text_limit);
		if (has_text)
			m->text_total += x->out.len + 1;
		if (x->out.oom)
			return wasm_read__fail(x->ps, at, -ENOMEM, "out of memory");
		return 0;
	}
	if (VEC_GROW(k->v, k->nr + 1, k->alloc) ||
	    (k->want_full && VEC_GROW(k->full, k->nr + 1, k->alloc_full)))
		return wasm_read__fail(x->ps, at, -ENOMEM, "out of memory");
	k->v[k->nr] = (struct body_insn){ off, UINT32_MAX };
	if (k->want_full)
		k->full[k->nr] = (struct wasm_insn){
			.off = off,
			.func = x->func,
			.prefix = prefix,
			.code = code,
			.module = x->index,
		};
	if (has_text) {
		if (k->text.len > UINT32_MAX - x->out.len - 1)
			return wasm_read__fail(x->ps, at, -E2BIG, "one function's text over 4 GiB");
		k->v[k->nr].text = (uint32_t)k->text.len;
		strbuf_add(&k->text, x->out.buf, x->out.len);
		strbuf_addch(&k->text, '\0');
		if (k->text.oom || x->out.oom)
			return wasm_read__fail(x->ps, at, -ENOMEM, "out of memory");
	}
	k->nr++;
	return 0;
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
	wasm_labels__reset(x);
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
			if ((rc = wasm_read__u32(x->ps, c, &code, "opcode")))
				return rc;
		}
		op = wasm_opcode__find(prefix, code);
		if (!op) {
			if (prefix)
				return wasm_read__fail(x->ps, at, -ENOTSUP, "unknown opcode 0x%02x 0x%" PRIx32,
						 prefix, code);
			return wasm_read__fail(x->ps, at, -ENOTSUP, "unknown opcode 0x%02x", byte);
		}
		strbuf_reset(&x->out);
		if (op->flags & OPF_BLOCK) {
			x->depth++;
			if ((rc = wasm_labels__push(x, at)))
				return rc;
		}
		if ((op->flags & (OPF_END | OPF_DELEGATE)) && x->depth > 0)
			x->depth--;
		strbuf_addstr(&x->out, op->text);
		if ((rc = wasm_imm__read(x, c, op, at)))
			return rc;
		if ((op->flags & OPF_END) && x->nr_labels)
			x->nr_labels--;
		if ((rc = push_insn(x, at, prefix, code, true)))
			return rc;
	}
	return wasm_read__fail(x->ps, c->end, -EINVAL, "function body does not end with `end`");
}

/* A body's locals (c after its size): skipped, as nothing prints them. */
static int skip_locals(struct ps *ps, struct cursor *c)
{
	uint32_t nloc, cnt;
	int rc;

	if ((rc = wasm_read__u32(ps, c, &nloc, "local count")))
		return rc;
	for (uint32_t j = 0; j < nloc; j++) {
		struct valtype vt;

		if ((rc = wasm_read__u32(ps, c, &cnt, "local count")) ||
		    (rc = wasm_types__read_valtype(ps, c, &vt)))
			return rc;
	}
	return 0;
}

/* Code section (spec 5.5.13): count, then size-prefixed bodies of locals + expression. */
int wasm_insn__decode(struct modctx *x, struct cursor *c)
{
	struct ps *ps = x->ps;
	struct wasm_module *m = x->m;
	const uint8_t *at = c->p;
	uint32_t n;
	int rc;

	if ((rc = wasm_read__u32(ps, c, &n, "function count")))
		return rc;
	/* Spec 5.5.16: one body per function section entry (wasmparser's wording). */
	if (n != x->defined_funcs)
		return wasm_read__fail(ps, at, -EINVAL, "function and code section have inconsistent lengths "
				 "(function section %" PRIu32 ", code section %" PRIu32 ")",
				 x->defined_funcs, n);
	x->sink = NULL;
	for (uint32_t i = 0; i < n; i++) {
		struct cursor body;

		if ((rc = wasm_read__region(ps, c, &body, "function body")))
			return rc;
		x->func = x->imported[0] + i;
		if ((rc = skip_locals(ps, &body)))
			return rc;
		if (VEC_GROW(m->bodies, m->nr_bodies + 1, m->alloc_bodies))
			return wasm_read__fail(ps, body.p, -ENOMEM, "out of memory");
		m->bodies[m->nr_bodies] = (struct wasm_body){
			.expr = (uint32_t)(body.p - ps->base),
			.end = (uint32_t)(body.end - ps->base),
			.func = x->func,
			.module = x->index,
		};
		if ((rc = decode_ops(x, &body)))
			return rc;
		m->nr_bodies++;
	}
	if (c->p != c->end)
		return wasm_read__fail(ps, c->p, -EINVAL, "unexpected data at the end of the code section");
	return 0;
}

int wasm_insn__decode_body(struct modctx *x, const struct wasm_body *b, struct insn_sink *sink)
{
	struct cursor body = { x->ps->base + b->expr, x->ps->base + b->end };
	int rc;

	x->func = b->func;
	x->sink = sink;
	rc = decode_ops(x, &body);
	x->sink = NULL;
	return rc;
}

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

static int push_insn(struct modctx *x, const uint8_t *at, uint16_t prefix, uint32_t code,
		     bool has_text)
{
	struct wasm_module *m = x->m;
	struct wasm_insn *in;

	if (VEC_GROW(m->insns, m->nr_insns + 1, m->alloc_insns) ||
	    VEC_GROW(m->text_off, m->nr_insns + 1, m->alloc_text_off))
		return wasm_read__fail(x->ps, at, -ENOMEM, "out of memory");
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
		return wasm_read__fail(x->ps, at, -E2BIG,
				 "instruction text over %zu bytes in all (names too long?)", m->text_limit);
	if (has_text) {
		m->text_off[m->nr_insns] = m->text.len;
		strbuf_add(&m->text, x->out.buf, x->out.len);
		strbuf_addch(&m->text, '\0');
		if (m->text.oom || x->out.oom)
			return wasm_read__fail(x->ps, at, -ENOMEM, "out of memory");
	}
	m->nr_insns++;
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

/* Code section (spec 5.5.13): count, then size-prefixed bodies of locals + expression. */
int wasm_insn__decode(struct modctx *x, struct cursor *c)
{
	struct ps *ps = x->ps;
	const uint8_t *at = c->p;
	uint32_t n, nloc, cnt;
	int rc;

	if ((rc = wasm_read__u32(ps, c, &n, "function count")))
		return rc;
	/* Spec 5.5.16: one body per function section entry (wasmparser's wording). */
	if (n != x->defined_funcs)
		return wasm_read__fail(ps, at, -EINVAL, "function and code section have inconsistent lengths "
				 "(function section %" PRIu32 ", code section %" PRIu32 ")",
				 x->defined_funcs, n);
	/*
	 * Instructions average 2 bytes or more, their text 10 bytes or so: size
	 * the arrays once instead of growing them through many copies.
	 */
	size_t guess = x->m->nr_insns + (size_t)(c->end - c->p) / 2 + 16;

	if (VEC_GROW(x->m->insns, guess, x->m->alloc_insns) ||
	    VEC_GROW(x->m->text_off, guess, x->m->alloc_text_off))
		return wasm_read__fail(ps, c->p, -ENOMEM, "out of memory");
	/* Only a hint: on failure the buffer grows as it goes. */
	(void)VEC_GROW(x->m->text.buf, x->m->text.len + (size_t)(c->end - c->p) * 5 + 1,
		       x->m->text.alloc);
	for (uint32_t i = 0; i < n; i++) {
		struct cursor body;

		if ((rc = wasm_read__region(ps, c, &body, "function body")))
			return rc;
		x->func = x->imported[0] + i;
		if ((rc = wasm_read__u32(ps, &body, &nloc, "local count")))
			return rc;
		for (uint32_t j = 0; j < nloc; j++) {
			struct valtype vt;

			if ((rc = wasm_read__u32(ps, &body, &cnt, "local count")) ||
			    (rc = wasm_types__read_valtype(ps, &body, &vt)))
				return rc;
		}
		if ((rc = decode_ops(x, &body)))
			return rc;
	}
	if (c->p != c->end)
		return wasm_read__fail(ps, c->p, -EINVAL, "unexpected data at the end of the code section");
	return 0;
}


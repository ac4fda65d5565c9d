/* SPDX-License-Identifier: MIT */
/*
 * The immediates that follow an opcode (wasm-opcodes.def's IMM column), read
 * and appended to the instruction's text as wasmprinter's flat printer writes
 * them: block types and labels, indexes by name, memory arguments, lanes,
 * constants, heap types, catch and resume clauses.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/lib/byteorder.h"
#include "wasm-insn.h"
#include "wasm-read.h"

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
		return wasm_types__read_valtype(x->ps, c, &bt->vt);
	}
	if ((rc = wasm_read__s(x->ps, c, 33, &s, "block type")))
		return rc;
	if (s < 0 || s > UINT32_MAX)
		return wasm_read__fail(x->ps, at, -EINVAL, "invalid function type in block type");
	bt->kind = BT_FUNC;
	bt->idx = (uint32_t)s;
	return 0;
}

/* blockty_without_label_comment: the label's name, then the block type. */
static bool put_blocktype(struct modctx *x, const struct blocktype *bt)
{
	const struct naming *n = name_map__find(&x->names[NK_LABEL], x->func, x->label);
	struct strbuf *b = &x->out;

	if (n) {
		strbuf_addch(b, ' ');
		wasm_names__put_name(b, n, NK_LABEL);
	}
	switch (bt->kind) {
	case BT_EMPTY:
		break;
	case BT_VAL:
		strbuf_addstr(b, " (result ");
		wasm_types__put_valtype(x, &bt->vt);
		strbuf_addch(b, ')');
		break;
	case BT_FUNC:
		strbuf_addstr(b, " (type");
		wasm_names__put_index(x, NK_TYPE, bt->idx);
		strbuf_addch(b, ')');
		if (bt->idx < x->nr_types && x->types[bt->idx].plain)
			wasm_types__put_functype(x, &x->types[bt->idx]);
		break;
	}
	return n != NULL;
}

/* maybe_blockty_label_comment: unnamed labels get ";; label = @depth". */
static void put_label_comment(struct modctx *x, bool has_name)
{
	if (!has_name)
		strbuf_addf(&x->out, " ;; label = @%d", x->depth);
	x->label++;
}

static int rd_memarg(struct modctx *x, struct cursor *c, unsigned natural)
{
	const uint8_t *at = c->p;
	uint32_t flags, mem = 0;
	uint64_t offset;
	int rc;

	if ((rc = wasm_read__u32(x->ps, c, &flags, "memarg alignment")))
		return rc;
	/* Multi-memory: bit 6 says a memory index follows. */
	if (flags & (1u << 6)) {
		flags ^= 1u << 6;
		if ((rc = wasm_read__u32(x->ps, c, &mem, "memarg memory index")))
			return rc;
	}
	if (flags >= 64)
		return wasm_read__fail(x->ps, at, -EINVAL, "malformed memop alignment: alignment too large");
	/* memory64: the offset is a u64 LEB. */
	if ((rc = wasm_read__u64(x->ps, c, &offset, "memarg offset")))
		return rc;
	if (mem)
		wasm_names__put_index(x, NK_MEMORY, mem);
	if (offset)
		strbuf_addf(&x->out, " offset=%" PRIu64, offset);
	if (flags != natural)
		strbuf_addf(&x->out, " align=%" PRIu64, (uint64_t)1 << flags);
	return 0;
}

static int rd_ordering(struct modctx *x, struct cursor *c)
{
	const uint8_t *at = c->p;
	uint32_t o;
	int rc;

	if ((rc = wasm_read__u32(x->ps, c, &o, "memory ordering")))
		return rc;
	if (o > 1)
		return wasm_read__fail(x->ps, at, -EINVAL, "invalid atomic consistency ordering %" PRIu32, o);
	strbuf_addstr(&x->out, o ? " acq_rel" : " seq_cst");
	return 0;
}

/* A resume table: "(on $tag label)" or "(on $tag switch)" clauses. */
static int rd_handlers(struct modctx *x, struct cursor *c)
{
	uint32_t n, tag, label;
	uint8_t kind = 0;
	int rc;

	if ((rc = wasm_read__u32(x->ps, c, &n, "resume table size")))
		return rc;
	for (uint32_t i = 0; i < n; i++) {
		const uint8_t *at = c->p;

		if ((rc = wasm_read__u8(x->ps, c, &kind, "on clause")) ||
		    (rc = wasm_read__u32(x->ps, c, &tag, "on clause tag")))
			return rc;
		strbuf_addstr(&x->out, " (on");
		wasm_names__put_index(x, NK_TAG, tag);
		if (kind == 0) {
			if ((rc = wasm_read__u32(x->ps, c, &label, "on clause label")))
				return rc;
			wasm_labels__put_depth(x, label);
		} else if (kind == 1) {
			strbuf_addstr(&x->out, " switch");
		} else {
			return wasm_read__fail(x->ps, at, -EINVAL, "invalid leading byte (0x%x) for on clause",
					 kind);
		}
		strbuf_addch(&x->out, ')');
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
	if ((rc = wasm_read__u32(x->ps, c, &n, "catch count")))
		return rc;
	/* Catch labels count from outside the try_table, as wasmprinter does. */
	saved = x->labels[--x->nr_labels];
	x->depth--;
	for (uint32_t i = 0; i < n; i++) {
		uint8_t kind = 0;
		const uint8_t *k = c->p;

		if ((rc = wasm_read__u8(x->ps, c, &kind, "catch clause")))
			return rc;
		if (kind > 3)
			return wasm_read__fail(x->ps, k, -EINVAL, "invalid leading byte (0x%x) for catch", kind);
		strbuf_addf(&x->out, " (%s", kinds[kind]);
		if (kind < 2) {
			if ((rc = wasm_read__u32(x->ps, c, &tag, "catch tag")))
				return rc;
			wasm_names__put_index(x, NK_TAG, tag);
		}
		if ((rc = wasm_read__u32(x->ps, c, &label, "catch label")))
			return rc;
		wasm_labels__put_depth(x, label);
		strbuf_addch(&x->out, ')');
	}
	x->depth++;
	if ((rc = wasm_labels__push(x, at)))
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

	if ((rc = wasm_read__u8(x->ps, c, &flags, "cast flags")))
		return rc;
	if (flags > 3)
		return wasm_read__fail(x->ps, at, -EINVAL, "invalid cast flags: %02x", flags);
	if ((rc = wasm_read__u32(x->ps, c, &depth, "branch depth")) ||
	    (rc = wasm_types__read_heaptype(x->ps, c, &from)) || (rc = wasm_types__read_heaptype(x->ps, c, &to)))
		return rc;
	wasm_labels__put_depth(x, depth);
	strbuf_addch(&x->out, ' ');
	wasm_types__put_reftype(x, flags & 1, &from);
	strbuf_addch(&x->out, ' ');
	wasm_types__put_reftype(x, flags & 2, &to);
	return 0;
}

/* One switch over every immediate kind (wasm-opcodes.def's IMM column). */
int wasm_imm__read(struct modctx *x, struct cursor *c, const struct wasm_opcode *op,
		   const uint8_t *at)
{
	struct ps *ps = x->ps;
	struct strbuf *b = &x->out;
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
		if (!(rc = wasm_read__u32(ps, c, &u, "branch depth")))
			wasm_labels__put_depth(x, u);
		break;
	case IMM_BR_TABLE:
		if ((rc = wasm_read__u32(ps, c, &u, "br_table size")))
			return rc;
		/* Targets, then the default: u + 1 depths. */
		for (uint64_t i = 0; i <= u; i++) {
			if ((rc = wasm_read__u32(ps, c, &v, "br_table target")))
				return rc;
			wasm_labels__put_depth(x, v);
		}
		break;
	case IMM_BR_ON_CAST:
		return rd_br_on_cast(x, c);
	case IMM_TRY_TABLE:
		return rd_try_table(x, c, at);
	case IMM_FUNC:
		if (!(rc = wasm_read__u32(ps, c, &u, "function index")))
			wasm_names__put_index(x, NK_FUNC, u);
		break;
	case IMM_CALL_INDIRECT:
		if ((rc = wasm_read__u32(ps, c, &u, "type index")) || (rc = wasm_read__u32(ps, c, &v, "table index")))
			return rc;
		if (v)
			wasm_names__put_index(x, NK_TABLE, v);
		strbuf_addstr(b, " (type");
		wasm_names__put_index(x, NK_TYPE, u);
		strbuf_addch(b, ')');
		break;
	case IMM_TYPE:
		if (!(rc = wasm_read__u32(ps, c, &u, "type index")))
			wasm_names__put_index(x, NK_TYPE, u);
		break;
	case IMM_TYPE_TYPE:
		if ((rc = wasm_read__u32(ps, c, &u, "type index")) || (rc = wasm_read__u32(ps, c, &v, "type index")))
			return rc;
		wasm_names__put_index(x, NK_TYPE, u);
		wasm_names__put_index(x, NK_TYPE, v);
		break;
	case IMM_TYPE_U32:
		if ((rc = wasm_read__u32(ps, c, &u, "type index")) || (rc = wasm_read__u32(ps, c, &v, "array size")))
			return rc;
		wasm_names__put_index(x, NK_TYPE, u);
		strbuf_addch(b, ' ');
		strbuf_addu(b, v);
		break;
	case IMM_TYPE_DATA:
	case IMM_TYPE_ELEM:
	case IMM_TYPE_TAG:
		if ((rc = wasm_read__u32(ps, c, &u, "type index")) || (rc = wasm_read__u32(ps, c, &v, "index")))
			return rc;
		wasm_names__put_index(x, NK_TYPE, u);
		wasm_names__put_index(x, op->imm == IMM_TYPE_DATA ? NK_DATA :
				  op->imm == IMM_TYPE_ELEM ? NK_ELEM : NK_TAG, v);
		break;
	case IMM_STRUCT_FIELD:
		if ((rc = wasm_read__u32(ps, c, &u, "type index")) || (rc = wasm_read__u32(ps, c, &v, "field index")))
			return rc;
		wasm_names__put_index(x, NK_TYPE, u);
		wasm_names__put_idx(x, NK_FIELD, u, v, v);
		break;
	case IMM_LOCAL:
		if (!(rc = wasm_read__u32(ps, c, &u, "local index")))
			wasm_names__put_idx(x, NK_LOCAL, x->func, u, u);
		break;
	case IMM_GLOBAL:
	case IMM_TABLE:
	case IMM_TAG:
	case IMM_DATA:
	case IMM_ELEM:
		if (!(rc = wasm_read__u32(ps, c, &u, "index")))
			wasm_names__put_index(x, op->imm == IMM_GLOBAL ? NK_GLOBAL :
					  op->imm == IMM_TABLE ? NK_TABLE : op->imm == IMM_TAG ? NK_TAG :
					  op->imm == IMM_DATA ? NK_DATA : NK_ELEM, u);
		break;
	case IMM_MEMIDX:
		if (!(rc = wasm_read__u32(ps, c, &u, "memory index")) && u)
			wasm_names__put_index(x, NK_MEMORY, u);
		break;
	case IMM_MEMORY_INIT:
	case IMM_TABLE_INIT:
		if ((rc = wasm_read__u32(ps, c, &u, "segment index")) || (rc = wasm_read__u32(ps, c, &v, "index")))
			return rc;
		if (v)
			wasm_names__put_index(x, op->imm == IMM_MEMORY_INIT ? NK_MEMORY : NK_TABLE, v);
		wasm_names__put_index(x, op->imm == IMM_MEMORY_INIT ? NK_DATA : NK_ELEM, u);
		break;
	case IMM_MEMORY_COPY:
	case IMM_TABLE_COPY:
		if ((rc = wasm_read__u32(ps, c, &u, "index")) || (rc = wasm_read__u32(ps, c, &v, "index")))
			return rc;
		if (u || v) {
			wasm_names__put_index(x, op->imm == IMM_MEMORY_COPY ? NK_MEMORY : NK_TABLE, u);
			wasm_names__put_index(x, op->imm == IMM_MEMORY_COPY ? NK_MEMORY : NK_TABLE, v);
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
		    (rc = wasm_read__u8(ps, c, &byte, "lane index")))
			return rc;
		strbuf_addch(b, ' ');
		strbuf_addu(b, byte);
		break;
	case IMM_LANE:
		if (!(rc = wasm_read__u8(ps, c, &byte, "lane index"))) {
			strbuf_addch(b, ' ');
			strbuf_addu(b, byte);
		}
		break;
	case IMM_SHUFFLE:
		for (int i = 0; i < 16; i++) {
			if ((rc = wasm_read__u8(ps, c, &byte, "shuffle lane")))
				return rc;
			strbuf_addch(b, ' ');
			strbuf_addu(b, byte);
		}
		break;
	case IMM_I32:
		if (!(rc = wasm_read__s(ps, c, 32, &s, "i32 constant"))) {
			strbuf_addch(b, ' ');
			strbuf_addi(b, s);
		}
		break;
	case IMM_I64:
		if (!(rc = wasm_read__s(ps, c, 64, &s, "i64 constant"))) {
			strbuf_addch(b, ' ');
			strbuf_addi(b, s);
		}
		break;
	case IMM_F32:
	case IMM_F64: {
		const uint8_t *p = NULL;
		size_t n = op->imm == IMM_F32 ? 4 : 8;

		if ((rc = wasm_read__bytes(ps, c, n, &p, "float constant")))
			return rc;
		strbuf_addch(b, ' ');
		wasm_float__put(b, n == 8 ? get_le64(p) : get_le32(p), n == 8);
		break;
	}
	case IMM_V128: {
		const uint8_t *p = NULL;

		if ((rc = wasm_read__bytes(ps, c, 16, &p, "v128 constant")))
			return rc;
		strbuf_addstr(b, " i32x4");
		for (int i = 0; i < 16; i += 4)
			strbuf_addf(b, " 0x%02x%02x%02x%02x", p[i + 3], p[i + 2], p[i + 1], p[i]);
		break;
	}
	case IMM_SELECT_T:
		if ((rc = wasm_read__u32(ps, c, &u, "select type count")))
			return rc;
		strbuf_addstr(b, u == 1 ? " (result " : " (result");
		for (uint64_t i = 0; i < u; i++) {
			struct valtype vt;

			if ((rc = wasm_types__read_valtype(ps, c, &vt)))
				return rc;
			if (u != 1)
				strbuf_addch(b, ' ');
			wasm_types__put_valtype(x, &vt);
		}
		strbuf_addch(b, ')');
		break;
	case IMM_HEAPTYPE:
	case IMM_REF_NN:
	case IMM_REF_NULL: {
		struct heaptype ht;

		if ((rc = wasm_types__read_heaptype(ps, c, &ht)))
			return rc;
		strbuf_addch(b, ' ');
		if (op->imm == IMM_HEAPTYPE)
			wasm_types__put_heaptype(x, &ht);
		else
			wasm_types__put_reftype(x, op->imm == IMM_REF_NULL, &ht);
		break;
	}
	case IMM_FENCE:
		if ((rc = wasm_read__u8(ps, c, &byte, "atomic.fence flags")))
			return rc;
		if (byte)
			return wasm_read__fail(ps, c->p - 1, -EINVAL, "nonzero byte after `atomic.fence`");
		break;
	case IMM_ORD_GLOBAL:
	case IMM_ORD_TABLE:
	case IMM_ORD_TYPE:
		if ((rc = rd_ordering(x, c)) || (rc = wasm_read__u32(ps, c, &u, "index")))
			return rc;
		wasm_names__put_index(x, op->imm == IMM_ORD_GLOBAL ? NK_GLOBAL :
				  op->imm == IMM_ORD_TABLE ? NK_TABLE : NK_TYPE, u);
		break;
	case IMM_ORD_STRUCT_FIELD:
		if ((rc = rd_ordering(x, c)) || (rc = wasm_read__u32(ps, c, &u, "type index")) ||
		    (rc = wasm_read__u32(ps, c, &v, "field index")))
			return rc;
		wasm_names__put_index(x, NK_TYPE, u);
		wasm_names__put_idx(x, NK_FIELD, u, v, v);
		break;
	case IMM_RESUME:
		if ((rc = wasm_read__u32(ps, c, &u, "type index")))
			return rc;
		wasm_names__put_index(x, NK_TYPE, u);
		return rd_handlers(x, c);
	case IMM_RESUME_THROW:
		if ((rc = wasm_read__u32(ps, c, &u, "type index")) || (rc = wasm_read__u32(ps, c, &w, "tag index")))
			return rc;
		wasm_names__put_index(x, NK_TYPE, u);
		wasm_names__put_index(x, NK_TAG, w);
		return rd_handlers(x, c);
	}
	return rc;
}

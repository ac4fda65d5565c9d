/* SPDX-License-Identifier: MIT */
/*
 * The WebAssembly decoder's insides, shared by its files and nobody else:
 *   wasm-read.c    errors, and the bounded reads not inline here
 *   wasm.c         module and component structure, imports, the public API
 *   wasm-types.c   value, reference and heap types; the type section
 *   wasm-names.c   the `name` section; identifiers as wasmprinter prints them
 *   wasm-insn.c    instructions: the opcode table, function bodies
 *   wasm-imm.c     the immediates after each opcode
 *   wasm-labels.c  the open labels; branch targets as label names or depths
 *   wasm-float.c   float constants in wasmprinter's text
 * Bounded reads of the binary are inline here; every failure goes through
 * wasm_read__fail(), which keeps the first message. The files call downwards only:
 * wasm.c uses the others; wasm-insn.c the immediates, labels and types;
 * wasm-imm.c the labels, names, types and floats; wasm-types.c and
 * wasm-labels.c the names; all of them the reads.
 */
#ifndef POSTPROC_WASM_READ_H
#define POSTPROC_WASM_READ_H

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/leb128.h"
#include "lib/strbuf.h"
#include "lib/util.h"
#include "wasm-defs.h"

/* Limits of wasmparser's that change what is accepted, and one of ours. */
#define MAX_STRING_SIZE 100000		/* wasmparser's read_string, skip_string */
#define MAX_COMPONENT_DEPTH 64		/* nested components */

/* ---- errors and bounded reads ---- */

/* The input being decoded and where its first error goes. */
struct ps {
	const uint8_t *base;	/* file start: offsets are relative to it */
	const char *name;
	char *err;
	size_t errlen;
	bool failed;
};

/* "NAME+0xOFF: message" for the byte at, unless an earlier failure was kept; returns rc. */
int wasm_read__fail(struct ps *ps, const uint8_t *at, int rc, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

struct cursor {
	const uint8_t *p, *end;
};

/* A failed read: -EINVAL (truncated) or -ERANGE, constants the compiler can see are nonzero. */
static inline int wasm_read__fail_at(struct ps *ps, const uint8_t *at, int rc, const char *what)
{
	if (rc == -EINVAL) {
		wasm_read__fail(ps, at, -EINVAL, "unexpected end of data reading %s", what);
		return -EINVAL;
	}
	wasm_read__fail(ps, at, -ERANGE, "malformed LEB128 %s: too long or too large", what);
	return -ERANGE;
}

static inline int wasm_read__u8(struct ps *ps, struct cursor *c, uint8_t *v, const char *what)
{
	if (c->p >= c->end)
		return wasm_read__fail_at(ps, c->p, -EINVAL, what);
	*v = *c->p++;
	return 0;
}

static inline int wasm_read__u32(struct ps *ps, struct cursor *c, uint32_t *v, const char *what)
{
	uint64_t x;
	int rc = leb128_read_u(&c->p, c->end, 32, &x);

	if (rc)
		return wasm_read__fail_at(ps, c->p, rc, what);
	*v = (uint32_t)x;
	return 0;
}

static inline int wasm_read__u64(struct ps *ps, struct cursor *c, uint64_t *v, const char *what)
{
	int rc = leb128_read_u(&c->p, c->end, 64, v);

	return rc ? wasm_read__fail_at(ps, c->p, rc, what) : 0;
}

static inline int wasm_read__s(struct ps *ps, struct cursor *c, unsigned bits, int64_t *v, const char *what)
{
	int rc = leb128_read_s(&c->p, c->end, bits, v);

	return rc ? wasm_read__fail_at(ps, c->p, rc, what) : 0;
}

static inline int wasm_read__bytes(struct ps *ps, struct cursor *c, size_t n, const uint8_t **out,
			   const char *what)
{
	if ((size_t)(c->end - c->p) < n)
		return wasm_read__fail_at(ps, c->p, -EINVAL, what);
	*out = c->p;
	c->p += n;
	return 0;
}

/* A size-prefixed region (section, subsection): a sub-cursor over it. */
int wasm_read__region(struct ps *ps, struct cursor *c, struct cursor *sub, const char *what);
/* A length-prefixed name, which must be UTF-8. */
int wasm_read__name(struct ps *ps, struct cursor *c, const uint8_t **s, uint32_t *len, const char *what);

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

/* ---- names ---- */

enum name_kind {
	NK_FUNC, NK_LOCAL, NK_LABEL, NK_TYPE, NK_TABLE, NK_MEMORY, NK_GLOBAL,
	NK_ELEM, NK_DATA, NK_FIELD, NK_TAG, NK__NR
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

/* The names of one kind; sorted by (k1, k2) by name_map__finish(). */
struct name_map {
	struct naming *v;
	size_t nr, alloc;
};

/* ---- the result and the decoding state ---- */

struct modctx;

struct core_module {
	uint32_t off, len;	/* where the module's bytes are in the file */
	uint32_t imported_funcs;
	uint32_t nfuncs;
	struct modctx *x;	/* what decoding its bodies needs, kept for lazy decoding */
	char **fnames;		/* NUL-terminated copies of x->names[NK_FUNC], made when asked */
};

/* One decoded instruction of a body: its file offset and text (UINT32_MAX: none). */
struct body_insn {
	uint32_t off;
	uint32_t text;		/* into wasm_body.text */
};

/*
 * A function body, indexed by the first pass; its instructions are decoded
 * (text included) only when one of them is asked for.
 */
struct wasm_body {
	uint32_t expr, end;	/* file offsets of its expression [expr, end): after the locals */
	uint32_t func;		/* function index, imports included */
	uint32_t module;	/* core module number */
	bool decoded;		/* insns and text are set (or decoding failed: nr 0) */
	struct body_insn *insns;
	uint32_t nr;
	char *text;
};

/* Where the instructions of a body being decoded go. */
struct insn_sink {
	struct body_insn *v;
	size_t nr, alloc;
	struct wasm_insn *full;	/* also the whole instruction (wasm_module__insns), or NULL */
	size_t alloc_full;
	bool want_full;
	struct strbuf text;
};

struct wasm_module {
	const uint8_t *buf;	/* the input, borrowed */
	size_t len;
	char *name;		/* prefixes messages */
	struct wasm_body *bodies;	/* in file order */
	size_t nr_bodies, alloc_bodies;
	size_t text_total;	/* the text all bodies would have, counted by the first pass */
	size_t text_limit;	/* bounded memory: long names repeated by many instructions */
	struct core_module *mods;
	size_t nr_mods, alloc_mods;
	bool component;
	uint32_t dwarf_mods;	/* core modules with a .debug_info section */
	unsigned name_errors;
	char name_error[256];
	pthread_mutex_t lock;	/* lazy decoding: bodies, function names */
	unsigned lazy_errors;	/* bodies whose decoding failed when asked (out of memory) */
	char lazy_error[256];	/* the first such failure */
	struct wasm_insn *all;	/* wasm_module__insns(), made when asked */
	size_t nr_all;
};

/*
 * Which label a branch names must not cost a walk over the inner labels for
 * every branch (wasm-labels.c): a mirror of the open labels, each with its
 * name and, per distinct name, the innermost position holding it.
 */
struct label_shadow_name {
	const struct naming *n;
	long top;			/* innermost open position with this name, or -1 */
};

struct label_shadow {
	bool valid;			/* the mirror describes the labels of func */
	uint32_t func;
	const struct naming *names_v;
	size_t names_nr;
	uint32_t *ids;			/* label index at each open position */
	const struct naming **name;	/* its name, or NULL */
	long *prev;			/* the previous position with the same name, or -1 */
	size_t nr, alloc;
	struct label_shadow_name *names;
	size_t names_alloc, nr_names;
	struct idx_table by_name;	/* name text -> index in names */
};

/* One core module being decoded. */
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
	struct label_shadow shadow;
	struct strbuf out;		/* text of the instruction being decoded */
	/* where instructions go: counted only (the first pass), or kept */
	struct insn_sink *sink;
};

/* wasm-types.c */
int wasm_types__read_heaptype(struct ps *ps, struct cursor *c, struct heaptype *ht);
int wasm_types__read_reftype(struct ps *ps, struct cursor *c, struct valtype *vt);
int wasm_types__read_valtype(struct ps *ps, struct cursor *c, struct valtype *vt);
/* The type section: rec groups or single subtypes, numbered in order. */
int wasm_types__parse(struct modctx *x, struct cursor *c);
/* wasmprinter's print_heaptype (no leading space), reference and value types. */
void wasm_types__put_heaptype(struct modctx *x, const struct heaptype *ht);
void wasm_types__put_reftype(struct modctx *x, bool nullable, const struct heaptype *ht);
void wasm_types__put_valtype(struct modctx *x, const struct valtype *vt);
/* print_func_type: " (param i32 i64) (result f32)". */
void wasm_types__put_functype(struct modctx *x, const struct functype *ft);

/* wasm-names.c */
/* The `name` section into x->names; a malformed one is counted, not an error. */
int wasm_names__parse(struct modctx *x, struct cursor *c);
void name_map__finish(struct name_map *m);
const struct naming *name_map__find(const struct name_map *m, uint32_t k1, uint32_t k2);
/* wasmprinter's Naming::write_identifier and Naming::write. */
void wasm_names__put_ident(struct strbuf *b, const struct naming *n, enum name_kind kind);
void wasm_names__put_name(struct strbuf *b, const struct naming *n, enum name_kind kind);
/* " $name" or " 12": print_idx, print_local_idx, print_field_idx. */
void wasm_names__put_idx(struct modctx *x, enum name_kind kind, uint32_t k1, uint32_t k2, uint32_t idx);
void wasm_names__put_index(struct modctx *x, enum name_kind kind, uint32_t idx);

/* wasm-labels.c */
/* The target of a branch `d` labels out, with its leading space. */
void wasm_labels__put_depth(struct modctx *x, uint32_t d);
/* A function body's decoding starts: forget the labels of the last one. */
void wasm_labels__reset(struct modctx *x);
/* A label opens (a block, loop, if, try...): the next label index on the
 * stack of open ones. 0, or -ENOMEM (reported at at). */
int wasm_labels__push(struct modctx *x, const uint8_t *at);
void wasm_labels__release(struct modctx *x);

/* wasm-insn.c */
/*
 * The code section, first pass: every body into x->m->bodies, each of its
 * instructions decoded (so malformed code fails here, at its offset) and its
 * text's length counted, but nothing kept.
 */
int wasm_insn__decode(struct modctx *x, struct cursor *c);
/* Body b's instructions and texts into sink (x: its module's context). */
int wasm_insn__decode_body(struct modctx *x, const struct wasm_body *b, struct insn_sink *sink);

/* wasm-imm.c */
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
struct wasm_opcode;
/* The immediates of op (at: its first byte) at c, their text appended to x->out. */
int wasm_imm__read(struct modctx *x, struct cursor *c, const struct wasm_opcode *op,
		   const uint8_t *at);

/* wasm-float.c */
/* wasmprinter's text of a float constant's bits: "0x1.8p+0 (;=1.5;)". */
void wasm_float__put(struct strbuf *b, uint64_t bits, bool is64);

#endif

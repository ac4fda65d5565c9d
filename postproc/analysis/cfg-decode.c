/* SPDX-License-Identifier: MIT */
/* Every instruction of one code object decoded with capstone (cfg-decode.h). */
#include <capstone/capstone.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg-decode.h"
#include "cfg-text.h"
#include "../plugin/lib/byteorder.h"
#include "lib/util.h"

/* Instructions between the address computation and the indirect jump of a jump table
 * sequence: Cranelift emits lea/adr, a sign-extending load, an add, then the jump. */
#define JTAB_LOOKBACK 6

#define TEXT_MAX CFG_TEXT_MAX

/* One instruction while building, before the final address-ordered list. */
struct pinsn {
	struct cfg_insn in;	/* in.text unset: textoff below */
	uint32_t textoff;
	uint8_t by;		/* BY_* */
	bool walked;		/* its successors were followed */
	bool cut;		/* data left over where a surer instruction starts
				 * inside a guessed one: nothing falls through it */
	uint32_t jx;		/* its jump-table facts in builder.jumps, or 0: none */
};

/*
 * What jump-table recognition needs to know of an instruction; few have any
 * (address computations, indirect jumps), so they are kept aside: the pool
 * holds an instruction per 4 to 8 bytes of code, 40 bytes each instead of 64.
 */
struct pjump {
	uint16_t addr_reg;	/* register set to a PC-relative address, or 0 */
	uint16_t jump_reg;	/* indirect jump through this register, or 0 */
	uint16_t jump_base;	/* jmp [jump_base + index * 8], or 0 */
	int32_t jump_disp;	/* what the jump adds to jump_reg (riscv64's jalr) */
	uint64_t addr;		/* addr_reg's address, function-relative */
	uint32_t table, table_end; /* an indirect jump's recognised table, [table, table_end) */
};


struct builder {
	struct cfg_func *f;
	const struct arch *arch;
	const struct cfg_input *in;
	csh cs;
	cs_insn *ci;
	struct pinsn *pool;	/* every instruction, in decoding order */
	size_t pool_nr, pool_alloc;
	/* [size]: pool index of the instruction covering the byte, or -1; where
	 * one starts is where its own offset is (start_at): no second array of
	 * 4 bytes per code byte (100 MB for a 25 MB function) */
	int32_t *cover;
	struct pjump *jumps;	/* [0] unused: pinsn.jx 0 is none */
	size_t jumps_nr, jumps_alloc;
	uint32_t *todo;		/* offsets whose path is still to be followed */
	size_t todo_nr, todo_alloc;
	size_t strtab_nr, strtab_alloc;
	bool text;		/* write the assembly cells (not CFG_NO_TEXT) */
};

/* Room for one cell in the string table, or NULL: out of memory. */
static char *text_room(struct builder *b)
{
	if (b->strtab_nr + TEXT_MAX > UINT32_MAX ||
	    VEC_GROW(b->f->strtab, b->strtab_nr + TEXT_MAX, b->strtab_alloc))
		return NULL;
	return b->f->strtab + b->strtab_nr;
}

/* The cell just written at text_room kept: *off is where it starts. */
static void text_keep(struct builder *b, uint32_t *off)
{
	char *t = b->f->strtab + b->strtab_nr;
	size_t n = strnlen(t, TEXT_MAX - 1);

	t[n] = '\0';
	*off = (uint32_t)b->strtab_nr;
	b->strtab_nr += n + 1;
}

static const struct pjump no_jump;

/* The jump-table facts of pi (all 0 when it has none). */
static inline const struct pjump *pj(const struct builder *b, const struct pinsn *pi)
{
	return pi->jx ? &b->jumps[pi->jx] : &no_jump;
}

/* Those of pool[i], to be written (made when it has none); NULL: out of memory.
 * Valid until the next one is made. */
static struct pjump *pj_w(struct builder *b, long i)
{
	if (!b->pool[i].jx) {
		if (b->jumps_nr >= UINT32_MAX ||
		    VEC_GROW(b->jumps, b->jumps_nr ? b->jumps_nr + 1 : 2, b->jumps_alloc))
			return NULL;
		if (!b->jumps_nr)
			b->jumps_nr = 1;
		memset(&b->jumps[b->jumps_nr], 0, sizeof(b->jumps[0]));
		b->pool[i].jx = (uint32_t)b->jumps_nr++;
	}
	return &b->jumps[b->pool[i].jx];
}

/* The pool index of the instruction starting at off, or -1. */
static inline long start_at(const struct builder *b, uint32_t off)
{
	int32_t i = b->cover[off];

	return i >= 0 && b->pool[i].in.off == off ? i : -1;
}

/* Append an instruction over [off, off + size) (size > 0; no byte of it covered
 * yet); its index, or -ENOMEM. The text is set by the caller. */
static long add_pinsn(struct builder *b, uint32_t off, uint16_t size, uint16_t flags,
		      uint64_t target, uint8_t by)
{
	struct pinsn *pi;

	if (b->pool_nr >= INT32_MAX || VEC_GROW(b->pool, b->pool_nr + 1, b->pool_alloc))
		return -ENOMEM;
	pi = &b->pool[b->pool_nr];
	memset(pi, 0, sizeof(*pi));
	pi->in.off = off;
	pi->in.size = size;
	pi->in.flags = flags;
	pi->in.target = target;
	pi->by = by;
	for (uint32_t k = off; k < off + size; k++)
		b->cover[k] = (int32_t)b->pool_nr;
	return (long)b->pool_nr++;
}

/* A data row's cell (and the flags of an architecture's own decoding). */
static int data_text(struct builder *b, struct pinsn *pi, const uint8_t *p, size_t n)
{
	char local[TEXT_MAX], *buf = local;

	/* Without text, still asked: its decoding may give the row flags. */
	if (b->text && !(buf = text_room(b)))
		return -ENOMEM;
	cfg_text__data(buf, b->arch, p, n, pi->cut, &pi->in.flags);
	if (b->text)
		text_keep(b, &pi->textoff);
	return 0;
}

/*
 * "{mnemonic:7} {operands}" as the reference prints it, a target outside
 * the function the address it goes to (cfg_text__cs).
 */
static int cs_text(struct builder *b, struct pinsn *pi, const cs_insn *in)
{
	char *buf;

	if (!b->text)
		return 0;
	if (!(buf = text_room(b)))
		return -ENOMEM;
	cfg_text__cs(buf, b->arch, in, pi->in.flags, pi->in.target, b->in->size, b->in->addr);
	text_keep(b, &pi->textoff);
	return 0;
}

/* Data rows over [off, end): one per skipdata unit, as capstone would give them. */
static int add_data_rows(struct builder *b, uint32_t off, uint32_t end, uint8_t by, bool cut)
{
	while (off < end) {
		uint32_t n = end - off < b->arch->skip ? end - off : b->arch->skip;
		long i = add_pinsn(b, off, (uint16_t)n, INSN_DATA | (cut ? INSN_CUT : 0), 0, by);
		int ret;

		if (i < 0)
			return (int)i;
		b->pool[i].cut = cut;
		ret = data_text(b, &b->pool[i], b->in->code + off, n);
		if (ret)
			return ret;
		off += n;
	}
	return 0;
}

/* The first covered byte in [off, end), or end. */
static uint32_t first_covered(const struct builder *b, uint32_t off, uint32_t end)
{
	while (off < end && b->cover[off] < 0)
		off++;
	return off;
}

/* The instruction that ends right where pool[i] starts, or -1. */
static long prev_insn(const struct builder *b, long i)
{
	uint32_t off = b->pool[i].in.off;
	long j;

	if (!off)
		return -1;
	j = b->cover[off - 1];
	return j >= 0 && b->pool[j].in.off + b->pool[j].in.size == off ? j : -1;
}

/*
 * riscv64 (ARCH_JUMP_PAIRS): auipc rX, hi; jalr x0, lo(rX) is a jump to a known
 * target. Once the instruction before an indirect jump is known to put a
 * PC-relative address in the jump's register, the jump is direct. Its text stays
 * capstone's (the offset it adds, not the target).
 */
static void resolve_pair(struct builder *b, long i)
{
	struct pinsn *pi = &b->pool[i];
	long k;

	if (!(b->arch->flags & ARCH_JUMP_PAIRS) || !pj(b, pi)->jump_reg || !(pi->in.flags & INSN_INDIRECT) ||
	    !(pi->in.flags & (INSN_JUMP | INSN_CALL)))
		return;
	k = prev_insn(b, i);
	if (k < 0 || pj(b, &b->pool[k])->addr_reg != pj(b, pi)->jump_reg)
		return;
	pi->in.flags = (uint16_t)((pi->in.flags & ~INSN_INDIRECT) | INSN_HAS_TARGET);
	pi->in.target = pj(b, &b->pool[k])->addr + (uint64_t)(int64_t)pj(b, pi)->jump_disp;
	b->jumps[pi->jx].jump_reg = 0;	/* it had one: pi->jx is set */
}

/*
 * Decode one instruction at off (not covered). Returns its index; -ERANGE when it
 * would run into bytes another instruction already covers (nothing is added);
 * or -ENOMEM.
 */
static long decode_at(struct builder *b, uint32_t off, uint8_t by)
{
	const struct arch *arch = b->arch;
	const uint8_t *p = b->in->code + off;
	size_t left = b->in->size - off;
	uint64_t addr = off, target = 0, a;
	cs_insn *ci = b->ci;
	struct pinsn *pi;
	uint16_t flags;
	unsigned reg;
	long i;
	int ret;

	if (!cs_disasm_iter(b->cs, &p, &left, &addr, ci)) {
		/* only a tail shorter than one skipdata unit stops capstone */
		uint32_t n = b->in->size - off;

		n = n < arch->skip ? n : arch->skip;
		if (first_covered(b, off, off + n) != off + n)
			return -ERANGE;
		i = add_pinsn(b, off, (uint16_t)n, INSN_DATA, 0, by);
		if (i < 0)
			return i;
		ret = data_text(b, &b->pool[i], b->in->code + off, n);
		return ret ? ret : i;
	}
	if (first_covered(b, off, off + ci->size) != off + ci->size)
		return -ERANGE;
	/* skipdata pseudo-instructions carry a stale detail: look at id first */
	if (!ci->id) {
		i = add_pinsn(b, off, ci->size, INSN_DATA, 0, by);
		if (i < 0)
			return i;
		ret = data_text(b, &b->pool[i], ci->bytes, ci->size);
		return ret ? ret : i;
	}
	flags = arch->classify(ci, &target);
	i = add_pinsn(b, off, ci->size, flags, target, by);
	if (i < 0)
		return i;
	reg = arch->addr_of(ci, &a);
	if (reg) {
		struct pjump *w = pj_w(b, i);

		if (!w)
			return -ENOMEM;
		w->addr_reg = (uint16_t)reg;
		w->addr = a;
	}
	/* riscv64 calls too: auipc ra, HI; jalr ra, LO(ra) is a call to a known place */
	if ((flags & (INSN_JUMP | INSN_INDIRECT)) == (INSN_JUMP | INSN_INDIRECT) ||
	    ((flags & (INSN_CALL | INSN_INDIRECT)) == (INSN_CALL | INSN_INDIRECT) &&
	     (arch->flags & ARCH_JUMP_PAIRS))) {
		int32_t disp = 0;
		uint16_t jreg = (uint16_t)arch->jump_reg(ci, &disp);
		uint16_t jbase = arch->jump_mem ? (uint16_t)arch->jump_mem(ci) : 0;
		struct pjump *w;

		/* the displacement counts only with a register to add it to */
		if (jreg || jbase) {
			if (!(w = pj_w(b, i)))
				return -ENOMEM;
			w->jump_reg = jreg;
			w->jump_disp = disp;
			w->jump_base = jbase;
		}
	}
	pi = &b->pool[i];
	ret = cs_text(b, pi, ci);
	if (ret)
		return ret;
	resolve_pair(b, i);
	return i;
}

/*
 * Jump tables. Three shapes, all announced by a PC-relative address T put in a
 * register a few instructions before an indirect jump:
 *  - relative: lea r, [rip + T] / adr r, T / larl r, T;  load a 32-bit entry;  add;
 *    jmp r / br r. Entries are 32-bit offsets from T (big-endian on s390x).
 *    Cranelift (x64, aarch64, s390x) puts the table right after the jump; V8 on
 *    aarch64 puts it after the code.
 *  - absolute: lea r, [rip + T];  jmp qword ptr [r + index*8]. Entries are 64-bit
 *    run-time addresses: V8's TurboFan and its wasm compiler on x64, table after
 *    the code. They need the code's run-time address (cfg_input.addr).
 *  - jumps (riscv64, ARCH_JUMP_PAIRS): auipc r, 0;  index * 8 added to r;
 *    jalr x0, d(r). The table at T = r + d is code: an auipc + jalr jump per
 *    entry, which the jump enters at the entry of the index.
 * The entry count is not encoded near the table: entries are taken while they
 * point into the function outside the table, and a table right after its jump
 * stops at the first case that lies after it. Each entry of data becomes a data
 * row (INSN_TABLE) whose target is its case; each entry of jumps, two
 * instructions decoded on the jump's path.
 */
static long table_of(const struct builder *b, long jump, uint64_t *table, unsigned *width)
{
	const struct pjump *j = pj(b, &b->pool[jump]);
	long k = jump;

	if (!j->jump_reg && !j->jump_base)
		return -1;
	for (int n = 0; n < JTAB_LOOKBACK && (k = prev_insn(b, k)) >= 0; n++) {
		const struct pjump *p = pj(b, &b->pool[k]);

		if (!p->addr_reg)
			continue;
		if (p->addr_reg == j->jump_reg) {
			*width = b->arch->flags & ARCH_JUMP_PAIRS ? ARCH_JUMP_ENTRY : 4;
			*table = p->addr + (uint64_t)(int64_t)j->jump_disp;
		} else if (p->addr_reg == j->jump_base && b->in->addr) {
			*width = 8;
			*table = p->addr;
		} else {
			/* a later lea/adr of another register hides nothing: keep looking */
			continue;
		}
		return k;
	}
	return -1;
}

/* The instruction starting at off, decoded on the path of by if nothing covers
 * it yet; -ERANGE when off lies inside another one, or -ENOMEM. */
static long insn_at(struct builder *b, uint32_t off, uint8_t by)
{
	if (off >= b->in->size)
		return -ERANGE;
	if (start_at(b, off) >= 0)
		return start_at(b, off);
	if (b->cover[off] >= 0)
		return -ERANGE;
	return decode_at(b, off, by);
}

/* A table of jumps (riscv64) at start: each entry an auipc and a jalr through its
 * register, ARCH_JUMP_ENTRY bytes, whose target is a case. *end: past the last. */
static int add_jump_entries(struct builder *b, long jump, uint32_t start, uint32_t *end)
{
	uint32_t size = (uint32_t)b->in->size, pos = start, limit = size;
	uint8_t by = b->pool[jump].by;
	bool inline_table = start == b->pool[jump].in.off + b->pool[jump].in.size;

	while (pos + ARCH_JUMP_ENTRY <= limit) {
		long a = insn_at(b, pos, by), j;
		uint64_t t;

		if (a == -ENOMEM)
			return -ENOMEM;
		if (a < 0 || !pj(b, &b->pool[a])->addr_reg || b->pool[a].in.size != ARCH_JUMP_ENTRY / 2)
			break;
		j = insn_at(b, pos + ARCH_JUMP_ENTRY / 2, by);
		if (j == -ENOMEM)
			return -ENOMEM;
		if (j < 0 || b->pool[j].in.size != ARCH_JUMP_ENTRY / 2)
			break;
		resolve_pair(b, j);
		if ((b->pool[j].in.flags & (INSN_JUMP | INSN_HAS_TARGET)) != (INSN_JUMP | INSN_HAS_TARGET))
			break;
		t = b->pool[j].in.target;
		if (t >= size || (t >= start && t < (uint64_t)pos + ARCH_JUMP_ENTRY) || t % b->arch->skip)
			break;
		if (inline_table && t > pos && t < limit)
			limit = (uint32_t)t;
		pos += ARCH_JUMP_ENTRY;
	}
	*end = pos;
	return 0;
}

/* The cases of the indirect jump at pool index jump, as data rows (or the jumps
 * of a table of jumps); the jump records where they are (table .. table_end,
 * both 0 when there is none). */
static int add_table(struct builder *b, long jump)
{
	uint64_t t64;
	unsigned width;
	uint32_t size = (uint32_t)b->in->size, start, pos, limit = size;
	uint8_t by = b->pool[jump].by;
	bool inline_table, big = b->arch->flags & ARCH_BIG_ENDIAN;

	struct pjump *w;

	if (b->pool[jump].jx)
		b->jumps[b->pool[jump].jx].table = b->jumps[b->pool[jump].jx].table_end = 0;
	if (table_of(b, jump, &t64, &width) < 0 || t64 >= size)
		return 0;
	start = pos = (uint32_t)t64;
	if (b->arch->flags & ARCH_JUMP_PAIRS) {
		int ret = add_jump_entries(b, jump, start, &pos);

		if (ret)
			return ret;
		if (!(w = pj_w(b, jump)))
			return -ENOMEM;
		w->table = start;
		w->table_end = pos;
		return 0;
	}
	inline_table = start == b->pool[jump].in.off + b->pool[jump].in.size;
	while (pos + width <= limit && first_covered(b, pos, pos + width) == pos + width) {
		const uint8_t *p = b->in->code + pos;
		int64_t t;
		long i;

		if (width == 4) {
			uint32_t e = big ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
					   (uint32_t)p[2] << 8 | p[3] : get_le32(p);

			t = (int64_t)start + (int32_t)e;
		} else {
			uint64_t e = get_le64(p);

			if (e < b->in->addr || e - b->in->addr >= size)
				break;
			t = (int64_t)(e - b->in->addr);
		}
		if (t < 0 || t >= (int64_t)size || (t >= start && t < (int64_t)pos + width))
			break;
		if (t % b->arch->skip)
			break;
		i = add_pinsn(b, pos, (uint16_t)width, INSN_DATA | INSN_TABLE | INSN_HAS_TARGET,
			      (uint64_t)t, by);
		if (i < 0)
			return (int)i;
		if (b->text) {
			char *buf = text_room(b);

			if (!buf)
				return -ENOMEM;
			cfg_text__table(buf, width, (uint64_t)t, start, b->in->addr);
			text_keep(b, &b->pool[i].textoff);
		}
		if (inline_table && t > pos && t < limit)
			limit = (uint32_t)t;
		pos += width;
	}
	if (!(w = pj_w(b, jump)))
		return -ENOMEM;
	w->table = start;
	w->table_end = pos;
	return 0;
}

static int push_todo(struct builder *b, uint64_t off)
{
	if (off >= b->in->size)
		return 0;	/* outside the function: another one's code */
	if (VEC_GROW(b->todo, b->todo_nr + 1, b->todo_alloc))
		return -ENOMEM;
	b->todo[b->todo_nr++] = (uint32_t)off;
	return 0;
}

static bool falls_through(const struct pinsn *pi)
{
	return !pi->cut && !(pi->in.flags & INSN_TABLE) &&
	       (!cfg_insn__ends_block(pi->in.flags) || (pi->in.flags & INSN_COND));
}

/*
 * Follow execution from off: decode straight on while control falls through, and
 * queue every direct branch target and every case of a recognised jump table.
 * Undecodable bytes fall through: on a path they are far more likely an
 * instruction capstone does not know than data. A path stops where it would
 * decode across an instruction already known (the surer decoding stays).
 */
static int walk(struct builder *b, uint32_t off, uint8_t by)
{
	while (off < b->in->size) {
		long i = start_at(b, off);
		struct pinsn *pi;
		int ret;

		if (i < 0) {
			if (b->cover[off] >= 0)
				return 0;	/* inside another instruction */
			i = decode_at(b, off, by);
			if (i == -ERANGE)
				return 0;
			if (i < 0)
				return (int)i;
		}
		resolve_pair(b, i);
		pi = &b->pool[i];
		if (pi->walked)
			return 0;
		pi->walked = true;
		if (cfg_insn__has_branch_target(&pi->in) && !(pi->in.flags & INSN_TABLE)) {
			ret = push_todo(b, pi->in.target);
			if (ret)
				return ret;
		}
		if ((pi->in.flags & (INSN_JUMP | INSN_INDIRECT)) == (INSN_JUMP | INSN_INDIRECT)) {
			ret = add_table(b, i);
			if (ret)
				return ret;
			/* a table of jumps is code: each entry a path of its own */
			uint32_t table = pj(b, &b->pool[i])->table, table_end = pj(b, &b->pool[i])->table_end;

			for (uint32_t t = table; (b->arch->flags & ARCH_JUMP_PAIRS) &&
			     t < table_end; t += ARCH_JUMP_ENTRY) {
				ret = push_todo(b, t);
				if (ret)
					return ret;
			}
			for (uint32_t t = table; !(b->arch->flags & ARCH_JUMP_PAIRS) &&
			     t < table_end; t += b->pool[start_at(b, t)].in.size) {
				b->pool[start_at(b, t)].walked = true;
				ret = push_todo(b, b->pool[start_at(b, t)].in.target);
				if (ret)
					return ret;
			}
		}
		pi = &b->pool[i];
		if (!falls_through(pi))
			return 0;
		off = pi->in.off + pi->in.size;
	}
	return 0;
}

struct seed {
	uint32_t off;
	uint64_t weight;
};

static int seed_by_off(const void *a, const void *b)
{
	const struct seed *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

static int seed_by_weight(const void *a, const void *b)
{
	const struct seed *x = a, *y = b;

	if (x->weight != y->weight)
		return x->weight > y->weight ? -1 : 1;
	return seed_by_off(a, b);
}

/*
 * Decode one instruction at each sampled offset, the most sampled first. Two
 * sampled offsets inside one decoding cannot both start instructions of the code
 * that ran (the bytes differ from it): the one inside a hotter one's instruction is
 * left out (the caller counts its samples as not at an instruction start); one
 * whose decoding would run into a hotter one's becomes a data row up to it.
 */
static int decode_samples(struct builder *b, struct seed *seeds, size_t nr)
{
	if (nr)
		qsort(seeds, nr, sizeof(*seeds), seed_by_weight);
	for (size_t k = 0; k < nr; k++) {
		uint32_t s = seeds[k].off;
		long i;

		if (b->cover[s] >= 0)
			continue;
		i = decode_at(b, s, BY_SAMPLE);
		if (i == -ERANGE) {
			int ret = add_data_rows(b, s, first_covered(b, s, (uint32_t)b->in->size),
						BY_SAMPLE, true);

			if (ret)
				return ret;
		} else if (i < 0) {
			return (int)i;
		}
	}
	return 0;
}

/* The runtime's data among the code (cfg_input.data), surer than any decoding:
 * rows first, which nothing runs through (cut). */
static int add_words(struct builder *b)
{
	for (size_t k = 0; k < b->in->data_nr; k++) {
		const struct code_data *d = &b->in->data[k];
		long i;

		if (!d->size || d->off >= b->in->size || d->size > b->in->size - d->off ||
		    first_covered(b, d->off, d->off + d->size) != d->off + d->size)
			continue;
		i = add_pinsn(b, d->off, (uint16_t)d->size, INSN_DATA | INSN_WORD, 0, BY_PATH);
		if (i < 0)
			return (int)i;
		b->pool[i].cut = true;
		b->pool[i].walked = true;
		if (b->text) {
			char *buf = text_room(b);

			if (!buf)
				return -ENOMEM;
			cfg_text__word(buf, b->arch, b->in->code + d->off, d->size);
			text_keep(b, &b->pool[i].textoff);
		}
	}
	return 0;
}

/* Linear sweep over every byte no path or sample decoded. A guessed instruction that
 * would run into a known one is not taken: its first byte (aarch64: word) becomes a
 * data row, and decoding goes on after it. */
static int sweep(struct builder *b)
{
	uint32_t off = 0, size = (uint32_t)b->in->size;

	while (off < size) {
		long i;
		int ret;

		if (b->cover[off] >= 0) {
			off = b->pool[b->cover[off]].in.off + b->pool[b->cover[off]].in.size;
			continue;
		}
		i = decode_at(b, off, BY_SWEEP);
		if (i == -ERANGE) {
			/* one unit of data, and decode on from the next byte */
			uint32_t end = off + b->arch->skip;

			end = first_covered(b, off, end < size ? end : size);
			ret = add_data_rows(b, off, end, BY_SWEEP, true);
			if (ret)
				return ret;
			off = end;
			continue;
		}
		if (i < 0)
			return (int)i;
		if ((b->pool[i].in.flags & (INSN_JUMP | INSN_INDIRECT)) == (INSN_JUMP | INSN_INDIRECT)) {
			ret = add_table(b, i);
			if (ret)
				return ret;
		}
		off = b->pool[i].in.off + b->pool[i].in.size;
	}
	return 0;
}

/*
 * The pool in address order as f->insns (the order of decoding is dropped), with
 * what the final passes need in *fin. A large function's peak is here, so
 * nothing is held twice: the order is taken and the per-byte map freed; then,
 * in the pool's own order, each entry goes to its place in f->insns and
 * leaves its fin in the pool's memory (fin i ends before entry i + 1 starts),
 * which shrinks before the fins are put in address order too. Scattered
 * writes, sequential reads: no cycles chased through a pool of 100 MB.
 */
static int finish_insns(struct builder *b, struct fin **fin)
{
	struct cfg_func *f = b->f;
	uint32_t *order = malloc((b->pool_nr ? b->pool_nr : 1) * sizeof(*order)), *rank;
	size_t n = 0;
	struct fin *in_pool, *shrunk;

	_Static_assert(sizeof(struct fin) <= sizeof(struct pinsn), "fin i would overwrite entry i + 1");
	if (!order)
		return -ENOMEM;
	/* from each instruction straight to the byte after it: they do not overlap */
	for (uint32_t off = 0; off < b->in->size;) {
		long i = start_at(b, off);

		if (i < 0) {
			off++;
			continue;
		}
		order[n++] = (uint32_t)i;
		off += b->pool[i].in.size;
	}
	FREE_AND_NULL(b->cover);
	/* every pool entry starts somewhere: order is a permutation of the pool */
	if (n != b->pool_nr) {
		free(order);
		return -EINVAL;
	}
	f->insns_nr = 0;
	if (!n) {
		free(order);
		f->insns = malloc(sizeof(*f->insns));
		*fin = malloc(sizeof(**fin));
		return f->insns && *fin ? 0 : -ENOMEM;
	}
	/* rank[i]: where pool[i] goes */
	rank = malloc(n * sizeof(*rank));
	if (!rank) {
		free(order);
		return -ENOMEM;
	}
	for (size_t k = 0; k < n; k++)
		rank[order[k]] = (uint32_t)k;
	free(order);
	f->insns = malloc(n * sizeof(*f->insns));
	if (!f->insns) {
		free(rank);
		return -ENOMEM;
	}
	in_pool = (struct fin *)(void *)b->pool;
	for (size_t i = 0; i < n; i++) {
		const struct pinsn pi = b->pool[i];
		const struct pjump *jp = pj(b, &pi);
		struct fin fk = { pi.by, pi.cut, jp->table, jp->table_end,
				  (b->arch->flags & ARCH_JUMP_PAIRS) && jp->table_end > jp->table ?
				  ARCH_JUMP_ENTRY : 0 };

		f->insns[rank[i]] = pi.in;
		f->insns[rank[i]].text = b->text ? f->strtab + pi.textoff : NULL;
		memcpy(&in_pool[i], &fk, sizeof(fk));
	}
	f->insns_nr = n;
	/* the pool's memory is the fins now, in the pool's order */
	b->pool = NULL;
	shrunk = realloc(in_pool, n * sizeof(*in_pool));
	if (!shrunk)
		shrunk = in_pool;
	*fin = malloc(n * sizeof(**fin));
	if (*fin)
		for (size_t i = 0; i < n; i++)
			(*fin)[rank[i]] = shrunk[i];
	free(shrunk);
	free(rank);
	return *fin ? 0 : -ENOMEM;
}

static int disassemble(struct builder *b)
{
	const struct cfg_input *in = b->in;
	struct seed *seeds = NULL;
	size_t nseeds = 0;
	int ret;

	b->cover = malloc(in->size * sizeof(*b->cover));
	if (!b->cover)
		return -ENOMEM;
	memset(b->cover, 0xff, in->size * sizeof(*b->cover));

	/* the seeds inside the code, one per offset with the weights summed; one off
	 * the architecture's instruction alignment (a damaged stream: no instruction
	 * starts there) is left out, and the caller counts its samples as unaligned */
	if (in->seeds_nr) {
		seeds = malloc(in->seeds_nr * sizeof(*seeds));
		if (!seeds)
			return -ENOMEM;
		for (size_t k = 0; k < in->seeds_nr; k++)
			if (in->seeds[k] < in->size && in->seeds[k] % b->arch->skip == 0)
				seeds[nseeds++] = (struct seed){
					in->seeds[k], in->seed_weights ? in->seed_weights[k] : 1 };
		qsort(seeds, nseeds, sizeof(*seeds), seed_by_off);
		size_t m = 0;

		for (size_t k = 0; k < nseeds; k++) {
			if (m && seeds[m - 1].off == seeds[k].off) {
				uint64_t w = seeds[m - 1].weight + seeds[k].weight;

				seeds[m - 1].weight = w < seeds[k].weight ? UINT64_MAX : w;
			} else {
				seeds[m++] = seeds[k];
			}
		}
		nseeds = m;
	}
	ret = add_words(b);
	if (!ret)
		ret = decode_samples(b, seeds, nseeds);
	/* paths from the samples (by offset), then from the entry, popped first */
	if (!ret && nseeds)
		qsort(seeds, nseeds, sizeof(*seeds), seed_by_off);
	for (size_t k = nseeds; !ret && k--;)
		if (start_at(b, seeds[k].off) >= 0)
			ret = push_todo(b, seeds[k].off);
	free(seeds);
	if (!ret)
		ret = push_todo(b, 0);
	while (!ret && b->todo_nr) {
		uint32_t off = b->todo[--b->todo_nr];

		ret = walk(b, off, start_at(b, off) >= 0 ? b->pool[start_at(b, off)].by : BY_PATH);
	}
	if (!ret)
		ret = sweep(b);
	/* a sampled jalr decoded before its auipc, and reached by no path since */
	for (size_t i = 0; !ret && i < b->pool_nr; i++)
		resolve_pair(b, (long)i);
	return ret;
}

int cfg_decode__insns(struct cfg_func *out, const struct cfg_input *in, const struct arch *arch,
		      struct fin **fin, char *err, size_t errlen)
{
	struct builder b = { .f = out, .arch = arch, .in = in, .text = !(in->flags & CFG_NO_TEXT) };
	int ret;

	*fin = NULL;
	if ((ret = cfg_text__capstone(arch, &b.cs, err, errlen)))
		return ret;
	b.ci = cs_malloc(b.cs);
	ret = b.ci ? disassemble(&b) : -ENOMEM;
	if (b.ci)
		cs_free(b.ci, 1);
	cs_close(&b.cs);
	if (!ret)
		ret = finish_insns(&b, fin);
	free(b.pool);
	free(b.cover);
	free(b.jumps);
	free(b.todo);
	return ret;
}


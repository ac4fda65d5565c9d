/* SPDX-License-Identifier: MIT */
/* Disassemble one JIT code object with capstone 4 and split it into basic blocks. */
#include "cfg.h"
#include "util.h"

#include <capstone/capstone.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Instructions between the address computation and the indirect jump of a jump table
 * sequence: Cranelift emits lea/adr, a sign-extending load, an add, then the jump. */
#define JTAB_LOOKBACK 6

/* Longest assembly cell: capstone's mnemonic[32] + op_str[160] + padding. */
#define TEXT_MAX 200

struct arch {
	int e_machine;
	const char *name;
	cs_arch cs_arch;
	cs_mode cs_mode;
	unsigned skip;			/* bytes capstone skips per undecodable unit */
	const char *target_prefix;	/* how capstone writes an immediate target */
	/* INSN_* of a decoded (id != 0) instruction, with its direct target */
	uint16_t (*classify)(const cs_insn *in, uint64_t *target);
	/* register written with a PC-relative address (lea r, [rip+d] / adr), or 0 */
	unsigned (*addr_of)(const cs_insn *in, uint64_t *addr);
	/* register an indirect jump goes through, or 0 (memory operand) */
	unsigned (*jump_reg)(const cs_insn *in);
	/* decode what capstone 4 does not know; false leaves it data */
	bool (*raw)(const uint8_t *p, size_t n, uint16_t *flags, char *text, size_t len);
};

struct builder {
	struct cfg_func *f;
	const struct arch *arch;
	const uint8_t *code;
	size_t insns_alloc;
	uint32_t *textoff;	/* parallel to f->insns until the strtab stops moving */
	size_t textoff_alloc;
	size_t strtab_nr, strtab_alloc;
	/* the last PC-relative address put in a register, for jump tables */
	unsigned addr_reg;
	uint64_t addr;
	size_t addr_insn;
};

static bool has_group(const cs_insn *in, uint8_t grp)
{
	const cs_detail *d = in->detail;

	for (uint8_t i = 0; i < d->groups_count; i++)
		if (d->groups[i] == grp)
			return true;
	return false;
}

/* x86-64 */

static uint16_t x86_classify(const cs_insn *in, uint64_t *target)
{
	const cs_x86 *x = &in->detail->x86;
	bool imm = x->op_count == 1 && x->operands[0].type == X86_OP_IMM;
	uint16_t flags;

	switch (in->id) {
	case X86_INS_UD2:
#if CS_API_MAJOR >= 5
	case X86_INS_UD1:
#else
	case X86_INS_UD2B:	/* capstone 4's name for ud1 */
#endif
	case X86_INS_UD0:
	case X86_INS_INT3:
	case X86_INS_HLT:
		return INSN_TRAP;
	case X86_INS_JMP:
		flags = INSN_JUMP;
		break;
	case X86_INS_LJMP:	/* far: the selector makes any target meaningless here */
		return INSN_JUMP | INSN_INDIRECT;
	case X86_INS_LCALL:
		return INSN_CALL | INSN_INDIRECT;
	/* loop has no CS_GRP_JUMP in capstone 4 */
	case X86_INS_LOOP:
	case X86_INS_LOOPE:
	case X86_INS_LOOPNE:
	case X86_INS_JRCXZ:
	case X86_INS_JECXZ:
		flags = INSN_COND;
		break;
	default:
		if (has_group(in, CS_GRP_JUMP))
			flags = INSN_COND;
		else if (has_group(in, CS_GRP_CALL))
			flags = INSN_CALL;
		else if (has_group(in, CS_GRP_RET) || has_group(in, CS_GRP_IRET))
			return INSN_RET;
		else
			return 0;
	}
	if (!imm)
		return flags | INSN_INDIRECT;
	*target = (uint64_t)x->operands[0].imm;
	return flags | INSN_HAS_TARGET;
}

static unsigned x86_addr_of(const cs_insn *in, uint64_t *addr)
{
	const cs_x86 *x = &in->detail->x86;

	if (in->id != X86_INS_LEA || x->op_count != 2 || x->operands[0].type != X86_OP_REG ||
	    x->operands[1].type != X86_OP_MEM || x->operands[1].mem.base != X86_REG_RIP ||
	    x->operands[1].mem.index != X86_REG_INVALID)
		return 0;
	*addr = in->address + in->size + (uint64_t)x->operands[1].mem.disp;
	return x->operands[0].reg;
}

static unsigned x86_jump_reg(const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;

	return x->op_count == 1 && x->operands[0].type == X86_OP_REG ? x->operands[0].reg : 0;
}

/* aarch64: capstone 4 puts BL and BLR in CS_GRP_JUMP, so ids decide. */

static uint16_t a64_classify(const cs_insn *in, uint64_t *target)
{
	const cs_arm64 *a = &in->detail->arm64;
	const cs_arm64_op *last = a->op_count ? &a->operands[a->op_count - 1] : NULL;
	uint16_t flags;

	switch (in->id) {
	case ARM64_INS_B:
		flags = a->cc == ARM64_CC_INVALID || a->cc == ARM64_CC_AL ||
			a->cc == ARM64_CC_NV ? INSN_JUMP : INSN_COND;
		break;
	case ARM64_INS_CBZ:
	case ARM64_INS_CBNZ:
	case ARM64_INS_TBZ:
	case ARM64_INS_TBNZ:
		flags = INSN_COND;
		break;
	case ARM64_INS_BL:
		flags = INSN_CALL;
		break;
	case ARM64_INS_BR:
		return INSN_JUMP | INSN_INDIRECT;
	case ARM64_INS_BLR:
		return INSN_CALL | INSN_INDIRECT;
	case ARM64_INS_RET:
	case ARM64_INS_ERET:
	case ARM64_INS_DRPS:
		return INSN_RET;
	case ARM64_INS_BRK:
	case ARM64_INS_HLT:
		return INSN_TRAP;
#if CS_API_MAJOR >= 5
	/* capstone 5 decodes what a64_raw_insns decodes by hand for capstone 4 */
	case ARM64_INS_UDF:
		return INSN_TRAP;
	case ARM64_INS_RETAA:
	case ARM64_INS_RETAB:
	case ARM64_INS_ERETAA:
	case ARM64_INS_ERETAB:
		return INSN_RET;
	case ARM64_INS_BRAA:
	case ARM64_INS_BRAB:
	case ARM64_INS_BRAAZ:
	case ARM64_INS_BRABZ:
		return INSN_JUMP | INSN_INDIRECT;
	case ARM64_INS_BLRAA:
	case ARM64_INS_BLRAB:
	case ARM64_INS_BLRAAZ:
	case ARM64_INS_BLRABZ:
		return INSN_CALL | INSN_INDIRECT;
#endif
	default:
		return 0;
	}
	if (!last || last->type != ARM64_OP_IMM)
		return flags | INSN_INDIRECT;
	*target = (uint64_t)last->imm;
	return flags | INSN_HAS_TARGET;
}

static unsigned a64_addr_of(const cs_insn *in, uint64_t *addr)
{
	const cs_arm64 *a = &in->detail->arm64;

	if (in->id != ARM64_INS_ADR || a->op_count != 2 || a->operands[0].type != ARM64_OP_REG ||
	    a->operands[1].type != ARM64_OP_IMM)
		return 0;
	*addr = (uint64_t)a->operands[1].imm;
	return a->operands[0].reg;
}

static unsigned a64_jump_reg(const cs_insn *in)
{
	const cs_arm64 *a = &in->detail->arm64;

	if (in->id != ARM64_INS_BR || a->op_count != 1 || a->operands[0].type != ARM64_OP_REG)
		return 0;
	return a->operands[0].reg;
}

enum { RAW_NONE, RAW_IMM16, RAW_RN, RAW_RN_RM };

/*
 * Control flow capstone 4.0.2 cannot decode (Armv8.3 pointer authentication; UDF,
 * which Cranelift emits for every trap as "udf #0xc11f"). Encodings from the Arm ARM
 * (DDI 0487), checked against llvm-mc 14.
 */
static const struct a64_raw {
	uint32_t mask, bits;
	const char *mnemonic;
	uint8_t ops;		/* RAW_* */
	uint16_t flags;
} a64_raw_insns[] = {
	{ 0xffff0000, 0x00000000, "udf", RAW_IMM16, INSN_TRAP },
	{ 0xffffffff, 0xd65f0bff, "retaa", RAW_NONE, INSN_RET },
	{ 0xffffffff, 0xd65f0fff, "retab", RAW_NONE, INSN_RET },
	{ 0xffffffff, 0xd69f0bff, "eretaa", RAW_NONE, INSN_RET },
	{ 0xffffffff, 0xd69f0fff, "eretab", RAW_NONE, INSN_RET },
	{ 0xfffffc1f, 0xd61f081f, "braaz", RAW_RN, INSN_JUMP | INSN_INDIRECT },
	{ 0xfffffc1f, 0xd61f0c1f, "brabz", RAW_RN, INSN_JUMP | INSN_INDIRECT },
	{ 0xfffffc00, 0xd71f0800, "braa", RAW_RN_RM, INSN_JUMP | INSN_INDIRECT },
	{ 0xfffffc00, 0xd71f0c00, "brab", RAW_RN_RM, INSN_JUMP | INSN_INDIRECT },
	{ 0xfffffc1f, 0xd63f081f, "blraaz", RAW_RN, INSN_CALL | INSN_INDIRECT },
	{ 0xfffffc1f, 0xd63f0c1f, "blrabz", RAW_RN, INSN_CALL | INSN_INDIRECT },
	{ 0xfffffc00, 0xd73f0800, "blraa", RAW_RN_RM, INSN_CALL | INSN_INDIRECT },
	{ 0xfffffc00, 0xd73f0c00, "blrab", RAW_RN_RM, INSN_CALL | INSN_INDIRECT },
};

static void a64_xreg(char *buf, size_t len, unsigned r, const char *r31)
{
	if (r == 31)
		snprintf(buf, len, "%s", r31);
	else
		snprintf(buf, len, "x%u", r);
}

static bool a64_raw(const uint8_t *p, size_t n, uint16_t *flags, char *text, size_t len)
{
	char rn[8], rm[8];
	uint32_t w;

	if (n != 4)
		return false;
	w = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
	for (size_t i = 0; i < sizeof(a64_raw_insns) / sizeof(a64_raw_insns[0]); i++) {
		const struct a64_raw *r = &a64_raw_insns[i];

		if ((w & r->mask) != r->bits)
			continue;
		a64_xreg(rn, sizeof(rn), w >> 5 & 31, "xzr");
		a64_xreg(rm, sizeof(rm), w & 31, "sp");
		switch (r->ops) {
		case RAW_NONE:
			snprintf(text, len, "%s", r->mnemonic);
			break;
		case RAW_IMM16:
			snprintf(text, len, "%-7s #0x%x", r->mnemonic, w & 0xffff);
			break;
		case RAW_RN:
			snprintf(text, len, "%-7s %s", r->mnemonic, rn);
			break;
		default:
			snprintf(text, len, "%-7s %s, %s", r->mnemonic, rn, rm);
		}
		*flags = r->flags;
		return true;
	}
	return false;
}

static const struct arch arches[] = {
	{ 62, "x86-64", CS_ARCH_X86, CS_MODE_64, 1, "0x",
	  x86_classify, x86_addr_of, x86_jump_reg, NULL },
	{ 183, "aarch64", CS_ARCH_ARM64, CS_MODE_ARM, 4, "#0x",
	  a64_classify, a64_addr_of, a64_jump_reg, a64_raw },
};

/* Building */

/* p itself when it already holds want elements, else p moved and grown; NULL if out
 * of memory (p untouched). */
static void *grow(void *p, size_t *alloc, size_t want, size_t elem)
{
	size_t n = *alloc ? *alloc : 64;

	if (want <= *alloc)
		return p;
	while (n < want)
		n *= 2;
	if (n > SIZE_MAX / elem || !(p = realloc(p, n * elem)))
		return NULL;
	*alloc = n;
	return p;
}

/* Append one instruction; its text is what fmt makes of the arguments. */
static int add_insn(struct builder *b, uint32_t off, uint16_t size, uint16_t flags,
		    uint64_t target, const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static int add_insn(struct builder *b, uint32_t off, uint16_t size, uint16_t flags,
		    uint64_t target, const char *fmt, ...)
{
	struct cfg_func *f = b->f;
	struct cfg_insn *in;
	va_list ap;
	void *p;
	int n;

	p = grow(f->insns, &b->insns_alloc, f->insns_nr + 1, sizeof(*f->insns));
	if (!p)
		return -ENOMEM;
	f->insns = p;
	p = grow(b->textoff, &b->textoff_alloc, f->insns_nr + 1, sizeof(*b->textoff));
	if (!p)
		return -ENOMEM;
	b->textoff = p;
	p = grow(f->strtab, &b->strtab_alloc, b->strtab_nr + TEXT_MAX, 1);
	if (!p)
		return -ENOMEM;
	f->strtab = p;
	va_start(ap, fmt);
	n = vsnprintf(f->strtab + b->strtab_nr, TEXT_MAX, fmt, ap);
	va_end(ap);
	if (n < 0)
		n = 0;
	if (n >= TEXT_MAX)
		n = TEXT_MAX - 1;
	in = &f->insns[f->insns_nr];
	in->off = off;
	in->size = size;
	in->flags = flags;
	in->target = target;
	in->text = NULL;
	b->textoff[f->insns_nr++] = b->strtab_nr;
	b->strtab_nr += n + 1;
	return 0;
}

/* "{mnemonic:7} {operands}" as the reference prints it, targets function-relative. */
static int add_cs_insn(struct builder *b, const cs_insn *in, uint16_t flags, uint64_t target)
{
	const char *ops = in->op_str, *last;

	if (!*ops)
		return add_insn(b, in->address, in->size, flags, target, "%s", in->mnemonic);
	if (!(flags & INSN_HAS_TARGET))
		return add_insn(b, in->address, in->size, flags, target, "%-7s %s",
				in->mnemonic, ops);
	/* capstone writes a target of 0 as "0" / "#0": make every target 0x<hex> */
	last = strrchr(ops, ' ');
	last = last ? last + 1 : ops;
	return add_insn(b, in->address, in->size, flags, target, "%-7s %.*s%s%" PRIx64,
			in->mnemonic, (int)(last - ops), ops, b->arch->target_prefix, target);
}

/* Bytes capstone gave up on: its own ".byte 0x.." rendering, up to 4 bytes. */
static int add_data(struct builder *b, uint32_t off, const uint8_t *p, size_t n)
{
	char text[TEXT_MAX];
	uint16_t flags = INSN_DATA;
	size_t len = 0;

	if (b->arch->raw && b->arch->raw(p, n, &flags, text, sizeof(text)))
		return add_insn(b, off, n, flags, 0, "%s", text);
	len += snprintf(text, sizeof(text), "%-7s ", ".byte");
	for (size_t i = 0; i < n && len < sizeof(text); i++)
		len += snprintf(text + len, sizeof(text) - len, "%s0x%02x", i ? ", " : "", p[i]);
	return add_insn(b, off, n, flags, 0, "%s", text);
}

/*
 * A Cranelift br_table (x64 JmpTableSeq, aarch64 JTSequence) is
 *	lea r, [rip + T] / adr r, T;  load;  add;  jmp r / br r;  T: .long case - T ...
 * with the table inline, right after the jump. Decoding the table as code would
 * desynchronise the cases that follow, so it becomes data. The entry count is not
 * encoded anywhere near, so entries are taken while they point into the function
 * outside the table, and the table stops at the first case that lies after it.
 * *taken is the number of bytes of table (0: not a table after all).
 */
static int add_jump_table(struct builder *b, uint32_t start, size_t size, size_t *taken)
{
	int64_t limit = size, pos = start;
	int ret;

	*taken = 0;
	while (pos + 4 <= limit) {
		const uint8_t *p = b->code + pos;
		int32_t e = (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 |
				      (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24);
		int64_t t = (int64_t)start + e;

		if (t < 0 || t >= (int64_t)size || (t >= start && t < pos + 4))
			break;
		if (t % b->arch->skip)
			break;
		ret = add_insn(b, pos, 4, INSN_DATA | INSN_TABLE | INSN_HAS_TARGET, t,
			       "%-7s 0x%" PRIx64 " - 0x%" PRIx32, ".long", (uint64_t)t, start);
		if (ret)
			return ret;
		if (t > pos && t < limit)
			limit = t;
		pos += 4;
	}
	*taken = pos - start;
	return 0;
}

static int decode(struct builder *b, csh cs, cs_insn *ci, size_t size)
{
	const struct arch *arch = b->arch;
	const uint8_t *p = b->code;
	uint64_t addr = 0;
	size_t left = size;
	int ret;

	while (left) {
		uint64_t target = 0, a;
		uint16_t flags;
		unsigned reg;
		size_t taken;

		if (!cs_disasm_iter(cs, &p, &left, &addr, ci)) {
			/* only a tail shorter than one skipdata unit stops capstone */
			size_t n = left < arch->skip ? left : arch->skip;

			ret = add_data(b, addr, p, n);
			if (ret)
				return ret;
			p += n;
			left -= n;
			addr += n;
			continue;
		}
		/* skipdata pseudo-instructions carry a stale detail: look at id first */
		if (!ci->id) {
			ret = add_data(b, ci->address, ci->bytes, ci->size);
			if (ret)
				return ret;
			continue;
		}
		flags = arch->classify(ci, &target);
		ret = add_cs_insn(b, ci, flags, target);
		if (ret)
			return ret;
		reg = arch->addr_of(ci, &a);
		if (reg) {
			b->addr_reg = reg;
			b->addr = a;
			b->addr_insn = b->f->insns_nr - 1;
			continue;
		}
		if ((flags & (INSN_JUMP | INSN_INDIRECT)) != (INSN_JUMP | INSN_INDIRECT) ||
		    !b->addr_reg || b->addr != addr ||
		    b->f->insns_nr - 1 - b->addr_insn > JTAB_LOOKBACK ||
		    arch->jump_reg(ci) != b->addr_reg)
			continue;
		ret = add_jump_table(b, addr, size, &taken);
		if (ret)
			return ret;
		p += taken;
		left -= taken;
		addr += taken;
		b->addr_reg = 0;
	}
	return 0;
}

static bool ends_block(uint16_t flags)
{
	return flags & (INSN_JUMP | INSN_COND | INSN_RET | INSN_TRAP);
}

static bool has_branch_target(const struct cfg_insn *in)
{
	return (in->flags & INSN_HAS_TARGET) &&
	       (in->flags & (INSN_JUMP | INSN_COND | INSN_CALL | INSN_TABLE));
}

/* Index of the instruction at a target inside [0, end), or -1. */
static long target_insn(const struct cfg_func *f, const struct cfg_insn *in, uint32_t end)
{
	if (!has_branch_target(in) || in->target >= end)
		return -1;
	return cfg_func__insn_at(f, in->target);
}

/* Depth-first walk from offset 0; returns the end of the highest instruction reached. */
static int reach(struct cfg_func *f, uint32_t *code_end)
{
	size_t n = f->insns_nr, sp = 0, *stack;
	uint8_t *seen;
	uint32_t end = 0;

	*code_end = 0;
	if (!n)
		return 0;
	seen = calloc(n, 1);
	stack = malloc(n * sizeof(*stack));
	if (!seen || !stack) {
		free(seen);
		free(stack);
		return -ENOMEM;
	}
	seen[0] = 1;
	stack[sp++] = 0;
	while (sp) {
		size_t i = stack[--sp];
		const struct cfg_insn *in = &f->insns[i];
		long succ[2] = { -1, -1 };

		if (in->off + in->size > end)
			end = in->off + in->size;
		if (in->flags & INSN_TABLE)
			continue;
		if (!ends_block(in->flags) || (in->flags & INSN_COND))
			succ[0] = i + 1 < n ? (long)(i + 1) : -1;
		succ[1] = target_insn(f, in, f->size);
		/* the cases of a recognised table are the successors of its jump */
		if ((in->flags & INSN_INDIRECT) && (in->flags & INSN_JUMP))
			for (size_t j = i + 1; j < n && (f->insns[j].flags & INSN_TABLE); j++) {
				long t = target_insn(f, &f->insns[j], f->size);

				if (!seen[j]) {
					seen[j] = 1;
					stack[sp++] = j;
				}
				if (t >= 0 && !seen[t]) {
					seen[t] = 1;
					stack[sp++] = t;
				}
			}
		for (int k = 0; k < 2; k++)
			if (succ[k] >= 0 && !seen[succ[k]]) {
				seen[succ[k]] = 1;
				stack[sp++] = succ[k];
			}
	}
	free(seen);
	free(stack);
	*code_end = end;
	return 0;
}

static int split(struct cfg_func *f)
{
	size_t n = 0, nblocks = 0;
	uint8_t *leader;

	while (n < f->insns_nr && f->insns[n].off < f->code_end)
		n++;
	if (!n)
		return 0;
	leader = calloc(n, 1);
	if (!leader)
		return -ENOMEM;
	leader[0] = 1;
	for (size_t i = 0; i < n; i++) {
		const struct cfg_insn *in = &f->insns[i];
		long t = target_insn(f, in, f->code_end);

		if (t >= 0)
			leader[t] = 1;
		else if (has_branch_target(in) && in->target < f->code_end)
			f->bad_targets++;
		if (i + 1 < n && (ends_block(in->flags) ||
				  ((in->flags & INSN_TABLE) && !(f->insns[i + 1].flags & INSN_TABLE))))
			leader[i + 1] = 1;
	}
	for (size_t i = 0; i < n; i++)
		nblocks += leader[i];
	f->blocks = calloc(nblocks, sizeof(*f->blocks));
	if (!f->blocks) {
		free(leader);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		struct cfg_block *blk;

		if (leader[i]) {
			blk = &f->blocks[f->blocks_nr++];
			blk->start = f->insns[i].off;
			blk->first = i;
		}
		blk = &f->blocks[f->blocks_nr - 1];
		blk->end = f->insns[i].off + f->insns[i].size;
		blk->nr++;
	}
	free(leader);
	return 0;
}

int cfg_func__build(struct cfg_func *out, int e_machine, const uint8_t *code, size_t size,
		    unsigned int flags, char *err, size_t errlen)
{
	struct builder b = { .f = out, .code = code };
	cs_insn *ci;
	cs_err cerr;
	csh cs;
	int ret;

	memset(out, 0, sizeof(*out));
	for (size_t i = 0; i < sizeof(arches) / sizeof(arches[0]); i++)
		if (arches[i].e_machine == e_machine)
			b.arch = &arches[i];
	if (!b.arch) {
		seterr(err, errlen, "cannot disassemble e_machine %d: only x86-64 (62) and "
		       "aarch64 (183) are supported", e_machine);
		return -ENOTSUP;
	}
	if (size > UINT32_MAX) {
		seterr(err, errlen, "%s code of %zu bytes is too large", b.arch->name, size);
		return -ERANGE;
	}
	out->size = size;
	if (!size)
		return 0;

	cerr = cs_open(b.arch->cs_arch, b.arch->cs_mode, &cs);
	if (cerr != CS_ERR_OK) {
		seterr(err, errlen, "capstone cannot open %s: %s", b.arch->name, cs_strerror(cerr));
		return cerr == CS_ERR_MEM ? -ENOMEM : -ENOTSUP;
	}
	/* Intel syntax is capstone's x86 default, as in the reference */
	cs_option(cs, CS_OPT_DETAIL, CS_OPT_ON);
	cs_option(cs, CS_OPT_SKIPDATA, CS_OPT_ON);
	ci = cs_malloc(cs);
	if (!ci) {
		cs_close(&cs);
		ret = -ENOMEM;
		goto out_err;
	}
	ret = decode(&b, cs, ci, size);
	cs_free(ci, 1);
	cs_close(&cs);
	if (ret)
		goto out_err;

	/* strtab no longer moves */
	for (size_t i = 0; i < out->insns_nr; i++)
		out->insns[i].text = out->strtab + b.textoff[i];
	free(b.textoff);
	b.textoff = NULL;

	ret = reach(out, &out->code_end);
	if (!ret && !(flags & CFG_TRAILING_DATA) && out->insns_nr) {
		const struct cfg_insn *last = &out->insns[out->insns_nr - 1];

		out->code_end = last->off + last->size;
	}
	if (!ret)
		ret = split(out);
	if (!ret)
		return 0;
out_err:
	free(b.textoff);
	cfg_func__release(out);
	seterr(err, errlen, "out of memory disassembling %zu bytes", size);
	return ret;
}

long cfg_func__insn_at(const struct cfg_func *f, uint32_t off)
{
	size_t lo = 0, hi = f->insns_nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->insns[mid].off == off)
			return mid;
		if (f->insns[mid].off < off)
			lo = mid + 1;
		else
			hi = mid;
	}
	return -1;
}

long cfg_func__block_at(const struct cfg_func *f, uint32_t off)
{
	size_t lo = 0, hi = f->blocks_nr;

	/* first block starting after off; the one before it may contain off */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->blocks[mid].start <= off)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || off >= f->blocks[lo - 1].end)
		return -1;
	return lo - 1;
}

int cfg__capstone_version(int *minor)
{
	int major, min;

	cs_version(&major, &min);
	if (minor)
		*minor = min;
	return major;
}

void cfg_func__release(struct cfg_func *f)
{
	free(f->insns);
	free(f->blocks);
	free(f->strtab);
	memset(f, 0, sizeof(*f));
}

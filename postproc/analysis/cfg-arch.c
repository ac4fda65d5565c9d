/* SPDX-License-Identifier: MIT */
/*
 * Per architecture, what a decoded instruction does to control flow: x86-64,
 * aarch64, and (capstone 5) s390x and riscv64 through capstone's details; the
 * aarch64 instructions capstone 4 cannot decode, by their encodings.
 */
#include <stdio.h>
#include <string.h>

#include "cfg-arch.h"
#include "insn.h"
#include "../plugin/lib/byteorder.h"
#include "lib/util.h"

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

static unsigned x86_jump_reg(const cs_insn *in, int32_t *disp)
{
	const cs_x86 *x = &in->detail->x86;

	*disp = 0;
	return x->op_count == 1 && x->operands[0].type == X86_OP_REG ? x->operands[0].reg : 0;
}

static unsigned x86_jump_mem(const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;
	const cs_x86_op *op = &x->operands[0];

	if (x->op_count != 1 || op->type != X86_OP_MEM || op->size != 8 || op->mem.disp ||
	    op->mem.scale != 8 || op->mem.index == X86_REG_INVALID ||
	    op->mem.base == X86_REG_INVALID || op->mem.base == X86_REG_RIP ||
	    op->mem.segment != X86_REG_INVALID)
		return 0;
	return op->mem.base;
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

static unsigned a64_jump_reg(const cs_insn *in, int32_t *disp)
{
	const cs_arm64 *a = &in->detail->arm64;

	*disp = 0;
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
	w = get_le32(p);
	for (size_t i = 0; i < ARRAY_SIZE(a64_raw_insns); i++) {
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

#if CS_API_MAJOR >= 5
/*
 * s390x (z/Architecture), as Cranelift emits it: calls are brasl/basr %r14,
 * a return is br %r14, a jump table is larl %r1, T; agf %r1, 0(%r2,%r1);
 * br %r1 with big-endian 32-bit entries relative to T right after the br.
 * Conditional branches are capstone's jump group; their immediate is the target.
 */
static unsigned sz_reg(const cs_insn *in, unsigned k)
{
	const cs_sysz *z = &in->detail->sysz;

	return k < z->op_count && z->operands[k].type == SYSZ_OP_REG ? z->operands[k].reg : 0;
}

static uint16_t sz_classify(const cs_insn *in, uint64_t *target)
{
	const cs_sysz *z = &in->detail->sysz;
	const cs_sysz_op *last = z->op_count ? &z->operands[z->op_count - 1] : NULL;
	uint16_t flags;

	/* a branch address register of 0 means no branch (bcr 14, 0 is a fence) */
	if (last && last->type == SYSZ_OP_REG && last->reg == SYSZ_REG_0 &&
	    (has_group(in, CS_GRP_JUMP) || in->id == SYSZ_INS_BASR || in->id == SYSZ_INS_BALR))
		return 0;
	switch (in->id) {
	case SYSZ_INS_BRAS:
	case SYSZ_INS_BRASL:
		flags = INSN_CALL;
		break;
	case SYSZ_INS_BASR:
	case SYSZ_INS_BALR:
	case SYSZ_INS_BAS:
	case SYSZ_INS_BAL:
	case SYSZ_INS_BASSM:
		return INSN_CALL | INSN_INDIRECT;
	case SYSZ_INS_BR:
		return sz_reg(in, 0) == SYSZ_REG_14 ? INSN_RET : INSN_JUMP | INSN_INDIRECT;
	case SYSZ_INS_J:
	case SYSZ_INS_JG:
		flags = INSN_JUMP;
		break;
	case SYSZ_INS_B:
		return INSN_JUMP | INSN_INDIRECT;
	case SYSZ_INS_TRAP2:
	case SYSZ_INS_TRAP4:
		return INSN_TRAP;
	default:
		if (!has_group(in, CS_GRP_JUMP))
			return 0;
		flags = INSN_COND;
	}
	if (!last || last->type != SYSZ_OP_IMM)
		return flags | INSN_INDIRECT;
	*target = (uint64_t)last->imm;
	/* Cranelift's conditional trap: brcl M, .+2 branches into its own second
	 * halfword, 0x0000, which traps. Like a compare-and-trap, it does not end
	 * its block, and its target is no instruction. */
	if (flags == INSN_COND && *target == in->address + 2 && in->size == 6 &&
	    !in->bytes[2] && !in->bytes[3])
		return 0;
	return flags | INSN_HAS_TARGET;
}

static unsigned sz_addr_of(const cs_insn *in, uint64_t *addr)
{
	const cs_sysz *z = &in->detail->sysz;

	if (in->id != SYSZ_INS_LARL || z->op_count != 2 || z->operands[0].type != SYSZ_OP_REG ||
	    z->operands[1].type != SYSZ_OP_IMM)
		return 0;
	*addr = (uint64_t)z->operands[1].imm;
	return z->operands[0].reg;
}

static unsigned sz_jump_reg(const cs_insn *in, int32_t *disp)
{
	*disp = 0;
	return in->id == SYSZ_INS_BR ? sz_reg(in, 0) : 0;
}

/* The halfword 0x0000 is no instruction (operation exception): Cranelift's trap. */
static bool sz_raw(const uint8_t *p, size_t n, uint16_t *flags, char *text, size_t len)
{
	if (n != 2 || p[0] || p[1])
		return false;
	snprintf(text, len, "%-7s 0x00, 0x00", ".byte");
	*flags = INSN_TRAP;
	return true;
}

/* The first two bits of an opcode give the length: 00 two bytes, 01 and 10
 * four, 11 six. */
static size_t sz_insn_len(const uint8_t *p, size_t n)
{
	static const uint8_t len[4] = { 2, 4, 4, 6 };

	return n ? len[p[0] >> 6] : 0;
}

/*
 * riscv64 (RV64GC). capstone puts jal and jalr in its call group whatever
 * register they link, so the encoding's rd decides; its branch immediates are
 * relative to the instruction. Cranelift jumps far with auipc + jalr, and its
 * jump table is code: auipc rT, 0; slli; add rT, rT, rI; jalr x0, 16(rT)
 * into one auipc + jalr jump per entry right after it.
 */
static uint32_t rv_word(const cs_insn *in)
{
	return in->size == 4 ? get_le32(in->bytes) : (uint32_t)(in->bytes[0] | in->bytes[1] << 8);
}

static uint16_t rv_classify(const cs_insn *in, uint64_t *target)
{
	const cs_riscv *r = &in->detail->riscv;
	const cs_riscv_op *last = r->op_count ? &r->operands[r->op_count - 1] : NULL;
	uint32_t w = rv_word(in), rd = w >> 7 & 31, rs1 = w >> 15 & 31;
	uint16_t flags;

	switch (in->id) {
	case RISCV_INS_JAL:
		flags = rd ? INSN_CALL : INSN_JUMP;
		break;
	case RISCV_INS_C_J:
		flags = INSN_JUMP;
		break;
	case RISCV_INS_C_JAL:
		flags = INSN_CALL;
		break;
	case RISCV_INS_JALR:
		if (rd)
			return INSN_CALL | INSN_INDIRECT;
		/* jalr x0, 0(ra) */
		return rs1 == 1 && !(w >> 20) ? INSN_RET : INSN_JUMP | INSN_INDIRECT;
	case RISCV_INS_C_JR:
		/* c.jr rs1 (bits 7-11); c.jr ra is a return */
		return rd == 1 ? INSN_RET : INSN_JUMP | INSN_INDIRECT;
	case RISCV_INS_C_JALR:
		return INSN_CALL | INSN_INDIRECT;
	case RISCV_INS_BEQ:
	case RISCV_INS_BNE:
	case RISCV_INS_BLT:
	case RISCV_INS_BGE:
	case RISCV_INS_BLTU:
	case RISCV_INS_BGEU:
	case RISCV_INS_C_BEQZ:
	case RISCV_INS_C_BNEZ:
		flags = INSN_COND;
		break;
	case RISCV_INS_EBREAK:
	case RISCV_INS_C_EBREAK:
	case RISCV_INS_UNIMP:
	case RISCV_INS_C_UNIMP:
		return INSN_TRAP;
	case RISCV_INS_MRET:
	case RISCV_INS_SRET:
	case RISCV_INS_URET:
		return INSN_RET;
	default:
		return 0;
	}
	if (!last || last->type != RISCV_OP_IMM)
		return flags | INSN_INDIRECT;
	*target = in->address + (uint64_t)last->imm;
	return flags | INSN_HAS_TARGET;
}

/* Registers are numbered as in the encoding (x1..x31; x0 is none). */
static unsigned rv_addr_of(const cs_insn *in, uint64_t *addr)
{
	uint32_t w = rv_word(in);

	if (in->id != RISCV_INS_AUIPC)
		return 0;
	*addr = in->address + (uint64_t)(int64_t)(int32_t)(w & 0xfffff000);
	return w >> 7 & 31;
}

static unsigned rv_jump_reg(const cs_insn *in, int32_t *disp)
{
	uint32_t w = rv_word(in);

	*disp = 0;
	if (in->id == RISCV_INS_C_JR)
		return w >> 7 & 31;
	if (in->id != RISCV_INS_JALR)
		return 0;
	*disp = (int32_t)w >> 20;
	return w >> 15 & 31;
}

/* Two low bits 11: a 32-bit instruction, else a compressed 16-bit one. */
static size_t rv_insn_len(const uint8_t *p, size_t n)
{
	return n ? ((p[0] & 3) == 3 ? 4 : 2) : 0;
}
#endif

static const struct arch arches[] = {
	{ 62, "x86-64", CS_ARCH_X86, CS_MODE_64, 1, "0x", 0,
	  x86_classify, x86_addr_of, x86_jump_reg, x86_jump_mem, NULL, NULL },
	{ 183, "aarch64", CS_ARCH_ARM64, CS_MODE_ARM, 4, "#0x", 0,
	  a64_classify, a64_addr_of, a64_jump_reg, NULL, a64_raw, NULL },
#if CS_API_MAJOR >= 5
	{ 22, "s390x", CS_ARCH_SYSZ, CS_MODE_BIG_ENDIAN, 2, "0x", ARCH_BIG_ENDIAN,
	  sz_classify, sz_addr_of, sz_jump_reg, NULL, sz_raw, sz_insn_len },
	{ 243, "riscv64", CS_ARCH_RISCV, CS_MODE_RISCV64 | CS_MODE_RISCVC, 2, "0x", ARCH_JUMP_PAIRS,
	  rv_classify, rv_addr_of, rv_jump_reg, NULL, NULL, rv_insn_len },
#endif
};

const struct arch *cfg_arch__find(int e_machine)
{
	for (size_t i = 0; i < ARRAY_SIZE(arches); i++)
		if (arches[i].e_machine == e_machine)
			return &arches[i];
	return NULL;
}

const char *cfg_arch__supported(void)
{
#if CS_API_MAJOR >= 5
	return "x86-64 (62), aarch64 (183), s390x (22) and riscv64 (243)";
#else
	return "x86-64 (62) and aarch64 (183) (s390x and riscv64 need capstone 5)";
#endif
}

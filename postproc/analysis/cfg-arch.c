/* SPDX-License-Identifier: MIT */
/*
 * Per architecture, what a decoded instruction does to control flow: x86-64
 * and aarch64 through capstone's details, and the aarch64 instructions
 * capstone 4 cannot decode, by their encodings.
 */
#include <stdio.h>
#include <string.h>

#include "cfg.h"
#include "cfg-arch.h"
#include "lib/little-endian.h"
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

static unsigned x86_jump_reg(const cs_insn *in)
{
	const cs_x86 *x = &in->detail->x86;

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

static const struct arch arches[] = {
	{ 62, "x86-64", CS_ARCH_X86, CS_MODE_64, 1, "0x",
	  x86_classify, x86_addr_of, x86_jump_reg, x86_jump_mem, NULL },
	{ 183, "aarch64", CS_ARCH_ARM64, CS_MODE_ARM, 4, "#0x",
	  a64_classify, a64_addr_of, a64_jump_reg, NULL, a64_raw },
};

const struct arch *cfg_arch__find(int e_machine)
{
	for (size_t i = 0; i < ARRAY_SIZE(arches); i++)
		if (arches[i].e_machine == e_machine)
			return &arches[i];
	return NULL;
}

/* SPDX-License-Identifier: MIT */
/* The assembly cell of an instruction, written one way (cfg-text.h). */
#include <capstone/capstone.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cfg-text.h"
#include "../plugin/lib/byteorder.h"
#include "lib/util.h"

/* "{mnemonic:7} {operands}" as the reference prints it, targets function-relative. */
void cfg_text__cs(char buf[CFG_TEXT_MAX], const struct arch *arch, const cs_insn *in,
		  uint16_t flags, uint64_t target, uint64_t size, uint64_t addr)
{
	const char *ops = in->op_str, *last;

	/* outside the function: the address it goes to, never an offset
	 * before the function wrapped to 64 bits (report_row.target_name) */
	if (target >= size)
		target += addr;
	if (!*ops) {
		snprintf(buf, CFG_TEXT_MAX, "%s", in->mnemonic);
	} else if (!(flags & INSN_HAS_TARGET)) {
		snprintf(buf, CFG_TEXT_MAX, "%-7s %s", in->mnemonic, ops);
	} else {
		/* capstone writes a target of 0 as "0" / "#0": make every target 0x<hex> */
		last = strrchr(ops, ' ');
		last = last ? last + 1 : ops;
		snprintf(buf, CFG_TEXT_MAX, "%-7s %.*s%s%" PRIx64, in->mnemonic, (int)(last - ops), ops,
			 arch->target_prefix, target);
	}
}

/* ".byte   0x.., 0x.." for n bytes capstone gave up on, or the architecture's
 * own decoding of them (not of data cut short), which sets *flags. */
void cfg_text__data(char buf[CFG_TEXT_MAX], const struct arch *arch, const uint8_t *p, size_t n,
		    bool cut, uint16_t *flags)
{
	size_t len;

	if (!cut && arch->raw && arch->raw(p, n, flags, buf, CFG_TEXT_MAX))
		return;
	len = (size_t)snprintf(buf, CFG_TEXT_MAX, "%-7s ", ".byte");
	for (size_t i = 0; i < n && len < CFG_TEXT_MAX; i++)
		len += (size_t)snprintf(buf + len, CFG_TEXT_MAX - len, "%s0x%02x", i ? ", " : "", p[i]);
}

void cfg_text__word(char buf[CFG_TEXT_MAX], const struct arch *arch, const uint8_t *p, size_t n)
{
	static const char *const dir[9] = { [1] = ".byte", [2] = ".short", [4] = ".long", [8] = ".quad" };
	uint64_t v = 0;

	if (n > 8 || !dir[n]) {
		cfg_text__data(buf, arch, p, n, true, &(uint16_t){ 0 });
		return;
	}
	for (size_t i = 0; i < n; i++)
		v = arch->flags & ARCH_BIG_ENDIAN ? v << 8 | p[i] : v | (uint64_t)p[i] << (8 * i);
	snprintf(buf, CFG_TEXT_MAX, "%-7s 0x%" PRIx64, dir[n], v);
}

/* A jump table's entry of width bytes sending control to target: relative to
 * the table's start, or a run-time address of a function at addr. */
void cfg_text__table(char buf[CFG_TEXT_MAX], unsigned width, uint64_t target, uint32_t start,
		     uint64_t addr)
{
	if (width == 4)
		snprintf(buf, CFG_TEXT_MAX, "%-7s 0x%" PRIx64 " - 0x%" PRIx32, ".long", target, start);
	else
		snprintf(buf, CFG_TEXT_MAX, "%-7s 0x%" PRIx64 " + 0x%" PRIx64, ".quad", addr, target);
}

/* capstone's skipdata callback: the length of the undecodable instruction at offset. */
static size_t skip_insn(const uint8_t *code, size_t size, size_t offset, void *arch)
{
	return offset < size ? ((const struct arch *)arch)->insn_len(code + offset, size - offset) : 0;
}

int cfg_text__capstone(const struct arch *arch, csh *cs, char *err, size_t errlen)
{
	cs_err cerr = cs_open(arch->cs_arch, arch->cs_mode, cs);

	if (cerr != CS_ERR_OK) {
		return errf(err, errlen, cerr == CS_ERR_MEM ? -ENOMEM : -ENOTSUP,
			    "capstone cannot open %s: %s", arch->name, cs_strerror(cerr));
	}
	/* Intel syntax is capstone's x86 default, as in the reference */
	cs_option(*cs, CS_OPT_DETAIL, CS_OPT_ON);
	cs_option(*cs, CS_OPT_SKIPDATA, CS_OPT_ON);
	if (arch->insn_len) {
		/* undecodable bytes: one data row per instruction the encoding announces */
		cs_opt_skipdata sd = { .callback = skip_insn, .user_data = (void *)arch };

		cs_option(*cs, CS_OPT_SKIPDATA_SETUP, (size_t)&sd);
	}
	return 0;
}

struct cfg_text {
	const struct arch *arch;
	struct cfg_input in;
	csh cs;
	cs_insn *ci;
};

int cfg_text__open(struct cfg_text **out, const struct cfg_input *in, char *err, size_t errlen)
{
	const struct arch *arch = cfg_arch__find(in->e_machine);
	struct cfg_text *t;
	int ret;

	*out = NULL;
	if (!arch)
		return errf(err, errlen, -ENOTSUP, "cannot disassemble e_machine %d", in->e_machine);
	if (!(t = calloc(1, sizeof(*t))))
		return -ENOMEM;
	t->arch = arch;
	t->in = *in;
	if ((ret = cfg_text__capstone(arch, &t->cs, err, errlen))) {
		free(t);
		return ret;
	}
	if (!(t->ci = cs_malloc(t->cs))) {
		cs_close(&t->cs);
		free(t);
		return -ENOMEM;
	}
	*out = t;
	return 0;
}

/*
 * What decode_at, add_data_rows and add_table wrote for the instruction at
 * insn->off: the row's flags say which of them made it, and the bytes there
 * say the rest (capstone decodes an offset alike whoever asks first).
 */
const char *cfg_text__insn(struct cfg_text *t, const struct cfg_insn *insn, char buf[CFG_TEXT_MAX])
{
	const struct arch *arch = t->arch;
	const uint8_t *p = t->in.code + insn->off;
	size_t left = t->in.size > insn->off ? t->in.size - insn->off : 0;
	uint64_t addr = insn->off, target = 0;
	uint16_t flags = INSN_DATA;

	if (insn->size > left) {
		snprintf(buf, CFG_TEXT_MAX, "%s", "?");
		return buf;
	}
	if (insn->flags & INSN_TABLE) {
		uint32_t start = insn->off;

		if (insn->size == 4) {
			uint32_t e = arch->flags & ARCH_BIG_ENDIAN ?
				     (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3] :
				     get_le32(p);

			/* target = start + (int32_t)e: the table's start again */
			start = (uint32_t)(insn->target - (uint64_t)(int64_t)(int32_t)e);
		}
		cfg_text__table(buf, insn->size, insn->target, start, t->in.addr);
	} else if (insn->flags & INSN_WORD) {
		cfg_text__word(buf, arch, p, insn->size);
	} else if (insn->flags & INSN_CUT) {
		cfg_text__data(buf, arch, p, insn->size, true, &flags);
	} else if (!cs_disasm_iter(t->cs, &p, &left, &addr, t->ci)) {
		cfg_text__data(buf, arch, t->in.code + insn->off, insn->size, false, &flags);
	} else if (!t->ci->id) {
		cfg_text__data(buf, arch, t->ci->bytes, t->ci->size, false, &flags);
	} else {
		/* its flags as decoding found them, before a riscv64 pair made a
		 * jump direct (whose text stays capstone's) */
		flags = arch->classify(t->ci, &target);
		cfg_text__cs(buf, arch, t->ci, flags, target, t->in.size, t->in.addr);
	}
	return buf;
}

void cfg_text__close(struct cfg_text *t)
{
	if (!t)
		return;
	cs_free(t->ci, 1);
	cs_close(&t->cs);
	free(t);
}

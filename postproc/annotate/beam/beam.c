/* SPDX-License-Identifier: MIT */
/* Erlang/OTP's BeamAsm: its row, its two loads of one function, the data among its code (see beam.h). */
#include <stdlib.h>
#include <string.h>

#include "beam.h"

const struct jit_runtime jit_beam = {
	.name = "BEAM (Erlang/OTP)",
	/* its map's `$` says too little alone; the emulator's file tells */
	.map_files = (const char *const[]){ "beam.smp", NULL },
	.jitdump = "erl +JPperf true writes a jitdump too (/tmp/jit-PID.dump)",
};

bool beam__is_prologue(const char *name, size_t *body_len)
{
	return jit_beam__is_prologue(name, body_len);
}

static uint64_t le64(const uint8_t *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* The arity of `M:F/A`, or -1. */
static long name_arity(const char *body)
{
	const char *slash = strrchr(body, '/');
	char *end;
	long a;

	if (!slash || !slash[1] || slash[1] < '0' || slash[1] > '9')
		return -1;
	a = strtol(slash + 1, &end, 10);
	return *end ? -1 : a;
}

/*
 * x86-64, OTP 24 and 25. How it was established: from BeamAsm's source,
 * erts/emulator/beam/jit/x86/beam_asm_module.cpp (emit_i_func_info,
 * emit_i_breakpoint_trampoline), and checked on the bytes of all 7775
 * prologues of test-data/jit-beam's jitdump (OTP 25.2.3):
 *
 *   0x00  ErtsCodeInfo.op: `call` the module's func_info trampoline (e8 rel32;
 *         raises function_clause, the return address naming the MFA), then
 *         `nop` to 8 bytes (0f 1f 00): code, reached when no clause matches
 *   0x08  ErtsCodeInfo.u (gen_bp: the breakpoint data, 0 until traced)  .quad
 *   0x10  mfa.module, the atom                                           .quad
 *   0x18  mfa.function, the atom                                         .quad
 *   0x20  mfa.arity                                                      .quad
 *   0x28  the breakpoint trampoline, where calls enter: `jmp` short to 0x30
 *         (eb 06), the breakpoint flag byte (ERTS_ASM_BP_FLAG_NONE)       .byte
 *         at 0x2a, then `call` the generic breakpoint trampoline (e8 rel32),
 *         code that runs once tracing makes the jmp a nop
 *   0x30  the body.
 *
 * 7768 of those prologues are 48 bytes so; 7 (erts_beamasm's own stubs, no
 * trampoline) stop at 0x28. In all 7775 the arity word is the name's arity,
 * the one check made here before any byte is called data.
 */
size_t beam__prologue_data(int e_machine, const uint8_t *code, size_t size, const char *body,
			   struct code_data out[BEAM_PROLOGUE_DATA_MAX])
{
	long arity = name_arity(body);
	size_t n = 0;

	if (e_machine != 62 || (size != 0x28 && size != 0x30) || !code || code[0] != 0xe8 ||
	    arity < 0 || le64(code + 0x20) != (uint64_t)arity)
		return 0;
	for (uint32_t off = 0x08; off < 0x28; off += 8)
		out[n++] = (struct code_data){ off, 8 };
	if (size == 0x30 && code[0x28] == 0xeb && code[0x29] == 0x06)
		out[n++] = (struct code_data){ 0x2a, 1 };
	return n;
}

/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for cfg.c on x86-64, from the code alone: capstone disassembly,
 * block leaders, reachability, lookups (samples and run-time addresses:
 * test-cfg-seeds.c; other architectures: test-cfg-arch.c).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cfg-check.h"

/* loop-header.S */
static const uint8_t loop_header[] = {
	0xb8, 0x01, 0x00, 0x00, 0x00,		/*  0: mov eax, 1 */
	0x31, 0xff,				/*  5: xor edi, edi */
	0xbe, 0x01, 0x00, 0x00, 0x00,		/*  7: mov esi, 1 */
	0x39, 0xd6,				/*  c: cmp esi, edx		<- loop */
	0x73, 0x0e,				/*  e: jae 0x1e */
	0x83, 0xc6, 0x01,			/* 10: add esi, 1 */
	0x8d, 0x0c, 0x38,			/* 13: lea ecx, [rax + rdi] */
	0x48, 0x89, 0xc7,			/* 16: mov rdi, rax */
	0x48, 0x89, 0xc8,			/* 19: mov rax, rcx */
	0xeb, 0xee,				/* 1c: jmp 0xc */
	0xc3,					/* 1e: ret */
};

static void loop_header_in_a_straight_run_starts_a_block(void **state)
{
	struct cfg_func f;

	build(&f, EM_X86_64, loop_header, sizeof(loop_header));
	assert_int_equal(f.code_end, 0x1f);
	assert_int_equal(f.insns_nr, 11);
	/* the reference would make one block of 0x0..0xe: nothing jumps before 0xc */
	assert_int_equal(f.blocks_nr, 4);
	assert_block(&f, 0, 0x0, 0xc);
	assert_block(&f, 1, 0xc, 0x10);
	assert_block(&f, 2, 0x10, 0x1e);
	assert_block(&f, 3, 0x1e, 0x1f);
	assert_int_equal(f.blocks[1].first, 3);
	assert_int_equal(f.blocks[1].nr, 2);
	assert_int_equal(insn(&f, 0x1c)->flags, INSN_JUMP | INSN_HAS_TARGET);
	assert_int_equal(insn(&f, 0x1c)->target, 0xc);
	assert_int_equal(insn(&f, 0xe)->flags, INSN_COND | INSN_HAS_TARGET);
	assert_int_equal(f.bad_targets, 0);
	cfg_func__release(&f);
}

static void lookups_find_starts_and_reject_middles_and_the_end(void **state)
{
	struct cfg_func f;

	build(&f, EM_X86_64, loop_header, sizeof(loop_header));
	assert_int_equal(cfg_func__insn_at(&f, 0x0), 0);
	assert_int_equal(cfg_func__insn_at(&f, 0xc), 3);
	assert_int_equal(cfg_func__insn_at(&f, 0x1e), 10);
	assert_int_equal(cfg_func__insn_at(&f, 0x1), -1);	/* inside mov eax, 1 */
	assert_int_equal(cfg_func__insn_at(&f, 0xd), -1);	/* inside cmp */
	assert_int_equal(cfg_func__insn_at(&f, 0x1f), -1);	/* the end */
	assert_int_equal(cfg_func__insn_at(&f, 0x1000), -1);
	assert_int_equal(cfg_func__insn_at(&f, UINT32_MAX), -1);

	assert_int_equal(cfg_func__block_at(&f, 0x0), 0);
	assert_int_equal(cfg_func__block_at(&f, 0xb), 0);	/* inside the last insn */
	assert_int_equal(cfg_func__block_at(&f, 0xc), 1);
	assert_int_equal(cfg_func__block_at(&f, 0xf), 1);
	assert_int_equal(cfg_func__block_at(&f, 0x17), 2);	/* mid mov rdi, rax */
	assert_int_equal(cfg_func__block_at(&f, 0x1e), 3);
	assert_int_equal(cfg_func__block_at(&f, 0x1f), -1);
	assert_int_equal(cfg_func__block_at(&f, UINT32_MAX), -1);
	cfg_func__release(&f);
}

/* cond-split.S */
static const uint8_t cond_split[] = {
	0x85, 0xff,				/* 0: test edi, edi */
	0x74, 0x06,				/* 2: je 0xa */
	0xb8, 0x01, 0x00, 0x00, 0x00,		/* 4: mov eax, 1 */
	0xc3,					/* 9: ret */
	0x31, 0xc0,				/* a: xor eax, eax */
	0xc3,					/* c: ret */
};

static void conditional_branch_ends_its_block(void **state)
{
	struct cfg_func f;

	build(&f, EM_X86_64, cond_split, sizeof(cond_split));
	assert_int_equal(f.blocks_nr, 3);
	assert_block(&f, 0, 0x0, 0x4);
	assert_block(&f, 1, 0x4, 0xa);	/* after je: a leader although nothing jumps there */
	assert_block(&f, 2, 0xa, 0xd);
	assert_int_equal(f.code_end, 0xd);
	cfg_func__release(&f);
}

/* fall-through.S */
static const uint8_t fall_through[] = {
	0x89, 0xf8,				/*  0: mov eax, edi */
	0x83, 0xff, 0x0a,			/*  2: cmp edi, 0xa */
	0x7f, 0x07,				/*  5: jg 0xe */
	0x83, 0xc0, 0x01,			/*  7: add eax, 1 */
	0x0f, 0xaf, 0xc0,			/*  a: imul eax, eax	<- join */
	0xc3,					/*  d: ret */
	0x83, 0xe8, 0x01,			/*  e: sub eax, 1	<- big */
	0xeb, 0xf7,				/* 11: jmp 0xa */
};

static void fall_through_into_a_branch_target_ends_the_block_before_it(void **state)
{
	struct cfg_func f;

	build(&f, EM_X86_64, fall_through, sizeof(fall_through));
	assert_int_equal(f.blocks_nr, 4);
	assert_block(&f, 0, 0x0, 0x7);
	assert_block(&f, 1, 0x7, 0xa);	/* add eax, 1 alone: join is a target */
	assert_block(&f, 2, 0xa, 0xe);
	assert_block(&f, 3, 0xe, 0x13);
	assert_int_equal(f.code_end, 0x13);
	cfg_func__release(&f);
}

/* indirect.S */
static const uint8_t indirect[] = {
	0x85, 0xff,				/* 0: test edi, edi */
	0x74, 0x05,				/* 2: je 0x9 */
	0x48, 0x89, 0xf0,			/* 4: mov rax, rsi */
	0xff, 0xe0,				/* 7: jmp rax */
	0xff, 0x25, 0x10, 0x00, 0x00, 0x00,	/* 9: jmp qword ptr [rip + 0x10] */
};

static void indirect_jumps_end_blocks(void **state)
{
	struct cfg_func f;

	build(&f, EM_X86_64, indirect, sizeof(indirect));
	assert_int_equal(insn(&f, 0x7)->flags, INSN_JUMP | INSN_INDIRECT);
	assert_int_equal(insn(&f, 0x9)->flags, INSN_JUMP | INSN_INDIRECT);
	assert_string_equal(insn(&f, 0x7)->text, "jmp     rax");
	assert_string_equal(insn(&f, 0x9)->text, "jmp     qword ptr [rip + 0x10]");
	assert_int_equal(f.blocks_nr, 3);
	assert_block(&f, 0, 0x0, 0x4);
	assert_block(&f, 1, 0x4, 0x9);
	assert_block(&f, 2, 0x9, 0xf);
	assert_int_equal(f.code_end, 0xf);
	cfg_func__release(&f);
}

/* jump-table.S: the shape of Cranelift's x64 JmpTableSeq */
static const uint8_t jump_table[] = {
	0x83, 0xff, 0x02,			/*  0: cmp edi, 2 */
	0x73, 0x28,				/*  3: jae 0x2d */
	0x48, 0x8d, 0x0d, 0x09, 0x00, 0x00, 0x00, /*  5: lea rcx, [rip + 9]	(0x15) */
	0x48, 0x63, 0x04, 0xb9,			/*  c: movsxd rax, dword ptr [rcx + rdi*4] */
	0x48, 0x01, 0xc1,			/* 10: add rcx, rax */
	0xff, 0xe1,				/* 13: jmp rcx */
	0x0c, 0x00, 0x00, 0x00,			/* 15: .long case0 - table */
	0x12, 0x00, 0x00, 0x00,			/* 19: .long case1 - table */
	0x18, 0x00, 0x00, 0x00,			/* 1d: .long dflt - table */
	0xb8, 0x0a, 0x00, 0x00, 0x00,		/* 21: mov eax, 0xa	<- case0 */
	0xc3,					/* 26: ret */
	0xb8, 0x14, 0x00, 0x00, 0x00,		/* 27: mov eax, 0x14	<- case1 */
	0xc3,					/* 2c: ret */
	0x31, 0xc0,				/* 2d: xor eax, eax	<- dflt */
	0xc3,					/* 2f: ret */
};

static void jump_table_after_an_indirect_jump_is_data_and_its_cases_are_blocks(void **state)
{
	static const uint32_t cases[] = { 0x21, 0x27, 0x2d };
	struct cfg_func f;

	build(&f, EM_X86_64, jump_table, sizeof(jump_table));
	/* decoded as code, the table (objdump: "or al,0x0; add [rax],al...") would run on */
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct cfg_insn *e = insn(&f, 0x15 + 4 * i);

		assert_int_equal(e->flags, INSN_DATA | INSN_TABLE | INSN_HAS_TARGET);
		assert_int_equal(e->size, 4);
		assert_int_equal(e->target, cases[i]);
	}
	assert_string_equal(insn(&f, 0x15)->text, ".long   0x21 - 0x15");
	assert_string_equal(insn(&f, 0x21)->text, "mov     eax, 0xa");
	/* case0 and case1 are reached only through the table */
	assert_int_equal(f.code_end, 0x30);
	assert_int_equal(f.blocks_nr, 6);
	assert_block(&f, 0, 0x0, 0x5);
	assert_block(&f, 1, 0x5, 0x15);
	assert_block(&f, 2, 0x15, 0x21);	/* the table on its own */
	assert_block(&f, 3, 0x21, 0x27);
	assert_block(&f, 4, 0x27, 0x2d);
	assert_block(&f, 5, 0x2d, 0x30);
	cfg_func__release(&f);
}

/* Hand-encoded variants of the sequence above (checked with objdump -D -b binary -m i386:x86-64). */
static const uint8_t lea_elsewhere[] = {
	0x48, 0x8d, 0x0d, 0x04, 0x00, 0x00, 0x00, /* 0: lea rcx, [rip + 4]	(0xb, not 0x9) */
	0xff, 0xe1,				/* 7: jmp rcx */
	0x0c, 0x00, 0x00, 0x00,			/* 9: or al, 0; add [rax], al */
	0xc3,					/* d: ret */
};

static const uint8_t lea_other_reg[] = {
	0x48, 0x8d, 0x15, 0x02, 0x00, 0x00, 0x00, /* 0: lea rdx, [rip + 2]	(0x9) */
	0xff, 0xe1,				/* 7: jmp rcx */
	0x0c, 0x00, 0x00, 0x00,			/* 9: or al, 0; add [rax], al */
	0xc3,					/* d: ret */
};

static void jump_without_the_table_address_is_a_plain_indirect_jump(void **state)
{
	const uint8_t *codes[] = { lea_elsewhere, lea_other_reg };
	struct cfg_func f;

	for (size_t i = 0; i < ARRAY_SIZE(codes); i++) {
		build(&f, EM_X86_64, codes[i], sizeof(lea_elsewhere));
		assert_string_equal(insn(&f, 0x9)->text, "or      al, 0");
		assert_int_equal(insn(&f, 0x9)->flags, 0);
		assert_int_equal(f.code_end, 0x9);
		assert_int_equal(f.blocks_nr, 1);
		cfg_func__release(&f);
	}
}

/* ud2.S */
static const uint8_t ud2[] = {
	0x85, 0xff,				/* 0: test edi, edi */
	0x74, 0x02,				/* 2: je 0x6 */
	0xeb, 0x07,				/* 4: jmp 0xd */
	0x0f, 0x0b,				/* 6: ud2 */
	0xb8, 0x02, 0x00, 0x00, 0x00,		/* 8: mov eax, 2	(unreachable) */
	0xb8, 0x01, 0x00, 0x00, 0x00,		/* d: mov eax, 1 */
	0xc3,					/* 12: ret */
};

static void ud2_ends_its_block(void **state)
{
	struct cfg_func f;

	build(&f, EM_X86_64, ud2, sizeof(ud2));
	assert_int_equal(insn(&f, 0x6)->flags, INSN_TRAP);
	assert_int_equal(f.blocks_nr, 5);
	assert_block(&f, 2, 0x6, 0x8);
	assert_block(&f, 3, 0x8, 0xd);	/* neither a target nor reachable: only ud2 splits */
	assert_block(&f, 4, 0xd, 0x13);
	cfg_func__release(&f);
}

/* call.S */
static const uint8_t call[] = {
	0x53,					/* 0: push rbx */
	0xe8, 0x00, 0x10, 0x00, 0x00,		/* 1: call 0x1006	(another function) */
	0x89, 0xc3,				/* 6: mov ebx, eax */
	0xff, 0xd6,				/* 8: call rsi */
	0x01, 0xd8,				/* a: add eax, ebx */
	0x5b,					/* c: pop rbx */
	0xc3,					/* d: ret */
};

static void calls_do_not_end_their_block(void **state)
{
	struct cfg_func f;

	build(&f, EM_X86_64, call, sizeof(call));
	assert_int_equal(insn(&f, 0x1)->flags, INSN_CALL | INSN_HAS_TARGET);
	assert_int_equal(insn(&f, 0x1)->target, 0x1006);
	assert_string_equal(insn(&f, 0x1)->text, "call    0x1006");
	assert_int_equal(insn(&f, 0x8)->flags, INSN_CALL | INSN_INDIRECT);
	assert_int_equal(f.blocks_nr, 1);
	assert_block(&f, 0, 0x0, 0xe);
	assert_int_equal(f.blocks[0].nr, 7);
	assert_int_equal(f.bad_targets, 0);
	cfg_func__release(&f);
}

/* trailing.S */
static const uint8_t trailing[] = {
	0x89, 0xf8,				/*  0: mov eax, edi */
	0x01, 0xf0,				/*  2: add eax, esi */
	0xc3,					/*  4: ret */
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, /* 5: int3 x 16 */
	0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc, 0xcc,
	0xeb, 0xeb,				/* 15: jmp 0x2 (garbage) */
	0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, /* 17: .quad; objdump: mov [rdi+0x66], dh;
						 * push rbp; xor r12d, [rdx]; (bad) */
};

static void trailing_data_after_the_final_ret_is_in_no_block(void **state)
{
	struct cfg_func f;

	build(&f, EM_X86_64, trailing, sizeof(trailing));
	assert_int_equal(f.size, sizeof(trailing));
	assert_int_equal(f.code_end, 0x5);
	assert_int_equal(f.blocks_nr, 1);	/* the garbage jmp 0x2 does not split it */
	assert_block(&f, 0, 0x0, 0x5);
	/* still decoded, so that samples there can be reported */
	assert_int_equal(f.insns_nr, 3 + 16 + 5);
	assert_string_equal(insn(&f, 0x5)->text, "int3");
	assert_int_equal(insn(&f, 0x15)->target, 0x2);
	assert_string_equal(insn(&f, 0x1e)->text, ".byte   0x11");
	assert_int_equal(insn(&f, 0x1e)->flags, INSN_DATA);
	assert_int_equal(cfg_func__block_at(&f, 0x5), -1);
	assert_int_equal(cfg_func__block_at(&f, 0x15), -1);
	cfg_func__release(&f);
}

/*
 * A native switch: GCC keeps the jump table in .rodata, so the case after the
 * indirect jump is reached only through it. Hand-assembled, checked with
 * objdump -d -M intel: 89 f8 mov eax,edi; ff e0 jmp rax; b8 01 00 00 00
 * mov eax,0x1; c3 ret.
 */
static const uint8_t native_switch[] = { 0x89, 0xf8, 0xff, 0xe0, 0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3 };

static void without_trailing_data_detection_every_instruction_is_code(void **state)
{
	struct cfg_func f;
	char err[128] = "";

	assert_int_equal(cfg_func__build(&f, EM_X86_64, native_switch, sizeof(native_switch), 0,
					 err, sizeof(err)), 0);
	check_shape(&f);
	assert_int_equal(f.code_end, sizeof(native_switch));
	assert_int_equal(f.blocks_nr, 2);
	assert_block(&f, 0, 0x0, 0x4);
	assert_block(&f, 1, 0x4, 0xa);
	cfg_func__release(&f);

	/* As JIT code, the unreached case counts as trailing bytes. */
	build(&f, EM_X86_64, native_switch, sizeof(native_switch));
	assert_int_equal(f.code_end, 0x4);
	cfg_func__release(&f);
}

/* skipdata.S */
static const uint8_t skipdata[] = {
	0xeb, 0x02,				/* 0: jmp 0x4 */
	0x06,					/* 2: (bad) push es */
	0x27,					/* 3: (bad) daa */
	0xb8, 0x01, 0x00, 0x00, 0x00,		/* 4: mov eax, 1 */
	0x37,					/* 9: (bad) aaa */
	0x83, 0xc0, 0x02,			/* a: add eax, 2 */
	0xc3,					/* d: ret */
};

static void undecodable_bytes_do_not_derail_decoding(void **state)
{
	struct cfg_func f;

	build(&f, EM_X86_64, skipdata, sizeof(skipdata));
	assert_int_equal(f.insns_nr, 7);
	assert_int_equal(insn(&f, 0x2)->flags, INSN_DATA);
	assert_string_equal(insn(&f, 0x2)->text, ".byte   0x06");
	assert_int_equal(insn(&f, 0x3)->flags, INSN_DATA);
	assert_string_equal(insn(&f, 0x4)->text, "mov     eax, 1");
	assert_string_equal(insn(&f, 0x9)->text, ".byte   0x37");
	assert_string_equal(insn(&f, 0xa)->text, "add     eax, 2");
	/* reached by fall-through, the unknown byte does not end the code */
	assert_int_equal(f.code_end, 0xe);
	assert_int_equal(f.blocks_nr, 3);
	assert_block(&f, 1, 0x2, 0x4);
	assert_block(&f, 2, 0x4, 0xe);
	cfg_func__release(&f);
}

/* text-format.S */
static const uint8_t text_format[] = {
	0x8d, 0x0c, 0x38,			/* 0: lea ecx, [rax + rdi] */
	0x0f, 0xb1, 0x0f,			/* 3: cmpxchg dword ptr [rdi], ecx */
	0xf2, 0x0f, 0x2a, 0xc0,			/* 6: cvtsi2sd xmm0, eax */
	0x73, 0xf4,				/* a: jae 0x0 */
	0xc3,					/* c: ret */
};

static void assembly_text_pads_the_mnemonic_to_seven_columns(void **state)
{
	struct cfg_func f;

	build(&f, EM_X86_64, text_format, sizeof(text_format));
	assert_string_equal(insn(&f, 0x0)->text, "lea     ecx, [rax + rdi]");
	assert_string_equal(insn(&f, 0x3)->text, "cmpxchg dword ptr [rdi], ecx");
	assert_string_equal(insn(&f, 0x6)->text, "cvtsi2sd xmm0, eax");
	assert_string_equal(insn(&f, 0xa)->text, "jae     0x0");	/* capstone says "0" */
	assert_string_equal(insn(&f, 0xc)->text, "ret");
	cfg_func__release(&f);

	build(&f, EM_X86_64, loop_header, sizeof(loop_header));
	assert_string_equal(insn(&f, 0xe)->text, "jae     0x1e");
	assert_string_equal(insn(&f, 0x10)->text, "add     esi, 1");
	assert_string_equal(insn(&f, 0x1c)->text, "jmp     0xc");
	cfg_func__release(&f);
}

static void unknown_e_machine_is_not_supported(void **state)
{
	static const uint8_t nop = 0x90;
	struct cfg_func f;
	char err[128] = "";

	assert_int_equal(cfg_func__build(&f, 40 /* EM_ARM */, &nop, 1, 0, err, sizeof(err)),
			 -ENOTSUP);
	assert_non_null(strstr(err, "e_machine 40"));
	assert_null(f.insns);
	assert_null(f.blocks);
	assert_int_equal(f.insns_nr, 0);
	cfg_func__release(&f);
	/* no room for a message is fine */
	assert_int_equal(cfg_func__build(&f, 21 /* EM_PPC64 */, &nop, 1, 0, NULL, 0), -ENOTSUP);
}

static void code_larger_than_32_bits_is_refused(void **state)
{
	static const uint8_t nop = 0x90;
	struct cfg_func f;
	char err[128] = "";

	if (SIZE_MAX <= UINT32_MAX)
		skip();
	/* refused before a byte is read */
	assert_int_equal(cfg_func__build(&f, EM_X86_64, &nop, (size_t)UINT32_MAX + 1, 0, err,
					 sizeof(err)), -ERANGE);
	assert_true(err[0] != '\0');
	assert_null(f.insns);
}

static void empty_code_has_no_instructions_and_no_blocks(void **state)
{
	struct cfg_func f;

	build(&f, EM_X86_64, NULL, 0);
	assert_int_equal(f.insns_nr, 0);
	assert_int_equal(f.blocks_nr, 0);
	assert_int_equal(f.code_end, 0);
	assert_int_equal(f.size, 0);
	assert_int_equal(cfg_func__insn_at(&f, 0), -1);
	assert_int_equal(cfg_func__block_at(&f, 0), -1);
	cfg_func__release(&f);
	cfg_func__release(&f);	/* released twice: still harmless */
}

static void single_byte_is_one_instruction_in_one_block(void **state)
{
	static const uint8_t ret = 0xc3, bad = 0x06, a64_byte = 0xd6;
	struct cfg_func f;

	build(&f, EM_X86_64, &ret, 1);
	assert_int_equal(f.insns_nr, 1);
	assert_int_equal(f.insns[0].flags, INSN_RET);
	assert_string_equal(f.insns[0].text, "ret");
	assert_int_equal(f.blocks_nr, 1);
	assert_int_equal(f.code_end, 1);
	assert_int_equal(cfg_func__block_at(&f, 1), -1);
	cfg_func__release(&f);

	/* an undecodable byte at offset 0 is still where execution starts */
	build(&f, EM_X86_64, &bad, 1);
	assert_int_equal(f.insns_nr, 1);
	assert_int_equal(f.insns[0].flags, INSN_DATA);
	assert_int_equal(f.code_end, 1);
	assert_int_equal(f.blocks_nr, 1);
	cfg_func__release(&f);

	build(&f, EM_AARCH64, &a64_byte, 1);
	assert_int_equal(f.insns_nr, 1);
	assert_string_equal(f.insns[0].text, ".byte   0xd6");
	assert_int_equal(f.code_end, 1);
	cfg_func__release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(loop_header_in_a_straight_run_starts_a_block),
		cmocka_unit_test(lookups_find_starts_and_reject_middles_and_the_end),
		cmocka_unit_test(conditional_branch_ends_its_block),
		cmocka_unit_test(fall_through_into_a_branch_target_ends_the_block_before_it),
		cmocka_unit_test(indirect_jumps_end_blocks),
		cmocka_unit_test(jump_table_after_an_indirect_jump_is_data_and_its_cases_are_blocks),
		cmocka_unit_test(jump_without_the_table_address_is_a_plain_indirect_jump),
		cmocka_unit_test(ud2_ends_its_block),
		cmocka_unit_test(calls_do_not_end_their_block),
		cmocka_unit_test(trailing_data_after_the_final_ret_is_in_no_block),
		cmocka_unit_test(without_trailing_data_detection_every_instruction_is_code),
		cmocka_unit_test(undecodable_bytes_do_not_derail_decoding),
		cmocka_unit_test(assembly_text_pads_the_mnemonic_to_seven_columns),
		cmocka_unit_test(unknown_e_machine_is_not_supported),
		cmocka_unit_test(code_larger_than_32_bits_is_refused),
		cmocka_unit_test(empty_code_has_no_instructions_and_no_blocks),
		cmocka_unit_test(single_byte_is_one_instruction_in_one_block),
	};

	return cmocka_run_group_tests_name("cfg", tests, NULL, NULL);
}

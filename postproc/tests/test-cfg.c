/* SPDX-License-Identifier: MIT */
/* Unit tests for cfg.c: capstone disassembly, block leaders, reachability, lookups. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cfg.h"

/*
 * Each byte array below is the .text of test-data/cfg/<name>.S, assembled with
 * `as --64` (x86-64) or `llvm-mc -triple=aarch64 -filetype=obj` (aarch64;
 * -triple=s390x -mcpu=z15, -triple=riscv64 -mattr=+c likewise) and
 * extracted with `llvm-objcopy -O binary -j .text` (see test-data/cfg/README.md).
 * The offsets in the comments, and every expected offset, size and target, were
 * checked against `objdump -d -M intel` / `llvm-objdump -d` of the same object.
 */

#define EM_X86_64 62
#define EM_AARCH64 183
#define EM_S390 22
#define EM_RISCV 243

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Invariants every successful build must keep, whatever the input. */
static void check_shape(const struct cfg_func *f)
{
	uint32_t off = 0;

	for (size_t i = 0; i < f->insns_nr; i++) {
		assert_int_equal(f->insns[i].off, off);
		assert_true(f->insns[i].size > 0);
		assert_non_null(f->insns[i].text);
		assert_int_equal(cfg_func__insn_at(f, off), i);
		off += f->insns[i].size;
	}
	assert_int_equal(off, f->size);
	assert_true(f->code_end <= f->size);

	off = 0;
	for (size_t b = 0; b < f->blocks_nr; b++) {
		const struct cfg_block *blk = &f->blocks[b];
		const struct cfg_insn *last = &f->insns[blk->first + blk->nr - 1];

		assert_int_equal(blk->start, off);
		assert_true(blk->nr > 0);
		assert_int_equal(f->insns[blk->first].off, blk->start);
		assert_int_equal(last->off + last->size, blk->end);
		assert_int_equal(cfg_func__block_at(f, blk->start), b);
		assert_int_equal(cfg_func__block_at(f, blk->end - 1), b);
		off = blk->end;
	}
	assert_int_equal(off, f->code_end);
	for (size_t i = 0; i < f->insns_nr; i++)
		if (f->insns[i].off >= f->code_end)
			assert_int_equal(cfg_func__block_at(f, f->insns[i].off), -1);
}

static void build(struct cfg_func *f, int e_machine, const uint8_t *code, size_t size)
{
	char err[128] = "";

	/* JIT code: the cases here test the trailing-data detection too */
	assert_int_equal(cfg_func__build(f, e_machine, code, size, CFG_TRAILING_DATA, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	check_shape(f);
}

static void assert_block(const struct cfg_func *f, size_t b, uint32_t start, uint32_t end)
{
	assert_true(b < f->blocks_nr);
	assert_int_equal(f->blocks[b].start, start);
	assert_int_equal(f->blocks[b].end, end);
}

static const struct cfg_insn *insn(const struct cfg_func *f, uint32_t off)
{
	long i = cfg_func__insn_at(f, off);

	assert_true(i >= 0);
	return &f->insns[i];
}

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

/* bad-target.S */
static const uint8_t bad_target[] = {
	0x74, 0x01,				/* 0: je 0x3 */
	0xb8, 0xc3, 0x00, 0x00, 0x00,		/* 2: mov eax, 0xc3	(0x3 is its 2nd byte) */
	0xc3,					/* 7: ret */
};

static void target_inside_an_instruction_is_counted_not_split(void **state)
{
	struct cfg_func f;

	build(&f, EM_X86_64, bad_target, sizeof(bad_target));
	assert_int_equal(f.bad_targets, 1);
	assert_int_equal(f.code_end, 0x8);
	assert_int_equal(f.blocks_nr, 2);
	assert_block(&f, 0, 0x0, 0x2);
	assert_block(&f, 1, 0x2, 0x8);
	cfg_func__release(&f);
}

/* a64-loop.S */
static const uint8_t a64_loop[] = {
	0x02, 0x00, 0x80, 0xd2,			/*  0: mov x2, #0 */
	0x03, 0x84, 0x40, 0xf8,			/*  4: ldr x3, [x0], #8	<- loop */
	0x42, 0x00, 0x03, 0x8b,			/*  8: add x2, x2, x3 */
	0x21, 0x04, 0x00, 0xf1,			/*  c: subs x1, x1, #1 */
	0xa1, 0xff, 0xff, 0x54,			/* 10: b.ne 0x4 */
	0x64, 0x00, 0x00, 0x58,			/* 14: ldr x4, 0x20 */
	0x40, 0x00, 0x04, 0x8b,			/* 18: add x0, x2, x4 */
	0xc0, 0x03, 0x5f, 0xd6,			/* 1c: ret */
	0x88, 0x77, 0x66, 0x55,			/* 20: .quad 0x1122334455667788 */
	0x44, 0x33, 0x22, 0x11,
};

static void aarch64_loop_splits_at_its_header_and_leaves_the_literal_out(void **state)
{
	struct cfg_func f;

	build(&f, EM_AARCH64, a64_loop, sizeof(a64_loop));
	assert_int_equal(f.code_end, 0x20);
	assert_int_equal(f.blocks_nr, 3);
	assert_block(&f, 0, 0x0, 0x4);
	assert_block(&f, 1, 0x4, 0x14);
	assert_block(&f, 2, 0x14, 0x20);
	assert_int_equal(insn(&f, 0x10)->flags, INSN_COND | INSN_HAS_TARGET);
	assert_int_equal(insn(&f, 0x10)->target, 0x4);
	assert_string_equal(insn(&f, 0x10)->text, "b.ne    #0x4");
	assert_int_equal(insn(&f, 0x1c)->flags, INSN_RET);
	/* capstone's own spelling of mov x2, #0: 5 prints the alias, 4 the encoding */
	assert_string_equal(insn(&f, 0x0)->text,
			    cfg__capstone_version(NULL) >= 5 ? "mov     x2, #0" : "movz    x2, #0");
	assert_string_equal(insn(&f, 0x20)->text, ".byte   0x88, 0x77, 0x66, 0x55");
	assert_int_equal(cfg_func__block_at(&f, 0x20), -1);
	assert_int_equal(cfg_func__block_at(&f, 0x26), -1);
	assert_int_equal(cfg_func__insn_at(&f, 0x22), -1);
	cfg_func__release(&f);
}

/* a64-jump-table.S: the shape of Cranelift's aarch64 JTSequence and its trap */
static const uint8_t a64_jump_table[] = {
	0x1f, 0x08, 0x00, 0x71,			/*  0: cmp w0, #2 */
	0x62, 0x01, 0x00, 0x54,			/*  4: b.hs 0x30 */
	0x90, 0x00, 0x00, 0x10,			/*  8: adr x16, #16	(0x18) */
	0x11, 0x5a, 0xa0, 0xb8,			/*  c: ldrsw x17, [x16, w0, uxtw #2] */
	0x10, 0x02, 0x11, 0x8b,			/* 10: add x16, x16, x17 */
	0x00, 0x02, 0x1f, 0xd6,			/* 14: br x16 */
	0x0c, 0x00, 0x00, 0x00,			/* 18: .word case0 - table */
	0x14, 0x00, 0x00, 0x00,			/* 1c: .word case1 - table */
	0x18, 0x00, 0x00, 0x00,			/* 20: .word dflt - table */
	0x40, 0x01, 0x80, 0x52,			/* 24: mov w0, #10	<- case0 */
	0xc0, 0x03, 0x5f, 0xd6,			/* 28: ret */
	0x1f, 0xc1, 0x00, 0x00,			/* 2c: udf #49439	<- case1 */
	0x00, 0x00, 0x80, 0x52,			/* 30: mov w0, #0	<- dflt */
	0xc0, 0x03, 0x5f, 0xd6,			/* 34: ret */
};

static void aarch64_jump_table_and_udf_trap(void **state)
{
	struct cfg_func f;

	build(&f, EM_AARCH64, a64_jump_table, sizeof(a64_jump_table));
	assert_int_equal(insn(&f, 0x14)->flags, INSN_JUMP | INSN_INDIRECT);
	assert_int_equal(insn(&f, 0x18)->flags, INSN_DATA | INSN_TABLE | INSN_HAS_TARGET);
	assert_int_equal(insn(&f, 0x1c)->target, 0x2c);
	assert_int_equal(insn(&f, 0x20)->target, 0x30);
	/* capstone 4 leaves udf undecoded; Cranelift traps with it */
	assert_int_equal(insn(&f, 0x2c)->flags, INSN_TRAP);
	assert_string_equal(insn(&f, 0x2c)->text, "udf     #0xc11f");
	assert_int_equal(f.code_end, 0x38);
	assert_int_equal(f.blocks_nr, 6);
	assert_block(&f, 2, 0x18, 0x24);
	assert_block(&f, 3, 0x24, 0x2c);
	assert_block(&f, 4, 0x2c, 0x30);
	assert_block(&f, 5, 0x30, 0x38);
	cfg_func__release(&f);
}

/* Hand-encoded, checked with llvm-mc -mattr=+pauth --show-encoding and llvm-objdump. */
static const uint8_t a64_pauth[] = {
	0x1f, 0x09, 0x3f, 0xd6,			/* 0: blraaz x8 */
	0xff, 0x0b, 0x5f, 0xd6,			/* 4: retaa */
	0xa6, 0x08, 0x1f, 0xd7,			/* 8: braa x5, x6	(after the ret) */
	0xff, 0x0c, 0x1f, 0xd7,			/* c: brab x7, sp */
	0x01, 0x02,				/* 10: half a word */
};

static void aarch64_pointer_auth_branches_are_decoded_by_hand(void **state)
{
	struct cfg_func f;

	build(&f, EM_AARCH64, a64_pauth, sizeof(a64_pauth));
	assert_int_equal(insn(&f, 0x0)->flags, INSN_CALL | INSN_INDIRECT);
	assert_string_equal(insn(&f, 0x0)->text, "blraaz  x8");
	assert_int_equal(insn(&f, 0x4)->flags, INSN_RET);
	assert_string_equal(insn(&f, 0x4)->text, "retaa");
	assert_int_equal(insn(&f, 0x8)->flags, INSN_JUMP | INSN_INDIRECT);
	assert_string_equal(insn(&f, 0x8)->text, "braa    x5, x6");
	assert_string_equal(insn(&f, 0xc)->text, "brab    x7, sp");
	/* a tail shorter than one aarch64 word is data too */
	assert_int_equal(insn(&f, 0x10)->size, 2);
	assert_int_equal(insn(&f, 0x10)->flags, INSN_DATA);
	assert_string_equal(insn(&f, 0x10)->text, ".byte   0x01, 0x02");
	assert_int_equal(f.code_end, 0x8);
	assert_int_equal(f.blocks_nr, 1);
	cfg_func__release(&f);
}

/* s390x-jump-table.S: Cranelift's br_table, conditional trap, trap, call and return */
static const uint8_t s390x_jump_table[] = {
	0xc2, 0x3e, 0x00, 0x00, 0x00, 0x02,	/*  0: clgfi %r3, 2 */
	0xc0, 0xa4, 0x00, 0x00, 0x00, 0x18,	/*  6: jghe 0x36 */
	0xeb, 0x23, 0x00, 0x02, 0x00, 0x0d,	/*  c: sllg %r2, %r3, 2 */
	0xc0, 0x10, 0x00, 0x00, 0x00, 0x07,	/* 12: larl %r1, 0x20 */
	0xe3, 0x12, 0x10, 0x00, 0x00, 0x18,	/* 18: agf %r1, 0(%r2,%r1) */
	0x07, 0xf1,				/* 1e: br %r1 */
	0x00, 0x00, 0x00, 0x08,			/* 20: .long case0 - table (big-endian) */
	0x00, 0x00, 0x00, 0x14,			/* 24: .long case1 - table */
	0xa7, 0x28, 0x00, 0x0a,			/* 28: lhi %r2, 10	<- case0 */
	0xc0, 0x14, 0x00, 0x00, 0x00, 0x01,	/* 2c: jgo 0x2e	(into its own 0x0000) */
	0x07, 0xfe,				/* 32: br %r14 */
	0x00, 0x00,				/* 34: 0x0000, a trap	<- case1 */
	0xc0, 0xe5, 0xff, 0xff, 0xff, 0xf9,	/* 36: brasl %r14, 0x28	<- dflt */
	0xa7, 0x28, 0x00, 0x00,			/* 3c: lhi %r2, 0 */
	0x07, 0xfe,				/* 40: br %r14 */
	0xec, 0x00, 0x00, 0x00, 0x00, 0x01,	/* 42: no instruction, 6 bytes */
};

static void s390x_jump_table_big_endian_and_cranelift_traps(void **state)
{
	struct cfg_func f;

	if (cfg__capstone_version(NULL) < 5)
		skip();
	build(&f, EM_S390, s390x_jump_table, sizeof(s390x_jump_table));
	assert_int_equal(insn(&f, 0x6)->flags, INSN_COND | INSN_HAS_TARGET);
	assert_string_equal(insn(&f, 0x6)->text, "jghe    0x36");
	assert_int_equal(insn(&f, 0x1e)->flags, INSN_JUMP | INSN_INDIRECT);
	assert_int_equal(insn(&f, 0x20)->flags, INSN_DATA | INSN_TABLE | INSN_HAS_TARGET);
	assert_int_equal(insn(&f, 0x20)->target, 0x28);
	assert_string_equal(insn(&f, 0x20)->text, ".long   0x28 - 0x20");
	assert_int_equal(insn(&f, 0x24)->target, 0x34);
	/* the conditional trap neither ends its block nor counts as a bad target */
	assert_int_equal(insn(&f, 0x2c)->flags, 0);
	assert_string_equal(insn(&f, 0x2c)->text, "jgo     0x2e");
	assert_int_equal(f.bad_targets, 0);
	assert_int_equal(insn(&f, 0x32)->flags, INSN_RET);
	assert_int_equal(insn(&f, 0x34)->flags, INSN_TRAP);
	assert_int_equal(insn(&f, 0x34)->size, 2);
	assert_string_equal(insn(&f, 0x34)->text, ".byte   0x00, 0x00");
	assert_int_equal(insn(&f, 0x36)->flags, INSN_CALL | INSN_HAS_TARGET);
	assert_string_equal(insn(&f, 0x36)->text, "brasl   %r14, 0x28");
	/* what no decoder knows is one row of the length its opcode gives */
	assert_int_equal(insn(&f, 0x42)->flags, INSN_DATA);
	assert_int_equal(insn(&f, 0x42)->size, 6);
	assert_int_equal(f.code_end, 0x42);
	assert_int_equal(f.blocks_nr, 6);
	assert_block(&f, 0, 0x0, 0xc);
	assert_block(&f, 1, 0xc, 0x20);
	assert_block(&f, 2, 0x20, 0x28);
	assert_block(&f, 3, 0x28, 0x34);
	assert_block(&f, 4, 0x34, 0x36);
	assert_block(&f, 5, 0x36, 0x42);
	assert_int_equal(f.tables_nr, 1);
	assert_int_equal(f.insns[f.tables[0].jump].off, 0x1e);
	assert_int_equal(cfg_table__cases(&f, &f.tables[0]), 2);
	assert_int_equal(cfg_table__case(&f, &f.tables[0], 1), 0x34);
	cfg_func__release(&f);
}

/* riscv64-jump-table.S: Cranelift's br_table, whose table is jumps */
static const uint8_t riscv64_jump_table[] = {
	0x13, 0x05, 0x20, 0x00,			/*  0: li a0, 2 */
	0x63, 0xe6, 0xa5, 0x00,			/*  4: bltu a1, a0, 0x10 */
	0x17, 0x05, 0x00, 0x00,			/*  8: auipc a0, 0 */
	0x67, 0x00, 0x25, 0x03,			/*  c: jr 50(a0)	-> dflt */
	0x17, 0x06, 0x00, 0x00,			/* 10: auipc a2, 0 */
	0x93, 0x95, 0x35, 0x00,			/* 14: slli a1, a1, 3 */
	0x33, 0x06, 0xb6, 0x00,			/* 18: add a2, a2, a1 */
	0x67, 0x00, 0x06, 0x01,			/* 1c: jr 16(a2)	-> the table */
	0x97, 0x06, 0x00, 0x00,			/* 20: auipc a3, 0	<- entry 0 */
	0x67, 0x80, 0x06, 0x01,			/* 24: jr 16(a3)	-> case0 */
	0x97, 0x06, 0x00, 0x00,			/* 28: auipc a3, 0	<- entry 1 */
	0x67, 0x80, 0x06, 0x01,			/* 2c: jr 16(a3)	-> case1 */
	0x13, 0x05, 0xa0, 0x00,			/* 30: li a0, 10	<- case0 */
	0x67, 0x80, 0x00, 0x00,			/* 34: ret */
	0x00, 0x00,				/* 38: unimp	<- case1 */
	0x01, 0x45,				/* 3a: li a0, 0 (compressed)	<- dflt */
	0x97, 0x00, 0x00, 0x00,			/* 3c: auipc ra, 0 */
	0xe7, 0x80, 0x40, 0xff,			/* 40: jalr -12(ra)	(calls 0x30) */
	0x82, 0x80,				/* 44: ret (c.jr ra) */
};

static void check_riscv64_jump_table(const struct cfg_func *f)
{
	assert_int_equal(insn(f, 0x4)->flags, INSN_COND | INSN_HAS_TARGET);
	assert_string_equal(insn(f, 0x4)->text, "bltu    a1, a0, 0x10");
	/* auipc + jalr: a direct jump; the text stays the instruction's own */
	assert_int_equal(insn(f, 0xc)->flags, INSN_JUMP | INSN_HAS_TARGET);
	assert_int_equal(insn(f, 0xc)->target, 0x3a);
	assert_string_equal(insn(f, 0xc)->text, "jalr    zero, a0, 0x32");
	assert_int_equal(insn(f, 0x1c)->flags, INSN_JUMP | INSN_INDIRECT);
	/* the table's entries are code: jumps to the cases */
	assert_int_equal(insn(f, 0x20)->flags, 0);
	assert_int_equal(insn(f, 0x24)->flags, INSN_JUMP | INSN_HAS_TARGET);
	assert_int_equal(insn(f, 0x24)->target, 0x30);
	assert_int_equal(insn(f, 0x2c)->target, 0x38);
	assert_int_equal(insn(f, 0x34)->flags, INSN_RET);
	assert_int_equal(insn(f, 0x38)->flags, INSN_TRAP);
	assert_int_equal(insn(f, 0x38)->size, 2);
	assert_int_equal(insn(f, 0x3a)->size, 2);
	/* a pair that links ra is a call, and stays one */
	assert_int_equal(insn(f, 0x40)->flags, INSN_CALL | INSN_INDIRECT);
	assert_int_equal(insn(f, 0x44)->flags, INSN_RET);
	assert_int_equal(f->code_end, 0x46);
	assert_int_equal(f->blocks_nr, 8);
	assert_block(f, 0, 0x0, 0x8);
	assert_block(f, 1, 0x8, 0x10);
	assert_block(f, 2, 0x10, 0x20);
	assert_block(f, 3, 0x20, 0x28);
	assert_block(f, 4, 0x28, 0x30);
	assert_block(f, 5, 0x30, 0x38);
	assert_block(f, 6, 0x38, 0x3a);
	assert_block(f, 7, 0x3a, 0x46);
	assert_int_equal(f->tables_nr, 1);
	assert_int_equal(f->insns[f->tables[0].jump].off, 0x1c);
	assert_int_equal(f->tables[0].entry_size, 8);
	assert_int_equal(f->tables[0].nr, 4);
	assert_int_equal(cfg_table__cases(f, &f->tables[0]), 2);
	assert_int_equal(cfg_table__case(f, &f->tables[0], 0), 0x20);
	assert_int_equal(cfg_table__case(f, &f->tables[0], 1), 0x28);
}

static void riscv64_jump_table_is_jumps_each_a_block(void **state)
{
	/* the jalr of entry 0 and the default's sampled, so decoded before their auipc */
	static const uint32_t seeds[] = { 0x24, 0xc };
	struct cfg_input in = {
		.e_machine = EM_RISCV, .code = riscv64_jump_table, .size = sizeof(riscv64_jump_table),
		.seeds = seeds, .seeds_nr = ARRAY_SIZE(seeds), .flags = CFG_TRAILING_DATA,
	};
	struct cfg_func f;
	char err[128] = "";

	if (cfg__capstone_version(NULL) < 5)
		skip();
	build(&f, EM_RISCV, riscv64_jump_table, sizeof(riscv64_jump_table));
	check_riscv64_jump_table(&f);
	cfg_func__release(&f);
	assert_int_equal(cfg_func__build_from(&f, &in, err, sizeof(err)), 0);
	check_shape(&f);
	check_riscv64_jump_table(&f);
	cfg_func__release(&f);
}

/* Build with sampled offsets (seeds, with their sample counts) and a run-time address. */
static void build_seeded(struct cfg_func *f, const uint8_t *code, size_t size, uint64_t addr,
			 const uint32_t *seeds, const uint64_t *weights, size_t nseeds)
{
	struct cfg_input in = {
		.e_machine = EM_X86_64, .code = code, .size = size, .addr = addr,
		.seeds = seeds, .seed_weights = weights, .seeds_nr = nseeds,
		.flags = CFG_TRAILING_DATA,
	};
	char err[128] = "";

	assert_int_equal(cfg_func__build_from(f, &in, err, sizeof(err)), 0);
	assert_string_equal(err, "");
	check_shape(f);
}

/* osr-entry.S */
static const uint8_t osr_entry[] = {
	0x55,					/*  0: push rbp */
	0x41, 0xff, 0x95, 0xf0, 0x4e, 0x00, 0x00, /* 1: call qword ptr [r13 + 0x4ef0] */
	0xcc,					/*  8: int3 */
	0x48, 0x83, 0xec, 0x30,			/*  9: sub rsp, 0x30	<- OSR entry */
	0x83, 0xc0, 0x01,			/*  d: add eax, 1	<- loop */
	0x39, 0xc8,				/* 10: cmp eax, ecx */
	0x75, 0xf9,				/* 12: jne 0xd */
	0xc3,					/* 14: ret */
	0x01, 0x00, 0x00, 0x00,			/* 15: metadata */
};

static void samples_after_an_int3_make_the_osr_loop_code(void **state)
{
	static const uint32_t seeds[] = { 0x10, 0xd, 0x10 };
	struct cfg_func f;

	/* unsampled, nothing after the int3 is reachable: all of it trailing data */
	build(&f, EM_X86_64, osr_entry, sizeof(osr_entry));
	assert_int_equal(f.code_end, 0x9);
	cfg_func__release(&f);

	build_seeded(&f, osr_entry, sizeof(osr_entry), 0, seeds, NULL, ARRAY_SIZE(seeds));
	/* the samples' paths reach the ret; the metadata after it stays trailing data */
	assert_int_equal(f.code_end, 0x15);
	assert_int_equal(f.blocks_nr, 4);
	assert_block(&f, 0, 0x0, 0x9);
	assert_block(&f, 1, 0x9, 0xd);	/* the OSR entry, after the int3 */
	assert_block(&f, 2, 0xd, 0x14);	/* the loop */
	assert_block(&f, 3, 0x14, 0x15);
	assert_string_equal(insn(&f, 0x10)->text, "cmp     eax, ecx");
	assert_int_equal(cfg_func__block_at(&f, 0x15), -1);
	cfg_func__release(&f);
}

/* v8-jump-table.S, run-time address 0x7f0000001000 */
static const uint8_t v8_jump_table[] = {
	0x83, 0xff, 0x03,			/*  0: cmp edi, 3 */
	0x73, 0x1a,				/*  3: jae 0x1f */
	0x4c, 0x8d, 0x15, 0x17, 0x00, 0x00, 0x00, /* 5: lea r10, [rip + 0x17]	(0x23) */
	0x41, 0xff, 0x24, 0xfa,			/*  c: jmp qword ptr [r10 + rdi*8] */
	0xb8, 0x01, 0x00, 0x00, 0x00,		/* 10: mov eax, 1	<- case0 */
	0xc3,					/* 15: ret */
	0xb8, 0x02, 0x00, 0x00, 0x00,		/* 16: mov eax, 2	<- case1 */
	0x83, 0xc0, 0x03,			/* 1b: add eax, 3	<- case2 */
	0xc3,					/* 1e: ret */
	0x31, 0xc0,				/* 1f: xor eax, eax	<- dflt */
	0xc3,					/* 21: ret */
	0x90,					/* 22: nop */
	0x10, 0x10, 0x00, 0x00, 0x00, 0x7f, 0x00, 0x00, /* 23: .quad 0x7f0000001010 */
	0x16, 0x10, 0x00, 0x00, 0x00, 0x7f, 0x00, 0x00, /* 2b: .quad 0x7f0000001016 */
	0x1b, 0x10, 0x00, 0x00, 0x00, 0x7f, 0x00, 0x00, /* 33: .quad 0x7f000000101b */
	0x01, 0x00, 0x00, 0x00, 0x20, 0x08, 0x00, 0x00, /* 3b: metadata */
};

static void v8_table_of_addresses_gives_every_case_a_block(void **state)
{
	static const uint32_t cases[] = { 0x10, 0x16, 0x1b };
	struct cfg_func f;

	build_seeded(&f, v8_jump_table, sizeof(v8_jump_table), 0x7f0000001000, NULL, NULL, 0);
	for (size_t i = 0; i < ARRAY_SIZE(cases); i++) {
		const struct cfg_insn *e = insn(&f, 0x23 + 8 * i);

		assert_int_equal(e->flags, INSN_DATA | INSN_TABLE | INSN_HAS_TARGET);
		assert_int_equal(e->size, 8);
		assert_int_equal(e->target, cases[i]);
		/* case2 is reached by case1's fall-through too: the table makes it a leader */
		assert_int_equal(f.blocks[cfg_func__block_at(&f, cases[i])].start, cases[i]);
	}
	assert_string_equal(insn(&f, 0x23)->text, ".quad   0x7f0000001000 + 0x10");
	assert_string_equal(insn(&f, 0x1b)->text, "add     eax, 3");
	assert_int_equal(f.code_end, 0x3b);
	assert_int_equal(cfg_func__block_at(&f, 0x3b), -1);
	assert_int_equal(f.bad_targets, 0);
	cfg_func__release(&f);

	/* without the run-time address the entries mean nothing: a plain indirect jump */
	build(&f, EM_X86_64, v8_jump_table, sizeof(v8_jump_table));
	assert_false(insn(&f, 0x23) && (insn(&f, 0x23)->flags & INSN_TABLE));
	assert_int_equal(f.code_end, 0x22);
	cfg_func__release(&f);
}

/* resync.S */
static const uint8_t resync[] = {
	0xc3,					/* 0: ret */
	0xb8,					/* 1: .byte 0xb8	(a sweep: mov eax, 0x75c9ff90) */
	0x90,					/* 2: nop */
	0xff, 0xc9,				/* 3: dec ecx	<- loop, sampled */
	0x75, 0xfc,				/* 5: jne 0x3 */
	0xc3,					/* 7: ret */
};

static void a_sampled_offset_resynchronises_the_sweep(void **state)
{
	static const uint32_t seeds[] = { 0x3 };
	struct cfg_func f;

	build_seeded(&f, resync, sizeof(resync), 0, seeds, NULL, 1);
	assert_string_equal(insn(&f, 0x3)->text, "dec     ecx");
	assert_int_equal(insn(&f, 0x5)->target, 0x3);
	/* the guessed mov would run across the sampled instruction: its first byte is
	 * data, which ends its block, and the sweep goes on in step with objdump */
	assert_int_equal(insn(&f, 0x1)->flags, INSN_DATA);
	assert_string_equal(insn(&f, 0x1)->text, ".byte   0xb8");
	assert_string_equal(insn(&f, 0x2)->text, "nop");
	assert_int_equal(f.code_end, 0x8);
	assert_int_equal(f.blocks_nr, 5);
	assert_block(&f, 1, 0x1, 0x2);
	assert_block(&f, 2, 0x2, 0x3);
	assert_block(&f, 3, 0x3, 0x7);
	assert_block(&f, 4, 0x7, 0x8);
	cfg_func__release(&f);
}

/* bad-target.S's bytes, both of its overlapping decodings sampled */
static void the_more_sampled_of_two_overlapping_offsets_wins(void **state)
{
	static const uint32_t seeds[] = { 0x2, 0x3 };
	static const uint64_t mov_hotter[] = { 5, 1 }, ret_hotter[] = { 1, 5 };
	struct cfg_func f;

	build_seeded(&f, bad_target, sizeof(bad_target), 0, seeds, mov_hotter, 2);
	assert_string_equal(insn(&f, 0x2)->text, "mov     eax, 0xc3");
	assert_int_equal(cfg_func__insn_at(&f, 0x3), -1);	/* its samples are unaligned */
	cfg_func__release(&f);

	build_seeded(&f, bad_target, sizeof(bad_target), 0, seeds, ret_hotter, 2);
	assert_string_equal(insn(&f, 0x3)->text, "ret");
	/* the colder one keeps a row, cut short to data before the hotter one */
	assert_int_equal(insn(&f, 0x2)->size, 1);
	assert_int_equal(insn(&f, 0x2)->flags, INSN_DATA);
	assert_string_equal(insn(&f, 0x2)->text, ".byte   0xb8");
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
		cmocka_unit_test(target_inside_an_instruction_is_counted_not_split),
		cmocka_unit_test(aarch64_loop_splits_at_its_header_and_leaves_the_literal_out),
		cmocka_unit_test(aarch64_jump_table_and_udf_trap),
		cmocka_unit_test(aarch64_pointer_auth_branches_are_decoded_by_hand),
		cmocka_unit_test(s390x_jump_table_big_endian_and_cranelift_traps),
		cmocka_unit_test(riscv64_jump_table_is_jumps_each_a_block),
		cmocka_unit_test(samples_after_an_int3_make_the_osr_loop_code),
		cmocka_unit_test(v8_table_of_addresses_gives_every_case_a_block),
		cmocka_unit_test(a_sampled_offset_resynchronises_the_sweep),
		cmocka_unit_test(the_more_sampled_of_two_overlapping_offsets_wins),
		cmocka_unit_test(unknown_e_machine_is_not_supported),
		cmocka_unit_test(code_larger_than_32_bits_is_refused),
		cmocka_unit_test(empty_code_has_no_instructions_and_no_blocks),
		cmocka_unit_test(single_byte_is_one_instruction_in_one_block),
	};

	return cmocka_run_group_tests_name("cfg", tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/*
 * Unit tests for cfg.c on x86-64: decoding that sampled offsets steer
 * (overlapping decodings, OSR code, a resynchronised sweep, V8's tables of
 * addresses) and targets at run-time addresses (the code alone: test-cfg.c).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cfg-check.h"

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
	check_texts(f, &in);
}

/* call-out.S, at 0x7f0000018060: calls before and after the function */
static const uint8_t call_out[] = {
	0xe8, 0x9b, 0x7f, 0xfe, 0xff,		/* 0: call 0x7f0000000000	(0 - 0x18060) */
	0xe8, 0x00, 0x01, 0x00, 0x00,		/* 5: call 0x7f000001816a */
	0xc3,					/* a: ret */
};

/* A target outside the function is where it goes: the run-time address plus
 * the offset (objdump -D --adjust-vma=0x7f0000018060 prints the same), never
 * the offset wrapped to 64 bits; the target itself stays function-relative. */
static void targets_outside_the_function_are_absolute_addresses(void **state)
{
	struct cfg_func f;

	build_seeded(&f, call_out, sizeof(call_out), 0x7f0000018060, NULL, NULL, 0);
	assert_int_equal(insn(&f, 0x0)->target, (uint64_t)-0x18060);
	assert_string_equal(insn(&f, 0x0)->text, "call    0x7f0000000000");
	assert_int_equal(insn(&f, 0x5)->target, 0x10a);
	assert_string_equal(insn(&f, 0x5)->text, "call    0x7f000001816a");
	cfg_func__release(&f);
	(void)state;
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
	assert_int_equal(insn(&f, 0x1)->flags, INSN_DATA | INSN_CUT);
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
	assert_int_equal(insn(&f, 0x2)->flags, INSN_DATA | INSN_CUT);
	assert_string_equal(insn(&f, 0x2)->text, ".byte   0xb8");
	cfg_func__release(&f);
}

/* BEAM's prologue (hot:loop/3's, test-data/jit-beam) and a body that tail-calls
 * back to its +0x28: the func_info words given as data (cfg_input.data,
 * annotate/beam/beam.c) are .quad rows, one block that nothing runs into. */
static void a_runtimes_data_words_are_data_rows(void **state)
{
	static const uint8_t code[] = {
		0xe8, 0x5b, 0xf9, 0xff, 0xff, 0x0f, 0x1f, 0x00,		/*  0: call; nop */
		0, 0, 0, 0, 0, 0, 0, 0,					/*  8: gen_bp */
		0x4b, 0xf5, 0x02, 0, 0, 0, 0, 0,			/* 10: module */
		0xcb, 0x51, 0x01, 0, 0, 0, 0, 0,			/* 18: function */
		0x03, 0, 0, 0, 0, 0, 0, 0,				/* 20: arity */
		0xeb, 0x06, 0x00, 0xe8, 0x50, 0xf9, 0xff, 0xff,		/* 28: jmp 0x30; flag; call */
		0x55,							/* 30: push rbp */
		0xeb, 0xf5,						/* 31: jmp 0x28 */
	};
	static const struct code_data data[] = { { 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 }, { 0x2a, 1 } };
	static const uint32_t seeds[] = { 0x30 };
	struct cfg_input in = {
		.e_machine = EM_X86_64, .code = code, .size = sizeof(code), .addr = 0x7f0000001000,
		.seeds = seeds, .seeds_nr = 1, .flags = CFG_TRAILING_DATA, .data = data, .data_nr = 5,
	};
	char err[128] = "";
	struct cfg_func f;
	long b;

	assert_int_equal(cfg_func__build_from(&f, &in, err, sizeof(err)), 0);
	check_shape(&f);
	check_texts(&f, &in);
	assert_int_equal(insn(&f, 0x20)->flags, INSN_DATA | INSN_WORD);
	assert_string_equal(insn(&f, 0x20)->text, ".quad   0x3");
	assert_string_equal(insn(&f, 0x10)->text, ".quad   0x2f54b");
	assert_string_equal(insn(&f, 0x2a)->text, ".byte   0x0");
	assert_string_equal(insn(&f, 0x28)->text, "jmp     0x30");
	assert_int_equal(insn(&f, 0x2b)->flags & INSN_CALL, INSN_CALL);
	/* the words one block, which the call before does not fall into */
	b = cfg_func__block_at(&f, 0x8);
	assert_true(b > 0);
	assert_block(&f, (size_t)b, 0x8, 0x28);
	assert_false(f.blocks[b - 1].falls_through);
	assert_false(f.blocks[b].falls_through);
	/* the tail call's target, +0x28, is a block of the function */
	assert_int_equal(f.blocks[cfg_func__block_at(&f, 0x28)].start, 0x28);
	cfg_func__release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_runtimes_data_words_are_data_rows),
		cmocka_unit_test(target_inside_an_instruction_is_counted_not_split),
		cmocka_unit_test(targets_outside_the_function_are_absolute_addresses),
		cmocka_unit_test(samples_after_an_int3_make_the_osr_loop_code),
		cmocka_unit_test(v8_table_of_addresses_gives_every_case_a_block),
		cmocka_unit_test(a_sampled_offset_resynchronises_the_sweep),
		cmocka_unit_test(the_more_sampled_of_two_overlapping_offsets_wins),
	};

	return cmocka_run_group_tests_name("cfg-seeds", tests, NULL, NULL);
}

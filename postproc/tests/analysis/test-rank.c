/* SPDX-License-Identifier: MIT */
/* Unit tests of block ranking and the reference's --percent rule (postproc/analysis/rank.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/rank.h"
#include "lib/strbuf.h"
#include "tests/stream/stream-text.h"

/*
 * x86-64, blocks [0x0,0x5) [0x5,0xf) [0xf,0x10):
 *   0: b9 00 00 00 00      mov ecx, 0
 *   5: ff c1               inc ecx
 *   7: 81 f9 00 00 00 01   cmp ecx, 0x1000000
 *   d: 7c f6               jl 0x5
 *   f: c3                  ret
 */
#define LOOP "b900000000ffc181f9000000017cf6c3"

#define NO_TOP SIZE_MAX

static void threshold_stops_after_the_crossing_block(void **state)
{
	const uint64_t c[] = { 40, 30, 20, 10 };

	/* 0 < 50: take 40; 40 < 50: take 30 (crosses); 70 >= 50: stop. */
	assert_int_equal(rank__threshold(c, 4, 100, 50.0, NO_TOP), 2);
	/* Exactly reaching P stops before the next block. */
	assert_int_equal(rank__threshold(c, 4, 100, 40.0, NO_TOP), 1);
	assert_int_equal(rank__threshold(c, 4, 100, 40.01, NO_TOP), 2);
	assert_int_equal(rank__threshold(c, 4, 100, 90.0, NO_TOP), 3);
	assert_int_equal(rank__threshold(c, 4, 100, 100.0, NO_TOP), 4);
	/* The denominator is every sample, not the ranked ones. */
	assert_int_equal(rank__threshold(c, 4, 1000, 100.0, NO_TOP), 4);
	assert_int_equal(rank__threshold(c, 4, 1000, 5.0, NO_TOP), 2);
}

static void percent_zero_prints_nothing(void **state)
{
	const uint64_t c[] = { 40, 30 };

	assert_int_equal(rank__threshold(c, 2, 100, 0.0, NO_TOP), 0);
}

static void top_limits_the_count(void **state)
{
	const uint64_t c[] = { 10, 10, 10, 10 };

	assert_int_equal(rank__threshold(c, 4, 100, 100.0, 2), 2);
	assert_int_equal(rank__threshold(c, 4, 100, 15.0, 3), 2);
	assert_int_equal(rank__threshold(c, 4, 100, 100.0, 0), 0);
	assert_int_equal(rank__threshold(c, 0, 100, 100.0, NO_TOP), 0);
}

static void zero_total_behaves_like_the_reference(void **state)
{
	const uint64_t c[] = { 1, 1 };

	/* 0/0 is NaN (never >= P), then 1/0 is inf: one block, as in Rust. */
	assert_int_equal(rank__threshold(c, 2, 0, 50.0, NO_TOP), 1);
	assert_int_equal(rank__threshold(c, 2, 0, 0.0, NO_TOP), 1);
}

static void ties_keep_function_then_block_order(void **state)
{
	struct rank_block b[] = {
		{ .func = 2, .block = 0, .start = 0x0, .samples = 5 },
		{ .func = 1, .block = 3, .start = 0x30, .samples = 5 },
		{ .func = 1, .block = 1, .start = 0x10, .samples = 5 },
		{ .func = 0, .block = 9, .start = 0x90, .samples = 1 },
		{ .func = 3, .block = 0, .start = 0x0, .samples = 8 },
	};

	rank__sort(b, ARRAY_SIZE(b));
	assert_int_equal(b[0].func, 3);
	assert_int_equal(b[1].func, 1);
	assert_int_equal(b[1].start, 0x10);
	assert_int_equal(b[2].func, 1);
	assert_int_equal(b[2].start, 0x30);
	assert_int_equal(b[3].func, 2);
	assert_int_equal(b[4].func, 0);
}

static const char two_loops[] =
	"hotblocks-stream 1\n"
	"event 0 cycles\n"
	"event 1 instructions\n"
	"total 0 all 100 100\n"
	"total 1 all 10 10\n"
	"object 0 jit pid=1 e_machine=62 addr=0x1000 size=16 code-index=0 load-time=1 dump=d name=alpha\n"
	"code 0 0x0 " LOOP "\n"
	"object 1 jit pid=1 e_machine=62 addr=0x2000 size=16 code-index=1 load-time=1 dump=d name=beta\n"
	"code 1 0x0 " LOOP "\n"
	"object 2 cwasm pid=1 e_machine=62 addr=0x3000 size=16 dso=m.cwasm sym-start=0x0 name=gamma\n"
	"object 3 native pid=1 e_machine=40 addr=0x4000 size=4 dso=libc.so sym-start=0x10 name=delta\n"
	"code 3 0x0 00000000\n"
	"object 4 native pid=1 e_machine=62 addr=0x5000 size=4 dso=libc.so sym-start=0x20 name=eps\n"
	"code 4 0x0 c3\n"
	"sample 0 0 0x0 10 10\n"
	"sample 0 0 0x5 30 30\n"
	"sample 0 0 0x6 2 2\n"
	"sample 0 0 0x20 1 1\n"
	"sample 1 0 0x0 30 30\n"
	"sample 1 1 0xd 10 10\n"
	"sample 2 0 0x4 5 5\n"
	"sample 3 0 0x0 4 4\n"
	"sample 4 1 0x0 7 7\n"
	"end\n";

static void blocks_are_folded_ranked_and_selected(void **state)
{
	struct rank_opts o = { .percent = 50.0, .top = NO_TOP, .disassemble_all = true };
	const struct rank_func *alpha, *beta;
	struct stream s;
	struct rank r;

	stream_text__load(&s, two_loops);
	assert_int_equal(rank__build(&r, &s, 0, &o), 0);
	assert_int_equal(r.total, 100);
	/* jit and cwasm objects: alpha 43, beta 30, gamma 5; delta is native. */
	assert_int_equal(r.jit, 78);
	assert_int_equal(r.attributed, 82);
	/* eps has no samples of this event. */
	assert_int_equal(r.funcs_nr, 4);
	alpha = &r.funcs[0];
	beta = &r.funcs[1];
	assert_int_equal(alpha->samples, 43);
	assert_int_equal(alpha->unaligned, 2);
	assert_int_equal(alpha->outside, 1);
	assert_int_equal(alpha->blocks_nr, 3);
	/* what ranking keeps: the sampled blocks, by address, and their rows */
	assert_int_equal(alpha->sums_nr, 2);
	assert_int_equal(r.sums[alpha->first_sum].start, 0x0);
	assert_int_equal(r.sums[alpha->first_sum].samples, 10);
	assert_int_equal(r.sums[alpha->first_sum + 1].start, 0x5);
	assert_int_equal(r.sums[alpha->first_sum + 1].samples, 30);
	assert_int_equal(r.sums[alpha->first_sum + 1].insns, 3);
	assert_int_equal(r.sums[alpha->first_sum + 1].row_max, 30);
	assert_int_equal(alpha->row_max, 30);
	/* disassembled again: the same blocks, every count */
	struct rank_decoded d;

	assert_int_equal(rank__decode(&r, 0, &d), 0);
	assert_int_equal(d.cfg.blocks_nr, 3);
	assert_int_equal(d.block_samples[0], 10);
	assert_int_equal(d.block_samples[1], 30);
	assert_int_equal(d.block_samples[2], 0);
	assert_int_equal(d.insn_samples[1], 30);
	assert_string_equal(d.cfg.insns[1].text, "inc     ecx");
	assert_int_equal(r.funcs[2].status, RANK_NO_CODE);
	assert_int_equal(r.funcs[3].status, RANK_FAILED);
	assert_non_null(r.funcs[3].error);
	assert_int_equal(r.nocode_objects, 1);
	assert_int_equal(r.nocode_samples, 5);
	assert_int_equal(r.failed_objects, 1);
	assert_int_equal(r.failed_samples, 4);
	assert_int_equal(r.unaligned_samples, 2);
	assert_int_equal(r.outside_samples, 1);

	/* gamma has no code bytes: the whole function is its one entry, ranked
	 * by its 5 samples as a block is, with no instructions. */
	assert_int_equal(r.funcs[2].sums_nr, 1);
	assert_int_equal(r.sums[r.funcs[2].first_sum].block, RANK_WHOLE);
	assert_int_equal(r.sums[r.funcs[2].first_sum].insns, 0);
	/* alpha@0x5 (30) and beta@0x0 (30) tie: alpha comes first in the stream. */
	assert_int_equal(r.blocks_nr, 4);
	assert_int_equal(r.blocks[3].func, 2);
	assert_int_equal(r.blocks[3].block, RANK_WHOLE);
	assert_int_equal(r.blocks[3].samples, 5);
	assert_int_equal(r.blocks[0].func, 0);
	assert_int_equal(r.blocks[0].start, 0x5);
	assert_int_equal(r.blocks[1].func, 1);
	assert_int_equal(r.blocks[1].start, 0x0);
	assert_int_equal(r.blocks[2].func, 0);
	assert_int_equal(r.blocks[2].start, 0x0);
	/* 0 < 50, 30 < 50, then 60 >= 50. */
	assert_int_equal(r.shown_nr, 2);
	assert_true(alpha->shown && beta->shown);
	assert_int_equal(d.block_rank[1], 1);
	assert_int_equal(d.block_rank[0], 3);
	assert_int_equal(d.block_rank[2], 0);
	assert_int_equal(r.sums[alpha->first_sum].rank, 3);
	assert_int_equal(r.sums[alpha->first_sum + 1].rank, 1);
	rank_decoded__release(&d);
	rank__release(&r);
	stream__release(&s);
}

/*
 * Without disassemble_all, objects are disassembled hottest first until the
 * shown blocks are settled: alpha (43) then beta and gamma (30, 5) give blocks
 * 30, 30, 10 of which 30 + 30 cross 50%, and the coldest shown (30) beats
 * delta's 4 samples, so delta is never disassembled. The shown blocks must be
 * the same as with every object disassembled, at every threshold.
 */
static void cold_objects_are_not_disassembled_and_nothing_shown_changes(void **state)
{
	struct rank_opts lazy = { .percent = 50.0, .top = NO_TOP };
	struct rank_opts eager = { .percent = 50.0, .top = NO_TOP, .disassemble_all = true };
	struct stream s;
	struct rank r, e;

	stream_text__load(&s, two_loops);
	assert_int_equal(rank__build(&r, &s, 0, &lazy), 0);
	assert_int_equal(r.funcs[3].status, RANK_SKIPPED);
	assert_int_equal(r.skipped_objects, 1);
	assert_int_equal(r.failed_objects, 0);
	rank__release(&r);
	for (int p = 0; p <= 100; p += 5) {
		for (size_t top = 1; top <= 4; top++) {
			lazy.percent = eager.percent = p;
			lazy.top = eager.top = top == 4 ? NO_TOP : top;
			assert_int_equal(rank__build(&r, &s, 0, &lazy), 0);
			assert_int_equal(rank__build(&e, &s, 0, &eager), 0);
			assert_int_equal(r.shown_nr, e.shown_nr);
			/* what has no code is counted whatever is disassembled:
			 * the notes on it say the same under any -p */
			assert_int_equal(r.nocode_objects, 1);
			assert_int_equal(r.nocode_samples, 5);
			assert_int_equal(e.nocode_objects, 1);
			assert_int_equal(r.blockable, e.blockable);
			for (size_t i = 0; i < r.shown_nr; i++) {
				assert_int_equal(r.blocks[i].func, e.blocks[i].func);
				assert_int_equal(r.blocks[i].start, e.blocks[i].start);
				assert_int_equal(r.blocks[i].samples, e.blocks[i].samples);
			}
			rank__release(&r);
			rank__release(&e);
		}
	}
	stream__release(&s);
}

static void function_filter_and_no_threshold(void **state)
{
	struct rank_opts o = { .percent = 0.0, .no_threshold = true, .top = NO_TOP,
			       .function = "beta" };
	struct stream s;
	struct rank r;

	stream_text__load(&s, two_loops);
	assert_int_equal(rank__build(&r, &s, 0, &o), 0);
	assert_int_equal(r.blocks_nr, 1);
	assert_int_equal(r.blocks[0].func, 1);
	assert_int_equal(r.shown_nr, 1);
	assert_false(r.funcs[0].selected);
	/* W and the losses still cover every object. */
	assert_int_equal(r.jit, 78);
	assert_int_equal(r.unaligned_samples, 2);
	rank__release(&r);
	stream__release(&s);
}

/* --function: an exact name wins over a glob, a glob over a substring. */
static void function_tiers_exact_glob_substring(void **state)
{
	/* The objects with samples of event 0: alpha, beta, gamma, delta. */
	static const struct { const char *pat; bool sel[4]; enum name_match how; } c[] = {
		{ "alpha", { true, false, false, false }, NAME_MATCH_EXACT },
		{ "a", { true, true, true, true }, NAME_MATCH_SUBSTRING },	/* in every name */
		{ "*ta", { false, true, false, true }, NAME_MATCH_GLOB },
		{ "*t*", { false, true, false, true }, NAME_MATCH_GLOB },
		{ "lph", { true, false, false, false }, NAME_MATCH_SUBSTRING },
		{ "et", { false, true, false, false }, NAME_MATCH_SUBSTRING },
		{ "zeta", { false, false, false, false }, NAME_MATCH_NONE },
	};
	struct stream s;

	stream_text__load(&s, two_loops);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct rank_opts o = { .percent = 100.0, .top = NO_TOP, .function = c[i].pat };
		struct rank r;

		assert_int_equal(rank__build(&r, &s, 0, &o), 0);
		assert_int_equal(r.funcs_nr, 4);
		for (size_t k = 0; k < 4; k++)
			assert_int_equal(r.funcs[k].selected, c[i].sel[k]);
		assert_int_equal(r.function_match, c[i].how);
		rank__release(&r);
	}
	stream__release(&s);
}

static void other_event_is_ranked_on_its_own(void **state)
{
	struct rank_opts o = { .percent = 50.0, .top = NO_TOP };
	struct stream s;
	struct rank r;

	stream_text__load(&s, two_loops);
	assert_int_equal(rank__build(&r, &s, 1, &o), 0);
	assert_int_equal(r.total, 10);
	assert_int_equal(r.funcs_nr, 2);
	assert_int_equal(r.jit, 10);
	assert_int_equal(r.attributed, 17);
	assert_int_equal(r.blocks_nr, 2);
	/* beta's jl at 0xd is in block 0x5; eps's ret is its only block. */
	assert_int_equal(r.funcs[0].obj, 1);
	assert_int_equal(r.funcs[1].obj, 4);
	assert_int_equal(r.blocks[0].func, 0);
	assert_int_equal(r.blocks[0].start, 0x5);
	assert_int_equal(r.blocks[1].func, 1);
	assert_int_equal(r.shown_nr, 1);
	rank__release(&r);
	stream__release(&s);
}

/*
 * A sampled address is executed code: bytes after the final ret that were sampled
 * are instructions in a block (V8's OSR entries live after an int3), while the same
 * bytes unsampled stay trailing data.
 */
static void sampled_bytes_after_the_return_are_code(void **state)
{
	struct rank_opts o = { .percent = 100.0, .top = NO_TOP };
	struct stream s;
	struct rank r;

	/* ret, then add [rax], al twice; object 1 is the same without samples after ret */
	stream_text__load(&s, "hotblocks-stream 1\nevent 0 e\ntotal 0 all 4 4\n"
	                  "object 0 jit pid=1 e_machine=62 addr=0x1000 size=5 code-index=0 load-time=1 "
	                  "dump=d name=t\ncode 0 0x0 c300000000\n"
	                  "object 1 jit pid=1 e_machine=62 addr=0x2000 size=5 code-index=1 load-time=1 "
	                  "dump=d name=u\ncode 1 0x0 c300000000\n"
	                  "sample 0 0 0x0 1 1\nsample 0 0 0x1 1 1\nsample 0 0 0x3 1 1\n"
	                  "sample 1 0 0x0 1 1\nend\n");
	assert_int_equal(rank__build(&r, &s, 0, &o), 0);
	assert_int_equal(r.funcs[0].code_end, 5);
	assert_int_equal(r.funcs[0].blocks_nr, 2);
	assert_int_equal(r.funcs[0].sums_nr, 2);
	assert_int_equal(r.sums[r.funcs[0].first_sum].samples, 1);
	assert_int_equal(r.sums[r.funcs[0].first_sum + 1].samples, 2);
	assert_int_equal(r.funcs[1].code_end, 1);
	assert_int_equal(r.funcs[1].blocks_nr, 1);
	assert_int_equal(r.outside_samples, 0);
	assert_int_equal(r.unaligned_samples, 0);
	assert_int_equal(r.blocks_nr, 3);
	rank__release(&r);
	stream__release(&s);
}

/*
 * The same bytes get the same blocks however they were seen: wasmtime 49.0.3's
 * blend (test-data/wasmtime-real/49.0.3/f64/module.cwasm, 64 bytes at .text
 * 0x2c0): push rbp; mov rbp, rsp; vmulsd/vaddsd with [rip + ...]; mov rsp,
 * rbp; pop rbp; ret (0x19 bytes, objdump -d), then its constant pool: 0.375
 * (0x3fd8...) at 0x20 and 1.71875 (0x3ffb8...) at 0x30. As a jit dump's code
 * load and as the .cwasm's symbol both end at the ret; a native symbol of the
 * same bytes is code throughout (an ELF symbol's size is exact). (The symbol
 * here is the unnamed function's: named blend, it would be the jit load's
 * code, one object after the stream's fold: stream/code-name.h.)
 */
#define BLEND "554889e5c5fb592514000000c5db58051c0000004889ec5dc3000000000000000000000000" \
	"00d83f0000000000000000000000000080fb3f0000000000000000"

static void wasmtime_constants_are_data_in_a_code_load_and_in_the_cwasm(void **state)
{
	struct rank_opts o = { .percent = 100.0, .top = NO_TOP };
	struct stream s;
	struct rank r;

	stream_text__load(&s, "hotblocks-stream 1\nevent 0 e\ntotal 0 all 6 6\n"
	                  "object 0 jit pid=1 e_machine=62 addr=0x1000 size=64 code-index=0 load-time=1 "
	                  "dump=d name=blend\ncode 0 0x0 " BLEND "\n"
	                  "object 1 cwasm pid=1 e_machine=62 addr=0x2000 size=64 dso=module.cwasm sym-start=0x2c0 "
	                  "name=wasm[0]::function[2]\ncode 1 0x0 " BLEND "\n"
	                  "object 2 native pid=1 e_machine=62 addr=0x3000 size=64 dso=libx.so sym-start=0x2c0 "
	                  "name=blend\ncode 2 0x0 " BLEND "\n"
	                  "sample 0 0 0x0 1 1\nsample 0 0 0x18 1 1\nsample 1 0 0x0 1 1\nsample 1 0 0x18 1 1\n"
	                  "sample 2 0 0x0 1 1\nsample 2 0 0x18 1 1\nend\n");
	assert_int_equal(rank__build(&r, &s, 0, &o), 0);
	for (int k = 0; k < 2; k++) {
		assert_int_equal(r.funcs[k].status, RANK_DISASSEMBLED);
		assert_int_equal(r.funcs[k].code_end, 0x19);
		assert_int_equal(r.funcs[k].blocks_nr, 1);
		assert_int_equal(r.sums[r.funcs[k].first_sum].end, 0x19);
	}
	assert_int_equal(r.funcs[2].code_end, 64);
	assert_true(r.funcs[2].blocks_nr > 1);
	assert_int_equal(r.outside_samples, 0);
	rank__release(&r);
	stream__release(&s);
}

/*
 * 80 of 100 samples are in the kernel: the loop's blocks (10 + 6 + 4) can never
 * make 50% of T, so by the reference's rule every block would be listed. P then
 * counts against the 20 samples that can be in blocks: 10 is 50% of them.
 */
static void unreachable_percent_counts_against_the_samples_in_code(void **state)
{
	struct rank_opts o = { .percent = 50.0, .top = NO_TOP };
	struct stream s;
	struct rank r;

	stream_text__load(&s, "hotblocks-stream 1\nevent 0 e\ntotal 0 all 100 100\ntotal 0 kernel 80 80\n"
	                  "object 0 jit pid=1 e_machine=62 addr=0x1000 size=16 code-index=0 load-time=1 "
	                  "dump=d name=t\ncode 0 0x0 " LOOP "\n"
	                  "sample 0 0 0x5 10 10\nsample 0 0 0x0 6 6\nsample 0 0 0xf 4 4\nend\n");
	assert_int_equal(rank__build(&r, &s, 0, &o), 0);
	assert_int_equal(r.blocks_nr, 3);
	assert_true(r.percent_capped);
	assert_int_equal(r.percent_of, 20);
	assert_int_equal(r.shown_nr, 1);
	rank__release(&r);

	/* reachable: the reference's rule, untouched */
	o.percent = 15.0;
	assert_int_equal(rank__build(&r, &s, 0, &o), 0);
	assert_false(r.percent_capped);
	assert_int_equal(r.percent_of, 100);
	assert_int_equal(r.shown_nr, 2);
	rank__release(&r);

	/* -p 100 lists every block either way: nothing to say */
	o.percent = 100.0;
	assert_int_equal(rank__build(&r, &s, 0, &o), 0);
	assert_false(r.percent_capped);
	assert_int_equal(r.shown_nr, 3);
	rank__release(&r);
	stream__release(&s);
}

/* One order of functions for every output: most samples first, ties in object order. */
static void functions_are_ordered_hottest_first(void **state)
{
	struct rank_opts o = { .percent = 50.0, .top = NO_TOP };
	struct stream s;
	struct rank r;

	stream_text__load(&s, "hotblocks-stream 1\nevent 0 e\ntotal 0 all 30 30\n"
	                  "object 0 jit pid=1 e_machine=62 addr=0x1000 size=1 code-index=0 load-time=1 dump=d name=a\n"
	                  "object 1 jit pid=1 e_machine=62 addr=0x2000 size=1 code-index=1 load-time=1 dump=d name=b\n"
	                  "object 2 jit pid=1 e_machine=62 addr=0x3000 size=1 code-index=2 load-time=1 dump=d name=c\n"
	                  "object 3 jit pid=1 e_machine=62 addr=0x4000 size=1 code-index=3 load-time=1 dump=d name=d\n"
	                  "sample 0 0 0x0 5 5\nsample 1 0 0x0 9 9\nsample 3 0 0x0 5 5\nsample 2 0 0x0 11 11\nend\n");
	assert_int_equal(rank__build(&r, &s, 0, &o), 0);
	assert_int_equal(r.funcs_nr, 4);
	assert_int_equal(r.by_heat[0], 2);	/* c: 11 */
	assert_int_equal(r.by_heat[1], 1);	/* b: 9 */
	assert_int_equal(r.by_heat[2], 0);	/* a: 5, before d by object order */
	assert_int_equal(r.by_heat[3], 3);
	rank__release(&r);
	stream__release(&s);
}

static void no_event_gives_an_empty_rank(void **state)
{
	struct rank_opts o = { .percent = 50.0, .top = NO_TOP };
	struct stream s;
	struct rank r;

	stream_text__load(&s, "hotblocks-stream 1\nend\n");
	assert_int_equal(rank__build(&r, &s, -1, &o), 0);
	assert_int_equal(r.total, 0);
	assert_int_equal(r.funcs_nr, 0);
	assert_int_equal(r.shown_nr, 0);
	rank__release(&r);
	stream__release(&s);
}

/* Two rankings of one stream agree: counts, blocks, sums, what is kept. */
static void same_ranking(const struct rank *one, const struct rank *four)
{
	assert_int_equal(four->funcs_nr, one->funcs_nr);
	assert_int_equal(four->blocks_nr, one->blocks_nr);
	assert_int_equal(four->shown_nr, one->shown_nr);
	assert_int_equal(four->sums_nr, one->sums_nr);
	assert_int_equal(four->insns_nr, one->insns_nr);
	assert_int_equal(four->targets_nr, one->targets_nr);
	assert_int_equal(four->skipped_objects, one->skipped_objects);
	for (size_t i = 0; i < one->blocks_nr; i++) {
		assert_int_equal(four->blocks[i].func, one->blocks[i].func);
		assert_int_equal(four->blocks[i].start, one->blocks[i].start);
		assert_int_equal(four->blocks[i].samples, one->blocks[i].samples);
		assert_int_equal(four->sums[four->blocks[i].sum].rank, i + 1);
	}
	for (size_t i = 0; i < one->sums_nr; i++) {
		assert_int_equal(four->sums[i].start, one->sums[i].start);
		assert_int_equal(four->sums[i].rank, one->sums[i].rank);
		assert_int_equal(four->sums[i].first_insn, one->sums[i].first_insn);
	}
	assert_memory_equal(four->insns, one->insns, one->insns_nr * sizeof(*one->insns));
	assert_memory_equal(four->targets, one->targets, one->targets_nr * sizeof(*one->targets));
	for (size_t k = 0; k < one->funcs_nr; k++) {
		assert_int_equal(four->funcs[k].status, one->funcs[k].status);
		assert_int_equal(four->funcs[k].outside, one->funcs[k].outside);
		assert_int_equal(four->funcs[k].sums_nr, one->funcs[k].sums_nr);
	}
}

/* What was kept of funcs[k] is what a disassembly again has. */
static void kept_as_decoded(const struct rank *r, size_t k)
{
	const struct rank_func *f = &r->funcs[k];
	struct rank_decoded d;
	uint32_t off;
	size_t target;

	assert_int_equal(rank__decode(r, k, &d), 0);
	for (size_t j = 0; j < f->sums_nr; j++) {
		const struct rank_sum *sum = &r->sums[f->first_sum + j];
		const struct cfg_block *blk = &d.cfg.blocks[sum->block];

		assert_int_equal(blk->start, sum->start);
		assert_int_equal(blk->nr, sum->insns);
		assert_int_equal(d.block_samples[sum->block], sum->samples);
		assert_int_equal(d.block_rank[sum->block], sum->rank);
		off = sum->start;
		target = sum->first_target;
		for (uint32_t n = 0; n < sum->insns; n++) {
			const struct cfg_insn *want = &d.cfg.insns[blk->first + n];
			struct cfg_insn got;

			rank__insn(r, sum, n, &off, &target, &got);
			assert_int_equal(got.off, want->off);
			assert_int_equal(got.size, want->size);
			assert_int_equal(got.flags, want->flags);
			if (got.flags & INSN_HAS_TARGET)
				assert_int_equal(got.target, want->target);
			assert_int_equal(rank__samples_at(r, k, got.off), d.insn_samples[blk->first + n]);
		}
	}
	rank_decoded__release(&d);
}

/*
 * 300 objects of two codes (the loop; the V8 table of BR_TABLE-like shape is
 * not needed: every object has a branch with a target), with samples that
 * make ties and a cold tail: ranked on one thread and on four, the ranking
 * and everything kept of each object are the same, and each object
 * disassembled again gives the blocks and counts it ranked with.
 */
static void threads_rank_as_one_does(void **state)
{
	struct rank_opts o = { .percent = 20.0, .top = NO_TOP };
	struct strbuf sb = { 0 };
	struct stream s;
	struct rank one, four;

	strbuf_addstr(&sb, "hotblocks-stream 1\nevent 0 e\ntotal 0 all 9000 9000\n");
	for (int i = 0; i < 300; i++) {
		strbuf_addf(&sb, "object %d jit pid=1 e_machine=62 addr=0x%x size=16 code-index=%d "
			    "load-time=1 dump=d name=f%d\ncode %d 0x0 " LOOP "\n", i, 0x1000 + i * 16,
			    i, i, i);
		strbuf_addf(&sb, "sample %d 0 0x5 %d %d\nsample %d 0 0x0 %d %d\n", i, 1 + (i * 7) % 50,
			    1 + (i * 7) % 50, i, 1 + i % 3, 1 + i % 3);
		if (i % 5 == 0)
			strbuf_addf(&sb, "sample %d 0 0xf 2 2\n", i);
	}
	strbuf_addstr(&sb, "end\n");
	assert_false(sb.oom);
	stream_text__load(&s, sb.buf);
	for (int lazy = 0; lazy < 2; lazy++) {
		o.no_threshold = !lazy;
		setenv("HOTBLOCKS_THREADS", "1", 1);
		assert_int_equal(rank__build(&one, &s, 0, &o), 0);
		setenv("HOTBLOCKS_THREADS", "4", 1);
		assert_int_equal(rank__build(&four, &s, 0, &o), 0);
		unsetenv("HOTBLOCKS_THREADS");
		assert_int_equal(one.funcs_nr, 300);
		same_ranking(&one, &four);
		/* lazily, the cold tail is never disassembled */
		assert_true(lazy ? one.skipped_objects > 0 : one.skipped_objects == 0);
		for (size_t k = 0; k < one.funcs_nr; k++)
			if (four.funcs[k].status == RANK_DISASSEMBLED)
				kept_as_decoded(&four, k);
		rank__release(&one);
		rank__release(&four);
	}
	strbuf_release(&sb);
	stream__release(&s);
}

/*
 * A ranking whole_only (every listed function built whole again) ranks as
 * one that keeps the rows: the same blocks, places, sums and counts of
 * instructions, on one thread and on four; it keeps no instruction.
 */
static void whole_only_ranks_the_same_without_rows(void **state)
{
	struct rank_opts o = { .percent = 20.0, .no_threshold = true, .top = NO_TOP };
	struct strbuf sb = { 0 };
	struct stream s;
	struct rank rows, whole;

	strbuf_addstr(&sb, "hotblocks-stream 1\nevent 0 e\ntotal 0 all 9000 9000\n");
	for (int i = 0; i < 100; i++) {
		strbuf_addf(&sb, "object %d jit pid=1 e_machine=62 addr=0x%x size=16 code-index=%d "
			    "load-time=1 dump=d name=f%d\ncode %d 0x0 " LOOP "\n", i, 0x1000 + i * 16,
			    i, i, i);
		strbuf_addf(&sb, "sample %d 0 0x5 %d %d\nsample %d 0 0x0 %d %d\n", i, 1 + (i * 7) % 50,
			    1 + (i * 7) % 50, i, 1 + i % 3, 1 + i % 3);
	}
	strbuf_addstr(&sb, "end\n");
	assert_false(sb.oom);
	stream_text__load(&s, sb.buf);
	assert_int_equal(rank__build(&rows, &s, 0, &o), 0);
	for (int threads = 1; threads <= 4; threads += 3) {
		o.whole_only = true;
		setenv("HOTBLOCKS_THREADS", threads == 1 ? "1" : "4", 1);
		assert_int_equal(rank__build(&whole, &s, 0, &o), 0);
		unsetenv("HOTBLOCKS_THREADS");
		assert_true(rows.insns_nr > 0 && rows.targets_nr > 0);
		assert_int_equal(whole.insns_nr, 0);
		assert_int_equal(whole.targets_nr, 0);
		assert_int_equal(whole.blocks_nr, rows.blocks_nr);
		assert_int_equal(whole.sums_nr, rows.sums_nr);
		assert_int_equal(whole.shown_nr, rows.shown_nr);
		for (size_t i = 0; i < rows.blocks_nr; i++) {
			assert_int_equal(whole.blocks[i].func, rows.blocks[i].func);
			assert_int_equal(whole.blocks[i].start, rows.blocks[i].start);
			assert_int_equal(whole.blocks[i].samples, rows.blocks[i].samples);
		}
		for (size_t i = 0; i < rows.sums_nr; i++) {
			assert_int_equal(whole.sums[i].block, rows.sums[i].block);
			assert_int_equal(whole.sums[i].end, rows.sums[i].end);
			assert_int_equal(whole.sums[i].rank, rows.sums[i].rank);
			assert_int_equal(whole.sums[i].row_max, rows.sums[i].row_max);
			assert_int_equal(whole.sums[i].insns, rows.sums[i].insns);
		}
		for (size_t k = 0; k < rows.funcs_nr; k++) {
			struct rank_decoded d;

			assert_int_equal(whole.funcs[k].insns_nr, rows.funcs[k].insns_nr);
			assert_int_equal(whole.funcs[k].row_max, rows.funcs[k].row_max);
			/* built again, it has the blocks and places it ranked with */
			assert_int_equal(rank__decode(&whole, k, &d), 0);
			rank_decoded__release(&d);
		}
		rank__release(&whole);
	}
	rank__release(&rows);
	strbuf_release(&sb);
	stream__release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(threshold_stops_after_the_crossing_block),
		cmocka_unit_test(percent_zero_prints_nothing),
		cmocka_unit_test(top_limits_the_count),
		cmocka_unit_test(zero_total_behaves_like_the_reference),
		cmocka_unit_test(ties_keep_function_then_block_order),
		cmocka_unit_test(blocks_are_folded_ranked_and_selected),
		cmocka_unit_test(cold_objects_are_not_disassembled_and_nothing_shown_changes),
		cmocka_unit_test(function_filter_and_no_threshold),
		cmocka_unit_test(function_tiers_exact_glob_substring),
		cmocka_unit_test(other_event_is_ranked_on_its_own),
		cmocka_unit_test(sampled_bytes_after_the_return_are_code),
		cmocka_unit_test(wasmtime_constants_are_data_in_a_code_load_and_in_the_cwasm),
		cmocka_unit_test(unreachable_percent_counts_against_the_samples_in_code),
		cmocka_unit_test(functions_are_ordered_hottest_first),
		cmocka_unit_test(no_event_gives_an_empty_rank),
		cmocka_unit_test(threads_rank_as_one_does),
		cmocka_unit_test(whole_only_ranks_the_same_without_rows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* Unit tests of pairing blocks and functions in a comparison (postproc/diff/diff-match.c, diff-match-blocks.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <math.h>

#include <cmocka.h>

#include "diff/diff-build.h"
#include "diff/diff-match.h"
#include "diff/diff.h"
#include "render/graph/change-scale.h"
#include "render/graph/heat.h"
#include "render/render.h"

static void identity_is(enum hb_object_kind kind, const char *name, const char *dso,
			const char *with, const char *without)
{
	char buf[256];

	diff__identity(buf, sizeof(buf), kind, name, dso, true);
	assert_string_equal(buf, with);
	diff__identity(buf, sizeof(buf), kind, name, dso, false);
	assert_string_equal(buf, without);
}

/* What two compilations of one function share, in the names V8 and others give. */
static void identities(void **state)
{
	/* V8 11+ and V8 10 name one TurboFan function apart: tag, tier, column */
	identity_is(HB_KIND_JIT, "JS:*work /srv/a/hot.js:5:14", NULL, "work /srv/a/hot.js:5:14",
		    "work hot.js");
	identity_is(HB_KIND_JIT, "LazyCompile:*work /srv/b/hot.js:5", NULL, "work /srv/b/hot.js:5",
		    "work hot.js");
	identity_is(HB_KIND_JIT, "JS:^work /srv/a/hot.js:5:14", NULL, "work /srv/a/hot.js:5:14",
		    "work hot.js");
	/* wasm: the function index stays, the tier goes */
	identity_is(HB_KIND_JIT, "JS:work-1-turbofan", NULL, "work-1", "work-1");
	identity_is(HB_KIND_JIT, "Function:work-1-liftoff", NULL, "work-1", "work-1");
	/* a tier word not after an index is part of the name */
	identity_is(HB_KIND_JIT, "JS:x-turbofan", NULL, "x-turbofan", "x-turbofan");
	/* top-level code has no name: the script is all there is */
	identity_is(HB_KIND_JIT, "JS:* /srv/run.js:1:1", NULL, " /srv/run.js:1:1", " run.js");
	/* names of other JITs stay as they are ("::" is no V8 tag) */
	identity_is(HB_KIND_JIT, "wasm[0]::function[1]", NULL, "wasm[0]::function[1]",
		    "wasm[0]::function[1]");
	identity_is(HB_KIND_JIT, "std::sort", NULL, "std::sort", "std::sort");
	identity_is(HB_KIND_JIT, "hash", NULL, "hash", "hash");
	identity_is(HB_KIND_JIT, "", NULL, "", "");
	/* symbols: the file's base name, then without it */
	identity_is(HB_KIND_NATIVE, "malloc", "/usr/lib/x86_64-linux-gnu/libc.so.6",
		    "libc.so.6 malloc", "malloc");
	identity_is(HB_KIND_CWASM, "wasm[0]::function[2]::mix", "/tmp/m.cwasm",
		    "m.cwasm wasm[0]::function[2]::mix", "wasm[0]::function[2]::mix");
}

static void identity_is_cut_to_the_buffer(void **state)
{
	char buf[6];

	assert_int_equal(diff__identity(buf, sizeof(buf), HB_KIND_JIT, "JS:*work /a.js:1:2", NULL,
					true), 5);
	assert_string_equal(buf, "work ");
	assert_int_equal(diff__identity(buf, sizeof(buf), HB_KIND_NATIVE, "function", "/l.so",
					true), 5);
	assert_string_equal(buf, "l.so ");
	assert_int_equal(diff__identity(buf, 0, HB_KIND_JIT, "x", NULL, true), 0);
}

/* A synthetic block: rows of (mnemonic text, wasm offset or -1, source line or 0). */
struct row_spec {
	const char *text;
	int wasm;
	unsigned line;
};

struct block_spec {
	uint64_t samples;
	const struct row_spec *rows;
	size_t nr;
};

#define BLOCK(samples, ...)                                                          \
	{ samples, (const struct row_spec[]){ __VA_ARGS__ },                         \
	  sizeof((const struct row_spec[]){ __VA_ARGS__ }) / sizeof(struct row_spec) }

static void make_func(struct report_func *f, const struct block_spec *b, size_t nb)
{
	size_t rows = 0, r = 0;
	uint32_t off = 0;

	for (size_t i = 0; i < nb; i++)
		rows += b[i].nr;
	memset(f, 0, sizeof(*f));
	f->blocks = calloc(nb, sizeof(*f->blocks));
	f->rows = calloc(rows, sizeof(*f->rows));
	assert_non_null(f->blocks);
	assert_non_null(f->rows);
	f->blocks_nr = nb;
	f->rows_nr = rows;
	for (size_t i = 0; i < nb; i++) {
		struct report_block *blk = &f->blocks[i];

		blk->start = off;
		blk->insns = (uint32_t)b[i].nr;
		blk->samples = b[i].samples;
		blk->listed = true;
		blk->first_row = r;
		for (size_t k = 0; k < b[i].nr; k++, r++) {
			struct report_row *row = &f->rows[r];

			row->off = off;
			row->size = 4;
			row->text = b[i].rows[k].text;
			row->block = (int32_t)i;
			if (b[i].rows[k].wasm >= 0) {
				row->has_wasm_offset = true;
				row->wasm_offset = (uint32_t)b[i].rows[k].wasm;
			}
			if (b[i].rows[k].line) {
				row->source_file = k % 2 ? "/one/checkout/k.c" : "/other/checkout/k.c";
				row->source_line = b[i].rows[k].line;
			}
			off += 4;
		}
		blk->end = off;
	}
}

/* A diff of one function pair from two sets of blocks, matched. */
static void match(struct diff *d, const struct block_spec *a, size_t na,
		  const struct block_spec *b, size_t nb)
{
	static struct report_func fa, fb;

	memset(d, 0, sizeof(*d));
	make_func(&fa, a, na);
	make_func(&fb, b, nb);
	d->side[DIFF_BASE].report.funcs = &fa;
	d->side[DIFF_BASE].report.funcs_nr = 1;
	d->side[DIFF_NEW].report.funcs = &fb;
	d->side[DIFF_NEW].report.funcs_nr = 1;
	d->funcs = calloc(1, sizeof(*d->funcs));
	assert_non_null(d->funcs);
	d->funcs_nr = 1;
	d->funcs[0] = (struct diff_func){ .f = { 0, 0 }, .compared = true };
	assert_int_equal(diff_match__blocks(d, 0), 0);
}

static void unmatch(struct diff *d)
{
	for (int s = 0; s < DIFF__SIDES; s++) {
		free(d->side[s].report.funcs[0].blocks);
		free(d->side[s].report.funcs[0].rows);
	}
	free(d->funcs);
	free(d->pairs);
}

/* The pair of BASE block a, or NULL. */
static const struct diff_pair *pair_of(const struct diff *d, int32_t a)
{
	for (size_t i = 0; i < d->pairs_nr; i++)
		if (d->pairs[i].b[DIFF_BASE] == a)
			return &d->pairs[i];
	return NULL;
}

/*
 * Wasm offsets pair blocks that moved (another order, other instructions);
 * the best overlap wins, and a block pairs once.
 */
static void wasm_offsets_pair_moved_blocks(void **state)
{
	const struct block_spec a[] = {
		BLOCK(0, { "push", 1, 0 }, { "mov", 2, 0 }),
		BLOCK(90, { "add", 10, 0 }, { "imul", 11, 0 }, { "lea", 12, 0 }, { "jne", 13, 0 }),
		BLOCK(10, { "ret", 20, 0 }),
	};
	/* NEW: the loop is last, shorter (two offsets hoisted), the exit first */
	const struct block_spec b[] = {
		BLOCK(5, { "ret", 20, 0 }),
		BLOCK(0, { "push", 1, 0 }, { "mov", 2, 0 }, { "mov", 10, 0 }),
		BLOCK(95, { "imul", 11, 0 }, { "jne", 13, 0 }),
	};
	struct diff d;
	const struct diff_pair *p;

	match(&d, a, 3, b, 3);
	p = pair_of(&d, 1);
	assert_non_null(p);
	assert_int_equal(p->b[DIFF_NEW], 2);
	assert_int_equal(p->key, DIFF_KEY_WASM);
	/* {10,11,12,13} and {11,13}: 2 of 4 */
	assert_true(p->score > 0.49 && p->score < 0.51);
	p = pair_of(&d, 2);
	assert_non_null(p);
	assert_int_equal(p->b[DIFF_NEW], 0);
	assert_int_equal(p->key, DIFF_KEY_WASM);
	assert_true(p->score == 1.0);
	/* block 0 has no samples on either side: no pair */
	assert_null(pair_of(&d, 0));
	assert_int_equal(d.pairs_nr, 2);
	assert_int_equal(d.keys[DIFF_KEY_WASM], 2);
	unmatch(&d);
}

/* Below the least overlap (a fifth), a block is on one side only. */
static void little_overlap_is_no_pair(void **state)
{
	const struct block_spec a[] = {
		BLOCK(50, { "a", 1, 0 }, { "b", 2, 0 }, { "c", 3, 0 }, { "d", 4, 0 }, { "e", 5, 0 },
		      { "f", 6, 0 }),
	};
	const struct block_spec b[] = {
		BLOCK(50, { "x", 6, 0 }, { "y", 7, 0 }, { "z", 8, 0 }, { "w", 9, 0 }, { "v", 10, 0 }),
	};
	struct diff d;

	match(&d, a, 1, b, 1);
	/* 1 of 10 offsets in common; the texts share nothing either */
	assert_int_equal(d.pairs_nr, 2);
	assert_int_equal(d.pairs[0].b[DIFF_NEW], -1);
	assert_int_equal(d.pairs[0].key, DIFF_KEY_NONE);
	assert_int_equal(d.pairs[1].b[DIFF_BASE], -1);
	assert_int_equal(d.pairs[1].b[DIFF_NEW], 0);
	unmatch(&d);
}

/* Source lines by base name (two checkouts), before the instructions. */
static void source_lines_come_before_instructions(void **state)
{
	const struct block_spec a[] = {
		BLOCK(30, { "mov", -1, 7 }, { "add", -1, 8 }),
		BLOCK(70, { "mov", -1, 12 }, { "add", -1, 13 }),
	};
	/* the same instructions, the lines swapped: lines win */
	const struct block_spec b[] = {
		BLOCK(60, { "mov", -1, 12 }, { "add", -1, 13 }),
		BLOCK(40, { "mov", -1, 7 }, { "add", -1, 8 }),
	};
	struct diff d;

	match(&d, a, 2, b, 2);
	assert_int_equal(pair_of(&d, 0)->b[DIFF_NEW], 1);
	assert_int_equal(pair_of(&d, 0)->key, DIFF_KEY_SOURCE);
	assert_int_equal(pair_of(&d, 1)->b[DIFF_NEW], 0);
	assert_int_equal(d.keys[DIFF_KEY_SOURCE], 2);
	unmatch(&d);
}

/*
 * Instructions: the same text found once on each side pairs first (score
 * 1), anchoring the rest; then the most alike by mnemonics near where they
 * are expected, the kind of branch that ends them deciding between copies.
 */
static void instructions_pair_by_text_then_likeness(void **state)
{
	const struct block_spec a[] = {
		BLOCK(1, { "cmp     rsp, qword ptr [rbx]", -1, 0 }, { "jbe     0x100", -1, 0 }),
		BLOCK(40, { "lea     edi, [rsi + 0x1400]", -1, 0 }, { "movzx   edi, byte ptr [rdx + rdi]", -1, 0 },
		      { "lea     ecx, [rdi + rcx*2]", -1, 0 }, { "add     esi, 4", -1, 0 }, { "je      0xd0", -1, 0 }),
		BLOCK(50, { "lea     ecx, [rsi + 0x1400]", -1, 0 }, { "movzx   ecx, byte ptr [rdx + rcx]", -1, 0 },
		      { "lea     ecx, [rcx + rax*2]", -1, 0 }, { "add     esi, 4", -1, 0 }, { "jne     0x40", -1, 0 }),
		BLOCK(2, { "mov     rsp, rbp", -1, 0 }, { "ret", -1, 0 }),
	};
	/* NEW: the step changed; the stack check and the exit kept their text */
	const struct block_spec b[] = {
		BLOCK(3, { "cmp     rsp, qword ptr [rbx]", -1, 0 }, { "jbe     0xf0", -1, 0 }),
		BLOCK(80, { "lea     edi, [rsi + 0x1400]", -1, 0 }, { "rol     ecx, 5", -1, 0 },
		      { "movzx   edi, byte ptr [rdx + rdi]", -1, 0 }, { "imul    ecx, ecx, 0x9e3779b1", -1, 0 },
		      { "add     esi, 2", -1, 0 }, { "je      0xb5", -1, 0 }),
		BLOCK(70, { "lea     ecx, [rsi + 0x1400]", -1, 0 }, { "rol     eax, 5", -1, 0 },
		      { "movzx   ecx, byte ptr [rdx + rcx]", -1, 0 }, { "imul    edi, eax, 0x9e3779b1", -1, 0 },
		      { "add     esi, 2", -1, 0 }, { "jne     0x40", -1, 0 }),
		BLOCK(0, { "mov     rsp, rbp", -1, 0 }, { "ret", -1, 0 }),
	};
	struct diff d;
	const struct diff_pair *p;

	match(&d, a, 4, b, 4);
	/* the branch target is masked: the same text */
	p = pair_of(&d, 0);
	assert_int_equal(p->b[DIFF_NEW], 0);
	assert_int_equal(p->key, DIFF_KEY_ASM);
	assert_true(p->score == 1.0);
	assert_int_equal(pair_of(&d, 3)->b[DIFF_NEW], 3);
	/* je with je, jne with jne */
	p = pair_of(&d, 1);
	assert_int_equal(p->b[DIFF_NEW], 1);
	assert_int_equal(p->key, DIFF_KEY_ASM);
	assert_true(p->score > 0.5 && p->score < 1.0);
	assert_int_equal(pair_of(&d, 2)->b[DIFF_NEW], 2);
	assert_int_equal(d.keys[DIFF_KEY_ASM], 4);
	unmatch(&d);
}

/* A function of one side: every sampled block alone. */
static void one_side_only(void **state)
{
	const struct block_spec a[] = {
		BLOCK(5, { "nop", -1, 0 }),
		BLOCK(0, { "ret", -1, 0 }),
	};
	struct diff d = { 0 };
	static struct report_func fa;

	make_func(&fa, a, 2);
	d.side[DIFF_BASE].report.funcs = &fa;
	d.funcs = calloc(1, sizeof(*d.funcs));
	assert_non_null(d.funcs);
	d.funcs_nr = 1;
	d.funcs[0] = (struct diff_func){ .f = { 0, -1 }, .compared = true };
	assert_int_equal(diff_match__blocks(&d, 0), 0);
	assert_int_equal(d.pairs_nr, 1);
	assert_int_equal(d.pairs[0].b[DIFF_BASE], 0);
	assert_int_equal(d.pairs[0].b[DIFF_NEW], -1);
	assert_int_equal(d.pairs[0].key, DIFF_KEY_NONE);
	assert_int_equal(d.funcs[0].first_pair, 0);
	assert_int_equal(d.funcs[0].pairs_nr, 1);
	free(fa.blocks);
	free(fa.rows);
	free(d.funcs);
	free(d.pairs);
}

/* Whole comparisons of small streams. */

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(identities),
		cmocka_unit_test(identity_is_cut_to_the_buffer),
		cmocka_unit_test(wasm_offsets_pair_moved_blocks),
		cmocka_unit_test(little_overlap_is_no_pair),
		cmocka_unit_test(source_lines_come_before_instructions),
		cmocka_unit_test(instructions_pair_by_text_then_likeness),
		cmocka_unit_test(one_side_only),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

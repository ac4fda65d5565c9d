/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the report model (postproc/report/report-build.c): which
 * functions, blocks and rows it lists, in what order, the control-flow edges
 * of each block, the source lines of --source-lines, the notes, and what
 * every output shows of it (report-show.c: ditto, columns, scales). The code bytes are hand
 * assembled; each listing beside them was checked with objdump -D -b binary
 * -mi386:x86-64 -M intel, and the edges by following the branches by hand.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "report/report-build.h"
#include "report/report-show.h"
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

/*
 * Two nested loops, blocks [0,2) [2,4) [4,8) [8,0xd) [0xd,0xe):
 *   0: 31 c0         xor eax, eax
 *   2: ff c0         inc eax          <- outer loop
 *   4: ff c9         dec ecx          <- inner loop
 *   6: 75 fc         jne 0x4
 *   8: 83 f8 0a      cmp eax, 0xa
 *   b: 7c f5         jl 0x2
 *   d: c3            ret
 */
#define NESTED "31c0ffc0ffc975fc83f80a7cf5c3"

/*
 * The shape of Cranelift's x64 br_table: a table of 32-bit offsets right after
 * the indirect jump. Blocks [0,5) [5,0x15) [0x15,0x21) (the table) [0x21,0x27)
 * [0x27,0x2d) [0x2d,0x30):
 *   0: 83 ff 02              cmp edi, 2
 *   3: 73 28                 jae 0x2d
 *   5: 48 8d 0d 09 00 00 00  lea rcx, [rip + 9]          (0x15)
 *   c: 48 63 04 b9           movsxd rax, dword ptr [rcx + rdi*4]
 *  10: 48 01 c1              add rcx, rax
 *  13: ff e1                 jmp rcx
 *  15: 0c 00 00 00 / 12 00 00 00 / 18 00 00 00   cases 0x21, 0x27, 0x2d
 *  21: b8 0a 00 00 00 c3     mov eax, 0xa; ret
 *  27: b8 14 00 00 00 c3     mov eax, 0x14; ret
 *  2d: 31 c0 c3              xor eax, eax; ret
 */
#define BR_TABLE "83ff027328488d0d09000000486304b94801c1ffe1" \
	"0c0000001200000018000000b80a000000c3b814000000c331c0c3"

/*
 * The shape of V8's TurboFan switch on x64: a table of run-time addresses
 * after the code (loaded at 0x7f0000001000). Blocks [0,5) [5,0x10)
 * [0x10,0x16) [0x16,0x1b) [0x1b,0x1f) [0x1f,0x22) [0x22,0x23) [0x23,0x3b):
 *   0: 83 ff 03              cmp edi, 3
 *   3: 73 1a                 jae 0x1f
 *   5: 4c 8d 15 17 00 00 00  lea r10, [rip + 0x17]        (0x23)
 *   c: 41 ff 24 fa           jmp qword ptr [r10 + rdi*8]
 *  10: b8 01 00 00 00 c3     mov eax, 1; ret              case 0
 *  16: b8 02 00 00 00        mov eax, 2                   case 1, falls into
 *  1b: 83 c0 03 c3           add eax, 3; ret              case 2
 *  1f: 31 c0 c3              xor eax, eax; ret            default
 *  22: 90                    nop (padding before the table)
 *  23: 3 x .quad 0x7f0000001010, 0x7f0000001016, 0x7f000000101b
 *  3b: metadata
 */
#define V8_TABLE "83ff03731a4c8d151700000041ff24fab801000000c3b80200000083c003c331c0c390" \
	"10100000007f000016100000007f00001b100000007f0000" "0100000020080000"

#define NO_TOP SIZE_MAX

struct fixture {
	struct stream s;
	struct rank r;
	struct rank_opts ro;
	struct annotator *annot;
	const char **names;
	struct report rep;
};

/* Rank and report text with ro and o, annotated when annotate is set. */
static void build(struct fixture *x, const char *text, struct rank_opts ro,
		  struct report_opts o, bool annotate)
{
	struct annot_inputs in = { 0 };
	char err[256];

	memset(x, 0, sizeof(*x));
	stream_text__load(&x->s, text);
	x->ro = ro;
	if (annotate) {
		assert_int_equal(annotator__open(&x->annot, &in, err, sizeof(err)), 0);
		if (x->ro.function) {
			x->names = annotator__display_names(x->annot, &x->s, x->s.events_nr ? 0 : -1);
			assert_non_null(x->names);
			x->ro.alt_names = x->names;
		}
	}
	assert_int_equal(rank__build(&x->r, &x->s, x->s.events_nr ? 0 : -1, &x->ro), 0);
	assert_int_equal(report__build(&x->rep, &x->r, &x->ro, x->annot, &o), 0);
}

static void release(struct fixture *x)
{
	report__release(&x->rep);
	rank__release(&x->r);
	free(x->names);
	annotator__close(x->annot);
	stream__release(&x->s);
}

/* Function i with its blocks and rows (report__func_open; report__release
 * closes it). */
static const struct report_func *opened(const struct report *rep, size_t i)
{
	assert_int_equal(report__func_open(rep, i), 0);
	return &rep->funcs[i];
}

static const struct report_func *func_named(const struct report *rep, const char *name)
{
	for (size_t i = 0; i < rep->funcs_nr; i++)
		if (!strcmp(rep->funcs[i].code.name, name))
			return opened(rep, i);
	fail_msg("no function %s in the report", name);
	return NULL;
}

/* Assert the edges of block b: nr of them, as (to, kind, back) triples. */
static void assert_edges(const struct report_func *f, size_t b, size_t nr, ...)
{
	const struct report_block *blk = &f->blocks[b];
	va_list ap;

	assert_int_equal(blk->edges_nr, nr);
	va_start(ap, nr);
	for (size_t i = 0; i < nr; i++) {
		const struct report_edge *e = &f->edges[blk->first_edge + i];
		unsigned to = va_arg(ap, unsigned);
		int kind = va_arg(ap, int), back = va_arg(ap, int);

		assert_int_equal(e->from, b);
		assert_int_equal(e->to, to);
		assert_int_equal(e->kind, kind);
		assert_int_equal(e->back, back);
	}
	va_end(ap);
}

static const char two_loops[] =
	"hotblocks-stream 1\n"
	"event 0 cycles\n"
	"total 0 all 100 100\n"
	"total 0 kernel 10 10\n"
	"total 0 unattributed.no-map 7 7\n"
	"object 0 jit pid=1 e_machine=62 addr=0x1000 size=16 code-index=0 load-time=1 dump=d name=alpha\n"
	"code 0 0x0 " LOOP "\n"
	"object 1 jit pid=1 e_machine=62 addr=0x2000 size=16 code-index=1 load-time=1 dump=d name=beta\n"
	"code 1 0x0 " LOOP "\n"
	"object 2 cwasm pid=1 e_machine=62 addr=0x3000 size=16 dso=m.cwasm sym-start=0x0 name=gamma\n"
	"object 3 native pid=1 e_machine=40 addr=0x4000 size=4 dso=libc.so sym-start=0x10 name=delta\n"
	"code 3 0x0 00000000\n"
	"object 4 jit pid=1 e_machine=62 addr=0x5000 size=17 code-index=2 load-time=1 dump=d name=eps\n"
	"code 4 0x0 " LOOP "ff\n"
	"sample 0 0 0x0 10 10\n"
	"sample 0 0 0x5 30 30\n"
	"sample 0 0 0x6 2 2\n"
	"sample 0 0 0x20 1 1\n"
	"sample 1 0 0x0 31 31\n"
	"sample 2 0 0x4 5 5\n"
	"sample 3 0 0x0 4 4\n"
	"sample 4 0 0xd 1 1\n"
	"end\n";

/* The header of two_loops' report: classes by wire name, the unattributed
 * apart, the counts of what is not shown, the selection. */
static void check_two_loops_header(const struct report *rep)
{
	assert_int_equal(rep->classes_nr, 11);
	assert_string_equal(rep->classes[0].name, "jit");
	assert_string_equal(rep->classes[2].name, "perfmap");
	assert_false(rep->classes[2].unattributed);
	assert_string_equal(rep->classes[3].name, "kernel");
	assert_int_equal(rep->classes[3].samples, 10);
	assert_string_equal(rep->classes[5].name, "ambiguous");
	assert_true(rep->classes[5].unattributed);
	assert_string_equal(rep->classes[8].name, "no-map");
	assert_true(rep->classes[8].unattributed);
	assert_int_equal(rep->classes[8].samples, 7);
	assert_int_equal(rep->no_code, 5);
	assert_int_equal(rep->unaligned, 2);
	assert_true(rep->selection.threshold);
	assert_false(rep->selection.all);
	assert_string_equal(rep->event, "cycles");
}

/*
 * The default: the functions of the shown blocks, hottest first; their
 * shown blocks listed, in rank order in report.shown; every block present
 * with its rank; the rows of the listed blocks only.
 */
static void shown_blocks_and_their_functions_are_listed(void **state)
{
	struct fixture x;
	const struct report_func *alpha, *beta;

	/* beta@0x0 31, alpha@0x5 30 cross 50%; alpha@0x0 10, eps@0x5 1 are not shown */
	build(&x, two_loops, (struct rank_opts){ .percent = 50.0, .top = NO_TOP },
	      (struct report_opts){ 0 }, false);
	assert_int_equal(x.rep.total, 100);
	assert_int_equal(x.rep.jit, 80);
	assert_int_equal(x.rep.funcs_nr, 2);
	alpha = &x.rep.funcs[0];	/* 43 samples */
	beta = &x.rep.funcs[1];		/* 31 */
	/* built when an output opens it */
	assert_null(alpha->rows);
	alpha = opened(&x.rep, 0);
	assert_string_equal(alpha->code.name, "alpha");
	assert_string_equal(beta->display_name, "beta");
	assert_string_equal(alpha->kind, "jit");
	assert_int_equal(alpha->samples, 43);
	assert_int_equal(alpha->unaligned, 2);
	assert_int_equal(alpha->outside, 1);
	assert_int_equal(x.rep.shown_nr, 2);
	assert_int_equal(x.rep.shown[0].func, 1);
	assert_int_equal(x.rep.shown[0].block, 0);
	/* the listed blocks only: the shown one */
	assert_int_equal(x.rep.shown[1].func, 0);
	assert_int_equal(x.rep.shown[1].block, 0);
	assert_false(alpha->whole);
	assert_int_equal(alpha->code_blocks_nr, 3);
	assert_int_equal(alpha->sampled_blocks_nr, 2);
	assert_int_equal(alpha->shown_blocks_nr, 1);
	assert_true(alpha->has_hottest);
	assert_int_equal(alpha->hottest, 0x5);
	assert_int_equal(alpha->blocks_nr, 1);
	assert_int_equal(alpha->blocks[0].start, 0x5);
	assert_int_equal(alpha->blocks[0].rank, 2);
	assert_true(alpha->blocks[0].shown && alpha->blocks[0].listed);
	assert_int_equal(alpha->blocks[0].insns, 3);
	/* only block 0x5's rows: inc, cmp, jl, their texts written again */
	assert_int_equal(alpha->rows_nr, 3);
	assert_int_equal(alpha->blocks[0].first_row, 0);
	assert_int_equal(alpha->rows[0].off, 0x5);
	assert_int_equal(alpha->rows[0].samples, 30);
	assert_string_equal(alpha->rows[0].text, "inc     ecx");
	assert_string_equal(alpha->rows[1].text, "cmp     ecx, 0x1000000");
	assert_string_equal(alpha->rows[2].text, "jl      0x5");
	assert_int_equal(alpha->rows[2].off, 0xd);
	assert_int_equal(alpha->rows[2].block, 0);
	/* jl 0x5 links to its own block; nothing is annotated without an annotator */
	assert_int_equal(alpha->rows[2].target_block, 0);
	assert_int_equal(alpha->rows[0].target_block, -1);
	/* every sampled function, ranked, the listed ones among them */
	assert_int_equal(x.rep.ranked_nr, 5);
	assert_string_equal(x.rep.ranked[0].name, "alpha");
	assert_int_equal(x.rep.ranked[0].func, 0);
	assert_int_equal(x.rep.ranked[0].shown_blocks, 1);
	assert_string_equal(x.rep.ranked[2].name, "gamma");
	assert_int_equal(x.rep.ranked[2].func, -1);
	assert_int_equal(x.rep.ranked[2].samples, 5);
	assert_false(alpha->rows[0].source || alpha->rows[0].has_wasm_offset);
	assert_null(alpha->rows[0].cells[REPORT_COL_CLIF].text);
	assert_false(alpha->wasm_offsets || alpha->wasm.matched);

	check_two_loops_header(&x.rep);
	release(&x);
}

/*
 * list_selected + whole_functions (JSON --all): every selected function,
 * hottest first, with or without code; every block and every row, the
 * trailing data after code_end included (in no block).
 */
static void every_function_lists_everything(void **state)
{
	struct fixture x;
	const struct report_func *f;

	build(&x, two_loops, (struct rank_opts){ .percent = 50.0, .no_threshold = true, .top = NO_TOP },
	      (struct report_opts){ .list_selected = true, .whole_functions = true }, false);
	assert_int_equal(x.rep.funcs_nr, 5);
	assert_string_equal(x.rep.funcs[0].code.name, "alpha");
	assert_string_equal(x.rep.funcs[1].code.name, "beta");
	assert_string_equal(x.rep.funcs[2].code.name, "gamma");
	assert_string_equal(x.rep.funcs[3].code.name, "delta");
	assert_string_equal(x.rep.funcs[4].code.name, "eps");
	assert_false(x.rep.funcs[2].disassembled);
	assert_string_equal(x.rep.funcs[2].error, "no code bytes in the stream");
	assert_int_equal(opened(&x.rep, 2)->rows_nr, 0);
	assert_false(x.rep.funcs[3].disassembled);
	assert_non_null(x.rep.funcs[3].error);
	assert_true(x.rep.selection.all);
	assert_false(x.rep.selection.threshold);

	/* eps: the loop, then a trailing 0xff after the ret; known before it is open */
	assert_int_equal(x.rep.funcs[4].code_rows_nr, 6);
	assert_int_equal(x.rep.funcs[4].code_blocks_nr, 3);
	assert_null(x.rep.funcs[4].rows);
	f = func_named(&x.rep, "eps");
	assert_true(f->whole);
	assert_int_equal(f->code_end, 0x10);
	assert_int_equal(f->blocks_nr, 3);
	for (size_t b = 0; b < 3; b++)
		assert_true(f->blocks[b].listed);
	assert_int_equal(f->rows_nr, 6);
	assert_int_equal(f->blocks[2].first_row, 4);
	assert_int_equal(f->rows[4].off, 0xf);
	assert_int_equal(f->rows[5].off, 0x10);
	assert_int_equal(f->rows[5].block, -1);
	assert_int_equal(f->rows[3].samples, 1);
	/* closed, its rows are gone; opened again, the same */
	report__func_close(&x.rep, 4);
	assert_null(x.rep.funcs[4].rows);
	f = opened(&x.rep, 4);
	assert_int_equal(f->rows_nr, 6);
	assert_int_equal(f->rows[4].off, 0xf);
	release(&x);
}

/* Two rows alike, field by field (the strings by their text). */
static void assert_same_row(const struct report_row *a, const struct report_row *b)
{
	assert_int_equal(a->off, b->off);
	assert_int_equal(a->size, b->size);
	assert_int_equal(a->flags, b->flags);
	assert_int_equal(a->samples, b->samples);
	assert_string_equal(a->text, b->text);
	assert_int_equal(a->block, b->block);
	assert_int_equal(a->target_block, b->target_block);
	assert_int_equal(a->target_outside, b->target_outside);
	assert_int_equal(a->target_address, b->target_address);
	assert_int_equal(!a->target_name, !b->target_name);
	if (a->target_name)
		assert_string_equal(a->target_name, b->target_name);
	assert_int_equal(a->target_func, b->target_func);
	assert_int_equal(a->target_wasm_index, b->target_wasm_index);
	for (int c = 0; c < REPORT_COL__NR; c++) {
		assert_int_equal(!a->cells[c].text, !b->cells[c].text);
		if (a->cells[c].text)
			assert_string_equal(a->cells[c].text, b->cells[c].text);
		assert_int_equal(a->cells[c].key, b->cells[c].key);
	}
	assert_int_equal(!a->source_file, !b->source_file);
	if (a->source_file)
		assert_string_equal(a->source_file, b->source_file);
	assert_int_equal(a->source_line, b->source_line);
	assert_int_equal(a->line_len, b->line_len);
	assert_int_equal(!a->line_text, !b->line_text);
	if (a->line_text)
		assert_memory_equal(a->line_text, b->line_text, a->line_len);
	assert_int_equal(a->source, b->source);
	assert_int_equal(a->has_wasm_offset, b->has_wasm_offset);
	assert_int_equal(a->wasm_offset, b->wasm_offset);
}

/*
 * Rows a window at a time (report__func_open_rows, JSON's way) are the
 * rows report__func_open builds, whatever the window: the source line
 * spans go on across a window's end (0x6 continues 0x4's line 3, its
 * line_text NULL), a call's target name is made in the window it is in
 * (caller's call of n), and the blocks start at the same rows.
 */
static void rows_a_window_at_a_time_are_the_rows(void **state)
{
	char path[] = "/tmp/hotblocks-report-unit-XXXXXX", text[2048];
	const struct rank_opts ro = { .percent = 100.0, .no_threshold = true, .top = NO_TOP };
	int fd = mkstemp(path);
	bool continued = false, named = false;

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "one\ntwo\nthree\nfour\n", 19), 19);
	close(fd);
	/* caller: 0: e8 fb 0f 00 00  call 0x2000 (n); 5: c3  ret */
	snprintf(text, sizeof(text),
		 "hotblocks-stream 1\nevent 0 e\ntotal 0 all 7 7\n"
		 "object 0 jit pid=1 e_machine=62 addr=0x1000 size=6 code-index=0 load-time=1 dump=d name=caller\n"
		 "code 0 0x0 e8fb0f0000c3\n"
		 "object 1 jit pid=1 e_machine=62 addr=0x2000 size=14 code-index=1 load-time=1 dump=d name=n\n"
		 "code 1 0x0 " NESTED "\n"
		 "debug 1 0x2000 1 0 %s\ndebug 1 0x2004 3 0 %%FF\ndebug 1 0x2008 3 0 %%FF\n"
		 "debug 1 0x200b 4 0 %%FF\n"
		 "sample 0 0 0x0 2 2\nsample 1 0 0x2 1 1\nsample 1 0 0x4 1 1\nsample 1 0 0x6 1 1\n"
		 "sample 1 0 0x8 1 1\n"
		 "sample 1 0 0xd 1 1\nend\n",
		 path);
	for (size_t w = 1; w <= 8; w++) {
		struct report_opts o = { .list_selected = true, .whole_functions = true,
					 .source_lines = true, .rows_window = w };
		struct fixture all, win;

		build(&all, text, ro, (struct report_opts){ .list_selected = true, .whole_functions = true,
							    .source_lines = true }, true);
		build(&win, text, ro, o, true);
		assert_int_equal(all.rep.funcs_nr, 2);
		assert_int_equal(win.rep.funcs_nr, 2);
		for (size_t i = 0; i < all.rep.funcs_nr; i++) {
			const struct report_func *a = opened(&all.rep, i), *f = &win.rep.funcs[i];
			size_t next = 0, first, seen = 0;
			long n;

			assert_int_equal(report__func_open_rows(&win.rep, i), 0);
			assert_int_equal(f->blocks_nr, a->blocks_nr);
			for (size_t b = 0; b < a->blocks_nr; b++)
				assert_int_equal(f->blocks[b].first_row, a->blocks[b].first_row);
			while (first = next, (n = report__func_rows(&win.rep, i, &next)) > 0) {
				assert_int_equal(first, seen);
				assert_true((size_t)n <= w);
				assert_int_equal(next, first + (size_t)n);
				for (size_t k = 0; k < (size_t)n; k++) {
					const struct report_row *row = &f->rows[k];

					assert_same_row(&a->rows[first + k], row);
					continued |= row->off == 0x6 && row->source_line == 3 && !row->line_text;
					named |= row->target_name && !strcmp(row->target_name, "n");
				}
				seen += (size_t)n;
			}
			assert_int_equal(n, 0);
			assert_int_equal(seen, a->rows_nr);
			/* asked out of order: a bug, said */
			next = 1;
			assert_int_equal(report__func_rows(&win.rep, i, &next), seen > 1 ? -EINVAL : 0);
			report__func_close(&win.rep, i);
			assert_null(f->rows);
		}
		release(&win);
		release(&all);
	}
	assert_true(continued);
	assert_true(named);
	unlink(path);
}

/*
 * Rows a block at a time (report__func_open_blocks, a page's region) are the
 * rows report__func_open builds, texts (written again: the function is
 * decoded without them), cells and their ditto marks included, asked for
 * in any order; the blocks, edges and columns are its, and so are the
 * samples in no block, which the rows were gone through for (in windows of
 * every size).
 */
static void rows_a_block_at_a_time_are_the_rows(void **state)
{
	char path[] = "/tmp/hotblocks-report-unit-XXXXXX", text[2048];
	const struct rank_opts ro = { .percent = 100.0, .no_threshold = true, .top = NO_TOP };
	int fd = mkstemp(path);
	bool named = false, dittoed = false, data_seen = false;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "one\ntwo\nthree\nfour\n", 19), 19);
	close(fd);
	/* caller as above, and its data after the code (0x6: a byte, in no block) */
	snprintf(text, sizeof(text),
		 "hotblocks-stream 1\nevent 0 e\ntotal 0 all 7 7\n"
		 "object 0 jit pid=1 e_machine=62 addr=0x1000 size=7 code-index=0 load-time=1 dump=d name=caller\n"
		 "code 0 0x0 e8fb0f0000c3ff\n"
		 "object 1 jit pid=1 e_machine=62 addr=0x2000 size=14 code-index=1 load-time=1 dump=d name=n\n"
		 "code 1 0x0 " NESTED "\n"
		 "debug 1 0x2000 1 0 %s\ndebug 1 0x2004 3 0 %%FF\ndebug 1 0x2008 3 0 %%FF\n"
		 "debug 1 0x200b 4 0 %%FF\n"
		 "sample 0 0 0x0 2 2\nsample 1 0 0x2 1 1\nsample 1 0 0x4 1 1\n"
		 "sample 1 0 0x6 1 1\nsample 1 0 0x8 1 1\n"
		 "sample 1 0 0xd 1 1\nend\n",
		 path);
	for (size_t w = 1; w <= 8; w++) {
		struct report_opts o = { .list_selected = true, .whole_functions = true,
					 .source_lines = true, .rows_window = w };
		struct fixture all, blk;

		build(&all, text, ro, (struct report_opts){ .list_selected = true, .whole_functions = true,
							    .source_lines = true }, true);
		build(&blk, text, ro, o, true);
		assert_int_equal(all.rep.funcs_nr, 2);
		assert_int_equal(blk.rep.funcs_nr, 2);
		for (size_t i = 0; i < all.rep.funcs_nr; i++) {
			const struct report_func *a = opened(&all.rep, i), *f = &blk.rep.funcs[i];
			uint64_t data = 0;

			assert_int_equal(report__func_open_blocks(&blk.rep, i), 0);
			assert_int_equal(f->rows_nr, 0);
			assert_int_equal(f->blocks_nr, a->blocks_nr);
			assert_int_equal(f->edges_nr, a->edges_nr);
			for (size_t e = 0; e < a->edges_nr; e++) {
				assert_int_equal(f->edges[e].from, a->edges[e].from);
				assert_int_equal(f->edges[e].to, a->edges[e].to);
				assert_int_equal(f->edges[e].kind, a->edges[e].kind);
				assert_int_equal(f->edges[e].back, a->edges[e].back);
			}
			assert_memory_equal(f->show, a->show, sizeof(a->show));
			for (size_t r = 0; r < a->rows_nr; r++)
				if (a->rows[r].block < 0) {
					data += a->rows[r].samples;
					data_seen = true;
				}
			assert_int_equal(report__func_data_samples(&blk.rep, i), data);
			assert_int_equal(report__func_data_samples(&all.rep, i), data);
			/* last block first: each block's rows stand alone */
			for (size_t k = a->blocks_nr; k-- > 0;) {
				const struct report_block *ab = &a->blocks[k], *fb = &f->blocks[k];
				struct report_row rows[16];

				assert_true(ab->insns <= 16);
				assert_int_equal(fb->first_row, ab->first_row);
				assert_int_equal(fb->insns, ab->insns);
				assert_memory_equal(fb->show, ab->show, sizeof(ab->show));
				assert_int_equal(report__func_block_rows(&blk.rep, i, k, rows), (int)ab->insns);
				for (size_t r = 0; r < ab->insns; r++) {
					const struct report_row *ar = &a->rows[ab->first_row + r];

					assert_same_row(ar, &rows[r]);
					for (int c = 0; c < REPORT_COL__NR; c++) {
						assert_int_equal(rows[r].cells[c].ditto, ar->cells[c].ditto);
						dittoed |= ar->cells[c].ditto;
					}
					named |= rows[r].target_name && !strcmp(rows[r].target_name, "n");
				}
			}
			report__func_close(&blk.rep, i);
			assert_null(f->rows);
			assert_null(f->blocks);
		}
		release(&blk);
		release(&all);
	}
	assert_true(named);
	assert_true(dittoed);
	assert_true(data_seen);
	unlink(path);
}

/* A loop is a back edge; so is the outer one of two nested loops. */
static void edges_fall_through_branch_and_close_loops(void **state)
{
	struct fixture x;
	const struct report_func *f;

	build(&x, "hotblocks-stream 1\nevent 0 e\ntotal 0 all 2 2\n"
	      "object 0 jit pid=1 e_machine=62 addr=0x1000 size=16 code-index=0 load-time=1 dump=d name=loop\n"
	      "code 0 0x0 " LOOP "\n"
	      "object 1 jit pid=1 e_machine=62 addr=0x2000 size=14 code-index=1 load-time=1 dump=d name=nested\n"
	      "code 1 0x0 " NESTED "\n"
	      "sample 0 0 0x5 1 1\nsample 1 0 0x4 1 1\nend\n",
	      (struct rank_opts){ .percent = 100.0, .top = NO_TOP },
	      (struct report_opts){ .whole_functions = true }, false);
	f = func_named(&x.rep, "loop");
	assert_int_equal(f->blocks_nr, 3);
	assert_edges(f, 0, 1, 1, REPORT_EDGE_FALLTHROUGH, false);
	assert_edges(f, 1, 2, 1, REPORT_EDGE_TAKEN, true, 2, REPORT_EDGE_FALLTHROUGH, false);
	assert_edges(f, 2, 0);
	assert_int_equal(f->edges_nr, 3);

	f = func_named(&x.rep, "nested");
	assert_int_equal(f->blocks_nr, 5);
	assert_edges(f, 0, 1, 1, REPORT_EDGE_FALLTHROUGH, false);
	assert_edges(f, 1, 1, 2, REPORT_EDGE_FALLTHROUGH, false);
	assert_edges(f, 2, 2, 2, REPORT_EDGE_TAKEN, true, 3, REPORT_EDGE_FALLTHROUGH, false);
	assert_edges(f, 3, 2, 1, REPORT_EDGE_TAKEN, true, 4, REPORT_EDGE_FALLTHROUGH, false);
	assert_edges(f, 4, 0);
	/* the inner loop's jne links to its own block */
	assert_int_equal(f->rows[f->blocks[2].first_row + 1].off, 0x6);
	assert_int_equal(f->rows[f->blocks[2].first_row + 1].target_block, 2);
	assert_string_equal(report__edge_kind_name(REPORT_EDGE_CASE), "case");
	release(&x);
}

/* An indirect jump through a recognised table goes to each case, once. */
static void jump_tables_give_case_edges(void **state)
{
	struct fixture x;
	const struct report_func *f;

	build(&x, "hotblocks-stream 1\nevent 0 e\ntotal 0 all 2 2\n"
	      "object 0 jit pid=1 e_machine=62 addr=0x1000 size=48 code-index=0 load-time=1 dump=d name=cl\n"
	      "code 0 0x0 " BR_TABLE "\n"
	      "object 1 jit pid=1 e_machine=62 addr=0x7f0000001000 size=67 code-index=1 load-time=1 dump=d name=v8\n"
	      "code 1 0x0 " V8_TABLE "\n"
	      "sample 0 0 0x0 1 1\nsample 1 0 0x0 1 1\nend\n",
	      (struct rank_opts){ .percent = 100.0, .top = NO_TOP },
	      (struct report_opts){ .whole_functions = true }, false);

	f = func_named(&x.rep, "cl");
	assert_int_equal(f->blocks_nr, 6);
	assert_int_equal(f->blocks[2].start, 0x15);	/* the table */
	assert_edges(f, 0, 2, 1, REPORT_EDGE_FALLTHROUGH, false, 5, REPORT_EDGE_TAKEN, false);
	assert_edges(f, 1, 3, 3, REPORT_EDGE_CASE, false, 4, REPORT_EDGE_CASE, false,
		     5, REPORT_EDGE_CASE, false);
	assert_edges(f, 2, 0);
	assert_edges(f, 3, 0);
	/* each entry links to its case */
	assert_int_equal(f->rows[f->blocks[2].first_row].target_block, 3);
	assert_int_equal(f->rows[f->blocks[2].first_row + 2].target_block, 5);

	f = func_named(&x.rep, "v8");
	assert_int_equal(f->blocks_nr, 8);
	assert_int_equal(f->code_end, 0x3b);
	assert_edges(f, 0, 2, 1, REPORT_EDGE_FALLTHROUGH, false, 5, REPORT_EDGE_TAKEN, false);
	assert_edges(f, 1, 3, 2, REPORT_EDGE_CASE, false, 3, REPORT_EDGE_CASE, false,
		     4, REPORT_EDGE_CASE, false);
	assert_edges(f, 3, 1, 4, REPORT_EDGE_FALLTHROUGH, false);	/* case 1 into case 2 */
	/* the nop before the table runs into no table: data is no block to go to */
	assert_int_equal(f->blocks[6].start, 0x22);
	assert_edges(f, 6, 0);
	assert_edges(f, 7, 0);
	/* the metadata after code_end: rows in no block */
	assert_int_equal(f->rows[f->rows_nr - 1].block, -1);
	release(&x);
}

/*
 * --source-lines: a source line is read once per run of rows from that line
 * within a block, and a run ends with its block; an unreadable file leaves
 * the cell and no line. The debug entries map machine offsets directly (a
 * JIT name without V8's tier marks: no bias).
 */
static void source_lines_start_each_run(void **state)
{
	char path[] = "/tmp/hotblocks-report-unit-XXXXXX", text[2048];
	const struct report_func *f;
	struct fixture x;
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, "one\ntwo\nthree\nfour\n", 19), 19);
	close(fd);
	snprintf(text, sizeof(text),
		 "hotblocks-stream 1\nevent 0 e\ntotal 0 all 4 4\n"
		 "object 0 jit pid=1 e_machine=62 addr=0x1000 size=14 code-index=0 load-time=1 dump=d name=n\n"
		 "code 0 0x0 " NESTED "\n"
		 "debug 0 0x1000 1 0 %s\ndebug 0 0x1004 3 0 %%FF\ndebug 0 0x1008 3 0 %%FF\n"
		 "debug 0 0x100b 4 0 %%FF\n"
		 "debug 0 0x100d 9 0 /nonexistent/x.c\n"
		 "sample 0 0 0x2 1 1\nsample 0 0 0x4 1 1\nsample 0 0 0x8 1 1\nsample 0 0 0xd 1 1\nend\n",
		 path);
	build(&x, text, (struct rank_opts){ .percent = 100.0, .top = NO_TOP },
	      (struct report_opts){ .source_lines = true }, true);
	f = func_named(&x.rep, "n");
	assert_true(f->has[REPORT_COL_SOURCE]);
	assert_int_equal(f->rows_nr, 6);	/* blocks 0x2, 0x4, 0x8, 0xd */
	/* 0x2: line 1, a run of its own in its block */
	assert_int_equal(f->rows[0].off, 0x2);
	assert_true(f->rows[0].source);
	assert_int_equal(f->rows[0].source_line, 1);
	assert_non_null(f->rows[0].line_text);
	assert_memory_equal(f->rows[0].line_text, "one", 3);
	assert_int_equal(f->rows[0].line_len, 3);
	/* 0x4, 0x6: line 3 once */
	assert_int_equal(f->rows[1].source_line, 3);
	assert_memory_equal(f->rows[1].line_text, "three", 5);
	assert_null(f->rows[2].line_text);
	assert_string_equal(f->rows[2].source_file, path);
	assert_non_null(f->rows[2].cells[REPORT_COL_SOURCE].text);
	/* 0x8: line 3 again, but in a new block; 0xb: line 4 */
	assert_int_equal(f->rows[3].off, 0x8);
	assert_non_null(f->rows[3].line_text);
	assert_memory_equal(f->rows[3].line_text, "three", 5);
	assert_non_null(f->rows[4].line_text);
	assert_memory_equal(f->rows[4].line_text, "four", 4);
	/* 0xd: a file that cannot be read: the cell, no line */
	assert_int_equal(f->rows[5].off, 0xd);
	assert_string_equal(f->rows[5].cells[REPORT_COL_SOURCE].text, "x.c:9");
	assert_null(f->rows[5].line_text);
	release(&x);
	unlink(path);
}

static bool has_note(const struct report *rep, enum report_note_kind kind, const char *start)
{
	for (size_t i = 0; i < rep->notes_nr; i++)
		if (rep->notes[i].kind == kind && !strncmp(rep->notes[i].text, start, strlen(start)))
			return true;
	return false;
}

/* What the report cannot show is said, in notes; plugin warnings once. */
static void notes_tell_what_is_not_shown(void **state)
{
	static const char warned[] = "hotblocks-stream 1\nwarning disk%20full\nwarning note:%20a%20stub\nevent 0 e\n"
				     "total 0 all 1 1\nobject 0 jit pid=1 e_machine=62 addr=0x1000 "
				     "size=1 code-index=0 load-time=1 dump=d name=t\ncode 0 0x0 c3\n"
				     "sample 0 0 0x0 1 1\nend\n";
	struct fixture x;

	build(&x, two_loops, (struct rank_opts){ .percent = 50.0, .top = NO_TOP },
	      (struct report_opts){ 0 }, true);
	assert_true(has_note(&x.rep, REPORT_NOTE_LOSS, "7 samples unattributed (7 outside every mapping)"));
	assert_true(has_note(&x.rep, REPORT_NOTE_LOSS, "5 samples in 1 object without code bytes"));
	assert_true(has_note(&x.rep, REPORT_NOTE_LOSS, "2 samples inside an instruction"));
	assert_true(has_note(&x.rep, REPORT_NOTE_LOSS, "1 sample past the code bytes the input has: "
				"counted, in no block: alpha (1)"));
	/* delta is too cold to be disassembled at all: no failure to tell */
	assert_false(has_note(&x.rep, REPORT_NOTE_LOSS, "4 samples in 1 object not disassembled"));
	release(&x);

	build(&x, two_loops, (struct rank_opts){ .percent = 50.0, .top = NO_TOP, .function = "zeta" },
	      (struct report_opts){ 0 }, true);
	assert_true(has_note(&x.rep, REPORT_NOTE_SELECTION, "no sampled code object matches 'zeta'"));
	assert_true(has_note(&x.rep, REPORT_NOTE_SELECTION, "  'beta' (31 samples)"));
	assert_int_equal(x.rep.funcs_nr, 0);
	assert_int_equal(x.rep.shown_nr, 0);
	release(&x);

	build(&x, warned, (struct rank_opts){ .percent = 50.0, .top = NO_TOP },
	      (struct report_opts){ 0 }, true);
	assert_true(has_note(&x.rep, REPORT_NOTE_INPUT, "t.hbs: the plugin warned: disk full"));
	/* one the plugin said as a note is told as one (STREAM.md `warning`) */
	assert_true(has_note(&x.rep, REPORT_NOTE_INPUT, "t.hbs: the plugin noted: a stub"));
	assert_false(has_note(&x.rep, REPORT_NOTE_INPUT, "t.hbs: the plugin warned: note:"));
	release(&x);
	build(&x, warned, (struct rank_opts){ .percent = 50.0, .top = NO_TOP },
	      (struct report_opts){ .live_origin = "t.hbs" }, true);
	assert_false(has_note(&x.rep, REPORT_NOTE_INPUT, "t.hbs: the plugin warned"));
	release(&x);
}

/* A class of unattributed samples the plugin told in full ("N samples ...;
 * counted as CLASS") is not counted again; one it told in part still is. */
static void a_class_the_plugin_told_is_not_counted_again(void **state)
{
#define TOLD_STREAM(N)                                                                                   \
	"hotblocks-stream 1\nwarning note:%20recorded%20under%20kernel%206.1.0-9,%20not%20this%20one:%20" N \
	"%20samples%20in%20code%20no%20symbol%20covers:%20p%207%20(not%20here);%20counted%20as%20"        \
	"unattributed.no-symbol\nevent 0 e\ntotal 0 all 20 20\ntotal 0 jit 10 10\n"                       \
	"total 0 unattributed.no-symbol 7 7\ntotal 0 unattributed.no-map 3 3\n"                            \
	"object 0 jit pid=1 e_machine=62 addr=0x1000 size=1 code-index=0 load-time=1 dump=d name=t\n"       \
	"code 0 0x0 c3\nsample 0 0 0x0 10 10\nend\n"
	static const char told[] = TOLD_STREAM("7"), part[] = TOLD_STREAM("6");
#undef TOLD_STREAM
	struct fixture x;

	build(&x, told, (struct rank_opts){ .percent = 50.0, .top = NO_TOP }, (struct report_opts){ 0 }, true);
	assert_true(has_note(&x.rep, REPORT_NOTE_LOSS, "3 samples unattributed (3 outside every mapping): counted"));
	assert_true(has_note(&x.rep, REPORT_NOTE_INPUT, "t.hbs: the plugin noted: recorded under kernel 6.1.0-9"));
	release(&x);
	build(&x, part, (struct rank_opts){ .percent = 50.0, .top = NO_TOP }, (struct report_opts){ 0 }, true);
	assert_true(has_note(&x.rep, REPORT_NOTE_LOSS, "10 samples unattributed (7 in files without a symbol there, "
				"3 outside every mapping)"));
	release(&x);
}

/* Functions named by .eh_frame bounds: a few samples get one short note, many
 * the advice on debug symbols too. */
static void a_few_samples_without_symbols_are_a_short_note(void **state)
{
	static const char few[] = "hotblocks-stream 1\nevent 0 e\ntotal 0 all 1000 1000\ntotal 0 native 1000 1000\n"
				  "object 0 native pid=1 e_machine=62 addr=0x1000 size=1 dso=/lib/libx.so sym-start=0x1000 "
				  "source=eh-frame name=libx.so+0x0\ncode 0 0x0 c3\n"
				  "object 1 native pid=1 e_machine=62 addr=0x2000 size=1 dso=/bin/p sym-start=0x2000 "
				  "name=main\ncode 1 0x0 c3\nsample 0 0 0x0 3 3\nsample 1 0 0x0 997 997\nend\n";
	static const char many[] = "hotblocks-stream 1\nevent 0 e\ntotal 0 all 100 100\ntotal 0 native 100 100\n"
				   "object 0 native pid=1 e_machine=62 addr=0x1000 size=1 dso=/lib/libx.so sym-start=0x1000 "
				   "source=eh-frame name=libx.so+0x0\ncode 0 0x0 c3\n"
				   "object 1 native pid=1 e_machine=62 addr=0x2000 size=1 dso=/bin/p sym-start=0x2000 "
				   "name=main\ncode 1 0x0 c3\nsample 0 0 0x0 20 20\nsample 1 0 0x0 80 80\nend\n";
	struct fixture x;

	(void)state;
	build(&x, few, (struct rank_opts){ .percent = 100.0, .top = NO_TOP }, (struct report_opts){ 0 }, true);
	assert_true(has_note(&x.rep, REPORT_NOTE_LOSS, "3 samples in functions without symbols, of 1 stripped file"
			     " (libx.so 100.0%): named by their .eh_frame bounds (FILE+0xOFFSET)"));
	for (size_t i = 0; i < x.rep.notes_nr; i++)
		assert_null(strstr(x.rep.notes[i].text, "DEBUGINFOD_URLS"));
	release(&x);
	build(&x, many, (struct rank_opts){ .percent = 100.0, .top = NO_TOP }, (struct report_opts){ 0 }, true);
	assert_true(has_note(&x.rep, REPORT_NOTE_LOSS, "20 samples in functions without symbols, of 1 stripped file"
			     " (libx.so 100.0%): named by their .eh_frame bounds, as perf names unknown code"));
	release(&x);
}

static void no_event_gives_an_empty_report(void **state)
{
	struct fixture x;

	build(&x, "hotblocks-stream 1\nend\n", (struct rank_opts){ .percent = 50.0, .top = NO_TOP },
	      (struct report_opts){ .list_selected = true, .whole_functions = true }, true);
	assert_null(x.rep.event);
	assert_int_equal(x.rep.events_nr, 0);
	assert_int_equal(x.rep.total, 0);
	assert_int_equal(x.rep.funcs_nr, 0);
	assert_int_equal(x.rep.notes_nr, 0);
	assert_int_equal(x.rep.classes[0].samples, 0);
	release(&x);
}

/*
 * What every output shows, decided once (report-show.c), on a report built
 * here by hand: two blocks and a row of trailing data. The ditto rule
 * compares whole texts and keys down one block; a block's [Source] column
 * is there when one of its rows has a cell, the function's when any row
 * (trailing data too) has one. A 600-byte cell repeats as any other (the
 * text output once kept only 511 bytes of the cell above).
 */
static void what_is_shown_is_decided_once(void **state)
{
	static char long_text[601];
	struct report_row rows[6] = {
		{ .block = 0, .samples = 3,
		  .cells = { [REPORT_COL_CLIF] = { "v1 = iadd v0", 4 }, [REPORT_COL_WASM] = { long_text, 4 } } },
		{ .block = 0, .samples = 9,
		  .cells = { [REPORT_COL_CLIF] = { "v1 = iadd v0", 4 }, [REPORT_COL_WASM] = { long_text, 4 } } },
		{ .block = 0,
		  .cells = { [REPORT_COL_CLIF] = { "v1 = iadd v0", 5 }, [REPORT_COL_WASM] = { long_text, 5 } } },
		{ .block = 1, .samples = 1,
		  .cells = { [REPORT_COL_CLIF] = { "v1 = iadd v0", 5 },
			     [REPORT_COL_SOURCE] = { "a.c:3", 0 } } },
		{ .block = 1,
		  .cells = { [REPORT_COL_CLIF] = { "v1 = iadd v0", 5 },
			     [REPORT_COL_SOURCE] = { "a.c:3", 0 } } },
		{ .block = -1, .cells = { [REPORT_COL_SOURCE] = { "a.c:3", 0 } } },
	};
	struct report_block blocks[2] = {
		{ .samples = 12, .shown = true, .listed = true, .first_row = 0, .insns = 3 },
		{ .samples = 1, .listed = true, .first_row = 3, .insns = 2 },
	};
	struct report_func funcs[2] = {
		{ .has = { [REPORT_COL_CLIF] = true, [REPORT_COL_WASM] = true, [REPORT_COL_SOURCE] = true },
		  .blocks = blocks, .blocks_nr = 2, .rows = rows, .rows_nr = 6,
		  .sampled_blocks_nr = 2, .shown_blocks_nr = 1, .block_max = 12 },
		{ .disassembled = false },
	};
	struct report rep = { .total = 40, .funcs = funcs, .funcs_nr = 2 };

	(void)state;
	memset(long_text, 'x', sizeof(long_text) - 1);
	report_show__func(&funcs[0]);
	report_show__func(&funcs[1]);
	report_show__decide(&rep);
	/* ditto: the same text and key as above, in the same block */
	assert_false(rows[0].cells[REPORT_COL_CLIF].ditto);
	assert_true(rows[1].cells[REPORT_COL_CLIF].ditto);
	assert_true(rows[1].cells[REPORT_COL_WASM].ditto);
	assert_false(rows[2].cells[REPORT_COL_CLIF].ditto);	/* another key */
	assert_false(rows[3].cells[REPORT_COL_CLIF].ditto);	/* another block */
	assert_true(rows[4].cells[REPORT_COL_CLIF].ditto);
	assert_true(rows[4].cells[REPORT_COL_SOURCE].ditto);
	assert_false(rows[5].cells[REPORT_COL_SOURCE].ditto);	/* the trailing data */
	assert_false(rows[3].cells[REPORT_COL_WASM].ditto);	/* absent: never */
	/* columns: a block's own, the function's of all its rows */
	assert_true(blocks[0].show[REPORT_COL_CLIF] && blocks[0].show[REPORT_COL_WASM]);
	assert_false(blocks[0].show[REPORT_COL_SOURCE]);
	assert_true(blocks[1].show[REPORT_COL_SOURCE]);
	assert_true(funcs[0].show[REPORT_COL_SOURCE]);
	assert_false(funcs[1].show[REPORT_COL_CLIF]);
	/* counts and scales: the most samples of a listed row, of a block */
	assert_int_equal(funcs[0].row_max, 9);
	assert_int_equal(rep.shown_funcs_nr, 1);
	assert_int_equal(rep.row_max, 9);
	assert_true(rep.heat_max == 12.0 / 40.0);
}

/*
 * annotator__display (what the diff names every function with) gives the
 * display name annotator__func gives, demangled (checked by hand: c++filt
 * _ZN2ns4workEi is ns::work(int)), before and after the object is
 * annotated; NULL annotator: the stream's name.
 */
static void display_names_without_annotating(void **state)
{
	static const char text[] =
		"hotblocks-stream 1\n"
		"event 0 cycles\n"
		"total 0 all 2 2\n"
		"object 0 native pid=1 e_machine=62 addr=0x1000 size=4 dso=a.so sym-start=0x0 name=_ZN2ns4workEi\n"
		"object 1 jit pid=1 e_machine=62 addr=0x2000 size=4 code-index=0 load-time=1 dump=d name=JS:*f\n"
		"sample 0 0 0x0 1 1\n"
		"sample 1 0 0x0 1 1\n"
		"end\n";
	struct annot_inputs in = { 0 };
	struct annotator *a;
	struct stream s;
	char err[256];

	(void)state;
	stream_text__load(&s, text);
	assert_int_equal(annotator__open(&a, &in, err, sizeof(err)), 0);
	assert_string_equal(annotator__display(a, &s, 0), "ns::work(int)");
	assert_string_equal(annotator__display(a, &s, 1), "JS:*f");
	for (size_t i = 0; i < 2; i++) {
		const char *before = annotator__display(a, &s, i);

		assert_string_equal(before, annotator__func(a, &s, i)->display);
		assert_string_equal(annotator__display(a, &s, i), before);
	}
	assert_string_equal(annotator__display(NULL, &s, 0), "_ZN2ns4workEi");
	annotator__close(a);
	stream__release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(display_names_without_annotating),
		cmocka_unit_test(shown_blocks_and_their_functions_are_listed),
		cmocka_unit_test(every_function_lists_everything),
		cmocka_unit_test(rows_a_window_at_a_time_are_the_rows),
		cmocka_unit_test(rows_a_block_at_a_time_are_the_rows),
		cmocka_unit_test(edges_fall_through_branch_and_close_loops),
		cmocka_unit_test(jump_tables_give_case_edges),
		cmocka_unit_test(source_lines_start_each_run),
		cmocka_unit_test(notes_tell_what_is_not_shown),
		cmocka_unit_test(a_class_the_plugin_told_is_not_counted_again),
		cmocka_unit_test(a_few_samples_without_symbols_are_a_short_note),
		cmocka_unit_test(no_event_gives_an_empty_report),
		cmocka_unit_test(what_is_shown_is_decided_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* Text report in the layout of `wasmtime hot-blocks` (JSON.md, "Text report"). */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "render.h"
#include "lib/term.h"
#include "stream/stream.h"

#define ASM_MIN 10
#define ASM_MAX 60
#define COLOR_RESET "\033[0m"

/* Heat of a sample cell, by its share of all samples: first row that fits. */
static const struct heat {
	double min_pct;
	const char *sgr;
} heat[] = {
	{ 10.0, "\033[1;31m" },	/* bold red */
	{ 2.0, "\033[33m" },	/* yellow */
	{ 0.0, "\033[32m" },	/* green */
};

static double pct(uint64_t n, uint64_t total)
{
	return (double)n / (double)total * 100.0;
}

/* n spaces. */
static void put_pad(FILE *out, size_t n)
{
	static const char spaces[] = "                                ";

	for (; n > sizeof(spaces) - 1; n -= sizeof(spaces) - 1)
		fwrite(spaces, 1, sizeof(spaces) - 1, out);
	fwrite(spaces, 1, n, out);
}

/* The sample cell: the share of all samples, right-aligned in 10 bytes. */
static void put_cell(FILE *out, uint64_t n, uint64_t total, bool color)
{
	char num[64], cell[72];
	double p = pct(n, total);
	size_t i, len;

	if (!n) {
		put_pad(out, 10);
		return;
	}
	len = (size_t)snprintf(cell, sizeof(cell), "%s%%", fmt_share(num, sizeof(num), n, p));
	if (len < 10)
		put_pad(out, 10 - len);
	if (!color) {
		fputs(cell, out);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(heat) - 1 && !(p >= heat[i].min_pct); i++)
		;
	fputs(heat[i].sgr, out);
	fputs(cell, out);
	fputs(COLOR_RESET, out);
}

/* Column widths, as the reference clamps them. */
#define CLIF_MIN 6
#define CLIF_MAX 40
#define WASM_MIN 6
#define WASM_MAX 40
#define SOURCE_MAX 60

static const char *const col_header[REPORT_COL__NR] = { "[CLIF]", "[Wasm]", "[Source]" };
static const size_t col_min[REPORT_COL__NR] = { CLIF_MIN, WASM_MIN, 8 };
static const size_t col_max[REPORT_COL__NR] = { CLIF_MAX, WASM_MAX, SOURCE_MAX };

/* A cell as the reference prints it: '-' absent, '"' the same as above. */
static const char *cell_text(const struct report_cell *c)
{
	return !c->text ? "-" : c->ditto ? "\"" : c->text;
}

/* The columns s takes, shown printable. */
static size_t shown_width(const char *s)
{
	return term_width(s, strlen(s), 0);
}

/* Print s shown printable, cut to w columns, padded to w unless it is the row's last cell. */
static void put_col(FILE *out, const char *s, size_t w, bool last)
{
	size_t n;

	fputs("   ", out);
	n = term_write(out, s, strlen(s), w, 0);
	if (!last)
		put_pad(out, w - n);
}

/* A measured branch row's counts (branch stacks): how often taken, and for
 * a conditional one how often not, and the taken share. */
static void branch_cell(const struct report_row *row, const struct report_row_branch *rb, char *buf,
			size_t len)
{
	char num[64];

	if (!rb->measured)
		buf[0] = 0;
	else if (!(row->flags & INSN_COND))
		snprintf(buf, len, "taken %" PRIu64, rb->taken);
	else
		snprintf(buf, len, "taken %" PRIu64 ", not %" PRIu64 " (%s%%)", rb->taken, rb->not_taken,
			 fmt_pct(num, sizeof(num), rb->taken + rb->not_taken ?
						   pct(rb->taken, rb->taken + rb->not_taken) : 0.0));
}

/* A block's header line; with branch stacks, how often it ran, and its
 * rows' measured branches (else NULL). */
static const struct report_row_branch *put_header(FILE *out, const struct report *rep,
						  const struct report_ref *ref)
{
	const struct report_func *f = &rep->funcs[ref->func];
	const struct report_block *b = &f->blocks[ref->block];
	const struct report_func_branches *fb = report__func_branches(rep, ref->func);
	char num[64];

	/* Deliberate divergence: the whole CFG block, so the header names its start. */
	fputc('`', out);
	term_puts(out, f->display_name);
	fprintf(out, "` :: block 0x%" PRIx32 " :: %s%% total samples", b->start,
		fmt_share(num, sizeof(num), b->samples, pct(b->samples, rep->total)));
	if (fb && fb->measured) {
		const uint64_t *cyc = fb->measured->cycles[ref->block];

		fprintf(out, " :: executed %" PRIu64 " times", fb->measured->executions[ref->block]);
		if (cyc[0])
			fprintf(out, ", %.1f cycles each", (double)cyc[1] / (double)cyc[0]);
	}
	fputs("\n\n", out);
	return fb && fb->measured ? fb->measured->rows + b->first_row : NULL;
}

static void put_block(FILE *out, const struct report *rep, const struct report_ref *ref, bool color)
{
	const struct report_func *f = &rep->funcs[ref->func];
	const struct report_block *b = &f->blocks[ref->block];
	const struct report_row *rows = f->rows + b->first_row;
	const bool *show = b->show;
	size_t w[REPORT_COL__NR] = { 0 };
	size_t i, c, asm_w = 0, last = 0;
	const struct report_row_branch *rbs = put_header(out, rep, ref);
	bool br = false;

	for (i = 0; rbs && i < b->insns; i++)
		br |= rbs[i].measured;
	for (i = 0; i < b->insns; i++) {
		size_t len = shown_width(rows[i].text);

		if (len > asm_w)
			asm_w = len;
	}
	asm_w = asm_w < ASM_MIN ? ASM_MIN : asm_w > ASM_MAX ? ASM_MAX : asm_w;
	for (c = 0; c < REPORT_COL__NR; c++) {
		for (i = 0; i < b->insns; i++) {
			/* A missing cell prints as "-": it counts as width 1. */
			size_t len = rows[i].cells[c].text ? shown_width(rows[i].cells[c].text) : 1;

			if (len > w[c])
				w[c] = len;
		}
		w[c] = w[c] < col_min[c] ? col_min[c] : w[c] > col_max[c] ? col_max[c] : w[c];
		if (show[c])
			last = c + 1;
	}
	/* The reference pads every column but the last. */
	fprintf(out, "%10s", "[Samples]");
	put_col(out, "[Assembly]", asm_w, !last && !br);
	for (c = 0; c < REPORT_COL__NR; c++)
		if (show[c])
			put_col(out, col_header[c], w[c], c + 1 == last && !br);
	if (br)
		put_col(out, "[Branches]", SIZE_MAX, true);
	fputc('\n', out);
	for (i = 0; i < b->insns; i++) {
		const struct report_row *row = &rows[i];
		/* a row that is no measured branch ends at its last other cell */
		bool more = br && rbs[i].measured;

		/* objdump -S style: the source line above the first instruction it produced. */
		if (row->line_text) {
			const char *base = strrchr(row->source_file, '/');

			put_pad(out, 13);
			term_puts(out, base ? base + 1 : row->source_file);
			fprintf(out, ":%" PRIu32 ":  ", row->source_line);
			term_write(out, row->line_text, row->line_len, SIZE_MAX, TERM_TABS);
			fputc('\n', out);
		}
		put_cell(out, row->samples, rep->total, color);
		put_col(out, row->text, asm_w, !last && !more);
		for (c = 0; c < REPORT_COL__NR; c++)
			if (show[c])
				put_col(out, cell_text(&row->cells[c]), w[c], c + 1 == last && !more);
		if (more) {
			char cell[128];

			branch_cell(row, &rbs[i], cell, sizeof(cell));
			put_col(out, cell, SIZE_MAX, true);
		}
		fputc('\n', out);
	}
	fputc('\n', out);
}

/*
 * A function without code bytes (a perf map's): the whole function is its
 * entry; why it has no instructions, then its samples by offset, each at
 * the name perf gives it (NAME+0xOFF).
 */
static void put_no_code(FILE *out, const struct report *rep, const struct report_func *f,
			bool color)
{
	char num[64];

	fputc('`', out);
	term_puts(out, f->display_name);
	fprintf(out, "` :: whole function, no code :: %s%% total samples\n\n",
		fmt_share(num, sizeof(num), f->samples, pct(f->samples, rep->total)));
	term_puts(out, f->no_code);
	fputs("\n\n", out);
	fprintf(out, "%10s   %10s   [Offset]\n", "[Samples]", "[Count]");
	for (size_t i = 0; i < f->offsets_nr; i++) {
		const struct report_point *o = &f->offsets[i];

		put_cell(out, o->samples, rep->total, color);
		fprintf(out, "   %10" PRIu64 "   ", o->samples);
		term_puts(out, o->name);
		fprintf(out, "+0x%" PRIx64 "\n", o->name_off);
	}
	fputc('\n', out);
}

void render_text__block(FILE *out, const struct report *rep, const struct report_ref *ref,
			bool color)
{
	if (rep->funcs[ref->func].offsets)
		put_no_code(out, rep, &rep->funcs[ref->func], color);
	else
		put_block(out, rep, ref, color);
}

/* Block ref, its function opened for it (report__func_open). */
static int open_block(FILE *out, const struct report *rep, const struct report_ref *ref, bool color)
{
	int ret = report__func_open(rep, ref->func);

	if (ret)
		return ret;
	render_text__block(out, rep, ref, color);
	report__func_close(rep, ref->func);
	return 0;
}

/*
 * --by-executions with branch stacks: the blocks by cost (report_block_cost:
 * cycles where the recording has cycle counts, else executions x
 * instructions), before the blocks by samples.
 */
static void put_costs(FILE *out, const struct report *rep, bool color)
{
	const struct report_branch_stack *bs = rep->branch_stack;
	char num[64];

	fprintf(out, "Cost by block, measured by branch stacks (no skid): %s, a share of the listed functions'\n\n",
		bs->cost_cycles ? "the cycles of the fall-through ranges through it" : "executions x instructions");
	fprintf(out, "%10s   %12s   %7s   %10s   %10s   %s\n", "[Cost]", "[Executions]", "[Insns]",
		"[Cycles]", "[Samples]", "[Block]");
	for (size_t i = 0; i < bs->costs_nr; i++) {
		const struct report_block_cost *c = &bs->costs[i];
		double share = bs->cost_total > 0 ? c->cost * 100.0 / bs->cost_total : 0.0;

		fprintf(out, "%9s%%   %12" PRIu64 "   %7" PRIu32 "   ", fmt_pct(num, sizeof(num), share),
			c->executions, c->insns);
		if (bs->cost_cycles)
			fprintf(out, "%10.1f   ", c->cycles / (double)c->executions);
		else
			fprintf(out, "%10s   ", "-");
		put_cell(out, c->samples, rep->total, color);
		fputs("   `", out);
		term_puts(out, rep->funcs[c->func].display_name);
		fprintf(out, "` :: block 0x%" PRIx32 "\n", c->start);
	}
	if (!bs->costs_nr)
		fputs("(no listed block ran, as the branch stacks measure it)\n", out);
	fputc('\n', out);
}

int render_text(FILE *out, const struct report *rep, const struct render_opts *o)
{
	char num[64];

	if (rep->kinds) {
		char kinds[32];

		/* T is of the kinds kept: say of how many it is, and that it is T */
		stream__kinds_text(rep->kinds, kinds, sizeof(kinds));
		fprintf(out, "Collected %" PRIu64 " total samples; %" PRIu64 " (%s%%) in %s code"
			" (--kind %s): every percentage is of these.\n\n", rep->collected, rep->total,
			fmt_pct(num, sizeof(num), pct(rep->total, rep->collected)), kinds, kinds);
		if (!rep->total)
			fprintf(out, "No samples collected within %s code.\n", kinds);
	} else {
		fprintf(out, "Collected %" PRIu64 " total samples; %" PRIu64 " (%s%%) JIT samples.\n\n",
			rep->total, rep->jit, fmt_pct(num, sizeof(num), pct(rep->jit, rep->total)));
	}
	if (!rep->kinds && !rep->jit) {
		fputs("No samples collected within JIT code.\n", out);
		/* Native code may still have blocks: show them after the reference's line. */
		if (rep->shown_nr)
			fputc('\n', out);
	}
	if (rep->branch_stack && rep->branch_stack->by_executions)
		put_costs(out, rep, o->color);
	for (size_t i = 0; i < rep->shown_nr; i++) {
		int ret = open_block(out, rep, &rep->shown[i], o->color);

		if (ret)
			return ret;
	}
	return ferror(out) ? -EIO : 0;
}

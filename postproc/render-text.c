/* SPDX-License-Identifier: MIT */
/* Text report in the layout of `wasmtime hot-blocks` (shared/docs/formats.md 6.3). */
#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "render.h"

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

/* Names come from the profiled program: no control byte may reach the terminal. */
static void put_name(FILE *out, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else
			fputc(c, out);
	}
}

static void put_cell(FILE *out, uint64_t n, uint64_t total, bool color)
{
	char num[64], cell[72];
	double p = pct(n, total);
	size_t i, len;

	if (!n) {
		fprintf(out, "%10s", "");
		return;
	}
	snprintf(cell, sizeof(cell), "%s%%", fmt_pct(num, sizeof(num), p));
	if (!color) {
		fprintf(out, "%10s", cell);
		return;
	}
	len = strlen(cell);
	for (i = len; i < 10; i++)
		fputc(' ', out);
	for (i = 0; i < ARRAY_SIZE(heat) - 1 && !(p >= heat[i].min_pct); i++)
		;
	fprintf(out, "%s%s%s", heat[i].sgr, cell, COLOR_RESET);
}

static void put_block(FILE *out, const struct rank *r, const struct rank_block *rb, bool color)
{
	const struct rank_func *f = &r->funcs[rb->func];
	const struct cfg_block *b = &f->cfg.blocks[rb->block];
	size_t i, w = 0;
	char num[64];

	/* Deliberate divergence: the whole CFG block, so the header names its start. */
	fputc('`', out);
	put_name(out, r->stream->objects[f->obj].name);
	fprintf(out, "` :: block 0x%" PRIx32 " :: %s%% total samples\n\n", b->start,
		fmt_pct(num, sizeof(num), pct(rb->samples, r->total)));
	for (i = b->first; i < b->first + b->nr; i++) {
		size_t len = strlen(f->cfg.insns[i].text);

		if (len > w)
			w = len;
	}
	w = w < ASM_MIN ? ASM_MIN : w > ASM_MAX ? ASM_MAX : w;
	/* The reference pads every column but the last; [Assembly] is the last one here. */
	fprintf(out, "%10s   %s\n", "[Samples]", "[Assembly]");
	for (i = b->first; i < b->first + b->nr; i++) {
		put_cell(out, f->insn_samples[i], r->total, color);
		fprintf(out, "   %.*s\n", (int)w, f->cfg.insns[i].text);
	}
	fputc('\n', out);
}

static int render(FILE *out, const struct rank *r, const struct render_opts *o)
{
	char num[64];
	size_t i;

	fprintf(out, "Collected %" PRIu64 " total samples; %" PRIu64 " (%s%%) JIT samples.\n\n",
		r->total, r->jit, fmt_pct(num, sizeof(num), pct(r->jit, r->total)));
	if (!r->jit) {
		fputs("No samples collected within JIT code.\n", out);
		/* Native code may still have blocks: show them after the reference's line. */
		if (r->shown_nr)
			fputc('\n', out);
	}
	for (i = 0; i < r->shown_nr; i++)
		put_block(out, r, &r->blocks[i], o->color);
	return ferror(out) ? -EIO : 0;
}

const struct render_ops render_text = {
	.name = "text",
	.render = render,
};

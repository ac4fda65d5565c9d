/* SPDX-License-Identifier: MIT */
/* `hotblocks diff --json`: the document "hotblocks-diff", version 1 (JSON.md). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "lib/util.h"
#include "diff/diff.h"
#include "render.h"

#define DIFF_JSON_VERSION 1

static void put_side_func(FILE *out, const struct diff *d, const struct diff_func *f, int s)
{
	const struct diff_side *side = &d->side[s];

	if (f->obj[s] == UINT32_MAX) {
		fputs("null", out);
		return;
	}
	fputs("{\"name\": ", out);
	render_json__str(out, f->raw_name[s]);
	fputs(", \"display_name\": ", out);
	render_json__str(out, f->name[s]);
	fprintf(out, ", \"kind\": \"%s\", \"samples\": %" PRIu64 ", \"share\": %.4f",
		f->kind[s], f->samples[s], f->share[s]);
	if (f->f[s] >= 0) {
		const struct report_func *rf = &side->report.funcs[f->f[s]];

		fputs(", \"runs\": [", out);
		for (size_t i = 0; i < rf->runs_nr; i++)
			fprintf(out, "%s{\"run\": %" PRIu32 ", \"samples\": %" PRIu64 "}", i ? ", " : "",
				rf->runs[i].run, rf->runs[i].samples);
		fputc(']', out);
	}
	fputc('}', out);
}

static void put_side_block(FILE *out, const struct diff *d, const struct diff_func *f,
			   const struct diff_pair *p, int s)
{
	const struct report_block *b;

	if (p->b[s] < 0) {
		fputs("null", out);
		return;
	}
	b = &d->side[s].report.funcs[f->f[s]].blocks[p->b[s]];
	fprintf(out, "{\"start\": %" PRIu32 ", \"end\": %" PRIu32 ", \"insns\": %" PRIu32
		", \"samples\": %" PRIu64 ", \"share\": %.4f}", b->start, b->end, b->insns,
		p->samples[s], p->share[s]);
}

/* A number with 4 significant digits (g) or decimals (f), or null when it
 * is none (NAN, infinite). */
static void put_num(FILE *out, char style, double v)
{
	if (!isfinite(v))
		fputs("null", out);
	else if (style == 'g')
		fprintf(out, "%.4g", v);
	else
		fprintf(out, "%.4f", v);
}

static void put_6g(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.6g", v);
	else
		fputs("null", out);
}

/* as selection.min_delta is written */
static void put_15g(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, "%.15g", v);
	else
		fputs("null", out);
}

/* A change's test: ", "delta_per_run": ..., "significant": ..., "p": ..., "q": ..., "interval": [lo, hi]". */
static void put_test(FILE *out, double delta_per_run, const struct diff_test *t)
{
	fprintf(out, ", \"delta_per_run\": %.4f, \"significant\": %s, \"p\": ", delta_per_run,
		t->significant ? "true" : "false");
	put_num(out, 'g', t->p);
	fputs(", \"q\": ", out);
	put_num(out, 'g', t->q);
	fputs(", \"interval\": [", out);
	put_num(out, 'f', t->lo);
	fputs(", ", out);
	put_num(out, 'f', t->hi);
	fputc(']', out);
}

static void put_pair(FILE *out, const struct diff *d, const struct diff_func *f,
		     const struct diff_pair *p)
{
	const char *key = diff__key_name(p->key);

	fputs("        {\"base\": ", out);
	put_side_block(out, d, f, p, DIFF_BASE);
	fputs(", \"new\": ", out);
	put_side_block(out, d, f, p, DIFF_NEW);
	fputs(", \"key\": ", out);
	if (key)
		fprintf(out, "\"%s\", \"score\": %.3f", key, p->score);
	else
		fputs("null, \"score\": null", out);
	fprintf(out, ", \"delta\": %.4f, \"delta_samples\": %" PRId64, p->delta, p->delta_samples);
	put_test(out, p->delta_per_run, &p->test);
	fprintf(out, ", \"rank\": %" PRIu32 ", \"shown\": %s}", p->rank, p->shown ? "true" : "false");
}

static void put_func(FILE *out, const struct diff *d, const struct diff_func *f)
{
	const char *m = diff__func_match_name(f->match);

	fputs("    {\n      \"base\": ", out);
	put_side_func(out, d, f, DIFF_BASE);
	fputs(",\n      \"new\": ", out);
	put_side_func(out, d, f, DIFF_NEW);
	fputs(",\n      \"match\": ", out);
	if (m)
		fprintf(out, "\"%s\"", m);
	else
		fputs("null", out);
	if (f->match == DIFF_FUNC_WASM && f->wasm_func >= 0)
		fprintf(out, ",\n      \"wasm_function\": %" PRId32, f->wasm_func);
	fprintf(out, ",\n      \"delta\": %.4f,\n      \"delta_samples\": %" PRId64, f->delta,
		f->delta_samples);
	put_test(out, f->delta_per_run, &f->test);
	fprintf(out, ",\n      \"compared\": %s,\n      \"blocks\": [", f->compared ? "true" : "false");
	for (size_t i = 0; i < f->pairs_nr; i++) {
		fputs(i ? ",\n" : "\n", out);
		put_pair(out, d, f, &d->pairs[f->first_pair + i]);
	}
	fputs(f->pairs_nr ? "\n      ]\n    }" : "]\n    }", out);
}

static void put_side(FILE *out, const struct diff *d, int s)
{
	const struct diff_side *side = &d->side[s];

	fprintf(out, "    \"%s\": {\"files\": ", s == DIFF_BASE ? "base" : "new");
	render_json__str(out, side->files);
	fprintf(out, ", \"total_samples\": %" PRIu64 ", \"jit_samples\": %" PRIu64 ", \"runs\": [",
		d->total[s], d->jit[s]);
	for (size_t i = 0; i < side->report.runs_nr; i++) {
		const struct report_run *r = &side->report.runs[i];

		fputs(i ? ", {\"stream\": " : "{\"stream\": ", out);
		render_json__str(out, r->origin);
		fprintf(out, ", \"line\": %lu, \"input\": ", r->line);
		if (r->input)
			render_json__str(out, r->input);
		else
			fputs("null", out);
		fprintf(out, ", \"total_samples\": %" PRIu64 "}", r->total);
	}
	fputs("]}", out);
}

static void put_spread_side(FILE *out, const struct diff_significance_spread *sp)
{
	fprintf(out, "{\"runs\": %zu, \"samples\": %.0f, \"chi_square\": %.4g, \"df\": %.4g, "
		"\"p\": %.4g}", sp->runs, sp->samples, sp->x2, sp->df, sp->p);
}

/* The noise of the comparison (JSON.md "noise"). */
static void put_noise(FILE *out, const struct diff *d)
{
	const struct diff_noise *n = &d->noise;
	const struct diff_significance *m = &n->model;
	bool measured = m->df > 0;

	fprintf(out, "  \"noise\": {\"method\": \"newcombe\", \"alpha\": %.4g, \"fdr\": %.4g, "
		"\"quantile\": \"%s\", \"critical\": %.4f,\n    \"spread\": {\"measured\": %s, "
		"\"assumed\": %s, \"tau\": %.6g, \"df\": ", m->alpha, m->fdr,
		measured ? "t" : "normal", m->crit, measured ? "true" : "false",
		m->assumed ? "true" : "false", sqrt(m->tau2));
	put_6g(out, measured ? m->df : NAN);
	fputs(", \"chi_square\": ", out);
	put_num(out, 'g', measured ? m->x2 : NAN);
	fputs(", \"chi_square_df\": ", out);
	put_num(out, 'g', measured ? m->x2_df : NAN);
	fputs(", \"p\": ", out);
	put_num(out, 'g', measured ? m->p : NAN);
	fputs(",\n      \"base\": ", out);
	put_spread_side(out, &n->spread[DIFF_BASE]);
	fputs(", \"new\": ", out);
	put_spread_side(out, &n->spread[DIFF_NEW]);
	fprintf(out, "},\n    \"half_width\": {\"%s\": %.4f, \"%s\": %.4f}, \"min_delta\": ",
		d->opts.counts ? "100" : "1", n->half_width[0], d->opts.counts ? "1000" : "10",
		n->half_width[1]);
	put_15g(out, n->min_delta);
	fputs(", \"min_samples\": ", out);
	if (n->min_samples == UINT64_MAX)
		fputs("null", out);
	else
		fprintf(out, "%" PRIu64, n->min_samples);
	fprintf(out, ",\n    \"tests\": {\"functions\": %zu, \"blocks\": %zu, \"blocks_unseen\": %zu}, "
		"\"significant\": {\"functions\": %zu, \"blocks\": %zu}},\n", n->tests_funcs,
		n->tests_blocks, n->blocks_unseen, n->significant_funcs, n->significant_blocks);
}

int render_diff_json(FILE *out, const struct diff *d, const struct render_opts *o)
{
	const char *event = d->event;

	fprintf(out, "{\n  \"format\": \"hotblocks-diff\",\n  \"version\": %d,\n  \"event\": ",
		DIFF_JSON_VERSION);
	if (event)
		render_json__str(out, event);
	else
		fputs("null", out);
	fputs(",\n  \"sides\": {\n", out);
	put_side(out, d, DIFF_BASE);
	fputs(",\n", out);
	put_side(out, d, DIFF_NEW);
	fprintf(out, "\n  },\n  \"selection\": {\"counts\": %s, \"per_run\": %s, \"min_delta\": %.15g, "
		"\"top\": ", d->opts.counts ? "true" : "false", d->per_run ? "true" : "false", d->min_delta);
	if (d->opts.top == SIZE_MAX)
		fputs("null", out);
	else
		fprintf(out, "%zu", d->opts.top);
	fputs(", \"function\": ", out);
	if (d->opts.function)
		render_json__str(out, d->opts.function);
	else
		fputs("null", out);
	fprintf(out, ", \"all\": %s},\n", d->opts.all ? "true" : "false");
	put_noise(out, d);
	fprintf(out, "  \"keys\": {\"code\": %zu, \"wasm\": %zu, \"source\": %zu, \"asm\": %zu},\n",
		d->keys[DIFF_KEY_CODE], d->keys[DIFF_KEY_WASM], d->keys[DIFF_KEY_SOURCE],
		d->keys[DIFF_KEY_ASM]);
	fprintf(out, "  \"functions_compared\": %zu,\n  \"blocks_shown\": %zu,\n  \"functions\": [",
		d->compared_nr, d->shown_nr);
	for (size_t i = 0; i < d->funcs_nr; i++) {
		fputs(i ? ",\n" : "\n", out);
		put_func(out, d, &d->funcs[i]);
	}
	fputs(d->funcs_nr ? "\n  ]\n}\n" : "]\n}\n", out);
	return ferror(out) ? -EIO : 0;
}

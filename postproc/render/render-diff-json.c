/* SPDX-License-Identifier: MIT */
/* `hotblocks diff --json`: the document "hotblocks-diff", version 1 (JSON.md). */
#include <math.h>
#include <stdint.h>

#include "lib/json-writer.h"
#include "diff/diff.h"
#include "render.h"

#define DIFF_JSON_VERSION 1

static const char *const side_key[DIFF__SIDES] = { [DIFF_BASE] = "base", [DIFF_NEW] = "new" };

static void put_side_func(struct json_writer *w, const struct diff *d, const struct diff_func *f,
			  int s)
{
	if (f->obj[s] == UINT32_MAX) {
		json_writer__null(w, side_key[s]);
		return;
	}
	json_writer__object(w, side_key[s], JSON_INLINE);
	json_writer__str(w, "name", f->raw_name[s]);
	json_writer__str(w, "display_name", f->name[s]);
	json_writer__str(w, "kind", f->kind[s]);
	json_writer__u64(w, "samples", f->samples[s]);
	json_writer__double(w, "share", 'f', 4, f->share[s]);
	if (f->tiers_nr[s]) {
		/* a V8 wasm function's tiers together: their split; the blocks are the first's */
		json_writer__str(w, "blocks_tier", f->block_tier[s]);
		json_writer__array(w, "tiers", JSON_INLINE);
		for (size_t t = 0; t < f->tiers_nr[s]; t++) {
			const struct diff_tier *dt = &d->tiers[f->first_tier[s] + t];

			json_writer__object(w, NULL, JSON_INLINE);
			json_writer__str(w, "tier", dt->tier);
			json_writer__str(w, "name", dt->name);
			json_writer__u64(w, "samples", dt->samples);
			json_writer__end(w);
		}
		json_writer__end(w);
	}
	if (f->f[s] >= 0)
		render_json__runs(w, &d->side[s].report.funcs[f->f[s]]);
	json_writer__end(w);
}

static void put_side_block(struct json_writer *w, const struct diff_pair *p, int s)
{
	if (p->b[s] < 0) {
		json_writer__null(w, side_key[s]);
		return;
	}
	json_writer__object(w, side_key[s], JSON_INLINE);
	json_writer__u64(w, "start", p->start[s]);
	json_writer__u64(w, "end", p->end[s]);
	json_writer__u64(w, "insns", p->insns[s]);
	json_writer__u64(w, "samples", p->samples[s]);
	json_writer__double(w, "share", 'f', 4, p->share[s]);
	json_writer__end(w);
}

/* A change's test: "delta_per_run", "significant", "p", "q", "interval": [lo, hi]. */
static void put_test(struct json_writer *w, double delta_per_run, const struct diff_test *t)
{
	json_writer__double(w, "delta_per_run", 'f', 4, delta_per_run);
	json_writer__bool(w, "significant", t->significant);
	json_writer__double(w, "p", 'g', 4, t->p);
	json_writer__double(w, "q", 'g', 4, t->q);
	json_writer__array(w, "interval", JSON_INLINE);
	json_writer__double(w, NULL, 'f', 4, t->lo);
	json_writer__double(w, NULL, 'f', 4, t->hi);
	json_writer__end(w);
}

/* What branch stacks measured of the pair (JSON.md "measured"). */
static void put_measured(struct json_writer *w, const struct diff_pair *p, const struct diff_measured *m)
{
	json_writer__object(w, "measured", JSON_INLINE);
	for (int s = 0; s < DIFF__SIDES; s++) {
		if (p->b[s] < 0) {
			json_writer__null(w, side_key[s]);
			continue;
		}
		json_writer__object(w, side_key[s], JSON_INLINE);
		json_writer__u64(w, "executions", m->executions[s]);
		json_writer__double(w, "per_1000_entries", 'f', 4, m->rate[s]);
		if (m->branch[s]) {
			json_writer__u64(w, "taken", m->taken[s]);
			json_writer__u64(w, "not_taken", m->not_taken[s]);
		}
		json_writer__end(w);
	}
	json_writer__double(w, "delta", 'f', 4, m->delta);
	json_writer__end(w);
}

static void put_pair(struct json_writer *w, const struct diff *d, const struct diff_pair *p)
{
	const char *key = diff__key_name(p->key);

	json_writer__object(w, NULL, JSON_INLINE);
	put_side_block(w, p, DIFF_BASE);
	put_side_block(w, p, DIFF_NEW);
	json_writer__str(w, "key", key);
	if (key)
		json_writer__double(w, "score", 'f', 3, p->score);
	else
		json_writer__null(w, "score");
	json_writer__double(w, "delta", 'f', 4, p->delta);
	json_writer__i64(w, "delta_samples", p->delta_samples);
	put_test(w, p->delta_per_run, &p->test);
	json_writer__u64(w, "rank", p->rank);
	json_writer__bool(w, "shown", p->shown);
	if (d->has_measured)
		put_measured(w, p, &d->measured[p - d->pairs]);
	json_writer__end(w);
}

/* The groups of f's blocks (diff_group), "groups": only when one formed. */
static void put_groups(struct json_writer *w, const struct diff *d, const struct diff_func *f)
{
	uint32_t fi = (uint32_t)(f - d->funcs);
	bool any = false;

	for (size_t i = 0; i < d->groups_nr; i++) {
		const struct diff_group *g = &d->groups[i];
		const struct diff_group_block *b = &d->group_blocks[g->first_block];

		if (g->func != fi)
			continue;
		if (!any)
			json_writer__array(w, "groups", JSON_LINES);
		any = true;
		json_writer__object(w, NULL, JSON_INLINE);
		for (int s = 0; s < DIFF__SIDES; s++) {
			json_writer__object(w, side_key[s], JSON_INLINE);
			json_writer__array(w, "blocks", JSON_INLINE);
			for (size_t k = 0; k < g->blocks_nr[s]; k++, b++) {
				json_writer__object(w, NULL, JSON_INLINE);
				json_writer__u64(w, "start", b->start);
				json_writer__u64(w, "end", b->end);
				json_writer__u64(w, "samples", b->samples);
				json_writer__end(w);
			}
			json_writer__end(w);
			json_writer__u64(w, "samples", g->samples[s]);
			json_writer__double(w, "share", 'f', 4, g->share[s]);
			json_writer__end(w);
		}
		json_writer__double(w, "delta", 'f', 4, g->delta);
		json_writer__i64(w, "delta_samples", g->delta_samples);
		json_writer__double(w, "delta_per_run", 'f', 4, g->delta_per_run);
		json_writer__end(w);
	}
	if (any)
		json_writer__end(w);
}

static void put_func(struct json_writer *w, const struct diff *d, const struct diff_func *f)
{
	json_writer__object(w, NULL, JSON_LINES);
	put_side_func(w, d, f, DIFF_BASE);
	put_side_func(w, d, f, DIFF_NEW);
	json_writer__str(w, "match", diff__func_match_name(f->match));
	if (f->match == DIFF_FUNC_WASM && f->wasm_func >= 0)
		json_writer__i64(w, "wasm_function", f->wasm_func);
	json_writer__double(w, "delta", 'f', 4, f->delta);
	json_writer__i64(w, "delta_samples", f->delta_samples);
	/* the test on the line of the change */
	json_writer__layout(w, JSON_INLINE);
	put_test(w, f->delta_per_run, &f->test);
	json_writer__layout(w, JSON_LINES);
	json_writer__bool(w, "compared", f->compared);
	json_writer__array(w, "blocks", JSON_LINES);
	for (size_t i = 0; i < f->pairs_nr; i++)
		put_pair(w, d, &d->pairs[f->first_pair + i]);
	json_writer__end(w);
	put_groups(w, d, f);
	json_writer__end(w);
}

static void put_side(struct json_writer *w, const struct diff *d, int s)
{
	const struct diff_side *side = &d->side[s];

	json_writer__object(w, side_key[s], JSON_INLINE);
	json_writer__str(w, "files", side->files);
	json_writer__u64(w, "total_samples", d->total[s]);
	json_writer__u64(w, "jit_samples", d->jit[s]);
	if (side->report.kinds)
		json_writer__u64(w, "collected_samples", side->report.collected);
	json_writer__array(w, "runs", JSON_INLINE);
	for (size_t i = 0; i < side->report.runs_nr; i++) {
		const struct report_run *r = &side->report.runs[i];

		json_writer__object(w, NULL, JSON_INLINE);
		json_writer__str(w, "stream", r->origin);
		json_writer__u64(w, "line", r->line);
		json_writer__str(w, "input", r->input);
		json_writer__u64(w, "total_samples", r->total);
		json_writer__end(w);
	}
	json_writer__end(w);
	json_writer__end(w);
}

static void put_selection(struct json_writer *w, const struct diff *d)
{
	json_writer__object(w, "selection", JSON_INLINE);
	json_writer__bool(w, "counts", d->opts.counts);
	json_writer__bool(w, "per_run", d->per_run);
	json_writer__double(w, "min_delta", 'g', 15, d->min_delta);
	if (d->opts.top == SIZE_MAX)
		json_writer__null(w, "top");
	else
		json_writer__u64(w, "top", d->opts.top);
	json_writer__str(w, "function", d->opts.function);
	json_writer__bool(w, "all", d->opts.all);
	if (d->side[DIFF_BASE].report.kinds)
		render_json__kinds(w, d->side[DIFF_BASE].report.kinds);
	json_writer__end(w);
}

static void put_spread_side(struct json_writer *w, const char *key,
			    const struct diff_significance_spread *sp)
{
	json_writer__object(w, key, JSON_INLINE);
	json_writer__u64(w, "runs", sp->runs);
	json_writer__double(w, "samples", 'f', 0, sp->samples);
	json_writer__double(w, "chi_square", 'g', 4, sp->x2);
	json_writer__double(w, "df", 'g', 4, sp->df);
	json_writer__double(w, "p", 'g', 4, sp->p);
	json_writer__end(w);
}

/* The runs' spread: measured, or assumed (JSON.md "noise.spread"). */
static void put_spread(struct json_writer *w, const struct diff_noise *n)
{
	const struct diff_significance *m = &n->model;
	bool measured = m->df > 0;

	json_writer__break(w);
	json_writer__object(w, "spread", JSON_INLINE);
	json_writer__bool(w, "measured", measured);
	json_writer__bool(w, "assumed", m->assumed);
	json_writer__double(w, "tau", 'g', 6, sqrt(m->tau2));
	json_writer__double(w, "df", 'g', 6, measured ? m->df : NAN);
	json_writer__double(w, "chi_square", 'g', 4, measured ? m->x2 : NAN);
	json_writer__double(w, "chi_square_df", 'g', 4, measured ? m->x2_df : NAN);
	json_writer__double(w, "p", 'g', 4, measured ? m->p : NAN);
	json_writer__break(w);
	put_spread_side(w, "base", &n->spread[DIFF_BASE]);
	put_spread_side(w, "new", &n->spread[DIFF_NEW]);
	json_writer__end(w);
}

/* The noise of the comparison (JSON.md "noise"). */
static void put_noise(struct json_writer *w, const struct diff *d)
{
	const struct diff_noise *n = &d->noise;
	const struct diff_significance *m = &n->model;

	json_writer__object(w, "noise", JSON_INLINE);
	json_writer__str(w, "method", "newcombe");
	json_writer__double(w, "alpha", 'g', 4, m->alpha);
	json_writer__double(w, "fdr", 'g', 4, m->fdr);
	json_writer__str(w, "quantile", m->df > 0 ? "t" : "normal");
	json_writer__double(w, "critical", 'f', 4, m->crit);
	put_spread(w, n);
	json_writer__break(w);
	json_writer__object(w, "half_width", JSON_INLINE);
	json_writer__double(w, d->opts.counts ? "100" : "1", 'f', 4, n->half_width[0]);
	json_writer__double(w, d->opts.counts ? "1000" : "10", 'f', 4, n->half_width[1]);
	json_writer__end(w);
	json_writer__double(w, "min_delta", 'g', 15, n->min_delta);
	if (n->min_samples == UINT64_MAX)
		json_writer__null(w, "min_samples");
	else
		json_writer__u64(w, "min_samples", n->min_samples);
	json_writer__break(w);
	json_writer__object(w, "tests", JSON_INLINE);
	json_writer__u64(w, "functions", n->tests_funcs);
	json_writer__u64(w, "blocks", n->tests_blocks);
	json_writer__u64(w, "blocks_unseen", n->blocks_unseen);
	json_writer__end(w);
	json_writer__object(w, "significant", JSON_INLINE);
	json_writer__u64(w, "functions", n->significant_funcs);
	json_writer__u64(w, "blocks", n->significant_blocks);
	json_writer__end(w);
	json_writer__end(w);
}

static void put_keys(struct json_writer *w, const struct diff *d)
{
	json_writer__object(w, "keys", JSON_INLINE);
	json_writer__u64(w, "code", d->keys[DIFF_KEY_CODE]);
	json_writer__u64(w, "wasm", d->keys[DIFF_KEY_WASM]);
	json_writer__u64(w, "source", d->keys[DIFF_KEY_SOURCE]);
	json_writer__u64(w, "asm", d->keys[DIFF_KEY_ASM]);
	json_writer__end(w);
}

int render_diff_json(FILE *out, const struct diff *d, const struct render_opts *o)
{
	struct json_writer w;

	json_writer__init(&w, out, JSON_DOCUMENT);
	json_writer__object(&w, NULL, JSON_LINES);
	json_writer__str(&w, "format", "hotblocks-diff");
	json_writer__u64(&w, "version", DIFF_JSON_VERSION);
	json_writer__str(&w, "event", d->event);
	json_writer__object(&w, "sides", JSON_LINES);
	put_side(&w, d, DIFF_BASE);
	put_side(&w, d, DIFF_NEW);
	json_writer__end(&w);
	put_selection(&w, d);
	put_noise(&w, d);
	put_keys(&w, d);
	if (d->has_measured) {
		json_writer__object(&w, "branch_stack_entries", JSON_INLINE);
		json_writer__u64(&w, "base", d->entries[DIFF_BASE]);
		json_writer__u64(&w, "new", d->entries[DIFF_NEW]);
		json_writer__end(&w);
	}
	json_writer__u64(&w, "functions_compared", d->compared_nr);
	json_writer__u64(&w, "blocks_shown", d->shown_nr);
	json_writer__array(&w, "functions", JSON_LINES);
	for (size_t i = 0; i < d->funcs_nr; i++)
		put_func(&w, d, &d->funcs[i]);
	json_writer__end(&w);
	json_writer__end(&w);
	return json_writer__finish(&w);
}

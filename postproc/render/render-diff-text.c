/* SPDX-License-Identifier: MIT */
/*
 * `hotblocks diff` as text: the tables of `perf diff`, one row per function
 * and then one per pair of blocks, BASE and NEW side by side with the delta
 * (JSON.md, "hotblocks diff").
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "lib/util.h"
#include "diff/diff.h"
#include "render.h"
#include "stream/stream.h"
#include "lib/term.h"

#define RED "\033[31m"
#define GREEN "\033[32m"
#define DIM "\033[2m"
#define RESET "\033[0m"

/* A name between backticks, as the report writes it. */
static void put_name(FILE *out, const char *s)
{
	fputc('`', out);
	term_puts(out, s);
	fputc('`', out);
}

const char *render_diff_text__side(char *buf, size_t len, const struct diff *d, int s,
				   bool present, double pct, uint64_t n)
{
	char num[64];

	if (!present)
		snprintf(buf, len, "-");
	else if (d->per_run)
		snprintf(buf, len, "%.1f", (double)n / (double)d->runs[s]);
	else if (d->opts.counts)
		snprintf(buf, len, "%" PRIu64, n);
	else
		snprintf(buf, len, "%s%%", fmt_share(num, sizeof(num), n, pct));
	return buf;
}

const char *render_diff_text__delta(char *buf, size_t len, const struct diff *d, int sign,
				    double delta, double delta_per_run)
{
	char num[64];

	/* no "+0", no "-0.00": what did not change has no sign */
	if (d->opts.counts && !sign)
		snprintf(buf, len, d->per_run ? "0.0" : "0");
	else if (d->opts.counts)
		snprintf(buf, len, d->per_run ? "%+.1f" : "%+.0f", delta_per_run);
	else
		snprintf(buf, len, "%s%s%%", sign > 0 ? "+" : sign < 0 ? "-" : "",
			 fmt_pct(num, sizeof(num), fabs(delta)));
	return buf;
}

const char *render_diff_text__interval(char *buf, size_t len, const struct diff *d,
				       const struct diff_test *t)
{
	if (d->opts.counts)
		snprintf(buf, len, "[%+.1f, %+.1f]", t->lo, t->hi);
	else
		snprintf(buf, len, "[%+.2f, %+.2f]", t->lo, t->hi);
	return buf;
}

const char *render_diff_text__spread(char *buf, size_t len, const struct diff *d)
{
	const struct diff_significance *m = &d->noise.model;
	const struct diff_significance_spread *sp = d->noise.spread;

	if (m->df > 0 && m->tau2 > 0)
		snprintf(buf, len, "run to run: tau = %.1f%%, measured on %zu and %zu runs (their "
			 "chi-square: p = %.2g)", sqrt(m->tau2) * 100.0, sp[DIFF_BASE].runs,
			 sp[DIFF_NEW].runs, m->p);
	else if (m->df > 0)
		snprintf(buf, len, "run to run: none beyond sampling, measured on %zu and %zu runs "
			 "(their chi-square: p = %.2g)", sp[DIFF_BASE].runs, sp[DIFF_NEW].runs, m->p);
	else if (m->assumed)
		snprintf(buf, len, "run to run: tau = %.3g%% assumed (not measured: one run a side)",
			 sqrt(m->tau2) * 100.0);
	else
		snprintf(buf, len, "sampling noise alone (no run-to-run spread assumed)");
	return buf;
}

const char *render_diff_text__pair_match(char *buf, size_t len, const struct diff_pair *p)
{
	if (p->key != DIFF_KEY_NONE)
		snprintf(buf, len, "%s %.0f%%", diff__key_name(p->key), p->score * 100.0);
	else
		snprintf(buf, len, "%s only", p->b[DIFF_BASE] >= 0 ? "BASE" : "NEW");
	return buf;
}

const char *render_diff_text__func_match(char *buf, size_t len, const struct diff_func *f)
{
	if (f->match == DIFF_FUNC_WASM && f->wasm_func >= 0)
		snprintf(buf, len, "wasm %" PRId32, f->wasm_func);
	else if (f->match != DIFF_FUNC_NONE)
		snprintf(buf, len, "%s", diff__func_match_name(f->match));
	else
		snprintf(buf, len, "%s only", f->obj[DIFF_BASE] != UINT32_MAX ? "BASE" : "NEW");
	return buf;
}

/* A side's cell, 11 wide. */
static void put_side(FILE *out, const struct diff *d, int s, bool present, double pct, uint64_t n)
{
	char cell[64];

	fprintf(out, "%11s", render_diff_text__side(cell, sizeof(cell), d, s, present, pct, n));
}

/* The delta cell, 11 wide, and its mark: red when NEW takes more, green when
 * less, '*' after it, when beyond noise; else dim. */
static void put_delta(FILE *out, const struct diff *d, int sign, int mark, double delta,
		      double delta_per_run, bool color)
{
	char cell[72];

	render_diff_text__delta(cell, sizeof(cell), d, sign, delta, delta_per_run);
	if (color && (mark || sign))
		fprintf(out, "%s%11s%s", mark > 0 ? RED : mark < 0 ? GREEN : DIM, cell, RESET);
	else
		fprintf(out, "%11s", cell);
	fputc(mark ? '*' : ' ', out);
}

/* "`a` -> `b`" when the two sides name a function differently, else "`a`". */
static void put_names(FILE *out, const char *const names[DIFF__SIDES])
{
	const char *b = names[DIFF_BASE], *n = names[DIFF_NEW];

	put_name(out, b ? b : n);
	if (b && n && strcmp(b, n)) {
		fputs(" -> ", out);
		put_name(out, n);
	}
}

/*
 * How large the noise is, where it comes from, and what '*' means:
 *   Noise (95%): +-0.45 points at a share of 1%, +-1.39 at 10%; SPREAD.
 *   * beyond noise (Benjamini-Hochberg, 5% false discoveries): 2 of 24 function
 *     pairs, 4 of 15 block pairs; no change under 0.12 points can be.
 */
static void put_noise(FILE *out, const struct diff *d)
{
	const struct diff_noise *n = &d->noise;
	char spread[256];

	if (d->opts.counts)
		fprintf(out, "Noise (%.0f%%): +-%.1f samples a run at 100, +-%.1f at 1000; %s.\n",
			(1.0 - n->model.alpha) * 100.0, n->half_width[0], n->half_width[1],
			render_diff_text__spread(spread, sizeof(spread), d));
	else
		fprintf(out, "Noise (%.0f%%): +-%.2f points at a share of 1%%, +-%.2f at 10%%; %s.\n",
			(1.0 - n->model.alpha) * 100.0, n->half_width[0], n->half_width[1],
			render_diff_text__spread(spread, sizeof(spread), d));
	fprintf(out, "* beyond noise (Benjamini-Hochberg, %.0f%% false discoveries): %zu of %zu "
		"function pair%s, %zu of %zu block pair%s", n->model.fdr * 100.0, n->significant_funcs,
		n->tests_funcs, plural(n->tests_funcs), n->significant_blocks, n->tests_blocks,
		plural(n->tests_blocks));
	if (isfinite(n->min_delta))
		fprintf(out, "; no change under %.3g %s can be.\n", n->min_delta,
			d->opts.counts ? "samples a run" : "points");
	else
		fputs("; no change can be (a side has no samples).\n", out);
}

static void put_header(FILE *out, const struct diff *d)
{
	char num[64];

	for (int s = 0; s < DIFF__SIDES; s++) {
		const struct diff_side *side = &d->side[s];

		const struct report *rep = &side->report;

		if (rep->kinds) {
			char kinds[32];

			/* T is of the kinds kept: of how many it is */
			stream__kinds_text(rep->kinds, kinds, sizeof(kinds));
			fprintf(out, "%-5s %" PRIu64 " total samples; %" PRIu64 " (%s%%) in %s code (",
				s == DIFF_BASE ? "BASE:" : "NEW:", rep->collected, d->total[s],
				fmt_pct(num, sizeof(num), rep->collected ? (double)d->total[s] /
					(double)rep->collected * 100.0 : 0.0), kinds);
		} else {
			fprintf(out, "%-5s %" PRIu64 " total samples; %" PRIu64 " (%s%%) JIT samples (",
				s == DIFF_BASE ? "BASE:" : "NEW:", d->total[s], d->jit[s],
				fmt_pct(num, sizeof(num),
					d->total[s] ? (double)d->jit[s] / (double)d->total[s] * 100.0 : 0.0));
		}
		term_puts(out, side->files);
		if (side->report.runs_nr > 1)
			fprintf(out, ", %zu runs", side->report.runs_nr);
		fputs(")\n", out);
	}
	if (d->per_run)
		fputs("Samples per run of each side; delta = NEW - BASE.\n", out);
	else if (d->opts.counts)
		fputs("Samples of each side; delta = NEW - BASE.\n", out);
	else if (d->side[DIFF_BASE].report.kinds)
		fputs("Shares of each side's samples in that code; delta = NEW - BASE.\n", out);
	else
		fputs("Shares of each side's total samples; delta = NEW - BASE.\n", out);
	put_noise(out, d);
}

static void put_funcs(FILE *out, const struct diff *d, bool color)
{
	char match[32];

	fprintf(out, "\n%11s%11s%11s   %-11s %s\n", "[BASE]", "[NEW]", "[Delta]", "[Match]",
		"[Function]");
	for (size_t i = 0; i < d->funcs_shown_nr; i++) {
		const struct diff_func *f = &d->funcs[i];

		put_side(out, d, DIFF_BASE, f->obj[DIFF_BASE] != UINT32_MAX, f->share[DIFF_BASE],
			 f->samples[DIFF_BASE]);
		put_side(out, d, DIFF_NEW, f->obj[DIFF_NEW] != UINT32_MAX, f->share[DIFF_NEW],
			 f->samples[DIFF_NEW]);
		put_delta(out, d, f->sign, f->mark, f->delta, f->delta_per_run, color);
		fprintf(out, "  %-11s ", render_diff_text__func_match(match, sizeof(match), f));
		put_names(out, f->name);
		fputc('\n', out);
	}
	if (!d->funcs_shown_nr)
		fprintf(out, "%35s(no function changed by %g %s or more)\n", "", d->min_delta,
			d->opts.counts ? "samples" : "points");
}

static void put_pairs(FILE *out, const struct diff *d, bool color)
{
	char match[32];

	fprintf(out, "\n%11s%11s%11s   %-11s %s\n", "[BASE]", "[NEW]", "[Delta]", "[Match]",
		"[Block]");
	for (size_t i = 0; i < d->shown_nr; i++) {
		const struct diff_pair *p = &d->pairs[d->ranked[i]];
		const struct diff_func *f = &d->funcs[p->func];
		bool has[DIFF__SIDES] = { p->b[DIFF_BASE] >= 0, p->b[DIFF_NEW] >= 0 };

		put_side(out, d, DIFF_BASE, has[DIFF_BASE], p->share[DIFF_BASE], p->samples[DIFF_BASE]);
		put_side(out, d, DIFF_NEW, has[DIFF_NEW], p->share[DIFF_NEW], p->samples[DIFF_NEW]);
		put_delta(out, d, p->sign, p->mark, p->delta, p->delta_per_run, color);
		fprintf(out, "  %-11s ", render_diff_text__pair_match(match, sizeof(match), p));
		put_names(out, f->block_name);
		fputs(" :: block", out);
		for (int s = 0; s < DIFF__SIDES; s++) {
			if (!has[s])
				continue;
			fprintf(out, "%s0x%" PRIx32, s == DIFF_NEW && has[DIFF_BASE] ? " -> " : " ",
				p->start[s]);
		}
		fputc('\n', out);
	}
	if (!d->shown_nr && d->by_noise && !d->compared_nr)
		fprintf(out, "%35s(no function changed beyond noise: none compared block by block;"
			" --all compares them)\n", "");
	else if (!d->shown_nr && d->by_noise)
		fprintf(out, "%35s(no block changed beyond noise; --all shows every pair)\n", "");
	else if (!d->shown_nr)
		fprintf(out, "%35s(no block changed by %g %s or more)\n", "", d->min_delta,
			d->opts.counts ? "samples" : "points");
}

/*
 * The groups of blocks (diff_group), when any formed: each side's blocks
 * summed, one row a group, after the pairs.
 */
static void put_groups(FILE *out, const struct diff *d, bool color)
{
	if (!d->groups_nr)
		return;
	fprintf(out, "\nBlocks of the same wasm offsets, grouped (each side's blocks summed; not tested):\n");
	fprintf(out, "%11s%11s%11s   %s\n", "[BASE]", "[NEW]", "[Delta]", "[Group]");
	for (size_t i = 0; i < d->groups_nr; i++) {
		const struct diff_group *g = &d->groups[i];
		const struct diff_func *f = &d->funcs[g->func];
		const struct diff_group_block *b = &d->group_blocks[g->first_block];

		put_side(out, d, DIFF_BASE, true, g->share[DIFF_BASE], g->samples[DIFF_BASE]);
		put_side(out, d, DIFF_NEW, true, g->share[DIFF_NEW], g->samples[DIFF_NEW]);
		put_delta(out, d, g->sign, 0, g->delta, g->delta_per_run, color);
		fputs("  ", out);
		put_names(out, f->block_name);
		fputs(" :: blocks", out);
		for (int s = 0; s < DIFF__SIDES; s++) {
			if (s == DIFF_NEW)
				fputs(" ->", out);
			for (size_t k = 0; k < g->blocks_nr[s]; k++, b++)
				fprintf(out, " 0x%" PRIx32, b->start);
		}
		fputc('\n', out);
	}
}

/* A side's taken % of the branch ending the block: "64.6%", or "-" (none, or never reached). */
static const char *taken_pct(char *buf, size_t len, const struct diff_measured *m, int s)
{
	uint64_t n = m->taken[s] + m->not_taken[s];

	if (!m->branch[s] || !n)
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f%%", (double)m->taken[s] * 100.0 / (double)n);
	return buf;
}

/*
 * Both sides with branch stacks: the shown pairs' measured executions, their
 * change per 1000 entries of each side, and the taken % of the conditional
 * branch each block ends in (DIFF.md, "Measured by branch stacks").
 */
static void put_measured(FILE *out, const struct diff *d)
{
	char n[DIFF__SIDES][32], pct[DIFF__SIDES][16], delta[32], taken[48];

	fprintf(out, "\nMeasured by branch stacks (BASE %" PRIu64 " entries, NEW %" PRIu64 "): executions, "
		"their change per 1000 entries, the taken %% of the block's conditional branch\n",
		d->entries[DIFF_BASE], d->entries[DIFF_NEW]);
	fprintf(out, "%11s%11s%11s   %-17s %s\n", "[BASE]", "[NEW]", "[Delta]", "[Taken]", "[Block]");
	for (size_t i = 0; i < d->shown_nr; i++) {
		const struct diff_pair *p = &d->pairs[d->ranked[i]];
		const struct diff_measured *m = &d->measured[d->ranked[i]];
		bool has[DIFF__SIDES] = { p->b[DIFF_BASE] >= 0, p->b[DIFF_NEW] >= 0 };

		for (int s = 0; s < DIFF__SIDES; s++)
			if (has[s])
				snprintf(n[s], sizeof(n[s]), "%" PRIu64, m->executions[s]);
			else
				snprintf(n[s], sizeof(n[s]), "-");
		/* what prints as 0.00 has no sign */
		snprintf(delta, sizeof(delta), fabs(m->delta) < 0.005 ? "0.00" : "%+.2f", m->delta);
		snprintf(taken, sizeof(taken), "%s -> %s", taken_pct(pct[0], sizeof(pct[0]), m, DIFF_BASE),
			 taken_pct(pct[1], sizeof(pct[1]), m, DIFF_NEW));
		fprintf(out, "%11s%11s%11s   %-17s ", n[DIFF_BASE], n[DIFF_NEW], delta,
			m->branch[DIFF_BASE] || m->branch[DIFF_NEW] ? taken : "");
		put_names(out, d->funcs[p->func].block_name);
		fputs(" :: block", out);
		for (int s = 0; s < DIFF__SIDES; s++)
			if (has[s])
				fprintf(out, "%s0x%" PRIx32, s == DIFF_NEW && has[DIFF_BASE] ? " -> " : " ",
					p->start[s]);
		fputc('\n', out);
	}
	if (!d->shown_nr)
		fprintf(out, "%35s(no pair shown)\n", "");
}

/*
 * --listing: each shown pair, then its blocks in the report's layout, BASE's
 * then NEW's, each with the shares of its own side.
 */
static int put_listing(FILE *out, const struct diff *d, bool color)
{
	char a[64], b[64], delta[80], range[80];
	int ret;

	for (size_t i = 0; i < d->shown_nr; i++) {
		const struct diff_pair *p = &d->pairs[d->ranked[i]];
		const struct diff_func *f = &d->funcs[p->func];

		render_diff_text__delta(delta, sizeof(delta), d, p->sign, p->delta, p->delta_per_run);
		/* after the table a blank line; after a block, its own */
		fprintf(out, "%s== %zu: ", i ? "" : "\n", i + 1);
		put_names(out, f->block_name);
		fprintf(out, " :: %s -> %s (%s%s%s%s, 95%% %s%s)",
			render_diff_text__side(a, sizeof(a), d, DIFF_BASE, p->b[0] >= 0, p->share[0],
					       p->samples[0]),
			render_diff_text__side(b, sizeof(b), d, DIFF_NEW, p->b[1] >= 0, p->share[1],
					       p->samples[1]),
			color && p->mark ? (p->mark > 0 ? RED : GREEN) : "", delta,
			color && p->mark ? RESET : "", p->mark ? "*" : "",
			render_diff_text__interval(range, sizeof(range), d, &p->test),
			p->test.significant ? ", beyond noise" : "");
		if (p->key != DIFF_KEY_NONE)
			fprintf(out, ", %s %.0f%%\n\n", diff__key_name(p->key), p->score * 100.0);
		else
			fprintf(out, ", %s only\n\n", p->b[DIFF_BASE] >= 0 ? "BASE" : "NEW");
		for (int s = 0; s < DIFF__SIDES; s++) {
			struct report_ref ref;

			if (p->b[s] < 0)
				continue;
			fputs(s == DIFF_BASE ? "BASE: " : "NEW:  ", out);
			ref = (struct report_ref){ (uint32_t)f->f[s], (uint32_t)p->b[s] };
			if ((ret = report__func_open(&d->side[s].report, ref.func)))
				return ret;
			render_text__block(out, &d->side[s].report, &ref, color);
			report__func_close(&d->side[s].report, ref.func);
		}
	}
	return 0;
}

int render_diff_text(FILE *out, const struct diff *d, const struct render_opts *o)
{
	put_header(out, d);
	put_funcs(out, d, o->color);
	put_pairs(out, d, o->color);
	put_groups(out, d, o->color);
	if (d->has_measured)
		put_measured(out, d);
	if (d->opts.listing) {
		int ret = put_listing(out, d, o->color);

		if (ret)
			return ret;
	}
	return ferror(out) ? -EIO : 0;
}

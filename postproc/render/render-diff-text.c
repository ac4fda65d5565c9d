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
#include "lib/term.h"

#define RED "\033[31m"
#define GREEN "\033[32m"
#define RESET "\033[0m"

/* A name between backticks, as the report writes it. */
static void put_name(FILE *out, const char *s)
{
	fputc('`', out);
	term_puts(out, s);
	fputc('`', out);
}

const char *render_diff_text__side(char *buf, size_t len, const struct diff *d, bool present,
				   double pct, uint64_t n)
{
	char num[64];

	if (!present)
		snprintf(buf, len, "-");
	else if (d->opts.counts)
		snprintf(buf, len, "%" PRIu64, n);
	else
		snprintf(buf, len, "%s%%", fmt_pct(num, sizeof(num), pct));
	return buf;
}

const char *render_diff_text__delta(char *buf, size_t len, const struct diff *d, int sign,
				    double delta, int64_t delta_samples)
{
	char num[64];

	/* no "+0", no "-0.00": what did not change has no sign */
	if (d->opts.counts)
		snprintf(buf, len, delta_samples ? "%+" PRId64 : "0", delta_samples);
	else
		snprintf(buf, len, "%s%s%%", sign > 0 ? "+" : sign < 0 ? "-" : "",
			 fmt_pct(num, sizeof(num), fabs(delta)));
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

const char *render_diff_text__func_match(const struct diff_func *f)
{
	if (f->match != DIFF_FUNC_NONE)
		return diff__func_match_name(f->match);
	return f->obj[DIFF_BASE] != UINT32_MAX ? "BASE only" : "NEW only";
}

/* A side's cell, 11 wide. */
static void put_side(FILE *out, const struct diff *d, bool present, double pct, uint64_t n)
{
	char cell[64];

	fprintf(out, "%11s", render_diff_text__side(cell, sizeof(cell), d, present, pct, n));
}

/* The delta cell, 11 wide: red when NEW takes more, green when less. */
static void put_delta(FILE *out, const struct diff *d, int sign, double delta,
		      int64_t delta_samples, bool color)
{
	char cell[72];

	render_diff_text__delta(cell, sizeof(cell), d, sign, delta, delta_samples);
	if (color && sign)
		fprintf(out, "%s%11s%s", sign > 0 ? RED : GREEN, cell, RESET);
	else
		fprintf(out, "%11s", cell);
}

/* "`a` -> `b`" when the two sides name a function differently, else "`a`". */
static void put_func_name(FILE *out, const struct diff_func *f)
{
	const char *b = f->name[DIFF_BASE], *n = f->name[DIFF_NEW];

	put_name(out, b ? b : n);
	if (b && n && strcmp(b, n)) {
		fputs(" -> ", out);
		put_name(out, n);
	}
}

static void put_header(FILE *out, const struct diff *d)
{
	char num[64];

	for (int s = 0; s < DIFF__SIDES; s++) {
		const struct diff_side *side = &d->side[s];

		fprintf(out, "%-5s %" PRIu64 " total samples; %" PRIu64 " (%s%%) JIT samples (",
			s == DIFF_BASE ? "BASE:" : "NEW:", d->total[s], d->jit[s],
			fmt_pct(num, sizeof(num),
				d->total[s] ? (double)d->jit[s] / (double)d->total[s] * 100.0 : 0.0));
		term_puts(out, side->files);
		if (side->report.runs_nr > 1)
			fprintf(out, ", %zu runs", side->report.runs_nr);
		fputs(")\n", out);
	}
	if (d->opts.counts)
		fputs("Samples of each side; delta = NEW - BASE.\n", out);
	else
		fputs("Shares of each side's total samples; delta = NEW - BASE.\n", out);
}

static void put_funcs(FILE *out, const struct diff *d, bool color)
{
	fprintf(out, "\n%11s%11s%11s   %-11s %s\n", "[BASE]", "[NEW]", "[Delta]", "[Match]",
		"[Function]");
	for (size_t i = 0; i < d->funcs_shown_nr; i++) {
		const struct diff_func *f = &d->funcs[i];

		put_side(out, d, f->obj[DIFF_BASE] != UINT32_MAX, f->share[DIFF_BASE],
			 f->samples[DIFF_BASE]);
		put_side(out, d, f->obj[DIFF_NEW] != UINT32_MAX, f->share[DIFF_NEW],
			 f->samples[DIFF_NEW]);
		put_delta(out, d, f->sign, f->delta, f->delta_samples, color);
		fprintf(out, "   %-11s ", render_diff_text__func_match(f));
		put_func_name(out, f);
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

		put_side(out, d, has[DIFF_BASE], p->share[DIFF_BASE], p->samples[DIFF_BASE]);
		put_side(out, d, has[DIFF_NEW], p->share[DIFF_NEW], p->samples[DIFF_NEW]);
		put_delta(out, d, p->sign, p->delta, p->delta_samples, color);
		fprintf(out, "   %-11s ", render_diff_text__pair_match(match, sizeof(match), p));
		put_func_name(out, f);
		fputs(" :: block", out);
		for (int s = 0; s < DIFF__SIDES; s++) {
			if (!has[s])
				continue;
			fprintf(out, "%s0x%" PRIx32, s == DIFF_NEW && has[DIFF_BASE] ? " -> " : " ",
				p->start[s]);
		}
		fputc('\n', out);
	}
	if (!d->shown_nr)
		fprintf(out, "%35s(no block changed by %g %s or more)\n", "", d->min_delta,
			d->opts.counts ? "samples" : "points");
}

/*
 * --listing: each shown pair, then its blocks in the report's layout, BASE's
 * then NEW's, each with the shares of its own side.
 */
static int put_listing(FILE *out, const struct diff *d, bool color)
{
	char a[64], b[64], num[64], delta[80];
	int ret;

	for (size_t i = 0; i < d->shown_nr; i++) {
		const struct diff_pair *p = &d->pairs[d->ranked[i]];
		const struct diff_func *f = &d->funcs[p->func];

		if (d->opts.counts)
			snprintf(delta, sizeof(delta), "%+" PRId64, p->delta_samples);
		else
			snprintf(delta, sizeof(delta), "%s%s%%", p->delta < 0 ? "-" : "+",
				 fmt_pct(num, sizeof(num), fabs(p->delta)));
		/* after the table a blank line; after a block, its own */
		fprintf(out, "%s== %zu: ", i ? "" : "\n", i + 1);
		put_func_name(out, f);
		fprintf(out, " :: %s -> %s (%s%s%s)", render_diff_text__side(a, sizeof(a), d, p->b[0] >= 0,
			p->share[0], p->samples[0]), render_diff_text__side(b, sizeof(b), d, p->b[1] >= 0,
			p->share[1], p->samples[1]), color && p->delta_samples ?
			(p->delta > 0 ? RED : GREEN) : "", delta, color && p->delta_samples ? RESET : "");
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
	if (d->opts.listing) {
		int ret = put_listing(out, d, o->color);

		if (ret)
			return ret;
	}
	return ferror(out) ? -EIO : 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * The sampled functions by their share of all samples (--functions): the
 * table perf report --sort sym prints, code or not (JSON.md, "Table of
 * functions").
 */
#include <errno.h>
#include <inttypes.h>

#include "lib/term.h"
#include "lib/util.h"
#include "render.h"

static double pct(uint64_t n, uint64_t total)
{
	return (double)n / (double)total * 100.0;
}

/* A V8 wasm function's split by tier, under its row: each tier's samples
 * and share, hottest first (they sum to the row's). */
static void put_tiers(FILE *out, const struct report *rep, const struct report_function *f)
{
	char num[64];

	fprintf(out, "%26stiers:", "");
	for (size_t t = 0; t < f->tiers_nr; t++) {
		const struct report_function_tier *ft = &rep->function_tiers[f->first_tier + t];
		const struct report_ranked *r = &rep->ranked[ft->ranked];

		fprintf(out, "%s %s %" PRIu64 " (%s%%)", t ? "," : "", ft->tier, r->samples,
			fmt_share(num, sizeof(num), r->samples, pct(r->samples, rep->total)));
	}
	fputc('\n', out);
}

int render_functions(FILE *out, const struct report *rep, const struct render_opts *o)
{
	char num[64];
	size_t taken = 0;

	(void)o;
	fprintf(out, "Collected %" PRIu64 " total samples; %" PRIu64 " (%s%%) JIT samples.\n\n",
		rep->total, rep->jit, fmt_pct(num, sizeof(num), pct(rep->jit, rep->total)));
	fprintf(out, "%10s   %10s   [Function] ([File])\n", "[Samples]", "[Count]");
	for (size_t i = 0; i < rep->functions_nr && taken < rep->functions_shown; i++) {
		const struct report_function *f = &rep->functions[i];

		if (!f->selected)
			continue;
		taken++;
		fprintf(out, "%9s%%   %10" PRIu64 "   ",
			fmt_share(num, sizeof(num), f->samples, pct(f->samples, rep->total)), f->samples);
		term_puts(out, f->display_name);
		if (f->path && f->path[0]) {
			fputs(" (", out);
			term_puts(out, f->path);
			fputc(')', out);
		}
		fputc('\n', out);
		if (f->tiered)
			put_tiers(out, rep, f);
	}
	return ferror(out) ? -EIO : 0;
}

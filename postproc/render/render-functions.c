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

int render_functions(FILE *out, const struct report *rep, const struct render_opts *o)
{
	char num[64];
	size_t taken = 0;

	(void)o;
	fprintf(out, "Collected %" PRIu64 " total samples; %" PRIu64 " (%s%%) JIT samples.\n\n",
		rep->total, rep->jit, fmt_pct(num, sizeof(num), pct(rep->jit, rep->total)));
	fprintf(out, "%10s   %10s   [Function] ([File])\n", "[Samples]", "[Count]");
	for (size_t i = 0; i < rep->ranked_nr && taken < rep->ranked_shown; i++) {
		const struct report_ranked *f = &rep->ranked[i];

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
	}
	return ferror(out) ? -EIO : 0;
}

/* SPDX-License-Identifier: MIT */
/*
 * diff-significance: the test of postproc/diff/diff-significance.c applied to a
 * comparison, for scripts/tests/diff-significance.sh until `hotblocks diff`
 * carries it itself (issue 25). Reads on stdin what
 * scripts/tests/diff-significance.js takes from `hotblocks diff --json --all`:
 *
 *   scale shares|counts
 *   run SIDE TOTAL                  each run of a side, in order (SIDE: base, new)
 *   func SIDE RUN SAMPLES NAME      a function's samples in a run of a side
 *   pair KIND BASE NEW NAME         a pair to test (KIND: func, block)
 *
 * --assume TAU2: where neither side's runs measure the spread, take TAU2.
 *
 * and writes the noise model, then one line per pair, tab-separated:
 *
 *   spread SIDE runs R samples N x2 X df D p P tau2_df T
 *   noise tau2 T df D x2 X x2_df D p P crit C min_delta D min_samples N half_1 H half_10 H tests_func N tests_block N
 *   KIND  significant|-|untested  p  q  delta  lo  hi  BASE  NEW  NAME
 *
 * Shares in fractions of 1, counts in samples per run. Pairs with fewer
 * samples than min_samples are not tested (they cannot be significant, and
 * leaving them out depends on their total only); Benjamini-Hochberg runs
 * over the tested pairs of each kind.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../postproc/diff/diff-significance.h"

struct func {
	int side;
	size_t run;
	uint64_t samples;
	char *name;
	size_t col;
};

struct pair {
	int func;		/* kind: 1 func, 0 block */
	uint64_t n[2];
	char *name;
	struct diff_significance_test t;
	double q;
	bool tested;
};

static const char *prog = "diff-significance";

static void die(const char *msg, unsigned long line)
{
	fprintf(stderr, "%s: line %lu: %s\n", prog, line, msg);
	exit(1);
}

static void *grow(void *p, size_t nr, size_t *alloc, size_t size)
{
	if (nr < *alloc)
		return p;
	*alloc = *alloc ? 2 * *alloc : 64;
	p = realloc(p, *alloc * size);
	if (!p) {
		perror(prog);
		exit(1);
	}
	return p;
}

static int func_cmp(const void *a, const void *b)
{
	const struct func *x = a, *y = b;

	if (x->side != y->side)
		return x->side - y->side;
	return strcmp(x->name, y->name);
}

static int side_of(const char *s, unsigned long line)
{
	if (!strcmp(s, "base"))
		return 0;
	if (!strcmp(s, "new"))
		return 1;
	die("SIDE is base or new", line);
	return -1;
}

/* The spread of one side: runs x (its functions, the rest). */
static void side_spread(enum diff_significance_scale scale, int side, const uint64_t *total,
			size_t runs, struct func *f, size_t nf, struct diff_significance_spread *out)
{
	size_t cols = 1, first = SIZE_MAX;
	uint64_t *table;

	for (size_t i = 0; i < nf; i++)
		if (f[i].side == side) {
			if (first == SIZE_MAX || strcmp(f[i].name, f[i - 1].name) || f[i - 1].side != side)
				cols++;
			f[i].col = cols - 2;
			if (first == SIZE_MAX)
				first = i;
		}
	table = calloc(runs * cols + 1, sizeof(*table));
	if (!table) {
		perror(prog);
		exit(1);
	}
	for (size_t r = 0; r < runs; r++)
		table[r * cols + cols - 1] = total[r];
	for (size_t i = 0; i < nf; i++)
		if (f[i].side == side) {
			if (f[i].run >= runs || table[f[i].run * cols + cols - 1] < f[i].samples)
				die("a function's samples are not in its run", 0);
			table[f[i].run * cols + f[i].col] += f[i].samples;
			table[f[i].run * cols + cols - 1] -= f[i].samples;
		}
	if (diff_significance__spread(scale, table, runs, cols, out)) {
		perror(prog);
		exit(1);
	}
	free(table);
}

int main(int argc, char **argv)
{
	double assume = -1;
	enum diff_significance_scale scale = DIFF_SIGNIFICANCE_SHARES;
	uint64_t *total[2] = { NULL, NULL };
	size_t runs[2] = { 0, 0 }, runs_alloc[2] = { 0, 0 };
	struct func *f = NULL;
	size_t nf = 0, f_alloc = 0;
	struct pair *p = NULL;
	size_t np = 0, p_alloc = 0;
	struct diff_significance_spread sp[2];
	struct diff_significance s;
	char line[4096];
	unsigned long ln = 0;
	uint64_t least;
	size_t tests[2] = { 0, 0 };

	if (argc == 3 && !strcmp(argv[1], "--assume"))
		assume = strtod(argv[2], NULL);
	else if (argc != 1)
		die("usage: diff-significance [--assume TAU2] <input", 0);
	while (fgets(line, sizeof(line), stdin)) {
		char kind[16], side[16], *name;
		uint64_t x, y;
		int off = 0;

		ln++;
		line[strcspn(line, "\n")] = '\0';
		if (!*line)
			continue;
		if (sscanf(line, "%15s", kind) != 1)
			die("no record", ln);
		if (!strcmp(kind, "scale")) {
			if (sscanf(line, "scale %15s", side) != 1)
				die("scale shares|counts", ln);
			scale = !strcmp(side, "counts") ? DIFF_SIGNIFICANCE_COUNTS : DIFF_SIGNIFICANCE_SHARES;
		} else if (!strcmp(kind, "run")) {
			int sd;

			if (sscanf(line, "run %15s %" SCNu64, side, &x) != 2)
				die("run SIDE TOTAL", ln);
			sd = side_of(side, ln);
			total[sd] = grow(total[sd], runs[sd], &runs_alloc[sd], sizeof(**total));
			total[sd][runs[sd]++] = x;
		} else if (!strcmp(kind, "func")) {
			size_t run;

			if (sscanf(line, "func %15s %zu %" SCNu64 " %n", side, &run, &x, &off) != 3 || !off)
				die("func SIDE RUN SAMPLES NAME", ln);
			f = grow(f, nf, &f_alloc, sizeof(*f));
			f[nf++] = (struct func){ side_of(side, ln), run, x, strdup(line + off), 0 };
		} else if (!strcmp(kind, "pair")) {
			if (sscanf(line, "pair %15s %" SCNu64 " %" SCNu64 " %n", side, &x, &y, &off) != 3 ||
			    !off || (strcmp(side, "func") && strcmp(side, "block")))
				die("pair func|block BASE NEW NAME", ln);
			name = strdup(line + off);
			p = grow(p, np, &p_alloc, sizeof(*p));
			p[np++] = (struct pair){ .func = !strcmp(side, "func"), .n = { x, y }, .name = name };
		} else {
			die("unknown record", ln);
		}
	}
	if (nf)
		qsort(f, nf, sizeof(*f), func_cmp);
	for (int sd = 0; sd < 2; sd++) {
		side_spread(scale, sd, total[sd] ? total[sd] : (uint64_t[]){ 0 }, runs[sd], f, nf, &sp[sd]);
		printf("spread\t%s\truns %zu\tsamples %.0f\tx2 %.6g\tdf %.6g\tp %.6g\ttau2_df %.6g\n",
		       sd ? "new" : "base", sp[sd].runs, sp[sd].samples, sp[sd].x2, sp[sd].df, sp[sd].p,
		       sp[sd].tau2_df);
	}
	diff_significance__init(&s, scale, &sp[0], &sp[1]);
	if (assume >= 0)
		diff_significance__assume(&s, assume);
	least = diff_significance__min_samples(&s);
	for (size_t k = 0; k < 2; k++) {
		double *pv = malloc((np ? np : 1) * sizeof(*pv)), *qv = malloc((np ? np : 1) * sizeof(*qv));
		size_t m = 0;

		if (!pv || !qv) {
			perror(prog);
			return 1;
		}
		for (size_t i = 0; i < np; i++)
			if (p[i].func == (int)k) {
				diff_significance__test(&s, p[i].n[0], p[i].n[1], &p[i].t);
				p[i].tested = p[i].n[0] + p[i].n[1] >= least;
				if (p[i].tested)
					pv[m++] = p[i].t.p;
			}
		if (diff_significance__adjust(pv, qv, m)) {
			perror(prog);
			return 1;
		}
		m = 0;
		for (size_t i = 0; i < np; i++)
			if (p[i].func == (int)k && p[i].tested)
				p[i].q = qv[m++];
		tests[k] = m;
		free(pv);
		free(qv);
	}
	printf("noise\ttau2 %.6g%s\tdf %.6g\tx2 %.6g\tx2_df %.6g\tp %.6g\tcrit %.6g\tmin_delta %.6g\t"
	       "min_samples %" PRIu64 "\thalf_1 %.6g\thalf_10 %.6g\ttests_func %zu\ttests_block %zu\n",
	       s.tau2, s.assumed ? " (assumed)" : "", s.df, s.x2, s.x2_df, s.p, s.crit, diff_significance__min_delta(&s), least,
	       diff_significance__half_width(&s, scale == DIFF_SIGNIFICANCE_SHARES ? 0.01 : 100),
	       diff_significance__half_width(&s, scale == DIFF_SIGNIFICANCE_SHARES ? 0.10 : 1000),
	       tests[1], tests[0]);
	for (size_t i = 0; i < np; i++) {
		const struct pair *x = &p[i];

		printf("%s\t%s\t%.6g\t", x->func ? "func" : "block",
		       !x->tested ? "untested" : x->q <= s.fdr ? "significant" : "-", x->t.p);
		if (x->tested)
			printf("%.6g", x->q);
		else
			fputs("-", stdout);
		printf("\t%.6g\t%.6g\t%.6g\t%" PRIu64 "\t%" PRIu64 "\t%s\n", x->t.delta, x->t.lo, x->t.hi,
		       x->n[0], x->n[1], x->name);
	}
	for (size_t i = 0; i < np; i++)
		free(p[i].name);
	for (size_t i = 0; i < nf; i++)
		free(f[i].name);
	free(p);
	free(f);
	free(total[0]);
	free(total[1]);
	return ferror(stdout) ? 1 : 0;
}

/* SPDX-License-Identifier: MIT */
/* A V8 wasm function's tiers together (report-tiers.h). */
#define _GNU_SOURCE	/* qsort_r */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "annotate/v8/v8-name.h"
#include "lib/util.h"
#include "report-tiers.h"

const char *report_tiers__of(const char *name, bool kind_jit, size_t *base_len)
{
	return kind_jit ? v8_name__wasm_tier(name, base_len) : NULL;
}

/* One sampled object on its way to a function. */
struct entry {
	size_t k;			/* index in report.ranked */
	const char *tier;		/* NULL: a function alone */
	size_t base_len;
	const char *path;
	const char *name;
};

static int by_function(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;
	int c;

	if (!x->tier != !y->tier)
		return x->tier ? -1 : 1;
	if (x->tier) {
		if ((c = strcmp(x->path ? x->path : "", y->path ? y->path : "")))
			return c;
		if (x->base_len != y->base_len)
			return x->base_len < y->base_len ? -1 : 1;
		if ((c = memcmp(x->name, y->name, x->base_len)))
			return c;
	}
	return x->k < y->k ? -1 : x->k > y->k;
}

static bool same_function(const struct entry *x, const struct entry *y)
{
	return x->tier && y->tier && x->base_len == y->base_len &&
	       !strcmp(x->path ? x->path : "", y->path ? y->path : "") &&
	       !memcmp(x->name, y->name, x->base_len);
}

/* Hottest first; ties: the hottest tier's place in report.ranked. */
static int by_heat(const void *a, const void *b, void *arg)
{
	const struct report_function *x = a, *y = b;
	const struct report_function_tier *sort_tiers = arg;

	if (x->samples != y->samples)
		return x->samples > y->samples ? -1 : 1;
	return sort_tiers[x->first_tier].ranked < sort_tiers[y->first_tier].ranked ? -1 :
	       sort_tiers[x->first_tier].ranked > sort_tiers[y->first_tier].ranked;
}

/* name[0..len) as a string of its own, or NULL. */
static char *cut(const char *name, size_t len)
{
	char *s = malloc(len + 1);

	if (s) {
		memcpy(s, name, len);
		s[len] = '\0';
	}
	return s;
}

char *report_tiers__untiered(const char *display, const char *tier)
{
	size_t dl = strlen(display), tl = strlen(tier);

	if (dl > tl + 1 && display[dl - tl - 1] == '-' && !strcmp(display + dl - tl, tier))
		dl -= tl + 1;
	return cut(display, dl);
}

/* f's names without the tier. */
static int names(struct report_function *f, const struct report_ranked *hot, const struct entry *e)
{
	char *name = cut(hot->name, e->base_len), *disp = report_tiers__untiered(hot->display_name, e->tier);

	if (!name || !disp) {
		free(name);
		free(disp);
		return -ENOMEM;
	}
	f->name = name;
	f->display_name = disp;
	return 0;
}

int report_tiers__build(struct report *rep, bool apart)
{
	size_t n = rep->ranked_nr, i, j;
	struct entry *e = malloc((n ? n : 1) * sizeof(*e));
	int ret = 0;

	rep->functions = calloc(n ? n : 1, sizeof(*rep->functions));
	rep->function_tiers = calloc(n ? n : 1, sizeof(*rep->function_tiers));
	if (!e || !rep->functions || !rep->function_tiers) {
		free(e);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		const struct report_ranked *r = &rep->ranked[i];

		e[i] = (struct entry){ .k = i, .path = r->path, .name = r->name };
		if (!apart)
			e[i].tier = report_tiers__of(r->name, !strcmp(r->kind, "jit"), &e[i].base_len);
	}
	qsort(e, n, sizeof(*e), by_function);
	for (i = 0; i < n && !ret; i = j) {
		struct report_function *f = &rep->functions[rep->functions_nr++];
		const struct report_ranked *hot = &rep->ranked[e[i].k];

		for (j = i + 1; j < n && same_function(&e[i], &e[j]); j++)
			;
		*f = (struct report_function){
			.name = hot->name, .display_name = hot->display_name, .kind = hot->kind,
			.path = hot->path, .tiered = e[i].tier != NULL, .first_tier = i,
			.tiers_nr = j - i,
		};
		/* in a group, by place in ranked: hottest first */
		for (size_t t = i; t < j; t++) {
			const struct report_ranked *r = &rep->ranked[e[t].k];

			rep->function_tiers[t] = (struct report_function_tier){ e[t].k, e[t].tier };
			f->samples = sat_add(f->samples, r->samples);
			f->selected |= r->selected;
		}
		if (f->tiered) {
			rep->tiered = true;
			ret = names(f, hot, &e[i]);
			if (ret)
				f->tiered = false;	/* its names are not its own */
		}
	}
	free(e);
	qsort_r(rep->functions, rep->functions_nr, sizeof(*rep->functions), by_heat, rep->function_tiers);
	return ret;
}

void report_tiers__release(struct report *rep)
{
	for (size_t i = 0; rep->functions && i < rep->functions_nr; i++)
		if (rep->functions[i].tiered) {
			free((char *)rep->functions[i].name);
			free((char *)rep->functions[i].display_name);
		}
	free(rep->functions);
	free(rep->function_tiers);
}

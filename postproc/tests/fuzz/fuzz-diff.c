// SPDX-License-Identifier: MIT
/*
 * libFuzzer target: a whole comparison, `hotblocks diff --all BASE NEW`. The
 * input is BASE, a NUL byte, then NEW (a NUL can be in no stream); without a
 * NUL, the input is compared with itself, and then every pair of functions
 * and of blocks must be on both sides with the same samples: anything else
 * aborts. Both outputs are rendered. The seeds are streams of the real
 * recordings of test-data/diff, paired as the test compares them.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "diff/diff-build.h"
#include "render/render.h"
#include "stream/stream.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static FILE *null_out;

static bool read_side(struct stream *s, const uint8_t *data, size_t size)
{
	FILE *f = fmemopen((void *)data, size, "r");
	char err[1024];
	bool ok;

	stream__init(s);
	if (!f)
		return false;
	ok = !stream__read(s, f, "fuzz.hbs", err, sizeof(err)) && !stream__finish(s);
	fclose(f);
	return ok;
}

/* A stream against itself: nothing changed, everything paired with itself. */
static void check_self(const struct diff *d)
{
	for (size_t i = 0; i < d->funcs_nr; i++) {
		const struct diff_func *f = &d->funcs[i];

		if (f->obj[DIFF_BASE] != f->obj[DIFF_NEW] || f->delta_samples)
			abort();
	}
	for (size_t i = 0; i < d->pairs_nr; i++) {
		const struct diff_pair *p = &d->pairs[i];

		if (p->b[DIFF_BASE] < 0 || p->b[DIFF_NEW] < 0 || p->delta_samples ||
		    p->samples[DIFF_BASE] != p->samples[DIFF_NEW])
			abort();
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nul = memchr(data, 0, size);
	struct diff_opts o = { .all = true, .min_delta = -1, .top = SIZE_MAX };
	struct render_opts ro = { .color = true };
	struct stream st[DIFF__SIDES];
	struct diff_input in[DIFF__SIDES] = {
		{ "BASE", "fuzz.hbs", &st[DIFF_BASE], NULL }, { "NEW", "fuzz.hbs", &st[DIFF_NEW], NULL },
	};
	struct diff d = { 0 };
	bool ok;

	if (!null_out && !(null_out = fopen("/dev/null", "w")))
		return 0;
	ok = read_side(&st[DIFF_BASE], data, nul ? (size_t)(nul - data) : size);
	ok &= read_side(&st[DIFF_NEW], nul ? nul + 1 : data,
			nul ? size - (size_t)(nul - data) - 1 : size);
	if (ok && !diff__build(&d, in, &o)) {
		if (!nul)
			check_self(&d);
		render_diff_text(null_out, &d, &ro);
		render_diff_json(null_out, &d, &ro);
	}
	diff__release(&d);
	stream__release(&st[DIFF_BASE]);
	stream__release(&st[DIFF_NEW]);
	return 0;
}

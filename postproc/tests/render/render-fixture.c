// SPDX-License-Identifier: MIT
/* The render tests' fixture (see render-fixture.h). */
#define _GNU_SOURCE	/* open_memstream, fmemopen */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "render-fixture.h"

void fixture__build(struct fixture *x, const char *text, double percent, bool all)
{
	struct report_opts o = { .list_selected = all, .whole_functions = true };
	char err[512];
	FILE *f = fmemopen((void *)text, strlen(text), "r");

	memset(x, 0, sizeof(*x));
	assert_non_null(f);
	stream__init(&x->s);
	if (stream__read(&x->s, f, "t.hbs", err, sizeof(err)))
		fail_msg("%s", err);
	fclose(f);
	assert_int_equal(stream__finish(&x->s), 0);
	x->ro = (struct rank_opts){ .percent = percent, .top = NO_TOP, .no_threshold = all };
	assert_int_equal(rank__build(&x->r, &x->s, 0, &x->ro), 0);
	assert_int_equal(report__build(&x->rep, &x->r, &x->ro, NULL, &o), 0);
	/* whole functions: each opened here, as an output opens it, for the
	 * checks below to read (report__release closes them) */
	for (size_t i = 0; i < x->rep.funcs_nr; i++)
		assert_int_equal(report__func_open(&x->rep, i), 0);
}

void fixture__release(struct fixture *x)
{
	report__release(&x->rep);
	rank__release(&x->r);
	stream__release(&x->s);
}

char *render_to_string(int (*render)(FILE *, const struct report *, const struct render_opts *),
		       const struct report *rep)
{
	struct render_opts ro = { 0 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(render(f, rep, &ro), 0);
	assert_int_equal(fclose(f), 0);
	assert_int_equal(strlen(buf), len);
	return buf;
}

size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

const char loops[] =
	"hotblocks-stream 1\n"
	"event 0 cycles\n"
	"total 0 all 100 100\n"
	"object 0 jit pid=7 e_machine=62 addr=0x1000 size=16 code-index=0 load-time=1 dump=d "
	"name=<script>alert(1)</script>&amp;\n"
	"code 0 0x0 " LOOP_CODE "\n"
	"object 1 jit pid=7 e_machine=62 addr=0x2000 size=14 code-index=1 load-time=1 dump=d name=nested\n"
	"code 1 0x0 " NESTED_CODE "\n"
	"sample 0 0 0x0 10 10\n"
	"sample 0 0 0x5 30 30\n"
	"sample 0 0 0xd 2 2\n"
	"sample 1 0 0x4 40 40\n"
	"sample 1 0 0x8 1 1\n"
	"end\n";


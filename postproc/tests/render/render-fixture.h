/* SPDX-License-Identifier: MIT */
/*
 * The render tests' fixture: a report made from a stream's text, as the
 * commands make it, and what an output writes for it as a string. The code
 * bytes are hand assembled; each listing beside them was checked with
 * objdump -D -b binary -mi386:x86-64 -M intel.
 */
#ifndef POSTPROC_TESTS_RENDER_FIXTURE_H
#define POSTPROC_TESTS_RENDER_FIXTURE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "render/render.h"
#include "report/report-build.h"

/*
 * x86-64, blocks [0x0,0x5) [0x5,0xf) [0xf,0x10):
 *   0: b9 00 00 00 00      mov ecx, 0
 *   5: ff c1               inc ecx
 *   7: 81 f9 00 00 00 01   cmp ecx, 0x1000000
 *   d: 7c f6               jl 0x5
 *   f: c3                  ret
 */
#define LOOP_CODE "b900000000ffc181f9000000017cf6c3"

/*
 * Two nested loops, blocks [0,2) [2,4) [4,8) [8,0xd) [0xd,0xe):
 *   0: 31 c0         xor eax, eax
 *   2: ff c0         inc eax          <- outer loop
 *   4: ff c9         dec ecx          <- inner loop
 *   6: 75 fc         jne 0x4
 *   8: 83 f8 0a      cmp eax, 0xa
 *   b: 7c f5         jl 0x2
 *   d: c3            ret
 */
#define NESTED_CODE "31c0ffc0ffc975fc83f80a7cf5c3"

#define NO_TOP SIZE_MAX

struct fixture {
	struct stream s;
	struct rank r;
	struct rank_opts ro;
	struct report rep;
};

/* The report of the stream text (percent: -p; all: --all), every function
 * opened as an output opens it; release it with fixture__release. */
void fixture__build(struct fixture *x, const char *text, double percent, bool all);
void fixture__release(struct fixture *x);

/* What render writes for rep, as a string (free it). */
char *render_to_string(int (*render)(FILE *, const struct report *, const struct render_opts *),
		       const struct report *rep);

/* How many times needle is in hay (not overlapping). */
size_t count(const char *hay, const char *needle);

/* Two functions: a loop named like a script tag (42 samples) and two
 * nested loops (41), of 100. */
extern const char loops[];

#endif

/* SPDX-License-Identifier: MIT */
/*
 * A function as its users name it. V8 compiles a wasm function first with
 * Liftoff and a hot one again with TurboFan, each a code load of its own
 * ("JS:foo-12-liftoff", "JS:foo-12-turbofan"); when the tier-up comes moves
 * from run to run, the wasm function's share does not. The one home of that
 * fold: the report's table of functions (report.functions) and the
 * comparison's pairing of functions (diff-match.c) both take it from here.
 * Blocks stay per tier: their code differs.
 */
#ifndef POSTPROC_REPORT_TIERS_H
#define POSTPROC_REPORT_TIERS_H

#include <stdbool.h>
#include <stddef.h>

#include "report.h"

/* The tier of JIT code named name when it is a tier of a V8 wasm function
 * ("turbofan", "liftoff"), *base_len the length of its name without it;
 * else NULL. kind_jit: the code is of kind jit (only JIT code has tiers). */
const char *report_tiers__of(const char *name, bool kind_jit, size_t *base_len);

/* display (a display name of code of that tier) without "-TIER" at its
 * end (a demangled wasm name keeps V8's "-F-TIER"), malloc()ed; NULL: out
 * of memory. */
char *report_tiers__untiered(const char *display, const char *tier);

/* rep->functions from rep->ranked (built): a V8 wasm function's tiers of
 * one jitdump together, unless apart. Returns 0 or -ENOMEM. */
int report_tiers__build(struct report *rep, bool apart);
void report_tiers__release(struct report *rep);

#endif

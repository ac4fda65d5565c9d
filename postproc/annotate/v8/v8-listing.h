/* SPDX-License-Identifier: MIT */
/*
 * V8's own listing of the wasm code it compiled (node --print-wasm-code,
 * postproc/FORMATS.md "V8's wasm code listing"): for each function, where
 * its code starts, its index, its tier, and its "Source positions" table,
 * which gives a wasm offset (relative to the function's body) at the
 * instructions V8 recorded one for: calls, stack checks, and in TurboFan
 * code the loads and stores that can trap. V8's jitdump carries no wasm
 * offsets for wasm code (its DEBUG_INFO for wasm needs a source map, and
 * then gives source lines): this listing is where they are.
 *
 * The positions become module offsets (those wasmtime's address map gives)
 * with the module's code section: position + the offset of the body.
 */
#ifndef POSTPROC_V8_LISTING_H
#define POSTPROC_V8_LISTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct v8_listing;

/*
 * Read the listing at path and the module at wasm (the one the listing's
 * run compiled). Returns 0, or a negative errno with "FILE:LINE: message"
 * (or "FILE: offset N: message") in err.
 */
int v8_listing__open(struct v8_listing **out, const char *path, const char *wasm, char *err,
		     size_t errlen);
void v8_listing__close(struct v8_listing *l);

/*
 * The module offset V8 recorded for the instruction at off of the code
 * that starts at addr, of wasm function index compiled by tier ("turbofan",
 * "liftoff"): false when the listing has no such code (none starts there,
 * or its index or tier differ), or no position at that instruction.
 */
bool v8_listing__wasm_offset(const struct v8_listing *l, uint64_t addr, int index, const char *tier,
			     uint32_t off, uint32_t *wasm_off);

/* Whether the listing has the code of function index by tier at addr (and once). */
bool v8_listing__has(const struct v8_listing *l, uint64_t addr, int index, const char *tier);

#endif

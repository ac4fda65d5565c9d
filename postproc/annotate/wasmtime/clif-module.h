/* SPDX-License-Identifier: MIT */
/*
 * The module whose `wasmtime compile --emit-clif` gives the CLIF of some of
 * its functions and costs little for the rest: every other function's body
 * becomes `unreachable` padded with `nop`s to its own size, so every byte
 * keeps its offset (the CLIF's @srclocs, the address map) and every index,
 * type, import and export stays; Cranelift compiles each function on its
 * own (with wasmtime's default of no inlining), so a kept function's CLIF
 * is byte for byte the whole module's. A '/' in a function's name-section
 * name becomes '_' (same length): wasmtime names each CLIF file after the
 * symbol, and a '/' there names a directory that does not exist (its
 * compile panics). The kept functions' files then carry the '_' name in
 * their header, which the caller puts back (it knows their symbols).
 */
#ifndef POSTPROC_CLIF_MODULE_H
#define POSTPROC_CLIF_MODULE_H

#include <stddef.h>
#include <stdint.h>

/* A function kept whole: wasm[module]::function[func] (func: the index space, imports first). */
struct clif_keep {
	uint32_t module, func;
};

/* What clif_module__make changed. */
struct clif_module_stats {
	size_t modules;		/* core modules, nested ones too */
	size_t stubbed, kept;	/* function bodies */
	size_t slashes;		/* '/' made '_' in function names */
};

/*
 * Rewrite the module or component buf (len bytes) in place, keeping the
 * bodies of keep[0..nr) (sorted by module, then func; core modules counted
 * in the order of their bytes, as wasmtime's wasm[M]). 0, or -EINVAL with
 * "offset 0xN: why" in err for what it does not understand (the caller
 * then compiles the module itself).
 */
int clif_module__make(uint8_t *buf, size_t len, const struct clif_keep *keep, size_t nr,
		      struct clif_module_stats *st, char *err, size_t errlen);

#endif

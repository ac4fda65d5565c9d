/* SPDX-License-Identifier: MIT */
/*
 * Erlang/OTP's BeamAsm writes every function as two jitdump loads, its
 * prologue `N-CodeInfoPrologue` and right after it the body `N`, and the same
 * two ranges in its perf map, each name with a `$` in front: the one rule by
 * which both programs tell them, the plugin to write the other load (or
 * range) of a sampled one into the stream, the post-processor to join them
 * (everything else BEAM's code means: postproc/annotate/beam/beam.h). Here
 * because the plugin cannot include the post-processor.
 */
#ifndef PLUGIN_LIB_JIT_BEAM_H
#define PLUGIN_LIB_JIT_BEAM_H

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define JIT_BEAM_PROLOGUE_SUFFIX "-CodeInfoPrologue"
/* What its perf map writes in front of each name. */
#define JIT_BEAM_MAP_PREFIX "$"

/* Whether prologue is body's prologue by name: body + the suffix. */
static inline bool jit_beam__prologue_of(const char *prologue, const char *body)
{
	size_t n = strlen(body);

	return n && !strncmp(prologue, body, n) && !strcmp(prologue + n, JIT_BEAM_PROLOGUE_SUFFIX);
}

/* Whether name is a prologue's; *body_len: the length of its body's name. */
static inline bool jit_beam__is_prologue(const char *name, size_t *body_len)
{
	size_t n = strlen(name), k = sizeof(JIT_BEAM_PROLOGUE_SUFFIX) - 1;

	if (n <= k || strcmp(name + n - k, JIT_BEAM_PROLOGUE_SUFFIX))
		return false;
	*body_len = n - k;
	return true;
}

/* Whether a perf map's name is BeamAsm's (JIT_BEAM_MAP_PREFIX). */
static inline bool jit_beam__map_name(const char *name)
{
	return !strncmp(name, JIT_BEAM_MAP_PREFIX, sizeof(JIT_BEAM_MAP_PREFIX) - 1);
}

#endif

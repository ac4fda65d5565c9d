/* SPDX-License-Identifier: MIT */
/*
 * Erlang/OTP's BeamAsm JIT (`erl +JPperf true|dump|map`), what its code loads
 * mean to the people who wrote the Erlang: the one home of these facts
 * (postproc/DESIGN.md, "Each JIT's conventions").
 *
 * Names: `M:F/A` as Erlang writes them, quoting kept
 * (`hot:'-main/1-lc$^0/1-0-'/1`); nothing to demangle. `M::codeHeader`,
 * `M::codeFooter` and `global::NAME` are the module's and the runtime's own code.
 * The perf map writes the same names with a `$` in front (BEAM_MAP_PREFIX).
 * Where: `+JPperf true` writes both /tmp/jit-PID.dump and /tmp/perf-PID.map,
 * `+JPperf dump` the jitdump alone, `+JPperf map` the map alone; in /tmp,
 * not in the working directory, as each module loads.
 *
 * One function, two loads: each function is registered as
 * `M:F/A-CodeInfoPrologue` (its ErtsCodeInfo and breakpoint trampoline) and
 * right after it `M:F/A` (the body): BeamModuleAssembler::codegen
 * (erts/emulator/beam/jit/x86/beam_asm_module.cpp, OTP 24/25) pushes the two
 * ranges one after the other, the body starting where the prologue stops
 * (ErtsCodeInfo + BEAM_ASM_FUNC_PROLOGUE_SIZE), and writes them in that order. Calls and tail calls enter at
 * the prologue's +0x28 (the trampoline), so a loop's back edge lands there:
 * the two are one function, named as the body. The name rule is the one the
 * plugin shares (plugin/lib/jit-beam.h, the plugin's side, which cannot
 * include the post-processor's): it writes the other load of a sampled one
 * into the stream, so that both have their bytes here. A perf map names
 * the two ranges alike (`$M:F/A-CodeInfoPrologue`, `$M:F/A` right after
 * it): they are one function too, named `$M:F/A` as perf names the body,
 * each sample still at the name and offset perf gives it (the plugin writes
 * the other range of a sampled one too; in a stream without it a prologue
 * stands for its function alone: stream/stream-join.c).
 *
 * DEBUG_INFO: BeamAsm writes one record per function, on the body's load; its
 * first entry is the clause head's `line` instruction, at an address before
 * the body (in the prologue or before it), and applies from the function's
 * first byte, as perf's .debug_line takes it. The last entry, at the end, has
 * line 0 and no file.
 */
#ifndef POSTPROC_ANNOTATE_BEAM_H
#define POSTPROC_ANNOTATE_BEAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../plugin/lib/jit-beam.h"
#include "annotate/jit-runtime.h"
#include "lib/code-data.h"

/* BEAM's row (annotate/jits.c): its perf map, its jitdump flag. */
extern const struct jit_runtime jit_beam;

/* What the perf map writes in front of each name (the rule both programs share). */
#define BEAM_MAP_PREFIX JIT_BEAM_MAP_PREFIX

/* The most data rows beam__prologue_data gives. */
#define BEAM_PROLOGUE_DATA_MAX 5

/* Whether name is a function's prologue load, `N-CodeInfoPrologue`; *body_len:
 * the length of N, the body's name. */
bool beam__is_prologue(const char *name, size_t *body_len);

/*
 * The data inside a prologue load of ELF machine e_machine, code[0..size),
 * whose body is named body (`M:F/A`), as offsets from the prologue's start,
 * into out (BEAM_PROLOGUE_DATA_MAX); their number, 0 when the bytes are not
 * the layout below (another OTP, another architecture: shown as they decode).
 */
size_t beam__prologue_data(int e_machine, const uint8_t *code, size_t size, const char *body,
			   struct code_data out[BEAM_PROLOGUE_DATA_MAX]);

#endif

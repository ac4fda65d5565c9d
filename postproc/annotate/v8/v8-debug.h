/* SPDX-License-Identifier: MIT */
/*
 * How V8 writes its jitdump DEBUG_INFO entries (postproc/FORMATS.md, "V8's
 * debug entries"): addr = code start + offset + V8's kElfHeaderSize (0x40 on
 * 64-bit targets, 0x34 on 32-bit ones), and they map machine code only for
 * TurboFan and Maglev code (jit-debug.h reads them).
 */
#ifndef POSTPROC_ANNOTATE_V8_DEBUG_H
#define POSTPROC_ANNOTATE_V8_DEBUG_H

#include <stdbool.h>
#include <stdint.h>

#define V8_DEBUG_BIAS64 0x40	/* sizeof(Elf64_Ehdr), V8's kElfHeaderSize */
#define V8_DEBUG_BIAS32 0x34	/* sizeof(Elf32_Ehdr) */

/*
 * How to read the debug entries of a jit object called name (the jitdump LOAD
 * name) for ELF machine e_machine. Sets *bias to what the JIT added to each
 * entry beyond code start + offset (V8: V8_DEBUG_BIAS64/32; other JITs,
 * e.g. perf's JVMTI agent: 0). Returns false when the entries do not map
 * machine code offsets (V8 `JS:^` and `JS:~`): do not show them per instruction.
 */
bool v8_debug__bias(const char *name, uint32_t e_machine, uint64_t *bias);

#endif

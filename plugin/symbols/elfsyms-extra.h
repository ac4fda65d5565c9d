/* SPDX-License-Identifier: MIT */
/*
 * Symbol tables beyond perf 6.1's, for a file where it finds no .symtab:
 * MiniDebugInfo (.gnu_debugdata) and debuginfod. elfsyms.c's own (see
 * elfsyms.h).
 */
#ifndef PLUGIN_SYMBOLS_ELFSYMS_EXTRA_H
#define PLUGIN_SYMBOLS_ELFSYMS_EXTRA_H

#include <stddef.h>
#include <stdint.h>

#include "elfsyms-tables.h"

/* What MiniDebugInfo may expand to (cfg->minidebug_max, when set, instead):
 * Fedora's are a few MiB; an xz stream can expand to gigabytes (a bomb). */
#define MINIDEBUG_MAX ((size_t)256 << 20)
/* The memory the xz decoder may use (its dictionary). */
#define MINIDEBUG_MEMLIMIT ((uint64_t)128 << 20)

/* The .symtab of an xz-compressed ELF in the runtime file's .gnu_debugdata
 * (Fedora's MiniDebugInfo), opened into out: 0, -ENOENT when there is none,
 * -ENOMEM, -EFBIG when it expands past the bound, or -EINVAL when it does not
 * decompress to an ELF with a .symtab; each but -ENOENT said in a note
 * naming the file and the section's offset. An image is never read for a
 * .gnu_debugdata of its own (MiniDebugInfo is not nested). */
int elfsyms__minidebug(struct elfsyms *es, struct symsrc *out, const struct elfsyms_config *cfg);

/* The debug file of build-id bid from debuginfod (libdebuginfod is loaded
 * only when asked for: its client pulls in libcurl), opened into out: 0,
 * -ENOSYS without the library, -ENOENT without a .symtab, or its error. */
int elfsyms__debuginfod(struct symsrc *out, const uint8_t *bid, size_t bid_size);

#endif

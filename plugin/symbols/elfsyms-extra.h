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
 * -ENOSYS without the library, -ENOENT when it has none with a .symtab, or
 * its error. Every query is bounded (DEBUGINFOD_MAX_*), the cache directory
 * checked first, and the file given checked to be a regular file of ours with
 * the build-id bid; each refusal said in a note (elfsyms-debuginfod.c). */
int elfsyms__debuginfod(struct symsrc *out, const uint8_t *bid, size_t bid_size, const struct elfsyms_config *cfg);

/* What one query may take when DEBUGINFOD_MAXSIZE / DEBUGINFOD_MAXTIME do not
 * say: libdebuginfod 0.188 has no bound on a body's size or a query's time
 * of its own (DEBUGINFOD_TIMEOUT only stops a server sending under 100 bytes
 * a second for 90 s), and follows a redirect loop without end. */
#define DEBUGINFOD_MAX_BYTES ((long)1 << 30)
#define DEBUGINFOD_MAX_SECONDS 60L

#endif

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

/* The .symtab of an xz-compressed ELF in the runtime file's .gnu_debugdata
 * (Fedora's MiniDebugInfo), opened into out: 0, -ENOENT when there is none,
 * -ENOMEM, or -EINVAL when it does not decompress to an ELF with a .symtab. */
int elfsyms__minidebug(struct elfsyms *es, struct symsrc *out);

/* The debug file of build-id bid from debuginfod (libdebuginfod is loaded
 * only when asked for: its client pulls in libcurl), opened into out: 0,
 * -ENOSYS without the library, -ENOENT without a .symtab, or its error. */
int elfsyms__debuginfod(struct symsrc *out, const uint8_t *bid, size_t bid_size);

#endif

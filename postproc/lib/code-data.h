/* SPDX-License-Identifier: MIT */
/*
 * Bytes inside a code object that its runtime is known to put there as data,
 * not instructions (BEAM's func_info words, annotate/beam/beam.h): what the
 * stream's reader learns of an object (stream.h) and the disassembler shows
 * as data rows (cfg-defs.h). Data only.
 */
#ifndef POSTPROC_LIB_CODE_DATA_H
#define POSTPROC_LIB_CODE_DATA_H

#include <stdint.h>

/* One datum: size bytes at off (1, 2, 4 or 8: a row of .byte/.short/.long/.quad). */
struct code_data {
	uint32_t off;
	uint32_t size;
};

#endif

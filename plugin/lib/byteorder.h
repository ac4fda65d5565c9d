/* SPDX-License-Identifier: MIT */
/* Unaligned loads of multi-byte fields written in either byte order (jitdump, perf.data). */
#ifndef PLUGIN_BYTEORDER_H
#define PLUGIN_BYTEORDER_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

/* memcpy, not a cast: records in these files are not aligned. */
static inline uint16_t hb_load16(const uint8_t *p, bool swapped)
{
	uint16_t v;

	memcpy(&v, p, sizeof(v));
	return swapped ? __builtin_bswap16(v) : v;
}

static inline uint32_t hb_load32(const uint8_t *p, bool swapped)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return swapped ? __builtin_bswap32(v) : v;
}

static inline uint64_t hb_load64(const uint8_t *p, bool swapped)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return swapped ? __builtin_bswap64(v) : v;
}

#endif

/* SPDX-License-Identifier: MIT */
/*
 * Multi-byte fields at any alignment, the one home of byte order for both
 * programs: fields written in either byte order, told by the file's own
 * mark (jitdump, perf.data: hb_load*), and little-endian fields whatever the
 * host's byte order (the WebAssembly binary format, wasmtime's
 * .wasmtime.addrmap, jump tables in x86-64 and aarch64 code: get_le*).
 */
#ifndef PLUGIN_LIB_BYTEORDER_H
#define PLUGIN_LIB_BYTEORDER_H

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

static inline uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t get_le64(const uint8_t *p)
{
	return (uint64_t)get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}

static inline void put_le32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

#endif

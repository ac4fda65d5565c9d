/* SPDX-License-Identifier: MIT */
/*
 * Little-endian fields at any alignment, whatever the host's byte order: the
 * WebAssembly binary format, wasmtime's .wasmtime.addrmap (little-endian even
 * in a big-endian .cwasm) and jump tables in x86-64 and aarch64 code.
 */
#ifndef POSTPROC_LITTLE_ENDIAN_H
#define POSTPROC_LITTLE_ENDIAN_H

#include <stdint.h>

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

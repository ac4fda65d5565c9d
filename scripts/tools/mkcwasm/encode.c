/* SPDX-License-Identifier: MIT */
/* mkcwasm: byte buffers, wasmtime's encodings of the .cwasm's metadata sections, their self-test. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../../plugin/lib/byteorder.h"
#include "../../../postproc/lib/leb128.h"
#include "mkcwasm.h"

#define TRAP_BLOCK_SIZE		128	/* entries per block (trap_encoding.rs) */

const char *prog = "mkcwasm";

void die(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(1);
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory");
	return p;
}

void buf_put(struct buf *b, const void *p, size_t n)
{
	if (!n)
		return;	/* p may be NULL then (an empty buffer) */
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->data = xrealloc(b->data, b->cap);
	}
	memcpy(b->data + b->len, p, n);
	b->len += n;
}

void buf_u8(struct buf *b, uint8_t v)
{
	buf_put(b, &v, 1);
}

/* All multi-byte integers in wasmtime's metadata sections are little-endian. */
void buf_u32(struct buf *b, uint32_t v)
{
	unsigned char le[4] = { v, v >> 8, v >> 16, v >> 24 };

	buf_put(b, le, 4);
}

void buf_uleb(struct buf *b, uint64_t v)
{
	uint8_t leb[LEB128_MAX];

	buf_put(b, leb, leb128_write_u(leb, v));
}

/* ---- the encoders (wasmtime's compile/address_map.rs, compile/trap_encoding.rs) ---- */

/* The address map in either encoding, by the post-processor's encoder. */
void addrmap(struct buf *out, const struct addrmap_entry *e, size_t n, enum addrmap_format fmt)
{
	uint8_t *p;
	size_t len;

	if (addrmap__encode(e, n, fmt, &p, &len))
		die("cannot encode the address map (%zu entries)", n);
	buf_put(out, p, len);
	free(p);
}

/* Plain .wasmtime.traps, wasmtime <= 46: u32 N, u32 offsets[N], u8 codes[N]. */
void traps_plain(struct buf *out, const struct trap *t, size_t n)
{
	buf_u32(out, n);
	for (size_t i = 0; i < n; i++)
		buf_u32(out, t[i].off);
	for (size_t i = 0; i < n; i++)
		buf_u8(out, t[i].code);
}

/*
 * Block .wasmtime.traps, wasmtime >= 47 (trap_encoding.rs): like the address
 * map's index; each body is the block's most common code, then per entry the
 * uleb token (pc_delta << 1 | differs) and the code byte if it differs.
 * The default code is chosen like wasmtime's most_common_code(): start with
 * the first entry's code and switch whenever a code's running count
 * overtakes the current best's, so ties keep the earlier leader.
 */
void traps_blocks(struct buf *out, const struct trap *t, size_t n)
{
	size_t nblocks = (n + TRAP_BLOCK_SIZE - 1) / TRAP_BLOCK_SIZE;
	struct buf bodies = { 0 };
	size_t index_at;

	buf_u32(out, n);
	buf_u32(out, nblocks);
	index_at = out->len;
	for (size_t k = 0; k < nblocks; k++) {
		buf_u32(out, 0);
		buf_u32(out, 0);
	}
	for (size_t k = 0; k < nblocks; k++) {
		size_t first = k * TRAP_BLOCK_SIZE;
		size_t end = first + TRAP_BLOCK_SIZE < n ? first + TRAP_BLOCK_SIZE : n;
		unsigned counts[256] = { 0 };
		uint8_t deflt = t[first].code;
		uint32_t prev = t[first].off;

		for (size_t i = first; i < end; i++)
			if (++counts[t[i].code] > counts[deflt])
				deflt = t[i].code;
		put_le32(out->data + index_at + 8 * k, t[first].off);
		put_le32(out->data + index_at + 8 * k + 4, bodies.len);
		buf_u8(&bodies, deflt);
		for (size_t i = first; i < end; i++) {
			bool differs = t[i].code != deflt;

			buf_uleb(&bodies, (uint64_t)(t[i].off - prev) << 1 | differs);
			prev = t[i].off;
			if (differs)
				buf_u8(&bodies, t[i].code);
		}
	}
	buf_put(out, bodies.data, bodies.len);
	free(bodies.data);
}

/*
 * .wasmtime.exceptions (crates/unwinder/src/exception_table.rs): u32
 * callsite count, u32 handler count, then callsites[], frame_offsets[],
 * ranges[] (exclusive end index), tags[], contexts[], handlers[].  Our call
 * sites each have one default handler: tag and context u32::MAX.
 */
void exceptions(struct buf *out, const struct callsite *c, size_t n)
{
	buf_u32(out, n);
	buf_u32(out, n);
	for (size_t i = 0; i < n; i++)
		buf_u32(out, c[i].ret);
	for (size_t i = 0; i < n; i++)
		buf_u32(out, c[i].frame);
	for (size_t i = 0; i < n; i++)
		buf_u32(out, i + 1);
	for (size_t i = 0; i < n; i++)
		buf_u32(out, UINT32_MAX);
	for (size_t i = 0; i < n; i++)
		buf_u32(out, UINT32_MAX);
	for (size_t i = 0; i < n; i++)
		buf_u32(out, c[i].handler);
}

/* ---- self-test: the worked examples of postproc/FORMATS.md ---- */

static int passed, failed;

static void same_bytes(const char *what, const struct buf *got, const unsigned char *want,
		       size_t n)
{
	if (got->len == n && !memcmp(got->data, want, n)) {
		printf("ok   %s (%zu bytes)\n", what, n);
		passed++;
		return;
	}
	printf("FAIL %s: got %zu bytes:", what, got->len);
	for (size_t i = 0; i < got->len; i++)
		printf(" %02x", got->data[i]);
	printf("\n     want %zu bytes:", n);
	for (size_t i = 0; i < n; i++)
		printf(" %02x", want[i]);
	printf("\n");
	failed++;
}

int self_test(void)
{
	static const struct addrmap_entry ex[] = {
		{ 0x40, 0x2a }, { 0x44, ADDRMAP_NONE }, { 0x47, 0x2c }, { 0x50, 0x29 },
	};
	static const unsigned char want_blocks[23] = {
		0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
		0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x2a, 0x09, 0x06, 0x02, 0x12, 0x7d,
	};
	static const unsigned char want_plain[36] = {
		0x04, 0x00, 0x00, 0x00,
		0x40, 0x00, 0x00, 0x00, 0x44, 0x00, 0x00, 0x00,
		0x47, 0x00, 0x00, 0x00, 0x50, 0x00, 0x00, 0x00,
		0x2a, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff,
		0x2c, 0x00, 0x00, 0x00, 0x29, 0x00, 0x00, 0x00,
	};
	static const unsigned char want_empty[8] = { 0 };
	/* Two traps with different codes: a tie keeps the first entry's code. */
	static const struct trap tr[] = { { 0x78, 0 }, { 0x90, 1 } };
	static const unsigned char want_traps[] = {
		0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
		0x78, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
		0x00, 0x00, 0x31, 0x01,
	};
	static const unsigned char want_leb[] = { 0x2a, 0xdc, 0x81, 0x04 };
	struct buf b = { 0 };

	addrmap(&b, ex, 4, ADDRMAP_BLOCKS);
	same_bytes("addrmap block encoding, the worked example", &b, want_blocks,
		   sizeof(want_blocks));
	b.len = 0;
	addrmap(&b, ex, 4, ADDRMAP_PLAIN);
	same_bytes("addrmap plain encoding, the worked example", &b, want_plain,
		   sizeof(want_plain));
	b.len = 0;
	addrmap(&b, NULL, 0, ADDRMAP_BLOCKS);
	same_bytes("empty block address map", &b, want_empty, sizeof(want_empty));
	b.len = 0;
	traps_blocks(&b, tr, 2);
	same_bytes("trap block encoding", &b, want_traps, sizeof(want_traps));
	b.len = 0;
	buf_uleb(&b, 0x2a);
	buf_uleb(&b, 0x100dc);
	same_bytes("leb128", &b, want_leb, sizeof(want_leb));
	free(b.data);
	printf("%d passed, %d failed\n", passed, failed);
	return failed ? 1 : 0;
}

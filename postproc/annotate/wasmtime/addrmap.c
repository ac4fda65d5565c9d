/* SPDX-License-Identifier: MIT */
/* wasmtime's .wasmtime.addrmap section: decoder and encoder of both encodings (no ELF here). */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../plugin/lib/bsearch.h"
#include "addrmap.h"
#include "lib/leb128.h"
#include "../plugin/lib/byteorder.h"
#include "lib/util.h"

/* Where and why one encoding did not fit; formatted only when both failed. */
struct fail {
	size_t off;
	char msg[192];
};

__attribute__((format(printf, 3, 4)))
static int failf(struct fail *f, size_t off, const char *fmt, ...)
{
	va_list ap;

	f->off = off;
	va_start(ap, fmt);
	vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* Why a LEB128 of the block encoding failed, for the message. */
static const char *leb_err(int rc)
{
	return rc == -EINVAL ? "truncated" : "overflows 64 bits";
}

/* A LEB128 at buf[*pos] (never read past len): at most 10 bytes, the 10th holding bit 63 only. */
static int rd_uleb(const uint8_t *buf, size_t len, size_t *pos, uint64_t *v)
{
	const uint8_t *p = buf + *pos;
	int rc = leb128_read_u(&p, buf + len, 64, v);

	*pos = (size_t)(p - buf);
	return rc;
}

static int rd_sleb(const uint8_t *buf, size_t len, size_t *pos, int64_t *v)
{
	const uint8_t *p = buf + *pos;
	int rc = leb128_read_s(&p, buf + len, 64, v);

	*pos = (size_t)(p - buf);
	return rc;
}

/* The plain encoding (FORMATS.md): u32 N, u32 text_off[N], u32 wasm_off[N]. */
static int decode_plain(const uint8_t *buf, size_t len, struct addrmap_entry **out, size_t *nr,
			struct fail *f)
{
	struct addrmap_entry *e = NULL;
	uint64_t need;
	uint32_t n, i, prev;

	if (len < 4)
		return failf(f, 0, "truncated: %zu bytes, the entry count needs 4", len);
	n = get_le32(buf);
	need = 4 + 8 * (uint64_t)n;
	if (need != len)
		return failf(f, 0, "%" PRIu32 " entries need %" PRIu64 " bytes, not %zu", n, need,
			     len);
	for (i = 1, prev = n ? get_le32(buf + 4) : 0; i < n; i++) {
		uint32_t off = get_le32(buf + 4 + 4 * (size_t)i);

		if (off < prev)
			return failf(f, 4 + 4 * (size_t)i, "text offset %#" PRIx32
				     " is below the previous %#" PRIx32, off, prev);
		prev = off;
	}
	if (n) {
		e = malloc(n * sizeof(*e));
		if (!e)
			return -ENOMEM;
	}
	for (i = 0; i < n; i++) {
		e[i].text_off = get_le32(buf + 4 + 4 * (size_t)i);
		e[i].wasm_off = get_le32(buf + 4 + 4 * ((size_t)n + i));
	}
	*out = e;
	*nr = n;
	return 0;
}

/* Where a block-encoding message points: "block K entry J: ". */
#define AT_ENTRY "block %" PRIu32 " entry %" PRIu32 ": "

/* Where the entries of one block are read, and what the next one adds to. */
struct entry_cursor {
	const uint8_t *buf;
	size_t len, cur;		/* cur: the next entry's first byte */
	uint32_t k;			/* the block, for messages */
	uint32_t off;			/* the last entry's text offset */
	bool have_pos;
	uint32_t pos;			/* the last wasm offset given (have_pos) */
};

/* Entry j of block c->k into *e: a token (text offset delta, no-position
 * bit), then the wasm offset: whole the first time, else a delta. */
static int decode_entry(struct entry_cursor *c, uint32_t j, struct addrmap_entry *e,
			struct fail *f)
{
	size_t at = c->cur;
	uint64_t tok, delta, u;
	int64_t s;
	uint32_t wasm;
	int ret;

	ret = rd_uleb(c->buf, c->len, &c->cur, &tok);
	if (ret)
		return failf(f, at, AT_ENTRY "uleb128 token %s", c->k, j, leb_err(ret));
	delta = tok >> 1;
	if (delta > UINT32_MAX - c->off)
		return failf(f, at, AT_ENTRY "text offset %#" PRIx32 " + %#" PRIx64
			     " overflows 32 bits", c->k, j, c->off, delta);
	c->off += delta;
	at = c->cur;
	if (tok & 1) {
		wasm = ADDRMAP_NONE;
	} else if (!c->have_pos) {
		ret = rd_uleb(c->buf, c->len, &c->cur, &u);
		if (ret)
			return failf(f, at, AT_ENTRY "uleb128 position %s", c->k, j, leb_err(ret));
		if (u > UINT32_MAX)
			return failf(f, at, AT_ENTRY "position %#" PRIx64 " overflows 32 bits", c->k,
				     j, u);
		wasm = u;
	} else {
		ret = rd_sleb(c->buf, c->len, &c->cur, &s);
		if (ret)
			return failf(f, at, AT_ENTRY "sleb128 position delta %s", c->k, j,
				     leb_err(ret));
		/* Compared in 64 bits: s may be any int64_t, pos < 2^32. */
		if (s < -(int64_t)c->pos || s > (int64_t)UINT32_MAX - c->pos)
			return failf(f, at, AT_ENTRY "position %#" PRIx32 " %+" PRId64
				     " is out of range", c->k, j, c->pos, s);
		wasm = (uint32_t)((int64_t)c->pos + s);
	}
	if (!(tok & 1)) {
		c->have_pos = true;
		c->pos = wasm;
	}
	e->text_off = c->off;
	e->wasm_off = wasm;
	return 0;
}

/* The block encoding as decode_blocks reads it, block after block. */
struct blocks {
	const uint8_t *buf;
	size_t len, index_end, blen;	/* the bodies: blen bytes from index_end */
	uint32_t n;			/* entries */
	size_t idx;			/* entries read */
	size_t prev_end;		/* body offset past the last block read */
	uint32_t last_off;		/* the last entry's text offset */
	size_t gap_at, gap_len;		/* the first bytes between blocks; SIZE_MAX: none */
	uint32_t gap_block;
};

/* Block k of the index, its entries into e[bl->idx ..]. */
static int decode_block(struct blocks *bl, uint32_t k, struct addrmap_entry *e, struct fail *f)
{
	size_t ioff = 8 + 8 * (size_t)k;
	uint32_t first = get_le32(bl->buf + ioff), pos = get_le32(bl->buf + ioff + 4);
	uint32_t cnt = bl->n - k * ADDRMAP_BLOCK_ENTRIES;
	struct entry_cursor c = { bl->buf, bl->len, bl->index_end + pos, k, first, false, 0 };
	int ret;

	if (cnt > ADDRMAP_BLOCK_ENTRIES)
		cnt = ADDRMAP_BLOCK_ENTRIES;
	if (pos >= bl->blen)
		return failf(f, ioff + 4, "block %" PRIu32 " at body offset %#" PRIx32
			     " is past the %#zx bytes of bodies", k, pos, bl->blen);
	if (pos < bl->prev_end)
		return failf(f, ioff + 4, "block %" PRIu32 " at body offset %#" PRIx32
			     " overlaps the previous block (ends at %#zx)", k, pos, bl->prev_end);
	/* Reported once every block decoded: a corrupt body explains more. */
	if (pos > bl->prev_end && bl->gap_at == SIZE_MAX) {
		bl->gap_at = bl->prev_end;
		bl->gap_len = pos - bl->prev_end;
		bl->gap_block = k;
	}
	if (bl->idx && first < bl->last_off)
		return failf(f, ioff, "block %" PRIu32 " starts at text offset %#" PRIx32
			     ", below the previous entry's %#" PRIx32, k, first, bl->last_off);
	for (uint32_t j = 0; j < cnt; j++) {
		ret = decode_entry(&c, j, &e[bl->idx], f);
		if (ret)
			return ret;
		bl->idx++;
	}
	bl->last_off = c.off;
	bl->prev_end = c.cur - bl->index_end;
	return 0;
}

/*
 * The block encoding (FORMATS.md): u32 E, u32 B, B x {u32 first_offset,
 * u32 block_pos}, then the bodies. wasmtime's encoder writes the bodies back to back from body
 * offset 0 to the section's end, so every body byte belongs to exactly one
 * entry; a byte that does not (an entry count too low, a gap between blocks)
 * is refused. That is also what tells the encodings apart.
 */
static int decode_blocks(const uint8_t *buf, size_t len, struct addrmap_entry **out, size_t *nr,
			 struct fail *f)
{
	struct blocks bl = { .buf = buf, .len = len, .gap_at = SIZE_MAX };
	struct addrmap_entry *e = NULL;
	uint64_t want_b, index_end;
	uint32_t b;
	int ret;

	if (len < 8)
		return failf(f, len < 4 ? 0 : 4, "truncated: %zu bytes, the header needs 8", len);
	bl.n = get_le32(buf);
	b = get_le32(buf + 4);
	want_b = ((uint64_t)bl.n + ADDRMAP_BLOCK_ENTRIES - 1) / ADDRMAP_BLOCK_ENTRIES;
	if (b != want_b)
		return failf(f, 4, "%" PRIu32 " blocks for %" PRIu32 " entries, want %" PRIu64,
			     b, bl.n, want_b);
	index_end = 8 + 8 * (uint64_t)b;
	if (index_end > len)
		return failf(f, 4, "the index of %" PRIu32 " blocks needs %" PRIu64 " bytes, not %zu",
			     b, index_end, len);
	bl.index_end = index_end;
	bl.blen = len - index_end;
	/* Every entry takes at least its token byte, and blocks may not overlap. */
	if (bl.n > bl.blen)
		return failf(f, 0, "%" PRIu32 " entries cannot fit in %zu bytes of block bodies",
			     bl.n, bl.blen);
	if (bl.n) {
		e = malloc(bl.n * sizeof(*e));
		if (!e)
			return -ENOMEM;
	}
	for (uint32_t k = 0; k < b; k++)
		if ((ret = decode_block(&bl, k, e, f)))
			goto out_free;
	if (bl.gap_at != SIZE_MAX) {
		ret = failf(f, index_end + bl.gap_at, "%zu byte%s before block %" PRIu32
			    " belong%s to no block", bl.gap_len, bl.gap_len == 1 ? "" : "s",
			    bl.gap_block, bl.gap_len == 1 ? "s" : "");
		goto out_free;
	}
	if (bl.prev_end != bl.blen) {
		size_t left = bl.blen - bl.prev_end;

		ret = failf(f, index_end + bl.prev_end, "%zu byte%s after the last of the %" PRIu32
			    " entries belong%s to no entry", left, left == 1 ? "" : "s", bl.n,
			    left == 1 ? "s" : "");
		goto out_free;
	}
	*out = e;
	*nr = bl.n;
	return 0;

out_free:
	free(e);
	return ret;
}

const char *addrmap_format__name(enum addrmap_format fmt)
{
	return fmt == ADDRMAP_PLAIN ? "plain" : "block";
}

/*
 * Both decoders, then the pick between them (FORMATS.md). in_file: the section starts at
 * file_off of file name, and messages give the file offset first.
 */
static int decode(const uint8_t *buf, size_t len, int engine_major, const char *name, bool in_file,
		  uint64_t file_off, struct addrmap_entry **entries, size_t *nr,
		  enum addrmap_format *fmt, char *err, size_t errlen)
{
	struct addrmap_entry *pe = NULL, *be = NULL;
	size_t pnr = 0, bnr = 0;
	struct fail pf, bf;
	enum addrmap_format pick;
	int prc, brc;

	prc = decode_plain(buf, len, &pe, &pnr, &pf);
	if (prc == -ENOMEM)
		return -ENOMEM;
	brc = decode_blocks(buf, len, &be, &bnr, &bf);
	if (brc == -ENOMEM) {
		free(pe);
		return -ENOMEM;
	}

	if (!prc && !brc) {
		/* Only contrived sections fit both; wasmtime's own version says which it wrote. */
		if (engine_major >= 47 || engine_major < 0)
			pick = ADDRMAP_BLOCKS;
		else
			pick = ADDRMAP_PLAIN;
	} else if (!prc) {
		pick = ADDRMAP_PLAIN;
	} else if (!brc) {
		pick = ADDRMAP_BLOCKS;
	} else {
		const struct fail *first, *second;
		enum addrmap_format guess, other;

		/* Explain the failure of the encoding this section most likely is. */
		if (engine_major >= 0)
			guess = engine_major >= 47 ? ADDRMAP_BLOCKS : ADDRMAP_PLAIN;
		else if (len >= 4 && 4 + 8 * (uint64_t)get_le32(buf) == len)
			guess = ADDRMAP_PLAIN;
		else
			guess = ADDRMAP_BLOCKS;
		other = guess == ADDRMAP_BLOCKS ? ADDRMAP_PLAIN : ADDRMAP_BLOCKS;
		first = guess == ADDRMAP_BLOCKS ? &bf : &pf;
		second = guess == ADDRMAP_BLOCKS ? &pf : &bf;
		if (in_file)
			return errf_at(err, errlen, -EINVAL, name, file_off + first->off,
				       ".wasmtime.addrmap+0x%zx: %s (as the %s encoding; as the %s "
				       "encoding, +0x%zx: %s)", first->off, first->msg,
				       addrmap_format__name(guess), addrmap_format__name(other),
				       second->off, second->msg);
		return errf_at(err, errlen, -EINVAL, name, first->off,
			       "%s (as the %s encoding; as the %s encoding, +0x%zx: %s)", first->msg,
			       addrmap_format__name(guess), addrmap_format__name(other), second->off,
			       second->msg);
	}

	if (pick == ADDRMAP_PLAIN) {
		free(be);
		*entries = pe;
		*nr = pnr;
	} else {
		free(pe);
		*entries = be;
		*nr = bnr;
	}
	if (fmt)
		*fmt = pick;
	return 0;
}

int addrmap__decode(const uint8_t *buf, size_t len, int engine_major, const char *name,
		    struct addrmap_entry **entries, size_t *nr, enum addrmap_format *fmt,
		    char *err, size_t errlen)
{
	return decode(buf, len, engine_major, name, false, 0, entries, nr, fmt, err, errlen);
}

int addrmap__decode_at(const uint8_t *buf, size_t len, uint64_t file_off, int engine_major,
		       const char *name, struct addrmap_entry **entries, size_t *nr,
		       enum addrmap_format *fmt, char *err, size_t errlen)
{
	return decode(buf, len, engine_major, name, true, file_off, entries, nr, fmt, err, errlen);
}

int addrmap__encode(const struct addrmap_entry *e, size_t nr, enum addrmap_format fmt,
		    uint8_t **out, size_t *len)
{
	size_t i, blocks, cap, n;
	uint32_t prev_off = 0, prev_pos = 0;
	bool have_pos = false;
	uint8_t *p, *q;

	if (nr > UINT32_MAX)
		return -EINVAL;
	for (i = 1; i < nr; i++)
		if (e[i].text_off < e[i - 1].text_off)
			return -EINVAL;

	if (fmt == ADDRMAP_PLAIN) {
		n = 4 + 8 * nr;
		p = malloc(n);
		if (!p)
			return -ENOMEM;
		put_le32(p, nr);
		for (i = 0; i < nr; i++) {
			put_le32(p + 4 + 4 * i, e[i].text_off);
			put_le32(p + 4 + 4 * (nr + i), e[i].wasm_off);
		}
		*out = p;
		*len = n;
		return 0;
	}

	/* A token (<= 33 bits) and a position (uleb <= 32 bits or sleb <= 33 bits): 5 + 5 bytes. */
	blocks = (nr + ADDRMAP_BLOCK_ENTRIES - 1) / ADDRMAP_BLOCK_ENTRIES;
	cap = 8 + 8 * blocks + 10 * nr;
	p = malloc(cap);
	if (!p)
		return -ENOMEM;
	put_le32(p, nr);
	put_le32(p + 4, blocks);
	n = 8 + 8 * blocks;
	for (i = 0; i < nr; i++) {
		size_t k = i / ADDRMAP_BLOCK_ENTRIES;
		uint64_t tok;

		if (i % ADDRMAP_BLOCK_ENTRIES == 0) {
			put_le32(p + 8 + 8 * k, e[i].text_off);
			put_le32(p + 12 + 8 * k, n - (8 + 8 * blocks));
			prev_off = e[i].text_off;
			have_pos = false;
		}
		tok = (uint64_t)(e[i].text_off - prev_off) << 1 | (e[i].wasm_off == ADDRMAP_NONE);
		prev_off = e[i].text_off;
		n += leb128_write_u(p + n, tok);
		if (e[i].wasm_off == ADDRMAP_NONE)
			continue;
		if (have_pos)
			n += leb128_write_s(p + n, (int64_t)e[i].wasm_off - prev_pos);
		else
			n += leb128_write_u(p + n, e[i].wasm_off);
		prev_pos = e[i].wasm_off;
		have_pos = true;
	}
	q = realloc(p, n);
	*out = q ? q : p;
	*len = n;
	return 0;
}

/* Plain: the entries [k0, k1) in text order, copied. */
static int range_plain(const uint8_t *buf, size_t len, uint32_t fstart, uint32_t last,
		       struct addrmap_entry **out, size_t *nr)
{
	uint32_t n = len >= 4 ? get_le32(buf) : 0;
	size_t k0, k1;
	struct addrmap_entry *e;

	if (len < 4 + 8 * (uint64_t)n)
		return -EINVAL;
#define TEXT_OFF(i) get_le32(buf + 4 + 4 * (size_t)(i))
	/* from the last entry at or before fstart, through the last one at or before last */
	k0 = LOWER_BOUND(n, i, TEXT_OFF(i) <= fstart);
	k0 = k0 ? k0 - 1 : 0;
	k1 = LOWER_BOUND(n, i, TEXT_OFF(i) <= last);
#undef TEXT_OFF
	if (k1 <= k0)
		return 0;
	if (!(e = malloc((k1 - k0) * sizeof(*e))))
		return -ENOMEM;
	for (size_t i = k0; i < k1; i++) {
		e[i - k0].text_off = get_le32(buf + 4 + 4 * i);
		e[i - k0].wasm_off = get_le32(buf + 4 + 4 * ((size_t)n + i));
	}
	*out = e;
	*nr = k1 - k0;
	return 0;
}

/* Blocks: every entry of the blocks from the last one starting at or before
 * fstart through the last one starting at or before last. */
static int range_blocks(const uint8_t *buf, size_t len, uint32_t fstart, uint32_t last,
			struct addrmap_entry **out, size_t *nr)
{
	uint32_t n = len >= 8 ? get_le32(buf) : 0, b = len >= 8 ? get_le32(buf + 4) : 0;
	size_t k0, k1, index_end = 8 + 8 * (size_t)b, got = 0;
	struct addrmap_entry *e;
	struct fail f;

	if (len < 8 || index_end > len)
		return -EINVAL;
#define FIRST(k) get_le32(buf + 8 + 8 * (size_t)(k))
	k0 = LOWER_BOUND(b, k, FIRST(k) <= fstart);
	k0 = k0 ? k0 - 1 : 0;
	k1 = LOWER_BOUND(b, k, FIRST(k) <= last);
#undef FIRST
	if (k1 <= k0)
		return 0;
	if (!(e = malloc((k1 - k0) * ADDRMAP_BLOCK_ENTRIES * sizeof(*e))))
		return -ENOMEM;
	for (size_t k = k0; k < k1; k++) {
		uint32_t first = get_le32(buf + 8 + 8 * k), pos = get_le32(buf + 12 + 8 * k);
		uint32_t cnt = n - (uint32_t)k * ADDRMAP_BLOCK_ENTRIES;
		struct entry_cursor c = { buf, len, index_end + pos, (uint32_t)k, first, false, 0 };

		if (cnt > ADDRMAP_BLOCK_ENTRIES)
			cnt = ADDRMAP_BLOCK_ENTRIES;
		for (uint32_t j = 0; j < cnt; j++)
			if (decode_entry(&c, j, &e[got++], &f)) {
				free(e);
				return -EINVAL;
			}
	}
	*out = e;
	*nr = got;
	return 0;
}

int addrmap__decode_range(const uint8_t *buf, size_t len, enum addrmap_format fmt, uint32_t fstart,
			  uint32_t fend, struct addrmap_entry **entries, size_t *nr)
{
	*entries = NULL;
	*nr = 0;
	if (fend <= fstart)
		return 0;
	return fmt == ADDRMAP_PLAIN ? range_plain(buf, len, fstart, fend - 1, entries, nr)
				    : range_blocks(buf, len, fstart, fend - 1, entries, nr);
}

bool addrmap__lookup(const struct addrmap_entry *e, size_t nr, uint32_t fstart, uint32_t fend,
		     uint32_t pc, uint32_t *wasm_off)
{
	size_t lo;
	uint32_t upper;

	if (fend <= fstart || pc < fstart)
		return false;
	/* Entries at or past fend belong to the next function. */
	upper = pc < fend ? pc : fend - 1;
	lo = LOWER_BOUND(nr, i, e[i].text_off <= upper);
	if (!lo || e[lo - 1].text_off < fstart || e[lo - 1].wasm_off == ADDRMAP_NONE)
		return false;
	*wasm_off = e[lo - 1].wasm_off;
	return true;
}

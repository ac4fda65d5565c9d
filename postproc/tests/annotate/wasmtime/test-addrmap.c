/* SPDX-License-Identifier: MIT */
/* Unit tests of the .wasmtime.addrmap decoder and encoder (postproc/annotate/wasmtime/addrmap.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "annotate/wasmtime/addrmap.h"
#include "cwasm-writer.h"
#include "lib/util.h"

#define NONE ADDRMAP_NONE

static char err[512];

/*
 * The worked example of postproc/FORMATS.md: four entries and their 23-byte
 * block encoding. The bytes were checked by re-implementing wasmtime's
 * encoder, and again by hand against AddressMapSection::seal_block at wasmtime e6b33de
 * (token = delta << 1 | is_none, first position uleb, then sleb deltas).
 */
static const struct addrmap_entry example[] = {
	{ 0x40, 0x2a }, { 0x44, NONE }, { 0x47, 0x2c }, { 0x50, 0x29 },
};
static const uint8_t example_blocks[] = {
	0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
	0x40, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
	0x00, 0x2a, 0x09, 0x06, 0x02, 0x12, 0x7d,
};
/* The same entries in the plain encoding (the example's last line). */
static const uint8_t example_plain[] = {
	0x04, 0x00, 0x00, 0x00,
	0x40, 0x00, 0x00, 0x00, 0x44, 0x00, 0x00, 0x00, 0x47, 0x00, 0x00, 0x00, 0x50, 0x00, 0x00, 0x00,
	0x2a, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0x2c, 0x00, 0x00, 0x00, 0x29, 0x00, 0x00, 0x00,
};

/* Decode as section "t"; the caller frees *e. */
static int decode(const uint8_t *buf, size_t len, int engine, struct addrmap_entry **e, size_t *nr,
		  enum addrmap_format *fmt)
{
	err[0] = '\0';
	*e = NULL;
	*nr = 0;
	return addrmap__decode(buf, len, engine, "t", e, nr, fmt, err, sizeof(err));
}

static void assert_entries(const struct addrmap_entry *got, size_t got_nr,
			   const struct addrmap_entry *want, size_t want_nr)
{
	size_t i;

	assert_int_equal(got_nr, want_nr);
	for (i = 0; i < want_nr; i++) {
		if (got[i].text_off != want[i].text_off || got[i].wasm_off != want[i].wasm_off)
			fail_msg("entry %zu: got (%#x, %#x), want (%#x, %#x)", i, got[i].text_off,
				 got[i].wasm_off, want[i].text_off, want[i].wasm_off);
	}
}

/* Expect buf to be refused with a message starting with "t+OFF: " and containing what. */
static void refused(const uint8_t *buf, size_t len, int engine, size_t off, const char *what)
{
	struct addrmap_entry *e;
	enum addrmap_format fmt;
	char want[32];
	size_t nr;
	int ret;

	ret = decode(buf, len, engine, &e, &nr, &fmt);
	snprintf(want, sizeof(want), "t+0x%zx: ", off);
	if (ret != -EINVAL || strncmp(err, want, strlen(want)) || !strstr(err, what))
		fail_msg("got %d '%s', want -EINVAL '%s...%s...'", ret, err, want, what);
	assert_null(e);
}

static void the_worked_example_block_bytes_decode_to_the_example_entries(void **state)
{
	struct addrmap_entry *e;
	enum addrmap_format fmt;
	size_t nr;

	/* Unknown, old and new engine: the structure alone decides here. */
	for (int engine = -1; engine <= 47; engine += 47) {
		assert_int_equal(decode(example_blocks, sizeof(example_blocks), engine, &e, &nr, &fmt), 0);
		assert_int_equal(fmt, ADDRMAP_BLOCKS);
		assert_entries(e, nr, example, ARRAY_SIZE(example));
		free(e);
	}
	assert_int_equal(decode(example_blocks, sizeof(example_blocks), 46, &e, &nr, &fmt), 0);
	assert_int_equal(fmt, ADDRMAP_BLOCKS);
	free(e);
}

static void the_encoder_produces_exactly_the_23_example_bytes(void **state)
{
	uint8_t *out;
	size_t len;

	assert_int_equal(addrmap__encode(example, ARRAY_SIZE(example), ADDRMAP_BLOCKS, &out, &len), 0);
	assert_int_equal(len, 23);
	assert_memory_equal(out, example_blocks, sizeof(example_blocks));
	free(out);
}

static void the_plain_example_bytes_decode_and_encode_both_ways(void **state)
{
	struct addrmap_entry *e;
	enum addrmap_format fmt;
	uint8_t *out;
	size_t nr, len;

	assert_int_equal(decode(example_plain, sizeof(example_plain), 48, &e, &nr, &fmt), 0);
	assert_int_equal(fmt, ADDRMAP_PLAIN);
	assert_entries(e, nr, example, ARRAY_SIZE(example));
	free(e);
	assert_int_equal(addrmap__encode(example, ARRAY_SIZE(example), ADDRMAP_PLAIN, &out, &len), 0);
	assert_int_equal(len, sizeof(example_plain));
	assert_memory_equal(out, example_plain, sizeof(example_plain));
	free(out);
}

/* test-data/cwasm/addrmap-example-*.bin (fuzzing seeds, documentation) hold exactly the example's bytes. */
static void the_committed_example_sections_are_the_documented_bytes(void **state)
{
	static const struct {
		const char *file;
		const uint8_t *want;
		size_t len;
	} fx[] = {
		{ "test-data/cwasm/addrmap-example-blocks.bin", example_blocks, sizeof(example_blocks) },
		{ "test-data/cwasm/addrmap-example-plain.bin", example_plain, sizeof(example_plain) },
	};
	size_t i, len;

	for (i = 0; i < ARRAY_SIZE(fx); i++) {
		uint8_t *buf = cw_file__read(fx[i].file, &len);

		if (!buf)
			fail_msg("cannot read %s (tests run from the top directory)", fx[i].file);
		assert_int_equal(len, fx[i].len);
		assert_memory_equal(buf, fx[i].want, len);
		free(buf);
	}
}

/* xorshift64: deterministic "random" lists, so a failure reproduces. */
static uint64_t rng_state;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/*
 * A sorted list shaped like real maps (small steps, a quarter none,
 * positions wandering both ways) with rare huge jumps that stress the LEB
 * widths: text deltas up to 2^31, positions anywhere below NONE.
 */
static struct addrmap_entry *random_entries(size_t nr)
{
	struct addrmap_entry *e = calloc(nr ? nr : 1, sizeof(*e));
	/*
	 * The first entry sits at 0 (a function's leading none entry at the start
	 * of .text, as in real maps) or past 0x40: never at 1..33, where a plain
	 * section of these sizes would also read as a valid block section.
	 */
	uint32_t off = rng() % 2 ? 0 : 0x40 + rng() % 64, pos = rng() % 0x20000;
	size_t i;

	assert_non_null(e);
	for (i = 0; i < nr; i++) {
		uint64_t r = rng();

		if (i) {
			uint32_t step = r % 50 == 0 ? (uint32_t)(rng() % 0x80000000u) : (uint32_t)(r % 16);

			off = step > UINT32_MAX - off ? off : off + step;
		}
		if (r % 97 == 0)
			pos = rng() % NONE;
		else
			pos = (uint32_t)((int64_t)pos + (int64_t)(rng() % 64) - 24) % NONE;
		e[i].text_off = off;
		e[i].wasm_off = r % 4 == 1 ? NONE : pos;
	}
	return e;
}

static void round_trip(enum addrmap_format want_fmt, int engine)
{
	static const size_t sizes[] = { 0, 1, 2, 5, 127, 128, 129, 255, 256, 257, 1000, 4099 };
	size_t s, rep;

	rng_state = 0x9e3779b97f4a7c15ULL + want_fmt;
	for (s = 0; s < ARRAY_SIZE(sizes); s++) {
		for (rep = 0; rep < 8; rep++) {
			struct addrmap_entry *in = random_entries(sizes[s]), *out;
			enum addrmap_format fmt;
			uint8_t *buf;
			size_t len, nr;

			assert_int_equal(addrmap__encode(in, sizes[s], want_fmt, &buf, &len), 0);
			if (decode(buf, len, engine, &out, &nr, &fmt))
				fail_msg("%zu entries: %s", sizes[s], err);
			assert_int_equal(fmt, want_fmt);
			assert_entries(out, nr, in, sizes[s]);
			free(out);
			free(buf);
			free(in);
		}
	}
}

/*
 * Expectation: decode(encode(x)) == x and the format is recognised, with the
 * engine version unknown or matching. (A 2-entry block section can also be a
 * valid plain one if its first offset is not 0; the tie tests cover that.)
 */
static void plain_round_trips_random_sorted_lists(void **state)
{
	round_trip(ADDRMAP_PLAIN, -1);
	round_trip(ADDRMAP_PLAIN, 46);
}

static void blocks_round_trip_random_sorted_lists_over_several_blocks(void **state)
{
	round_trip(ADDRMAP_BLOCKS, -1);
	round_trip(ADDRMAP_BLOCKS, 47);
}

static void blocks_of_all_none_positions_round_trip(void **state)
{
	struct addrmap_entry in[300], *out;
	enum addrmap_format fmt;
	uint8_t *buf;
	size_t len, nr, i;

	for (i = 0; i < ARRAY_SIZE(in); i++) {
		in[i].text_off = 4 * i;
		in[i].wasm_off = NONE;
	}
	assert_int_equal(addrmap__encode(in, ARRAY_SIZE(in), ADDRMAP_BLOCKS, &buf, &len), 0);
	/* 8 + 3 index entries of 8 + one token byte each: 0x01 or 0x09. */
	assert_int_equal(len, 8 + 3 * 8 + 300);
	assert_int_equal(decode(buf, len, -1, &out, &nr, &fmt), 0);
	assert_int_equal(fmt, ADDRMAP_BLOCKS);
	assert_entries(out, nr, in, ARRAY_SIZE(in));
	free(out);
	free(buf);
}

/* An empty map is 4 bytes in the plain encoding and 8 in the block encoding. */
static void an_empty_map_is_told_apart_by_its_length(void **state)
{
	static const uint8_t four[4], eight[8];
	struct addrmap_entry *e;
	enum addrmap_format fmt;
	uint8_t *out;
	size_t nr, len;

	static const int engines[] = { -1, 0, 46, 47, 50 };

	for (size_t i = 0; i < ARRAY_SIZE(engines); i++) {
		int engine = engines[i];

		assert_int_equal(decode(four, sizeof(four), engine, &e, &nr, &fmt), 0);
		assert_int_equal(fmt, ADDRMAP_PLAIN);
		assert_int_equal(nr, 0);
		assert_null(e);
		assert_int_equal(decode(eight, sizeof(eight), engine, &e, &nr, &fmt), 0);
		assert_int_equal(fmt, ADDRMAP_BLOCKS);
		assert_int_equal(nr, 0);
		assert_null(e);
	}
	assert_int_equal(addrmap__encode(NULL, 0, ADDRMAP_PLAIN, &out, &len), 0);
	assert_int_equal(len, 4);
	assert_memory_equal(out, four, 4);
	free(out);
	assert_int_equal(addrmap__encode(NULL, 0, ADDRMAP_BLOCKS, &out, &len), 0);
	assert_int_equal(len, 8);
	assert_memory_equal(out, eight, 8);
	free(out);
}

/* With N = 1 the plain map is 12 bytes and a block map at least 17. */
static void a_single_entry_map_is_never_ambiguous(void **state)
{
	static const struct addrmap_entry one[] = { { 0x10, 0x2b } }, none[] = { { 0, NONE } };
	const struct addrmap_entry *lists[] = { one, none };
	size_t l;

	for (l = 0; l < ARRAY_SIZE(lists); l++) {
		for (int f = ADDRMAP_PLAIN; f <= ADDRMAP_BLOCKS; f++) {
			struct addrmap_entry *e;
			enum addrmap_format fmt;
			uint8_t *buf;
			size_t len, nr;

			assert_int_equal(addrmap__encode(lists[l], 1, f, &buf, &len), 0);
			assert_true(f == ADDRMAP_PLAIN ? len == 12 : len >= 17);
			/* The engine version points the wrong way; the structure still wins. */
			assert_int_equal(decode(buf, len, f == ADDRMAP_PLAIN ? 47 : 46, &e, &nr, &fmt), 0);
			assert_int_equal(fmt, f);
			assert_entries(e, nr, lists[l], 1);
			free(e);
			free(buf);
		}
	}
}

/*
 * 20 bytes that are valid in both encodings: plain (1, 0) (0x10, 0x03040500),
 * or one block at 0x10 whose body 00 05 04 03 reads (0x10, 5) (0x12, 8).
 * Both decodings were worked out by hand from the encodings' definitions
 * (postproc/FORMATS.md).
 */
static const uint8_t both[] = {
	0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00,
	0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x04, 0x03,
};

static void the_engine_version_breaks_a_tie(void **state)
{
	static const struct addrmap_entry as_plain[] = { { 1, 0 }, { 0x10, 0x03040500 } };
	static const struct addrmap_entry as_blocks[] = { { 0x10, 5 }, { 0x12, 8 } };
	struct addrmap_entry *e;
	enum addrmap_format fmt;
	size_t nr;

	assert_int_equal(decode(both, sizeof(both), 46, &e, &nr, &fmt), 0);
	assert_int_equal(fmt, ADDRMAP_PLAIN);
	assert_entries(e, nr, as_plain, 2);
	free(e);
	assert_int_equal(decode(both, sizeof(both), 0, &e, &nr, &fmt), 0);
	assert_int_equal(fmt, ADDRMAP_PLAIN);
	free(e);
	assert_int_equal(decode(both, sizeof(both), 47, &e, &nr, &fmt), 0);
	assert_int_equal(fmt, ADDRMAP_BLOCKS);
	assert_entries(e, nr, as_blocks, 2);
	free(e);
	/* Unknown version: the block bodies are used up exactly, as wasmtime writes them. */
	assert_int_equal(decode(both, sizeof(both), -1, &e, &nr, &fmt), 0);
	assert_int_equal(fmt, ADDRMAP_BLOCKS);
	free(e);
}

/*
 * Body 01 01 00 00: two none entries, then two bytes no block uses. wasmtime
 * never leaves such bytes, so this is no block section, whatever the engine
 * says; it is still the plain (1, 0) (0x10, 0x101).
 */
static void unused_body_bytes_rule_out_the_block_encoding_whatever_the_engine(void **state)
{
	static const struct addrmap_entry as_plain[] = { { 1, 0 }, { 0x10, 0x101 } };
	uint8_t b[sizeof(both)];
	struct addrmap_entry *e;
	enum addrmap_format fmt;
	size_t nr;

	memcpy(b, both, sizeof(b));
	b[16] = 0x01;
	b[17] = 0x01;
	b[18] = 0x00;
	b[19] = 0x00;
	for (int engine = -1; engine <= 48; engine += 49) {
		assert_int_equal(decode(b, sizeof(b), engine, &e, &nr, &fmt), 0);
		assert_int_equal(fmt, ADDRMAP_PLAIN);
		assert_entries(e, nr, as_plain, 2);
		free(e);
	}
}

/*
 * corrupt-inputs-wasm.sh "entry count 37 < the 38 encoded": with E one too
 * low, the last entry's bytes were silently ignored. Here the worked example
 * with E = 3: e0..e2 take 00 2a 09 06 02, and e3's 12 7d (at +21) are left.
 */
static void an_entry_count_below_the_encoded_entries_is_refused_at_the_leftover_bytes(void **state)
{
	uint8_t b[sizeof(example_blocks)];

	memcpy(b, example_blocks, sizeof(b));
	b[0] = 3;
	refused(b, sizeof(b), 47, 21, "2 bytes after the last of the 3 entries belong to no entry");
	refused(b, sizeof(b), -1, 21, "2 bytes after the last of the 3 entries belong to no entry");
	/* No entry at all, but body bytes. */
	memset(b, 0, 8);
	refused(b, sizeof(b), 47, 8, "15 bytes after the last of the 0 entries belong to no entry");
}

/* The same leftover between blocks: block 1 placed one byte after block 0's end. */
static void a_gap_between_blocks_is_refused_at_its_first_byte(void **state)
{
	struct addrmap_entry in[200];
	uint8_t *buf, *gap;
	size_t len, i, b1;

	for (i = 0; i < ARRAY_SIZE(in); i++) {
		in[i].text_off = i;
		in[i].wasm_off = NONE;
	}
	assert_int_equal(addrmap__encode(in, ARRAY_SIZE(in), ADDRMAP_BLOCKS, &buf, &len), 0);
	/* Two blocks: the index is 8 + 16 bytes, block 1's body at body offset 0x80. */
	b1 = buf[20];
	assert_int_equal(b1, 0x80);
	gap = malloc(len + 1);
	assert_non_null(gap);
	memcpy(gap, buf, 24 + b1);
	gap[24 + b1] = 0x01;
	memcpy(gap + 24 + b1 + 1, buf + 24 + b1, len - 24 - b1);
	gap[20] = b1 + 1;
	refused(gap, len + 1, 47, 24 + b1, "1 byte before block 1 belongs to no block");
	free(gap);
	free(buf);
}

/* In a .cwasm, offsets count from the file's start, then from the section's. */
static void decode_at_gives_file_offsets_then_section_offsets(void **state)
{
	uint8_t b[sizeof(example_blocks)];
	struct addrmap_entry *e = NULL;
	size_t nr = 0;
	static const char want[] = "m.cwasm+0x2015: .wasmtime.addrmap+0x15: 2 bytes after the last of"
				   " the 3 entries belong to no entry (as the block encoding; as the"
				   " plain encoding, +0x0: 3 entries need 28 bytes, not 23)";

	memcpy(b, example_blocks, sizeof(b));
	b[0] = 3;
	assert_int_equal(addrmap__decode_at(b, sizeof(b), 0x2000, 47, "m.cwasm", &e, &nr, NULL, err,
					    sizeof(err)), -EINVAL);
	assert_string_equal(err, want);
	assert_null(e);
	assert_int_equal(addrmap__decode_at(example_blocks, sizeof(example_blocks), 0x2000, 47,
					    "m.cwasm", &e, &nr, NULL, err, sizeof(err)), 0);
	assert_entries(e, nr, example, ARRAY_SIZE(example));
	free(e);
}

/* Every proper prefix of a valid section must be refused with an offset inside it. */
static void truncated(const uint8_t *buf, size_t len, int engine)
{
	size_t cut;

	for (cut = 0; cut < len; cut++) {
		struct addrmap_entry *e;
		enum addrmap_format fmt;
		unsigned long off;
		size_t nr;
		int ret;

		ret = decode(buf, cut, engine, &e, &nr, &fmt);
		if (ret != -EINVAL || sscanf(err, "t+0x%lx: ", &off) != 1 || off > cut)
			fail_msg("cut at %zu of %zu: got %d '%s'", cut, len, ret, err);
		assert_null(e);
	}
}

static void sections_truncated_at_every_byte_are_refused(void **state)
{
	struct addrmap_entry *in;
	uint8_t *buf;
	size_t len;

	truncated(example_blocks, sizeof(example_blocks), -1);
	truncated(example_blocks, sizeof(example_blocks), 47);
	truncated(example_plain, sizeof(example_plain), -1);
	truncated(example_plain, sizeof(example_plain), 46);

	rng_state = 42;
	in = random_entries(300);
	assert_int_equal(addrmap__encode(in, 300, ADDRMAP_BLOCKS, &buf, &len), 0);
	truncated(buf, len, 47);
	free(buf);
	assert_int_equal(addrmap__encode(in, 300, ADDRMAP_PLAIN, &buf, &len), 0);
	truncated(buf, len, 46);
	free(buf);
	free(in);
}

/* A one-block section of n entries with the given body; returns its length. */
static size_t one_block(uint8_t *b, uint32_t n, uint32_t first, const uint8_t *body, size_t blen)
{
	memset(b, 0, 16);
	b[0] = n;
	b[4] = 1;
	b[8] = first;
	b[9] = first >> 8;
	b[10] = first >> 16;
	b[11] = first >> 24;
	memcpy(b + 16, body, blen);
	return 16 + blen;
}

static void overflowing_lebs_are_refused_at_their_offset(void **state)
{
	static const uint8_t long_token[] = {
		0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x00,
	};
	static const uint8_t wide_token[] = {
		0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x02,
	};
	/* a none entry, then token 2^33: delta 2^32 does not fit a text offset. */
	static const uint8_t big_delta[] = { 0x01, 0x80, 0x80, 0x80, 0x80, 0x20 };
	/* 0xfe ... : delta 0x7fffffff on top of first 0x80000001 wraps. */
	static const uint8_t wrap_delta[] = { 0xfe, 0xff, 0xff, 0xff, 0x0f };
	/* first position 2^32 */
	static const uint8_t big_pos[] = { 0x00, 0x80, 0x80, 0x80, 0x80, 0x10 };
	/* position 5, then delta -6 */
	static const uint8_t neg_pos[] = { 0x00, 0x05, 0x02, 0x7a };
	/* position 0xfffffffe, then +2 */
	static const uint8_t high_pos[] = { 0x00, 0xfe, 0xff, 0xff, 0xff, 0x0f, 0x02, 0x02 };
	/* sleb with 0x01 in its 10th byte: bit 63 set without sign extension */
	static const uint8_t wide_sleb[] = {
		0x00, 0x05, 0x02, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01,
	};
	uint8_t b[64];
	size_t len;

	len = one_block(b, 1, 0, long_token, sizeof(long_token));
	refused(b, len, 47, 16, "uleb128 token overflows 64 bits");
	len = one_block(b, 1, 0, wide_token, sizeof(wide_token));
	refused(b, len, 47, 16, "uleb128 token overflows 64 bits");
	len = one_block(b, 2, 0, big_delta, sizeof(big_delta));
	refused(b, len, 47, 17, "block 0 entry 1: text offset 0 + 0x100000000 overflows 32 bits");
	len = one_block(b, 1, 0x80000001u, wrap_delta, sizeof(wrap_delta));
	refused(b, len, 47, 16, "text offset 0x80000001 + 0x7fffffff overflows 32 bits");
	len = one_block(b, 1, 0, big_pos, sizeof(big_pos));
	refused(b, len, 47, 17, "position 0x100000000 overflows 32 bits");
	len = one_block(b, 2, 0, neg_pos, sizeof(neg_pos));
	refused(b, len, 47, 19, "position 0x5 -6 is out of range");
	len = one_block(b, 2, 0, high_pos, sizeof(high_pos));
	refused(b, len, 47, 23, "out of range");
	len = one_block(b, 2, 0, wide_sleb, sizeof(wide_sleb));
	refused(b, len, 47, 19, "sleb128 position delta overflows 64 bits");
}

static void a_sleb_of_ten_bytes_with_a_proper_sign_is_accepted(void **state)
{
	/* position 9, then delta -1 written in 10 bytes (non-minimal, still valid) */
	static const uint8_t body[] = {
		0x00, 0x09, 0x02, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f,
	};
	static const struct addrmap_entry want[] = { { 0, 9 }, { 1, 8 } };
	struct addrmap_entry *e;
	enum addrmap_format fmt;
	uint8_t b[64];
	size_t nr;

	assert_int_equal(decode(b, one_block(b, 2, 0, body, sizeof(body)), 47, &e, &nr, &fmt), 0);
	assert_entries(e, nr, want, 2);
	free(e);
}

static void block_pos_past_the_end_is_refused(void **state)
{
	uint8_t b[sizeof(example_blocks)];

	memcpy(b, example_blocks, sizeof(b));
	b[12] = 7;	/* 7 bytes of bodies: 0..6 are inside */
	refused(b, sizeof(b), 47, 12, "block 0 at body offset 0x7 is past the 0x7 bytes of bodies");
	b[12] = 0xff;
	b[15] = 0xff;
	refused(b, sizeof(b), 47, 12, "is past the 0x7 bytes");
	b[12] = 5;	/* inside, but the body then runs off the end */
	b[15] = 0;
	refused(b, sizeof(b), 47, 23, "block 0 entry 1: uleb128 token truncated");
}

static void overlapping_blocks_are_refused(void **state)
{
	struct addrmap_entry in[200], *e;
	enum addrmap_format fmt;
	uint8_t *buf;
	size_t len, nr, i;

	for (i = 0; i < ARRAY_SIZE(in); i++) {
		in[i].text_off = i;
		in[i].wasm_off = NONE;
	}
	assert_int_equal(addrmap__encode(in, ARRAY_SIZE(in), ADDRMAP_BLOCKS, &buf, &len), 0);
	assert_int_equal(decode(buf, len, 47, &e, &nr, &fmt), 0);
	free(e);
	/* Point block 1 at block 0's body: wasmtime would decode it, we refuse (bounded memory). */
	buf[20] = 0;
	refused(buf, len, 47, 20, "block 1 at body offset 0 overlaps the previous block (ends at 0x80)");
	free(buf);
}

static void header_lies_are_refused(void **state)
{
	uint8_t b[sizeof(example_blocks)];
	static const uint8_t huge[8] = { 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x02 };
	static const uint8_t huge_ok_b[16] = { 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x02 };

	memcpy(b, example_blocks, sizeof(b));
	b[4] = 2;	/* 4 entries in 2 blocks */
	refused(b, sizeof(b), 47, 4, "2 blocks for 4 entries, want 1");
	b[4] = 1;
	b[0] = 0x81;	/* 129 entries want 2 blocks */
	refused(b, sizeof(b), 47, 4, "1 blocks for 129 entries, want 2");
	/* 2^32-1 entries, 2^25 blocks: the index alone would need 256 MiB. */
	refused(huge, sizeof(huge), 47, 4, "the index of 33554432 blocks needs");
	refused(huge_ok_b, sizeof(huge_ok_b), 47, 4, "needs");
	b[0] = 30;	/* 30 entries cannot fit in 7 body bytes */
	refused(b, sizeof(b), 47, 0, "30 entries cannot fit in 7 bytes of block bodies");
}

static void decreasing_offsets_are_refused(void **state)
{
	uint8_t p[sizeof(example_plain)];
	struct addrmap_entry in[260];
	uint8_t *buf;
	size_t len, i;

	memcpy(p, example_plain, sizeof(p));
	p[12] = 0x43;	/* third text offset 0x43 < 0x44 */
	refused(p, sizeof(p), 46, 12, "text offset 0x43 is below the previous 0x44");

	for (i = 0; i < ARRAY_SIZE(in); i++) {
		in[i].text_off = 0x100 + i;
		in[i].wasm_off = 0x30;
	}
	assert_int_equal(addrmap__encode(in, ARRAY_SIZE(in), ADDRMAP_BLOCKS, &buf, &len), 0);
	buf[16] = 0x10;	/* block 1 starts at 0x110, before block 0's last entry 0x17f */
	refused(buf, len, 47, 16, "block 1 starts at text offset 0x110, below the previous entry's 0x17f");
	free(buf);
}

static void neither_encoding_explains_both_failures(void **state)
{
	static const uint8_t junk[] = { 0x05, 0x00, 0x00, 0x00, 0x00, 0x00 };
	struct addrmap_entry *e = NULL;
	size_t nr = 0;

	refused(junk, sizeof(junk), -1, 4, "truncated: 6 bytes, the header needs 8 (as the block encoding; "
		"as the plain encoding, +0x0: 5 entries need 44 bytes, not 6)");
	refused(junk, sizeof(junk), 46, 0, "5 entries need 44 bytes, not 6 (as the plain encoding; "
		"as the block encoding, +0x4: truncated");
	/* err may be NULL. */
	assert_int_equal(addrmap__decode(junk, sizeof(junk), -1, "t", &e, &nr, NULL, NULL, 0), -EINVAL);
	assert_null(e);
}

static void the_encoder_refuses_unsorted_entries(void **state)
{
	static const struct addrmap_entry bad[] = { { 8, 1 }, { 4, 2 } };
	uint8_t *buf = NULL;
	size_t len;

	assert_int_equal(addrmap__encode(bad, 2, ADDRMAP_PLAIN, &buf, &len), -EINVAL);
	assert_int_equal(addrmap__encode(bad, 2, ADDRMAP_BLOCKS, &buf, &len), -EINVAL);
	assert_null(buf);
}

/* wasmtime's own smoke test (compile/address_map.rs at e6b33de), with the function at 0..0x100. */
static void lookup_covers_each_entry_up_to_the_next(void **state)
{
	static const struct addrmap_entry e[] = { { 10, 100 }, { 20, NONE }, { 30, 90 } };
	uint32_t w = 0;

	assert_false(addrmap__lookup(e, 3, 0, 0x100, 9, &w));
	assert_true(addrmap__lookup(e, 3, 0, 0x100, 10, &w));
	assert_int_equal(w, 100);
	assert_true(addrmap__lookup(e, 3, 0, 0x100, 19, &w));
	assert_int_equal(w, 100);
	assert_false(addrmap__lookup(e, 3, 0, 0x100, 20, &w));
	assert_false(addrmap__lookup(e, 3, 0, 0x100, 29, &w));
	assert_true(addrmap__lookup(e, 3, 0, 0x100, 30, &w));
	assert_int_equal(w, 90);
	assert_true(addrmap__lookup(e, 3, 0, 0x100, 0xff, &w));
	assert_int_equal(w, 90);
}

static void lookup_ignores_the_entries_of_other_functions(void **state)
{
	/* f = [0x10, 0x30) has no entry at its start; g = [0x30, 0x50) follows. */
	static const struct addrmap_entry e[] = {
		{ 0x00, 7 }, { 0x18, 8 }, { 0x30, 9 }, { 0x40, NONE },
	};
	uint32_t w = 0;

	/* 0x00 belongs to the function before f: the reference filters it out. */
	assert_false(addrmap__lookup(e, 4, 0x10, 0x30, 0x12, &w));
	assert_true(addrmap__lookup(e, 4, 0x10, 0x30, 0x2f, &w));
	assert_int_equal(w, 8);
	/* A pc past fend still only sees f's entries. */
	assert_true(addrmap__lookup(e, 4, 0x10, 0x30, 0x35, &w));
	assert_int_equal(w, 8);
	assert_false(addrmap__lookup(e, 4, 0x30, 0x50, 0x48, &w));
	assert_false(addrmap__lookup(e, 4, 0x30, 0x30, 0x30, &w));
	assert_false(addrmap__lookup(NULL, 0, 0, 0x100, 0x10, &w));
}

/* The reference's lookup spelled out (FORMATS.md): filter to the function, take the last <= pc. */
static bool reference_lookup(const struct addrmap_entry *e, size_t nr, uint32_t fstart,
			     uint32_t fend, uint32_t pc, uint32_t *w)
{
	bool found = false;
	uint32_t pos = NONE;
	size_t i;

	for (i = 0; i < nr; i++) {
		if (e[i].text_off < fstart || e[i].text_off >= fend || e[i].text_off > pc)
			continue;
		found = true;
		pos = e[i].wasm_off;
	}
	if (!found || pos == NONE)
		return false;
	*w = pos;
	return true;
}

static void lookup_agrees_with_the_reference_algorithm(void **state)
{
	struct addrmap_entry *e;
	size_t i;

	rng_state = 7;
	e = random_entries(500);
	for (i = 0; i < 500; i++)
		e[i].text_off = e[i].text_off % 0x1000;
	/* The modulo above may unsort; sort again (insertion sort keeps duplicates in order). */
	for (i = 1; i < 500; i++) {
		struct addrmap_entry t = e[i];
		size_t j = i;

		for (; j && e[j - 1].text_off > t.text_off; j--)
			e[j] = e[j - 1];
		e[j] = t;
	}
	for (i = 0; i < 20000; i++) {
		uint32_t a = rng() % 0x1100, b = rng() % 0x1100, pc = rng() % 0x1100;
		uint32_t fs = a < b ? a : b, fe = a < b ? b : a, w1 = 1, w2 = 2;
		bool r1 = addrmap__lookup(e, 500, fs, fe, pc, &w1);
		bool r2 = reference_lookup(e, 500, fs, fe, pc, &w2);

		if (r1 != r2 || (r1 && w1 != w2))
			fail_msg("[%#x, %#x) pc %#x: got %d %#x, want %d %#x", fs, fe, pc, r1, w1, r2, w2);
	}
	free(e);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_worked_example_block_bytes_decode_to_the_example_entries),
		cmocka_unit_test(the_encoder_produces_exactly_the_23_example_bytes),
		cmocka_unit_test(the_plain_example_bytes_decode_and_encode_both_ways),
		cmocka_unit_test(the_committed_example_sections_are_the_documented_bytes),
		cmocka_unit_test(plain_round_trips_random_sorted_lists),
		cmocka_unit_test(blocks_round_trip_random_sorted_lists_over_several_blocks),
		cmocka_unit_test(blocks_of_all_none_positions_round_trip),
		cmocka_unit_test(an_empty_map_is_told_apart_by_its_length),
		cmocka_unit_test(a_single_entry_map_is_never_ambiguous),
		cmocka_unit_test(the_engine_version_breaks_a_tie),
		cmocka_unit_test(unused_body_bytes_rule_out_the_block_encoding_whatever_the_engine),
		cmocka_unit_test(an_entry_count_below_the_encoded_entries_is_refused_at_the_leftover_bytes),
		cmocka_unit_test(a_gap_between_blocks_is_refused_at_its_first_byte),
		cmocka_unit_test(decode_at_gives_file_offsets_then_section_offsets),
		cmocka_unit_test(sections_truncated_at_every_byte_are_refused),
		cmocka_unit_test(overflowing_lebs_are_refused_at_their_offset),
		cmocka_unit_test(a_sleb_of_ten_bytes_with_a_proper_sign_is_accepted),
		cmocka_unit_test(block_pos_past_the_end_is_refused),
		cmocka_unit_test(overlapping_blocks_are_refused),
		cmocka_unit_test(header_lies_are_refused),
		cmocka_unit_test(decreasing_offsets_are_refused),
		cmocka_unit_test(neither_encoding_explains_both_failures),
		cmocka_unit_test(the_encoder_refuses_unsorted_entries),
		cmocka_unit_test(lookup_covers_each_entry_up_to_the_next),
		cmocka_unit_test(lookup_ignores_the_entries_of_other_functions),
		cmocka_unit_test(lookup_agrees_with_the_reference_algorithm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

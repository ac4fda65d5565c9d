/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the .wasmtime.addrmap decoder
 * (postproc/annotate/wasmtime/addrmap.c): corrupt maps refused, each at its
 * offset and with its reason (the rest: test-addrmap.c).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "addrmap-check.h"
#include "lib/util.h"

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

int main(void)
{
	const struct CMUnitTest tests[] = {
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
	};

	return cmocka_run_group_tests_name("addrmap-refused", tests, NULL, NULL);
}

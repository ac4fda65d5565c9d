/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the .wasmtime.addrmap decoder and encoder
 * (postproc/annotate/wasmtime/addrmap.c): the worked example, round trips,
 * which encoding a section is, lookups (corrupt maps: test-addrmap-refused.c).
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

#include "annotate/wasmtime/addrmap.h"
#include "addrmap-check.h"
#include "cwasm-writer.h"
#include "lib/util.h"

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
		cmocka_unit_test(lookup_covers_each_entry_up_to_the_next),
		cmocka_unit_test(lookup_ignores_the_entries_of_other_functions),
		cmocka_unit_test(lookup_agrees_with_the_reference_algorithm),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

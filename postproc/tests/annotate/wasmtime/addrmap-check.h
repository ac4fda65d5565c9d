/* SPDX-License-Identifier: MIT */
/*
 * Test support of the address map's tests (test-addrmap*.c): the worked
 * example of postproc/FORMATS.md in both encodings, a decode that keeps its
 * message in err, the checks of what comes back, and random maps.
 */
#ifndef POSTPROC_TESTS_ANNOTATE_WASMTIME_ADDRMAP_CHECK_H
#define POSTPROC_TESTS_ANNOTATE_WASMTIME_ADDRMAP_CHECK_H

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

#define NONE ADDRMAP_NONE

/* The message of the last decode. */
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
static inline int decode(const uint8_t *buf, size_t len, int engine, struct addrmap_entry **e, size_t *nr,
		  enum addrmap_format *fmt)
{
	err[0] = '\0';
	*e = NULL;
	*nr = 0;
	return addrmap__decode(buf, len, engine, "t", e, nr, fmt, err, sizeof(err));
}

static inline void assert_entries(const struct addrmap_entry *got, size_t got_nr,
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
static inline void refused(const uint8_t *buf, size_t len, int engine, size_t off, const char *what)
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

/* xorshift64: deterministic "random" lists, so a failure reproduces. */
static uint64_t rng_state;

static inline uint64_t rng(void)
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
static inline struct addrmap_entry *random_entries(size_t nr)
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

#endif

// SPDX-License-Identifier: MIT
/*
 * Unit tests of the .eh_frame reader (plugin/symbols/ehframe.c) on sections
 * assembled here byte by byte as GCC lays them out (a "zR" CIE with
 * pc-relative sdata4 pointers, FDEs naming it). The bounds expected follow
 * from the bytes (worked out in the comments); that the reader agrees with
 * readelf --debug-dump=frames on real libraries is checked by
 * scripts/tests/stripped-libraries.sh. The hostile cases below are crafted
 * too: sizes that do not fit, a CIE pointer to an FDE or to the entry
 * itself, a range past the top of the address space.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "symbols/ehframe.h"

struct buf {
	uint8_t b[512];
	size_t n;
};

static void put(struct buf *b, const void *p, size_t n)
{
	memcpy(b->b + b->n, p, n);
	b->n += n;
}

static void u32(struct buf *b, uint32_t v)
{
	put(b, &v, 4);
}

/* A CIE: length, id 0, version 1, "zR", code align 1, data align -8, ra 16,
 * augmentation length 1, R = 0x1b (pc-relative, sdata4); padded to 4. */
static size_t cie(struct buf *b)
{
	static const uint8_t body[] = { 0, 0, 0, 0, 1, 'z', 'R', 0, 1, 0x78, 16, 1, 0x1b, 0, 0, 0 };
	size_t at = b->n;

	u32(b, sizeof(body));
	put(b, body, sizeof(body));
	return at;
}

/* An FDE of cie_at for [start, start + range), the section at vaddr base. */
static void fde(struct buf *b, size_t cie_at, uint64_t base, uint64_t start, uint32_t range)
{
	size_t id_at = b->n + 4;
	int32_t rel;

	u32(b, 16);	/* id, location, range, augmentation length 0, 3 bytes padding */
	u32(b, (uint32_t)(id_at - cie_at));
	rel = (int32_t)(start - (base + b->n));	/* pc-relative to the field itself */
	put(b, &rel, 4);
	u32(b, range);
	put(b, "\0\0\0\0", 4);
}

static void reads_fde_bounds_from_pc_relative_pointers(void **state)
{
	struct buf b = { .n = 0 };
	struct ehframe f;
	uint64_t base = 0x20000;
	size_t c = cie(&b);

	/* out of order on purpose: the table is sorted */
	fde(&b, c, base, 0x1200, 0x80);
	fde(&b, c, base, 0x1000, 0x1f4);
	u32(&b, 0);	/* terminator */
	assert_int_equal(ehframe__read(&f, b.b, b.n, base, true, false), 0);
	assert_int_equal(f.nr, 2);
	assert_int_equal(f.bad, 0);
	assert_int_equal(f.v[0].start, 0x1000);
	assert_int_equal(f.v[0].end, 0x11f4);
	assert_int_equal(f.v[1].start, 0x1200);
	assert_int_equal(f.v[1].end, 0x1280);
	assert_ptr_equal(ehframe__find(&f, 0x11f3), &f.v[0]);
	assert_null(ehframe__find(&f, 0x11f4));	/* between the two */
	assert_ptr_equal(ehframe__find(&f, 0x1200), &f.v[1]);
	assert_null(ehframe__find(&f, 0xfff));
	assert_null(ehframe__find(&f, 0x1280));
	ehframe__release(&f);
}

/* A truncated FDE ends the walk; what came before stays. An FDE naming no
 * CIE is skipped and counted. */
static void survives_truncated_and_dangling_entries(void **state)
{
	struct buf b = { .n = 0 };
	struct ehframe f;
	size_t c = cie(&b), id_at;

	fde(&b, c, 0, 0x100, 0x10);
	/* an FDE whose CIE pointer points before the section */
	u32(&b, 16);
	id_at = b.n;
	u32(&b, (uint32_t)(id_at + 100));
	put(&b, "\0\0\0\0\0\0\0\0\0\0\0\0", 12);
	/* one claiming more bytes than there are */
	u32(&b, 4096);
	u32(&b, 8);
	assert_int_equal(ehframe__read(&f, b.b, b.n, 0, true, false), 0);
	assert_int_equal(f.nr, 1);
	assert_int_equal(f.bad, 1);
	assert_int_equal(f.v[0].start, 0x100);
	ehframe__release(&f);
}

/* A 64-bit length of 2^63 (0xffffffff, then 8 bytes): the walk ends there,
 * what came before stays. */
static void a_huge_64_bit_length_ends_the_walk(void **state)
{
	struct buf b = { .n = 0 };
	struct ehframe f;
	size_t c = cie(&b);
	uint64_t huge = 1ULL << 63;

	fde(&b, c, 0, 0x100, 0x10);
	u32(&b, 0xffffffff);
	put(&b, &huge, 8);
	u32(&b, 0);
	assert_int_equal(ehframe__read(&f, b.b, b.n, 0, true, false), 0);
	assert_int_equal(f.nr, 1);
	ehframe__release(&f);
}

/* An FDE whose CIE pointer names another FDE, or the entry itself (a cycle
 * an unwinder could loop on): skipped and counted, never followed further. */
static void a_cie_pointer_to_an_fde_or_itself_is_counted(void **state)
{
	struct buf b = { .n = 0 };
	struct ehframe f;
	size_t c = cie(&b), first = b.n, id_at;

	fde(&b, c, 0, 0x100, 0x10);
	/* names the first FDE as its CIE */
	u32(&b, 16);
	id_at = b.n;
	u32(&b, (uint32_t)(id_at - first));
	put(&b, "\0\0\0\0\0\0\0\0\0\0\0\0", 12);
	/* names its own length field */
	id_at = b.n + 4;
	u32(&b, 16);
	u32(&b, 4);
	put(&b, "\0\0\0\0\0\0\0\0\0\0\0\0", 12);
	assert_int_equal(b.n - 20, id_at - 4);
	assert_int_equal(ehframe__read(&f, b.b, b.n, 0, true, false), 0);
	assert_int_equal(f.nr, 1);
	assert_int_equal(f.bad, 2);
	ehframe__release(&f);
}

/* start + range past 2^64: no code is there; it was kept as an FDE no
 * lookup could find, now it is counted as unreadable. */
static void a_range_past_the_top_is_counted_not_kept(void **state)
{
	struct buf b = { .n = 0 };
	struct ehframe f;
	uint64_t base = 0xfffffffffff00000ULL;
	size_t c = cie(&b);

	fde(&b, c, base, base + 0x1000, 0xfffff000);
	fde(&b, c, base, base + 0x100, 0x10);
	assert_int_equal(ehframe__read(&f, b.b, b.n, base, true, false), 0);
	assert_int_equal(f.nr, 1);
	assert_int_equal(f.bad, 1);
	assert_int_equal(f.v[0].start, base + 0x100);
	assert_null(ehframe__find(&f, base + 0x1001));
	ehframe__release(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(reads_fde_bounds_from_pc_relative_pointers),
		cmocka_unit_test(survives_truncated_and_dangling_entries),
		cmocka_unit_test(a_huge_64_bit_length_ends_the_walk),
		cmocka_unit_test(a_cie_pointer_to_an_fde_or_itself_is_counted),
		cmocka_unit_test(a_range_past_the_top_is_counted_not_kept),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

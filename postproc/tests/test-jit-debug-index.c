/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of the indexed JIT debug-entry lookup (srcline__jit_index_*):
 * on random entries (garbage addresses outside the object, equal addresses,
 * "\xff" same-file names, a bias) every answer, entry and file, must be the
 * one of the linear srcline__jit_debug_find, the rule's reference.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "srcline.h"
#include "stream.h"

static void index_agrees_with_the_linear_lookup(void **state)
{
	static char same[] = "\xff", fa[] = "a.js", fb[] = "b.js";
	unsigned seed = 7;

	for (int round = 0; round < 200; round++) {
		size_t n = (size_t)(rand_r(&seed) % 40);
		uint64_t load = 0x10000, size = 1 + (uint64_t)(rand_r(&seed) % 200);
		uint64_t bias = rand_r(&seed) % 2 ? 0x40 : 0;
		struct stream_debug *e = calloc(n ? n : 1, sizeof(*e));

		assert_non_null(e);
		for (size_t i = 0; i < n; i++) {
			int k = rand_r(&seed) % 10;

			/* Mostly inside the object, some before it, past it, or below the bias. */
			e[i].addr = k == 0 ? 3 : k == 1 ? load + bias + size + 5 :
				    load + bias + (uint64_t)(rand_r(&seed) % (int)size);
			e[i].line = (uint32_t)i + 1;
			e[i].file = rand_r(&seed) % 3 == 0 ? same : rand_r(&seed) % 2 ? fa : fb;
		}
		struct srcline_jit_index *ix = srcline__jit_index_new(e, n, load, size, bias);

		assert_non_null(ix);
		for (uint64_t off = 0; off < size + 3; off++) {
			const char *f1 = "x", *f2 = "y";
			long want = srcline__jit_debug_find(e, n, load, size, bias, off, &f1);
			long got = srcline__jit_index_find(ix, off, &f2);

			assert_int_equal(got, want);
			assert_ptr_equal(f2, f1);
		}
		srcline__jit_index_free(ix);
		free(e);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(index_agrees_with_the_linear_lookup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* SPDX-License-Identifier: MIT */
/* Unit tests of names as people look for them (postproc/annotate/names.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "annotate/names.h"

/* Names as V8 10 (node 18) and V8 11+ (node 20, 22) write them: test-data/v8-versions. */
#define V8_NEW "JS:*work /srv/app/hot.js:5:14"
#define V8_OLD "LazyCompile:*work /srv/app/hot.js:5"

static void distance_for_suggestions(void **state)
{
	/* Contained, ignoring case: 0. */
	assert_int_equal(name_distance("Work", V8_NEW), 0);
	assert_int_equal(name_distance("JS:*WORK /srv/app/hot.js:5:14 and more", V8_NEW), 0);
	/* Another V8's tag and tier mark: the function parts are equal. */
	assert_int_equal(name_distance("LazyCompile:*work", V8_NEW), 1);
	assert_int_equal(name_distance("JS:*work", V8_OLD), 1);
	/* A typo: one transposition is two edits. */
	assert_int_equal(name_distance("wrok", V8_NEW), 3);
	assert_int_equal(name_distance("JS:^wrk", V8_NEW), 2);
	/* Too far: more than a third of the name (and more than 2 edits). */
	assert_true(name_distance("xyzw", V8_NEW) == NAME_FAR);
	assert_true(name_distance("handle_request", "JS:*mix /a.js:4:13") == NAME_FAR);
	/* Long names are looked at only up to NAME_DISTANCE_MAX bytes, without overflow. */
	{
		char a[400], b[400];

		for (size_t i = 0; i < sizeof(a) - 1; i++) {
			a[i] = 'a' + (char)(i % 26);
			b[i] = 'a' + (char)((i + 1) % 26);
		}
		a[sizeof(a) - 1] = b[sizeof(b) - 1] = '\0';
		b[0] = 'Z';
		/* b is a shifted by one with its first letter changed: within
		 * the first 128 bytes, 'a' -> 'Z', drop 'b', add one at the end. */
		assert_int_equal(name_distance(a, b), 3 + 1);
	}
}

static void displays(const char *raw, const char *want)
{
	char *got = names__demangle(raw);

	if (!want) {
		if (got)
			fail_msg("%s: no mangled name, got \"%s\"", raw, got);
		return;
	}
	if (!got || strcmp(got, want))
		fail_msg("%s: got \"%s\", wanted \"%s\"", raw, got ? got : "(null)", want);
	free(got);
}

/*
 * Each runtime's names as its users write them. The expected forms were
 * printed by binutils 2.40's c++filt (Debian 12): `c++filt -i` for native
 * code (as perf shows it, test-data/golden/demangle), plain `c++filt` for
 * the name-section names inside V8's wasm names (the raw names are loads of
 * test-data/jit-node-wasm-rust); the Java ones by perf 6.1 after perf inject
 * (test-data/jit-hotspot/oracle-symoff.txt). scripts/tests/jit-names.sh runs
 * the real c++filt over every sampled name of the recordings.
 */
static void names_as_their_users_write_them(void **state)
{
	/* native C++ and Rust, as today */
	displays("_ZN2v88internal4Heap2GCEv", "v8::internal::Heap::GC()");
	displays("_ZN3fib3fib17h0123456789abcdefE", "fib::fib");
	displays("_RNvCs1234_7mycrate3foo", "mycrate::foo");
	displays("_Z1fSs", "f(std::string)");
	displays("_Z1fv@plt", "f()@plt");
	displays("plain_c_name", NULL);
	/* a Rust module's names in V8's wasm names: legacy, with an LLVM suffix, v0 */
	displays("JS:_ZN12jsonc_parser7scanner7Scanner4scan17hde3d3957981c1a77E-505-turbofan",
		 "JS:jsonc_parser::scanner::Scanner::scan::hde3d3957981c1a77-505-turbofan");
	displays("JS:_ZN4core4cell4once17OnceCell$LT$T$GT$8try_init17h8a87463d6e19279cE."
		 "llvm.10944614999796628234-12-liftoff",
		 "JS:core::cell::once::OnceCell<T>::try_init::h8a87463d6e19279c-12-liftoff");
	displays("JS:_RNvMs0_NtCsjqx8TIyZbP9_8dlmalloc8dlmallocINtB5_8DlmallocNtNtB7_3sys6SystemE4free"
		 "CsebHcaeoSrxy_3std-821-turbofan",
		 "JS:<dlmalloc[e24a27700634d609]::dlmalloc::Dlmalloc<dlmalloc[e24a27700634d609]::sys::System>>"
		 "::free-821-turbofan");
	/* V8's wrapper of an imported function: its signature, then the import's name
	 * (test-data/v8-wasm-dprint-markdown/run1) */
	displays("JS:wasm-to-js:iiiiiiii:i-_RNvNvNtCsdMQk4YWe2kZ_22dprint_plugin_markdown11wasm_plugin"
		 "16format_with_host11host_format-0-turbofan",
		 "JS:wasm-to-js:iiiiiiii:i-dprint_plugin_markdown[a098584896e3e7cf]::wasm_plugin::"
		 "format_with_host::host_format-0-turbofan");
	displays("JS:wasm-to-js:ii:i-0-turbofan", NULL);
	displays("JS:release_config-332-liftoff", NULL);
	displays("JS:wasm-function[7]-7-turbofan", NULL);
	displays("JS:*work /srv/app/hot.js:5:14", NULL);
	/* Java, as perf shows it */
	displays("LHot;fnv(I)I", "Hot.fnv(int)");
	displays("Ljava/util/DualPivotQuicksort;mixedInsertionSort([IIII)V",
		 "java.util.DualPivotQuicksort.mixedInsertionSort(int[], int, int, int)");
	displays("Interpreter", NULL);
	/* CPython's trampolines and HotSpot's perf map are readable already */
	displays("py::SequenceMatcher.find_longest_match:/root/.pyenv/versions/3.13.0/lib/python3.13/difflib.py",
		 NULL);
	displays("int Hot.fnv(int)", NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(distance_for_suggestions),
		cmocka_unit_test(names_as_their_users_write_them),
	};

	return cmocka_run_group_tests_name("names", tests, NULL, NULL);
}

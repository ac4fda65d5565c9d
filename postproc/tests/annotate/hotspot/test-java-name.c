/* SPDX-License-Identifier: MIT */
/*
 * Unit tests of Java's method names as perf shows them
 * (postproc/annotate/hotspot/java-name.c). The pairs are real: each raw name is
 * a load of test-data/jit-hotspot/jit-17852.dump (perf's JVMTI agent on
 * OpenJDK 17) and its form is what perf 6.1 showed for that load's
 * jitted-17852-N.so after `perf inject --jit`
 * (test-data/jit-hotspot/oracle-symoff.txt), quirks and all.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "annotate/hotspot/java-name.h"

static void shows(const char *raw, const char *perf)
{
	char *got = java_name__demangle(raw);

	if (!perf) {
		if (got)
			fail_msg("%s: not a signature, got \"%s\"", raw, got);
		return;
	}
	if (!got)
		fail_msg("%s: no name, wanted \"%s\"", raw, perf);
	if (strcmp(got, perf))
		fail_msg("%s: got \"%s\", perf shows \"%s\"", raw, got, perf);
	free(got);
}

static void names_as_perf_shows_them(void **state)
{
	shows("Ljava/util/DualPivotQuicksort;sort(Ljava/util/DualPivotQuicksort$Sorter;[IIII)V",
	      "java.util.DualPivotQuicksort.sort(java.util.DualPivotQuicksort$Sorter, int[], int, int, int)");
	shows("Ljava/util/DualPivotQuicksort;mixedInsertionSort([IIII)V",
	      "java.util.DualPivotQuicksort.mixedInsertionSort(int[], int, int, int)");
	shows("Ljava/util/regex/Pattern$BmpCharPropertyGreedy;match(Ljava/util/regex/Matcher;ILjava/lang/CharSequence;)Z",
	      "java.util.regex.Pattern$BmpCharPropertyGreedy.match(java.util.regex.Matcher, int, java.lang.CharSequence)");
	shows("Ljava/lang/String;checkBoundsBeginEnd(III)V", "java.lang.String.checkBoundsBeginEnd(int, int, int)");
	shows("Ljava/lang/String;toString()Ljava/lang/String;", "java.lang.String.toString()");
	shows("Ljava/lang/StringLatin1;newString([BII)Ljava/lang/String;",
	      "java.lang.StringLatin1.newString(byte[], int, int)");
	shows("Ljava/util/Arrays;copyOfRange([BII)[B", "java.util.Arrays.copyOfRange(byte[], int, int)");
	shows("Ljava/util/Arrays;sort([I)V", "java.util.Arrays.sort(int[])");
	shows("Ljava/util/regex/Matcher;group(I)Ljava/lang/String;", "java.util.regex.Matcher.group(int)");
	shows("Ljava/util/regex/Pattern$$Lambda$18.0x800000028;is(I)Z",
	      "java.util.regex.Pattern$$Lambda$18.0x800000028.is(int)");
}

/* perf's two quirks, kept so that a name reads the same in both tools. */
static void perf_s_quirks_are_kept(void **state)
{
	/* An array of objects loses its [] to the next primitive argument. */
	shows("LHot;main([Ljava/lang/String;)V", "Hot.main(java.lang.String)");
	shows("Ljava/util/concurrent/ConcurrentHashMap;tabAt([Ljava/util/concurrent/ConcurrentHashMap$Node;I)"
	      "Ljava/util/concurrent/ConcurrentHashMap$Node;",
	      "java.util.concurrent.ConcurrentHashMap.tabAt(java.util.concurrent.ConcurrentHashMap$Node, int[])");
	/* A constructor: no dot before "<init>". */
	shows("Ljava/lang/Object;<init>()V", "java.lang.Object<init>()");
}

/* The VM's stubs, HotSpot's own perf map's names, other JITs' names: left. */
static void other_names_are_left_alone(void **state)
{
	shows("Interpreter", NULL);
	shows("I2C/C2I adapters(0xbbebbe)", NULL);
	shows("vtable stub", NULL);
	shows("int Hot.fnv(int)", NULL);		/* test-data/jit-hotspot-perfmap */
	shows("JS:*work /srv/app/hot.js:5:14", NULL);
	shows("_ZN2v88internal4Heap2GCEv", NULL);
	shows("", NULL);
	/* what perf gives up on: '[' in the class, '/' in the method, no '(' */
	shows("L[Hot;fnv(I)I", NULL);
	shows("LHot;f/nv(I)I", NULL);
	shows("LHot;fnv)I", NULL);
	shows("L)", NULL);
}

/* perf writes at most three bytes for each byte of the signature. */
static void at_most_three_bytes_a_byte(void **state)
{
	char *got = java_name__demangle("LA;b(ZZZZZZ)V");

	assert_non_null(got);
	/* "A.b(boolean, boolean, ..." cut at 3 x 13 = 39 bytes */
	assert_int_equal(strlen(got), 39);
	assert_string_equal(got, "A.b(boolean, boolean, boolean, boolean,");
	free(got);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(names_as_perf_shows_them),
		cmocka_unit_test(perf_s_quirks_are_kept),
		cmocka_unit_test(other_names_are_left_alone),
		cmocka_unit_test(at_most_three_bytes_a_byte),
	};

	return cmocka_run_group_tests_name("java-name", tests, NULL, NULL);
}

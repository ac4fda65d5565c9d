/* SPDX-License-Identifier: MIT */
/*
 * Java's method names as the JVM writes them and perf shows them. perf's
 * JVMTI agent (tools/perf/jvmti, -agentpath:libperf-jvmti.so) names each
 * compiled method in its jitdump by its class's and its own JVM signature:
 *
 *   LHot;fnv(I)I
 *   Ljava/util/DualPivotQuicksort;sort(Ljava/util/DualPivotQuicksort$Sorter;[IIII)V
 *
 * and perf (its util/demangle-java.c, which `perf report` applies to the
 * symbols `perf inject --jit` makes of them, without the return type) shows
 * them as Java declarations:
 *
 *   Hot.fnv(int)
 *   java.util.DualPivotQuicksort.sort(java.util.DualPivotQuicksort$Sorter, int[], int, int, int)
 *
 * HotSpot's own perf map (-XX:+DumpPerfMapAtExit) writes its names readable
 * already ("int Hot.fnv(int)"), and so do the VM's stubs in the jitdump
 * ("Interpreter", "vtable stub"): neither is a signature, and both stay as
 * they are.
 */
#ifndef POSTPROC_JAVA_NAME_H
#define POSTPROC_JAVA_NAME_H

/*
 * name ("L" class ";" method "(" argument types ")" return type) as perf
 * shows it, malloc()ed; NULL when name is no such signature (or memory ran
 * out). perf's form exactly, its two quirks included so that a name reads
 * the same in both tools: an array of objects loses its "[]", which goes to
 * the next argument of a primitive type instead ("main([Ljava/lang/String;)V"
 * is "main(java.lang.String)"), and a constructor has no dot before it
 * ("java.lang.Object<init>()"); and, as perf, at most three bytes are
 * written for each byte of name.
 */
char *java_name__demangle(const char *name);

#endif

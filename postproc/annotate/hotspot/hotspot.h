/* SPDX-License-Identifier: MIT */
/*
 * HotSpot (OpenJDK's JVM) as its users know it (postproc/FORMATS.md,
 * "Java's names"; test-data/jit-hotspot, jit-hotspot-perfmap):
 *
 * Two ways to name its code for perf, each a flag:
 * * perf's JVMTI agent (tools/perf/jvmti: java
 *   -agentpath:/path/to/libperf-jvmti.so) writes a jitdump with the code
 *   bytes, under $JITDUMPDIR (else $HOME) in
 *   .debug/jit/java-jit-DATE.XXXXXXXX/jit-PID.dump, where perf.data's
 *   marker names it. Its methods are named by their JVM signature
 *   (LHot;fnv(I)I), shown as perf shows them, Hot.fnv(int) (java-name.h);
 *   the VM's stubs by HotSpot's names ("Interpreter"), kept. Its DEBUG_INFO
 *   is one entry per PC range with a class-path-relative file
 *   (java/util/DualPivotQuicksort.java); none lies before its code.
 * * -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit writes
 *   /tmp/perf-PID.map at exit, names only, readable already
 *   ("int Hot.fnv(int)"): kept as they are.
 * One method is one load per tier (C1, C2, OSR); nothing is data in its
 * code that the report knows of.
 */
#ifndef POSTPROC_ANNOTATE_HOTSPOT_H
#define POSTPROC_ANNOTATE_HOTSPOT_H

#include "annotate/jit-runtime.h"

extern const struct jit_runtime jit_hotspot;

#endif

#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the jit-hotspot recording: OpenJDK 17 (HotSpot) running Hot.java
# with perf's JVMTI agent (libperf-jvmti.so, built from Debian's
# linux-source-6.1: README.md says how), which writes a jitdump:
#   JITDUMPDIR=/tmp/hotblocks-rec/jit-hotspot \
#   perf record -N -k mono -e cpu-clock -F 999 -o perf.data \
#     java -agentpath:$PERF_JVMTI -cp . Hot SECS
# The agent puts the dump in $JITDUMPDIR/.debug/jit/java-jit-DATE.XXXXXXXX/
# jit-PID.dump (a mkdtemp name); it is copied here as jit-PID.dump and its
# recorded path kept in jitdump-path.txt (restore.sh puts it back there).
# Usage: PERF_JVMTI=/path/to/libperf-jvmti.so record.sh [SECONDS]   (default 2)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-2}
agent=${PERF_JVMTI:?set PERF_JVMTI to the libperf-jvmti.so built from linux-source-6.1 (README.md)}
rec=/tmp/hotblocks-rec/jit-hotspot

rm -rf "$rec"
mkdir -p "$rec"
cp "$here/Hot.java" "$rec/"
cd "$rec"
javac -d . Hot.java
java -version 2>java-version.txt
# -k mono: the agent stamps its records with CLOCK_MONOTONIC (it would use the
# TSC only with JITDUMP_USE_ARCH_TIMESTAMP set).
JITDUMPDIR=$rec perf record -q -N -k mono -e cpu-clock -F 999 -o perf.data \
	java -agentpath:"$agent" -cp . Hot "$secs" >run.out

set -- "$rec"/.debug/jit/java-jit-*/jit-*.dump
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
	echo "record.sh: expected exactly one jit-*.dump under $rec/.debug/jit" >&2
	exit 1
fi
rm -f "$here"/jit-*.dump
chmod 644 perf.data "$1"
cp perf.data run.out java-version.txt "$1" "$here/"
echo "$1" >"$here/jitdump-path.txt"
echo "recorded $1 ($(wc -c <"$1") bytes), perf.data $(wc -c <perf.data) bytes"

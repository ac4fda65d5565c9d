#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the jit-hotspot-perfmap recording: OpenJDK 17 (HotSpot) running
# ../jit-hotspot/Hot.java with no agent; at exit the JVM writes the code cache
# as it is then to /tmp/perf-PID.map (-XX:+DumpPerfMapAtExit):
#   perf record -N -k mono -e cpu-clock -F 999 -o perf.data java \
#     -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -cp . Hot SECS
# in /tmp/hotblocks-rec/jit-hotspot-perfmap. The map is moved here beside
# perf.data (restore.sh puts it back).
# Usage: record.sh [SECONDS]   (default 2; needs root or perf_event_paranoid <= 1)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-2}
rec=/tmp/hotblocks-rec/jit-hotspot-perfmap

rm -rf "$rec"
mkdir -p "$rec"
cp "$here/../jit-hotspot/Hot.java" "$rec/"
cd "$rec"
javac -d . Hot.java
java -version 2>java-version.txt
perf record -q -N -k mono -e cpu-clock -F 999 -o perf.data \
	java -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -cp . Hot "$secs" >run.out
pid=$(perf script -i perf.data -F pid 2>/dev/null | awk 'NR == 1 { print $1 }')
chmod 644 perf.data
rm -f "$here"/perf-*.map
mv "/tmp/perf-$pid.map" "$here/"
cp perf.data run.out java-version.txt "$here/"
echo "recorded $rec/perf.data ($(wc -c <perf.data) bytes), pid $pid, map $(wc -l <"$here/perf-$pid.map") lines"

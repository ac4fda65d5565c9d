#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the jit-mono recording: Mono 6.8 (Debian's mono-runtime, the JIT)
# running Hot.cs, compiled by Debian's mcs (mono-mcs), with --jitmap, which
# names each method it compiles in /tmp/perf-PID.map (no jitdump):
#   mcs -out:Hot.exe Hot.cs
#   perf record -N -k mono -e cpu-clock -F 999 -o perf.data mono --jitmap Hot.exe SECS
# in /tmp/hotblocks-rec/jit-mono. The map is moved here beside perf.data
# (restore.sh puts it back).
# Usage: record.sh [SECONDS]   (default 2; needs root or perf_event_paranoid <= 1)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-2}
rec=/tmp/hotblocks-rec/jit-mono

rm -rf "$rec"
mkdir -p "$rec"
cp "$here/Hot.cs" "$rec/"
cd "$rec"
mcs -out:Hot.exe Hot.cs
mono --version >mono-version.txt
perf record -q -N -k mono -e cpu-clock -F 999 -o perf.data mono --jitmap Hot.exe "$secs" >run.out
pid=$(perf script -i perf.data -F pid 2>/dev/null | awk 'NR == 1 { print $1 }')
chmod 644 perf.data
rm -f "$here"/perf-*.map
mv "/tmp/perf-$pid.map" "$here/"
cp perf.data run.out mono-version.txt "$here/"
echo "recorded $rec/perf.data ($(wc -c <perf.data) bytes), pid $pid, map $(wc -l <"$here/perf-$pid.map") lines"

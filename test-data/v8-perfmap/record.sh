#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the v8-perfmap recording: node with --perf-basic-prof, which
# names the code V8 compiles in /tmp/perf-<pid>.map (no jitdump), running
# fib.js, in /tmp/hotblocks-rec/v8-perfmap:
#   perf record -N -k mono -e cpu-clock -F 499 -o perf.data node --perf-basic-prof fib.js SECS
# The perf map is moved here beside perf.data (restore.sh puts it back).
# Usage: record.sh [SECONDS]   (default 2; needs root or perf_event_paranoid <= 1)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-2}
rec=/tmp/hotblocks-rec/v8-perfmap

rm -rf "$rec"
mkdir -p "$rec"
cp "$here/fib.js" "$rec/"
cd "$rec"
perf record -q -N -k mono -e cpu-clock -F 499 -o perf.data node --perf-basic-prof fib.js "$secs" >run.out
pid=$(perf script -i perf.data -F pid 2>/dev/null | awk 'NR == 1 { print $1 }')
chmod 644 perf.data
rm -f "$here"/perf-*.map
mv "/tmp/perf-$pid.map" "$here/"
cp perf.data run.out "$here/"
echo "recorded $rec/perf.data ($(wc -c <perf.data) bytes), pid $pid"

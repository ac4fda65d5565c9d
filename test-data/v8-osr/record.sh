#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the v8-osr test recording: node/V8 running osr.js (pure JavaScript
# loops that V8 compiles on-stack, deoptimises and compiles again) under perf.
#
# Records inside /tmp/hotblocks-rec/v8-osr so the jitdump path stored in
# perf.data is /tmp/hotblocks-rec/v8-osr/jit-<pid>.dump (the tests recreate that
# directory), then copies perf.data and the dump back here, with V8's own trace
# of the run's OSR compilations and deoptimisations (trace.txt).
# Usage: record.sh [SECONDS]   (default 3; needs root or perf_event_paranoid <= 1)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-3}
rec=/tmp/hotblocks-rec/v8-osr

rm -rf "$rec"
mkdir -p "$rec"
cp "$here/osr.js" "$rec/"
cd "$rec"

# -k mono: V8 stamps jitdump records with CLOCK_MONOTONIC; perf inject (and
# hotblocks) can only line samples up with them when perf uses the same clock.
# --perf-basic-prof-only-functions: only JavaScript functions are logged, not the
# 2000-odd builtins and bytecode handlers V8 logs at start-up (a 64 KB dump
# instead of 2 MB); the OSR code is a JavaScript function's.
# --trace-osr --trace-deopt: V8 says when it compiles, enters and throws away
# OSR code (written to stdout, kept in trace.txt).
perf record -N -k mono -e cpu-clock -F 999 -o perf.data \
	node --perf-prof --perf-basic-prof-only-functions --trace-osr --trace-deopt \
	osr.js "$secs" >trace.out

set -- jit-*.dump
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
	echo "record.sh: expected exactly one jit-*.dump in $rec" >&2
	exit 1
fi
rm -f "$here"/jit-*.dump isolate-*.log
chmod 644 perf.data
cp perf.data "$1" "$here/"
grep -E '^\[(OSR|bailout)|^pid ' trace.out >"$here/trace.txt"
echo "recorded $rec/$1 ($(wc -c <"$1") bytes), perf.data $(wc -c <perf.data) bytes"

#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the v8-wasm test recording: node/V8 running hot.wasm under perf record.
#
# Records inside /tmp/hotblocks-rec/v8-wasm so the jitdump path stored in
# perf.data is /tmp/hotblocks-rec/v8-wasm/jit-<pid>.dump (the tests recreate
# that directory), then copies hot.wasm, perf.data and the dump back here.
# Usage: record.sh [SECONDS]   (default 1; needs root or perf_event_paranoid <= 1)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-1}
rec=/tmp/hotblocks-rec/v8-wasm

rm -rf "$rec"
mkdir -p "$rec"
cp "$here/hot.c" "$here/run.js" "$rec/"
cd "$rec"

clang --target=wasm32 -O2 -nostdlib -Wl,--no-entry -Wl,--export-all -o hot.wasm hot.c
# -k mono: V8 stamps jitdump records with CLOCK_MONOTONIC; perf inject (and
# hotblocks) can only line samples up with them when perf uses the same clock.
# -N only keeps perf from copying node and libc into ~/.debug; perf.data is
# the same with or without it.
perf record -N -k mono -e cpu-clock -F 4999 -o perf.data node --perf-prof run.js "$secs"

set -- jit-*.dump
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
	echo "record.sh: expected exactly one jit-*.dump in $rec" >&2
	exit 1
fi
# The isolate-*-v8.log that --perf-prof also leaves behind is not needed.
rm -f "$here"/jit-*.dump
chmod 644 perf.data hot.wasm
cp hot.wasm perf.data "$1" "$here/"
echo "recorded $rec/$1 ($(wc -c <"$1") bytes), perf.data $(wc -c <perf.data) bytes"

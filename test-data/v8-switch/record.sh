#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the v8-switch test recording: node/V8 running vm.wasm (a bytecode
# interpreter in C whose `switch` V8's TurboFan compiles to a jump table) under perf.
#
# Records inside /tmp/hotblocks-rec/v8-switch so the jitdump path stored in
# perf.data is /tmp/hotblocks-rec/v8-switch/jit-<pid>.dump (the tests recreate that
# directory), then copies vm.wasm, perf.data and the dump back here.
# Usage: record.sh [SECONDS]   (default 2; needs root or perf_event_paranoid <= 1)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-2}
rec=/tmp/hotblocks-rec/v8-switch

rm -rf "$rec"
mkdir -p "$rec"
cp "$here/vm.c" "$here/run.js" "$rec/"
cd "$rec"

clang --target=wasm32 -O2 -nostdlib -Wl,--no-entry -o vm.wasm vm.c
# -k mono: V8 stamps jitdump records with CLOCK_MONOTONIC; perf inject (and
# hotblocks) can only line samples up with them when perf uses the same clock.
# --perf-basic-prof-only-functions: only JavaScript and wasm functions are
# logged, not the 2000-odd builtins and bytecode handlers V8 logs at start-up
# (a 40 KB dump instead of 2 MB).
perf record -N -k mono -e cpu-clock -F 999 -o perf.data \
	node --perf-prof --perf-basic-prof-only-functions run.js "$secs"

set -- jit-*.dump
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
	echo "record.sh: expected exactly one jit-*.dump in $rec" >&2
	exit 1
fi
rm -f "$here"/jit-*.dump
chmod 644 perf.data vm.wasm
cp vm.wasm perf.data "$1" "$here/"
echo "recorded $rec/$1 ($(wc -c <"$1") bytes), perf.data $(wc -c <perf.data) bytes"

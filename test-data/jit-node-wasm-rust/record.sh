#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the jit-node-wasm-rust recording: node 20 running
# dprint-plugin-json, a Rust program compiled to Wasm (npm @dprint/json, with
# its mangled Rust names in the Wasm name section), through @dprint/formatter,
# formatting Debian's /usr/share/iso-codes/json/iso_639-3.json ROUNDS times:
#   npm ci    # package.json, package-lock.json: the exact versions
#   perf record -N -k mono -e cpu-clock -F 999 -o perf.data \
#     node --perf-prof --perf-basic-prof-only-functions run.mjs @dprint/json FILE ROUNDS
# in /tmp/hotblocks-rec/jit-node-wasm-rust, so the jitdump V8 writes there
# (jit-PID.dump, in the working directory) is named by that path in perf.data.
# --perf-basic-prof-only-functions keeps the dump small: it drops the 2182
# Builtin:/BytecodeHandler: loads (about 1.9 MB) V8 logs at every start
# (test-data/v8-wasm has them), and keeps every JS and Wasm function.
# Usage: record.sh [ROUNDS]   (default 20; needs root or perf_event_paranoid <= 1)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-20}
input=/usr/share/iso-codes/json/iso_639-3.json
rec=/tmp/hotblocks-rec/jit-node-wasm-rust

[ -r "$input" ] || { echo "record.sh: $input is missing (Debian: apt-get install iso-codes)" >&2; exit 1; }
rm -rf "$rec"
mkdir -p "$rec"
cp "$here/run.mjs" "$here/package.json" "$here/package-lock.json" "$rec/"
cd "$rec"
npm ci --silent --no-audit --no-fund
node --version >node-version.txt
node -p 'process.versions.v8' >>node-version.txt
perf record -q -N -k mono -e cpu-clock -F 999 -o perf.data \
	node --perf-prof --perf-basic-prof-only-functions run.mjs @dprint/json "$input" "$rounds" >run.out

set -- jit-*.dump
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
	echo "record.sh: expected exactly one jit-*.dump in $rec" >&2
	exit 1
fi
# The isolate-*-v8.log that --perf-prof also leaves behind is not needed.
rm -f "$here"/jit-*.dump
chmod 644 perf.data "$1"
cp perf.data run.out node-version.txt "$1" "$here/"
echo "recorded $rec/$1 ($(wc -c <"$1") bytes), perf.data $(wc -c <perf.data) bytes"

#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates one run of the v8-wasm-dprint-markdown recording: node 20 running
# dprint-plugin-markdown, a Rust program compiled to Wasm (npm @dprint/markdown,
# v0-mangled Rust names in its name section), through @dprint/formatter,
# formatting Debian's node docs /usr/share/doc/nodejs/api/fs.md ROUNDS times,
# the same work in every run:
#   npm ci    # package.json, package-lock.json: the exact versions
#   perf record -N -k mono -e cpu-clock -F 4999 -o perf.data \
#     node --perf-prof --perf-basic-prof-only-functions ../run.mjs @dprint/markdown FILE ROUNDS
# in /tmp/hotblocks-rec/v8-wasm-dprint-markdown/RUN, so the jitdump V8 writes there
# (jit-PID.dump, in the working directory) is named by that path in perf.data,
# then copies perf.data and the dump to RUN/ here.
# --perf-basic-prof-only-functions keeps the dump small: it drops the 2182
# Builtin:/BytecodeHandler: loads (about 1.9 MB) V8 logs at every start
# (test-data/v8-wasm has them), and keeps every JS and Wasm function.
# Usage: record.sh RUN [ROUNDS]   (RUN: run1, run2; ROUNDS default 100;
# needs root or perf_event_paranoid <= 1)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
run=${1:?usage: record.sh RUN [ROUNDS]}
rounds=${2:-100}
input=/usr/share/doc/nodejs/api/fs.md
top=/tmp/hotblocks-rec/v8-wasm-dprint-markdown
rec=$top/$run

[ -r "$input" ] || { echo "record.sh: $input is missing (Debian: apt-get install nodejs, whose docs it is)" >&2; exit 1; }
if [ ! -d "$top/node_modules/@dprint/markdown" ] || ! cmp -s "$here/package-lock.json" "$top/package-lock.json"; then
	rm -rf "$top"
	mkdir -p "$top"
	cp "$here/package.json" "$here/package-lock.json" "$top/"
	(cd "$top" && npm ci --silent --no-audit --no-fund)
fi
cp "$here/run.mjs" "$top/"
rm -rf "$rec"
mkdir -p "$rec"
cd "$rec"
{ node --version; node -p 'process.versions.v8'; } >"$here/node-version.txt"
perf record -q -N -k mono -e cpu-clock -F 4999 -o perf.data \
	node --perf-prof --perf-basic-prof-only-functions ../run.mjs @dprint/markdown "$input" "$rounds" >run.out

set -- jit-*.dump
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
	echo "record.sh: expected exactly one jit-*.dump in $rec" >&2
	exit 1
fi
# The isolate-*-v8.log that --perf-prof also leaves behind is not needed.
mkdir -p "$here/$run"
rm -f "$here/$run"/jit-*.dump
chmod 644 perf.data "$1"
cp perf.data run.out "$1" "$here/$run/"
echo "recorded $rec/$1 ($(wc -c <"$1") bytes), perf.data $(wc -c <perf.data) bytes, $(cat run.out)"

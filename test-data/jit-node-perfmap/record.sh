#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the jit-node-perfmap recording: node 20 with --perf-basic-prof
# (a perf map, /tmp/perf-PID.map, no jitdump) running acorn, a JavaScript
# parser written in JavaScript (npm acorn), parsing its own dist/acorn.js
# ROUNDS times:
#   npm ci    # package.json, package-lock.json: the exact version
#   perf record -N -k mono -e cpu-clock -F 999 -o perf.data node --perf-basic-prof parse.mjs ROUNDS
# in /tmp/hotblocks-rec/jit-node-perfmap. The map is moved here beside
# perf.data (restore.sh puts it back).
# Usage: record.sh [ROUNDS]   (default 60; needs root or perf_event_paranoid <= 1)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
rounds=${1:-60}
rec=/tmp/hotblocks-rec/jit-node-perfmap

rm -rf "$rec"
mkdir -p "$rec"
cp "$here/parse.mjs" "$here/package.json" "$here/package-lock.json" "$rec/"
cd "$rec"
npm ci --silent --no-audit --no-fund
{ node --version; node -p 'process.versions.v8'; } >node-version.txt
perf record -q -N -k mono -e cpu-clock -F 999 -o perf.data node --perf-basic-prof parse.mjs "$rounds" >run.out
pid=$(sed -n 's/^pid \([0-9]*\) .*/\1/p' run.out)
chmod 644 perf.data "/tmp/perf-$pid.map"
rm -f "$here"/perf-*.map
mv "/tmp/perf-$pid.map" "$here/"
cp perf.data run.out node-version.txt "$here/"
echo "recorded $rec/perf.data ($(wc -c <perf.data) bytes), pid $pid, map $(wc -l <"$here/perf-$pid.map") lines"

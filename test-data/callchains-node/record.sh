#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the callchains-node recording: Debian's node (/usr/bin/node,
# built with frame pointers and a symbol table), interpreting work.js with
# --jitless (every instruction is node's own native code: V8's bytecode
# handlers, its C++ and OpenSSL's SHA-256), recorded with callchains:
#   perf record -g -e cpu-clock:u -F 999 -o perf.data -- node --jitless --single-threaded work.js
# in /tmp/hotblocks-rec/callchains-node. Usage: record.sh [OUTDIR] (default:
# this directory; needs root or perf_event_paranoid <= 1). restore.sh calls
# it with that directory when this machine's node or libc is another build.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$here}
rec=/tmp/hotblocks-rec/callchains-node

mkdir -p "$rec"
cd "$rec"
rm -f perf.data
perf record -q -g -e cpu-clock:u -F 999 -o perf.data -- node --jitless --single-threaded "$here/work.js" >/dev/null 2>&1
chmod 644 perf.data
[ "$out" = "$rec" ] || cp perf.data "$out/"
echo "recorded $rec/perf.data ($(wc -c <perf.data) bytes)"

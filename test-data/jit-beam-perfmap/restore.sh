#!/bin/sh
# SPDX-License-Identifier: MIT
# Puts the jit-beam-perfmap recording where it ran (the tests run with a /tmp
# of their own): perf.data in /tmp/hotblocks-rec/jit-beam-perfmap, and the
# perf map where BeamAsm wrote it, /tmp/perf-PID.map (kept xz-compressed:
# the names of every module loaded at boot). The last line on stdout is
# "committed".
set -eu

here=$(cd "$(dirname "$0")" && pwd)
rec=/tmp/hotblocks-rec/jit-beam-perfmap

rm -rf "$rec"
mkdir -p "$rec"
cp "$here/perf.data" "$here/../jit-beam/hot.erl" "$rec/"
for f in "$here"/perf-*.map.xz; do
	b=${f##*/}
	xz -dc "$f" >"/tmp/${b%.xz}"
done
echo committed

#!/bin/sh
# SPDX-License-Identifier: MIT
# Puts the jit-beam recording where it ran (the tests run with a /tmp of their
# own): the jitdump and the perf map where BeamAsm wrote them,
# /tmp/jit-PID.dump and /tmp/perf-PID.map, also the dump as
# /tmp/hotblocks-rec/jit-beam/jit-PID.dump, and perf.data and hot.erl there.
# The last line on stdout is "committed".
set -eu

here=$(cd "$(dirname "$0")" && pwd)
rec=/tmp/hotblocks-rec/jit-beam

rm -rf "$rec"
mkdir -p "$rec"
cp "$here/perf.data" "$here/hot.erl" "$rec/"
# (both kept xz-compressed: 6.4 MB of dump, the code of every module loaded at boot)
for f in "$here"/jit-*.dump.xz "$here"/perf-*.map.xz; do
	b=${f##*/}
	xz -dc "$f" >"/tmp/${b%.xz}"
done
cp /tmp/jit-*.dump "$rec/"
echo committed

#!/bin/sh
# SPDX-License-Identifier: MIT
# Puts the jit-cpython312 recording where the tests read it: perf.data in
# /tmp/hotblocks-rec/jit-cpython312, and the perf map where CPython wrote it,
# /tmp/perf-<pid>.map (the tests run with a /tmp of their own). The last line
# on stdout is "committed".
set -eu

here=$(cd "$(dirname "$0")" && pwd)
rec=/tmp/hotblocks-rec/jit-cpython312

rm -rf "$rec"
mkdir -p "$rec"
cp "$here/perf.data" "$here/hot.py" "$rec/"
for m in "$here"/perf-*.map; do
	cp "$m" "/tmp/${m##*/}"
done
echo committed

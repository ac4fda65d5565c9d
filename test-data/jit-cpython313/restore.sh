#!/bin/sh
# SPDX-License-Identifier: MIT
# Puts the jit-cpython313 recording where it ran (the tests run with a /tmp of
# their own): the jitdump where CPython wrote it, /tmp/jit-PID.dump, also as
# /tmp/hotblocks-rec/jit-cpython313/jit-PID.dump, and perf.data and hot.py
# there. The last line on stdout is "committed".
set -eu

here=$(cd "$(dirname "$0")" && pwd)
rec=/tmp/hotblocks-rec/jit-cpython313

rm -rf "$rec"
mkdir -p "$rec"
cp "$here/perf.data" "$here/../jit-cpython312/hot.py" "$rec/"
for f in "$here"/jit-*.dump; do
	cp "$f" "/tmp/${f##*/}"
	cp "$f" "$rec/"
done
echo committed

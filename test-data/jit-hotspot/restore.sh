#!/bin/sh
# SPDX-License-Identifier: MIT
# Puts the jit-hotspot recording where it ran (in the tests' private /tmp):
# the jitdump at the path perf.data names (jitdump-path.txt: the agent's
# $JITDUMPDIR/.debug/jit/java-jit-DATE.XXXXXXXX/jit-PID.dump), also as
# /tmp/hotblocks-rec/jit-hotspot/jit-PID.dump, and perf.data and Hot.java
# beside it. The last line on stdout is "committed".
set -eu

here=$(cd "$(dirname "$0")" && pwd)
rec=/tmp/hotblocks-rec/jit-hotspot
path=$(cat "$here/jitdump-path.txt")

rm -rf "$rec"
mkdir -p "$rec" "${path%/*}"
cp "$here/perf.data" "$here/Hot.java" "$rec/"
for d in "$here"/jit-*.dump; do
	cp "$d" "$rec/"
	cp "$d" "$path"
done
echo committed

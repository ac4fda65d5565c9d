#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the fakejit test recording: scripts/tools/fakejit under perf record.
#
# Records inside /tmp/hotblocks-rec/fakejit so the jitdump path stored in
# perf.data is /tmp/hotblocks-rec/fakejit/jit-<pid>.dump (the tests recreate
# that directory), then copies perf.data and the dump back here; fakejit's
# own report (addresses, load times) goes to fakejit.out there.
# Usage: record.sh   (needs root or perf_event_paranoid <= 1)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
rec=/tmp/hotblocks-rec/fakejit

make -C "$top" build/tools/fakejit
rm -rf "$rec"
mkdir -p "$rec"
cd "$rec"
# -k mono: fakejit stamps jitdump records with CLOCK_MONOTONIC; perf inject
# (and hotblocks) can only line samples up with them when perf uses the same
# clock.  -N only keeps perf from copying binaries into ~/.debug; perf.data
# is the same with or without it.
perf record -N -k mono -e cpu-clock -F 4999 -o perf.data "$top/build/tools/fakejit" >fakejit.out
cat fakejit.out

set -- jit-*.dump
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
	echo "record.sh: expected exactly one jit-*.dump in $rec" >&2
	exit 1
fi
chmod 644 perf.data
rm -f "$here"/jit-*.dump
cp perf.data "$1" "$here/"
echo "recorded $rec/$1 ($(wc -c <"$1") bytes), perf.data $(wc -c <perf.data) bytes"

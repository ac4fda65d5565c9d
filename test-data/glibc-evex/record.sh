#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the glibc-evex test recording: a native program whose hot path is
# glibc's strlen, memchr, memcmp and strcmp over 48 KiB strings. On a CPU with
# AVX512VL and AVX512BW, glibc picks their EVEX (AVX-512) variants.
#
# Records inside /tmp/hotblocks-rec/glibc-evex (perf.data names the program
# there; the tests build it again at that path), then copies perf.data here.
# Usage: record.sh [SECONDS] [OUTDIR]   (default 2 and this directory; needs
# root or perf_event_paranoid <= 1). The tests call it with OUTDIR to record
# afresh when this machine's libc is not the one of the committed recording.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-2}
out=${2:-$here}
rec=/tmp/hotblocks-rec/glibc-evex

grep -qw avx512bw /proc/cpuinfo && grep -qw avx512vl /proc/cpuinfo || {
	echo "record.sh: this CPU lacks AVX512BW/AVX512VL: glibc would not use its EVEX string functions" >&2
	exit 1
}
rm -rf "$rec"
mkdir -p "$rec"
cp "$here/evex.c" "$rec/"
cd "$rec"
# -fno-builtin: every call is a real call into libc
gcc -O2 -g -fno-builtin -o evex evex.c
perf record -N -e cpu-clock -F 999 -o perf.data ./evex "$secs"
chmod 644 perf.data
[ "$out" = "$rec" ] || cp perf.data "$out/"
echo "recorded $rec/perf.data ($(wc -c <perf.data) bytes)"

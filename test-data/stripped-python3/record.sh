#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the stripped-python3 recording: Debian's python3.11 (stripped:
# its static functions have no symbol) running work.py, in
# /tmp/hotblocks-rec/stripped-python3:
#   perf record -N -e cpu-clock -F 499 -o perf.data -- /usr/bin/python3.11 work.py SECS
# Usage: record.sh [SECONDS] [OUTDIR]   (default 4 and this directory; needs
# root or perf_event_paranoid <= 1). restore.sh calls it with OUTDIR when
# this machine's python3.11 or its libraries are other builds.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-4}
out=${2:-$here}
rec=/tmp/hotblocks-rec/stripped-python3

rm -rf "$rec"
mkdir -p "$rec"
cp "$here/work.py" "$rec/"
cd "$rec"
perf record -q -N -e cpu-clock -F 499 -o perf.data -- /usr/bin/python3.11 work.py "$secs" >run.out
chmod 644 perf.data
[ "$out" = "$rec" ] || cp perf.data run.out "$out/"
echo "recorded $rec/perf.data ($(wc -c <perf.data) bytes)"

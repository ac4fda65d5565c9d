#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the plt-calls recording: plt.c and libstep.c built in
# /tmp/hotblocks-rec/plt-calls (perf.data names the files there; the tests
# build them again at that path, same compiler, same bytes), then
#   perf record -N -k mono -e cpu-clock -F 999 -o perf.data ./plt SECS
# Usage: record.sh [SECONDS] [OUTDIR]   (default 1 and this directory; needs
# root or perf_event_paranoid <= 1). restore.sh calls it with OUTDIR when
# this machine's compiler or libc makes other bytes than the recording's.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
secs=${1:-1}
out=${2:-$here}
rec=/tmp/hotblocks-rec/plt-calls

"$here/build.sh" "$rec"
cd "$rec"
perf record -q -N -k mono -e cpu-clock -F 999 -o perf.data ./plt "$secs" >run.out
chmod 644 perf.data
[ "$out" = "$rec" ] || cp perf.data run.out "$out/"
echo "recorded $rec/perf.data ($(wc -c <perf.data) bytes)"

#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the stripped-xz recording: Debian's xz (its liblzma.so.5 is
# stripped) compressing a generated text, in /tmp/hotblocks-rec/stripped-xz:
#   perf record -N -e cpu-clock -F 499 -o perf.data -- xz -6 -T1 -k -c input.txt
# Usage: record.sh [LINES] [OUTDIR]   (default 100000 lines of input, and this
# directory; needs root or perf_event_paranoid <= 1). restore.sh calls it with
# OUTDIR when this machine's xz or liblzma is another build.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
lines=${1:-100000}
out=${2:-$here}
rec=/tmp/hotblocks-rec/stripped-xz

rm -rf "$rec"
mkdir -p "$rec"
cd "$rec"
# Text that compresses like prose: numbers spelt out among a few words.
awk -v n="$lines" 'BEGIN {
	split("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu", w, " ")
	for (i = 1; i <= n; i++) {
		x = (i * 2654435761) % 4294967296
		printf "%s %d %s %s %d\n", w[x % 12 + 1], x % 1000, w[int(x / 12) % 12 + 1], w[int(x / 144) % 12 + 1], i
	}
}' >input.txt
perf record -q -N -e cpu-clock -F 499 -o perf.data -- xz -6 -T1 -k -c input.txt >/dev/null
chmod 644 perf.data
rm -f input.txt
[ "$out" = "$rec" ] || cp perf.data "$out/"
echo "recorded $rec/perf.data ($(wc -c <perf.data) bytes)"

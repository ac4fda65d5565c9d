#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-record the perf.data fixtures of this directory with the real perf (see README.md).
#   test-data/perfdata/record.sh      (from anywhere; needs perf and cpu-clock access)
# Recordings are made in /tmp/hotblocks-rec/perfdata so the recorded paths are
# stable, then copied here. The pids change on every run: update README.md and
# the expectations in plugin/tests/test-perfdata-scan.c from the printed lines.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
rec=/tmp/hotblocks-rec/perfdata
make -s -C "$top" build/tools/jitmarker
rm -rf "$rec"
mkdir -p "$rec"
cp "$top/build/tools/jitmarker" "$rec/"
cd "$rec"

perf record -k mono -e cpu-clock -F 1000 -o file.data ./jitmarker
perf record -k mono -e cpu-clock -F 1000 -o - ./jitmarker >pipe.data
perf record -z -k mono -e cpu-clock -F 1000 -o zstd.data ./jitmarker
# -m 1 (one 4 KiB data page) and -F 4000 make the ring buffer wrap, and a
# record cut by the wrap is split across two COMPRESSED records. Whether a
# cut happens depends on timing: retry until inspect.py sees one.
i=0
while :; do
	perf record -z -m 1 -k mono -e cpu-clock -F 4000 -o zstd-split.data ./jitmarker
	"$here/inspect.py" zstd-split.data | grep -q 'split=[1-9]' && break
	i=$((i + 1))
	[ $i -lt 20 ] || { echo "no split record in 20 tries" >&2; exit 1; }
done

# perf record --threads writes a directory: data (the header file) + data.<n>.
perf record --threads -k mono -e cpu-clock -F 1000 -o threads.data ./jitmarker

rm -rf "$here/threads.data"
for f in file.data pipe.data zstd.data zstd-split.data threads.data; do
	cp -R "$f" "$here/$f"
	chmod -R u+rwX,go+rX "$here/$f"
	echo "== $f"
	perf report -D -i "$f" 2>/dev/null | grep -E 'PERF_RECORD_MMAP2? .*/jit-[0-9]+\.dump$' || true
	perf report --stats -i "$f" 2>/dev/null | grep -E 'TOTAL events|COMPRESSED events' || true
done
"$here/inspect.py" zstd.data zstd-split.data

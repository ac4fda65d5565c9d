#!/bin/sh
# SPDX-License-Identifier: MIT
# Re-creates the wasmtime-style recording of module.cwasm under real perf
# (an imitation: README.md; the real wasmtime's are in ../wasmtime-real).
#
#   cwasm/    the reference's own flow (`wasmtime hot-blocks` runs perf record
#             -e <event> --no-buildid [-F N] -- wasmtime run --allow-precompiled
#             --profile=perfmap ...), recorded in /tmp/hotblocks-rec/wasmtime-cwasm
#
# The code runs from the file-backed mapping of
# /tmp/hotblocks-rec/<dir>/module.cwasm (a copy of test-data/wasmtime/module.cwasm,
# also kept next to perf.data).  cpu-clock: this machine has no PMU.
# Usage: record.sh [SECONDS]   (default 1; needs root or perf_event_paranoid <= 1)
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
secs=${1:-1}
runner=$top/build/tools/cwasm-run

make -C "$top" --no-print-directory build/tools/cwasm-run

record() {	# record NAME PROFILE PERF-RECORD-OPTIONS...
	name=$1 profile=$2
	shift 2
	rec=/tmp/hotblocks-rec/wasmtime-$name
	rm -rf "$rec"
	mkdir -p "$rec"
	cp "$here/module.cwasm" "$rec/module.cwasm"
	cd "$rec"
	perf record "$@" -o perf.data -- "$runner" run --allow-precompiled \
		--profile="$profile" "$rec/module.cwasm" "$secs" >run.out
	cat run.out
	pid=$(perf script -i perf.data -F pid 2>/dev/null | awk 'NR == 1 { print $1 }')
	chmod 644 perf.data
	rm -rf "${here:?}/$name"
	mkdir -p "$here/$name"
	cp perf.data module.cwasm run.out "$here/$name/"
	[ ! -f jit-"$pid".dump ] || cp jit-"$pid".dump "$here/$name/"
	# The perf map is only kept here: perf never uses it for file-backed code.
	[ ! -f /tmp/perf-"$pid".map ] || mv /tmp/perf-"$pid".map "$here/$name/"
	echo "recorded $rec (pid $pid): $(ls "$here/$name" | tr '\n' ' ')"
	cd "$here"
}

record cwasm perfmap -e cpu-clock --no-buildid -F 4999

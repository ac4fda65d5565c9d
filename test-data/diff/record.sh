#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes the recordings of test-data/diff (README.md says what each is) with
# real clang, node, wasmtime and perf:
#
#   record.sh modules     rebuild base.wasm and changed.wasm from kernels.c only
#   record.sh [CASE...]   record CASE (default: all): v8-base, v8-changed,
#                         v8-changed-2, v8-base-2 .. v8-base-7, wasmtime-O0,
#                         wasmtime-O2, wasmtime-O2-2 .. wasmtime-O2-8, wasmtime-50
#
# wasmtime-50 needs the wasmtime 50.0.1 CLI, which is on no wheel:
# WASMTIME50=PATH names it (built with cargo install, as
# test-data/wasmtime-real/README.md says).
#
# Each CASE runs in R = /tmp/hotblocks-rec/diff/CASE, the path its perf.data
# names (the jitdump's path; for wasmtime also the .cwasm's and the binary's),
# and is copied to CASE/ here. Needs root or perf_event_paranoid <= 1.
# cpu-clock: the recording machine has no PMU.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
rec=/tmp/hotblocks-rec/diff
freq=1999

modules() {
	# -g: DWARF, for the [Source] column of the wasmtime reports.
	clang --target=wasm32 -O2 -g -nostdlib -Wl,--no-entry -o "$here/base.wasm" "$here/kernels.c"
	clang --target=wasm32 -O2 -g -nostdlib -Wl,--no-entry -DCHANGED -o "$here/changed.wasm" \
		"$here/kernels.c"
}

# v8 CASE MODULE [CALLS [print]]: node runs MODULE's run(50) for a second, or
# CALLS times (3000: run(150000), as wasmtime's _start). print: V8 also
# prints the code it compiles (--print-wasm-code), kept as wasm-code.txt.
v8() {
	r=$rec/$1
	rm -rf "$r" "${here:?}/$1"
	mkdir -p "$r" "$here/$1"
	cp "$here/run.js" "$here/$2" "$r/"
	secs=1
	[ -z "${3:-}" ] || secs=10
	print=
	[ "${4:-}" != print ] || print=--print-wasm-code
	# --perf-basic-prof-only-functions: JavaScript and wasm code only, not
	# the 2000-odd builtins V8 logs at start-up (a 30 KB dump, not 2 MB).
	(cd "$r" && perf record -q -N -k mono -e cpu-clock -F $freq -o perf.data \
		node --perf-prof --perf-basic-prof-only-functions $print run.js "$2" $secs ${3:-} \
		>stdout)
	# run.js's one line; the rest is V8's listing
	grep '^pid [0-9]* calls ' "$r/stdout" >"$r/run.out"
	node --version >>"$r/run.out"
	chmod 644 "$r/perf.data"
	cp "$r/perf.data" "$r"/jit-*.dump "$r/run.out" "$here/$1/"
	[ -z "$print" ] || grep -v '^pid [0-9]* calls ' "$r/stdout" >"$here/$1/wasm-code.txt"
	rm -rf "$r"
}

# wasmtime CASE OPT [SAME [BIN]]: the real wasmtime (48.0.2, or BIN)
# compiles base.wasm with -O opt-level=OPT and runs its _start. SAME: a case
# recorded before with the same module, whose .cwasm and CLIF this one's must
# equal (they are kept once); "-" for none.
wasmtime() {
	r=$rec/$1
	wt=${4:-$top/build/wasmtime/cli-48.0.2/wasmtime}
	[ -x "$wt" ] || "$top/scripts/get-wasmtime"
	rm -rf "$r" "${here:?}/$1"
	mkdir -p "$r/bin" "$r/clif" "$here/$1"
	# The binary runs from a fixed path too (perf.data names it).
	cp "$wt" "$r/bin/wasmtime"
	cp "$here/base.wasm" "$r/"
	"$r/bin/wasmtime" compile -O opt-level="$2" -D address-map=y --emit-clif "$r/clif" \
		-o "$r/module.cwasm" "$r/base.wasm"
	# A .cwasm runs only under the configuration it was compiled with.
	(cd "$r" && perf record -q -N -k mono -e cpu-clock -F $freq -o perf.data -- \
		"$r/bin/wasmtime" run --allow-precompiled --profile=jitdump -O opt-level="$2" \
		"$r/module.cwasm" >run.out)
	"$r/bin/wasmtime" --version >>"$r/run.out"
	chmod 644 "$r/perf.data"
	cp "$r/perf.data" "$r"/jit-*.dump "$r/run.out" "$here/$1/"
	if [ "${3:--}" != - ]; then
		# wasmtime compiles deterministically: the same bytes as SAME's,
		# but for the engine's record of the host's CPU features (a VM
		# can move to another host: has_avx_vnni changed between runs).
		objcopy --remove-section .wasmtime.engine "$r/module.cwasm" "$r/this.code"
		objcopy --remove-section .wasmtime.engine "$here/$3/module.cwasm" "$r/same.code"
		cmp "$r/this.code" "$r/same.code"
		for f in "$here/$3"/clif/*.clif; do cmp "$f" "$r/clif/${f##*/}"; done
	else
		mkdir -p "$here/$1/clif"
		cp "$r/module.cwasm" "$here/$1/"
		# Only the CLIF of the functions (the trampolines are not sampled).
		cp "$r"/clif/wasm*function*.clif "$here/$1/clif/"
	fi
	rm -rf "$r"
}

record() {
	case $1 in
	v8-base) v8 "$1" base.wasm ;;
	v8-changed | v8-changed-2) v8 "$1" changed.wasm ;;
	v8-base-2) v8 "$1" base.wasm 3000 print ;;
	v8-base-[3-7]) v8 "$1" base.wasm 3000 ;;
	wasmtime-O0) wasmtime "$1" 0 ;;
	wasmtime-O2) wasmtime "$1" 2 ;;
	wasmtime-O2-[2-8]) wasmtime "$1" 2 wasmtime-O2 ;;
	wasmtime-50) wasmtime "$1" 2 - "${WASMTIME50:?WASMTIME50=PATH: the wasmtime 50.0.1 CLI}" ;;
	*) echo "record.sh: no case '$1'" >&2; exit 2 ;;
	esac
	echo "recorded $1: $(du -sh "$here/$1" | cut -f1)"
}

case ${1:-all} in
modules) modules ;;
all)
	for c in v8-base v8-changed v8-changed-2 v8-base-2 v8-base-3 v8-base-4 v8-base-5 \
		v8-base-6 v8-base-7 wasmtime-O0 wasmtime-O2 wasmtime-O2-2 wasmtime-O2-3 \
		wasmtime-O2-4 wasmtime-O2-5 wasmtime-O2-6 wasmtime-O2-7 wasmtime-O2-8 wasmtime-50; do
		record "$c"
	done ;;
*) for c; do record "$c"; done ;;
esac

#!/bin/sh
# SPDX-License-Identifier: MIT
# Ranking drops each function's disassembly once its sums are taken and the
# report builds what it shows again (rank.h, cfg-text.h): the texts of the
# rows it shows one instruction at a time, a whole function by disassembling
# it once more. That is only right if the same input gives the same
# disassembly. build/tools/redecode-check checks it, object by object, on
# streams of real code: every committed recording of test-data (V8's JS and
# wasm code, its OSR and jump tables, glibc's AVX-512 code, wasmtime's
# Cranelift code by jitdump and by its mapped .cwasm), the committed streams
# of Cranelift's aarch64, riscv64 and s390x code, and a stream that
# scripts/gen-big-stream makes of every code load of test-data's jitdumps.
# For each object: disassembled with and without text, the same instructions,
# blocks and tables; each instruction's text written alone, the text of the
# disassembly; ranked, then disassembled again, the same blocks, counts and
# ranks, and the rows ranking kept of its sampled blocks are its rows.
. "$(dirname "$0")/lib.sh"
need_private_tmp

tool=$top/build/tools/redecode-check
[ -x "$tool" ] || { not_ok "build/tools/redecode-check is built (make check builds it)"; echo "1..$tap_n"; exit 0; }

recheck() {	# NAME STREAM...
	rc_n=$1 rc_f=$tmp/$(echo "$1" | tr -c 'a-zA-Z0-9.\n-' _)
	shift
	if "$tool" "$@" >"$rc_f.out" 2>"$rc_f.err"; then
		ok "$rc_n: $(cat "$rc_f.out")"
	else
		not_ok "$rc_n: ranking's disassembly built again is the same" "$rc_f.err"
	fi
}

for r in fakejit v8-wasm v8-switch v8-osr v8-versions/node-18 v8-versions/node-22 \
	wasmtime-real/49.0.3/switch/jitdump wasmtime-real/50.0.1/f64/jitdump wasmtime/cwasm \
	diff/wasmtime-O2 per-thread/with-T; do
	s=$tmp/$(echo "$r" | tr / -).hbs
	if plugin_stream "$top/test-data/$r/perf.data" "$s" "jitdir=$top/test-data/$r" 2>"$tmp/plugin.err"; then
		recheck "$r" "$s"
	else
		not_ok "$r: perf script with the plugin" "$tmp/plugin.err"
	fi
done
restore_recording glibc-evex
plugin_stream "$(recording_data glibc-evex)" "$tmp/glibc-evex.hbs" 2>"$tmp/plugin.err" &&
	recheck glibc-evex "$tmp/glibc-evex.hbs" || not_ok "glibc-evex: perf script with the plugin" "$tmp/plugin.err"
for d in "$top"/test-data/cranelift-targets/*/; do
	[ -f "$d/stream.hbs" ] && recheck "cranelift-targets/$(basename "$d")" "$d/stream.hbs"
done
if "$top/scripts/gen-big-stream" --samples 30000 --functions 2000 -o "$tmp/gen.hbs" 2>"$tmp/gen.err"; then
	recheck "gen-big-stream --samples 30000 --functions 2000" "$tmp/gen.hbs"
else
	not_ok "gen-big-stream writes a stream" "$tmp/gen.err"
fi
echo "1..$tap_n"

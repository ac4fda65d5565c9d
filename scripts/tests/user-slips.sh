#!/bin/sh
# SPDX-License-Identifier: MIT
# What a new user gets wrong first, and what hotblocks says then:
#  1. giving hotblocks the recording (perf.data), the jitdump, a module or a
#     .cwasm instead of the stream: exit 1 and a message naming the file and
#     the command that makes the stream; plain `perf script` output on stdin
#     likewise;
#  2. --function with a short or other-version V8 name: a substring or a glob
#     selects (and a note says so), an exact name still wins, and a name that
#     selects nothing gets the nearest sampled names (node 18's recording, whose
#     names are `LazyCompile:*work ...`, test-data/v8-versions/README.md);
#  3. the plugin's count of stray JIT samples is worded for one sample, and
#     is a note, not a warning: a stub its JIT did not log is nothing wrong
#     (the v8-wasm recording has exactly 1, test-data/v8-wasm/README.md).
. "$(dirname "$0")/lib.sh"
need_private_tmp

rc_msg() {	# description expected-rc regex command...: exit status and a stderr line
	d2=$1 want=$2 re=$3; shift 3
	"$@" >"$tmp/out" 2>"$tmp/err"
	rc=$?
	if [ "$rc" -eq "$want" ] && grep -q -- "$re" "$tmp/err"; then
		ok "$d2"
	else
		echo "exit $rc" >>"$tmp/err"
		not_ok "$d2" "$tmp/err"
	fi
}

wpd=$top/test-data/v8-wasm/perf.data
rc_msg "hotblocks perf.data: exit 1, says it is a recording and how to make the stream" 1 \
	"error: $wpd is a perf.data recording, not a hotblocks stream: make the stream with perf script -i $wpd --dlfilter hotblocks.so | hotblocks" \
	"$POSTPROC" "$wpd"
rc_msg "hotblocks jit-PID.dump: exit 1, says it is a jitdump the plugin reads" 1 \
	"is a jitdump, not a hotblocks stream: the plugin reads it" "$POSTPROC" "$top"/test-data/v8-wasm/jit-*.dump
rc_msg "hotblocks module.wasm: exit 1, says it goes with --wasm" 1 \
	"is a WebAssembly module, not a hotblocks stream (it goes with --wasm" "$POSTPROC" "$top/test-data/v8-wasm/hot.wasm"
rc_msg "hotblocks module.cwasm: exit 1, says it goes with --cwasm" 1 \
	"is an ELF file, not a hotblocks stream (a wasmtime .cwasm goes with --cwasm" \
	"$POSTPROC" "$top/test-data/cwasm/fib-x86_64.cwasm"
perf --no-pager script -i "$top/test-data/fakejit/perf.data" 2>/dev/null | head -20 >"$tmp/plain.txt"
rc_msg "plain perf script output on stdin: exit 1, says what hotblocks reads" 1 \
	"<stdin>:1: .*hotblocks reads what perf script --dlfilter hotblocks.so writes" \
	sh -c '"$1" <"$2"' - "$POSTPROC" "$tmp/plain.txt"

# --function on node 18's names.
case=v8-versions/node-18
restore_recording "$case"
plugin_stream "$top/test-data/$case/perf.data" "$tmp/n18.hbs" 2>/dev/null
rm -rf "/tmp/hotblocks-rec/$case"
rmdir /tmp/hotblocks-rec/v8-versions 2>/dev/null
funcs() { sed -n 's/^`\(.*\)` :: block 0x[0-9a-f]* :: .*/\1/p' "$1" | sort -u | tr '\n' '|'; }
full='LazyCompile:*work /tmp/hotblocks-rec/v8-versions/node-18/hot.js:5'
"$POSTPROC" -p 100 --function "$full" "$tmp/n18.hbs" >"$tmp/f1" 2>"$tmp/f1.err"
check "--function FULL-NAME selects that function only, no note" \
	sh -c "test '$(funcs "$tmp/f1")' = '$full|' && ! grep -q -- '--function' '$tmp/f1.err'"
"$POSTPROC" -p 100 --function work "$tmp/n18.hbs" >"$tmp/f2" 2>"$tmp/f2.err"
check "--function work: a substring selects both tiers of work(), and a note says so" \
	sh -c "test '$(funcs "$tmp/f2")' = 'Function:^work /tmp/hotblocks-rec/v8-versions/node-18/hot.js:5|$full|' &&
		grep -q \"note: --function 'work' is no exact name: 2 sampled code objects whose names contain it\" '$tmp/f2.err'"
"$POSTPROC" -p 100 --function '*:[*]work *' "$tmp/n18.hbs" >"$tmp/f3" 2>"$tmp/f3.err"
check "--function '*:[*]work *': a glob selects the TurboFan work() only" \
	sh -c "test '$(funcs "$tmp/f3")' = '$full|' && grep -q 'sampled code object the glob matches' '$tmp/f3.err'"
"$POSTPROC" -p 100 --function 'JS:*work' "$tmp/n18.hbs" >"$tmp/f4" 2>"$tmp/f4.err"
check "--function 'JS:*work' (node 20's name) on node 18: no blocks, the nearest names suggested" \
	sh -c "test -z '$(funcs "$tmp/f4")' &&
		grep -q \"note: no sampled code object matches 'JS:\\*work' (as a name, a glob or a substring); the nearest:\" '$tmp/f4.err' &&
		grep -qF \"note:   '$full' (\" '$tmp/f4.err'"

# The plugin's stray-sample note in the singular.
restore_recording v8-wasm
plugin_stream "$wpd" "$tmp/w.hbs" 2>"$tmp/w.err"
check "the plugin notes '1 sample ... matched no jitdump code load', and that the dump was read" \
	grep -q "^hotblocks: note: 1 sample in JIT-looking memory matched no jitdump code load (1 jitdump read" "$tmp/w.err"
check "... and warns of nothing" sh -c "! grep -q 'warning' '$tmp/w.err'"

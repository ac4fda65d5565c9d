#!/bin/sh
# SPDX-License-Identifier: MIT
# What `perf hotblocks` writes and leaves, and how it finds what a run wrote:
#  1. record names the JIT dumps the run wrote wherever they are, as perf.data's
#     marker mappings name them (a JIT maps its jit-<pid>.dump so that perf
#     records where it is): fakejit run in another directory, and the real
#     BEAM (erl +JPperf true), which writes /tmp/jit-PID.dump and
#     /tmp/perf-PID.map (test-data/jit-beam/README.md); a note, not a false
#     warning; a warning only when the dump perf.data names is gone;
#  2. no leftovers in /tmp after any subcommand, with TMPDIR unset (its
#     temporary directory is mktemp's, removed at exit), the perf maps a
#     one-shot run's processes made included (node --perf-basic-prof, BEAM),
#     but never a map that was there before the run, even one with the pid of
#     a process the run started;
#  3. two runs at once: in the same directory, and two `wasm` runs filling
#     the same empty cache.
# The /tmp is this test's own (scripts/with-private-tmp); its listing is
# compared before and after each command, this test's own directory aside.
. "$(dirname "$0")/lib.sh"
need_private_tmp

script=$top/scripts/perf-hotblocks
fakejit=$top/build/tools/fakejit
real_wasmtime=$("$top/scripts/get-wasmtime" --print-dir)/cli-48.0.2/wasmtime
ph() { env -u TMPDIR "$script" "$@"; }
if ! [ -x "$fakejit" ]; then
	not_ok "build/tools/fakejit exists (make check builds it)"
	exit 0
fi

# Everything in /tmp but this test's own directory, one path a line.
tmp_now() { find /tmp -mindepth 1 -path "$tmp" -prune -o -print | sort; }
# leaves_nothing DESCRIPTION DIR COMMAND...: COMMAND, run in DIR, leaves /tmp
# as it was (the listing before and after, diffed).
leaves_nothing() {
	ln_d=$1 ln_dir=$2
	shift 2
	tmp_now >"$tmp/before"
	(cd "$ln_dir" && "$@") >"$tmp/ln.out" 2>"$tmp/ln.err"
	ln_rc=$?
	tmp_now >"$tmp/after"
	if diff -u "$tmp/before" "$tmp/after" >"$tmp/ln.diff"; then
		ok "$ln_d"
	else
		{ echo "exit $ln_rc"; cat "$tmp/ln.diff"; tail -5 "$tmp/ln.err"; } >"$tmp/ln.detail"
		not_ok "$ln_d" "$tmp/ln.detail"
	fi
}
# The functions of a report's blocks, one per line.
# shellcheck disable=SC2016
block_funcs() { sed -n 's/^`\(.*\)` :: block 0x[0-9a-f]* :: .*/\1/p' "$1"; }
fakejit_answer() {	# report: alpha, beta and gamma have blocks (test-data/fakejit/README.md)
	for f in alpha beta gamma; do
		block_funcs "$1" | grep -qx "$f" || { echo "no block of $f in:"; cat "$1"; return 1; }
	done
}

# 1. record: the dumps the run wrote, wherever.
mkdir "$tmp/a" "$tmp/elsewhere"
(cd "$tmp/a" && ph record -F 999 -- sh -c 'cd "$1" && exec "$2"' sh "$tmp/elsewhere" "$fakejit" \
	>/dev/null 2>"$tmp/else.err")
dump=$(ls "$tmp/elsewhere"/jit-*.dump 2>/dev/null)
check "record -- CMD that writes its dump in another directory: names that dump" sh -c \
	"test -n '$dump' && grep -qxF 'perf hotblocks: JIT dumps written: $dump' '$tmp/else.err'"
check "... and no false note that no dump was written" sh -c "! grep -q 'no JIT dump\|no jit-' '$tmp/else.err'"
ph report -i "$tmp/a/perf.data" -p 100 >"$tmp/else.out" 2>/dev/null
check "... and report -i finds it there (perf.data names it): alpha, beta and gamma" fakejit_answer "$tmp/else.out"
mkdir "$tmp/native"
(cd "$tmp/native" && ph record -F 999 -- sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done' \
	>/dev/null 2>"$tmp/native.err")
check "record of a program that writes no dump: a note that perf.data names none, no warning" sh -c \
	"grep -q '^perf hotblocks: no JIT dump written (perf.data names none)' '$tmp/native.err' &&
	! grep -q 'warning' '$tmp/native.err'"
mkdir "$tmp/gone"
(cd "$tmp/gone" && ph record -F 999 -- sh -c '"$1" && rm -f jit-*.dump' sh "$fakejit" \
	>/dev/null 2>"$tmp/gone.err")
check "record of a JIT whose dump is gone at the end: a warning naming it" \
	grep -q "^perf hotblocks: warning: perf.data names JIT dumps that are not there now: jit-[0-9]*\.dump;" \
	"$tmp/gone.err"

# BEAM: the real Erlang/OTP (Debian's erlang-base), +JPperf true.
if command -v erl >/dev/null 2>&1 && command -v erlc >/dev/null 2>&1; then
	mkdir "$tmp/beam"
	cp "$top/test-data/jit-beam/hot.erl" "$tmp/beam/"
	(cd "$tmp/beam" && erlc hot.erl)
	(cd "$tmp/beam" && ph record -F 999 -- erl +JPperf true -noshell -run hot main 1 >/dev/null 2>"$tmp/beam.err")
	pid=$(perf --no-pager script -i "$tmp/beam/perf.data" -F comm,pid 2>/dev/null | awk '$1 == "beam.smp" { print $2; exit }')
	check "record -- erl +JPperf true: names BEAM's /tmp/jit-PID.dump (PID beam.smp's in perf.data)" sh -c \
		"test -n '$pid' && grep -qxF 'perf hotblocks: JIT dumps written: /tmp/jit-$pid.dump' '$tmp/beam.err'"
	check "record -- erl +JPperf true: names its perf map, and no false note that no dump was written" sh -c \
		"grep -qxF 'perf hotblocks: perf maps written: /tmp/perf-$pid.map (the report reads them there)' '$tmp/beam.err' &&
		! grep -q 'no JIT dump\|no jit-' '$tmp/beam.err'"
	(cd / && ph report -i "$tmp/beam/perf.data" -p 100 >"$tmp/beam.out" 2>/dev/null)
	block_funcs "$tmp/beam.out" >"$tmp/beam.funcs"
	check "report of that recording: blocks of hot:loop/3, from the dump in /tmp" grep -q '^hot:loop/3' "$tmp/beam.funcs"
	rm -f "/tmp/jit-$pid.dump" "/tmp/perf-$pid.map"
	leaves_nothing "perf hotblocks -- erl +JPperf true: its /tmp/jit-PID.dump and /tmp/perf-PID.map removed" \
		"$tmp/beam" ph -v -p 100 -F 999 -- erl +JPperf true -noshell -run hot main 1
	block_funcs "$tmp/ln.out" >"$tmp/beam2.funcs"
	check "... after the report read them (hot:loop/3 has blocks)" grep -q '^hot:loop/3' "$tmp/beam2.funcs"
	check "... and -v said it removed them" \
		grep -q '^perf hotblocks: removed at exit: /tmp/jit-[0-9]*\.dump /tmp/perf-[0-9]*\.map$' "$tmp/ln.err"
else
	not_ok "record and the one-shot run on the real BEAM (erl not installed: apt-get install erlang-base)"
fi

# 2. No leftovers in /tmp, whatever the subcommand.
mkdir "$tmp/run"
leaves_nothing "perf hotblocks -- fakejit (TMPDIR unset): /tmp as it was" "$tmp/run" ph -p 100 -- "$fakejit"
check "... and the current directory as it was (its dump removed)" test -z "$(ls -A "$tmp/run")"
leaves_nothing "perf hotblocks -o FILE -- fakejit: /tmp as it was" "$tmp/run" ph -o kept.data -p 100 -- "$fakejit"
leaves_nothing "perf hotblocks record -- fakejit: /tmp as it was" "$tmp/run" ph record -o rec.data -- "$fakejit"
leaves_nothing "perf hotblocks report: /tmp as it was" "$tmp/run" ph report -i rec.data -p 100
leaves_nothing "perf hotblocks report --html -o: /tmp as it was" "$tmp/run" ph report -i rec.data --html -o r.html
leaves_nothing "perf hotblocks diff: /tmp as it was" "$tmp/run" ph diff -i rec.data -i kept.data
leaves_nothing "perf hotblocks report with a bad option: /tmp as it was" "$tmp/run" ph report -i rec.data --bogus
leaves_nothing "perf hotblocks -h: /tmp as it was" "$tmp/run" ph -h
leaves_nothing "perf hotblocks record of a program that fails to start: /tmp as it was" "$tmp/run" \
	ph record -o fail.data -- "$tmp/no-such-program"
# node --perf-basic-prof writes /tmp/perf-PID.map: the one-shot run removes it.
mkdir "$tmp/node"
leaves_nothing "perf hotblocks -- node --perf-basic-prof: its /tmp/perf-PID.map removed" "$tmp/node" \
	ph -v -p 100 -- node --perf-basic-prof "$top/test-data/srcline/hot.js"
check "... after the report (the map was the run's: -v says it removed it)" \
	grep -q '^perf hotblocks: removed at exit: /tmp/perf-[0-9]*\.map$' "$tmp/ln.err"
# A map that was there before is the user's, though its pid is a process of
# the run: maps for the next 3000 pids of this pid namespace (the test's own),
# so that node's is among them; node writes to it, the run leaves it.
last=$(cat /proc/sys/kernel/ns_last_pid 2>/dev/null || echo 0)
seq $((last + 1)) $((last + 3000)) | sed 's|^|/tmp/perf-|; s|$|.map|' | xargs touch
(cd "$tmp/node" && ph -p 100 -- node --perf-basic-prof -e \
	'console.log("pid " + process.pid); let h = 0; for (let i = 0; i < 3e7; i++) h = (h ^ i) * 16777619 >>> 0; console.log(h)' \
	>"$tmp/pre.out" 2>"$tmp/pre.err")
npid=$(sed -n 's/^pid //p' "$tmp/pre.err")
check "a /tmp/perf-PID.map there before the run, PID node's (a pid of the run), is left" sh -c \
	"test -n '$npid' && test '$npid' -gt '$last' && test '$npid' -le $((last + 3000)) && test -f '/tmp/perf-$npid.map'"
seq $((last + 1)) $((last + 3000)) | sed 's|^|/tmp/perf-|; s|$|.map|' | xargs rm -f
if [ -x "$real_wasmtime" ]; then
	mkdir -p "$tmp/wbin" "$tmp/wasm"
	ln -s "$real_wasmtime" "$tmp/wbin/wasmtime"
	leaves_nothing "perf hotblocks wasm MODULE: /tmp as it was" "$tmp/wasm" \
		env PATH="$tmp/wbin:$PATH" "$script" wasm -p 100 -F 999 "$top/test-data/wasmtime-real/fib.wasm"
	leaves_nothing "perf hotblocks wasm --keep DIR MODULE: /tmp as it was" "$tmp/wasm" \
		env PATH="$tmp/wbin:$PATH" "$script" wasm -p 100 -F 999 --keep kept "$top/test-data/wasmtime-real/fib.wasm"
fi

# 3. Two runs at once. In one directory: each finds its own dump and removes
# only that.
mkdir "$tmp/two"
tmp_now >"$tmp/before"
(cd "$tmp/two" && ph -p 100 -- "$fakejit" >"$tmp/two1.out" 2>"$tmp/two1.err") &
p1=$!
(cd "$tmp/two" && ph -p 100 -- "$fakejit" >"$tmp/two2.out" 2>"$tmp/two2.err") &
p2=$!
wait "$p1"
rc1=$?
wait "$p2"
rc2=$?
tmp_now >"$tmp/after"
check "two perf hotblocks -- fakejit at once in one directory: both exit 0" test "$rc1$rc2" = 00
check "... the first reports alpha, beta and gamma" fakejit_answer "$tmp/two1.out"
check "... the second too" fakejit_answer "$tmp/two2.out"
check "... and leave the directory and /tmp as they were" sh -c \
	"test -z \"\$(ls -A '$tmp/two')\" && diff -u '$tmp/before' '$tmp/after'"
# Two wasm runs at once with an empty cache: both compile, one entry is made
# (the other run's is dropped), and nothing half made is left.
if [ -x "$real_wasmtime" ]; then
	export HOTBLOCKS_CACHE_DIR="$tmp/cache2"
	for k in 1 2; do
		(cd "$tmp/wasm" && env PATH="$tmp/wbin:$PATH" "$script" wasm -p 100 -F 999 \
			"$top/test-data/wasmtime-real/fib.wasm" >"$tmp/w$k.out" 2>"$tmp/w$k.err") &
	done
	wait
	check "two perf hotblocks wasm at once, one empty cache: both report fib's back-edge" sh -c \
		"grep -q 'jmp     0xb  *jump block3(v17, v10, v11)  *br \$loop$' '$tmp/w1.out' &&
		grep -q 'jmp     0xb  *jump block3(v17, v10, v11)  *br \$loop$' '$tmp/w2.out'"
	check "... and the cache holds one whole entry, nothing half made" sh -c \
		"test \"\$(ls -A '$tmp/cache2/wasm' | wc -l)\" -eq 1 &&
		ls '$tmp/cache2/wasm' | grep -Eqx '[0-9a-f]{64}' && test -s '$tmp/cache2/wasm/'*/module.cwasm"
else
	tap_n=$((tap_n + 1))
	echo "ok $tap_n - wasm runs # SKIP wasmtime not installed: run scripts/get-wasmtime"
fi
echo "1..$tap_n"

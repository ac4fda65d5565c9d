#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes every file of test-data/wasmtime-real from src/ with the real wasmtime
# (scripts/get-wasmtime installs the pinned CLIs), real clang and jco, and
# real perf. README.md says what each file is.
#
#   record.sh modules          rebuild the .wasm files from src/ only
#   record.sh [VERSION [PROG]] compile, record and run `wasmtime hot-blocks`:
#                              VERSION 48.0.2 or 46.0.1, PROG fib, switch,
#                              wasi or component (default: every pair kept)
#
# For VERSION V and PROG P everything runs in R = /tmp/hotblocks-rec/wasmtime-V-P
# (the path the perf.data files name); the results go to V/P/ here:
#   module.cwasm, clif/   wasmtime compile -D address-map=y --emit-clif R/clif -o R/module.cwasm
#   jitdump/              perf record -N -k mono ... wasmtime run --allow-precompiled --profile=jitdump
#   perfmap/              perf record -N -k mono ... wasmtime run --allow-precompiled --profile=perfmap
#   reference/            wasmtime hot-blocks -p 100 -F 1999 ...: its printed text, and the
#                         perf.data and .cwasm it made itself (a `perf` on PATH that passes
#                         every call through to the real perf keeps a copy of its temporary
#                         directory, TMPDIR=R/ref, before wasmtime deletes it)
# Needs root or perf_event_paranoid <= 1. cpu-clock: the recording machine has no PMU
# (perf itself falls back from the reference's default cpu-cycles to cpu-clock).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
jco=$top/build/jco/node_modules/.bin/jco
freq=1999

modules() {
	[ -x "$jco" ] || npm install --prefix "$top/build/jco" --no-audit --no-fund \
		--loglevel=error @bytecodealliance/jco@1.35.0
	# The wat crate, as `wasmtime hot-blocks` itself uses for .wat input.
	"$jco" parse "$here/src/fib.wat" -o "$here/fib.wasm"
	# -g: the [Source] column; the padding function has no locations lists to speak of.
	clang --target=wasm32 -O2 -g -nostdlib -Wl,--no-entry -o "$here/switch.wasm" "$here/src/switch.c"
	# Debian's wasi-libc; its own DWARF is dropped (the component keeps the name section).
	clang --target=wasm32-wasi -O2 -Wl,--strip-debug -o "$here/wasi.wasm" "$here/src/wasi.c"
	# A WASI preview 2 component: the command adapter that jco bundles wraps wasi.wasm.
	"$jco" new "$here/wasi.wasm" --wasi-command -o "$here/wasi.component.wasm"
}

module_of() { case $1 in fib) echo fib.wasm ;; switch) echo switch.wasm ;;
	wasi) echo wasi.wasm ;; component) echo wasi.component.wasm ;; esac; }
# The program arguments (about half a second of work; fib and switch have theirs built in).
run_args() { case $1 in wasi | component) echo 100000 ;; *) ;; esac; }

record_one() {	# VERSION PROG
	v=$1 p=$2
	wt=$top/build/wasmtime/cli-$v/wasmtime
	[ -x "$wt" ] || "$top/scripts/get-wasmtime"
	r=/tmp/hotblocks-rec/wasmtime-$v-$p
	out=$here/$v/$p
	rm -rf "$r" "$out"
	mkdir -p "$r/jitdump" "$r/perfmap" "$r/ref" "$r/bin" "$out/jitdump" "$out/perfmap" "$out/reference"
	# The binary runs from a fixed path too (perf.data names it).
	cp "$wt" "$r/bin/wasmtime"
	wt=$r/bin/wasmtime
	m=$here/$(module_of "$p")
	cp "$m" "$r/"
	m=$r/$(basename "$m")
	# shellcheck disable=SC2046
	set -- $(run_args "$p")
	args="$*"
	if [ "$p" = component ]; then
		# --emit-clif panics on this component: the command adapter's function
		# `wasi:cli/run@0.2.12#run` names a CLIF file in a directory that does not
		# exist. So no CLIF here, and `wasmtime hot-blocks` (which always emits
		# CLIF) cannot profile it at all; reference/ keeps what it said.
		"$wt" compile -D address-map=y -o "$r/module.cwasm" "$m"
	else
		"$wt" compile -D address-map=y --emit-clif "$r/clif" -o "$r/module.cwasm" "$m"
	fi
	for prof in jitdump perfmap; do
		(cd "$r/$prof" &&
		 # shellcheck disable=SC2086
		 perf record -q -N -k mono -e cpu-clock -F $freq -o perf.data -- \
			"$wt" run --allow-precompiled --profile=$prof "$r/module.cwasm" $args \
			>run.out 2>run.err)
		pid=$(perf script -i "$r/$prof/perf.data" -F pid 2>/dev/null | awk 'NR == 1 { print $1 }')
		[ ! -f "/tmp/perf-$pid.map" ] || mv "/tmp/perf-$pid.map" "$r/$prof/"
		chmod 644 "$r/$prof/perf.data"
		cp "$r/$prof"/* "$out/$prof/"
	done
	# The reference, with a pass-through perf that keeps what it made.
	cat >"$r/bin/perf" <<SHIM
#!/bin/sh
/usr/bin/env PATH="$PATH" perf "\$@"
rc=\$?
if [ "\$1" = record ]; then
	for a; do case \$a in */perf.data) d=\${a%/perf.data} ;; esac; done
	cp -R "\$d" "$r/ref/saved" && echo "\$d" >"$r/ref/tmpdir"
fi
echo "perf \$*" >>"$r/ref/perf-commands"
exit \$rc
SHIM
	chmod 755 "$r/bin/perf"
	rc=0
	# shellcheck disable=SC2086
	(cd "$r/ref" && PATH="$r/bin:$PATH" TMPDIR="$r/ref" RUST_BACKTRACE=0 "$wt" hot-blocks -p 100 \
		-F $freq "$m" $args >hot-blocks.txt 2>hot-blocks.err) || rc=$?
	echo "$rc" >"$out/reference/exit-status"
	cp "$r/ref/hot-blocks.txt" "$r/ref/hot-blocks.err" "$out/reference/"
	if [ "$rc" = 0 ]; then
		cp "$r/ref/perf-commands" "$r/ref/tmpdir" "$out/reference/"
		chmod 644 "$r/ref/saved/perf.data"
		cp "$r/ref/saved/perf.data" "$out/reference/"
		# Same compiler, same flags: the reference's own .cwasm and CLIF must be
		# the ones `wasmtime compile` wrote; only one copy is kept.
		cmp "$r/ref/saved/module.cwasm" "$r/module.cwasm"
		diff -r "$r/ref/saved/clif" "$r/clif"
	fi
	cp "$r/module.cwasm" "$out/"
	# CLIF of the functions some recording sampled (and of every trampoline);
	# the others are listed in clif-omitted.txt (size, sha256) to keep test-data small.
	if [ -d "$r/clif" ]; then
		mkdir -p "$out/clif"
		# (the reference's temporary .cwasm is put back for perf to read its symbols)
		[ ! -f "$r/ref/tmpdir" ] || { mkdir -p "$(cat "$r/ref/tmpdir")" && cp "$r/module.cwasm" "$(cat "$r/ref/tmpdir")/"; }
		for f in jitdump/perf.data perfmap/perf.data reference/perf.data; do
			[ -f "$out/$f" ] && perf script -i "$out/$f" -F ip,sym,dso 2>/dev/null | grep 'module\.cwasm)$'
		done | sed 's/^ *[0-9a-f]* //; s/ (.*//' | sort -u | tr ':' '-' >"$r/sampled"
		: >"$out/clif-omitted.txt"
		for f in "$r/clif"/*.clif; do
			b=$(basename "$f" .clif)
			case $b in wasm*function*) ;; *) cp "$f" "$out/clif/"; continue ;; esac
			if grep -qxF "$b" "$r/sampled"; then cp "$f" "$out/clif/"
			else echo "$(wc -c <"$f") $(sha256sum "$f" | cut -d' ' -f1) $(basename "$f")" >>"$out/clif-omitted.txt"; fi
		done
	fi
	"$wt" --version >"$out/wasmtime-version"
	echo "recorded $out: $(du -sh "$out" | cut -f1)"
	rm -rf "$r"
}

case ${1:-all} in
modules) modules ;;
all)
	for v in 48.0.2 46.0.1; do
		for p in fib switch wasi component; do
			[ "$v" = 46.0.1 ] && { [ "$p" = wasi ] || [ "$p" = component ]; } && continue
			record_one "$v" "$p"
		done
	done ;;
*) if [ $# -ge 2 ]; then record_one "$1" "$2"; else
	for p in fib switch wasi component; do record_one "$1" "$p"; done; fi ;;
esac

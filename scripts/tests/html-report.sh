#!/bin/sh
# SPDX-License-Identifier: MIT
# hotblocks --html in a real browser (headless Chromium, through
# scripts/tests/browser-check.mjs) and hotblocks --dot in Graphviz's own dot,
# on real recordings of test-data/: V8 running WebAssembly (v8-wasm, the
# default report), V8's jump table (v8-switch, also --all), the real wasmtime
# with the CLIF, Wasm and Source columns (wasmtime-real 48.0.2 switch), and
# a native program (glibc-evex). For each page:
#  - the browser: it loads from disk, asks the network for nothing, logs no
#    error; a section, a table row and a graph per function; every block has
#    its box; keys n and Escape, a click on a box marks its block, a click on
#    a block its box, a jump's link its target; the filter hides and shows;
#    zoom; the CLIF/Wasm/Source cells where the recording has them; a
#    screenshot of the window as the checks left it
#    (build/browser-shots/html-CASE.png, a build artefact);
#  - the numbers the page shows (dumped from the browser) are the JSON
#    report's: totals, classes, the functions in order with their samples,
#    every block (start, end, samples, rank, shown) and every instruction
#    (offset, samples, text) as --json --all has them; the shares of the
#    shown blocks and their rows as the text report prints them
#    (scripts/tests/html-report.js);
#  - dot -Tsvg reads hotblocks --dot of the same report and draws a graph per
#    drawn function with the page's boxes.
. "$(dirname "$0")/lib.sh"
need_private_tmp

checker=$top/scripts/tests/html-report.js
shots=$top/build/browser-shots
mkdir -p "$shots"

# page CASE STREAM [columns] -- OPTIONS...: every check above on one report.
# (Its variables are pg_*: lib.sh's check uses d.)
page() {
	pg_c=$1 pg_s=$2 pg_cols=
	shift 2
	[ "${1:-}" = columns ] && { pg_cols=columns; shift; }
	[ "${1:-}" = -- ] && shift
	pg_d=$tmp/$pg_c
	mkdir -p "$pg_d"
	if ! "$POSTPROC" --html "$@" "$pg_s" >"$pg_d/page.html" 2>"$pg_d/err" ||
		! "$POSTPROC" --json "$@" "$pg_s" >"$pg_d/shown.json" 2>>"$pg_d/err" ||
		! "$POSTPROC" --json --all "$@" "$pg_s" >"$pg_d/all.json" 2>>"$pg_d/err" ||
		! "$POSTPROC" "$@" "$pg_s" >"$pg_d/text.txt" 2>>"$pg_d/err"; then
		not_ok "$pg_c: hotblocks writes the page and the reports to compare it with" "$pg_d/err"
		return
	fi
	# --all: the page lists what --json --all does
	case " $* " in *" --all "*) cp "$pg_d/all.json" "$pg_d/shown.json" ;; esac
	# shellcheck disable=SC2086
	if ! node "$checker" spec "$pg_d/shown.json" "$pg_d/all.json" "$pg_d/spec.json" $pg_cols \
		2>"$pg_d/spec.err"; then
		not_ok "$pg_c: the browser checks are written" "$pg_d/spec.err"
		return
	fi
	rm -f "$shots/html-$pg_c.png"
	browser_check --view "$shots/html-$pg_c.png" --dump "$pg_d/dump.json" \
		"$pg_d/page.html" "$pg_d/spec.json" >"$pg_d/browser.out" 2>&1
	tap_relay "$pg_d/browser.out" "$pg_c: " || not_ok "$pg_c: the browser ran the page" "$pg_d/browser.out"
	check "$pg_c: the screenshot is a PNG" \
		test "$(od -An -tx1 -N8 "$shots/html-$pg_c.png" 2>/dev/null | tr -d ' \n')" = 89504e470d0a1a0a
	if [ -s "$pg_d/dump.json" ]; then
		node "$checker" check "$pg_d/dump.json" "$pg_d/shown.json" "$pg_d/all.json" "$pg_d/text.txt" \
			>"$pg_d/numbers.out" 2>&1
		tap_relay "$pg_d/numbers.out" "$pg_c: " || not_ok "$pg_c: the numbers were compared" "$pg_d/numbers.out"
	else
		not_ok "$pg_c: the page's numbers were dumped" "$pg_d/browser.out"
	fi
	dot_check "$pg_c" "$pg_s" "$@"
}

# dot_check CASE STREAM OPTIONS...: Graphviz's dot draws each digraph, with
# as many nodes as the page has boxes for that function.
dot_check() {
	dc_c=$1 dc_s=$2 dc_d=$tmp/$1
	shift 2
	"$POSTPROC" --dot "$@" "$dc_s" >"$dc_d/graphs.gv" 2>"$dc_d/dot.err" &&
		dot -Tsvg "$dc_d/graphs.gv" >"$dc_d/graphs.svg" 2>>"$dc_d/dot.err"
	dc_rc=$?
	# One SVG document per digraph: the nodes of each, in order.
	awk '/^<svg / { if (n != "") print n; n = 0 } /<g id="[^"]*" class="node/ { n++ } END { if (n != "") print n }' \
		"$dc_d/graphs.svg" >"$dc_d/dot.nodes" 2>/dev/null
	node -e '
	const d = JSON.parse(require("fs").readFileSync(process.argv[1]));
	for (const f of d.functions) if (f.boxes !== null) console.log(f.boxes);' "$dc_d/dump.json" \
		>"$dc_d/page.boxes" 2>/dev/null
	if [ "$dc_rc" -eq 0 ] && [ -s "$dc_d/dot.nodes" ] && cmp -s "$dc_d/dot.nodes" "$dc_d/page.boxes"; then
		ok "$dc_c: dot -Tsvg draws hotblocks --dot: $(wc -l <"$dc_d/dot.nodes") graphs with the page's boxes"
	else
		{ cat "$dc_d/dot.err"; echo "dot's nodes per graph:"; cat "$dc_d/dot.nodes"
		  echo "the page's boxes:"; cat "$dc_d/page.boxes"; } >"$dc_d/dot.out"
		not_ok "$dc_c: dot -Tsvg draws hotblocks --dot with the page's boxes" "$dc_d/dot.out"
	fi
}

stream() {	# case: its stream in $tmp/CASE.hbs
	restore_recording "$1"
	plugin_stream "$(recording_data "$1")" "$tmp/$1.hbs" 2>"$tmp/$1.plugin.err" ||
		not_ok "$1: perf script with the plugin" "$tmp/$1.plugin.err"
}

stream v8-wasm
page v8-wasm "$tmp/v8-wasm.hbs"

stream v8-switch
page v8-switch "$tmp/v8-switch.hbs"
# every sampled function (52), each with its graph and whole listing
page v8-switch-all "$tmp/v8-switch.hbs" -- --all
# The TurboFan switch: its jump table's cases and the loop around it are drawn.
node -e '
const d = JSON.parse(require("fs").readFileSync(process.argv[1]));
const e = d.functions[0].edges;
process.exit(e.case >= 8 && e.back >= 1 && e.taken >= 1 && e.fallthrough >= 1 ? 0 : 1);' \
	"$tmp/v8-switch/dump.json" 2>/dev/null
check "v8-switch: the graph has jump table cases, a back edge, branches and fall-throughs" test $? -eq 0

# wasmtime 48.0.2 running switch.c, with its .cwasm, CLIF and module (the
# .cwasm and dump go back where they were recorded: test-data/wasmtime-real).
R=$top/test-data/wasmtime-real
w=$R/48.0.2/switch rec=/tmp/hotblocks-rec/wasmtime-48.0.2-switch
rm -rf "$rec"
mkdir -p "$rec/jitdump"
cp "$w/module.cwasm" "$rec/" && cp "$w"/jitdump/jit-*.dump "$rec/jitdump/"
plugin_stream "$w/jitdump/perf.data" "$tmp/wasmtime.hbs" 2>"$tmp/wasmtime.plugin.err" ||
	not_ok "wasmtime: perf script with the plugin" "$tmp/wasmtime.plugin.err"
rm -rf "$rec"
page wasmtime "$tmp/wasmtime.hbs" columns -- -p 80 --cwasm "$w/module.cwasm" --clif "$w/clif" \
	--wasm "$R/switch.wasm"

stream glibc-evex
page native "$tmp/glibc-evex.hbs"

# The command line: --html[=FILE] and --dot[=FILE] are outputs like --json,
# FILE is -o's, and bad input leaves an earlier file alone.
s=$tmp/v8-wasm.hbs
cli() {	# expected status, then the arguments
	want=$1
	shift
	"$POSTPROC" "$@" >"$tmp/cli.out" 2>"$tmp/cli.err"
	[ $? -eq "$want" ]
}
check "--json --html exits 2 naming both" \
	sh -c "'$POSTPROC' --json --html '$s' >/dev/null 2>'$tmp/e'; test \$? -eq 2 &&
		grep -q -- '--json and --html are two outputs; choose one' '$tmp/e'"
check "--html --dot exits 2" cli 2 --html --dot "$s"
check "--html= (no name) exits 2" cli 2 --html= "$s"
check "--html=A -o B exits 2" cli 2 --html="$tmp/a.html" -o "$tmp/b.html" "$s"
check "--html=FILE writes FILE, nothing on standard output" \
	sh -c "'$POSTPROC' --html='$tmp/a.html' '$s' >'$tmp/a.out' 2>/dev/null && test ! -s '$tmp/a.out' &&
		head -c 15 '$tmp/a.html' | grep -q '^<!DOCTYPE html>'"
check "--html=FILE and --html -o FILE and --html > FILE are the same page" \
	sh -c "'$POSTPROC' --html -o '$tmp/b.html' '$s' 2>/dev/null && '$POSTPROC' --html '$s' >'$tmp/c.html' 2>/dev/null &&
		cmp '$tmp/a.html' '$tmp/b.html' && cmp '$tmp/a.html' '$tmp/c.html'"
check "--dot=FILE writes Graphviz dot" \
	sh -c "'$POSTPROC' --dot='$tmp/a.gv' '$s' 2>/dev/null && grep -q '^digraph \"f0-cfg\" {' '$tmp/a.gv'"
cp "$tmp/a.html" "$tmp/keep.html"
check "bad input: an earlier --html=FILE is left alone (exit 1)" \
	sh -c "'$POSTPROC' --html='$tmp/keep.html' '$tmp/no-such.hbs' 2>/dev/null; test \$? -eq 1 &&
		cmp '$tmp/a.html' '$tmp/keep.html'"

echo "1..$tap_n"

#!/bin/sh
# SPDX-License-Identifier: MIT
# hotblocks diff --html in a real browser (headless Chromium, through
# scripts/tests/browser-check.mjs) on the real recordings of test-data/diff:
# V8 before and after one hot loop changed (also ranked by samples, and as
# perf hotblocks diff writes it), and the real wasmtime at -O opt-level=0 and
# 2 with every pair (--all: blocks paired by wasm offsets, and code one side
# lacks). For each page:
#  - the browser: it loads from disk, asks the network for nothing, logs no
#    error; a row per shown pair, a section per function holding one, a graph
#    per side with every box painted and every listed block's box drawn;
#    blocks of one side only marked in their graphs; clicking the box of pair
#    #1 marks its block, its partner on the other side with its box, and its
#    table row; clicking a row marks its block; n walks the pairs by rank; a
#    screenshot of the window as the checks left it
#    (build/browser-shots/diff-html-CASE.png, a build artefact);
#  - the numbers the page shows (dumped from the browser) are those of
#    hotblocks diff --json with the same options: both sides' totals, every
#    shown pair in order (rank, function, key, starts, samples, shares,
#    deltas, beyond noise or not), and its cells print as the text output's
#    table does; each shown pair's boxes are red when NEW takes more beyond
#    noise (the delta the text output colours red and marks *), green when
#    less, white when within noise; one-side-only pairs and only they are
#    marked (scripts/tests/diff-html.js).
# Then the command line: --html[=FILE] is an output like --json, FILE is -o's,
# and bad input leaves an earlier page alone.
. "$(dirname "$0")/lib.sh"
need_private_tmp

D=$top/test-data/diff
checker=$top/scripts/tests/diff-html.js
shots=$top/build/browser-shots
hb() { "$POSTPROC" "$@"; }
mkdir -p "$shots"
rec=/tmp/hotblocks-rec/diff
# The dumps (and .cwasm files) go back where the recordings ran; only ours.
trap 'rm -rf "$tmp" "$rec"' EXIT
rm -rf "$rec"
for c in v8-base v8-changed wasmtime-O0 wasmtime-O2; do
	diff_stream "$c" "$tmp/$c.hbs"
done

# page CASE BASE NEW [only] -- OPTIONS...: every check above on one comparison.
page() {
	pg_c=$1 pg_b=$2 pg_n=$3 pg_only=
	shift 3
	[ "${1:-}" = only ] && { pg_only=only; shift; }
	[ "${1:-}" = -- ] && shift
	pg_d=$tmp/$pg_c
	mkdir -p "$pg_d"
	if ! hb diff --html "$@" "$pg_b" "$pg_n" >"$pg_d/page.html" 2>"$pg_d/err" ||
		! hb diff --json "$@" "$pg_b" "$pg_n" >"$pg_d/diff.json" 2>>"$pg_d/err" ||
		! hb diff --color=never "$@" "$pg_b" "$pg_n" >"$pg_d/text.txt" 2>>"$pg_d/err"; then
		not_ok "$pg_c: hotblocks diff writes the page and the outputs to compare it with" "$pg_d/err"
		return
	fi
	if ! node "$checker" spec "$pg_d/diff.json" "$pg_d/spec.json" $pg_only 2>"$pg_d/spec.err"; then
		not_ok "$pg_c: the browser checks are written" "$pg_d/spec.err"
		return
	fi
	rm -f "$shots/diff-html-$pg_c.png"
	browser_check --window 1600x1000 --view "$shots/diff-html-$pg_c.png" --dump "$pg_d/dump.json" \
		"$pg_d/page.html" "$pg_d/spec.json" >"$pg_d/browser.out" 2>&1
	tap_relay "$pg_d/browser.out" "$pg_c: " || not_ok "$pg_c: the browser ran the page" "$pg_d/browser.out"
	check "$pg_c: the screenshot is a PNG" \
		test "$(od -An -tx1 -N8 "$shots/diff-html-$pg_c.png" 2>/dev/null | tr -d ' \n')" = 89504e470d0a1a0a
	if [ -s "$pg_d/dump.json" ]; then
		node "$checker" check "$pg_d/dump.json" "$pg_d/diff.json" "$pg_d/text.txt" >"$pg_d/numbers.out" 2>&1
		tap_relay "$pg_d/numbers.out" "$pg_c: " || not_ok "$pg_c: the numbers were compared" "$pg_d/numbers.out"
	else
		not_ok "$pg_c: the page's numbers were dumped" "$pg_d/browser.out"
	fi
}

page v8 "$tmp/v8-base.hbs" "$tmp/v8-changed.hbs"
# by samples, every function that can hold a change of 2: blocks of one side
# only, and changes within noise (white)
page v8-counts "$tmp/v8-base.hbs" "$tmp/v8-changed.hbs" only -- --counts --top 12 --min-delta 2
page wasmtime "$tmp/wasmtime-O0.hbs" "$tmp/wasmtime-O2.hbs" only -- --all \
	--base-cwasm "$D/wasmtime-O0/module.cwasm" --base-clif "$D/wasmtime-O0/clif" \
	--new-cwasm "$D/wasmtime-O2/module.cwasm" --new-clif "$D/wasmtime-O2/clif" --wasm "$D/base.wasm"
check "wasmtime: the hot loops' pairs are paired by wasm offsets on the page" \
	grep -q 'data-key="wasm"' "$tmp/wasmtime/page.html"
check "wasmtime: the page has the CLIF and Wasm columns" \
	sh -c "grep -q '<th class=\"clif\">CLIF</th>' '$tmp/wasmtime/page.html' &&
		grep -q '<th class=\"wasm\">Wasm</th>' '$tmp/wasmtime/page.html'"

# The command line.
b=$tmp/v8-base.hbs n=$tmp/v8-changed.hbs
check "--json --html exits 2 naming both" \
	sh -c "'$POSTPROC' diff --json --html '$b' '$n' >/dev/null 2>'$tmp/e'; test \$? -eq 2 &&
		grep -q -- '--json and --html are two outputs; choose one' '$tmp/e'"
check "--html= (no name) exits 2" sh -c "'$POSTPROC' diff --html= '$b' '$n' >/dev/null 2>&1; test \$? -eq 2"
check "--html=A -o B exits 2" \
	sh -c "'$POSTPROC' diff --html='$tmp/a.html' -o '$tmp/b.html' '$b' '$n' >/dev/null 2>&1; test \$? -eq 2"
check "--html=FILE writes FILE, nothing on standard output" \
	sh -c "'$POSTPROC' diff --html='$tmp/a.html' '$b' '$n' >'$tmp/a.out' 2>/dev/null && test ! -s '$tmp/a.out' &&
		head -c 15 '$tmp/a.html' | grep -q '^<!DOCTYPE html>'"
check "--html=FILE and --html -o FILE and --html > FILE are the same page" \
	sh -c "'$POSTPROC' diff --html -o '$tmp/b.html' '$b' '$n' 2>/dev/null &&
		'$POSTPROC' diff --html '$b' '$n' >'$tmp/c.html' 2>/dev/null &&
		cmp '$tmp/a.html' '$tmp/b.html' && cmp '$tmp/a.html' '$tmp/c.html'"
check "the same page as the browser checked" cmp "$tmp/a.html" "$tmp/v8/page.html"
cp "$tmp/a.html" "$tmp/keep.html"
check "bad input: an earlier --html=FILE is left alone (exit 1)" \
	sh -c "'$POSTPROC' diff --html='$tmp/keep.html' '$b' '$tmp/no-such.hbs' 2>/dev/null; test \$? -eq 1 &&
		cmp '$tmp/a.html' '$tmp/keep.html'"
# --listing is the text output's: the page always has the listings, so it is
# the same page with it, and the usage text and the man page say so.
check "--listing --html: the same page as --html" \
	sh -c "'$POSTPROC' diff --listing --html '$b' '$n' 2>/dev/null | cmp - '$tmp/a.html'"
check "diff --help and hotblocks(1): --listing is for the text output, the page always has the listings" \
	sh -c "'$POSTPROC' diff --help | grep -A2 -e '--listing' | tr -s ' \n' ' ' |
		grep -q -e '--listing text output: .*(the --html page always has the listings)' &&
		sed -n '/^\.B \\\\-\\\\-listing\$/,/^\.TP/p' '$top/postproc/hotblocks.1' | tr -s ' \n' ' ' |
		grep -q 'Text output: .* page always has the listings'"
check "--html --color=always: the page has no terminal colours" \
	sh -c "'$POSTPROC' diff --html --color=always '$b' '$n' 2>/dev/null | grep -c \"\$(printf '\\033')\" | grep -qx 0"

# perf hotblocks diff passes --html=FILE on: the page of the two recordings.
"$top/scripts/perf-hotblocks" diff --html="$tmp/ph.html" -i "$D/v8-base/perf.data" \
	-i "$D/v8-changed/perf.data" >"$tmp/ph.out" 2>"$tmp/ph.err"
check "perf hotblocks diff --html=FILE exits 0, nothing on standard output" \
	sh -c "test $? -eq 0 && test ! -s '$tmp/ph.out'"
hb diff --html --base-label "$D/v8-base/perf.data" --new-label "$D/v8-changed/perf.data" \
	"$b" "$n" >"$tmp/ph-want.html" 2>/dev/null
check "perf hotblocks diff --html=FILE writes what hotblocks diff --html does" cmp "$tmp/ph-want.html" "$tmp/ph.html"

echo "1..$tap_n"

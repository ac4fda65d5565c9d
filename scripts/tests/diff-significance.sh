#!/bin/sh
# SPDX-License-Identifier: MIT
# Noise told from change by hotblocks diff, on real recordings (test-data/diff,
# README.md there: several runs of one workload, and one loop changed). The
# test (postproc/diff/diff-significance.c, whose unit test checks it against
# scipy and statsmodels) is read from `hotblocks diff --json --all`:
#  - a stream against itself: every pair has p = 1, none is significant;
#  - three runs against three of one workload (V8, wasmtime; shares and
#    counts; in input order and interleaved): nothing significant, the spread
#    of the runs measured; also with each side's runs from two recording
#    sessions, whose shares moved by up to 14 points: the spread measured
#    keeps that out;
#  - one run against one of one workload (12 pairs): nothing significant with
#    the spread assumed (tau 5%); with sampling noise alone (--spread 0) the
#    wasmtime runs that differ most are told apart, which says why the spread
#    is assumed when it cannot be measured;
#  - base against changed (one run a side, and three against two from two
#    sessions): mix's loop, the one change, is significant, its pairs as read
#    off the listings; no significant change is smaller than the least the
#    test can tell.
# shellcheck source=scripts/tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_private_tmp

js=$top/scripts/tests/diff-significance.js
rec=/tmp/hotblocks-rec/diff
trap 'rm -rf "$tmp" "$rec"' EXIT

v8="v8-base v8-changed v8-changed-2 v8-base-2 v8-base-3 v8-base-4 v8-base-5 v8-base-6 v8-base-7"
wt="wasmtime-O2 wasmtime-O2-2 wasmtime-O2-3 wasmtime-O2-4 wasmtime-O2-5 wasmtime-O2-6 wasmtime-O2-7 wasmtime-O2-8"
for c in $v8 $wt; do
	diff_stream "$c" "$tmp/$c.hbs"
done
# side NAME RUN...: the runs' streams, concatenated (several runs of a side)
side() {
	n=$1; shift
	: >"$tmp/$n.hbs"
	for r; do cat "$tmp/$r.hbs" >>"$tmp/$n.hbs"; done
}
# cmp_json NAME BASE NEW [OPTION...]: hotblocks diff --json --all into NAME.json
cmp_json() {
	n=$1 b=$2 w=$3
	shift 3
	"$POSTPROC" diff --json --all "$@" "$tmp/$b.hbs" "$tmp/$w.hbs" >"$tmp/$n.json" 2>"$tmp/$n.err"
}
sig() { node "$js" "$@"; }

# 1. A stream against itself.
cmp_json self v8-base v8-base
check "a stream against itself: none significant" sig none "$tmp/self.json"
check "a stream against itself: every pair has p = 1" sig p1 "$tmp/self.json"

# 2. Three runs against three of one workload: nothing significant.
side v8-234 v8-base-2 v8-base-3 v8-base-4
side v8-567 v8-base-5 v8-base-6 v8-base-7
side v8-246 v8-base-2 v8-base-4 v8-base-6
side v8-357 v8-base-3 v8-base-5 v8-base-7
side wt-345 wasmtime-O2-3 wasmtime-O2-4 wasmtime-O2-5
side wt-678 wasmtime-O2-6 wasmtime-O2-7 wasmtime-O2-8
side wt-357 wasmtime-O2-3 wasmtime-O2-5 wasmtime-O2-7
side wt-468 wasmtime-O2-4 wasmtime-O2-6 wasmtime-O2-8
for p in v8-234:v8-567 v8-246:v8-357 wt-345:wt-678 wt-357:wt-468; do
	b=${p%:*} w=${p#*:}
	cmp_json "$b-$w" "$b" "$w"
	check "3 runs against 3 of one workload ($b vs $w): no pair significant" sig none "$tmp/$b-$w.json"
	check "... the runs' spread measured on both sides" sig runs "$tmp/$b-$w.json" 3
	cmp_json "$b-$w-counts" "$b" "$w" --counts
	check "... and with --counts (samples per run)" sig none "$tmp/$b-$w-counts.json"
done
# Runs from two recording sessions on each side (wasmtime-O2, -O2-2 and
# v8-base ran on a host whose CPU lacked AVX-VNNI; README.md): their shares
# differ by up to 14 points. The spread measured, nothing is significant.
side wt-0023 wasmtime-O2 wasmtime-O2-2 wasmtime-O2-3
side wt-456 wasmtime-O2-4 wasmtime-O2-5 wasmtime-O2-6
side wt-035 wasmtime-O2 wasmtime-O2-3 wasmtime-O2-5
side wt-246 wasmtime-O2-2 wasmtime-O2-4 wasmtime-O2-6
side v8-123 v8-base v8-base-2 v8-base-3
side v8-456 v8-base-4 v8-base-5 v8-base-6
for p in wt-0023:wt-456 wt-035:wt-246 v8-123:v8-456; do
	b=${p%:*} w=${p#*:}
	cmp_json "$b-$w" "$b" "$w"
	check "3 runs against 3, each side's from two sessions ($b vs $w): no pair significant" \
		sig none "$tmp/$b-$w.json"
	check "... the spread measured beyond sampling (chi-square p < 0.001)" \
		awk "BEGIN { exit !($(sig noise "$tmp/$b-$w.json" spread.p) < 0.001) }"
done
# The V8 runs of one session differ as sampling makes them (chi-square p
# 0.5); the wasmtime runs more (wasmtime-O2-4 spent 4 points less in hash):
# a spread is measured there.
check "V8's runs: consistent with sampling noise alone (p > 0.05)" \
	awk "BEGIN { exit !($(sig noise "$tmp/v8-234-v8-567.json" spread.p) > 0.05) }"
check "wasmtime's runs: a spread beyond sampling measured (tau > 3%)" \
	awk "BEGIN { exit !($(sig noise "$tmp/wt-357-wt-468.json" spread.tau) > 0.03) }"

# 3. One run against one of one workload.
pairs1="v8-changed:v8-changed-2 wasmtime-O2:wasmtime-O2-2"
for i in 2 3 4 5 6; do pairs1="$pairs1 v8-base-$i:v8-base-$((i + 1))"; done
for i in 3 4 5 6 7; do pairs1="$pairs1 wasmtime-O2-$i:wasmtime-O2-$((i + 1))"; done
told=0
for p in $pairs1; do
	b=${p%:*} w=${p#*:}
	cmp_json "$b-$w" "$b" "$w"
	check "1 run against 1 of one workload ($b vs $w): no pair significant, the spread assumed (tau 5%)" \
		sig none "$tmp/$b-$w.json"
	cmp_json "$b-$w-sampling" "$b" "$w" --spread 0
	sig none "$tmp/$b-$w-sampling.json" 2>/dev/null || told=$((told + 1))
done
echo "# with sampling noise alone (--spread 0), $told of 12 one-run pairs of one workload had a significant pair"
check "with sampling noise alone, wasmtime-O2 against wasmtime-O2-2 is told apart (hash 78.2% vs 74.8%)" \
	sig has "$tmp/wasmtime-O2-wasmtime-O2-2-sampling.json" "block hash :: 0x12 -> 0x12" "block mix :: 0xf -> 0xf"

# 4. One loop changed: mix's loop blocks pair 0x49 -> 0x49 and 0x8b -> 0x7f
# (README.md, read off the listings); hash's share fell with it.
cmp_json changed v8-base v8-changed
check "base against changed (1 run a side): mix and its two loop blocks are significant" \
	sig has "$tmp/changed.json" "func JS:mix-2" "block JS:mix-2 :: 0x49 -> 0x49" \
	"block JS:mix-2 :: 0x8b -> 0x7f"
"$POSTPROC" diff "$tmp/v8-base.hbs" "$tmp/v8-changed.hbs" >"$tmp/changed.txt" 2>/dev/null
check "... the text marks them, and its header says the spread was assumed" sh -c \
	"grep -Eq '^ +8\\.97% +24\\.88% +\\+15\\.91%\\* +asm' '$tmp/changed.txt' &&
	 grep -q '^Noise (95%): .*; run to run: tau = 5% assumed (not measured: one run a side)\\.\$' '$tmp/changed.txt'"
side changed-12 v8-changed v8-changed-2
cmp_json changed-3v2 v8-234 changed-12
check "base against changed (3 runs against 2, the spread measured): mix's loop still significant" \
	sig has "$tmp/changed-3v2.json" "block JS:mix-2 :: 0x49 -> 0x49" \
	"block JS:mix-2 :: 0x8b -> 0x7f"
check "... the spread measured on both sides" sig runs "$tmp/changed-3v2.json" 2
"$POSTPROC" diff "$tmp/v8-234.hbs" "$tmp/changed-12.hbs" >"$tmp/changed-3v2.txt" 2>/dev/null
check "... and the header says it was measured, on 3 and 2 runs" \
	grep -q '^Noise (95%): .*; run to run: .*measured on 3 and 2 runs' "$tmp/changed-3v2.txt"
# The least detectable change: what the test can tell at these counts; no
# significant pair is smaller, and it is the default --min-delta.
check "no significant change is smaller than the least detectable one" sig least "$tmp/changed.json"
"$POSTPROC" diff --json "$tmp/v8-base.hbs" "$tmp/v8-changed.hbs" >"$tmp/changed-default.json" 2>/dev/null
check "the default --min-delta is the least detectable change" \
	test "$(sig noise "$tmp/changed-default.json" min_delta)" = \
	"$(node -e "console.log(JSON.parse(require('fs').readFileSync('$tmp/changed-default.json')).selection.min_delta)")"

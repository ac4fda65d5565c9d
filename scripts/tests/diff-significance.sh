#!/bin/sh
# SPDX-License-Identifier: MIT
# Noise told from change, on real recordings (test-data/diff, README.md
# there: several runs of one workload, and one loop changed). The test of
# postproc/diff/diff-significance.c (its unit test checks it against scipy and
# statsmodels) is applied to `hotblocks diff --json --all` by
# build/tools/diff-significance, until hotblocks diff carries it itself:
#  - a stream against itself: every pair has p = 1;
#  - three runs against three runs of one workload (V8, wasmtime; shares and
#    counts; in input order and interleaved): nothing significant, the
#    spread of the runs measured;
#  - one run against one run of one workload: nothing significant with the
#    spread assumed (tau 5%); with sampling noise alone the wasmtime runs
#    that differ most are told apart, which says why several runs are needed;
#  - base against changed (one run a side, and three against two): mix's
#    loop, the one change, is significant, its pairs as read off the listings.
# shellcheck source=scripts/tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_private_tmp

sig=$top/build/tools/diff-significance
js=$top/scripts/tests/diff-significance.js
rec=/tmp/hotblocks-rec/diff
trap 'rm -rf "$tmp" "$rec"' EXIT
if [ ! -x "$sig" ]; then
	echo "ok 1 # SKIP build/tools/diff-significance is not built (make check builds it)"
	exit 0
fi

v8="v8-base v8-changed v8-changed-2 v8-base-2 v8-base-3 v8-base-4 v8-base-5 v8-base-6 v8-base-7"
wt="wasmtime-O2 wasmtime-O2-2 wasmtime-O2-3 wasmtime-O2-4 wasmtime-O2-5 wasmtime-O2-6 wasmtime-O2-7 wasmtime-O2-8"
for c in $v8 $wt; do
	diff_stream "$c" "$tmp/$c.hbs"
done
# side NAME RUN...: the runs' streams, concatenated (several runs merged)
side() {
	n=$1; shift
	: >"$tmp/$n.hbs"
	for r; do cat "$tmp/$r.hbs" >>"$tmp/$n.hbs"; done
}
# test NAME BASE NEW [counts] [--assume TAU2]: the test of every pair into NAME.out
test_pairs() {
	n=$1 b=$2 w=$3 scale=${4:-shares}
	shift 3
	[ $# -gt 0 ] && shift
	"$POSTPROC" diff --json --all "$tmp/$b.hbs" "$tmp/$w.hbs" >"$tmp/$n.json" 2>"$tmp/$n.err" &&
		node "$js" "$tmp/$n.json" "$scale" >"$tmp/$n.in" &&
		"$sig" "$@" <"$tmp/$n.in" >"$tmp/$n.out" 2>>"$tmp/$n.err"
}
# significant NAME: the significant pairs of NAME.out, as "KIND NAME" lines
significant() {
	awk -F'\t' '$2 == "significant" { print $1 " " $10 }' "$tmp/$1.out"
}
# none NAME: nothing significant, and the pairs were tested
none() {
	[ -z "$(significant "$1")" ] && grep -q '^block	-	' "$tmp/$1.out"
}
# all_p_1 NAME: every pair's p-value is 1
all_p_1() {
	awk -F'\t' '($1 == "func" || $1 == "block") && $3 != 1 { bad = 1 } END { exit bad }' "$tmp/$1.out"
}
# has NAME LINE...: each LINE ("KIND NAME") is among NAME's significant pairs
has() {
	h_n=$1; shift
	significant "$h_n" >"$tmp/$h_n.sig"
	for l; do grep -qxF "$l" "$tmp/$h_n.sig" || { echo "not significant: $l"; cat "$tmp/$h_n.out"; return 1; }; done
}
# runs NAME K: both sides of NAME had K runs (or more)
runs() {
	[ "$(awk -F'\t' -v k="$2" '$1 == "spread" { split($3, r, " "); if (r[2] >= k) n++ } END { print n + 0 }' "$tmp/$1.out")" = 2 ]
}
# noise NAME FIELD: a value of the noise line
noise() {
	awk -F'\t' -v f="$2" '$1 == "noise" { for (i = 2; i <= NF; i++) { split($i, kv, " "); if (kv[1] == f) print kv[2] } }' \
		"$tmp/$1.out"
}

# 1. A stream against itself.
test_pairs self v8-base v8-base
check "a stream against itself: none significant" none self
check "a stream against itself: every pair has p = 1" all_p_1 self

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
	test_pairs "$b-$w" "$b" "$w"
	check "3 runs against 3 of one workload ($b vs $w): no pair significant" none "$b-$w"
	check "... the runs' spread measured on both sides" runs "$b-$w" 3
	test_pairs "$b-$w-counts" "$b" "$w" counts
	check "... and with --counts (samples per run)" none "$b-$w-counts"
done
# Runs from two recording sessions on each side (wasmtime-O2, -O2-2 and
# v8-base ran on a host whose CPU lacked AVX-VNNI; README.md): their shares
# differ by up to 14 points. The spread measured, nothing is significant;
# merged into one run a side (sampling noise only), the same counts are
# told apart: the spread is what keeps them out.
side wt-0023 wasmtime-O2 wasmtime-O2-2 wasmtime-O2-3
side wt-456 wasmtime-O2-4 wasmtime-O2-5 wasmtime-O2-6
side wt-035 wasmtime-O2 wasmtime-O2-3 wasmtime-O2-5
side wt-246 wasmtime-O2-2 wasmtime-O2-4 wasmtime-O2-6
side v8-123 v8-base v8-base-2 v8-base-3
side v8-456 v8-base-4 v8-base-5 v8-base-6
for p in wt-0023:wt-456 wt-035:wt-246 v8-123:v8-456; do
	b=${p%:*} w=${p#*:}
	test_pairs "$b-$w" "$b" "$w"
	check "3 runs against 3, each side's from two sessions ($b vs $w): no pair significant" none "$b-$w"
	# the same counts as one run a side
	awk '$1 == "run" { t[$2] += $3; next }
	     $1 == "func" { k = $2; for (i = 5; i <= NF; i++) k = k " " $i; f[k] += $4; next }
	     { print }
	     END { for (s in t) print "run", s, t[s]
		   for (k in f) { n = index(k, " "); print "func", substr(k, 1, n - 1), 0, f[k], substr(k, n + 1) } }' \
		"$tmp/$b-$w.in" | "$sig" >"$tmp/$b-$w-merged.out"
	check "... merged into one run a side (sampling noise only), the sessions' shift is significant" \
		test -n "$(significant "$b-$w-merged")"
done
# The V8 runs differ as sampling makes them (chi-square p 0.5); the
# wasmtime runs more (wasmtime-O2-4 spent 4 points less in hash): a spread
# is measured there.
check "V8's runs: consistent with sampling noise alone (p > 0.05)" \
	awk "BEGIN { exit !($(noise v8-234-v8-567 p) > 0.05) }"
check "wasmtime's runs: a spread beyond sampling measured (tau2 > 0.001)" \
	awk "BEGIN { exit !($(noise wt-357-wt-468 tau2) > 0.001) }"

# 3. One run against one of one workload.
pairs1="v8-changed:v8-changed-2 wasmtime-O2:wasmtime-O2-2"
for i in 2 3 4 5 6; do pairs1="$pairs1 v8-base-$i:v8-base-$((i + 1))"; done
for i in 3 4 5 6 7; do pairs1="$pairs1 wasmtime-O2-$i:wasmtime-O2-$((i + 1))"; done
told=0
for p in $pairs1; do
	b=${p%:*} w=${p#*:}
	test_pairs "$b-$w-tau" "$b" "$w" shares --assume 0.0025
	check "1 run against 1 of one workload ($b vs $w): no pair significant, the spread assumed (tau 5%)" \
		none "$b-$w-tau"
	test_pairs "$b-$w" "$b" "$w"
	none "$b-$w" || told=$((told + 1))
done
echo "# with sampling noise alone, $told of 12 one-run pairs of one workload had a significant pair"
check "with sampling noise alone, wasmtime-O2 against wasmtime-O2-2 is told apart (hash 78.2% vs 74.8%)" \
	has wasmtime-O2-wasmtime-O2-2 "block hash :: 0x12 -> 0x12" "block mix :: 0xf -> 0xf"

# 4. One loop changed: mix's loop blocks pair 0x49 -> 0x49 and 0x8b -> 0x7f
# (README.md, read off the listings); hash's share fell with it.
test_pairs changed v8-base v8-changed
check "base against changed (1 run a side): mix and its two loop blocks are significant" \
	has changed "func JS:mix-2-turbofan" "block JS:mix-2-turbofan :: 0x49 -> 0x49" \
	"block JS:mix-2-turbofan :: 0x8b -> 0x7f"
side changed-12 v8-changed v8-changed-2
test_pairs changed-3v2 v8-234 changed-12
check "base against changed (3 runs against 2, the spread measured): mix's loop still significant" \
	has changed-3v2 "block JS:mix-2-turbofan :: 0x49 -> 0x49" "block JS:mix-2-turbofan :: 0x8b -> 0x7f"
check "... the spread measured on both sides" runs changed-3v2 2
# The least detectable change: what the test can tell at these counts; no
# significant pair is smaller.
check "no significant change is smaller than the least detectable one" awk -F'\t' -v least="$(noise changed min_delta)" '
	$2 == "significant" && ($5 < 0 ? -$5 : $5) < least { bad = 1 } END { exit bad }' "$tmp/changed.out"

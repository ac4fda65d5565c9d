#!/bin/sh
# SPDX-License-Identifier: MIT
# oracle.sh [OUT]: perf's own reading of the branch stacks of the restored
# recording (restore.sh), counted: OUT (default oracle-brstacksym.txt beside
# this script) gets, sorted,
#   taken COUNT FROM TO FROM-SYM TO-SYM MISPRED PRED IN-TX ABORT CYCLES-NR CYCLES-SUM
#     every branch-stack entry (perf script -F brstack, -F brstacksym), counted
#     by (from, to); the flag columns count the entries perf marks M, P, X, A;
#     CYCLES-NR the entries with a cycle count (non-zero), CYCLES-SUM their sum
#   range COUNT START END START-SYM END-SYM CYCLES-NR CYCLES-SUM
#     every fall-through range: of two consecutive entries of one sample, the
#     older entry's to (START) to the newer entry's from (END), counted; the
#     cycle columns are the newer entry's (the cycles since the older one)
#   samples N / entries N: the samples and the entries read
# Nothing here is hotblocks': the addresses and names are perf's output as it
# prints them; awk only counts. perf lists a sample's entries newest first.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
rec=/tmp/hotblocks-rec/lbr-propeller
out=${1:-$here/oracle-brstacksym.txt}
tmp=$out.tmp.$$

perf --no-pager script -i "$rec/perf.data" -F brstack 2>/dev/null >"$tmp.addr"
perf --no-pager script -i "$rec/perf.data" --symfs "$rec/sym" -F brstacksym 2>/dev/null >"$tmp.sym"
[ "$(wc -l <"$tmp.addr")" = "$(wc -l <"$tmp.sym")" ] || {
	echo "oracle.sh: perf script -F brstack and -F brstacksym gave different sample counts" >&2
	exit 1
}
# one line per sample of each; the k-th entry of a line is the k-th of the other
paste -d '\t' "$tmp.addr" "$tmp.sym" | awk -F '\t' '
function field(e, i,   p) { split(e, p, "/"); return p[i] }
{
	samples++
	na = split($1, a, " "); ns = split($2, s, " ")
	if (na != ns) { print "oracle.sh: sample " NR ": " na " entries by address, " ns " by symbol" > "/dev/stderr"; exit 1 }
	for (k = 1; k <= na; k++) {
		entries++
		split(a[k], f, "/")
		key = f[1] " " f[2] " " field(s[k], 1) " " field(s[k], 2)
		taken[key]++
		if (f[3] == "M") mis[key]++
		if (f[3] == "P") pred[key]++
		if (f[4] == "X") tx[key]++
		if (f[5] == "A") ab[key]++
		if (f[6] + 0 > 0) { cyn[key]++; cys[key] += f[6] }
		if (k > 1) {
			split(a[k - 1], g, "/")
			rk = f[2] " " g[1] " " field(s[k], 2) " " field(s[k - 1], 1)
			range[rk]++
			if (g[6] + 0 > 0) { rcn[rk]++; rcs[rk] += g[6] }
		}
	}
}
END {
	for (k in taken)
		print "taken", taken[k], k, mis[k] + 0, pred[k] + 0, tx[k] + 0, ab[k] + 0, cyn[k] + 0, cys[k] + 0
	for (k in range)
		print "range", range[k], k, rcn[k] + 0, rcs[k] + 0
	print "samples", samples
	print "entries", entries
}' | LC_ALL=C sort -k1,1 -k3,3 -k4,4 >"$tmp"
rm -f "$tmp.addr" "$tmp.sym"
mv "$tmp" "$out"

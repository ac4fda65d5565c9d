#!/bin/sh
# SPDX-License-Identifier: MIT
# hotblocks diff with branch stacks on both sides (test-data/lbr-propeller,
# google/autofdo's real Intel LBR recording): each pair's measured
# executions, their change per 1000 branch-stack entries, and the taken /
# not-taken counts of the conditional branch ending the block. Against itself
# nothing changes; against a constructed copy of its stream (one `range`
# count halved by this test: not a recording) exactly the two blocks that
# range holds change, by the counts worked out by hand below from the
# stream's ranges and edges (the branch-stacks test checks those against
# perf's brstack counts).
. "$(dirname "$0")/lib.sh"
need_private_tmp

rec=/tmp/hotblocks-rec/lbr-propeller
restore_recording lbr-propeller
perf --no-pager script -i "$rec/perf.data" --symfs "$rec/sym" --dlfilter "$PLUGIN" \
	--dlarg "out=$tmp/s.hbs" 2>"$tmp/plugin.err" ||
	not_ok "perf script --dlfilter hotblocks.so on lbr-propeller" "$tmp/plugin.err"
# The constructed side: compute_flag's range 0x0 .. 0x24 (count 5404, each
# with a cycle count) halved to 2702.
sed 's/^range 0 0x0 0 0x24 0 5404 5404 113567$/range 0 0x0 0 0x24 0 2702 2702 56784/' \
	"$tmp/s.hbs" >"$tmp/m.hbs"
if [ "$(cmp -l "$tmp/s.hbs" "$tmp/m.hbs" | wc -l)" -gt 0 ] && grep -q '^object 0 .*name=compute_flag$' "$tmp/s.hbs"; then
	ok "the constructed stream differs in compute_flag's range 0x0 .. 0x24 alone"
else
	not_ok "the constructed stream differs in compute_flag's range 0x0 .. 0x24 alone"
fi

# Each pair's measured counts as "function start base-executions new-executions
# delta base-taken base-not new-taken new-not" ("-": none, no conditional branch).
measured() {
	node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const out = ["entries " + r.branch_stack_entries.base + " " + r.branch_stack_entries.new];
for (const f of r.functions)
	for (const p of f.blocks) {
		const m = p.measured, b = m.base || {}, n = m.new || {};
		out.push([f.base.name, p.base.start, b.executions, n.executions, m.delta.toFixed(2),
			  b.taken, b.not_taken, n.taken, n.not_taken].map(x => x === undefined ? "-" : x).join(" "));
	}
console.log(out.sort().join("\n"));
' "$1"
}

"$POSTPROC" diff --all --json "$tmp/s.hbs" "$tmp/s.hbs" >"$tmp/self.json" 2>"$tmp/self.err" ||
	not_ok "hotblocks diff --all --json lbr-propeller against itself" "$tmp/self.err"
measured "$tmp/self.json" >"$tmp/self.txt"
bad=$(awk '$1 != "entries" && ($3 != $4 || $5 != "0.00" || $6 != $8 || $7 != $9)' "$tmp/self.txt")
if [ "$(grep -c . "$tmp/self.txt")" -gt 5 ] && [ -z "$bad" ] && grep -q '^entries 119424 119424$' "$tmp/self.txt"; then
	ok "against itself: every pair's executions and taken counts equal, no change ($(($(grep -c . "$tmp/self.txt") - 1)) pairs)"
else
	not_ok "against itself: every pair's executions and taken counts equal" "$tmp/self.txt"
fi

# By hand, from the stream's records of compute_flag (blocks 0x0, 0x19, 0x29,
# 0x31; branch 0x13 -> 0x29 taken 5 + 9866 = 9871 times): block 0x0 runs in
# the ranges 0x0 .. 0x13 (8794) and 0x0 .. 0x24 (5404 -> 2702): 14198 ->
# 11496; block 0x19 in 0x0 .. 0x24 alone: 5404 -> 2702; both change by
# -2702 / 119424 entries = -22.63 a 1000. Its branch at 0x13 is not taken in
# the ranges that run past it: 0x0 .. 0x24 (5404 -> 2702). The rest as before.
"$POSTPROC" diff --all --json "$tmp/s.hbs" "$tmp/m.hbs" >"$tmp/mod.json" 2>"$tmp/mod.err" ||
	not_ok "hotblocks diff --all --json lbr-propeller against the constructed copy" "$tmp/mod.err"
measured "$tmp/mod.json" >"$tmp/mod.txt"
awk '$1 == "compute_flag" && $2 == 0 { $4 = 11496; $5 = "-22.63"; $9 = 2702 }
     $1 == "compute_flag" && $2 == 25 { $4 = 2702; $5 = "-22.63" } { print }' "$tmp/self.txt" >"$tmp/mod-want.txt"
if grep -q '^compute_flag 0 14198 11496 -22.63 9871 5404 9871 2702$' "$tmp/mod.txt" &&
   grep -q '^compute_flag 25 5404 2702 -22.63' "$tmp/mod.txt" && cmp -s "$tmp/mod.txt" "$tmp/mod-want.txt"; then
	ok "against the constructed copy: blocks 0x0 (14198 -> 11496) and 0x19 (5404 -> 2702) change by -22.63 a 1000 entries, 0x13 not taken 5404 -> 2702, nothing else"
else
	diff "$tmp/mod-want.txt" "$tmp/mod.txt" >"$tmp/mod.diff"
	not_ok "against the constructed copy: the two blocks change by the counts worked out by hand" "$tmp/mod.diff"
fi

# The text: the measured table of the shown pairs (--all: every pair).
"$POSTPROC" diff --all "$tmp/s.hbs" "$tmp/m.hbs" >"$tmp/mod.txt" 2>/dev/null
if grep -q '^Measured by branch stacks (BASE 119424 entries, NEW 119424)' "$tmp/mod.txt" &&
   grep -Eq '^ +14198 +11496 +-22\.63   64\.6% -> 78\.5% +`compute_flag` :: block 0x0 -> 0x0$' "$tmp/mod.txt" &&
   grep -Eq '^ +5404 +2702 +-22\.63 +`compute_flag` :: block 0x19 -> 0x19$' "$tmp/mod.txt"; then
	ok "text: the measured table shows the two blocks' executions, change and taken % (9871 / (9871 + 5404) = 64.6%, / (9871 + 2702) = 78.5%)"
else
	not_ok "text: the measured table shows the two blocks' executions, change and taken %" "$tmp/mod.txt"
fi

# Without branch stacks no measured part (the golden diff tests hold the rest).
restore_recording fakejit
plugin_stream "$top/test-data/fakejit/perf.data" "$tmp/f.hbs" 2>/dev/null
"$POSTPROC" diff --all --json "$tmp/f.hbs" "$tmp/f.hbs" >"$tmp/f.json" 2>/dev/null
"$POSTPROC" diff --all "$tmp/f.hbs" "$tmp/f.hbs" >"$tmp/f.txt" 2>/dev/null
if [ -s "$tmp/f.json" ] && ! grep -q '"measured": {\|branch_stack_entries' "$tmp/f.json" &&
   ! grep -q 'Measured by branch stacks' "$tmp/f.txt"; then
	ok "without branch stacks: no measured part in the comparison (fakejit)"
else
	not_ok "without branch stacks: no measured part in the comparison (fakejit)"
fi
echo "1..$tap_n"

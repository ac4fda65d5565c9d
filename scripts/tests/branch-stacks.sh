#!/bin/sh
# SPDX-License-Identifier: MIT
# Branch stacks against perf's own reading of them, on a real Intel LBR
# recording (test-data/lbr-propeller, google/autofdo's, with its binary
# through --symfs): the plugin's `branch` counts per taken edge (from, to)
# and its flags and cycles, and its `range` counts per fall-through range,
# equal exactly what perf script -F brstack / -F brstacksym gives, counted
# by ../../test-data/lbr-propeller/oracle.sh (run again here on this
# machine's perf, and equal to the committed oracle-brstacksym.txt); and the
# post-processor's per-function edges and ranges in --json. Objects
# and offsets are compared as perf names them: name+0x<offset>. The ends
# perf cannot name (a kernel address: the return from an interrupt) are the
# stream's kernel class.
. "$(dirname "$0")/lib.sh"
need_private_tmp

d=$top/test-data/lbr-propeller
rec=/tmp/hotblocks-rec/lbr-propeller
restore_recording lbr-propeller
"$d/oracle.sh" "$tmp/oracle.txt"
if cmp -s "$tmp/oracle.txt" "$d/oracle-brstacksym.txt"; then
	ok "perf's brstack counts here are the committed oracle-brstacksym.txt"
else
	diff "$d/oracle-brstacksym.txt" "$tmp/oracle.txt" >"$tmp/oracle.diff"
	not_ok "perf's brstack counts here are the committed oracle-brstacksym.txt" "$tmp/oracle.diff"
fi
perf --no-pager script -i "$rec/perf.data" --symfs "$rec/sym" --dlfilter "$PLUGIN" \
	--dlarg "out=$tmp/s.hbs" 2>"$tmp/plugin.err" ||
	not_ok "perf script --dlfilter hotblocks.so on lbr-propeller" "$tmp/plugin.err"

# The stream's branch and range lines as the oracle's, named by object name + offset.
awk '
$1 == "object" { for (i = 3; i <= NF; i++) if ($i ~ /^name=/) name[$2] = substr($i, 6) }
function at(id, off) { return name[id] "+0x" substr(off, 3) }
$1 == "branch" {
	k = at($2, $3) " " at($4, $5)
	n[k] += $8; cn[k] += $9; cs[k] += $10
	if ($7 ~ /M/) m[k] += $8
	if ($7 ~ /P/) p[k] += $8
	if ($7 ~ /X/) x[k] += $8
	if ($7 ~ /A/) a[k] += $8
}
$1 == "range" { print "range", $7, at($2, $3), at($4, $5), $8, $9 }
END { for (k in n) print "taken", n[k], k, m[k] + 0, p[k] + 0, x[k] + 0, a[k] + 0, cn[k] + 0, cs[k] + 0 }
' "$tmp/s.hbs" | sort >"$tmp/got.txt"
awk '$1 == "taken" && $5 != "[unknown]" && $6 != "[unknown]" {
	print "taken", $2, $5, $6, $7, $8, $9, $10, $11, $12 }
$1 == "range" && $5 != "[unknown]" && $6 != "[unknown]" { print "range", $2, $5, $6, $7, $8 }' \
	"$d/oracle-brstacksym.txt" | sort >"$tmp/want.txt"
if [ -s "$tmp/want.txt" ] && cmp -s "$tmp/got.txt" "$tmp/want.txt"; then
	ok "taken edges (count, M, P, X, A, cycles) and fall-through ranges (count, cycles) equal perf's: $(grep -c ^taken "$tmp/want.txt") edges, $(grep -c ^range "$tmp/want.txt") ranges"
else
	diff "$tmp/want.txt" "$tmp/got.txt" >"$tmp/edges.diff"
	not_ok "taken edges and fall-through ranges equal perf's" "$tmp/edges.diff"
fi

# Every entry and range counted once: all = perf's; the kernel class = the ends perf cannot name.
want=$(awk '$1 == "entries" { e = $2 } $1 == "taken" { if ($5 == "[unknown]" || $6 == "[unknown]") ku += $2 }
	$1 == "range" { r += $2; if ($5 == "[unknown]" || $6 == "[unknown]") kr += $2 }
	END { print e, r, ku + 0, kr + 0 }' "$d/oracle-brstacksym.txt")
got=$(awk '$1 == "branch-total" && $3 == "all" { e = $4; r = $5 } $1 == "branch-total" && $3 == "kernel" { ku = $4; kr = $5 }
	$1 == "branch-total" && $3 != "all" { se += $4; sr += $5 }
	END { if (se != e || sr != r) print "classes sum to", se, sr; print e, r, ku + 0, kr + 0 }' "$tmp/s.hbs")
if [ "$got" = "$want" ]; then
	ok "branch-total: $want (entries, ranges; of them kernel) as perf counts them, the classes summing to all"
else
	echo "want $want; got $got" >"$tmp/totals"
	not_ok "branch-total as perf counts the entries and ranges" "$tmp/totals"
fi

# The post-processor's per-function edges and ranges (--json --all) against the same oracle.
"$POSTPROC" --json --all "$tmp/s.hbs" >"$tmp/s.json" 2>"$tmp/json.err" ||
	not_ok "hotblocks --json --all on the lbr-propeller stream" "$tmp/json.err"
node -e '
const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
const at = (name, off) => name + "+0x" + off.toString(16);
const out = [];
for (const f of r.functions) {
	for (const b of f.branches)
		out.push(["taken", b.count, at(f.name, b.from), at(b.to_name, b.to), b.mispredicted, b.predicted,
			  b.in_tx, b.abort, b.cycles_count, b.cycles_sum].join(" "));
	for (const g of f.ranges)
		out.push(["range", g.count, at(f.name, g.start), at(g.end_name, g.end), g.cycles_count, g.cycles_sum].join(" "));
}
const k = r.branch_stack.classes.kernel || { entries: 0, ranges: 0 };
out.push(["totals", r.branch_stack.entries, r.branch_stack.ranges, k.entries, k.ranges].join(" "));
console.log(out.join("\n"));
' "$tmp/s.json" | sort >"$tmp/json.txt"
{ cat "$tmp/want.txt"; echo "totals $want"; } | sort >"$tmp/want-json.txt"
if [ -s "$tmp/want.txt" ] && cmp -s "$tmp/json.txt" "$tmp/want-json.txt"; then
	ok "hotblocks --json: each function's taken edges and fall-through ranges, and branch_stack, equal perf's"
else
	diff "$tmp/want-json.txt" "$tmp/json.txt" >"$tmp/json.diff"
	not_ok "hotblocks --json: each function's taken edges and fall-through ranges equal perf's" "$tmp/json.diff"
fi

# Block executions and the branch rows' taken / not-taken counts, made again
# from perf's ranges and edges (the oracle) and objdump's instructions of the
# binary: a block's executions are the ranges within its function that hold
# its first byte, but for those that cannot have run straight through (a
# jmp, ret, ud2 or hlt before their end, an end before their start, an end
# that is no instruction start); a branch's not-taken count the ranges that
# hold it before their end; its cycles those of the ranges that begin and end
# in it (the newer entry's cycle count).
objdump -d --no-show-raw-insn "$d/propeller_sample_1.bin" >"$tmp/objdump.txt"
node -e '
const lbr = require(process.argv[4]);
const { r, oracle, insns } = lbr.inputs(process.argv[1], process.argv[2], process.argv[3]);
const ranges = [], taken = {};
for (const f of oracle) {
	if (f[0] === "taken") { const a = lbr.sym(f[4]); if (a) taken[a.fn + " " + a.off] = (taken[a.fn + " " + a.off] || 0) + +f[1]; }
	const g = f[0] === "range" && lbr.straight(f, insns);
	if (g) ranges.push(g);
}
const bad = [];
let blocks = 0, rows = 0;
for (const f of r.functions) {
	for (const b of f.blocks) {
		const want = ranges.filter(g => g.fn === f.name && g.start <= b.start && b.start <= g.end)
			.reduce((n, g) => n + g.count, 0);
		const alone = ranges.filter(g => g.fn === f.name && g.start >= b.start && g.end < b.end);
		const cn = alone.reduce((n, g) => n + g.cn, 0), cs = alone.reduce((n, g) => n + g.cs, 0);
		blocks++;
		if (b.executions !== want) bad.push(f.name + " block " + b.start + ": " + b.executions + ", want " + want);
		if (b.cycles_count !== cn || b.cycles_sum !== cs)
			bad.push(f.name + " block " + b.start + " cycles: " + b.cycles_count + " " + b.cycles_sum + ", want " + cn + " " + cs);
	}
	for (const i of f.instructions) {
		if (!("taken" in i)) continue;
		const nt = ranges.filter(g => g.fn === f.name && g.start <= i.offset && i.offset < g.end)
			.reduce((n, g) => n + g.count, 0);
		const t = taken[f.name + " " + i.offset] || 0;
		rows++;
		if (i.taken !== t || i.not_taken !== nt)
			bad.push(f.name + "+" + i.offset + ": taken " + i.taken + " not " + i.not_taken + ", want " + t + " " + nt);
	}
}
console.log(bad.length ? bad.join("\n") : "ok " + blocks + " blocks, " + rows + " branch rows");
' "$tmp/s.json" "$d/oracle-brstacksym.txt" "$tmp/objdump.txt" "$top/scripts/tests/lbr-ranges.js" >"$tmp/blocks.txt" 2>&1
if grep -q '^ok ' "$tmp/blocks.txt"; then
	ok "block executions and cycles, branch rows' taken / not-taken equal perf's ranges over objdump's code: $(sed 's/^ok //' "$tmp/blocks.txt")"
else
	not_ok "block executions and branch rows' taken / not-taken equal perf's ranges over objdump's code" "$tmp/blocks.txt"
fi
grep -q 'fall-through ranges of the branch stacks cannot have run' "$tmp/json.err" &&
	ok "a note says how many ranges were left out of the block executions" ||
	not_ok "a note says how many ranges were left out of the block executions" "$tmp/json.err"

# The CFG's edge widths from the measured counts: compute_flag's blocks
# (0x0, 0x19, 0x29, 0x31, objdump above) and, from the oracle by hand, its
# edges: taken 0x13 -> 0x29 9871 times (the most), taken 0x24 -> 0x31 5547;
# fall-through into 0x19: the range 0x0 .. 0x24, 5404; into 0x31: 0x29 .. 0x35,
# 9699 (0x29 .. 0x13 ends before it starts). Width = the kind's (1) + 4 x count / 9871.
"$POSTPROC" --dot --function compute_flag "$tmp/s.hbs" 2>/dev/null | grep -- ' -> ' >"$tmp/dot.txt"
awk 'BEGIN {
	printf "\t\"f0-b0\" -> \"f0-b19\" [class=\"fallthrough\", color=\"#555555\", penwidth=%g];\n", 1 + 4 * 5404 / 9871
	printf "\t\"f0-b0\" -> \"f0-b29\" [class=\"taken\", color=\"#1f5fbf\", penwidth=%g];\n", 5
	printf "\t\"f0-b19\" -> \"f0-b31\" [class=\"taken\", color=\"#1f5fbf\", penwidth=%g];\n", 1 + 4 * 5547 / 9871
	printf "\t\"f0-b29\" -> \"f0-b31\" [class=\"fallthrough\", color=\"#555555\", penwidth=%g];\n", 1 + 4 * 9699 / 9871
}' >"$tmp/dot-want.txt"
if cmp -s "$tmp/dot.txt" "$tmp/dot-want.txt"; then
	ok "the CFG's edges are as wide as their measured counts (compute_flag in dot)"
else
	diff "$tmp/dot-want.txt" "$tmp/dot.txt" >"$tmp/dot.diff"
	not_ok "the CFG's edges are as wide as their measured counts (compute_flag in dot)" "$tmp/dot.diff"
fi

# A recording without branch stacks: none of these records.
restore_recording fakejit
plugin_stream "$top/test-data/fakejit/perf.data" "$tmp/f.hbs" 2>/dev/null
if [ -s "$tmp/f.hbs" ] && ! grep -Eq '^(branch|branch-total|range) ' "$tmp/f.hbs"; then
	ok "no branch, branch-total or range record without branch stacks (fakejit)"
else
	not_ok "no branch, branch-total or range record without branch stacks (fakejit)"
fi
echo "1..$tap_n"

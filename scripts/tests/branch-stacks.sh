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
$1 == "range" { print "range", $7, at($2, $3), at($4, $5) }
END { for (k in n) print "taken", n[k], k, m[k] + 0, p[k] + 0, x[k] + 0, a[k] + 0, cn[k] + 0, cs[k] + 0 }
' "$tmp/s.hbs" | sort >"$tmp/got.txt"
awk '$1 == "taken" && $5 != "[unknown]" && $6 != "[unknown]" {
	print "taken", $2, $5, $6, $7, $8, $9, $10, $11, $12 }
$1 == "range" && $5 != "[unknown]" && $6 != "[unknown]" { print "range", $2, $5, $6 }' \
	"$d/oracle-brstacksym.txt" | sort >"$tmp/want.txt"
if [ -s "$tmp/want.txt" ] && cmp -s "$tmp/got.txt" "$tmp/want.txt"; then
	ok "taken edges (count, M, P, X, A, cycles) and fall-through ranges equal perf's: $(grep -c ^taken "$tmp/want.txt") edges, $(grep -c ^range "$tmp/want.txt") ranges"
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
		out.push(["range", g.count, at(f.name, g.start), at(g.end_name, g.end)].join(" "));
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

# A recording without branch stacks: none of these records.
restore_recording fakejit
plugin_stream "$top/test-data/fakejit/perf.data" "$tmp/f.hbs" 2>/dev/null
if [ -s "$tmp/f.hbs" ] && ! grep -Eq '^(branch|branch-total|range) ' "$tmp/f.hbs"; then
	ok "no branch, branch-total or range record without branch stacks (fakejit)"
else
	not_ok "no branch, branch-total or range record without branch stacks (fakejit)"
fi
echo "1..$tap_n"

#!/bin/sh
# SPDX-License-Identifier: MIT
# Skid and the cost by block, on test-data/lbr-propeller (google/autofdo's
# real Intel LBR recording, with cycle counts). With its branch stacks,
# --by-executions ranks every block of the listed functions by the cycles
# of the fall-through ranges through it, each range's cycles (its count x
# its entries' average) shared among its instructions: remade here from
# perf's own range counts (oracle-brstacksym.txt, as branch-stacks.sh
# checks them) over objdump's instructions of the binary. Without them (the
# same stream, its branch records taken out: a constructed input), the note
# names the skid the recording shows: compute_flag's idiv at 0xe with no
# sample and the cmp after it with 28.34% (1060 of 3740, the `sample` lines),
# and main's two divsd. Also: functions that only branch ends fall in are
# counted in a note (a constructed stream: one object added).
. "$(dirname "$0")/lib.sh"
need_private_tmp

d=$top/test-data/lbr-propeller
rec=/tmp/hotblocks-rec/lbr-propeller
restore_recording lbr-propeller
perf --no-pager script -i "$rec/perf.data" --symfs "$rec/sym" --dlfilter "$PLUGIN" \
	--dlarg "out=$tmp/s.hbs" 2>"$tmp/plugin.err" ||
	not_ok "perf script --dlfilter hotblocks.so on lbr-propeller" "$tmp/plugin.err"

"$POSTPROC" --by-executions --json "$tmp/s.hbs" >"$tmp/s.json" 2>"$tmp/json.err" ||
	not_ok "hotblocks --by-executions --json on lbr-propeller" "$tmp/json.err"
objdump -d --no-show-raw-insn "$d/propeller_sample_1.bin" >"$tmp/objdump.txt"
node -e '
const lbr = require(process.argv[4]);
const { r, oracle, insns } = lbr.inputs(process.argv[1], process.argv[2], process.argv[3]);
// per instruction: executions (ranges holding it) and cycles (shared by instructions)
const cyc = {}, runs = {};
for (const f of oracle) {
	const g = f[0] === "range" && lbr.straight(f, insns);
	if (!g) continue;
	const held = insns[g.fn].filter(i => i.off >= g.start && i.off <= g.end);
	for (const i of held) {
		const k = g.fn + " " + i.off;
		runs[k] = (runs[k] || 0) + g.count;
		if (g.cn) cyc[k] = (cyc[k] || 0) + g.cs / g.cn * g.count / held.length;
	}
}
const bs = r.branch_stack, bad = [];
let total = 0, last = Infinity;
for (const c of bs.cost_by_block) {
	const is = insns[c.function].filter(i => i.off >= c.start && i.off < c.end);
	const want = is.reduce((n, i) => n + (cyc[c.function + " " + i.off] || 0), 0);
	const ex = runs[c.function + " " + c.start] || 0;
	if (Math.abs(c.cycles - want) > 0.051 || c.executions !== ex || c.insns !== is.length || c.cost !== c.cycles)
		bad.push(c.function + " block " + c.start + ": " + [c.executions, c.insns, c.cycles] + ", want " + [ex, is.length, want.toFixed(1)]);
	if (c.cost > last) bad.push(c.function + " block " + c.start + " is out of order");
	last = c.cost;
	total += c.cost;
}
const top = bs.cost_by_block[0];
if (bs.cost_unit !== "cycles") bad.push("cost_unit " + bs.cost_unit);
if (!top || top.function !== "compute_flag" || top.start !== 0) bad.push("the costliest block is not compute_flag 0x0");
console.log(bad.length ? bad.join("\n") : "ok " + bs.cost_by_block.length + " blocks; compute_flag 0x0 first, " +
	top.cycles + " cycles, " + top.share.toFixed(2) + "% (its samples " + (top.samples / r.total_samples * 100).toFixed(2) + "%)");
' "$tmp/s.json" "$d/oracle-brstacksym.txt" "$tmp/objdump.txt" "$top/scripts/tests/lbr-ranges.js" >"$tmp/cost.txt" 2>&1
if grep -q '^ok ' "$tmp/cost.txt"; then
	ok "--by-executions: each block's executions and cycles as perf's ranges over objdump's code give them, by cost: $(sed 's/^ok //' "$tmp/cost.txt")"
else
	not_ok "--by-executions: each block's executions and cycles as perf's ranges over objdump's code give them" "$tmp/cost.txt"
fi

# The text: the table first, compute_flag 0x0 (by hand: ranges 0x0..0x13
# 89924 cycles, 0x10..0x13 19, and 7 of the 11 instructions of 0x0..0x24's
# 113567: 162212.9 over 14198 executions, 11.4 a run) at the top.
"$POSTPROC" --by-executions "$tmp/s.hbs" >"$tmp/s.txt" 2>/dev/null
if grep -q '^Cost by block, measured by branch stacks (no skid): the cycles of the fall-through ranges' "$tmp/s.txt" &&
   sed -n '/^ *\[Cost\]/{n;p;}' "$tmp/s.txt" | grep -Eq '^ +36\.58% +14198 +7 +11\.4 +35\.21% +`compute_flag` :: block 0x0$'; then
	ok "text: the cost table first, compute_flag 0x0 at the top: 14198 executions, 11.4 cycles a run"
else
	not_ok "text: the cost table first, compute_flag 0x0 at the top" "$tmp/s.txt"
fi
"$POSTPROC" "$tmp/s.hbs" >"$tmp/plain.txt" 2>"$tmp/plain.err"
if ! grep -q 'Cost by block\|skid' "$tmp/plain.txt" "$tmp/plain.err"; then
	ok "without --by-executions no cost table, and no skid note with branch stacks"
else
	not_ok "without --by-executions no cost table, and no skid note with branch stacks" "$tmp/plain.err"
fi

# Without branch stacks: the skid notes, in the order of the shown blocks
# (compute_flag 0x0, 1317 samples, then main 0xc4, 635). By hand from the
# listing: compute_flag's idiv at 0xe has no sample, the cmp at 0x10 1060;
# main's divsd at 0xce none, the movsd at 0xd2 116 (3.10%); its divsd at 0xdc
# 2 (0.05%), the addsd at 0xe0 98 (2.62%): each at least 8 x (its + 1) and
# 1% of the 3740. The same in JSON; a whole report (the page) has none.
grep -Ev '^(branch|branch-total|range) ' "$tmp/s.hbs" >"$tmp/n.hbs"
"$POSTPROC" --by-executions "$tmp/n.hbs" >"$tmp/n.txt" 2>"$tmp/n.err"
grep 'skid' "$tmp/n.err" | sed 's/: a long-latency.*//' >"$tmp/skid.txt"
cat >"$tmp/skid-want.txt" <<'EOF'
hotblocks: note: skid: in compute_flag block 0x0, the idiv at 0xe has 0.00% of the samples and the cmp after it 28.34%
hotblocks: note: skid: in main block 0xc4, the divsd at 0xce has 0.00% of the samples and the movsd after it 3.10%
hotblocks: note: skid: in main block 0xc4, the divsd at 0xdc has 0.05% of the samples and the addsd after it 2.62%
EOF
"$POSTPROC" --json "$tmp/n.hbs" 2>&1 >/dev/null | grep -c 'skid: in ' >"$tmp/skid-json.txt"
"$POSTPROC" --html "$tmp/n.hbs" 2>&1 >/dev/null | grep -c 'skid: in ' >"$tmp/skid-html.txt"
if cmp -s "$tmp/skid.txt" "$tmp/skid-want.txt" && grep -q 'by-executions needs branch stacks' "$tmp/n.err" &&
   ! grep -q 'Cost by block' "$tmp/n.txt" && [ "$(cat "$tmp/skid-json.txt")" = 3 ] && [ "$(cat "$tmp/skid-html.txt")" = 0 ]; then
	ok "without branch stacks: notes name the skid (idiv 0.00% then cmp 28.34% in compute_flag 0x0; main's divsd), and --by-executions says it needs them"
else
	diff "$tmp/skid-want.txt" "$tmp/skid.txt" >"$tmp/skid.diff"
	cat "$tmp/n.err" >>"$tmp/skid.diff"
	not_ok "without branch stacks: notes name the skid" "$tmp/skid.diff"
fi

# A function the branch stacks end in without a sample: an object added to
# the stream (constructed), entered by 7 taken branches from main and run
# through 7 times in a range of its own.
awk '{ print } $1 == "object" && $2 == 1 { sub(/^object 1 /, "object 2 "); sub(/addr=0x[0-9a-f]+/, "addr=0x5629ec743000");
	sub(/name=main/, "name=helper"); print }' "$tmp/s.hbs" |
	sed 's/^end$/branch 1 0x100 2 0x0 0 P 7 0 0\nrange 2 0x0 2 0x10 0 7 0 0\nend/' >"$tmp/u.hbs"
"$POSTPROC" "$tmp/u.hbs" >/dev/null 2>"$tmp/u.err"
if grep -q '1 function the branch stacks end in has no sample of the event, so is not listed: 0 taken branches and 7 fall-through ranges start there' "$tmp/u.err" &&
   ! "$POSTPROC" "$tmp/s.hbs" 2>&1 >/dev/null | grep -q 'branch stacks end in'; then
	ok "a function the branch stacks end in without a sample is counted in a note (constructed: helper, 7 ranges)"
else
	not_ok "a function the branch stacks end in without a sample is counted in a note" "$tmp/u.err"
fi
echo "1..$tap_n"

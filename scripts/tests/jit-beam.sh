#!/bin/sh
# SPDX-License-Identifier: MIT
# End-to-end: Erlang/OTP 25's BeamAsm recording (test-data/jit-beam) as its
# users know it (postproc/annotate/beam/beam.h), against perf's own answer
# committed beside it (test-data/jit-oracle.sh: perf inject --jit, then perf
# script; oracle-sym.txt per symbol, oracle-srcline.txt with perf's source
# line of each sample, from inject's .debug_line). From hotblocks --json --all:
#  1. the hot loop hot:loop/3 is one function: its prologue load
#     (hot:loop/3-CodeInfoPrologue) is in it, not beside it, its samples are
#     the sum of perf's counts of the two symbols, and the loop's back edge
#     (the tail call to the prologue's +0x28) is an edge inside it: the
#     JSON's jump to 0x28, and in the function's graph (--dot: the report's
#     edges; the JSON has none) a back edge to the block at 0x28;
#  2. the func_info words are data rows, never instructions: at the
#     prologue's +0x08..+0x28 four .quad rows, the last the arity 3;
#  3. every sampled BEAM function is joined so (the plugin writes the other
#     load of a sampled one), its samples perf's two symbols' sum, the
#     arity word its name's;
#  4. >= 99% of hot:loop/3's samples carry a source line, and where perf
#     gives one (the body's offsets; perf has none for the prologue), ours is
#     perf's, offset for offset.
. "$(dirname "$0")/lib.sh"
need_private_tmp

case=jit-beam
restore_recording "$case"
cdir=$top/test-data/$case
plugin_stream "$(recording_data "$case")" "$tmp/beam.hbs" 2>"$tmp/plugin-err" ||
	{ not_ok "$case: perf script --dlfilter hotblocks.so" "$tmp/plugin-err"; exit 0; }
"$POSTPROC" --json --all "$tmp/beam.hbs" >"$tmp/beam.json" 2>"$tmp/err" ||
	{ not_ok "$case: hotblocks --json --all" "$tmp/err"; exit 0; }
"$POSTPROC" --dot --all --function 'hot:loop/3' "$tmp/beam.hbs" >"$tmp/beam.dot" 2>"$tmp/err" ||
	{ not_ok "$case: hotblocks --dot --function hot:loop/3" "$tmp/err"; exit 0; }
# its back edges: "FROM-BLOCK-HEX TO-BLOCK-HEX"
sed -n 's/^\t"f0-b\([0-9a-f]*\)" -> "f0-b\([0-9a-f]*\)" \[class="[a-z]* back".*/\1 \2/p' "$tmp/beam.dot" >"$tmp/back"

# perf's counts per symbol of JIT code: "NAME<TAB>COUNT"
sed -n 's/^ *\([0-9][0-9]*\) \(.*\) (.*\/jitted-[0-9]*-[0-9]*\.so)$/\2	\1/p' \
	"$cdir/oracle-sym.txt" >"$tmp/perf-sym"
# perf's source line per body offset: "NAME<TAB>HEX-OFFSET<TAB>FILE:LINE"
sed -n 's/^ *[0-9][0-9]* \(.*\)+0x\([0-9a-f]*\) (.*\/jitted-[0-9]*-[0-9]*\.so)	\(.*\)$/\1	\2	\3/p' \
	"$cdir/oracle-srcline.txt" >"$tmp/perf-srcline"

node -e '
const fs = require("fs"), [json, sym, src, backs, base] = process.argv.slice(1);
const d = JSON.parse(fs.readFileSync(json));
const perf = new Map(fs.readFileSync(sym, "utf8").split("\n").filter(Boolean)
	.map(l => { const [n, c] = l.split("\t"); return [n, +c]; }));
const lines = new Map();
for (const l of fs.readFileSync(src, "utf8").split("\n").filter(Boolean)) {
	const [n, off, line] = l.split("\t");
	lines.set(n + "+" + off, line);
}
const out = [], bad = [];
const P = "-CodeInfoPrologue";
const fs_ = d.functions.filter(f => f.kind === "jit");
const byName = new Map(fs_.map(f => [f.name, f]));
const hot = byName.get("hot:loop/3");
// 1. one function, the sum, the back edge inside
if (!hot) bad.push("1 no hot:loop/3");
else {
	if (byName.has("hot:loop/3" + P)) bad.push("1 the prologue is a function of its own");
	const want = (perf.get("hot:loop/3") || 0) + (perf.get("hot:loop/3" + P) || 0);
	if (hot.samples !== want || !want) bad.push("1 samples " + hot.samples + ", perf " + want);
	const back = fs.readFileSync(backs, "utf8").split("\n").filter(Boolean).map(l => l.split(" ").map(h => parseInt(h, 16)));
	const tail = hot.instructions.filter(i => /^jmp +0x28$/.test(i.asm));
	out.push("samples=" + hot.samples + " perf=" + want + " back_edges=" + JSON.stringify(back) +
		" tail_calls=" + JSON.stringify(tail.map(i => i.offset)));
	// the tail call: jmp to prologue +0x28, a back edge inside the function
	if (!tail.length || !back.some(([from, to]) => to === 0x28 && from < tail[0].offset &&
					   hot.blocks.some(b => b.start === from && b.end > tail[0].offset)))
		bad.push("1 no back edge from the tail call to +0x28 inside hot:loop/3: " + JSON.stringify(back));
	// 2. the func_info words
	const rows = hot.instructions.filter(i => i.offset >= 8 && i.offset < 0x28);
	const asm = rows.map(i => i.asm.replace(/ +/g, " "));
	out.push("words=" + JSON.stringify(asm));
	if (rows.length !== 4 || !asm.every(a => a.startsWith(".quad ")) || asm[3] !== ".quad 0x3")
		bad.push("2 func_info rows " + JSON.stringify(asm));
	if (hot.instructions.some(i => i.asm.includes(P)))
		bad.push("2 an instruction still names the prologue");
	// 4. source lines
	let withSrc = 0, cmp = 0;
	for (const i of hot.instructions) {
		if (!i.samples) continue;
		if (i.source) withSrc += i.samples;
		const body = i.offset - 0x30;
		const p = body >= 0 ? lines.get("hot:loop/3+" + body.toString(16)) : undefined;
		if (p === undefined) continue;
		cmp += i.samples;
		if (p !== i.source) bad.push("4 +0x" + i.offset.toString(16) + ": " + i.source + ", perf " + p);
	}
	out.push("with_source=" + withSrc + " compared=" + cmp);
	if (withSrc * 100 < hot.samples * 99) bad.push("4 " + withSrc + " of " + hot.samples + " with a source line");
	if (!cmp) bad.push("4 nothing compared with perf");
}
// 3. every sampled BEAM function (M:F/A; not global:: or M::codeHeader):
// joined, the plugin having written the other load of either, with the
// func_info words of its own arity, perf sum of the two symbols
let joined = 0;
for (const [n, c] of perf) {
	const body = n.endsWith(P) ? n.slice(0, -P.length) : n;
	if (body.includes("::") || !/\/[0-9]+$/.test(body)) continue;
	const f = byName.get(body);
	if (!f) { bad.push("3 no " + body); continue; }
	if (n !== body) continue;
	joined++;
	const want = c + (perf.get(body + P) || 0);
	if (f.samples !== want) bad.push("3 " + f.name + ": " + f.samples + ", perf " + want);
	const ar = f.instructions.find(i => i.offset === 0x20), en = f.instructions.find(i => i.offset === 0x28);
	if (!ar || ar.asm.replace(/ +/g, " ") !== ".quad 0x" + (+body.split("/").pop()).toString(16) ||
	    !en || !/^jmp +0x30$/.test(en.asm))
		bad.push("3 " + f.name + ": no prologue in front: " + JSON.stringify([ar, en]));
}
for (const f of fs_)
	if (f.name.endsWith(P)) bad.push("3 " + f.name + " is a function of its own");
out.push("sampled_beam_functions_joined=" + joined);
fs.writeFileSync(base + ".out", out.join("\n") + "\n");
fs.writeFileSync(base + ".bad", bad.join("\n") + (bad.length ? "\n" : ""));
' "$tmp/beam.json" "$tmp/perf-sym" "$tmp/perf-srcline" "$tmp/back" "$tmp/beam"

sed 's/^/# /' "$tmp/beam.out"
for n in 1 2 3 4; do
	case $n in
	1) what="hot:loop/3 is one function with the prologue, perf's two symbols' samples, its loop's back edge inside it" ;;
	2) what="the func_info words are four .quad rows (the arity 3 last), no instruction names the prologue" ;;
	3) what="every sampled BEAM function has its prologue in front, the arity word its own, perf's sum of the two symbols" ;;
	4) what=">= 99% of hot:loop/3's samples have a source line, perf's where perf has one" ;;
	esac
	if grep -q "^$n " "$tmp/beam.bad"; then
		grep "^$n " "$tmp/beam.bad" >"$tmp/bad-$n"
		not_ok "$case: $what" "$tmp/bad-$n"
	else
		ok "$case: $what"
	fi
done

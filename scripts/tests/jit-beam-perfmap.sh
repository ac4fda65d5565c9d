#!/bin/sh
# SPDX-License-Identifier: MIT
# End-to-end: Erlang/OTP 25's BeamAsm with its perf map alone (`erl +JPperf
# map`, test-data/jit-beam-perfmap: no jitdump, so no code bytes) shows each
# function as one, prologue and body, as the jitdump path does
# (postproc/annotate/beam/beam.h; jit-beam.sh), against perf's own
# attribution committed beside it (test-data/jit-oracle.sh: perf script reads
# /tmp/perf-PID.map; oracle-sym.txt per symbol, oracle-symoff.txt per
# symbol+offset) and the map itself:
#  1. no function is a `-CodeInfoPrologue` of its own; every BEAM function
#     perf samples (`$M:F/A`, `$M:F/A-CodeInfoPrologue`) is one function
#     `$M:F/A` with the sum of perf's counts of the two symbols;
#  2. each starts at its prologue's address and spans both ranges, as the
#     map's two lines give them, whichever had the samples (the plugin
#     writes the other range of a sampled one): one with samples in both,
#     one with samples in its prologue alone among them;
#  3. its samples by offset (`--function NAME`), each at the name perf gives
#     it (NAME+0xOFF, NAME-CodeInfoPrologue+0xOFF), are perf script's, for
#     every function with a sample in its prologue and for the hottest;
#  4. its entry names its runtime and the flag that writes a jitdump.
. "$(dirname "$0")/lib.sh"
need_private_tmp

case=jit-beam-perfmap
restore_recording "$case"
cdir=$top/test-data/$case
plugin_stream "$(recording_data "$case")" "$tmp/beam.hbs" 2>"$tmp/plugin-err" ||
	{ not_ok "$case: perf script --dlfilter hotblocks.so" "$tmp/plugin-err"; exit 0; }
"$POSTPROC" --json --all "$tmp/beam.hbs" >"$tmp/beam.json" 2>"$tmp/err" ||
	{ not_ok "$case: hotblocks --json --all" "$tmp/err"; exit 0; }
map=$(ls /tmp/perf-*.map)
P=-CodeInfoPrologue

# perf's counts per symbol of the map: "NAME<TAB>COUNT"
sed -n "s|^ *\([0-9][0-9]*\) \(.*\) ($map)\$|\2	\1|p" "$cdir/oracle-sym.txt" >"$tmp/perf-sym"
# the map's lines of those: "NAME<TAB>START<TAB>SIZE"
awk '{ n = $0; sub(/^[^ ]+ [^ ]+ /, "", n); print n "\t" $1 "\t" $2 }' "$map" >"$tmp/map-lines"

node -e '
const fs = require("fs"), [json, sym, lines, base, P] = process.argv.slice(1);
const d = JSON.parse(fs.readFileSync(json));
const perf = new Map(fs.readFileSync(sym, "utf8").split("\n").filter(Boolean)
	.map(l => { const [n, c] = l.split("\t"); return [n, +c]; }));
const map = new Map(fs.readFileSync(lines, "utf8").split("\n").filter(Boolean)
	.map(l => { const [n, a, s] = l.split("\t"); return [n, [BigInt(a), BigInt("0x" + s)]]; }));
const fns = d.functions.filter(f => f.source === "perf-map");
const byName = new Map(fns.map(f => [f.name, f]));
const out = [], bad = [];
let beam = 0, joined = 0, both = 0, lone = 0;
for (const f of fns)
	if (f.name.endsWith(P)) bad.push("1 " + f.name + " is a function of its own");
for (const [n, c] of perf) {
	const body = n.endsWith(P) ? n.slice(0, -P.length) : n;
	if (!body.startsWith("$") || !/\/[0-9]+$/.test(body) || body.includes("::")) continue;
	if (n !== body && perf.has(body)) continue;	/* counted with its body */
	beam++;
	const f = byName.get(body);
	const want = (perf.get(body) || 0) + (perf.get(body + P) || 0);
	if (!f) { bad.push("1 no " + body); continue; }
	if (f.samples !== want) bad.push("1 " + body + ": " + f.samples + ", perf " + want);
	const pl = map.get(body + P), bl = map.get(body);
	if (!pl || !bl || pl[0] + pl[1] !== bl[0]) continue;
	// 2. its extent: from the start of the prologue over both ranges,
	// whichever of the two had the samples
	const start = BigInt(f.address), size = BigInt(f.size);
	if (start !== pl[0] || size !== pl[1] + bl[1])
		bad.push("2 " + body + ": at 0x" + start.toString(16) + " size 0x" + size.toString(16) +
			 ", the map 0x" + pl[0].toString(16) + " 0x" + pl[1].toString(16) + " + 0x" + bl[1].toString(16));
	joined++;
	if (perf.has(body + P)) (perf.has(body) ? both++ : lone++);
}
out.push("beam_functions=" + beam + " joined=" + joined + " sampled_in_both=" + both + " in_the_prologue_alone=" + lone);
if (!both || !lone) bad.push("2 no function has samples in both its prologue and its body, or none in its prologue alone");
fs.writeFileSync(base + ".out", out.join("\n") + "\n");
fs.writeFileSync(base + ".bad", bad.join("\n") + (bad.length ? "\n" : ""));
// 3. the functions whose offsets are compared: those with a prologue sample, and the hottest
const names = [...new Set([...perf.keys()].filter(n => n.endsWith(P)).map(n => n.slice(0, -P.length))
	.concat(fns.filter(f => f.name.startsWith("$")).sort((a, b) => b.samples - a.samples).slice(0, 1).map(f => f.name)))];
fs.writeFileSync(base + ".names", names.join("\n") + "\n");
' "$tmp/beam.json" "$tmp/perf-sym" "$tmp/map-lines" "$tmp/beam" "$P"

sed 's/^/# /' "$tmp/beam.out"
for n in 1 2; do
	case $n in
	1) what="every sampled BEAM function is one, its prologue in it, with perf's two symbols' samples" ;;
	2) what="each starts at its prologue and spans both ranges of the map, whichever had the samples" ;;
	esac
	if grep -q "^$n " "$tmp/beam.bad"; then
		grep "^$n " "$tmp/beam.bad" >"$tmp/bad-$n"
		not_ok "$case: $what" "$tmp/bad-$n"
	else
		ok "$case: $what"
	fi
done

# 3 and 4, by the text report's entry of each
: >"$tmp/off.bad"
: >"$tmp/flag.bad"
k=0
while IFS= read -r fn; do
	[ -n "$fn" ] || continue
	k=$((k + 1))
	"$POSTPROC" --all --function "$fn" "$tmp/beam.hbs" >"$tmp/fn.$k" 2>/dev/null
	# ours: "COUNT NAME+0xOFF" of its rows
	awk '/\+0x[0-9a-f]+$/ { c = $2; $1 = ""; $2 = ""; sub(/^ +/, ""); print c, $0 }' "$tmp/fn.$k" | sort >"$tmp/off.ours.$k"
	# perf's: the rows of the body's and the prologue's names
	awk -v n="$fn" -v p="$fn$P" -v m="($map)" '$NF == m {
		c = $1; s = $0; sub(/^ *[0-9]+ /, "", s); sub(/ \([^()]*\)$/, "", s)
		if (substr(s, 1, length(n) + 3) == n "+0x" || substr(s, 1, length(p) + 3) == p "+0x") print c, s }' \
		"$cdir/oracle-symoff.txt" | sort >"$tmp/off.perf.$k"
	if [ ! -s "$tmp/off.perf.$k" ] || ! diff -u "$tmp/off.perf.$k" "$tmp/off.ours.$k" >>"$tmp/off.bad"; then
		echo "$fn: above" >>"$tmp/off.bad"
	fi
	grep -q "^no instructions: a perf map ($map) names this code of BEAM (Erlang/OTP), .*erl +JPperf true writes a jitdump" \
		"$tmp/fn.$k" || { echo "$fn:"; grep '^no instructions' "$tmp/fn.$k"; } >>"$tmp/flag.bad"
done <"$tmp/beam.names"
if [ "$k" -gt 1 ] && [ ! -s "$tmp/off.bad" ]; then
	ok "$case: the samples by offset of $k functions are perf script's, at perf's names (the prologue's rows too)"
else
	not_ok "$case: the samples by offset are perf script's, at perf's names ($k functions)" "$tmp/off.bad"
fi
if [ "$k" -gt 0 ] && [ ! -s "$tmp/flag.bad" ]; then
	ok "$case: each entry names BEAM and the flag that writes a jitdump (+JPperf true)"
else
	not_ok "$case: each entry names BEAM and the flag that writes a jitdump" "$tmp/flag.bad"
fi

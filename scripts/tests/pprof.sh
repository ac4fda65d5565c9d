#!/bin/sh
# SPDX-License-Identifier: MIT
# hotblocks --pprof, read by the real client: Debian's `go tool pprof`
# (golang-go), on the profiles of real committed recordings: V8 (v8-wasm; and
# v8-perfmap, code a perf map names, without code bytes),
# wasmtime 48.0.2 (wasmtime-real/48.0.2/switch, its jitdump recording, with
# --cwasm and --wasm) and native code (native-mt-fork: a program, its shared
# library and libc, in four processes). For each:
#  - pprof -top (by samples/count): every function's samples equal the
#    "samples" of hotblocks --json --all's sampled_functions, summed by
#    display name as pprof sums by name; the total equals the report's, and
#    [kernel] and [unattributed.*] its classes;
#  - pprof -raw: every sampled instruction's samples at its address equal
#    its "samples" in the JSON (an address taken relative to its Mapping,
#    which pprof moves when one file is mapped by several processes), and
#    every sampled address (instruction start or not, code bytes or not)
#    equals the stream's own `sample` lines, per file; the cpu/nanoseconds
#    total equals the stream's `total <ev> all` period;
#  - pprof -addresses -top: the same per address, as pprof lists it;
#  - pprof -traces: every trace is one frame (these recordings have no
#    callchains; scripts/tests/callchains.sh checks stacks)
#    and they sum to the total; labels kind, block, pid are there (tier on
#    V8's code, wasm_offset on wasmtime's);
#  - the Mappings name the files' build-ids as readelf -n reads them.
# Then pprof -proto merges two exports with counts summed, --function
# selects as the report does, and an input is never overwritten.
# go tool pprof runs in the test's scratch directory (need_go_pprof, lib.sh):
# it writes nothing outside it. Without go the whole test is skipped, saying
# so.
. "$(dirname "$0")/lib.sh"

need_go_pprof "the pprof export was NOT checked by its client"

R=$top/test-data/wasmtime-real
# The streams: each recording's files back where it ran.
restore_recording v8-wasm
plugin_stream "$top/test-data/v8-wasm/perf.data" "$tmp/v8.hbs" 2>/dev/null
set -- --wasm "$top/test-data/v8-wasm/hot.wasm"
v8_args="$*"
d=$R/48.0.2/switch rec=/tmp/hotblocks-rec/wasmtime-48.0.2-switch
mkdir -p "$rec/jitdump" && cp "$d/module.cwasm" "$rec/" && cp "$d"/jitdump/jit-*.dump "$rec/jitdump/"
plugin_stream "$d/jitdump/perf.data" "$tmp/wt.hbs" 2>/dev/null
wt_args="--cwasm $d/module.cwasm --wasm $R/switch.wasm"
restore_recording native-mt-fork
plugin_stream "$(recording_data native-mt-fork)" "$tmp/native.hbs" 2>/dev/null
native_args=
# V8 named by its perf map (node --perf-basic-prof): code without code bytes
restore_recording v8-perfmap
plugin_stream "$(recording_data v8-perfmap)" "$tmp/perfmap.hbs" 2>/dev/null
perfmap_args=

# compare_counts WHAT OURS THEIRS: two "KEY<TAB>COUNT" lists, sorted, equal.
compare_counts() {
	sort "$2" >"$2.s" && sort "$3" >"$3.s"
	n=$(wc -l <"$2.s")
	if [ "$n" -ge 1 ] && diff -u "$2.s" "$3.s" >"$tmp/cmp.out"; then ok "$1 ($n agree)"
	else not_ok "$1" "$tmp/cmp.out"; fi
}

# The JSON's view, by node: per display name, per address relative to its
# mapping (a file's code: its file offset, sym_start + offset; JIT code and
# perf maps: the address), the total, the classes.
json_views() {	# JSON OUT-PREFIX
	node -e '
const fs = require("fs");
const [json, out] = process.argv.slice(1);
const d = JSON.parse(fs.readFileSync(json));
const byName = new Map(), byAddr = [];
for (const f of d.sampled_functions)
	byName.set(f.display_name, (byName.get(f.display_name) || 0) + f.samples);
const file = f => (f.kind === "native" || f.kind === "cwasm") && !(f.dso || "").startsWith("/tmp/perf-");
for (const f of d.functions) {
	const base = file(f) ? BigInt(f.sym_start) : BigInt(f.address);
	for (const i of f.instructions)
		if (i.samples) byAddr.push(f.display_name + "\t0x" + (base + BigInt(i.offset)).toString(16) + "\t" + i.samples);
}
const s = d.samples;
if (s.kernel) byName.set("[kernel]", s.kernel);
for (const [k, v] of Object.entries(s.unattributed || {})) if (v) byName.set("[unattributed." + k + "]", v);
fs.writeFileSync(out + ".names", [...byName].map(([k, v]) => k + "\t" + v).join("\n") + "\n");
fs.writeFileSync(out + ".addrs", byAddr.join("\n") + "\n");
fs.writeFileSync(out + ".total", d.total_samples + "\n");
' "$1" "$2"
}

# pprof -raw's view: per (function, address relative to its mapping) and the
# totals of both values; the mappings ("START LIMIT OFFSET FILE BUILD-ID").
raw_views() {	# RAW OUT-PREFIX
	node -e '
const fs = require("fs");
const [raw, out] = process.argv.slice(1);
const lines = fs.readFileSync(raw, "utf8").split("\n");
let sec = "", samples = [], locs = new Map(), maps = new Map();
for (const l of lines) {
	if (/^(Samples|Locations|Mappings):/.test(l) || /^(Locations|Mappings)$/.test(l)) { sec = l.replace(":", ""); continue; }
	let m;
	if (sec === "Samples" && (m = l.match(/^\s+(\d+)\s+(\d+): ([\d ]+?)\s*$/)))
		samples.push({ n: BigInt(m[1]), v: BigInt(m[2]), locs: m[3].trim().split(/\s+/) });
	else if (sec === "Locations" && (m = l.match(/^\s+(\d+): (0x[0-9a-f]+) M=(\d+) (.*?) (\S*):(\d+) s=\d+(?:\(.*\))?$/)))
		locs.set(m[1], { addr: BigInt(m[2]), map: m[3], func: m[4] });
	else if (sec === "Locations" && (m = l.match(/^\s+(\d+): (0x[0-9a-f]+) (.*?) (\S*):(\d+) s=\d+(?:\(.*\))?$/)))
		locs.set(m[1], { addr: BigInt(m[2]), map: null, func: m[3] });
	else if (sec === "Mappings" && (m = l.match(/^(\d+): (0x[0-9a-f]+)\/(0x[0-9a-f]+)\/(0x[0-9a-f]+) (\S+)\s+(\S*)/)))
		maps.set(m[1], { start: BigInt(m[2]), limit: BigInt(m[3]), off: BigInt(m[4]), file: m[5], bid: m[6].startsWith("[") ? "" : m[6] });
}
const byAddr = new Map(), byFile = new Map();
let n = 0n, v = 0n, frames = 0;
for (const s of samples) {
	n += s.n; v += s.v; frames = Math.max(frames, s.locs.length);
	const loc = locs.get(s.locs[0]);
	if (!loc.map) continue;
	const mp = maps.get(loc.map);
	const rel = "0x" + (loc.addr - mp.start + mp.off).toString(16);
	const key = loc.func + "\t" + rel;
	byAddr.set(key, (byAddr.get(key) || 0n) + s.n);
	byFile.set(mp.file + "\t" + rel, (byFile.get(mp.file + "\t" + rel) || 0n) + s.n);
}
fs.writeFileSync(out + ".files", [...byFile].map(([k, c]) => k + "\t" + c).join("\n") + "\n");
fs.writeFileSync(out + ".addrs", [...byAddr].map(([k, c]) => k + "\t" + c).join("\n") + "\n");
fs.writeFileSync(out + ".totals", n + " " + v + " " + frames + "\n");
fs.writeFileSync(out + ".maps", [...maps.values()].map(m => "0x" + m.start.toString(16) + " 0x" + m.limit.toString(16) + " 0x" + m.off.toString(16) + " " + m.file + " " + (m.bid || "-")).join("\n") + "\n");
' "$1" "$2"
}

# The stream's own view (the plugin's sample lines, of the first event): per
# file and address relative to it, every sampled address, instruction start
# or not, code bytes or not: a file's code by its file offset (sym-start +
# offset), a JIT load's and a perf map's by its address.
stream_view() {	# STREAM OUT
	awk '$1 == "hotblocks-stream" { delete kind }
	     $1 == "object" { kind[$2] = $3; addr[$2] = 0; sym[$2] = 0; file[$2] = ""; pm[$2] = 0
		for (i = 4; i <= NF; i++) { split($i, kv, "=")
			if (kv[1] == "addr") addr[$2] = kv[2]; if (kv[1] == "sym-start") sym[$2] = kv[2]
			if (kv[1] == "dso" || kv[1] == "dump") file[$2] = kv[2]; if ($i == "source=perf-map") pm[$2] = 1 } }
	     $1 == "sample" && $3 == 0 { base = (kind[$2] == "jit" || pm[$2]) ? addr[$2] : sym[$2]
		print file[$2] "\t" base "\t" $4 "\t" $5 }' "$1" |
	node -e '
const lines = require("fs").readFileSync(0, "utf8").trim().split("\n");
const sum = new Map();
for (const l of lines) {
	const [f, base, off, n] = l.split("\t");
	const k = decodeURIComponent(f) + "\t0x" + (BigInt(base) + BigInt(off)).toString(16);
	sum.set(k, (sum.get(k) || 0) + Number(n));
}
console.log([...sum].map(([k, v]) => k + "\t" + v).join("\n"));' >"$2"
}

for c in v8 wt native perfmap; do
	eval "args=\$${c}_args"
	# shellcheck disable=SC2086
	"$POSTPROC" --json --all $args "$tmp/$c.hbs" >"$tmp/$c.json" 2>/dev/null
	# shellcheck disable=SC2086
	check "$c: hotblocks --pprof writes the profile" "$POSTPROC" --pprof "$tmp/$c.pb.gz" $args "$tmp/$c.hbs"
	check "$c: the profile is gzip-compressed" gzip -t "$tmp/$c.pb.gz"
	json_views "$tmp/$c.json" "$tmp/$c.j"

	# -top by samples: every function, by name
	pprof -sample_index=samples -top -nodecount=1000000 -nodefraction=0 "$tmp/$c.pb.gz" >"$tmp/$c.top"
	sed 1d "$tmp/$c.top" >"$tmp/$c.top.body"	# but its "File:" line
	awk '/^ *flat/ { on = 1; next } on && NF >= 6 { name = $6; for (i = 7; i <= NF; i++) name = name " " $i; print name "\t" $1 }' \
		"$tmp/$c.top" >"$tmp/$c.p.names"
	compare_counts "$c: go tool pprof -top's samples per function equal hotblocks --json's" \
		"$tmp/$c.j.names" "$tmp/$c.p.names"
	total=$(cat "$tmp/$c.j.total")
	check "$c: go tool pprof -top's total is the report's, $total samples" \
		grep -q "of $total total" "$tmp/$c.top"

	# -raw: per address, both totals, one frame a sample
	pprof -raw "$tmp/$c.pb.gz" >"$tmp/$c.raw"
	raw_views "$tmp/$c.raw" "$tmp/$c.r"
	awk -F'\t' '{ print $1 "\t" $2 "\t" $3 }' "$tmp/$c.j.addrs" >"$tmp/$c.j.a"
	# the JSON lists instructions: samples inside one or past the code are in no row
	awk -F'\t' 'NR == FNR { want[$1 "\t" $2] = 1; next } ($1 "\t" $2) in want' "$tmp/$c.j.a" "$tmp/$c.r.addrs" >"$tmp/$c.r.a"
	compare_counts "$c: go tool pprof -raw's samples per address equal hotblocks --json's per instruction" \
		"$tmp/$c.j.a" "$tmp/$c.r.a"
	stream_view "$tmp/$c.hbs" "$tmp/$c.s.files"
	compare_counts "$c: go tool pprof -raw's samples per file and address equal the stream's sample lines, every one" \
		"$tmp/$c.s.files" "$tmp/$c.r.files"
	period=$(awk '$1 == "total" && $3 == "all" { p += $5 } END { print p }' "$tmp/$c.hbs")
	read -r rn rv frames <"$tmp/$c.r.totals"
	check "$c: -raw sums $total samples and $period of the period, the stream's total (one frame a sample)" \
		sh -c "test '$rn' = '$total' && test '$rv' = '$period' && test '$frames' = 1"

	# -addresses -top: per address as pprof lists it (relative to the -raw
	# mappings, which are the same after pprof merged them)
	pprof -sample_index=samples -addresses -top -nodecount=1000000 -nodefraction=0 "$tmp/$c.pb.gz" >"$tmp/$c.addr"
	node -e '
const fs = require("fs");
const [top, maps, want] = process.argv.slice(1);
const ms = fs.readFileSync(maps, "utf8").trim().split("\n").map(l => l.split(" ")).map(([s, e, o]) => [BigInt(s), BigInt(e), BigInt(o)]);
// the names at each address: pprof prints "ADDRESS NAME[ FILE:LINE]", and
// a name may hold spaces (as V8 names JS code: "JS:*work /path/run.js:12:21")
const names = new Map();
for (const l of fs.readFileSync(want, "utf8").trim().split("\n")) {
	const [n, a] = l.split("\t");
	names.set(a, (names.get(a) || []).concat([n]));
}
let on = false;
for (const l of fs.readFileSync(top, "utf8").split("\n")) {
	if (/^\s*flat/.test(l)) { on = true; continue; }
	const m = on && l.match(/^\s*(\d+)\s+\S+\s+\S+\s+\d+\s+\S+\s+([0-9a-f]{16}) (.*)$/);
	if (!m) continue;
	// the narrowest mapping holding it: V8 logs its builtins, inside the node
	// binary text, as JIT loads of their own
	const a = BigInt("0x" + m[2]);
	const mp = ms.filter(([s, e]) => a >= s && a < e).sort((x, y) => (x[1] - x[0] < y[1] - y[0] ? -1 : 1))[0];
	if (!mp) continue;
	const rel = "0x" + (a - mp[0] + mp[2]).toString(16);
	const name = (names.get(rel) || []).filter(n => m[3] === n || m[3].startsWith(n + " ")).sort((x, y) => y.length - x.length)[0];
	if (name !== undefined) console.log(name + "\t" + rel + "\t" + m[1]);
}' "$tmp/$c.addr" "$tmp/$c.r.maps" "$tmp/$c.j.a" >"$tmp/$c.a.a"
	compare_counts "$c: go tool pprof -addresses's samples per address equal hotblocks --json's" \
		"$tmp/$c.j.a" "$tmp/$c.a.a"

	# -traces: one frame each, summing to the total, with the labels
	pprof -sample_index=samples -traces "$tmp/$c.pb.gz" >"$tmp/$c.traces"
	awk '/^-+\+-+$/ { if (frames > 1) multi++; frames = 0; next }
	     /^ +[a-z_]+: / { next }
	     /^ +[0-9]+ +/ { sum += $1; frames = 1; next }
	     /^ +[^ ]/ && frames { frames++ }
	     END { print sum + 0, multi + 0 }' "$tmp/$c.traces" >"$tmp/$c.t"
	check "$c: go tool pprof -traces: $total samples, every trace one frame" \
		test "$(cat "$tmp/$c.t")" = "$total 0"
	check "$c: the traces carry the labels kind, block and pid" \
		sh -c "grep -q '^ *kind:  ' $tmp/$c.traces && grep -q '^ *block:  0x' $tmp/$c.traces && grep -q '^ *pid:  [0-9]' $tmp/$c.traces"
done
check "v8: V8's TurboFan code is labelled tier turbofan" grep -q '^ *tier:  turbofan' "$tmp/v8.traces"
check "wt: wasmtime's code is labelled with its wasm offsets" grep -q '^ *wasm_offset:  0x' "$tmp/wt.traces"
check "wt: wasmtime's wasm code is named by its wasm name, with its source file:line" \
	grep -Eq '[0-9a-f]{16} [^ ]+ [^ ]*switch\.c:[0-9]+$' "$tmp/wt.addr"
check "native: the program's code carries its source file:line" \
	grep -Eq ' mix .*/libwork\.c:[0-9]+$' "$tmp/native.addr"

# Build-ids: the native mappings name the ones readelf -n reads in the files.
: >"$tmp/bid.out"
while read -r _ _ _ file bid; do
	[ -f "$file" ] || continue
	theirs=$(readelf -n "$file" 2>/dev/null | sed -n 's/.*Build ID: //p')
	[ -n "$theirs" ] && echo "$file $bid $theirs" >>"$tmp/bid.out"
done <"$tmp/native.r.maps"
check "native: each file's Mapping has the build-id readelf -n reads in it (libwork.so, libc)" \
	sh -c "grep -q libwork.so $tmp/bid.out && awk '\$2 != \$3 { bad = 1 } END { exit bad }' $tmp/bid.out"

# Merge: pprof -proto of two profiles of the same event type sums them.
pprof -proto "$tmp/v8.pb.gz" "$tmp/native.pb.gz" >"$tmp/merged.pb.gz"
pprof -sample_index=samples -top -nodecount=1000000 -nodefraction=0 "$tmp/merged.pb.gz" >"$tmp/merged.top"
awk '/^ *flat/ { on = 1; next } on && NF >= 6 { name = $6; for (i = 7; i <= NF; i++) name = name " " $i; print name "\t" $1 }' \
	"$tmp/merged.top" >"$tmp/merged.names"
awk -F'\t' '{ s[$1] += $2 } END { for (k in s) print k "\t" s[k] }' "$tmp/v8.j.names" "$tmp/native.j.names" >"$tmp/sum.names"
compare_counts "go tool pprof -proto merges two profiles: per function the sum of both reports" \
	"$tmp/sum.names" "$tmp/merged.names"
both=$(($(cat "$tmp/v8.j.total") + $(cat "$tmp/native.j.total")))
check "the merged total is both reports' totals, $both samples" grep -q "of $both total" "$tmp/merged.top"

# perf hotblocks report --pprof FILE: the same profile, from the recording.
(cd "$tmp" && "$top/scripts/perf-hotblocks" report -i "$top/test-data/v8-wasm/perf.data" $v8_args \
	--pprof "$tmp/perf.pb.gz" >/dev/null 2>&1)
pprof -sample_index=samples -top -nodecount=1000000 -nodefraction=0 "$tmp/perf.pb.gz" >"$tmp/perf.top"
check "perf hotblocks report --pprof FILE writes the profile hotblocks --pprof writes" \
	sh -c "sed 1d $tmp/perf.top | diff - $tmp/v8.top.body"

# --function selects as the report does: only mix's samples, no classes.
"$POSTPROC" --pprof "$tmp/mix.pb.gz" --function mix "$tmp/native.hbs" 2>/dev/null
pprof -sample_index=samples -top "$tmp/mix.pb.gz" >"$tmp/mix.top"
mix=$(awk -F'\t' '$1 == "mix" { print $2 }' "$tmp/native.j.names")
check "--function mix: the profile holds mix alone, its $mix samples" \
	sh -c "grep -q 'of $mix total' $tmp/mix.top && test \$(awk '/^ *flat/ { on = 1; next } on' $tmp/mix.top | wc -l) = 1"

# --pprof needs its file; an input is never written over.
"$POSTPROC" --pprof </dev/null >"$tmp/nofile.out" 2>&1
rc=$?
check "--pprof without a file is a usage error" sh -c "test $rc = 2 && grep -q \"needs an argument\" $tmp/nofile.out"
cp "$tmp/native.hbs" "$tmp/native.orig"
refused "--pprof onto its input is refused, the stream untouched" "$tmp" "$tmp/native.hbs" "$tmp/native.orig" \
	"refusing to overwrite it" "$POSTPROC" --pprof native.hbs native.hbs
check "go tool pprof wrote nothing but into the test's scratch directory (its errors: none)" \
	sh -c "! grep -v '^Main binary filename not available' $tmp/pprof.err | grep -q ."
echo "1..$tap_n"

#!/bin/sh
# SPDX-License-Identifier: MIT
# Comparing and merging runs on real recordings (test-data/diff, README.md
# there says what is known of each, and how it was read off the listings):
#  - a stream against itself: every pair of functions and blocks, delta 0;
#  - V8 running one program before and after one hot loop changed: that loop
#    at the top, the block pairs checked by hand, the functions by identity;
#  - the real wasmtime at -O opt-level=0 and 2: blocks paired through their
#    wasm offsets, checked against each side's own report and wasm-objdump;
#  - V8 under node 20 and node 22 (test-data/v8-versions): blocks paired by
#    their source lines, the functions by name across script paths;
#  - merging: two runs of one program fold into one function per code, with
#    each run's samples (checked against perf's own attribution for
#    wasmtime), and different code under one name stays apart;
#  - perf hotblocks diff on the recordings, and the usage errors.
# shellcheck source=scripts/tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_private_tmp

D=$top/test-data/diff
js=$top/scripts/tests/diff.js
hb() { "$POSTPROC" "$@"; }
rec=/tmp/hotblocks-rec/diff
# The dumps (and .cwasm files) go back where the recordings ran; only ours.
trap 'rm -rf "$tmp" "$rec" /tmp/hotblocks-rec/v8-versions/node-20 /tmp/hotblocks-rec/v8-versions/node-22
	rmdir /tmp/hotblocks-rec/v8-versions 2>/dev/null' EXIT
rm -rf "$rec"
for c in v8-base v8-changed v8-changed-2 wasmtime-O0 wasmtime-O2 wasmtime-O2-2; do
	diff_stream "$c" "$tmp/$c.hbs"
done
cwasm() { echo "$D/wasmtime-$1/module.cwasm"; }

# 1. Against itself.
hb diff --all --json "$tmp/v8-base.hbs" "$tmp/v8-base.hbs" >"$tmp/self.json" 2>"$tmp/self.err"
check "V8 stream against itself: every function and block paired with itself, delta 0" \
	node "$js" self "$tmp/self.json"
hb diff --all --json --cwasm "$(cwasm O2)" --wasm "$D/base.wasm" "$tmp/wasmtime-O2.hbs" \
	"$tmp/wasmtime-O2.hbs" >"$tmp/self-wt.json" 2>"$tmp/self-wt.err"
check "wasmtime stream against itself (with --cwasm): the same" node "$js" self "$tmp/self-wt.json"
hb diff "$tmp/v8-base.hbs" "$tmp/v8-base.hbs" >"$tmp/self.txt" 2>&1
check "against itself, the text says nothing changed beyond noise, and compares no block" sh -c \
	"grep -q '(no function changed beyond noise: none compared block by block; --all compares them)' '$tmp/self.txt' &&
	 grep -q '^\* beyond noise (Benjamini-Hochberg, 5% false discoveries): 0 of [0-9]* function pairs, 0 of 0 block pairs' '$tmp/self.txt'"

# 2. V8, one hot loop changed. By hand (README.md): mix's two unrolled loop
# copies are +0x49 (ends je, the exit test) and +0x8b (ends jne 0x40, the back
# edge) in base, +0x49 and +0x7f in changed; hash is the same code but for its
# calls' targets, so its blocks pair with themselves.
hb diff --json "$tmp/v8-base.hbs" "$tmp/v8-changed.hbs" >"$tmp/v8.json" 2>"$tmp/v8.err"
check "V8: the changed loop (mix) is at the top, and takes more" node "$js" top "$tmp/v8.json" JS:mix-2 1
check "V8: mix's loop blocks pair as read off the listings (0x49 -> 0x49, 0x8b -> 0x7f)" \
	node "$js" pairs "$tmp/v8.json" JS:mix-2 asm 49:49 8b:7f
check "V8: hash's loop blocks pair with themselves" \
	node "$js" pairs "$tmp/v8.json" JS:hash-1 asm 49:49 9f:9f
check "V8: hash's masked text is the same (score 1)" sh -c \
	"grep -q '\"base\": {\"start\": 73, .*\"key\": \"asm\", \"score\": 1.000' '$tmp/v8.json'"
hb diff "$tmp/v8-base.hbs" "$tmp/v8-changed.hbs" >"$tmp/v8.txt" 2>"$tmp/v8-text.err"
check "V8: the text table names the pair and how it matched" grep -Eq \
	'^ +8\.97% +24\.88% +\+15\.91%\* +asm [0-9]+% +`JS:mix-2-turbofan` :: block 0x49 -> 0x49$' "$tmp/v8.txt"
# mix's tiers together: its TurboFan code's 18.08% and 48.58% (README.md, and
# --tiers-apart below) and its Liftoff code's few samples before the tier-up.
check "V8: mix and hash are paired by identity in the function table, as wasm functions (no tier)" \
	grep -Eq '^ +18\.12% +48\.63% +\+30\.50%\* +identity +`JS:mix-2`$' "$tmp/v8.txt"
hb diff --tiers-apart "$tmp/v8-base.hbs" "$tmp/v8-changed.hbs" >"$tmp/v8-apart.txt" 2>&1
hb diff --tiers-apart --json "$tmp/v8-base.hbs" "$tmp/v8-changed.hbs" >"$tmp/v8-apart.json" 2>/dev/null
check "V8 --tiers-apart: the TurboFan code is the function, as the code load names it" \
	grep -Eq '^ +18\.08% +48\.58% +\+30\.50%\* +identity +`JS:mix-2-turbofan`$' "$tmp/v8-apart.txt"
check "V8 --tiers-apart --json: the changed loop is at the top, in JS:mix-2-turbofan" \
	node "$js" top "$tmp/v8-apart.json" JS:mix-2-turbofan 1
check "V8: a function's samples on each side are its tiers' (JSON tiers), each tier's those of its code with --tiers-apart" \
	node -e "
	const fs = require('fs'), t = JSON.parse(fs.readFileSync('$tmp/v8.json')),
		a = JSON.parse(fs.readFileSync('$tmp/v8-apart.json'));
	const apart = {};
	for (const f of a.functions) for (const s of ['base', 'new']) if (f[s]) apart[s + ' ' + f[s].name] = f[s].samples;
	let n = 0;
	for (const f of t.functions) for (const s of ['base', 'new']) {
		if (!f[s] || !f[s].tiers) continue;
		const sum = f[s].tiers.reduce((x, y) => x + y.samples, 0);
		if (sum !== f[s].samples) { console.log(f[s].name, s, sum, f[s].samples); process.exit(1); }
		for (const y of f[s].tiers)
			if (apart[s + ' ' + y.name] !== y.samples) { console.log(y.name, s, y.samples, apart[s + ' ' + y.name]); process.exit(1); }
		n++;
	}
	if (n < 4) { console.log('only', n, 'tiered sides'); process.exit(1); }"
hb diff --color=always "$tmp/v8-base.hbs" "$tmp/v8-changed.hbs" >"$tmp/v8-color.txt" 2>&1
check "--color: more share in red, less in green" sh -c \
	"grep -q \"$(printf '\033')\[31m *+15.91%\" '$tmp/v8-color.txt' && grep -q \"$(printf '\033')\[32m *-15.65%\" '$tmp/v8-color.txt'"
check "--color: a change within noise is dim, neither red nor green" sh -c \
	"grep -q \"$(printf '\033')\[2m *-0.41%$(printf '\033')\[0m  *identity *\\\`pthread_rwlock_unlock\" '$tmp/v8-color.txt'"
check "no colour when stdout is not a terminal" sh -c "! grep -q \"$(printf '\033')\" '$tmp/v8.txt'"
hb diff --counts --json "$tmp/v8-base.hbs" "$tmp/v8-changed.hbs" >"$tmp/v8-counts.json" 2>/dev/null
check "--counts ranks by the change in samples" node "$js" counts "$tmp/v8-counts.json"
hb diff --json --function hash "$tmp/v8-base.hbs" "$tmp/v8-changed.hbs" >"$tmp/v8-fn.json" 2>/dev/null
check "--function selects on both sides" node "$js" only "$tmp/v8-fn.json" hash
hb diff --top 2 "$tmp/v8-base.hbs" "$tmp/v8-changed.hbs" >"$tmp/v8-top.txt" 2>&1
check "--top 2 shows two block pairs" test "$(grep -c ' :: block ' "$tmp/v8-top.txt")" -eq 2

hb diff --listing --top 1 "$tmp/v8-base.hbs" "$tmp/v8-changed.hbs" >"$tmp/v8-list.txt" 2>/dev/null
check "--listing: the top pair, then BASE's and NEW's block in the report's layout" sh -c \
	"grep -q '^== 1: \`JS:mix-2-turbofan\` :: 8.97% -> 24.88% (+15.91%\*, 95% \[+[0-9.]*, +[0-9.]*\], beyond noise), asm [0-9]*%$' '$tmp/v8-list.txt' &&
	 grep -q '^BASE: \`JS:mix-2-turbofan\` :: block 0x49 :: 8.97% total samples$' '$tmp/v8-list.txt' &&
	 grep -q '^NEW:  \`JS:mix-2-turbofan\` :: block 0x49 :: 24.88% total samples$' '$tmp/v8-list.txt' &&
	 grep -q '^ *[0-9.]*% *rol     ecx, 5$' '$tmp/v8-list.txt'"

# 2b. The text shows the shown pairs alone, so it compares the blocks of a
# function only while it could hold one (the most that could first, in
# rounds from 64 functions): its pairs must be those --json, which compares
# every function, shows, in the same order, on a comparison of more than 64.
for t in "--min-delta 0 --top 5" "--min-delta 0 --top 40" "--counts --min-delta 0 --top 12"; do
	# shellcheck disable=SC2086
	hb diff $t "$tmp/v8-changed.hbs" "$tmp/v8-changed-2.hbs" >"$tmp/top.txt" 2>/dev/null &&
		hb diff $t --json "$tmp/v8-changed.hbs" "$tmp/v8-changed-2.hbs" >"$tmp/top.json" 2>/dev/null
	node -e '
	const fs = require("fs");
	const d = JSON.parse(fs.readFileSync(process.argv[1]));
	const text = fs.readFileSync(process.argv[2], "utf8").split("\n");
	const want = [];
	for (const f of d.functions)
		for (const p of f.blocks)
			if (p.shown) want.push([p.rank, ["base", "new"].filter((s) => p[s]).map((s) => "0x" +
				p[s].start.toString(16)).join(" -> ")]);
	want.sort((a, b) => a[0] - b[0]);
	const at = text.findIndex((l) => l.includes("[Block]"));
	const got = text.slice(at + 1).filter((l) => l.includes(" :: block ")).map((l) => l.split(" :: block ")[1]);
	const compared = d.functions.filter((f) => f.compared).length;
	const ok = compared > 64 && want.length && JSON.stringify(got) === JSON.stringify(want.map((w) => w[1]));
	if (!ok) console.error(`${compared} compared; text ${JSON.stringify(got)}\njson ${JSON.stringify(want)}`);
	process.exit(ok ? 0 : 1);' "$tmp/top.json" "$tmp/top.txt" 2>"$tmp/top.err"
	if [ $? -eq 0 ]; then
		ok "diff $t: the text's pairs are those --json ranks first (over $(grep -c '"compared": true' "$tmp/top.json") compared functions)"
	else
		not_ok "diff $t: the text's pairs are those --json ranks first" "$tmp/top.err"
	fi
done

# 3. wasmtime, -O opt-level=0 against 2: the loops pair through wasm offsets,
# which each side's own report gives (the .cwasm's address map); hash's body
# is 0xa4..0x114 and mix's 0x114..0x174 (wasm-objdump -d base.wasm).
wasm-objdump -d "$D/base.wasm" >"$tmp/base.od"
check "wasm-objdump puts hash at 0xa4 and mix at 0x114 (the ranges below)" sh -c \
	"grep -q '^0000a4 func\[1\] <hash>:' '$tmp/base.od' && grep -q '^000114 func\[2\] <mix>:' '$tmp/base.od' && grep -q '^000174 func\[3\]' '$tmp/base.od'"
for o in O0 O2; do
	hb --json --all --cwasm "$(cwasm $o)" --wasm "$D/base.wasm" "$tmp/wasmtime-$o.hbs" \
		>"$tmp/wt-$o.json" 2>/dev/null
done
# (their shares did not change beyond noise: --min-delta compares them anyway)
hb diff --json --min-delta 0.1 --base-cwasm "$(cwasm O0)" --base-clif "$D/wasmtime-O0/clif" \
	--new-cwasm "$(cwasm O2)" --new-clif "$D/wasmtime-O2/clif" --wasm "$D/base.wasm" \
	"$tmp/wasmtime-O0.hbs" "$tmp/wasmtime-O2.hbs" >"$tmp/wt.json" 2>"$tmp/wt.err"
check "wasmtime O0 -> O2: hash's loop pairs by wasm offsets (0xe -> 0x12)" \
	node "$js" pairs "$tmp/wt.json" hash wasm e:12
check "wasmtime O0 -> O2: mix's loop pairs by wasm offsets (0xb -> 0xf)" \
	node "$js" pairs "$tmp/wt.json" mix wasm b:f
check "wasmtime: hash's paired blocks share wasm offsets, all inside hash" \
	node "$js" wasm "$tmp/wt.json" "$tmp/wt-O0.json" "$tmp/wt-O2.json" hash a4 114
check "wasmtime: mix's paired blocks share wasm offsets, all inside mix" \
	node "$js" wasm "$tmp/wt.json" "$tmp/wt-O0.json" "$tmp/wt-O2.json" mix 114 174
hb diff --min-delta 0.1 --cwasm "$(cwasm O0)" "$tmp/wasmtime-O0.hbs" "$tmp/wasmtime-O2.hbs" >"$tmp/wt-one.txt" 2>&1
check "wasmtime: the O0 .cwasm does not match the O2 code (no wasm key on NEW)" sh -c \
	"grep -q ' :: block ' '$tmp/wt-one.txt' && ! grep -q 'wasm [0-9]*%' '$tmp/wt-one.txt'"

# 4. V8 under node 20 and 22: work() pairs by name across the scripts' paths,
# its hot block by source lines: both are hot.js lines 4, 7 and 8 (the [Source]
# cells of each side's report).
restore_recording v8-versions/node-20
restore_recording v8-versions/node-22
for n in 20 22; do
	plugin_stream "$top/test-data/v8-versions/node-$n/perf.data" "$tmp/node-$n.hbs" 2>/dev/null
done
hb diff --json --function work "$tmp/node-20.hbs" "$tmp/node-22.hbs" >"$tmp/node.json" 2>"$tmp/node.err"
check "node 20 -> 22: work()'s TurboFan code is paired by name" sh -c \
	"grep -q '\"display_name\": \"JS:\*work /tmp/hotblocks-rec/v8-versions/node-22/hot.js:5:14\".*' '$tmp/node.json' && grep -q '\"match\": \"name\"' '$tmp/node.json'"
hb -p 100 --function 'JS:*work' "$tmp/node-20.hbs" >"$tmp/node-20.txt" 2>&1
block=$(sed -n 's/^`JS:\*work .*` :: block 0x\([0-9a-f]*\) :: .*/\1/p' "$tmp/node-20.txt" | head -1)
hb -p 100 --function 'JS:*work' "$tmp/node-22.hbs" >"$tmp/node-22.txt" 2>&1
block22=$(sed -n 's/^`JS:\*work .*` :: block 0x\([0-9a-f]*\) :: .*/\1/p' "$tmp/node-22.txt" | head -1)
check "node 20 -> 22: work()'s hottest blocks ($block, $block22) pair by source lines" \
	node "$js" pairs "$tmp/node.json" "JS:*work /tmp/hotblocks-rec/v8-versions/node-20/hot.js:5:14" \
	source "$block:$block22"

# 5. Merging. Two runs of one module: each code folds, with each run's samples.
cat "$tmp/v8-changed.hbs" "$tmp/v8-changed-2.hbs" | hb --json --all >"$tmp/m-v8.json" 2>/dev/null
for r in v8-changed v8-changed-2; do hb --json --all "$tmp/$r.hbs" >"$tmp/$r.json" 2>/dev/null; done
for f in JS:hash-1-turbofan JS:mix-2-turbofan; do
	check "merge of two V8 runs: $f is one function, the sum of each run's" \
		node "$js" merged "$tmp/m-v8.json" "$tmp/v8-changed.json" "$tmp/v8-changed-2.json" "$f"
done
# wasmtime: perf's own attribution through the .cwasm's symbols gives the sums.
for r in O2 O2-2; do perf_syms "$D/wasmtime-$r/perf.data" "$tmp/perf-$r.syms"; done
perf_count() { perf_sym_count "$tmp/perf-$1.syms" "$2"; }
cat "$tmp/wasmtime-O2.hbs" "$tmp/wasmtime-O2-2.hbs" | hb --json --all >"$tmp/m-wt.json" 2>/dev/null
for f in hash:1 mix:2; do
	n=${f%:*} i=${f#*:}
	a=$(perf_count O2 "wasm[0]::function[$i]::$n") b=$(perf_count O2-2 "wasm[0]::function[$i]::$n")
	check "merge of two wasmtime runs (code at other addresses): $n has perf's $a + $b samples" \
		node "$js" merged "$tmp/m-wt.json" - - "$n" "${a:-0}" "${b:-0}"
done
check "merged runs keep their recordings and totals" sh -c \
	"grep -q '\"input\": \"$D/wasmtime-O2-2/perf.data\", \"total_samples\": 1848' '$tmp/m-wt.json'"
# Different code under one name stays apart, and the text says so.
cat "$tmp/v8-base.hbs" "$tmp/v8-changed.hbs" | hb --json --all >"$tmp/m-apart.json" 2>/dev/null
check "merge of base and changed: the two codes of mix stay apart" \
	node "$js" apart "$tmp/m-apart.json" JS:mix-2-turbofan 2
check "merge of base and changed: hash (other call targets) stays apart too" \
	node "$js" apart "$tmp/m-apart.json" JS:hash-1-turbofan 2
hb -p 90 "$tmp/v8-base.hbs" "$tmp/v8-changed.hbs" >/dev/null 2>"$tmp/m-apart.err"
check "the text report notes that one name has two codes, and from where" \
	grep -q "note: 'JS:mix-2-turbofan' names 2 different codes (from the runs .*v8-changed.hbs:1, .*v8-base.hbs:1)" \
	"$tmp/m-apart.err"
# A side of several runs is a concatenated stream.
cat "$tmp/v8-changed.hbs" "$tmp/v8-changed-2.hbs" >"$tmp/changed-both.hbs"
hb diff --json "$tmp/v8-base.hbs" "$tmp/changed-both.hbs" >"$tmp/v8-two.json" 2>/dev/null
check "diff with two runs on NEW: mix's loop blocks pair as before, among the 4 top, taking more" sh -c \
	"node '$js' pairs '$tmp/v8-two.json' JS:mix-2 asm 49:49 8b:7f &&
	 node '$js' rank '$tmp/v8-two.json' JS:mix-2 49 4 1 && node '$js' rank '$tmp/v8-two.json' JS:mix-2 8b 4 1"

# 6. perf hotblocks diff on the recordings themselves, and on saved streams.
"$top/scripts/perf-hotblocks" diff -i "$D/v8-base/perf.data" -i "$D/v8-changed/perf.data" \
	>"$tmp/ph.txt" 2>"$tmp/ph.err"
check "perf hotblocks diff -i BASE -i NEW exits 0" test $? -eq 0
hb diff --base-label "$D/v8-base/perf.data" --new-label "$D/v8-changed/perf.data" \
	"$tmp/v8-base.hbs" "$tmp/v8-changed.hbs" >"$tmp/ph-want.txt" 2>/dev/null
check "perf hotblocks diff prints what hotblocks diff prints for the two streams" \
	diff -u "$tmp/ph-want.txt" "$tmp/ph.txt"
"$top/scripts/perf-hotblocks" diff --top 3 "$tmp/v8-base.hbs" "$D/v8-changed/perf.data" \
	>"$tmp/ph2.txt" 2>&1
check "perf hotblocks diff takes a saved stream for a side" grep -q 'JS:mix-2-turbofan` :: block 0x49 -> 0x49' "$tmp/ph2.txt"
# What the plugin warns of a side is told by the recording the user gave,
# not by the temporary stream made of it (gone by then): a recording moved
# away from its dump, which the plugin finds beside it (no warning: that is
# how recordings move) but cut short, and warns of that.
mkdir "$tmp/moved" "$tmp/moved-orig"
cp "$D/v8-base/perf.data" "$tmp/moved/base.data"
mv "$rec/v8-base"/jit-*.dump "$tmp/moved-orig/"
for d in "$tmp/moved-orig"/jit-*.dump; do head -c -7 "$d" >"$tmp/moved/${d##*/}"; done
"$top/scripts/perf-hotblocks" diff --json --top 1 --new-label after -i "$tmp/moved/base.data" \
	-i "$D/v8-changed/perf.data" >"$tmp/moved.json" 2>"$tmp/moved.err"
rm -f "$tmp/moved"/jit-*.dump
mv "$tmp/moved-orig"/jit-*.dump "$rec/v8-base/"
check "perf hotblocks diff: the plugin's warning on BASE names the recording given" \
	grep -q "^hotblocks: note: BASE: $tmp/moved/base.data: the plugin warned: .*$tmp/moved/jit-[0-9]*\.dump" \
	"$tmp/moved.err"
check "perf hotblocks diff: no note or run names a temporary stream" \
	sh -c "! grep -e 'perf-hotblocks\.' -e 'side[01]\.hbs' '$tmp/moved.err' '$tmp/moved.json'"
check "perf hotblocks diff: the JSON's runs name the recordings" sh -c \
	"grep -qF '\"runs\": [{\"stream\": \"$tmp/moved/base.data\", \"line\": 1, \"input\": \"$tmp/moved/base.data\"' '$tmp/moved.json'"
check "perf hotblocks diff --new-label TEXT: NEW is TEXT, BASE still its recording" sh -c \
	"grep -qF '\"new\": {\"files\": \"after\"' '$tmp/moved.json' && grep -qF '\"base\": {\"files\": \"$tmp/moved/base.data\"' '$tmp/moved.json'"

# 7. Usage and input errors.
expect() {	# description status pattern command...
	d=$1 want=$2 pat=$3
	shift 3
	"$@" >"$tmp/e.out" 2>"$tmp/e.err"
	rc=$?
	if [ "$rc" -eq "$want" ] && grep -q -- "$pat" "$tmp/e.err"; then ok "$d"; else
		echo "exit $rc" >>"$tmp/e.err"; not_ok "$d" "$tmp/e.err"; fi
}
expect "one stream: usage error" 2 "diff needs two streams" hb diff "$tmp/v8-base.hbs"
expect "three streams: usage error naming cat" 2 "cat their streams" hb diff a b c
expect "both standard input: usage error" 2 "cannot both be standard input" hb diff - -
expect "a missing file: its name" 1 "nothere.hbs: No such file" hb diff "$tmp/nothere.hbs" "$tmp/v8-base.hbs"
expect "a perf.data instead of a stream: what to run" 1 "is a perf.data recording, not a hotblocks stream" \
	hb diff "$D/v8-base/perf.data" "$tmp/v8-base.hbs"
expect "an event NEW lacks" 1 "has no event called 'nosuch'" hb diff -e nosuch "$tmp/v8-base.hbs" "$tmp/v8-base.hbs"
expect "--min-delta must be a number" 2 "min-delta needs a non-negative number" hb diff --min-delta x a b
expect "perf hotblocks diff with one recording: usage error" 2 "needs two recordings" \
	"$top/scripts/perf-hotblocks" diff -i "$D/v8-base/perf.data"
hb diff --json - "$tmp/v8-base.hbs" <"$tmp/v8-changed.hbs" >"$tmp/stdin.json" 2>/dev/null
check "BASE from standard input" grep -q '"files": "-"' "$tmp/stdin.json"
hb diff -o "$tmp/out.txt" "$tmp/v8-base.hbs" "$tmp/v8-changed.hbs" >/dev/null 2>&1
check "-o writes the comparison to the file" cmp "$tmp/out.txt" "$tmp/v8.txt"

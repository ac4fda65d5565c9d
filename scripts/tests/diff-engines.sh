#!/bin/sh
# SPDX-License-Identifier: MIT
# One wasm program across engines, and one .cwasm seen two ways, on real
# recordings (what is known of each is in the READMEs of test-data/diff and
# test-data/wasmtime-real, checked by hand):
#  - base.wasm under node 20 (V8) and under wasmtime 50.0.1: V8's
#    JS:hash-1-turbofan and JS:mix-2-turbofan are wasmtime's hash and mix
#    (wasm functions 1 and 2: wasm-objdump, nm of the .cwasm), paired by
#    their index with --cwasm (the .cwasm's symbols), by their name without;
#    their loops pair by what both sides have, the instructions (V8's wasm
#    code carries no wasm offsets), and the text and the page say so; the
#    same work took the same time in both engines (--counts, samples a run
#    at the same -F): no change beyond noise in either function; with V8's
#    listing of its code (the wasm offsets its jitdump lacks), the two
#    blocks of TurboFan's unrolled loop are one group against Cranelift's;
#  - wasmtime's jitdump and perfmap recordings of one .cwasm (49.0.3 and
#    50.0.1 f64, 48.0.2 fib, 50.0.1 switch): every function pairs with
#    itself, by identity with --cwasm, by name without, every block by its
#    bytes (the code key); cat of the two streams folds each function into
#    one of two runs, with perf's own counts of the two recordings.
# shellcheck source=scripts/tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_private_tmp

D=$top/test-data/diff
R=$top/test-data/wasmtime-real
js=$top/scripts/tests/diff.js
hb() { "$POSTPROC" "$@"; }
trap 'rm -rf "$tmp" /tmp/hotblocks-rec/diff /tmp/hotblocks-rec/wasmtime-*' EXIT

for c in v8-base v8-base-2 v8-base-3 v8-base-4 v8-base-5 v8-base-6 v8-base-7 wasmtime-50; do
	diff_stream "$c" "$tmp/$c.hbs"
done
cw=$D/wasmtime-50/module.cwasm

# 1. One .wasm, two engines.
hb diff --json --new-cwasm "$cw" "$tmp/v8-base.hbs" "$tmp/wasmtime-50.hbs" >"$tmp/e.json" 2>"$tmp/e.err"
check "V8 -> wasmtime 50: JS:hash-1 (its tiers together) is hash, wasm function 1, paired by its index" \
	node "$js" fpair "$tmp/e.json" JS:hash-1 hash wasm 1
check "... JS:mix-2 is mix, wasm function 2" \
	node "$js" fpair "$tmp/e.json" JS:mix-2 mix wasm 2
check "... their loops pair by the instructions, V8's having no wasm offsets (hash +0x9f -> +0x12, mix +0x8b -> +0xf)" \
	sh -c "node '$js' pairs '$tmp/e.json' JS:hash-1 asm 9f:12 &&
	       node '$js' pairs '$tmp/e.json' JS:mix-2 asm 8b:f"
hb diff --new-cwasm "$cw" "$tmp/v8-base.hbs" "$tmp/wasmtime-50.hbs" >"$tmp/e.txt" 2>/dev/null
check "... the text says which key paired them: wasm 1 for the functions, asm for the blocks" sh -c \
	"grep -Eq '^ +70\\.90% +64\\.57% +-6\\.33%\\*? +wasm 1 +\`JS:hash-1\` -> \`hash\`$' '$tmp/e.txt' &&
	 grep -Eq ' asm [0-9]+% +\`JS:hash-1-turbofan\` -> \`hash\` :: block 0x9f -> 0x12$' '$tmp/e.txt'"
hb diff --html --new-cwasm "$cw" "$tmp/v8-base.hbs" "$tmp/wasmtime-50.hbs" >"$tmp/e.html" 2>/dev/null
check "... and so does the page" sh -c \
	"grep -q '<td>wasm 1</td><td><a href=\"#d[0-9]*\"><code>JS:hash-1</code> &rarr; <code>hash</code>' '$tmp/e.html' &&
	 grep -q 'data-key=\"asm\"' '$tmp/e.html'"
hb diff --json "$tmp/v8-base.hbs" "$tmp/wasmtime-50.hbs" >"$tmp/e-bare.json" 2>/dev/null
check "without --cwasm (wasmtime's jit dump names hash alone): paired by the name" sh -c \
	"node '$js' fpair '$tmp/e-bare.json' JS:hash-1 hash name &&
	 node '$js' fpair '$tmp/e-bare.json' JS:mix-2 mix name"
# The same work (150000 rounds each) in both engines: hash 1247, 1287, 1225,
# 1236, 1232, 1221 samples a run (v8-base-2 .. -7) against 1232, mix 589, 556,
# 641, 596, 632, 649 against 636 (README.md): a comparison of time per run.
cat "$tmp/v8-base-2.hbs" "$tmp/v8-base-3.hbs" "$tmp/v8-base-4.hbs" "$tmp/v8-base-5.hbs" \
	"$tmp/v8-base-6.hbs" "$tmp/v8-base-7.hbs" >"$tmp/v8-6.hbs"
hb diff --counts --json --new-cwasm "$cw" "$tmp/v8-6.hbs" "$tmp/wasmtime-50.hbs" >"$tmp/t.json" 2>/dev/null
check "--counts, V8's 6 runs against wasmtime's: samples a run, hash 1241.33 (TurboFan's; with Liftoff's 1243.17) -> 1232, mix 610.5 (611.67) -> 636, neither beyond noise" \
	node -e "
	const d = JSON.parse(require('fs').readFileSync('$tmp/t.json'));
	const f = (n) => d.functions.find((x) => x.base && x.base.name === n);
	const h = f('JS:hash-1'), m = f('JS:mix-2');
	const tier = (x, t) => x.base.tiers.find((y) => y.tier === t).samples;
	const ok = d.selection.per_run && tier(h, 'turbofan') === 7448 && tier(m, 'turbofan') === 3663 &&
		Math.abs(h.delta_per_run - (1232 - h.base.samples / 6)) < 1e-3 &&
		Math.abs(m.delta_per_run - (636 - m.base.samples / 6)) < 1e-3 && !h.significant && !m.significant &&
		h.interval[0] < 0 && h.interval[1] > 0 && d.noise.spread.measured;
	if (!ok) { console.log(JSON.stringify([d.selection, d.noise.spread, h, m])); process.exit(1); }"

# 1b. Blocks of the same wasm offsets grouped across engines. V8's jitdump
# gives its wasm code no wasm offsets; the listing V8 printed of the same
# run (v8-base-2/wasm-code.txt, --print-wasm-code) does, at its calls and
# the loads that can trap (--base-v8-code, with the module: --base-wasm).
# TurboFan unrolled hash's and mix's loops in two (blocks 0x49 and 0x9f,
# 0x49 and 0x8b: its listing, by hand), Cranelift made one (0x12, 0xf) and
# put the hoisted memory base's load, of the loop's first i32.load8_u, in
# the entry block (0x0): one group each side.
gj=$top/scripts/tests/engine-groups.js
v8code="--base-v8-code $D/v8-base-2/wasm-code.txt --base-wasm $D/base.wasm"
wasm-objdump -d "$D/base.wasm" >"$tmp/objdump.txt"
hb --json --all --cwasm "$cw" --wasm "$D/base.wasm" --function hash "$tmp/wasmtime-50.hbs" \
	>"$tmp/w-hash.json" 2>/dev/null
hb --json --all --cwasm "$cw" --wasm "$D/base.wasm" --function mix "$tmp/wasmtime-50.hbs" \
	>"$tmp/w-mix.json" 2>/dev/null
check "V8's listing: the wasm offsets of both of TurboFan's hash loop blocks (0x49, 0x9f) are the i32.load8_u of Cranelift's one (0x12), by wasm-objdump's function offset" \
	sh -c "node '$gj' offsets '$D/v8-base-2/wasm-code.txt' '$tmp/objdump.txt' 1 49 9f '$tmp/w-hash.json' 12 &&
	       node '$gj' offsets '$D/v8-base-2/wasm-code.txt' '$tmp/objdump.txt' 1 9f f5 '$tmp/w-hash.json' 12"
check "... and of mix's (0x49, 0x8b; Cranelift's 0xf)" \
	sh -c "node '$gj' offsets '$D/v8-base-2/wasm-code.txt' '$tmp/objdump.txt' 2 49 8b '$tmp/w-mix.json' f &&
	       node '$gj' offsets '$D/v8-base-2/wasm-code.txt' '$tmp/objdump.txt' 2 8b cb '$tmp/w-mix.json' f"
# shellcheck disable=SC2086
hb diff --all --json $v8code --new-cwasm "$cw" "$tmp/v8-base-2.hbs" "$tmp/wasmtime-50.hbs" \
	>"$tmp/g.json" 2>"$tmp/g.err"
check "V8 (with its listing) -> wasmtime 50: hash's unrolled loop is one group, 0x49 + 0x9f against 0x0 + 0x12, each side's samples and share its blocks' sum" \
	node "$gj" group "$tmp/g.json" JS:hash-1 49,9f 12
check "... and mix's, 0x49 + 0x8b against 0x0 + 0xf" \
	node "$gj" group "$tmp/g.json" JS:mix-2 49,8b f
check "... hash's TurboFan loop blocks pair by the wasm key then (0x9f -> 0x12)" \
	node "$js" pairs "$tmp/g.json" JS:hash-1 wasm 9f:12
# shellcheck disable=SC2086
hb diff --all $v8code --new-cwasm "$cw" "$tmp/v8-base-2.hbs" "$tmp/wasmtime-50.hbs" >"$tmp/g.txt" 2>/dev/null
# 1247 = 620 + 627 of 1996 samples, 1232 of 1908 (the JSON's blocks)
check "... the text has a row a group: 62.47% (0x49 + 0x9f) against 64.57% (0x0 + 0x12)" \
	grep -Eq '^ +62\.47% +64\.57% +\+2\.10%  +`JS:hash-1-turbofan` -> `hash` :: blocks 0x49 0x9f -> 0x0 0x12$' "$tmp/g.txt"
# shellcheck disable=SC2086
hb diff --all --html $v8code --new-cwasm "$cw" "$tmp/v8-base-2.hbs" "$tmp/wasmtime-50.hbs" >"$tmp/g.html" 2>/dev/null
check "... and the page a table of them" \
	grep -q 'data-samples-base="1247" data-samples-new="1232"><td class="n">62.47%</td><td class="n">64.57%</td>.*<code>JS:hash-1-turbofan</code> &rarr; <code>hash</code> :: blocks 0x49 0x9f &rarr; 0x0 0x12' "$tmp/g.html"
hb diff --all --json --new-cwasm "$cw" "$tmp/v8-base-2.hbs" "$tmp/wasmtime-50.hbs" >"$tmp/g0.json" 2>/dev/null
check "without the listing, V8's blocks have no wasm offsets: no group, and the output has no groups" \
	sh -c "node '$gj' none '$tmp/g0.json' && node '$gj' none '$tmp/e.json' && ! grep -q grouped '$tmp/e.txt'"
check "--base-v8-code without the module: refused, naming the listing" sh -c \
	"! '$POSTPROC' diff --base-v8-code '$D/v8-base-2/wasm-code.txt' --new-cwasm '$cw' '$tmp/v8-base-2.hbs' \
		'$tmp/wasmtime-50.hbs' >/dev/null 2>'$tmp/g1.err' && grep -q 'wasm-code.txt: .*--base-wasm' '$tmp/g1.err'"
check "... every V8 wasm code object of v8-base-2 is in its listing: no note" \
	sh -c "! grep -q ' lists ' '$tmp/g.err'"
# shellcheck disable=SC2086
hb diff --all --json $v8code --new-cwasm "$cw" "$tmp/v8-base.hbs" "$tmp/wasmtime-50.hbs" \
	>"$tmp/g3.json" 2>"$tmp/g3.err"
check "another run's listing (v8-base-2's against v8-base's stream): none of its code is listed, said once; no group" \
	sh -c "grep -q 'BASE: .*/v8-base-2/wasm-code.txt lists 0 of the 5 V8 wasm code objects' '$tmp/g3.err' &&
	       node '$gj' none '$tmp/g3.json'"
# Code V8 freed and whose place it reused looks like a listing of every address twice.
cat "$D/v8-base-2/wasm-code.txt" "$D/v8-base-2/wasm-code.txt" >"$tmp/twice-code.txt"
hb diff --all --json --base-v8-code "$tmp/twice-code.txt" --base-wasm "$D/base.wasm" --new-cwasm "$cw" \
	"$tmp/v8-base-2.hbs" "$tmp/wasmtime-50.hbs" >"$tmp/g4.json" 2>"$tmp/g4.err"
check "a listing giving each address twice: which code is which is unknown, none used, said; no group" \
	sh -c "grep -q 'twice-code.txt lists 0 of the ' '$tmp/g4.err' && node '$gj' none '$tmp/g4.json'"
# wasmtime opt-level 0 against 2: hash's and mix's loop blocks are one each,
# and paired (test-data/diff/README.md): the groups they are in (with the
# entry blocks, which hold loads hoisted out of the loop) say nothing more.
for c in wasmtime-O0 wasmtime-O2; do diff_stream "$c" "$tmp/$c.hbs"; done
hb diff --all --json --base-cwasm "$D/wasmtime-O0/module.cwasm" --new-cwasm "$D/wasmtime-O2/module.cwasm" \
	"$tmp/wasmtime-O0.hbs" "$tmp/wasmtime-O2.hbs" >"$tmp/g5.json" 2>/dev/null
check "wasmtime O0 -> O2 (wasm offsets on both sides, each loop one block a side, paired): no group" \
	sh -c "node '$gj' none '$tmp/g5.json' && node '$js' pairs '$tmp/g5.json' hash wasm e:12"
# The listing cut inside hash's TurboFan code (its first 387 lines, a copy):
# refused, naming the line where it ends.
head -n 387 "$D/v8-base-2/wasm-code.txt" >"$tmp/cut-code.txt"
check "a listing cut short: refused, naming the file and its last line" sh -c \
	"! '$POSTPROC' diff --base-v8-code '$tmp/cut-code.txt' --base-wasm '$D/base.wasm' '$tmp/v8-base-2.hbs' \
		'$tmp/wasmtime-50.hbs' >/dev/null 2>'$tmp/g2.err' &&
	 grep -q 'cut-code.txt:387: cut short inside a function' '$tmp/g2.err'"

# 2. One .cwasm, recorded with --profile=jitdump and --profile=perfmap.
for c in 49.0.3/f64 50.0.1/f64 48.0.2/fib 50.0.1/switch; do
	v=${c%/*} p=${c#*/} d=$R/$c n=$(echo "$c" | tr / -)
	rec=/tmp/hotblocks-rec/wasmtime-$v-$p
	mkdir -p "$rec/jitdump"
	cp "$d/module.cwasm" "$rec/"
	cp "$d"/jitdump/jit-*.dump "$rec/jitdump/"
	for k in jitdump perfmap; do
		plugin_stream "$d/$k/perf.data" "$tmp/$n-$k.hbs" 2>/dev/null
	done
	hb diff --all --json --cwasm "$d/module.cwasm" "$tmp/$n-jitdump.hbs" "$tmp/$n-perfmap.hbs" \
		>"$tmp/$n.json" 2>"$tmp/$n.err"
	case $p in f64) fn="interp blend" ;; fib) fn=fib ;; switch) fn="far_loop step" ;; esac
	# shellcheck disable=SC2086
	check "$v $p, jitdump against perfmap (--cwasm): every wasm function pairs with itself ($fn), every block by its code" \
		node "$js" onecode "$tmp/$n.json" $fn
	check "... by identity (the .cwasm's symbol, however seen)" \
		node -e "const d = JSON.parse(require('fs').readFileSync('$tmp/$n.json'));
			const w = d.functions.filter((f) => f.base && f.base.kind === 'jit');
			process.exit(w.length && w.every((f) => f.match === 'identity' && f.new.kind === 'cwasm') ? 0 : 1)"
	hb diff --all --json "$tmp/$n-jitdump.hbs" "$tmp/$n-perfmap.hbs" >"$tmp/$n-bare.json" 2>/dev/null
	check "... without --cwasm, by name (NAME and wasm[0]::function[F]::NAME)" sh -c \
		"node -e \"const d = JSON.parse(require('fs').readFileSync('$tmp/$n-bare.json'));
			const w = d.functions.filter((f) => f.base && f.base.kind === 'jit');
			process.exit(w.length && w.every((f) => f.new && f.new.kind === 'cwasm' && f.match === 'name' &&
				f.new.name.endsWith('::' + f.base.name)) ? 0 : 1)\""
done
# cat of the two streams: interp and blend of 49.0.3 f64 are one function each,
# of two runs, with perf's counts (perf script -F ip,sym, the .cwasm back in
# place: both recordings ran its mapped code).
d=$R/49.0.3/f64
for k in jitdump perfmap; do perf_syms "$d/$k/perf.data" "$tmp/perf-$k.syms"; done
perf_count() { perf_sym_count "$tmp/perf-$1.syms" "$2"; }
cat "$tmp/49.0.3-f64-jitdump.hbs" "$tmp/49.0.3-f64-perfmap.hbs" | hb --json --all >"$tmp/m.json" 2>/dev/null
for f in interp:1 blend:2; do
	n=${f%:*} i=${f#*:}
	a=$(perf_count jitdump "wasm[0]::function[$i]::$n") b=$(perf_count perfmap "wasm[0]::function[$i]::$n")
	check "cat jitdump perfmap (49.0.3 f64): $n is one function of two runs, perf's $a + $b samples" \
		node "$js" merged "$tmp/m.json" - - "$n" "${a:-0}" "${b:-0}"
done

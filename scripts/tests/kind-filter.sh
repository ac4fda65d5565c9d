#!/bin/sh
# SPDX-License-Identifier: MIT
# --kind (hotblocks, hotblocks diff, perf hotblocks report and its --jit-only)
# on two real recordings, each kind's count checked against perf's own
# attribution of the same perf.data, sample by sample:
#  - test-data/v8-wasm (node's jitdump, JIT, native and kernel samples): perf
#    script -F ip,dso of perf.data after `perf inject --jit` and before it,
#    the two lines of one sample side by side. A sample is JIT code when
#    perf inject put it in a jitted-PID-N.so, or perf names its memory
#    anonymous (/tmp/perf-PID.map, before inject: the one sample there that no
#    jitdump load covers is the plugin's unattributed jit-no-load); kernel in
#    [kernel.kallsyms]; native in any other file.
#  - test-data/jit-node-perfmap (node --perf-basic-prof: a perf map, no
#    jitdump): the same rule on perf.data as it is.
# Then what the kinds mean to the report: the percentages and --percent are
# of the kind's samples (the first block's share, the threshold's rule on
# the JSON's blocks), the kinds partition the sampled functions, a kind of
# no sample, the comparison of both sides, HTML and dot, and --jit-only as
# --kind jit.
# shellcheck source=scripts/tests/lib.sh
. "$(dirname "$0")/lib.sh"
need_private_tmp

hb() { "$POSTPROC" "$@"; }
# perf_kinds BEFORE AFTER OUT: perf's per-sample kinds counted into OUT
# ("jit N", "native N", "kernel N", "all N"), from perf script -F ip,dso of
# perf.data before and after perf inject --jit (the same file for both
# without a jitdump).
perf_kinds() {
	perf --no-pager script -i "$1" -F ip,dso 2>/dev/null | sed -e 's/^ *[0-9a-f]* //' >"$3.before"
	perf --no-pager script -i "$2" -F ip,dso 2>/dev/null | sed -e 's/^ *[0-9a-f]* //' >"$3.after"
	paste -d '\t' "$3.before" "$3.after" | awk -F '\t' '
		$2 ~ /\/jitted-[0-9]+-[0-9]+\.so\)$/ || $1 ~ /^\(\/tmp\/perf-[0-9]+\.map\)$/ { k["jit"]++; next }
		$2 == "([kernel.kallsyms])" { k["kernel"]++; next }
		{ k["native"]++ }
		END { print "jit " k["jit"] + 0; print "native " k["native"] + 0; print "kernel " k["kernel"] + 0
		      print "all " k["jit"] + k["native"] + k["kernel"] }' >"$3"
}
kind_count() { awk -v k="$2" '$1 == k { print $2 }' "$1"; }
# json FILE EXPR: EXPR of the document d of FILE, printed
json() { node -e 'const d = JSON.parse(require("fs").readFileSync(process.argv[1])); console.log(eval(process.argv[2]))' "$1" "$2"; }
pct() { awk -v n="$1" -v t="$2" 'BEGIN { printf "%.2f", n / t * 100 }'; }

# --- the recordings, their streams and perf's kinds ---
restore_recording v8-wasm
w=$top/test-data/v8-wasm/perf.data
plugin_stream "$w" "$tmp/w.hbs" 2>/dev/null || not_ok "perf script --dlfilter hotblocks.so on test-data/v8-wasm"
plugin_stream "$w" "$tmp/w-jitonly.hbs" jit-only 2>/dev/null ||
	not_ok "perf script --dlfilter hotblocks.so --dlarg jit-only on test-data/v8-wasm"
perf --no-pager inject --jit -i "$w" -o "$tmp/w-injected.data" 2>"$tmp/inject.err" ||
	not_ok "perf inject --jit of test-data/v8-wasm" "$tmp/inject.err"
perf_kinds "$w" "$tmp/w-injected.data" "$tmp/w.perf"
restore_recording jit-node-perfmap
m=$(recording_data jit-node-perfmap)
plugin_stream "$m" "$tmp/m.hbs" 2>/dev/null || not_ok "perf script --dlfilter hotblocks.so on test-data/jit-node-perfmap"
perf_kinds "$m" "$m" "$tmp/m.perf"
# perf's answer, checked by hand when this test was written: v8-wasm jit 4977
# (4976 in jitted .so files, 1 in anonymous memory), native 553, kernel 180
# of 5710; jit-node-perfmap jit 464 (the perf map's), native 998, kernel 107
# of 1569. The test compares with perf's output of this run, not these.
check "perf's kinds of v8-wasm: JIT, native and kernel samples, every sample one" \
	awk '$2 == 0 { exit 1 } $1 == "all" && $2 != 5710 { exit 1 }' "$tmp/w.perf"

# --- each kind's count is perf's ---
for r in w m; do
	name=v8-wasm; [ "$r" = m ] && name=jit-node-perfmap
	all=$(kind_count "$tmp/$r.perf" all)
	for k in jit native kernel; do
		n=$(kind_count "$tmp/$r.perf" $k)
		hb --json --kind $k "$tmp/$r.hbs" >"$tmp/$r-$k.json" 2>"$tmp/$r-$k.err"
		got=$(json "$tmp/$r-$k.json" '[d.total_samples, d.collected_samples, d.kinds.join()].join(" ")')
		if [ "$got" = "$n $all $k" ]; then
			ok "$name --kind $k: $n of the $all samples, as perf attributes them"
		else
			echo "JSON total_samples, collected_samples, kinds: $got; perf: $n $all $k" >"$tmp/why"
			not_ok "$name --kind $k: $n of the $all samples, as perf attributes them" "$tmp/why"
		fi
		hb --kind $k -p 0 "$tmp/$r.hbs" 2>/dev/null | head -1 >"$tmp/head"
		echo "Collected $all total samples; $n ($(pct "$n" "$all")%) in $k code (--kind $k): every percentage is of these." >"$tmp/want"
		check "$name --kind $k: the header says how many of all samples are shown" diff -u "$tmp/want" "$tmp/head"
	done
done
check "the note names what --kind native leaves out, class by class" \
	grep -qxF "hotblocks: note: --kind native: 5157 of the 5710 samples are of other kinds or of none (jit 4976, kernel 180, unattributed.jit-no-load 1): not counted, not shown" "$tmp/w-native.err"
check "the note says kernel samples have no blocks" \
	grep -q "^hotblocks: note: --kind kernel: the plugin counts kernel samples (180) in no function" "$tmp/w-kernel.err"

# --- the kinds partition the sampled functions ---
hb --json "$tmp/w.hbs" >"$tmp/w-all.json" 2>/dev/null
funcs='d.sampled_functions.map(f => f.name + " " + f.samples).join("\n")'
json "$tmp/w-all.json" "$funcs" | sort >"$tmp/all-funcs"
{ json "$tmp/w-jit.json" "$funcs"; json "$tmp/w-native.json" "$funcs"; } | sort >"$tmp/kind-funcs"
check "v8-wasm: the functions of --kind jit and --kind native are those of the report, once each, their samples the same" \
	diff -u "$tmp/all-funcs" "$tmp/kind-funcs"
check "v8-wasm --kind kernel: no function" test "$(json "$tmp/w-kernel.json" 'd.sampled_functions.length')" = 0
check "v8-wasm --kind jit: W is perf's samples in jitted .so files (4976)" \
	test "$(json "$tmp/w-jit.json" 'd.jit_samples')" = "$(grep -c '/jitted-[0-9]*-[0-9]*\.so)$' "$tmp/w.perf.after")"
check "jit-node-perfmap --kind jit: the perf map's functions are JIT code" \
	test "$(json "$tmp/m-jit.json" 'd.sampled_functions.filter(f => f.kind == "native").reduce((s, f) => s + f.samples, 0)')" = \
	"$(kind_count "$tmp/m.perf" jit)"

# --- percentages and --percent are of the kind's samples ---
t=$(kind_count "$tmp/w.perf" native)
tj=$(kind_count "$tmp/w.perf" jit)
hb --kind native "$tmp/w.hbs" 2>/dev/null >"$tmp/w-native.txt"
hb --json --all --kind native "$tmp/w.hbs" >"$tmp/w-native-all.json" 2>/dev/null
first=$(json "$tmp/w-native-all.json" 'd.functions.flatMap(f => f.blocks).filter(b => b.rank == 1)[0].samples')
check "v8-wasm --kind native: the hottest block's share is of the $t native samples ($first, $(pct "$first" "$t")%)" \
	grep -q ":: $(pct "$first" "$t")% total samples$" "$tmp/w-native.txt"
# JIT code holds 87% of v8-wasm's samples: a P of all samples and a P of the
# JIT's take other blocks (no cap: the JIT's samples are more than P% of all)
hb --json --all --kind jit "$tmp/w.hbs" 2>/dev/null >"$tmp/ranked.json"
for p in 10 30 50 80; do
	hb --json --kind jit -p $p "$tmp/w.hbs" 2>/dev/null >"$tmp/p.json"
	# the reference's rule, on the blocks ranked: the shown ones are the
	# first k such that the first k-1 cover less than p% of T, k of them not
	rule="(t => { const b = d.functions.flatMap(f => f.blocks).filter(b => b.rank).sort((x, y) => x.rank - y.rank); let s = 0, k = 0; while (k < b.length && s / t * 100 < $p) s += b[k++].samples; return k; })"
	got=$(json "$tmp/p.json" 'd.blocks_shown')
	want=$(json "$tmp/ranked.json" "$rule($tj)")
	of_all=$(json "$tmp/ranked.json" "$rule(5710)")
	check "v8-wasm --kind jit -p $p: $want blocks, the first to cover $p% of the JIT samples (of all: $of_all)" test "$got" = "$want"
done

# --- repeated, or a comma list; every kind is no filter ---
hb --kind jit --kind kernel "$tmp/w.hbs" >"$tmp/a" 2>&1
hb --kind jit,kernel "$tmp/w.hbs" >"$tmp/b" 2>&1
check "--kind jit --kind kernel is --kind jit,kernel" diff -u "$tmp/a" "$tmp/b"
check "--kind jit,kernel: $(($(kind_count "$tmp/w.perf" jit) + 180)) samples" \
	grep -q "^Collected 5710 total samples; $(($(kind_count "$tmp/w.perf" jit) + $(kind_count "$tmp/w.perf" kernel))) " "$tmp/b"
hb "$tmp/w.hbs" >"$tmp/a" 2>&1
hb --kind native,kernel --kind jit "$tmp/w.hbs" >"$tmp/b" 2>&1
check "every kind is the report without --kind" diff -u "$tmp/a" "$tmp/b"
hb --kind user "$tmp/w.hbs" >"$tmp/out" 2>"$tmp/err"
rc=$?
check "--kind user: exit 2 naming what --kind takes" sh -c \
	"[ $rc = 2 ] && grep -qF \"hotblocks: error: --kind takes jit, native or kernel (or a comma list of them), not 'user'\" '$tmp/err'"

# --- HTML and dot ---
hb --html="$tmp/n.html" --kind native "$tmp/w.hbs" 2>/dev/null
check "--html --kind native: the totals are the kind's, of all samples" \
	grep -qF "data-total=\"$t\" data-jit=\"0\">Collected <b>5710</b> total samples" "$tmp/n.html"
check "--html --kind native: the header names the kind" \
	grep -qF "data-collected=\"5710\" data-kinds=\"native\">$t</b> ($(pct "$t" 5710)%) in native code" "$tmp/n.html"
hb --dot --kind jit -p 1 "$tmp/w.hbs" >"$tmp/w.dot" 2>/dev/null
f=$(json "$tmp/w-jit.json" 'd.sampled_functions[0].samples')
check "--dot --kind jit: the hottest function's share is of the JIT samples" \
	grep -qF "$f samples ($(pct "$f" "$tj")%)" "$tmp/w.dot"

# --- the comparison: both sides ---
hb diff --json --kind native "$tmp/w.hbs" "$tmp/w.hbs" >"$tmp/d.json" 2>/dev/null
got=$(json "$tmp/d.json" '[d.sides.base.total_samples, d.sides.base.collected_samples, d.sides.new.total_samples, d.selection.kinds.join()].join(" ")' 2>&1)
check "diff --kind native: each side's total is its native samples ($got)" test "$got" = "$t 5710 $t native"
hb diff --kind native "$tmp/w.hbs" "$tmp/m.hbs" >"$tmp/d.txt" 2>/dev/null
tm=$(kind_count "$tmp/m.perf" native)
check "diff --kind native: the header of each side says how many of its samples are shown" sh -c \
	"grep -q '^BASE: 5710 total samples; $t ($(pct "$t" 5710)%) in native code (' '$tmp/d.txt' &&
	 grep -q '^NEW:  1569 total samples; $tm ($(pct "$tm" 1569)%) in native code (' '$tmp/d.txt'"

# --- --jit-only is --kind jit, with the plugin's jit-only ---
# The plugin's jit-only looks at no mapping: the one sample in anonymous
# memory no jitdump load covers is not resolved, so not JIT: T is one less,
# the blocks and their samples the same.
hb --json --all --kind jit "$tmp/w-jitonly.hbs" >"$tmp/jo.json" 2>/dev/null
blocks='JSON.stringify(d.functions.map(f => [f.name, f.samples, f.blocks.filter(b => b.samples)]))'
json "$tmp/ranked.json" "$blocks" >"$tmp/a"
json "$tmp/jo.json" "$blocks" >"$tmp/b"
check "--kind jit of the plugin's jit-only stream: the same functions, blocks and samples" cmp -s "$tmp/a" "$tmp/b"
got=$(json "$tmp/jo.json" '[d.total_samples, d.collected.unattributed["jit-no-load"], d.collected.unattributed["not-resolved"]].join(" ")')
check "--kind jit of the jit-only stream: the JIT's samples but the one in JIT memory no load covers, left with the native ones unresolved ($got)" \
	test "$got" = "$((tj - 1)) 0 $((t + 1))"
hb --kind jit "$tmp/w-jitonly.hbs" >"$tmp/a" 2>/dev/null
"$top/scripts/perf-hotblocks" report --jit-only -i "$w" >"$tmp/c" 2>"$tmp/c.err"
check "perf hotblocks report --jit-only is hotblocks --kind jit of the plugin's jit-only stream" diff -u "$tmp/a" "$tmp/c"
hb --kind jit "$tmp/w.hbs" >"$tmp/a" 2>/dev/null
"$top/scripts/perf-hotblocks" report --kind jit -i "$w" >"$tmp/c" 2>"$tmp/c.err"
check "perf hotblocks report --kind jit is hotblocks --kind jit" diff -u "$tmp/a" "$tmp/c"
"$top/scripts/perf-hotblocks" report --kind native -p 20 -i "$w" >"$tmp/c" 2>"$tmp/c.err"
hb --kind native -p 20 "$tmp/w.hbs" >"$tmp/a" 2>/dev/null
check "perf hotblocks report --kind native is hotblocks --kind native" diff -u "$tmp/a" "$tmp/c"

#!/bin/sh
# SPDX-License-Identifier: MIT
# V8's code names and DEBUG_INFO entries across node lines, on the real
# recordings of test-data/v8-versions/ (node 18.20.4 / V8 10.2, Debian 12's
# line; 20.20.2 / V8 11.3; 22.23.5 / V8 12.4), whatever node this machine has:
#  1. the names have the form of that V8 (`LazyCompile:*work`, `Function:^work`
#     on V8 10; `JS:*work`, `JS:^work` later) and srcline's reading of them
#     says TurboFan entries are machine-code offsets (bias 0x40) and Sparkplug
#     ones are not;
#  2. for every load whose entries we call machine-code offsets, entry - code
#     start - 0x40 is an instruction start (objdump) for every entry, and the
#     entries without the 0x40 are not (fewer land on instruction starts);
#  3. end to end (plugin + hotblocks --json --all): every sampled instruction
#     of the TurboFan work() with a [Source] cell names hot.js lines 4-10 (mix
#     on line 4 is inlined into work on lines 5-10).
. "$(dirname "$0")/lib.sh"
need_private_tmp

T=$top/build/tests/postproc-test-srcmap
for c in "$T" objdump node; do
	if ! command -v "$c" >/dev/null 2>&1; then
		not_ok "$c is missing (make check builds the test; apt-get install binutils nodejs)"
		exit 0
	fi
done

for n in 18 20 22; do
	case=v8-versions/node-$n
	rec=$top/test-data/$case
	case $n in
	18) opt='LazyCompile:\*work' base='Function:\^work' ;;
	*) opt='JS:\*work' base='JS:\^work' ;;
	esac
	w=$tmp/$n
	mkdir -p "$w"
	"$T" --jitdump "$rec"/jit-*.dump "$w" >"$w/jd" 2>"$w/jd.err" || not_ok "node $n: our jitdump walk runs" "$w/jd.err"
	check "node $n: TurboFan work() is named $opt, read with bias 0x40" \
		grep -q "^load [0-9]* 1 0x40 [0-9]* $opt /tmp/hotblocks-rec/$case/hot.js:5" "$w/jd"
	check "node $n: Sparkplug work() is named $base, its entries not machine-code offsets" \
		grep -q "^load [0-9]* 0 0x40 [0-9]* $base /tmp/hotblocks-rec/$case/hot.js:5" "$w/jd"

	: >"$w/res"
	awk '$1 == "load" && $3 == 1 { print $2 }' "$w/jd" | while read -r idx; do
		objdump -D -b binary -mi386:x86-64 "$w/$idx.bin" |
			awk '/^ +[0-9a-f]+:/ { a = $1; sub(/:/, "", a); print a }' >"$w/starts"
		awk -v i="$idx" '$1 == "entry" && $2 == i { print $3 }' "$w/jd" |
			while read -r off; do
				grep -qx "$(printf '%x' "$off")" "$w/starts" && a=1 || a=0
				grep -qx "$(printf '%x' $((off + 0x40)))" "$w/starts" && b=1 || b=0
				echo "$idx $a $b"
			done >>"$w/res"
	done
	total=$(wc -l <"$w/res")
	at=$(awk '$2 { k++ } END { print k + 0 }' "$w/res")
	raw=$(awk '$3 { k++ } END { print k + 0 }' "$w/res")
	check "node $n: entry - code start - 0x40 is an instruction start for $at of $total entries ($raw without the 0x40)" \
		test "$total" -ge 5 -a "$at" -eq "$total" -a "$raw" -lt "$total"

	restore_recording "$case"
	plugin_stream "$rec/perf.data" "$w/s.hbs" 2>"$w/plugin.err"
	"$POSTPROC" --json --all "$w/s.hbs" >"$w/s.json" 2>/dev/null
	hot_js_work_lines "$w/s.json" >"$w/v8.out" 2>&1
	read -r k nbad rest <"$w/v8.out"
	check "node $n: $k sampled TurboFan instructions have hot.js lines of work() ($nbad outside: $rest)" \
		test "${k:-0}" -ge 2 -a "${nbad:-1}" -eq 0
	rm -rf "/tmp/hotblocks-rec/$case"
done
rmdir /tmp/hotblocks-rec/v8-versions 2>/dev/null
exit 0
